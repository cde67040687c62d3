"""Frozen records of what happened in a game: each accepted action, each trick, each round.

Actions and tricks are named tuples rather than dataclasses because the engine
makes one for every card played, and a named tuple is immutable at a third of
the cost of a frozen dataclass. Build them with keyword arguments.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import NamedTuple

from upriver.cards import Card, Suit
from upriver.scoring import round_score

__all__ = [
    "Action",
    "BidAction",
    "DealAction",
    "Phase",
    "PlayAction",
    "RoundResult",
    "Trick",
    "TricksAction",
    "round_score",
    "standings_of",
]


class Phase(enum.Enum):
    """What a game is waiting for."""

    DEALING = "dealing"
    """The next round's cards (or, at a real table, word that they are dealt)."""
    BIDDING = "bidding"
    PLAYING = "playing"
    TRICKS = "tricks"
    """A round played with real cards: the tricks each seat took."""
    OVER = "over"


class DealAction(NamedTuple):
    """A round was dealt. ``hands`` is ``None`` when the cards were dealt at a real table."""

    round: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...] | None
    turned: Card | None
    trump: Suit | None


class BidAction(NamedTuple):
    """A seat bid a number of tricks."""

    round: int
    seat: int
    bid: int


class PlayAction(NamedTuple):
    """A seat played a card."""

    round: int
    seat: int
    card: Card


class TricksAction(NamedTuple):
    """The tricks each seat took in a round played with real cards."""

    round: int
    tricks: tuple[int, ...]


Action = DealAction | BidAction | PlayAction | TricksAction
"""Any entry of a game's action log."""


class Trick(NamedTuple):
    """One finished trick: who led, each (seat, card) in play order, and who won it."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards alone, in play order."""
        return tuple(card for _, card in self.plays)


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class RoundResult:
    """A finished round as the score sheet shows it, with its cards when they were recorded."""

    number: int
    """1-based, as on the score sheet."""
    hand_size: int
    dealer: int
    turned: Card | None
    trump: Suit | None
    hands: tuple[tuple[Card, ...], ...] | None
    bids: tuple[int, ...]
    plays: tuple[Card, ...] | None
    tricks_won: tuple[int, ...]
    """Tricks each seat took, in seat order."""
    scores: tuple[int, ...]


def standings_of(totals: tuple[int, ...] | list[int]) -> tuple[tuple[int, int, int], ...]:
    """``(place, seat, total)`` from first to last; tied seats share a place (1, 1, 3)."""
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    rows: list[tuple[int, int, int]] = []
    for i, seat in enumerate(order):
        tied = rows and totals[seat] == rows[-1][2]
        rows.append((rows[-1][0] if tied else i + 1, seat, totals[seat]))
    return tuple(rows)
