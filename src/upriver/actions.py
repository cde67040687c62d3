"""Frozen records of what happened in a game: each accepted action, each trick, each round.

Actions and tricks are named tuples rather than dataclasses because the engine
makes one for every card played, and a named tuple is immutable at a third of
the cost of a frozen dataclass. Build them with keyword arguments.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
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
    "beats",
    "round_score",
    "standings_of",
    "winning_play",
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


def beats(card: Card, best: Card, trump: Suit | None) -> bool:
    """Whether ``card``, played to a trick, takes it from ``best``, the card winning it so far.

    A higher card of ``best``'s suit does, and so does any trump over a card that is
    not one; a card of another suit never does, so the suit led wins until a trump
    falls. This is the one statement of the rule: :meth:`upriver.Game.play` decides
    each trick with it, and so does everyone else who must know it: a bot choosing a
    card, an observation naming the seat winning the trick. The compiled kernel's
    ``upriver.fast.policies.strength`` orders cards the same way (``tests/test_kernel.py``
    checks it against this function on every pair of cards, trump and suit led).
    """
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


def winning_play(plays: Sequence[tuple[int, Card]], trump: Suit | None) -> tuple[int, Card]:
    """The ``(seat, card)`` of ``plays`` (in play order) that takes the trick, or is taking it so far.

    >>> from upriver.cards import Card, Suit
    >>> winning_play([(2, Card.parse("9H")), (3, Card.parse("KH")), (0, Card.parse("2S"))], Suit.SPADES)
    (0, Card.parse('2S'))

    :raises ValueError: when ``plays`` is empty: no card, no winner.
    """
    if not plays:
        raise ValueError("a trick with no card played has no winner yet")
    best = plays[0]
    for play in plays[1:]:
        if beats(play[1], best[1], trump):
            best = play
    return best


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
