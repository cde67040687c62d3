"""Entries made against a round as it stood, and the conflicts kept when that round moved on meanwhile.

Two phones may write to one sheet, one of them with no server for a while. So an entry for a
round (``bid``, ``bids``, ``tricks``, or ``edit`` of a round entered) carries what it was made
against: the round's number and that round's bids and tricks as the phone saw them
(:class:`Against`, the body's ``"against"``). The sheet decides (:func:`decide`):

- the round is as the entry saw it (and, for a bid or the tricks, still the round in play):
  the entry applies, through the engine like any other; so does a bid whose round has moved
  on only by other players' bids, its own seat's still open (two phones at a busy table);
- the round already holds what the entry wanted (a retry, or the same entry made on both
  phones): nothing to do, and no conflict;
- otherwise the round moved on (another phone entered or corrected it differently, or finished
  it, so a bid would land in the next round): the entry is never applied, and never in another
  round. It is kept as a :class:`Conflict`: the round, what is there now and what the entry
  wanted, who made it on which device and when, for the table to pick one (:class:`Pick`,
  :func:`use_entry`).

Everything here is core Python (the phone's engine runs it too): the phone works out what its
entries were made against with the very function the server checks them with (:func:`against`).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from typing import Any

from upriver.errors import IllegalActionError
from upriver.keeper.commands import BadEntryError
from upriver.keeper.sheet import KeptSheet

__all__ = [
    "ROUND_BOUND",
    "Against",
    "Conflict",
    "Made",
    "Pick",
    "RoundState",
    "Verdict",
    "against",
    "decide",
    "entry_of",
    "made_of",
    "round_state",
    "use_entry",
    "wanted",
]

ROUND_BOUND = frozenset({"bid", "bids", "tricks", "edit"})
"""The entries made for one round, which carry what they were made against."""

IN_PLAY = frozenset({"bid", "bids", "tricks"})
"""The entries for the round in play: they apply to no other round."""

META = ("against", "device", "by", "queued", "version")
"""The body's keys that say how an entry was made, not what it is."""


def _values(value: object, what: str, seats: int, *, nulls: bool = True) -> tuple[int | None, ...]:
    if not isinstance(value, list) or len(value) != seats:
        raise BadEntryError(
            f"'against' {what} must be a list of {seats} values (a number or null per seat)", field="against"
        )
    for v in value:
        if v is None and nulls:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise BadEntryError(f"'against' {what} must be whole numbers or null, not {v!r}", field="against")
    return tuple(value)


@dataclasses.dataclass(frozen=True, slots=True)
class RoundState:
    """One round's bids and tricks in seat order (``None``: not entered, or not playing)."""

    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...] | None = None

    def to_json(self) -> dict[str, object]:
        """``{"bids", "tricks"}``."""
        return {"bids": list(self.bids), "tricks": None if self.tricks is None else list(self.tricks)}

    @classmethod
    def from_json(cls, data: object, seats: int) -> RoundState:
        """The state a body names (:class:`BadEntryError` saying what is wrong)."""
        if not isinstance(data, Mapping):
            raise BadEntryError("'against' must be an object {round, bids, tricks}", field="against")
        tricks = data.get("tricks")
        return cls(
            bids=_values(data.get("bids"), "bids", seats),
            tricks=None if tricks is None else _values(tricks, "tricks", seats),
        )

    def holds(self, other: RoundState) -> bool:
        """Whether this round already holds everything ``other`` sets (its bids, its tricks if any)."""
        return self.bids == other.bids and (other.tricks is None or self.tricks == other.tricks)


def round_state(sheet: KeptSheet, number: int) -> RoundState:
    """Round ``number`` of ``sheet`` as entered (a round not begun: nothing entered)."""
    seats = range(len(sheet.players))
    rounds = sheet.entries.rounds
    if not 1 <= number <= len(rounds):
        return RoundState(bids=tuple(None for _ in seats))
    kept = rounds[number - 1]
    tricks = None if kept.tricks is None else tuple(kept.trick(s) for s in seats)
    return RoundState(bids=tuple(kept.bid(s) for s in seats), tricks=tricks)


@dataclasses.dataclass(frozen=True, slots=True)
class Against:
    """What an entry was made against: round ``round`` as ``seen``."""

    round: int
    seen: RoundState

    def to_json(self) -> dict[str, object]:
        """``{"round", "bids", "tricks"}``, as a body's ``"against"``."""
        return {"round": self.round, **self.seen.to_json()}


def target(sheet: KeptSheet, action: str, body: Mapping[str, Any]) -> int | None:
    """The round an entry is for: an edit's round, or the round in play; ``None`` for other entries."""
    if action == "edit":
        number = body.get("round")
        return number if isinstance(number, int) and not isinstance(number, bool) else None
    return sheet.current if action in IN_PLAY else None


def against(sheet: KeptSheet, action: str, body: Mapping[str, Any]) -> Against | None:
    """What an entry about to be made on ``sheet`` is made against (``None``: an entry for no round)."""
    number = target(sheet, action, body)
    return None if number is None else Against(number, round_state(sheet, number))


def entry_of(sheet: KeptSheet, action: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The entry's body with what it leaves to the sheet pinned: a bid's seat (the next bidder)."""
    if action == "bid" and body.get("seat") is None:
        waiting = sheet.to_bid or sheet.bidding_order
        if waiting:
            return {**body, "seat": waiting[0]}
    return dict(body)


@dataclasses.dataclass(frozen=True, slots=True)
class Made:
    """How an entry was made: against what, on which device, by whom, and whether it was queued on
    a phone with no server (then a refusal by the engine is kept as a conflict too, never dropped)."""

    against: Against | None = None
    device: str = ""
    by: str = ""
    queued: bool = False


def _text(value: object, what: str, longest: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > longest:
        raise BadEntryError(f"'{what}' must be text of at most {longest} characters", field=what)
    return value


def made_of(sheet: KeptSheet, body: Mapping[str, Any]) -> Made:
    """The body's ``against``, ``device``, ``by`` and ``queued``.

    :raises BadEntryError: naming what is not what it should be.
    """
    data = body.get("against")
    made = None
    if data is not None:
        if not isinstance(data, Mapping):
            raise BadEntryError("'against' must be an object {round, bids, tricks}", field="against")
        number = data.get("round")
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise BadEntryError(
                f"'against' round must be a round number (1 or more), not {number!r}", field="against"
            )
        made = Against(number, RoundState.from_json(data, len(sheet.players)))
    return Made(
        against=made,
        device=_text(body.get("device"), "device", 64),
        by=_text(body.get("by"), "by", 80),
        queued=body.get("queued") is True,
    )


def _seats(value: object, seats: int, what: str) -> tuple[int | None, ...]:
    if not isinstance(value, list) or len(value) != seats:
        raise BadEntryError(f"'{what}' must be a list of {seats} values, one per seat", field=what)
    return tuple(v if isinstance(v, int) and not isinstance(v, bool) else None for v in value)


def wanted(sheet: KeptSheet, action: str, body: Mapping[str, Any], made: Against) -> RoundState:
    """What round ``made.round`` holds once the entry is made on it as it was seen."""
    seats, seen = len(sheet.players), made.seen
    if action not in ROUND_BOUND:
        raise BadEntryError(
            f"only {', '.join(sorted(ROUND_BOUND))} are made against a round, not {action!r}", field="against"
        )
    if action == "edit" and body.get("round") != made.round:
        raise BadEntryError(
            f"'against' is round {made.round}, but the edit is of round {body.get('round')!r}",
            field="against",
        )
    if action == "bid":
        seat, bid = body.get("seat"), body.get("bid")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise BadEntryError(
                f"'seat' must be a seat (0 to {seats - 1}) for a bid made against a round", field="seat"
            )
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise BadEntryError(f"'bid' must be a whole number, not {bid!r}", field="bid")
        bids = list(seen.bids)
        bids[seat] = bid
        return RoundState(tuple(bids), seen.tricks)
    if action == "bids":
        return RoundState(_seats(body.get("bids"), seats, "bids"), seen.tricks)
    if action == "tricks":
        return RoundState(seen.bids, _seats(body.get("tricks"), seats, "tricks"))
    new_bids, new_tricks = body.get("bids"), body.get("tricks")
    return RoundState(
        seen.bids if new_bids is None else _seats(new_bids, seats, "bids"),
        seen.tricks if new_tricks is None else _seats(new_tricks, seats, "tricks"),
    )


class Verdict(enum.StrEnum):
    """What the sheet does with an entry made against a round."""

    APPLY = "apply"
    """The round is as the entry saw it: the engine applies (or refuses) it."""
    SAME = "same"
    """The round already holds what the entry wanted (a retry): nothing to do."""
    CONFLICT = "conflict"
    """The round moved on meanwhile: the entry is kept as a conflict, not applied."""


def decide(sheet: KeptSheet, action: str, body: Mapping[str, Any], made: Against) -> Verdict:
    """Whether an entry made against ``made`` applies to ``sheet`` as it stands now (see the module)."""
    now = round_state(sheet, made.round)
    if now.holds(wanted(sheet, action, body, made)):
        return Verdict.SAME
    if now != made.seen and not (action == "bid" and _only_others_bid(made.seen, now, body.get("seat"))):
        return Verdict.CONFLICT
    if action in IN_PLAY and sheet.current != made.round:
        return Verdict.CONFLICT  # the round is no longer (or not yet) the one in play
    return Verdict.APPLY


def _only_others_bid(seen: RoundState, now: RoundState, seat: object) -> bool:
    """Whether the round moved on only by other players' bids, with this seat's still open: a bid
    then changes nothing anyone entered (the engine still checks it against the bids now made)."""
    if seen.tricks is not None or now.tricks is not None or not isinstance(seat, int):
        return False
    kept = all(was is None or was == is_ for was, is_ in zip(seen.bids, now.bids, strict=True))
    return kept and 0 <= seat < len(now.bids) and now.bids[seat] is None


def why(sheet: KeptSheet, made: Against) -> str:
    """The sentence of a conflict: what became of the round since the entry was made."""
    k, now = made.round, round_state(sheet, made.round)
    if now == made.seen and sheet.current != k:
        return f"meant for round {k}, but round {sheet.current} is the one in play now"
    if now.tricks is not None and made.seen.tricks is None:
        return f"meant for round {k}, which was finished on another phone since"
    return f"round {k} was changed on another phone since this entry was made"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Conflict:
    """An entry the sheet did not apply, kept for the table to resolve: the round, what the entry
    saw, what is there now and what it wanted, how it was made, and why it was not applied."""

    id: str
    round: int
    action: str
    body: Mapping[str, Any]
    seen: RoundState
    now: RoundState
    wanted: RoundState
    device: str
    by: str
    at: float
    reason: str
    rule: str = "conflict"
    """``"conflict"`` (the round moved on), or the engine's rule when it refused a queued entry."""

    @property
    def key(self) -> str:
        """The same entry made against the same round gives the same key (a retry is not kept twice)."""
        return json.dumps(
            [self.round, self.action, dict(self.body), self.seen.to_json(), self.device], sort_keys=True
        )

    def differs(self) -> list[int]:
        """The seats whose bid or tricks differ between what is there now and what the entry wanted."""
        now, want = self.now, self.wanted
        out = []
        for seat in range(max(len(now.bids), len(want.bids))):
            bid = (now.bids[seat] if seat < len(now.bids) else None) != (
                want.bids[seat] if seat < len(want.bids) else None
            )
            tricks = want.tricks is not None and (now.tricks is None or now.tricks[seat] != want.tricks[seat])
            if bid or tricks:
                out.append(seat)
        return out

    def to_json(self) -> dict[str, object]:
        """Plain JSON data: as the store keeps it, and as the API shows it (with ``differs``)."""
        return {
            "id": self.id,
            "round": self.round,
            "action": self.action,
            "body": dict(self.body),
            "seen": self.seen.to_json(),
            "now": self.now.to_json(),
            "wanted": self.wanted.to_json(),
            "device": self.device,
            "by": self.by,
            "at": self.at,
            "reason": self.reason,
            "rule": self.rule,
            "differs": self.differs(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Conflict:
        """The conflict :meth:`to_json` wrote (trusted data: the store's own)."""

        def state(item: Mapping[str, Any]) -> RoundState:
            tricks = item["tricks"]
            return RoundState(tuple(item["bids"]), None if tricks is None else tuple(tricks))

        return cls(
            id=data["id"],
            round=data["round"],
            action=data["action"],
            body=data["body"],
            seen=state(data["seen"]),
            now=state(data["now"]),
            wanted=state(data["wanted"]),
            device=data["device"],
            by=data["by"],
            at=data["at"],
            reason=data["reason"],
            rule=data.get("rule", "conflict"),
        )


class Pick(enum.StrEnum):
    """How the table resolves a conflict."""

    CURRENT = "current"
    """Keep the sheet as it is; the entry is set aside."""
    ENTRY = "entry"
    """Make the round what the entry wanted (a correction of the round, checked by the engine)."""


def use_entry(sheet: KeptSheet, conflict: Conflict) -> None:
    """Make round ``conflict.round`` of ``sheet`` what the conflict's entry wanted, as one entry
    (one step of undo), through the engine; :class:`IllegalActionError` if it refuses, nothing changed."""
    k, want = conflict.round, conflict.wanted
    entered = len(sheet.entries.rounds)
    if k <= entered:
        sheet.edit_round(k, bids=list(want.bids), tricks=None if want.tricks is None else list(want.tricks))
        return
    if k != entered + 1 or sheet.current != k:
        raise IllegalActionError(
            f"round {k} cannot be entered now: the sheet is at round {sheet.current}",
            rule="conflict",
            facts={"case": "not now", "round": k, "current": sheet.current},
        )
    depth = len(sheet.history)
    try:
        for seat in sheet.bidding_order:
            bid = want.bids[seat]
            if bid is not None:
                sheet.enter_bid(seat, bid)
        if want.tricks is not None:
            sheet.enter_tricks(list(want.tricks))
    except IllegalActionError:
        while len(sheet.history) > depth:
            sheet.undo()
        raise
    if len(sheet.history) > depth + 1:  # one step of undo for the whole pick
        del sheet.history[depth + 1 :]
