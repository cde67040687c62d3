"""The expert's advice for a seat: the bid or card it would choose, with its estimate.

For a bid the estimate is the tricks the hand is expected to take when it plays for that
bid; for a card, the estimated chance of making the seat's bid after playing it. Both
come from the ``expert`` level's search over deals consistent with the seat's view, with
a fixed seed and iteration budget, so the same view always gets the same advice.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from upriver.bots.levels import ExpertBot
from upriver.cards import Card
from upriver.view import SeatView

__all__ = ["Hint", "hint"]


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move: ``kind`` ``"bid"`` (``estimate``: expected tricks) or ``"card"``
    (``estimate``: chance of making the bid, 0–1), and a sentence saying so."""

    kind: Literal["bid", "card"]
    choice: int | Card
    estimate: float
    explanation: str


def hint(view: SeatView, *, seed: int = 0, iterations: int | None = None) -> Hint:
    """The expert's suggested bid or card for ``view``'s seat, whose turn it must be."""
    if not view.my_turn:
        raise ValueError(f"{view.players[view.seat]} has nothing to decide now: it is not their turn")
    if view.foreheads:  # a blind round: the bid of best expected score, from the cards the seat sees
        from upriver.bots.blind import blind_bid, blind_chance

        chance, best_bid = blind_chance(view), blind_bid(view)
        return Hint(
            "bid",
            best_bid,
            chance,
            f"Bid {best_bid}: from the cards you see, yours takes the trick about {chance:.0%} of the time.",
        )
    bot = ExpertBot(seed, budget=iterations)
    analysis = bot.analyse(view)
    i = analysis.of(analysis.best)
    best = analysis.best
    if isinstance(best, Card):
        bid = view.bids[view.seat]
        chance = analysis.made[i]
        return Hint(
            "card",
            best,
            chance,
            f"Play {best.symbol}: about {chance:.0%} to make your bid of {bid}.",
        )
    tricks = analysis.tricks[i]
    return Hint(
        "bid",
        best,
        tricks,
        f"Bid {best}: your hand is worth about {tricks:.1f} tricks "
        f"({analysis.made[i]:.0%} to make exactly {best}).",
    )
