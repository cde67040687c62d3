"""The few exceptions upriver raises; each message is a sentence a player can act on."""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
    "UpriverError",
]


class UpriverError(Exception):
    """Base class of every error upriver raises on purpose."""


class NotationError(UpriverError, ValueError):
    """Text that is not a card, suit or rank in the record's notation."""


class RulesError(UpriverError, ValueError):
    """A rules object that cannot be played: an impossible or contradictory option."""


class IllegalActionError(UpriverError):
    """A bid, card or other action the rules refuse; the game is left exactly as it was.

    ``rule`` is a short name of the rule broken (``"follow suit"``, ``"hook"``, …),
    ``seat`` the seat that tried to act (``None`` when no seat is concerned).
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat


class RecordError(UpriverError, ValueError):
    """A document that is not a game record: bad JSON, unknown card text, a missing key."""
