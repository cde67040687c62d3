"""What every arena module shares and nothing else: the arena's error and the reading of a budget.

Kept apart so that the seat specs (:mod:`upriver.arena.spec`) and the OpenSpiel seats
(:mod:`upriver.arena.openspiel`) both use them without importing each other both ways.

>>> parse_number("200", "a budget"), parse_number("0.5", "a budget")
(200, 0.5)
"""

from __future__ import annotations

from upriver.errors import UpriverError

__all__ = ["ArenaError", "parse_number"]


class ArenaError(UpriverError, ValueError):
    """An arena that cannot be run as asked: an unknown bot, a bad budget, rules a seat cannot play."""


def parse_number(text: str, what: str) -> int | float:
    """A budget written as an integer (iterations, simulations) or a decimal (seconds).

    :raises ArenaError: for text that is not a positive number.
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise ArenaError(f"{what} must be a number, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise ArenaError(f"{what} must be a positive number, not {text!r}")
    return value
