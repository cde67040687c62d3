"""``spiel-ismcts``: OpenSpiel's Python ISMCTS playing upriver's own game as ``python_upriver``.

:class:`SpielPlayer` needs no mirror and no ``oh_hell`` rules (unlike :mod:`upriver.arena.openspiel`):
it plays upriver's own game as OpenSpiel's ``python_upriver`` (:mod:`upriver.spiel`), one round at a
time, OpenSpiel's Python ISMCTS searching from a state made from the seat's view, every hidden
card dealt fairly (the stock's too) before every simulation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from upriver import spiel
from upriver.arena.fair import RandomRollout, load_ismcts
from upriver.arena.openspiel import UCT_C, Mirror, load_pyspiel, parse_simulations
from upriver.cards import Card
from upriver.rules import Rules
from upriver.view import SeatView

__all__ = ["SPIEL_SIMULATIONS", "SpielPlayer", "spiel_factory"]

SPIEL_SIMULATIONS = 200
"""``spiel-ismcts``'s simulations a move when the seat names none."""


class SpielPlayer:
    """OpenSpiel's Python ISMCTS playing a seat of upriver's own game, under any rules.

    Each round is a ``python_upriver`` game of that one round (its rules, hand size, dealer and
    round number: :func:`upriver.spiel.params_of`), as OpenSpiel's ``oh_hell`` plays one hand:
    the search values a move by the round's score. Every move it makes a state from the seat's
    view alone (:func:`upriver.spiel.state_from_view`) and runs ``ISMCTSBot`` from it (UCT,
    c = 2, one random rollout a leaf, the most visited move), which deals the hidden cards
    afresh for every simulation with the game's own ``resample_from_infostate``: uniformly over
    the deals that agree with what the seat knows, the undealt stock's cards included. So it is
    fair, and it plays every rule set upriver plays (closed fists, the blind one-card round,
    rotating trump, every scoring).
    """

    uses_mirror = False
    last_bid_estimates = None
    """OpenSpiel's bots predict no make rates."""
    sees_deal = False

    def __init__(self, simulations: int, seed: int) -> None:
        self.simulations = simulations
        self.seed = seed % (2**31)
        self._rng = random.Random(seed)
        self._round: tuple[Rules, int] | None = None
        self._game: Any = None
        self._start: Any = None
        self._bot: Any = None

    def attach(self, mirror: Mirror) -> None:
        """Never called: this seat needs no mirrored ``oh_hell`` state."""

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """Never called: the seat reads its view alone."""

    def _begin(self, view: SeatView) -> None:
        """A ``python_upriver`` game of ``view``'s round, its state before the deal, and a bot for it."""
        import numpy as np

        ps = load_pyspiel()
        ismcts = load_ismcts()
        params = spiel.params_of(
            view.rules, hand_sizes=[view.hand_size], first_round=view.round_number, dealer=view.dealer
        )
        self._game = ps.load_game(spiel.GAME_NAME, params)
        self._start = spiel.round_start(self._game, view)
        self._bot = ismcts.ISMCTSBot(
            self._game,
            RandomRollout(self._rng.randrange(2**31)),
            UCT_C,
            self.simulations,
            max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=np.random.RandomState(self._rng.randrange(2**31)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )

    def move(self, view: SeatView) -> int | Card:
        """ISMCTS's choice for this view, as an upriver bid or card."""
        key = (view.rules, len(view.history))
        if self._round != key:
            self._begin(view)
            self._round = key
        state = spiel.state_from_view(self._game, view, self._rng, start=self._start)
        return spiel.move_of(int(self._bot.step(state)), max(self._game.config.rules.hand_sizes))


def spiel_factory(kind: str, arg: str | None) -> Callable[[int], SpielPlayer]:
    """A maker of ``spiel-ismcts`` players; fails now if OpenSpiel is missing or the budget is bad."""
    load_ismcts()
    simulations = parse_simulations(kind, arg, SPIEL_SIMULATIONS)
    return lambda seed: SpielPlayer(simulations, seed)
