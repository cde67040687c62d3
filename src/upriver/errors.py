"""The few exceptions upriver raises; each message is a sentence a player can act on.

Each error also carries its facts as data (the rule, the seat, the values involved), so
an adapter can word the same refusal in another language or for another person
("You must follow suit") without parsing the sentence.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RefusalError",
    "RulesError",
    "UpriverError",
    "json_facts",
]


def json_facts(value: object) -> object:
    """Facts as JSON data: enums (a suit) as their record text, cards as ``"QH"``, tuples as lists.

    A card is anything that is not JSON data already and whose text is its notation
    (:class:`upriver.cards.Card`, which this module cannot import: cards imports errors).

    >>> from upriver.cards import Card, Suit
    >>> json_facts({"led": Suit.CLUBS, "held": (Card.parse("2C"), Card.parse("QC"))})
    {'led': 'C', 'held': ['2C', 'QC']}
    """
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [json_facts(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): json_facts(item) for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class UpriverError(Exception):
    """Base class of every error upriver raises on purpose."""


class NotationError(UpriverError, ValueError):
    """Text that is not a card, suit or rank in the record's notation."""


class RulesError(UpriverError, ValueError):
    """A rules object that cannot be played: an impossible or contradictory option.

    ``option`` names the rule option at fault, spelled as in the game record
    (``"bidding"``, ``"max_cards"``, …), or is ``None`` when several options clash
    or the player count is at fault. ``facts``: what the sentence is made of, as JSON
    data, when a page may word it again (a custom scoring's ``field`` and ``case``).
    """

    def __init__(
        self, message: str, *, option: str | None = None, facts: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.option = option
        self.facts: dict[str, object] = dict(facts or {})


class RefusalError(UpriverError, ValueError):
    """A refusal that carries its facts: the base of :class:`IllegalActionError` and of
    :class:`upriver.InconsistentDealError`.

    ``rule`` is a short name of what is refused, ``seat`` the seat concerned (``None``
    when no seat is), and ``facts`` a read-only mapping of the values the sentence is
    made of, so the refusal can be worded again.
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        seat: int | None = None,
        facts: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat
        self.facts: Mapping[str, object] = MappingProxyType(dict(facts or {}))

    def facts_json(self) -> dict[str, object]:
        """:attr:`facts` as JSON-safe data (:func:`json_facts`): ``{"led": "C", "held": ["2C", "QC"]}``."""
        return {key: json_facts(value) for key, value in self.facts.items()}


class IllegalActionError(RefusalError):
    """A bid, card or other action the rules refuse; the game is left exactly as it was.

    ``rule`` is a short name of the rule broken (``"follow suit"``, ``"hook"``, …),
    ``seat`` the seat that tried to act (``None`` when no seat is concerned) and
    ``facts`` the values the sentence is made of (for ``"follow suit"``: the suit
    ``led`` and the cards ``held`` of it), so the refusal can be worded again.
    """


class RecordError(UpriverError, ValueError):
    """A document that is not a game record: bad JSON, unknown card text, a missing key."""
