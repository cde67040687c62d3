"""The ``ismcts-standin`` seat: the compiled stand-in for OpenSpiel's ISMCTS, knowing what it knows.

OpenSpiel's ISMCTS searches deals drawn by ``oh_hell``'s ``ResampleFromInfostate``,
which (OpenSpiel 2.0) shuffles only the cards the other seats were really dealt: the
cards left in the stock never appear in an opponent's hand, so the reference knows
which 11 of the 41 unseen cards (4 players, 10 cards) are out of play. A fair bot
cannot; a stand-in must, to play as the reference plays. This seat is
:class:`upriver.bots.UcbBot` told, at every move, exactly the set of cards the other
seats hold (from the arena's deal, as OpenSpiel's seats read their mirrored state);
it is an arena seat, not a bot, so no table ever seats it. ``bench/standin.py``
measures it against pyspiel's ISMCTS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from upriver.arena.base import ArenaError, parse_number
from upriver.bots.ucb import UcbBot
from upriver.cards import Card, mask_of
from upriver.view import SeatView

if TYPE_CHECKING:
    from upriver.arena.openspiel import Mirror

__all__ = ["STANDIN_KINDS", "StandinPlayer", "seat_factory"]

STANDIN_KINDS: dict[str, str] = {
    "ismcts-standin": "ismcts-standin[:SIMULATIONS] (ucb told the stock, as OpenSpiel's ISMCTS is; 1000)",
}
"""Seat kinds that are told the deal (an arena's imitation of a reference that sees it)."""


class StandinPlayer:
    """:class:`UcbBot` in an arena seat, searching only deals of the cards really in play."""

    uses_mirror = False
    sees_deal = True
    last_bid_estimates: Mapping[int, float] | None = None

    def __init__(self, simulations: int, seed: int) -> None:
        self.bot = UcbBot(seed, budget=simulations)
        self._dealt = 0

    def attach(self, mirror: Mirror) -> None:
        """Nothing to do: this seat is told the deal, not a mirrored state."""

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """The round's dealt hands, every seat's: what OpenSpiel's resampler knows."""
        self._dealt = mask_of(card for hand in hands for card in hand)

    def move(self, view: SeatView) -> int | Card:
        """The stand-in's move, searching deals of the cards the other seats still hold."""
        gone = mask_of(view.hand) | mask_of(card for _, card in view.played)
        return self.bot.choose(view, in_play=self._dealt & ~gone)


def seat_factory(kind: str, arg: str | None) -> Callable[[int], StandinPlayer]:
    """A maker of stand-in seats; fails now if the budget is not a whole number of simulations."""
    simulations = UcbBot.default_simulations
    if arg is not None:
        value = parse_number(arg, f"the simulations of {kind}")
        if not isinstance(value, int) or value < 2:
            raise ArenaError(f"{kind} needs a whole number of simulations, at least 2, not {arg!r}")
        simulations = value
    return lambda seed: StandinPlayer(simulations, seed)
