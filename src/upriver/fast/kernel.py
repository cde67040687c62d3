"""The compiled core: finish a round's bids and tricks, deal and play whole games, in batches.

State is a handful of integers per world: one ``uint64`` bit set per hand, and a
:class:`PositionRecord`: a :class:`RoundState` (hand size, trump, dealer, leader, cards on
the table, tricks done, cards gone, trump broken) and arrays of the bids, the tricks won and
the trick on the table. Rule options arrive as an ``int64`` array ``opts`` whose places
:mod:`upriver.fast.policies` names (``opts[DEALER_RULE]``, ``opts[SCORES + …]``): the dealer's rule,
simultaneous bidding, the trump-lead rule, whether tricks pay past a bid, the blind one-card
round, rotating trump, then the round's points for every bid and tricks taken, so the
kernel scores by the table's scoring exactly as the engine does. Whole games take one such
row a round (``anderson`` pays by the round's number).

Batches are split into chunks of :data:`CHUNK` items, each with its own random
stream seeded from ``(seed, chunk)``, so a seed gives the same results whatever the
number of threads. Each driver comes twice: ``*_range`` runs chunks in one thread
and ``*_parallel`` spreads them over numba's threads with ``prange``.

A *script* forces the first actions of every item (bids in bidding order from the
dealer's left, then cards in play order); the policy takes over after it. Tests use
it to replay the engine's games, search bots to try one candidate move across all
sampled worlds. A scripted move that is illegal stops that item with status 1. Each
driver writes its results into an :class:`Outcomes`.

The building blocks :func:`make_bids` and :func:`play_tricks` (and
:mod:`upriver.fast.policies`' legal moves) are compiled functions of one world that any
other driver can call, as :mod:`upriver.fast.ucb` and :mod:`upriver.fast.endgame` do.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from upriver.fast._jit import (
    FULL,
    GOLDEN,
    ONE,
    ZERO,
    Bits,
    Ints,
    below,
    below_low,
    ctz,
    i64,
    inline_jit,
    jit,
    mix,
    parallel_jit,
    prange,
    u64,
)
from upriver.fast.learned import learned_card
from upriver.fast.policies import (
    BLIND,
    COUNTS_TRICKS,
    DEALER_RULE,
    POLICY_LEARNED,
    POLICY_RANDOM,
    ROTATE,
    SIMULTANEOUS,
    SUIT_OF,
    basic_bid,
    basic_card,
    blind_bid,
    lead_barred,
    left_of,
    legal_bids,
    legal_cards,
    random_bit,
    score,
    strength,
    trick_standing,
)

__all__ = [
    "CHUNK",
    "Outcomes",
    "PositionRecord",
    "RoundState",
    "deal",
    "first_jack_dealer",
    "games_parallel",
    "games_range",
    "make_bids",
    "play_tricks",
    "policy_card",
    "rollout_parallel",
    "rollout_range",
    "sample_parallel",
    "sample_range",
    "score",
    "state_of",
]

CHUNK = 256
"""Items per random stream and per unit of parallel work."""

OK = 0
ILLEGAL = 1

ROTATION = np.array([2, 1, 0, 3, -1], dtype=np.int64)
"""Trump by round under rotating trump (suit indices C0 D1 H2 S3): hearts, diamonds, clubs, spades, none."""


class RoundState(NamedTuple):
    """Where a round stands, in numbers: what :func:`make_bids` and :func:`play_tricks` start from.

    Only scalars, so that numba passes it for free: a world's arrays (bids, tricks, the trick)
    go beside it, since taking an array out of a record costs a reference count each time.
    """

    size: int
    """Cards dealt to each seat this round."""
    trump: int
    """The trump suit (0–3: clubs, diamonds, hearts, spades), -1 for none."""
    dealer: int
    leader: int
    """The seat that led the trick on the table, or leads the next one."""
    trick_len: int
    """Cards on the table."""
    done: int
    """Tricks finished this round."""
    gone: int
    """The cards played this round and the turned card, as bits in an ``int64``."""
    broken: bool
    """Whether a trump has been played this round."""


class PositionRecord(NamedTuple):
    """A round at one moment, as the compiled drivers take it (numba passes it as a plain tuple):
    a :class:`RoundState`'s fields (:func:`state_of` gathers them again) and the arrays, shared
    by every world. :func:`upriver.fast.api.position_record` packs a
    :class:`~upriver.fast.api.Position` so. It is flat, as numba's ``prange`` takes no tuple in
    a tuple."""

    size: int
    trump: int
    dealer: int
    leader: int
    trick_len: int
    done: int
    gone: int
    broken: bool
    bids: Ints
    """Each seat's bid, -1 for one still to make."""
    tricks: Ints
    """Each seat's tricks won so far."""
    trick: Ints
    """The cards on the table in play order from the leader, padded to a seat count."""


class Outcomes(NamedTuple):
    """Where a driver writes its results: rows of worlds ``(worlds, players)``, or of games and
    rounds ``(games, rounds, players)`` for whole games, which leave the last three empty."""

    bids: NDArray[np.int8]
    tricks: NDArray[np.int8]
    scores: NDArray[np.int16]
    """The round's points under the table's scoring."""
    status: NDArray[np.int8]
    """A world's :data:`OK`, or :data:`ILLEGAL` where a scripted move was illegal."""
    cards: NDArray[np.int8]
    """With ``record``: a world's cards played after the position in order (-1 padded); else no columns."""
    winners: NDArray[np.int8]
    """With ``record``: a world's winner of each trick by trick number; else no columns."""


@inline_jit
def state_of(position: PositionRecord) -> RoundState:
    """Where the round of ``position`` stands."""
    p = position
    return RoundState(p.size, p.trump, p.dealer, p.leader, p.trick_len, p.done, p.gone, p.broken)


@inline_jit
def load_world(
    worlds: Bits,
    w: int,
    bids0: Ints,
    tricks0: Ints,
    trick0: Ints,
    hands: Bits,
    bids: Ints,
    tricks: Ints,
    trick: Ints,
) -> None:
    """Set the working ``hands``, ``bids``, ``tricks`` and ``trick`` to world ``w``'s hands and the
    position's bids, tricks and trick (``bids0``, ``tricks0``, ``trick0``): each world starts the same."""
    for s in range(hands.shape[0]):
        hands[s] = worlds[w, s]
        bids[s] = bids0[s]
        tricks[s] = tricks0[s]
        trick[s] = trick0[s]


@jit
def stream(seed: int, chunk: int) -> int:
    """A generator state (a splitmix64 counter) for one chunk, from the seed and chunk number."""
    return mix(mix(u64(seed)) + u64(chunk) * u64(0xD1B54A32D192ED03))


@inline_jit
def first_jack_dealer(deck: Ints, players: int, rng: int) -> tuple[int, int]:
    """Turn ``deck``'s cards face up one at a time, shuffling as they come, until a Jack: the seat
    it falls to deals first. Returns (that seat, rng)."""
    for i in range(52):
        rng += GOLDEN
        j = i + below(mix(rng), 52 - i)
        deck[i], deck[j] = deck[j], deck[i]
        if deck[i] % 13 == 9:
            return i % players, rng
    return 0, rng  # never reached: the deck holds four Jacks


@inline_jit
def deal(deck: Ints, hands: Bits, size: int, rng: int) -> tuple[int, int]:
    """Deal ``size`` cards to each seat of ``hands`` from ``deck``, shuffled as far as needed (a
    partial Fisher–Yates, two swaps a random draw), and the card after them to turn up. Returns
    (the turned card, -1 when no card is left; rng)."""
    n = hands.shape[0]
    dealt = n * size
    for i in range(0, min(dealt + 1, 52), 2):
        rng += GOLDEN
        bits = mix(rng)
        j = i + below(bits, 52 - i)
        deck[i], deck[j] = deck[j], deck[i]
        j = i + 1 + below_low(bits, 51 - i)
        deck[i + 1], deck[j] = deck[j], deck[i + 1]
    for s in range(n):
        m = ZERO
        for t in range(s * size, (s + 1) * size):
            m |= ONE << u64(deck[t])
        hands[s] = m
    return (deck[dealt] if dealt < 52 else -1), rng


@inline_jit
def make_bids(
    hands: Bits, bids: Ints, state: RoundState, opts: Ints, policy: int, rng: int, script: Ints, at: int
) -> tuple[int, int, int]:
    """Fill every bid of ``bids`` still ``-1``, in bidding order, the first from ``script[at:]``;
    returns (status, script position, rng). Before any card is played the only card gone is the
    turned one."""
    n = hands.shape[0]
    size, trump, dealer, turned = state.size, state.trump, state.dealer, u64(state.gone)
    total, made = 0, 0
    for s in range(n):
        if bids[s] >= 0:
            total += bids[s]
            made += 1
    seat = dealer
    for _ in range(n):
        seat = left_of(seat, n)
        if bids[seat] >= 0:
            continue
        last = opts[SIMULTANEOUS] == 0 and made == n - 1
        legal = legal_bids(size, last, opts[DEALER_RULE], total)
        if at < script.shape[0]:
            b = int(script[at])
            at += 1
            if b < 0 or b > size or legal & (ONE << u64(b)) == ZERO:
                return ILLEGAL, at, rng
        elif policy == POLICY_RANDOM:
            rng += GOLDEN
            b = random_bit(mix(rng), legal)
        elif opts[BLIND] != 0 and size == 1:  # the seat sees every card but its own
            leader = left_of(dealer, n)
            b = blind_bid(hands, seat, trump, turned, leader, legal, opts)
        else:
            unseen = FULL & ~hands[seat] & ~turned
            b = basic_bid(hands[seat], trump, size, n, unseen, legal)
        bids[seat] = b
        total += b
        made += 1
    return OK, at, rng


@inline_jit
def policy_card(
    policy: int,
    hand: int,
    legal: int,
    win: int,
    win_seat: int,
    i: int,
    n: int,
    seat: int,
    trump: int,
    bids: Ints,
    tricks: Ints,
    left: int,
    gone: int,
    counts: bool,
) -> int:
    """The card ``policy`` (:data:`POLICY_LEARNED`, else the rule of thumb) plays for ``seat``, the
    ``i``-th of ``n`` to play to a trick that ``win`` (played by ``win_seat``) is winning, with
    ``left`` tricks to play and the cards of ``gone`` played."""
    unseen = FULL & ~u64(hand) & ~u64(gone)
    if policy == POLICY_LEARNED:
        before = win_seat if i > 0 else -1
        return int(learned_card(hand, legal, win, before, i, seat, trump, bids, tricks, left, unseen, counts))
    return int(
        basic_card(hand, legal, win, i == n - 1, trump, bids[seat] - tricks[seat], left, unseen, counts)
    )


@inline_jit
def play_tricks(
    hands: Bits,
    bids: Ints,
    tricks: Ints,
    trick: Ints,
    state: RoundState,
    opts: Ints,
    policy: int,
    rng: int,
    script: Ints,
    at: int,
    record: bool,
    rec_cards: NDArray[np.int8],
    rec_winners: NDArray[np.int8],
) -> tuple[int, int]:
    """Play out the round from ``state`` (every bid in ``bids`` made), the first cards from ``script[at:]``.

    ``tricks`` (each seat's so far) is updated in place; ``trick`` holds the cards on the table
    and is scratch. With ``record``, the
    cards played here go to ``rec_cards`` in order and each trick's winner to
    ``rec_winners[trick number]``. Returns (status, rng).
    """
    n = hands.shape[0]
    size, trump, leader, done = state.size, state.trump, state.leader, state.done
    trick_len, gone, broken = state.trick_len, u64(state.gone), state.broken
    # The strongest card takes the trick (policies.strength): taking the maximum needs no
    # branch on suits, which random play makes unpredictable.
    lead_suit, win_seat, win, best = trick_standing(trick, trick_len, leader, trump)
    k = 0
    while done < size:
        for i in range(trick_len, n):
            seat = leader + i
            if seat >= n:
                seat -= n
            hand = hands[seat]
            legal = legal_cards(hand, lead_suit, trump, lead_barred(opts, broken, done), False)
            if at < script.shape[0]:
                c = int(script[at])
                at += 1
                if c < 0 or c > 51 or legal & (ONE << u64(c)) == ZERO:
                    return ILLEGAL, rng
            elif policy == POLICY_RANDOM:
                rng += GOLDEN
                c = random_bit(mix(rng), legal)
            # policy_card's choice spelled out: through that call whole hands under the rule of
            # thumb ran a fifth slower (bench/kernel.py, basic hands 114k/s against 149k/s).
            elif policy == POLICY_LEARNED:
                c = learned_card(
                    hand, legal, win, win_seat if i > 0 else -1, i, seat, trump, bids, tricks, size - done,
                    FULL & ~hand & ~gone, opts[COUNTS_TRICKS] == 1,
                )  # fmt: skip
            else:
                c = basic_card(
                    hand, legal, win, i == n - 1, trump, bids[seat] - tricks[seat], size - done,
                    FULL & ~hand & ~gone, opts[COUNTS_TRICKS] == 1,
                )  # fmt: skip
            bit = ONE << u64(c)
            hands[seat] = hand ^ bit
            gone |= bit
            if record:
                rec_cards[k] = c
                k += 1
            suit = SUIT_OF[c]
            if i == 0:
                lead_suit = suit
            value = strength(c, lead_suit, trump)
            if value > best:
                win_seat, win, best = seat, c, value
            broken = broken | (suit == trump)
            trick[i] = c
        tricks[win_seat] += 1
        if record:
            rec_winners[done] = win_seat
        done += 1
        trick_len = 0
        lead_suit, win, best = -1, -1, -1
        leader = win_seat
    return OK, rng


@inline_jit
def play_round(
    hands: Bits,
    bids: Ints,
    tricks: Ints,
    trick: Ints,
    state: RoundState,
    opts: Ints,
    policy: int,
    rng: int,
    script: Ints,
    record: bool,
    rec_cards: NDArray[np.int8],
    rec_winners: NDArray[np.int8],
) -> tuple[int, int]:
    """The round from ``state`` to its end: :func:`make_bids` for the bids still to make, then
    :func:`play_tricks`, the first moves from ``script``. Returns (status, rng)."""
    code, at, rng = make_bids(hands, bids, state, opts, policy, rng, script, 0)
    if code == OK:
        code, rng = play_tricks(
            hands, bids, tricks, trick, state, opts, policy, rng, script, at, record, rec_cards, rec_winners
        )
    return code, rng


@jit
def games_range(
    first: int,
    stop: int,
    games: int,
    sizes: Ints,
    first_jack: bool,
    first_dealer: int,
    opts: Ints,
    policy: int,
    seed: int,
    out: Outcomes,
) -> None:
    """Deal and play games of chunks ``first`` … ``stop - 1`` (of ``games`` in all) to the end.

    ``sizes`` are the rounds' hand sizes, ``opts`` has one row a round, and ``out`` takes
    ``(games, rounds, players)`` bids, tricks and scores. Each round is dealt by :func:`deal`;
    the turned card sets trump (none if no card is left), or under rotating trump the round's
    place in the rotation does.
    """
    # Each array is taken out of its record once, outside the loops: numba counts a reference
    # (an atomic operation) every time it takes one out.
    out_bids, out_tricks, out_scores = out.bids, out.tricks, out.scores
    n = out_bids.shape[2]
    deck = np.arange(52)
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    script = np.zeros(0, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int8)
    for chunk in range(first, stop):
        rng = stream(seed, chunk)
        deck[:] = np.arange(52)  # each chunk shuffles from the same order: results never depend on threads
        for g in range(chunk * CHUNK, min(games, (chunk + 1) * CHUNK)):
            dealer = first_dealer
            if first_jack:
                dealer, rng = first_jack_dealer(deck, n, rng)
            for r in range(sizes.shape[0]):
                size = sizes[r]
                card, rng = deal(deck, hands, size, rng)
                ropts = opts[r]
                trump, turned = -1, ZERO
                if ropts[ROTATE] != 0:
                    trump = ROTATION[r % 5]
                elif card >= 0:
                    trump, turned = card // 13, ONE << u64(card)
                bids[:] = -1
                tricks[:] = 0
                leader = left_of(dealer, n)
                state = RoundState(size, trump, dealer, leader, 0, 0, i64(turned), False)
                rng = play_round(
                    hands, bids, tricks, trick, state, ropts, policy, rng, script, False, no_record, no_record
                )[1]
                for s in range(n):
                    out_bids[g, r, s] = bids[s]
                    out_tricks[g, r, s] = tricks[s]
                    out_scores[g, r, s] = score(ropts, bids[s], tricks[s])
                dealer = left_of(dealer, n)


@parallel_jit
def games_parallel(
    games: int,
    sizes: Ints,
    first_jack: bool,
    first_dealer: int,
    opts: Ints,
    policy: int,
    seed: int,
    out: Outcomes,
) -> None:
    """:func:`games_range` over every chunk, spread across numba's threads."""
    chunks = (games + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        games_range(chunk, chunk + 1, games, sizes, first_jack, first_dealer, opts, policy, seed, out)


@jit
def rollout_range(
    first: int,
    stop: int,
    worlds: Bits,
    position: PositionRecord,
    opts: Ints,
    policy: int,
    seed: int,
    script: Ints,
    record: bool,
    out: Outcomes,
) -> None:
    """Complete ``position`` in the sampled worlds of chunks ``first`` … ``stop - 1``.

    ``worlds`` is ``(W, players)`` hands; bids still ``-1`` in ``position`` are made by
    ``policy``, which then plays every card after the ``script``. ``out`` takes a row a world.
    """
    count, n = worlds.shape
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    # Each array is taken out of its record once, outside the loops (see games_range).
    state, bids0, tricks0, trick0 = state_of(position), position.bids, position.tricks, position.trick
    out_bids, out_tricks, out_scores = out.bids, out.tricks, out.scores
    status, cards, winners = out.status, out.cards, out.winners
    for chunk in range(first, stop):
        rng = stream(seed, chunk)
        for w in range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK)):
            load_world(worlds, w, bids0, tricks0, trick0, hands, bids, tricks, trick)
            code, rng = play_round(
                hands, bids, tricks, trick, state, opts, policy, rng, script, record, cards[w], winners[w]
            )
            status[w] = code
            for s in range(n):
                out_bids[w, s] = bids[s]
                out_tricks[w, s] = tricks[s]
                out_scores[w, s] = score(opts, bids[s], tricks[s])


@parallel_jit
def rollout_parallel(
    worlds: Bits,
    position: PositionRecord,
    opts: Ints,
    policy: int,
    seed: int,
    script: Ints,
    record: bool,
    out: Outcomes,
) -> None:
    """:func:`rollout_range` over every chunk, spread across numba's threads."""
    chunks = (worlds.shape[0] + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        rollout_range(chunk, chunk + 1, worlds, position, opts, policy, seed, script, record, out)


@jit
def sample_range(
    first: int, stop: int, count: int, known: Bits, unknown: int, need: Ints, seed: int, out: Bits
) -> None:
    """Deal the ``unknown`` cards at random so seat ``s`` holds ``need[s]`` of them besides
    ``known[s]``: uniform over the deals consistent with the card counts alone."""
    n = known.shape[0]
    pool = np.zeros(52, dtype=np.int64)
    for chunk in range(first, stop):
        rng = stream(seed, chunk)
        size = 0  # each chunk starts from the same pool order: results never depend on threads
        rest = unknown
        while rest != ZERO:
            pool[size] = int(ctz(rest))
            rest &= rest - ONE
            size += 1
        for w in range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK)):
            i = 0
            for s in range(n):
                m = u64(known[s])
                for _ in range(need[s]):
                    rng += GOLDEN
                    j = i + below(mix(rng), size - i)
                    pool[i], pool[j] = pool[j], pool[i]
                    m |= ONE << u64(pool[i])
                    i += 1
                out[w, s] = m


@parallel_jit
def sample_parallel(count: int, known: Bits, unknown: int, need: Ints, seed: int, out: Bits) -> None:
    """:func:`sample_range` over every chunk, spread across numba's threads."""
    chunks = (count + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        sample_range(chunk, chunk + 1, count, known, unknown, need, seed, out)
