"""The game record as frozen data: what a record file says, before any rule is checked."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from upriver.cards import Card, Suit
from upriver.errors import UpriverError
from upriver.rules import Rules

__all__ = ["FORMAT", "Record", "RecordRuleError", "RoundRecord", "canonical_rules"]

FORMAT = "upriver-record/1"
"""The ``format`` value of every record this version reads and writes."""


def _no_extras() -> Mapping[str, object]:
    return MappingProxyType({})


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class RoundRecord:
    """One round as written: seat-order lists, and the cards only when they were recorded.

    A round played with cards has ``hands``, ``turned`` and ``plays``; a score-keeping
    round (real cards at a table) has none of them and gives ``tricks`` once it is over,
    and may name the ``trump`` suit. ``bids`` holds ``None`` for a bid not yet made.
    ``extras`` keeps keys of the round that this version does not know.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], ...] | None = None
    turned: Card | None = None
    bids: tuple[int | None, ...]
    plays: tuple[Card, ...] | None = None
    tricks: tuple[int, ...] | None = None
    trump: Suit | None = None
    extras: Mapping[str, object] = dataclasses.field(default_factory=_no_extras)

    @property
    def has_cards(self) -> bool:
        """Whether the cards of this round were recorded (not a score-keeping round)."""
        return self.hands is not None


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class Record:
    """A whole game record: the rules, the players in seating order, the rounds so far.

    ``extras`` keeps the document's unknown top-level keys (times, a seed, comments)
    and ``rule_extras`` the unknown keys of ``rules``, so a tool that rewrites a
    record loses nothing it did not understand.
    """

    rules: Rules
    players: tuple[str, ...]
    rounds: tuple[RoundRecord, ...]
    extras: Mapping[str, object] = dataclasses.field(default_factory=_no_extras)
    rule_extras: Mapping[str, object] = dataclasses.field(default_factory=_no_extras)


class RecordRuleError(UpriverError):
    """A well-formed record in which a player breaks a rule; the message is one line.

    ``round_number`` is 1-based, ``seat`` and ``player`` name who broke the rule
    (``None`` when no single player did, e.g. trick counts that do not add up),
    ``rule`` is the engine's short name of the rule (``"follow suit"``, ``"hook"``, …).
    """

    def __init__(
        self, message: str, *, round_number: int, rule: str, seat: int | None, player: str | None
    ) -> None:
        super().__init__(message)
        self.round_number = round_number
        self.rule = rule
        self.seat = seat
        self.player = player


def canonical_rules(rules: Rules) -> Rules:
    """The rules as a record reads them back from :meth:`Rules.options` (``max_cards`` resolved).

    Records made from a game and read from its file then compare equal.
    """
    return Rules.from_options(rules.options(), player_count=rules.player_count)
