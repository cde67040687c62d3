"""The compiled core: finish a round's bids and tricks, deal and play whole games, in batches.

State is a handful of integers per world: one ``uint64`` bit set per hand, the bids,
the tricks won, the cards of the trick on the table, the cards gone this round
(played or turned up) and whether trump is broken. Rule options arrive as an
``int64`` array ``opts`` (:mod:`upriver.fast.policies` names its places): the dealer's rule,
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
sampled worlds. A scripted move that is illegal stops that item with status 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from upriver.fast._jit import (
    FULL,
    GOLDEN,
    ONE,
    ZERO,
    below,
    below_low,
    ctz,
    inline_jit,
    jit,
    mix,
    parallel_jit,
    prange,
    u64,
)
from upriver.fast.policies import (
    BLIND,
    COUNTS_TRICKS,
    POLICY_RANDOM,
    ROTATE,
    basic_bid,
    basic_card,
    blind_bid,
    lead_barred,
    legal_bids,
    legal_cards,
    random_bit,
    score,
)

__all__ = [
    "CHUNK",
    "games_parallel",
    "games_range",
    "make_bids",
    "play_tricks",
    "rollout_parallel",
    "rollout_range",
    "sample_parallel",
    "sample_range",
    "score",
]

SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)
"""Suit and rank (0–12) of each card: a table look-up is cheaper than Python's floor division."""

CHUNK = 256
"""Items per random stream and per unit of parallel work."""

OK = 0
ILLEGAL = 1

ROTATION = np.array([2, 1, 0, 3, -1], dtype=np.int64)
"""Trump by round under rotating trump (suit indices C0 D1 H2 S3): hearts, diamonds, clubs, spades, none."""


@jit
def stream(seed: int, chunk: int) -> int:
    """A generator state (a splitmix64 counter) for one chunk, from the seed and chunk number."""
    return mix(mix(u64(seed)) + u64(chunk) * u64(0xD1B54A32D192ED03))


@inline_jit
def make_bids(
    hands: Any,
    bids: Any,
    size: int,
    trump: int,
    turned: int,
    dealer: int,
    opts: Any,
    policy: int,
    rng: int,
    script: Any,
    at: int,
) -> tuple[int, int, int]:
    """Fill every bid still ``-1``, in bidding order; returns (status, script position, rng)."""
    n = hands.shape[0]
    total, made = 0, 0
    for s in range(n):
        if bids[s] >= 0:
            total += bids[s]
            made += 1
    for i in range(n):
        seat = (dealer + 1 + i) % n
        if bids[seat] >= 0:
            continue
        last = opts[1] == 0 and made == n - 1
        legal = legal_bids(size, last, opts[0], total)
        if at < script.shape[0]:
            b = int(script[at])
            at += 1
            if b < 0 or b > size or legal & (ONE << u64(b)) == ZERO:
                return ILLEGAL, at, rng
        elif policy == POLICY_RANDOM:
            rng += GOLDEN
            b = random_bit(mix(rng), legal)
        elif opts[BLIND] != 0 and size == 1:  # the seat sees every card but its own
            leader = dealer + 1 if dealer + 1 < n else 0
            b = blind_bid(hands, seat, trump, turned, leader, legal, opts)
        else:
            unseen = FULL & ~hands[seat] & ~turned
            b = basic_bid(hands[seat], trump, size, n, unseen, legal)
        bids[seat] = b
        total += b
        made += 1
    return OK, at, rng


@inline_jit
def play_tricks(
    hands: Any,
    bids: Any,
    tricks: Any,
    trick: Any,
    trick_len: int,
    leader: int,
    done: int,
    size: int,
    trump: int,
    gone: int,
    broken: bool,
    opts: Any,
    policy: int,
    rng: int,
    script: Any,
    at: int,
    record: bool,
    rec_cards: Any,
    rec_winners: Any,
) -> tuple[int, int]:
    """Play out the round from ``done`` finished tricks and ``trick_len`` cards on the table.

    ``gone`` holds the cards played this round and the turned card; ``tricks`` is updated
    in place. With ``record``, the cards played here go to ``rec_cards`` in order and each
    trick's winner to ``rec_winners[trick number]``. Returns (status, rng).
    """
    n = hands.shape[0]
    # A card's strength in a trick: rank, +16 in the led suit, +32 in trump. Taking the
    # maximum needs no branch on suits, which random play makes unpredictable.
    lead_suit, win_seat, win, best = -1, -1, -1, -1
    for i in range(trick_len):  # who is winning the trick on the table
        c = trick[i]
        if i == 0:
            lead_suit = c // 13
        strength = c % 13 + (16 if c // 13 == lead_suit else 0) + (32 if c // 13 == trump else 0)
        if strength > best:
            win_seat, win, best = (leader + i) % n, c, strength
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
            strength = RANK_OF[c] + (16 if suit == lead_suit else 0) + (32 if suit == trump else 0)
            if strength > best:
                win_seat, win, best = seat, c, strength
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


@jit
def games_range(
    first: int,
    stop: int,
    games: int,
    sizes: Any,
    first_jack: bool,
    first_dealer: int,
    opts: Any,
    policy: int,
    seed: int,
    out_bids: Any,
    out_tricks: Any,
    out_scores: Any,
) -> None:
    """Deal and play games of chunks ``first`` … ``stop - 1`` (of ``games`` in all) to the end.

    Outputs are ``(games, rounds, players)`` arrays; ``opts`` has one row a round. Dealing is a
    partial Fisher–Yates shuffle: the hands, then the turned card, which sets trump (none if no
    card is left); under rotating trump the round's place in the rotation sets it instead.
    """
    n = out_bids.shape[2]
    deck = np.arange(52)
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    script = np.zeros(0, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int64)
    for chunk in range(first, stop):
        rng = stream(seed, chunk)
        deck[:] = np.arange(52)  # each chunk shuffles from the same order: results never depend on threads
        for g in range(chunk * CHUNK, min(games, (chunk + 1) * CHUNK)):
            dealer = first_dealer
            if first_jack:  # cards face up one at a time until a Jack; that seat deals
                for i in range(52):
                    rng += GOLDEN
                    j = i + below(mix(rng), 52 - i)
                    deck[i], deck[j] = deck[j], deck[i]
                    if deck[i] % 13 == 9:
                        dealer = i % n
                        break
            for r in range(sizes.shape[0]):
                size = sizes[r]
                dealt = n * size
                for i in range(0, min(dealt + 1, 52), 2):  # two swaps per random draw
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
                ropts = opts[r]
                trump, turned = -1, ZERO
                if ropts[ROTATE] != 0:
                    trump = ROTATION[r % 5]
                elif dealt < 52:
                    trump, turned = deck[dealt] // 13, ONE << u64(deck[dealt])
                bids[:] = -1
                tricks[:] = 0
                rng = make_bids(hands, bids, size, trump, turned, dealer, ropts, policy, rng, script, 0)[2]
                leader = dealer + 1 if dealer + 1 < n else 0
                rng = play_tricks(
                    hands, bids, tricks, trick, 0, leader, 0, size, trump, turned, False,
                    ropts, policy, rng, script, 0, False, no_record, no_record,
                )[1]  # fmt: skip
                for s in range(n):
                    out_bids[g, r, s] = bids[s]
                    out_tricks[g, r, s] = tricks[s]
                    out_scores[g, r, s] = score(ropts, bids[s], tricks[s])
                dealer = dealer + 1 if dealer + 1 < n else 0


@parallel_jit
def games_parallel(
    games: int,
    sizes: Any,
    first_jack: bool,
    first_dealer: int,
    opts: Any,
    policy: int,
    seed: int,
    out_bids: Any,
    out_tricks: Any,
    out_scores: Any,
) -> None:
    """:func:`games_range` over every chunk, spread across numba's threads."""
    chunks = (games + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        games_range(
            chunk, chunk + 1, games, sizes, first_jack, first_dealer, opts, policy, seed,
            out_bids, out_tricks, out_scores,
        )  # fmt: skip


@jit
def rollout_range(
    first: int,
    stop: int,
    worlds: Any,
    pos: Any,
    bids0: Any,
    tricks0: Any,
    trick0: Any,
    opts: Any,
    policy: int,
    seed: int,
    script: Any,
    record: bool,
    out_bids: Any,
    out_tricks: Any,
    out_scores: Any,
    status: Any,
    rec_cards: Any,
    rec_winners: Any,
) -> None:
    """Complete one position in the sampled worlds of chunks ``first`` … ``stop - 1``.

    ``worlds`` is ``(W, players)`` hands; ``pos`` = ``[size, trump, dealer, leader,
    trick_len, done, gone, broken]`` (``gone`` as int64 bits: played cards and turn-up);
    ``bids0`` (-1 for bids to make), ``tricks0`` and ``trick0`` are shared by all worlds.
    """
    count, n = worlds.shape
    size, trump, dealer, leader = pos[0], pos[1], pos[2], pos[3]
    trick_len, done, gone, broken = pos[4], pos[5], u64(pos[6]), pos[7] != 0
    turned = gone  # bids are made before any card is played, so only the turn-up is gone
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    for chunk in range(first, stop):
        rng = stream(seed, chunk)
        for w in range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK)):
            for s in range(n):
                hands[s] = worlds[w, s]
                bids[s] = bids0[s]
                tricks[s] = tricks0[s]
                trick[s] = trick0[s]
            code, at, rng = make_bids(hands, bids, size, trump, turned, dealer, opts, policy, rng, script, 0)
            if code == OK:
                code, rng = play_tricks(
                    hands, bids, tricks, trick, trick_len, leader, done, size, trump, gone, broken,
                    opts, policy, rng, script, at, record, rec_cards[w], rec_winners[w],
                )  # fmt: skip
            status[w] = code
            for s in range(n):
                out_bids[w, s] = bids[s]
                out_tricks[w, s] = tricks[s]
                out_scores[w, s] = score(opts, bids[s], tricks[s])


@parallel_jit
def rollout_parallel(
    worlds: Any,
    pos: Any,
    bids0: Any,
    tricks0: Any,
    trick0: Any,
    opts: Any,
    policy: int,
    seed: int,
    script: Any,
    record: bool,
    out_bids: Any,
    out_tricks: Any,
    out_scores: Any,
    status: Any,
    rec_cards: Any,
    rec_winners: Any,
) -> None:
    """:func:`rollout_range` over every chunk, spread across numba's threads."""
    chunks = (worlds.shape[0] + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        rollout_range(
            chunk, chunk + 1, worlds, pos, bids0, tricks0, trick0, opts, policy, seed, script, record,
            out_bids, out_tricks, out_scores, status, rec_cards, rec_winners,
        )  # fmt: skip


@jit
def sample_range(
    first: int, stop: int, count: int, known: Any, unknown: int, need: Any, seed: int, out: Any
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
def sample_parallel(count: int, known: Any, unknown: int, need: Any, seed: int, out: Any) -> None:
    """:func:`sample_range` over every chunk, spread across numba's threads."""
    chunks = (count + CHUNK - 1) // CHUNK
    for chunk in prange(chunks):
        sample_range(chunk, chunk + 1, count, known, unknown, need, seed, out)
