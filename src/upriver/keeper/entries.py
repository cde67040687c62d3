"""What a score keeper writes down, as plain frozen data: the rounds, and the flag on a refused one."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from upriver.cards import Suit

__all__ = [
    "EXTRA",
    "JACK_FROM",
    "Flag",
    "KeptRound",
    "SheetEntries",
    "split_names",
]

EXTRA = "upriver_keep"
"""The record's extra key holding the sheet's title and, under the first-Jack procedure, who got the Jack."""

JACK_FROM = 0
"""Under the first-Jack procedure the face-up cards are dealt from seat 0, clockwise.

The seed says only "one at a time"; seat 0 is the first name on the sheet, which is
where a keeper writing names left to right would start.
"""


@dataclasses.dataclass(frozen=True, slots=True)
class KeptRound:
    """One round as the keeper wrote it: bids in seat order (``None``: not yet), tricks once entered."""

    bids: tuple[int | None, ...]
    tricks: tuple[int, ...] | None = None
    trump: Suit | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SheetEntries:
    """Everything entered on a sheet at one moment; undo steps back through these."""

    first_dealer: int | None
    """``None`` while the first-Jack procedure waits to be told who got the Jack."""
    jack: int | None
    """The seat dealt the first Jack, under the first-Jack procedure."""
    rounds: tuple[KeptRound, ...] = ()

    def to_json(self) -> dict[str, object]:
        """Plain JSON data, as the store keeps it."""
        return {
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
        return cls(first_dealer=first, jack=jack, rounds=tuple(rounds))


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
