"""What a score keeper writes down, as plain frozen data: the rounds, and the flag on a refused one."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from upriver.actions import Phase
from upriver.cards import Suit
from upriver.sheet import RowStatus

__all__ = [
    "EXTRA",
    "JACK_FROM",
    "Adjustment",
    "Flag",
    "Join",
    "KeptRound",
    "Leave",
    "SheetEntries",
    "SitOut",
    "Start",
    "Waiting",
    "split_names",
]

EXTRA = "upriver_keep"
"""The record's extra key holding the sheet's title and, under the first-Jack procedure, who got the Jack."""

JACK_FROM = 0
"""Under the first-Jack procedure the face-up cards are dealt from seat 0, clockwise.

The source says only "one at a time"; seat 0 is the first name on the sheet, which is
where a keeper writing names left to right would start.
"""


@dataclasses.dataclass(frozen=True, slots=True)
class KeptRound:
    """One round as the keeper wrote it: bids in seat order (``None``: not yet, or a seat not
    playing), tricks once entered (``None`` for a seat not playing). A seat that joined after the
    round was written has no value in it: read with :meth:`bid` and :meth:`trick`."""

    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...] | None = None
    trump: Suit | None = None

    def bid(self, seat: int) -> int | None:
        """``seat``'s bid, ``None`` if not entered."""
        return self.bids[seat] if seat < len(self.bids) else None

    def trick(self, seat: int) -> int | None:
        """``seat``'s tricks, ``None`` if not entered."""
        return self.tricks[seat] if self.tricks is not None and seat < len(self.tricks) else None


class Start(enum.Enum):
    """A newcomer's starting score, as the table chooses."""

    ZERO = "zero"
    LOWEST = "lowest"
    """The lowest total of the players at the table."""
    AVERAGE = "average"
    """The average total of the players at the table, rounded to the nearest point (halves up)."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Join:
    """A newcomer, playing from round ``round`` on (1-based), seated after the last seat."""

    name: str
    round: int
    start: Start = Start.ZERO


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Leave:
    """A player gone from round ``round`` on."""

    seat: int
    round: int


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SitOut:
    """A player sitting out round ``round`` only."""

    seat: int
    round: int


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Adjustment:
    """A bonus (positive) or penalty (negative) of ``points`` for ``seat``, written after round
    ``after`` was scored (0: before the first), with the table's note of why."""

    seat: int
    after: int
    points: int
    note: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class SheetEntries:
    """Everything entered on a sheet at one moment; undo steps back through these."""

    first_dealer: int | None
    """``None`` while the first-Jack procedure waits to be told who got the Jack."""
    jack: int | None
    """The seat dealt the first Jack, under the first-Jack procedure."""
    rounds: tuple[KeptRound, ...] = ()
    joins: tuple[Join, ...] = ()
    leaves: tuple[Leave, ...] = ()
    sit_outs: tuple[SitOut, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    sizes: tuple[int, ...] | None = None
    """The evening's hand sizes once the schedule was edited on the sheet (``None``: the rules')."""

    def to_json(self) -> dict[str, object]:
        """Plain JSON data, as the store keeps it (and a record's evening, :mod:`upriver.keeper.evening`)."""
        data: dict[str, object] = {
            "first_dealer": self.first_dealer,
            "jack": self.jack,
            "rounds": [
                {
                    "bids": list(r.bids),
                    "tricks": None if r.tricks is None else list(r.tricks),
                    "trump": None if r.trump is None else r.trump.value,
                }
                for r in self.rounds
            ],
        }
        if self.joins:
            data["joins"] = [{"name": j.name, "round": j.round, "start": j.start.value} for j in self.joins]
        if self.leaves:
            data["leaves"] = [{"seat": x.seat, "round": x.round} for x in self.leaves]
        if self.sit_outs:
            data["sit_outs"] = [{"seat": x.seat, "round": x.round} for x in self.sit_outs]
        if self.adjustments:
            data["adjustments"] = [
                {"seat": a.seat, "after": a.after, "points": a.points, "note": a.note}
                for a in self.adjustments
            ]
        if self.sizes is not None:
            data["sizes"] = list(self.sizes)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SheetEntries:
        """The entries :meth:`to_json` wrote (trusted data: the store's own)."""
        rounds = []
        for item in data["rounds"]:  # type: ignore[attr-defined]
            tricks, trump = item["tricks"], item["trump"]
            rounds.append(
                KeptRound(
                    bids=tuple(item["bids"]),
                    tricks=None if tricks is None else tuple(tricks),
                    trump=None if trump is None else Suit(trump),
                )
            )
        first, jack = data["first_dealer"], data["jack"]
        assert first is None or isinstance(first, int)
        assert jack is None or isinstance(jack, int)
        sizes = data.get("sizes")
        return cls(
            first_dealer=first,
            jack=jack,
            rounds=tuple(rounds),
            joins=tuple(
                Join(name=j["name"], round=j["round"], start=Start(j["start"]))
                for j in data.get("joins", ())  # type: ignore[attr-defined]
            ),
            leaves=tuple(Leave(**x) for x in data.get("leaves", ())),  # type: ignore[attr-defined]
            sit_outs=tuple(SitOut(**x) for x in data.get("sit_outs", ())),  # type: ignore[attr-defined]
            adjustments=tuple(Adjustment(**a) for a in data.get("adjustments", ())),  # type: ignore[attr-defined]
            sizes=None if sizes is None else tuple(sizes),  # type: ignore[arg-type]
        )


class Flag(NamedTuple):
    """A round the engine refuses after an edit elsewhere: fix it (edit) or undo."""

    round: int
    """1-based."""
    message: str
    rule: str
    seat: int | None
    facts: Mapping[str, object] = MappingProxyType({})
    """The refusal's facts (:attr:`IllegalActionError.facts`)."""


def split_names(text: str) -> tuple[str, ...]:
    """Names from ``"Ann, Bob, Cid"``, split at commas and stripped; :meth:`KeptSheet.start` checks them."""
    return tuple(name.strip() for name in text.split(","))


class Waiting(enum.StrEnum):
    """What a kept sheet waits for: the engine's :class:`~upriver.actions.Phase` where it has one."""

    JACK = "jack"
    """Word of who was dealt the first Jack (the first-Jack procedure at a real table)."""
    BIDDING = Phase.BIDDING.value
    TRICKS = Phase.TRICKS.value
    FLAGGED = RowStatus.FLAGGED.value
    """A fix of the round the engine refuses since an edit elsewhere (:attr:`KeptSheet.flag`)."""
    OVER = Phase.OVER.value
