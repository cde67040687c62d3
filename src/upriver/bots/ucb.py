"""``ucb``: a fast stand-in for OpenSpiel's ISMCTS (``openspiel-ismcts``) in pure upriver.

OpenSpiel's ISMCTS with 1000 simulations is the reference opponent of the strength
targets, but it is C++ behind a mirrored pyspiel state and costs tens of milliseconds a
move. On this game it is nearly flat Monte Carlo (see :mod:`upriver.fast.ucb`): this bot
does the same in the compiled kernel, a fresh void-respecting deal of the hidden cards per
simulation, UCB1 with constant 2 on raw round scores at the root, one uniformly random
rollout per simulation, the most visited move. ``bench/standin.py`` measures how often
it picks OpenSpiel's move and how the two fare head to head.

The budget is the number of simulations (``ucb:1000``; OpenSpiel's first simulation
only expands its root, so this bot runs one fewer). Moves replay exactly from the seed.

One thing OpenSpiel's ISMCTS knows that a seat may not: ``oh_hell``'s
``ResampleFromInfostate`` (OpenSpiel 2.0) shuffles only the cards the other seats really
hold, so every deal it searches leaves the true stock (the cards nobody was dealt) out.
:meth:`UcbBot.choose` takes that knowledge as ``in_play``; as a bot (:meth:`act`) it never
has it. The arena's ``ismcts-standin`` seat (:mod:`upriver.arena.standin`) gives it, to
play as the reference does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from upriver.bots.base import Bot
from upriver.bots.knowledge import Knowledge, knowledge_of
from upriver.cards import Card
from upriver.view import SeatView

__all__ = ["UcbBot"]


class UcbBot(Bot):
    """Flat UCB1 over the legal moves with random rollouts: OpenSpiel's ISMCTS, compiled."""

    kind = "ucb"
    default_simulations = 1000

    def __init__(
        self, seed: int | None = None, *, name: str | None = None, budget: int | float | None = None
    ) -> None:
        super().__init__(seed, name=name)
        if isinstance(budget, float | bool):
            raise ValueError("ucb takes a whole number of simulations, like ucb:1000, not a time")
        simulations = self.default_simulations if budget is None else budget
        if simulations < 2:
            raise ValueError(f"ucb needs at least 2 simulations, not {simulations}")
        self.simulations = simulations

    def __repr__(self) -> str:
        return f"UcbBot(seed={self.seed!r}, name={self.name!r}, simulations={self.simulations})"

    def choose_bid(self, view: SeatView) -> int:
        """The most visited bid of a flat UCB1 search."""
        move = self.choose(view)
        assert isinstance(move, int)
        return move

    def choose_card(self, view: SeatView) -> Card:
        """The most visited card of a flat UCB1 search."""
        move = self.choose(view)
        assert isinstance(move, Card)
        return move

    def choose(self, view: SeatView, in_play: int | None = None) -> int | Card:
        """The most visited legal move; ``in_play`` (a card mask), when given, holds exactly the
        cards the other seats hold now, and the deals searched use those and no others."""
        moves: tuple[int, ...] | tuple[Card, ...] = view.legal_bids or view.legal_cards
        if len(moves) == 1:
            return moves[0]
        from upriver.fast import position_from_view
        from upriver.fast.ucb import search

        seed = self.rng.getrandbits(31)
        position = position_from_view(view)
        know = knowledge_of(view)
        count = self.simulations - 1
        if in_play is None:
            from upriver.bots.sampling import sample_worlds

            worlds = sample_worlds(know, position, count, seed)
        else:
            worlds = _deal_from(know, in_play, count, seed)
        return search(position, worlds, moves, seed=seed).best


def _deal_from(know: Knowledge, in_play: int, count: int, seed: int) -> NDArray[np.uint64]:
    """``count`` deals of exactly the cards ``in_play`` to the other seats, by their counts,
    none to a seat of a suit it has shown it lacks (uniform draws kept when they respect the
    voids, the rest dealt under the constraints)."""
    from upriver.fast import kernel
    from upriver.fast.infer import deal_constrained

    n = know.players
    known = np.zeros(n, dtype=np.uint64)
    known[know.seat] = know.hand
    need = np.array(know.counts, dtype=np.int64)
    need[know.seat] = 0
    if int(need.sum()) != in_play.bit_count():
        raise ValueError(
            f"the other seats hold {int(need.sum())} cards, not the {in_play.bit_count()} in play"
        )
    voids = np.array(know.voids, dtype=np.uint64)
    draws = np.empty((2 * count, n), dtype=np.uint64)
    kernel.sample_range(
        0, (2 * count + kernel.CHUNK - 1) // kernel.CHUNK, 2 * count, known, in_play, need, seed, draws
    )
    worlds = draws[~np.any(draws & voids, axis=1)][:count]
    if len(worlds) < count:
        extra = deal_constrained(known, in_play, need, voids, count - len(worlds), seed)
        worlds = np.concatenate([worlds, extra])
    return np.ascontiguousarray(worlds, dtype=np.uint64)
