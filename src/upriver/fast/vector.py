"""Many whole games stepped at once, one move a table a call, with each acting seat's view encoded.

The kernel's other drivers play rounds to the end in one go; a learner needs to stop at every
move of its own. Here each table keeps its game between calls in a :class:`Tables` (one row a
table), and a step applies one action per table, lets the kernel's bots move where they play,
and writes the observation and the legal-move mask of the seat to act next into preallocated
rows of :class:`Outputs`. Dealing, the first-Jack draw, legal moves, the two bot policies and
the scoring are the kernel's own compiled building blocks (:mod:`upriver.fast.kernel`,
:mod:`upriver.fast.policies`).

The observation is :mod:`upriver.rl.encoding`'s layout, written by :func:`write_view` from the
seat's own hand and the table's public facts only: it is never given the other hands. The
parts that never change within a round (the rules, the scoring table, the seat count) come in
``Setup.template``, one row a round, made from the encoder itself; where each field starts
comes in ``Setup.layout`` (:data:`LAYOUT`), so this module needs nothing from the RL adapter.

Each table has its own random stream, seeded from ``(seed, table)`` by the kernel's
:func:`~upriver.fast.kernel.stream`, so results do not depend on the number of threads.
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
    ctz,
    inline_jit,
    jit,
    mix,
    parallel_jit,
    popcount,
    prange,
    u64,
)
from upriver.fast.kernel import ROTATION, deal, first_jack_dealer, stream
from upriver.fast.policies import (
    COUNTS_TRICKS,
    DEALER_RULE,
    POLICY_RANDOM,
    RANK_OF,
    ROTATE,
    SIMULTANEOUS,
    SUIT_OF,
    basic_bid,
    basic_card,
    lead_barred,
    left_of,
    legal_bids,
    legal_cards,
    random_bit,
    score,
    strength,
)

__all__ = [
    "BIDDING",
    "CHUNK",
    "LAYOUT",
    "OVER",
    "PLAYING",
    "STATE_SIZE",
    "Outputs",
    "Setup",
    "Tables",
    "new_tables",
    "reset_parallel",
    "reset_range",
    "step_parallel",
    "step_range",
    "write_view",
]

CHUNK = 64
"""Tables a unit of parallel work."""

# Columns of ``Tables.state``.
ROUND, DEALER, LEADER, TO_ACT, TRUMP, TURNED, DONE, TRICK_LEN, BROKEN, PHASE, BIDS_MADE, LEARNER = range(12)
STATE_SIZE = 12
BIDDING, PLAYING, OVER = 0, 1, 2
"""``state[PHASE]``, numbered as the encoding's phase block."""
OK, ILLEGAL = 0, 1
CARDS, MAX_HAND = 52, 17

LAYOUT = (
    "hand", "trumps_held", "turned", "trump", "trick", "leader", "winning", "played", "bids", "tricks_won",
    "to_make", "totals", "lead", "progress", "hand_size", "bid_balance", "phase", "my_turn", "dealer",
    "to_act", "trump_broken",
)  # fmt: skip
"""The encoding's fields this module writes, in the order of ``Setup.layout`` (their offsets)."""
(
    HAND, TRUMPS_HELD, TURNED_AT, TRUMP_AT, TRICK_AT, LEADER_AT, WINNING_AT, PLAYED_AT, BIDS_AT, WON_AT,
    TO_MAKE_AT, TOTALS_AT, LEAD_AT, PROGRESS_AT, SIZE_AT, BALANCE_AT, PHASE_AT, MY_TURN_AT, DEALER_AT,
    TO_ACT_AT, BROKEN_AT,
) = range(len(LAYOUT))  # fmt: skip


class Tables(NamedTuple):
    """Every table's game between steps, one row a table (``T`` tables of ``n`` seats)."""

    hands: Bits
    """``(T, n)``: the cards each seat holds now."""
    played: Bits
    """``(T, n)``: the cards each seat played to this round's finished tricks."""
    gone: Bits
    """``(T,)``: the cards played this round and the turned card."""
    bids: Ints
    """``(T, n)``: this round's bids, -1 for one not made."""
    tricks: Ints
    """``(T, n)``: tricks won this round."""
    totals: Ints
    """``(T, n)``: the game's score totals."""
    trick: Ints
    """``(T, n)``: the cards on the table in play order from the leader."""
    state: Ints
    """``(T, STATE_SIZE)``: round index, dealer, leader, seat to act, trump, turned card, tricks done,
    cards on the table, trump broken, phase, bids made, the learning seat."""
    dealt: Bits
    """``(T, n)``: the hands as this round was dealt (for replaying a table elsewhere)."""
    rng: Bits
    """``(T,)``: each table's generator state."""
    deck: Ints
    """``(T, 52)``: each table's deck, shuffled in place."""


class Setup(NamedTuple):
    """What every table shares: the rules in the kernel's terms and how steps are taken."""

    sizes: Ints
    """Hand size of each round."""
    opts: Ints
    """The kernel's options, one row a round (:mod:`upriver.fast.policies`)."""
    first_jack: bool
    first_dealer: int
    template: NDArray[np.float32]
    """``(rounds, OBS_SIZE)``: the observation's fields that stay the same through a round."""
    layout: Ints
    """Where each field of :data:`LAYOUT` starts in the observation."""
    most: int
    """The most points one seat can score in a game (the totals' scale)."""
    game_reward: bool
    """Reward the win share at the game's end rather than each round's points."""
    illegal_reward: float
    single: bool
    """One learning seat a table, the others played by ``policy``; else every seat learns."""
    random_seat: bool
    """With ``single``: the learning seat is drawn for each game, else it is ``fixed_seat``."""
    fixed_seat: int
    policy: int


class Outputs(NamedTuple):
    """What a step writes, one row a table."""

    obs: NDArray[np.float32]
    """``(T, OBS_SIZE)``: the observation of the seat to act next (the learner's, with ``single``)."""
    mask: NDArray[np.int8]
    """``(T, 70)``: that seat's legal actions."""
    seat: Ints
    """``(T,)``: that seat."""
    rewards: NDArray[np.float32]
    """``(T, n)``: every seat's reward for what happened during the step."""
    terminated: NDArray[np.bool_]
    """``(T,)``: the table's game ended during the step (and a new one began)."""
    illegal: NDArray[np.bool_]
    """``(T,)``: the game ended because the action was not legal."""
    final_obs: NDArray[np.float32]
    """``(T, OBS_SIZE)``: with ``single``, the learner's last observation of a game that ended."""
    final_mask: NDArray[np.int8]
    final_totals: Ints
    """``(T, n)``: the totals of a game that ended during the step."""


def new_tables(tables: int, players: int) -> Tables:
    """Empty state for ``tables`` tables of ``players`` seats."""
    shape = (tables, players)
    return Tables(
        hands=np.zeros(shape, np.uint64),
        played=np.zeros(shape, np.uint64),
        gone=np.zeros(tables, np.uint64),
        bids=np.full(shape, -1, np.int64),
        tricks=np.zeros(shape, np.int64),
        totals=np.zeros(shape, np.int64),
        trick=np.zeros(shape, np.int64),
        state=np.zeros((tables, STATE_SIZE), np.int64),
        dealt=np.zeros(shape, np.uint64),
        rng=np.zeros(tables, np.uint64),
        deck=np.tile(np.arange(52, dtype=np.int64), (tables, 1)),
    )


@jit
def _start_round(t: int, tb: Tables, setup: Setup) -> None:
    """Move table ``t`` to its next round and deal it, or end the game after the last round."""
    st = tb.state[t]
    n = tb.hands.shape[1]
    r = st[ROUND] + 1
    st[ROUND] = r
    dealer = left_of(st[DEALER], n)
    st[DEALER] = dealer
    for s in range(n):
        tb.bids[t, s] = -1
        tb.tricks[t, s] = 0
        tb.played[t, s] = ZERO
        tb.trick[t, s] = -1
    st[DONE] = 0
    st[TRICK_LEN] = 0
    st[BROKEN] = 0
    st[BIDS_MADE] = 0
    st[LEADER] = left_of(dealer, n)
    st[TO_ACT] = st[LEADER]
    if r >= setup.sizes.shape[0]:
        st[PHASE] = OVER
        st[TRUMP] = -1
        st[TURNED] = -1
        for s in range(n):
            tb.hands[t, s] = ZERO
        tb.gone[t] = ZERO
        return
    card, rng = deal(tb.deck[t], tb.hands[t], setup.sizes[r], tb.rng[t])
    tb.rng[t] = rng
    for s in range(n):
        tb.dealt[t, s] = tb.hands[t, s]
    if setup.opts[r, ROTATE] != 0:
        st[TRUMP], st[TURNED] = ROTATION[r % 5], -1
        tb.gone[t] = ZERO
    elif card >= 0:
        st[TRUMP], st[TURNED] = SUIT_OF[card], card
        tb.gone[t] = ONE << u64(card)
    else:
        st[TRUMP], st[TURNED] = -1, -1
        tb.gone[t] = ZERO
    st[PHASE] = BIDDING


@jit
def _start_game(t: int, tb: Tables, setup: Setup) -> None:
    """A new game at table ``t``: totals to zero, the first dealer chosen, the first round dealt."""
    st = tb.state[t]
    n = tb.hands.shape[1]
    for s in range(n):
        tb.totals[t, s] = 0
    dealer = setup.first_dealer
    if setup.first_jack:
        dealer, rng = first_jack_dealer(tb.deck[t], n, tb.rng[t])
        tb.rng[t] = rng
    if setup.random_seat:
        rng = tb.rng[t] + GOLDEN
        tb.rng[t] = rng
        st[LEARNER] = random_bit(mix(rng), (ONE << u64(n)) - ONE)
    else:
        st[LEARNER] = setup.fixed_seat
    st[DEALER] = dealer - 1 if dealer > 0 else n - 1
    st[ROUND] = -1
    _start_round(t, tb, setup)


@inline_jit
def _wrap(x: int, n: int) -> int:
    """``x % n`` for ``x`` in [-n, 2n): seat arithmetic without an integer division."""
    if x >= n:
        return x - n
    return x + n if x < 0 else x


@inline_jit
def _winning(trick: Ints, count: int, leader: int, trump: int, n: int) -> tuple[int, int]:
    """The seat and card winning the first ``count`` cards of ``trick`` ((-1, -1) for none)."""
    lead_suit, seat, card, best = -1, -1, -1, -1
    for i in range(count):
        c = trick[i]
        if i == 0:
            lead_suit = SUIT_OF[c]
        value = strength(c, lead_suit, trump)
        if value > best:
            seat, card, best = _wrap(leader + i, n), c, value
    return seat, card


@inline_jit
def _legal(st: Ints, bids: Ints, trick: Ints, hand: int, opts: Ints, size: int, n: int) -> int:
    """The legal moves of the seat to act as a bit set: bids 0…size while bidding, else cards."""
    if st[PHASE] == BIDDING:
        total = 0
        for s in range(n):
            if bids[s] >= 0:
                total += bids[s]
        last = opts[SIMULTANEOUS] == 0 and st[BIDS_MADE] == n - 1
        return legal_bids(size, last, opts[DEALER_RULE], total)
    lead_suit = SUIT_OF[trick[0]] if st[TRICK_LEN] > 0 else -1
    return legal_cards(hand, lead_suit, st[TRUMP], lead_barred(opts, st[BROKEN] != 0, st[DONE]), False)


@jit
def _finish_game(t: int, tb: Tables, setup: Setup, rewards: NDArray[np.float32]) -> None:
    """Credit the win shares (the game reward) when table ``t``'s game has just ended."""
    if not setup.game_reward:
        return
    n = tb.hands.shape[1]
    best, count = tb.totals[t, 0], 0
    for s in range(n):
        best = max(best, tb.totals[t, s])
    for s in range(n):
        count += tb.totals[t, s] == best
    for s in range(n):
        if tb.totals[t, s] == best:
            rewards[t, s] += 1.0 / count


@inline_jit
def _apply(t: int, action: int, tb: Tables, setup: Setup, rewards: NDArray[np.float32]) -> int:
    """Play ``action`` for table ``t``'s seat to act, crediting round scores to ``rewards``; an
    illegal action changes nothing and returns :data:`ILLEGAL`."""
    st = tb.state[t]
    n = tb.hands.shape[1]
    r = st[ROUND]
    opts = setup.opts[r]
    size = setup.sizes[r]
    seat = st[TO_ACT]
    hand = tb.hands[t, seat]
    legal = _legal(st, tb.bids[t], tb.trick[t], hand, opts, size, n)
    nxt = left_of(seat, n)
    if st[PHASE] == BIDDING:
        b = action - CARDS
        if b < 0 or b > size or legal & (ONE << u64(b)) == ZERO:
            return ILLEGAL
        tb.bids[t, seat] = b
        st[BIDS_MADE] += 1
        if st[BIDS_MADE] == n:
            st[PHASE] = PLAYING
            st[TO_ACT] = st[LEADER]
        else:
            st[TO_ACT] = nxt
        return OK
    if action < 0 or action >= CARDS or legal & (ONE << u64(action)) == ZERO:
        return ILLEGAL
    bit = ONE << u64(action)
    tb.hands[t, seat] = hand ^ bit
    tb.gone[t] |= bit
    tb.trick[t, st[TRICK_LEN]] = action
    st[TRICK_LEN] += 1
    if SUIT_OF[action] == st[TRUMP]:
        st[BROKEN] = 1
    if st[TRICK_LEN] < n:
        st[TO_ACT] = nxt
        return OK
    leader = st[LEADER]
    winner = _winning(tb.trick[t], n, leader, st[TRUMP], n)[0]
    tb.tricks[t, winner] += 1
    for i in range(n):
        s = _wrap(leader + i, n)
        tb.played[t, s] |= ONE << u64(tb.trick[t, i])
    st[DONE] += 1
    st[TRICK_LEN] = 0
    st[LEADER] = winner
    st[TO_ACT] = winner
    if st[DONE] < size:
        return OK
    for s in range(n):
        points = score(opts, tb.bids[t, s], tb.tricks[t, s])
        tb.totals[t, s] += points
        if not setup.game_reward:
            rewards[t, s] += points
    _start_round(t, tb, setup)
    if st[PHASE] == OVER:
        _finish_game(t, tb, setup, rewards)
    return OK


@inline_jit
def _bot_action(t: int, tb: Tables, setup: Setup) -> int:
    """The kernel policy's action for table ``t``'s seat to act (it sees that seat's view only)."""
    st = tb.state[t]
    n = tb.hands.shape[1]
    r = st[ROUND]
    opts = setup.opts[r]
    size = setup.sizes[r]
    seat = st[TO_ACT]
    hand = tb.hands[t, seat]
    legal = _legal(st, tb.bids[t], tb.trick[t], hand, opts, size, n)
    if setup.policy == POLICY_RANDOM:
        rng = tb.rng[t] + GOLDEN
        tb.rng[t] = rng
        move = random_bit(mix(rng), legal)
        return move + CARDS if st[PHASE] == BIDDING else move
    unseen = FULL & ~hand & ~tb.gone[t]
    trump = st[TRUMP]
    if st[PHASE] == BIDDING:
        return CARDS + basic_bid(hand, trump, size, n, unseen, legal)
    win = _winning(tb.trick[t], st[TRICK_LEN], st[LEADER], trump, n)[1]
    return basic_card(
        hand, legal, win, st[TRICK_LEN] == n - 1, trump, tb.bids[t, seat] - tb.tricks[t, seat],
        size - st[DONE], unseen, opts[COUNTS_TRICKS] == 1,
    )  # fmt: skip


@jit
def write_view(
    obs: NDArray[np.float32],
    mask: NDArray[np.int8],
    me: int,
    hand: int,
    st: Ints,
    bids: Ints,
    tricks: Ints,
    totals: Ints,
    trick: Ints,
    played: Bits,
    setup: Setup,
) -> None:
    """Write seat ``me``'s observation and legal-action mask, as :func:`upriver.rl.encoding.encode`
    and :func:`~upriver.rl.encoding.action_mask` do, from its own ``hand`` and the table's public
    facts (``st``, the bids, tricks, totals, the trick on the table, the cards played to finished
    tricks): no other seat's hand is an argument."""
    at = setup.layout
    sizes = setup.sizes
    rounds = sizes.shape[0]
    n = bids.shape[0]
    phase = st[PHASE]
    r = min(st[ROUND], rounds - 1)
    size = sizes[r]
    trump = st[TRUMP]
    template = setup.template[r]
    for i in range(obs.shape[0]):  # a plain loop: numba's slice assignment first checks for overlap
        obs[i] = template[i]
    for i in range(mask.shape[0]):
        mask[i] = 0
    rest = hand
    while rest != ZERO:
        c = ctz(rest)
        rest &= rest - ONE
        obs[at[HAND] + c] = 1.0
        if SUIT_OF[c] == trump:
            obs[at[TRUMPS_HELD] + RANK_OF[c]] = 1.0
    if st[TURNED] >= 0:
        obs[at[TURNED_AT] + st[TURNED]] = 1.0
    obs[at[TRUMP_AT] + (4 if trump < 0 else trump)] = 1.0
    leader = st[LEADER]
    count = st[TRICK_LEN]
    for i in range(count):
        rel = _wrap(leader + i - me, n)
        obs[at[TRICK_AT] + 52 * rel + trick[i]] = 1.0
    if phase == PLAYING:
        obs[at[LEADER_AT] + _wrap(leader - me, n)] = 1.0
    if count > 0:
        obs[at[WINNING_AT] + _wrap(_winning(trick, count, leader, trump, n)[0] - me, n)] = 1.0
    hidden = phase == BIDDING and setup.opts[r, SIMULTANEOUS] != 0
    seen = 0
    best_other = -(1 << 62)
    for s in range(n):
        rel = _wrap(s - me, n)
        rest = played[s]
        while rest != ZERO:
            c = ctz(rest)
            rest &= rest - ONE
            obs[at[PLAYED_AT] + 52 * rel + c] = 1.0
        b = bids[s]
        if b < 0 or (hidden and s != me):
            obs[at[BIDS_AT] + 19 * rel + 18] = 1.0
        else:
            obs[at[BIDS_AT] + 19 * rel + b] = 1.0
            obs[at[TO_MAKE_AT] + rel] = (b - tricks[s]) / MAX_HAND
            seen += b
        obs[at[WON_AT] + rel] = tricks[s] / MAX_HAND
        obs[at[TOTALS_AT] + rel] = totals[s] / setup.most
        if s != me:
            best_other = max(best_other, totals[s])
    obs[at[LEAD_AT]] = min(1.0, max(-1.0, (totals[me] - best_other) / setup.most))
    over = phase == OVER
    finished = min(st[ROUND], rounds)
    obs[at[PROGRESS_AT]] = finished / rounds
    obs[at[PROGRESS_AT] + 1] = 0.0 if over else (rounds - finished - 1) / rounds
    obs[at[PROGRESS_AT] + 2] = popcount(hand) / MAX_HAND
    obs[at[SIZE_AT] + size - 1] = 1.0
    obs[at[BALANCE_AT]] = min(1.0, (seen - size) / size)
    obs[at[PHASE_AT] + phase] = 1.0
    obs[at[DEALER_AT] + _wrap(me - st[DEALER], n)] = 1.0
    obs[at[BROKEN_AT]] = float(st[BROKEN])
    if over:
        return
    obs[at[TO_ACT_AT] + _wrap(st[TO_ACT] - me, n)] = 1.0
    if st[TO_ACT] != me:
        return
    obs[at[MY_TURN_AT]] = 1.0
    legal = _legal(st, bids, trick, hand, setup.opts[r], size, n)
    base = CARDS if phase == BIDDING else 0
    while legal != ZERO:
        mask[base + ctz(legal)] = 1
        legal &= legal - ONE


@inline_jit
def _observe(
    t: int, me: int, tb: Tables, setup: Setup, obs: NDArray[np.float32], mask: NDArray[np.int8]
) -> None:
    """Table ``t`` as seat ``me`` sees it: only its own row of ``hands`` is read."""
    write_view(
        obs, mask, me, tb.hands[t, me], tb.state[t], tb.bids[t], tb.tricks[t], tb.totals[t], tb.trick[t],
        tb.played[t], setup,
    )  # fmt: skip


@jit
def _bots_play(t: int, tb: Tables, setup: Setup, rewards: NDArray[np.float32]) -> None:
    """With one learner a table, let the bots move until the learner must act or the game ends."""
    st = tb.state[t]
    while st[PHASE] != OVER and st[TO_ACT] != st[LEARNER]:
        _apply(t, _bot_action(t, tb, setup), tb, setup, rewards)


@jit
def _begin(t: int, tb: Tables, setup: Setup, out: Outputs) -> None:
    """Start a game at table ``t`` and observe it for the seat to act (the learner, with ``single``)."""
    _start_game(t, tb, setup)
    if setup.single:
        _bots_play(t, tb, setup, out.rewards)
    me = tb.state[t, TO_ACT]
    out.seat[t] = me
    _observe(t, me, tb, setup, out.obs[t], out.mask[t])


@jit
def reset_range(first: int, stop: int, seed: int, tb: Tables, setup: Setup, out: Outputs) -> None:
    """Seed tables ``first`` … ``stop - 1`` from ``(seed, table)`` and start a game at each."""
    for t in range(first, stop):
        tb.rng[t] = stream(seed, t)
        for c in range(52):
            tb.deck[t, c] = c
        _begin(t, tb, setup, out)
        for s in range(tb.hands.shape[1]):
            out.rewards[t, s] = 0.0
        out.terminated[t] = False
        out.illegal[t] = False


@jit
def step_range(first: int, stop: int, actions: Ints, tb: Tables, setup: Setup, out: Outputs) -> None:
    """One step of tables ``first`` … ``stop - 1``: ``actions[t]`` for the seat :class:`Outputs`
    named last, then (with ``single``) the bots up to the learner's next turn; a game that ends
    is started again at once and its last view kept in ``final_obs``."""
    n = tb.hands.shape[1]
    for t in range(first, stop):
        st = tb.state[t]
        for s in range(n):
            out.rewards[t, s] = 0.0
        out.terminated[t] = False
        out.illegal[t] = False
        me = st[TO_ACT]
        if _apply(t, actions[t], tb, setup, out.rewards) == ILLEGAL:
            out.illegal[t] = True
            out.rewards[t, me] = setup.illegal_reward
            st[PHASE] = OVER
        elif setup.single:
            _bots_play(t, tb, setup, out.rewards)
        if st[PHASE] != OVER:
            nxt = st[TO_ACT]
            out.seat[t] = nxt
            _observe(t, nxt, tb, setup, out.obs[t], out.mask[t])
            continue
        out.terminated[t] = True
        for s in range(n):
            out.final_totals[t, s] = tb.totals[t, s]
        if setup.single:
            _observe(t, st[LEARNER], tb, setup, out.final_obs[t], out.final_mask[t])
        _begin(t, tb, setup, out)


@parallel_jit
def reset_parallel(seed: int, tb: Tables, setup: Setup, out: Outputs) -> None:
    """:func:`reset_range` over every chunk of tables, spread across numba's threads."""
    count = tb.hands.shape[0]
    for chunk in prange((count + CHUNK - 1) // CHUNK):
        reset_range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK), seed, tb, setup, out)


@parallel_jit
def step_parallel(actions: Ints, tb: Tables, setup: Setup, out: Outputs) -> None:
    """:func:`step_range` over every chunk of tables, spread across numba's threads."""
    count = tb.hands.shape[0]
    for chunk in prange((count + CHUNK - 1) // CHUNK):
        step_range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK), actions, tb, setup, out)
