"""Flat UCB1 over one decision, compiled: a fast stand-in for OpenSpiel's ISMCTS on this game.

OpenSpiel's ``ISMCTSBot`` (``open_spiel/algorithms/is_mcts.cc``), as the arena plays it
(UCT constant 2, a random-rollout evaluator with one rollout, unlimited world samples,
the most-visited move), keys its nodes by information state. Each simulation deals the
hidden cards afresh (``ResampleFromInfostate``, which respects the voids shown); at the
root it tries every legal move once in random order, then picks by UCB1 on raw returns,
``mean + c * sqrt(ln N / n)`` with ties (within 1e-5) broken at random; the state after
the move is the next seat's information state, which holds that seat's sampled hand and
so is new in almost every simulation: it is evaluated at once by one uniformly random
rollout to the end of the hand, and its return for the root's player is backed up. Its
very first simulation only expands the root. The search is therefore nearly flat Monte
Carlo with UCB1 at the root; a real tree grows only when the hidden cards are so few
that a sampled hand recurs (the last tricks).

:func:`ucb_search` is that flat search over deals drawn in advance (one deal a
simulation, as OpenSpiel draws one): each simulation plays the chosen move in its deal
and completes the round with the uniform random policy for every seat, scored by the
rules' scoring. The per-move statistics come back, so a bot picks the most visited.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from upriver.cards import Card
from upriver.fast._jit import GOLDEN, Bits, Ints, below, jit, mix
from upriver.fast.api import Position, position_record, round_opts
from upriver.fast.kernel import PositionRecord, load_world, play_round, score, state_of, stream
from upriver.fast.policies import POLICY_RANDOM

__all__ = ["TIE_TOLERANCE", "UCT_C", "UcbStats", "search", "ucb_search"]

UCT_C = 2.0
"""OpenSpiel's exploration constant for ISMCTS on card games, as the arena plays it."""

TIE_TOLERANCE = 1e-5
"""UCB values this close to the best count as ties (OpenSpiel's ``kTieTolerance``)."""


@jit
def ucb_search(
    worlds: Bits,
    position: PositionRecord,
    opts: Ints,
    seat: int,
    moves: Ints,
    bidding: bool,
    uct_c: float,
    seed: int,
    visits: Ints,
    returns: NDArray[np.float64],
) -> None:
    """Run one simulation per world of ``worlds`` with UCB1 over ``moves``; fill ``visits`` and
    ``returns`` (sum of ``seat``'s round scores) per move.

    ``position`` and ``opts`` are as for :func:`upriver.fast.kernel.rollout_range`. ``moves``
    are bids (``bidding``) or card indices; a bid is set for ``seat`` directly, a card is the
    first move played.
    """
    count, n = worlds.shape
    k = moves.shape[0]
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    # Each array is taken out of the record once (see kernel.games_range).
    state, bids0, tricks0, trick0 = state_of(position), position.bids, position.tricks, position.trick
    script = np.zeros(0 if bidding else 1, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int8)
    values = np.zeros(k, dtype=np.float64)
    ties = np.zeros(k, dtype=np.int64)
    rng = stream(seed, 0)
    visits[:] = 0
    returns[:] = 0.0
    for w in range(count):
        rng += GOLDEN
        bits = mix(rng)
        if w < k:  # an untried move first, in random order (each simulation visits one move)
            arm = -1
            pick = below(bits, k - w)
            for i in range(k):
                if visits[i] == 0:
                    if pick == 0:
                        arm = i
                        break
                    pick -= 1
        else:
            best = -1e300
            log_total = np.log(float(w))
            for i in range(k):
                values[i] = returns[i] / visits[i] + uct_c * np.sqrt(log_total / visits[i])
                if values[i] > best:
                    best = values[i]
            m = 0
            for i in range(k):
                if values[i] > best - TIE_TOLERANCE:
                    ties[m] = i
                    m += 1
            arm = ties[below(bits, m)] if m > 1 else ties[0]
        load_world(worlds, w, bids0, tricks0, trick0, hands, bids, tricks, trick)
        if bidding:
            bids[seat] = moves[arm]
        else:
            script[0] = moves[arm]
        rng = play_round(
            hands, bids, tricks, trick, state, opts, POLICY_RANDOM, rng, script, False, no_record, no_record
        )[1]
        visits[arm] += 1
        returns[arm] += score(opts, bids[seat], tricks[seat])


@dataclasses.dataclass(frozen=True, slots=True)
class UcbStats:
    """One flat UCB1 search: per candidate move, its visits and mean round score for the seat."""

    moves: tuple[int | Card, ...]
    visits: NDArray[np.int64]
    means: NDArray[np.float64]

    @property
    def best(self) -> int | Card:
        """The most visited move (the first of equals), as OpenSpiel's final policy picks."""
        return self.moves[int(np.argmax(self.visits))]


def search(
    position: Position,
    worlds: NDArray[np.uint64],
    moves: tuple[int, ...] | tuple[Card, ...],
    *,
    uct_c: float = UCT_C,
    seed: int = 0,
) -> UcbStats:
    """Flat UCB1 over ``moves`` (the seat's legal bids or cards), one simulation per world.

    ``worlds`` are deals of the hidden cards for ``position`` (as from
    :func:`upriver.fast.sample_worlds`, or the void-respecting sampler of the search bots).
    """
    if not moves:
        raise ValueError("search needs at least one candidate move")
    bidding = not isinstance(moves[0], Card)
    codes = np.array([m.index if isinstance(m, Card) else m for m in moves], dtype=np.int64)
    visits = np.zeros(len(moves), dtype=np.int64)
    returns = np.zeros(len(moves), dtype=np.float64)
    ucb_search(
        np.ascontiguousarray(worlds, dtype=np.uint64),
        position_record(position),
        round_opts(position.rules, position.round_number),
        position.seat,
        codes,
        bidding,
        uct_c,
        seed,
        visits,
        returns,
    )
    means = np.divide(returns, visits, out=np.zeros_like(returns), where=visits > 0)
    return UcbStats(moves=tuple(moves), visits=visits, means=means)
