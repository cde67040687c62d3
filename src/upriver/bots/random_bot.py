"""A bot that picks uniformly among the legal bids and cards: the baseline every bot must beat."""

from __future__ import annotations

from upriver.bots.base import Bot
from upriver.cards import Card
from upriver.view import SeatView

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Uniformly random legal moves, reproducible from its seed."""

    kind = "random"

    def choose_bid(self, view: SeatView) -> int:
        """Any legal bid, each equally likely."""
        return self.rng.choice(view.legal_bids)

    def choose_blind_bid(self, view: SeatView) -> int:
        """Any legal bid, each equally likely, blind or not."""
        return self.choose_bid(view)

    def choose_card(self, view: SeatView) -> Card:
        """Any legal card, each equally likely."""
        return self.rng.choice(view.legal_cards)
