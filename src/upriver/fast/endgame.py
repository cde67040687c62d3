"""An exact solver of a round's last tricks, compiled: max^n over every seat's cards, all hands open.

Near the end of a round so few cards are left that, in one deal of the hidden cards, the
rest of the round can be searched whole instead of played out by the rule of thumb. With
more than two players there is no zero-sum value to minimax, so the search is max^n: the
seat to move plays the card that gives it the best final round score under the rules'
scoring (the kernel's :func:`~upriver.fast.kernel.score`, the engine's
:func:`upriver.actions.round_score`), knowing that every seat after it does the same.
Ties are common (a seat whose bid is already lost scores the same whatever it plays), and
how they are broken changes the other seats' outcomes, so they are broken by one fixed
rule: the rule of thumb's card (:func:`~upriver.fast.policies.basic_card`) if it is among
the best, else the lowest card index. Each position therefore has one value, whatever the
path to it, and the line the solver plays from any point of its own line is that line.

The search is depth-first over an explicit stack, one level a card. The last trick is
forced for every seat and is scored without branching, and a seat stops trying cards once
one reaches the most it could still score (with the rule of thumb's card tried first, no
later card could replace it), which leaves the value exact. The cost still grows about as
(cards per hand)! per seat: :class:`upriver.bots.pimc.SearchBot` calls it only when the bot
holds few cards (:func:`fits`; ``bench/endgame.py`` measures where).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numpy.typing import NDArray

from upriver.cards import Card
from upriver.fast._jit import FULL, ONE, ZERO, Bits, Ints, ctz, jit, popcount, u64
from upriver.fast.api import Position, check_worlds, position_record, round_opts
from upriver.fast.kernel import CHUNK, ILLEGAL, OK, Outcomes, PositionRecord, make_bids, score, state_of
from upriver.fast.policies import (
    COUNTS_TRICKS,
    POLICY_BASIC,
    basic_card,
    lead_barred,
    legal_cards,
    strength,
    trick_standing,
)

__all__ = ["MOST_CARDS", "Solution", "fits", "solve_endgame", "solve_range"]

DEPTH = 53
"""Stack depth: one level a card still to play, and one for the end."""
MOST_CARDS = 32
"""The most cards left in all hands that :func:`solve_endgame` takes on (already far beyond a second)."""

# Columns of the per-depth scalar state.
AT, LEADER, LEAD, WIN_SEAT, WIN, BEST, BROKEN, DONE, GONE = range(9)


@jit
def _ceiling(opts: Ints, bid: int, took: int, left: int) -> int:
    """The most a seat with ``took`` tricks and ``left`` tricks still to play can score."""
    most = score(opts, bid, took)
    for t in range(took + 1, took + left + 1):
        most = max(most, score(opts, bid, t))
    return most


@jit
def _enter(
    d: int,
    hands: Bits,
    tricks: Ints,
    state: Ints,
    bids: Ints,
    size: int,
    trump: int,
    opts: Ints,
    cards: Ints,
    moves: Bits,
    first: Ints,
    ceiling: Ints,
    have: NDArray[np.bool_],
) -> int:
    """Set up the node at depth ``d``: the rule of thumb's card to try first (``first``), the other
    legal cards (``moves``), the most its seat can score; ILLEGAL if a scripted card
    (``cards[d]``, when ``d`` is within the script) may not be played."""
    n = hands.shape[1]
    at = state[d, AT]
    seat = (state[d, LEADER] + at) % n
    hand = hands[d, seat]
    lead = state[d, LEAD] if at > 0 else -1
    done = state[d, DONE]
    legal = legal_cards(hand, lead, trump, lead_barred(opts, state[d, BROKEN] != 0, done), False)
    have[d] = False
    ceiling[d] = _ceiling(opts, bids[seat], tricks[d, seat], size - done)
    if d < cards.shape[0]:
        c = int(cards[d])
        if c < 0 or c > 51 or legal & (ONE << u64(c)) == ZERO:
            return ILLEGAL
        first[d] = c
        moves[d] = ZERO
        return OK
    if legal & (legal - ONE) == ZERO:
        first[d] = int(ctz(legal))
        moves[d] = ZERO
        return OK
    gone = u64(state[d, GONE])
    c = basic_card(
        hand, legal, state[d, WIN], at == n - 1, trump, bids[seat] - tricks[d, seat], size - done,
        FULL & ~hand & ~gone, opts[COUNTS_TRICKS] == 1,
    )  # fmt: skip
    first[d] = c
    moves[d] = legal & ~(ONE << u64(c))
    return OK


@jit
def _play(d: int, c: int, hands: Bits, tricks: Ints, state: Ints, trump: int) -> None:
    """The state at depth ``d + 1``: the node at ``d`` after its seat plays card ``c``."""
    n = hands.shape[1]
    at = state[d, AT]
    seat = (state[d, LEADER] + at) % n
    for s in range(n):
        hands[d + 1, s] = hands[d, s]
        tricks[d + 1, s] = tricks[d, s]
    for k in range(9):
        state[d + 1, k] = state[d, k]
    bit = ONE << u64(c)
    hands[d + 1, seat] = hands[d, seat] ^ bit
    state[d + 1, GONE] = state[d, GONE] | np.int64(1 << c)
    suit = c // 13
    if at == 0:
        state[d + 1, LEAD] = suit
        state[d + 1, BEST] = -1
    lead = state[d + 1, LEAD]
    value = strength(c, lead, trump)
    if value > state[d + 1, BEST]:
        state[d + 1, WIN_SEAT] = seat
        state[d + 1, WIN] = c
        state[d + 1, BEST] = value
    if suit == trump:
        state[d + 1, BROKEN] = 1
    if at + 1 == n:  # the trick is complete
        winner = state[d + 1, WIN_SEAT]
        tricks[d + 1, winner] += 1
        state[d + 1, DONE] += 1
        state[d + 1, AT] = 0
        state[d + 1, LEADER] = winner
        state[d + 1, LEAD] = -1
        state[d + 1, WIN] = -1
        state[d + 1, BEST] = -1
    else:
        state[d + 1, AT] = at + 1


@jit
def _take(
    d: int,
    c: int,
    child: int,
    result: Ints,
    bids: Ints,
    scoring: Ints,
    state: Ints,
    n: int,
    moves: Bits,
    ceiling: Ints,
    have: NDArray[np.bool_],
    value: Ints,
    record: bool,
    line: Ints,
    end: int,
) -> None:
    """Offer node ``d`` the outcome ``result`` (final tricks a seat) of playing ``c``; it keeps the
    best for its seat. Cards are tried the rule of thumb's first, then from the lowest, so only a
    strictly better outcome replaces the one kept: ties go to the rule of thumb, else to the lowest
    card. Once the seat's ceiling is reached nothing can beat it, and the other cards are skipped.
    ``line[child, child:end]`` is the rest of that outcome's line."""
    seat = (state[d, LEADER] + state[d, AT]) % n
    mine = score(scoring, bids[seat], result[seat])
    if have[d] and mine <= score(scoring, bids[seat], value[d, seat]):
        return
    have[d] = True
    for s in range(n):
        value[d, s] = result[s]
    if mine >= ceiling[d]:
        moves[d] = ZERO
    if record:
        line[d, d] = c
        for k in range(d + 1, end):
            line[d, k] = line[child, k]


@jit
def _last_trick(d: int, hands: Bits, tricks: Ints, state: Ints, trump: int, record: bool, line: Ints) -> int:
    """Play the forced last trick from depth ``d`` (each seat holds one card) into ``tricks[d + 1]``
    at once; returns the depth after it. The line gets its cards."""
    n = hands.shape[1]
    at0 = state[d, AT]
    e = d
    for _ in range(at0, n):
        seat = (state[e, LEADER] + state[e, AT]) % n
        c = int(ctz(hands[e, seat]))
        if record:
            line[d, e] = c
        _play(e, c, hands, tricks, state, trump)
        e += 1
    return e


@jit
def _solve_world(
    hands: Bits,
    tricks: Ints,
    state: Ints,
    bids: Ints,
    size: int,
    trump: int,
    opts: Ints,
    cards: Ints,
    record: bool,
    moves: Bits,
    tried: Ints,
    first: Ints,
    ceiling: Ints,
    have: NDArray[np.bool_],
    value: Ints,
    line: Ints,
) -> int:
    """The max^n outcome (final tricks a seat) of the position at depth 0 into ``value[0]``, and
    with ``record`` its line of cards into ``line[0]``; ``cards`` are forced first. OK or ILLEGAL."""
    n = hands.shape[1]
    scoring = opts
    end = 0
    for s in range(n):
        end += int(popcount(hands[0, s]))
    if state[0, DONE] == size - 1 and cards.shape[0] == 0:
        e = _last_trick(0, hands, tricks, state, trump, record, line)
        for s in range(n):
            value[0, s] = tricks[e, s]
        return OK
    if _enter(0, hands, tricks, state, bids, size, trump, opts, cards, moves, first, ceiling, have) != OK:
        return ILLEGAL
    d = 0
    while True:
        if first[d] < 0 and moves[d] == ZERO:  # node d is done: hand its best outcome up
            if d == 0:
                return OK
            d -= 1
            _take(
                d, tried[d], d + 1, value[d + 1],
                bids, scoring, state, n, moves, ceiling, have, value, record, line, end,
            )  # fmt: skip
            continue
        if first[d] >= 0:
            c = first[d]
            first[d] = -1
        else:
            c = int(ctz(moves[d]))
            moves[d] &= moves[d] - ONE
        tried[d] = c
        _play(d, c, hands, tricks, state, trump)
        if state[d + 1, DONE] == size:
            _take(
                d, c, d + 1, tricks[d + 1],
                bids, scoring, state, n, moves, ceiling, have, value, record, line, end,
            )  # fmt: skip
        elif state[d + 1, DONE] == size - 1 and d + 1 >= cards.shape[0]:
            e = _last_trick(d + 1, hands, tricks, state, trump, record, line)
            _take(
                d, c, d + 1, tricks[e],
                bids, scoring, state, n, moves, ceiling, have, value, record, line, end,
            )  # fmt: skip
        elif (
            _enter(d + 1, hands, tricks, state, bids, size, trump, opts, cards, moves, first, ceiling, have)
            != OK
        ):
            return ILLEGAL
        else:
            d += 1


@jit
def solve_range(
    first: int,
    stop: int,
    worlds: Bits,
    position: PositionRecord,
    opts: Ints,
    script: Ints,
    record: bool,
    out: Outcomes,
) -> None:
    """Solve ``position`` in the worlds of chunks ``first`` … ``stop - 1``, as
    :func:`upriver.fast.kernel.rollout_range` plays it out. Bids still to make are the rule of
    thumb's; with ``record`` the line's cards go to ``out.cards``.

    The search's helpers take the per-depth arrays one by one rather than as one record: numba
    passes a record of ten arrays at a cost that made the solver a quarter slower."""
    count, n = worlds.shape
    round_state, bids0, tricks0, trick0 = state_of(position), position.bids, position.tricks, position.trick
    size, trump, leader = round_state.size, round_state.trump, round_state.leader
    trick_len = round_state.trick_len
    hands = np.zeros((DEPTH + 8, n), dtype=np.uint64)
    tricks = np.zeros((DEPTH + 8, n), dtype=np.int64)
    state = np.zeros((DEPTH + 8, 9), dtype=np.int64)
    moves = np.zeros(DEPTH, dtype=np.uint64)
    tried = np.zeros(DEPTH, dtype=np.int64)
    lead_card = np.zeros(DEPTH, dtype=np.int64)
    ceiling = np.zeros(DEPTH, dtype=np.int64)
    have = np.zeros(DEPTH, dtype=np.bool_)
    value = np.zeros((DEPTH + 8, n), dtype=np.int64)
    line = np.full((DEPTH + 8, DEPTH + 8), -1, dtype=np.int64)
    seat_hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    lead, win_seat, win, best = trick_standing(trick0, trick_len, leader, trump)
    for chunk in range(first, stop):
        for w in range(chunk * CHUNK, min(count, (chunk + 1) * CHUNK)):
            for s in range(n):
                seat_hands[s] = worlds[w, s]
                bids[s] = bids0[s]
            code, at, _ = make_bids(seat_hands, bids, round_state, opts, POLICY_BASIC, 0, script, 0)
            if code == OK:
                for s in range(n):
                    hands[0, s] = worlds[w, s]
                    tricks[0, s] = tricks0[s]
                state[0, AT] = trick_len
                state[0, LEADER] = leader
                state[0, LEAD] = lead
                state[0, WIN_SEAT] = win_seat
                state[0, WIN] = win
                state[0, BEST] = best
                state[0, BROKEN] = round_state.broken
                state[0, DONE] = round_state.done
                state[0, GONE] = round_state.gone
                code = _solve_world(
                    hands,
                    tricks,
                    state,
                    bids,
                    size,
                    trump,
                    opts,
                    script[at:],
                    record,
                    moves,
                    tried,
                    lead_card,
                    ceiling,
                    have,
                    value,
                    line,
                )
            out.status[w] = code
            for s in range(n):
                out.bids[w, s] = bids[s]
                out.tricks[w, s] = value[0, s] if code == OK else tricks0[s]
                out.scores[w, s] = score(opts, bids[s], out.tricks[w, s])
            if record and code == OK:
                for k in range(out.cards.shape[1]):
                    out.cards[w, k] = line[0, k]


@dataclasses.dataclass(frozen=True)
class Solution:
    """Rounds solved exactly, one row per world: final ``bids``, ``tricks`` and round ``scores``
    ``(worlds, players)`` of the max^n line; ``status`` 0, or 1 where a scripted move was
    illegal. With ``record``: ``cards``, the line's cards from the position on (-1 padded)."""

    bids: NDArray[np.int8]
    tricks: NDArray[np.int8]
    scores: NDArray[np.int16]
    status: NDArray[np.int8]
    cards: NDArray[np.int8] | None = None


def solve_endgame(
    position: Position,
    worlds: NDArray[np.uint64],
    *,
    script: tuple[int | Card, ...] = (),
    record: bool = False,
    check: bool = True,
) -> Solution:
    """Finish the round from ``position`` in each world of ``worlds`` (all hands open) by max^n.

    ``script`` forces the first moves (bids in bidding order, then cards, as in
    :func:`upriver.fast.rollout`); bids still missing after it are the rule of thumb's. The
    search then plays every card. ``check`` validates the worlds. Its cost explodes with the
    cards left: meant for the last few tricks (about 4 cards a seat at 4 players).
    """
    if check:
        check_worlds(position, worlds)
    n, count = position.players, worlds.shape[0]
    left = (position.hand_size - position.tricks_done) * n - len(position.trick)
    if left > MOST_CARDS:
        raise ValueError(f"the solver searches at most {MOST_CARDS} cards left in all hands, not {left}")
    moves = np.array([m.index if isinstance(m, Card) else m for m in script], dtype=np.int64)
    shape = (count, n)
    out = Solution(
        np.empty(shape, np.int8),
        np.empty(shape, np.int8),
        np.empty(shape, np.int16),
        np.empty(count, np.int8),
        np.full((count, left if record else 0), -1, np.int8),
    )
    assert out.cards is not None
    into = Outcomes(out.bids, out.tricks, out.scores, out.status, out.cards, np.empty((0, 0), np.int8))
    opts = round_opts(position.rules, position.round_number)
    solve_range(0, (count + CHUNK - 1) // CHUNK, worlds, position_record(position), opts, moves, record, into)
    return out if record else dataclasses.replace(out, cards=None)


def fits(position: Position, cards: int) -> bool:
    """Whether ``position`` is small enough to solve for a threshold of ``cards`` in hand: its
    seat holds at most ``cards`` and the lines of play, counted without the duty to follow suit,
    are no more than when four players hold ``cards`` each (so a larger table solves later)."""
    counts = position.counts
    if counts[position.seat] > cards or sum(counts) > MOST_CARDS:
        return False
    return math.prod(math.factorial(c) for c in counts) <= math.factorial(cards) ** 4
