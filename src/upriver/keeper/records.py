"""A kept sheet as a game record (docs/record.md), and back.

A sheet whose players never changed is written as one score-only game: its rules, its
players, each round's dealer, bids, tricks and trump. An evening whose players changed
(:mod:`upriver.keeper.evening`) is not one game: its record holds the first segment as
the game (so every reader of records, ``upriver check`` included, reads a legal game) and
the whole evening — the starting players and rules, every round in the sheet's seats,
the arrivals, departures, sit-outs, adjustments and schedule — under the keeper's extra
key :data:`~upriver.keeper.entries.EXTRA`, as ``"evening"``, which this module reads back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from upriver.actions import Phase
from upriver.cards import Suit
from upriver.deal import dealer_of_round
from upriver.errors import RecordError, RulesError
from upriver.keeper.entries import (
    EXTRA,
    JACK_FROM,
    Adjustment,
    Join,
    KeptRound,
    Leave,
    SheetEntries,
    SitOut,
    Start,
)
from upriver.keeper.evening import Segment
from upriver.names import PlayerNameError, check_names
from upriver.record import Record, RoundRecord, replay
from upriver.record.model import canonical_rules
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, FirstDealer, Rules, Trump

__all__ = ["SheetParts", "record_of", "sheet_parts"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SheetParts:
    """What a sheet is made of, read from a record."""

    rules: Rules
    players: tuple[str, ...]
    entries: SheetEntries
    title: str
    jack_procedure: bool
    extras: Mapping[str, object]


def _seat(value: object, n: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n else None


def sheet_parts(record: Record) -> SheetParts:
    """A sheet carrying on from ``record`` (see the module's notes).

    :raises RecordRuleError: when the record's game breaks a rule.
    :raises RecordError: when its evening is not one this module wrote.
    """
    game = replay(record)
    n = len(record.players)
    info = record.extras.get(EXTRA)
    info = info if isinstance(info, Mapping) else {}
    extras = {k: v for k, v in record.extras.items() if k != EXTRA}
    title = info.get("title")
    title = title if isinstance(title, str) else ""
    jack = _seat(info.get("first_jack"), n)
    kept = info.get("evening")
    if isinstance(kept, Mapping):
        return _evening(kept, title=title, jack=jack, extras=extras)
    # Under a rotating trump the rules name each round's trump: the sheet notes none, as when kept.
    noted = record.rules.trump is not Trump.ROTATE
    rounds = [
        KeptRound(bids=r.bids, tricks=r.tricks_won, trump=r.trump if noted else None) for r in game.results
    ]
    if game.phase in (Phase.BIDDING, Phase.TRICKS, Phase.PLAYING):
        rounds.append(KeptRound(bids=game.bids, trump=game.trump if noted else None))
    pending = False
    chosen = _seat(info.get("first_dealer"), n)
    if record.rounds:
        first: int | None = record.rounds[0].dealer
    elif jack is not None:
        first = jack
    elif chosen is not None:
        first = chosen
    elif record.rules.first_dealer is FirstDealer.FIRST_JACK:
        first, pending = None, True
    else:
        first = game.first_dealer
    return SheetParts(
        rules=record.rules,
        players=record.players,
        entries=SheetEntries(first_dealer=first, jack=jack, rounds=tuple(rounds)),
        title=title,
        jack_procedure=jack is not None or pending,
        extras=extras,
    )


MOST_ROUNDS = 1000
"""The most rounds a record's evening may list (a whole evening is a few dozen)."""


class _UnreadableError(ValueError):
    """A part of a record's evening that is not what the keeper writes."""


def _int(value: object, what: str, low: int, high: int | None = None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise _UnreadableError(f"{what} must be a whole number {span}, not {value!r}")
    return value


def _items(data: Mapping[str, object], key: str, fields: tuple[str, ...]) -> list[Mapping[str, object]]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > MOST_ROUNDS:
        raise _UnreadableError(f"{key!r} must be a list of at most {MOST_ROUNDS} objects")
    for item in value:
        if not isinstance(item, Mapping) or not set(item) <= set(fields):
            raise _UnreadableError(f"each of {key!r} is an object with {', '.join(fields)}, not {item!r}")
    return value


def _values(value: object, what: str, seats: int) -> tuple[int | None, ...]:
    if not isinstance(value, list) or len(value) > seats:
        raise _UnreadableError(f"{what} must be a list of at most {seats} numbers or nulls")
    return tuple(None if v is None else _int(v, what, 0, 52) for v in value)


def _entries(data: Mapping[str, object], starters: int) -> SheetEntries:
    """The evening's entries, every field checked for what the keeper writes (the replay then checks
    the rules)."""
    joins = tuple(
        Join(
            name=str(check_names([j.get("name")])[0]),
            round=_int(j.get("round"), "a join's round", 1, MOST_ROUNDS),
            start=Start(j.get("start", Start.ZERO.value)),
        )
        for j in _items(data, "joins", ("name", "round", "start"))
    )
    seats = starters + len(joins)
    if seats > MAX_PLAYERS * 4:
        raise _UnreadableError(f"an evening has at most {MAX_PLAYERS * 4} seats, not {seats}")
    rounds = []
    for r in _items(data, "rounds", ("bids", "tricks", "trump")):
        tricks, trump = r.get("tricks"), r.get("trump")
        if trump is not None and not (isinstance(trump, str) and trump in {x.value for x in Suit}):
            raise _UnreadableError(f"a round's trump is C, D, H, S or null, not {trump!r}")
        rounds.append(
            KeptRound(
                bids=_values(r.get("bids"), "a round's bids", seats),
                tricks=None if tricks is None else _values(tricks, "a round's tricks", seats),
                trump=None if trump is None else Suit(trump),
            )
        )
    first, jack = data.get("first_dealer"), data.get("jack")
    sizes = data.get("sizes")
    if sizes is not None and (not isinstance(sizes, list) or not 0 < len(sizes) <= MOST_ROUNDS):
        raise _UnreadableError(f"'sizes' must be a list of 1 to {MOST_ROUNDS} hand sizes")
    return SheetEntries(
        first_dealer=None if first is None else _int(first, "the first dealer", 0, starters - 1),
        jack=None if jack is None else _int(jack, "the seat dealt the Jack", 0, starters - 1),
        rounds=tuple(rounds),
        joins=joins,
        leaves=tuple(
            Leave(seat=_int(x.get("seat"), "a seat", 0, seats - 1), round=_int(x.get("round"), "a round", 1))
            for x in _items(data, "leaves", ("seat", "round"))
        ),
        sit_outs=tuple(
            SitOut(seat=_int(x.get("seat"), "a seat", 0, seats - 1), round=_int(x.get("round"), "a round", 1))
            for x in _items(data, "sit_outs", ("seat", "round"))
        ),
        adjustments=tuple(
            Adjustment(
                seat=_int(a.get("seat"), "a seat", 0, seats - 1),
                after=_int(a.get("after"), "an adjustment's round", 0),
                points=_int(a.get("points"), "an adjustment", -1000, 1000),
                note=str(a.get("note") or "")[:80],
            )
            for a in _items(data, "adjustments", ("seat", "after", "points", "note"))
        ),
        sizes=None if sizes is None else tuple(_int(size, "a hand size", 1, 52) for size in sizes),
    )


def _evening(
    kept: Mapping[str, object], *, title: str, jack: int | None, extras: dict[str, object]
) -> SheetParts:
    """The parts of an evening written by :func:`record_of` (re-checked when the sheet replays it).

    :raises RecordError: naming the first part that is not what the keeper writes.
    """
    try:
        names = kept.get("players")
        if not isinstance(names, list) or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise _UnreadableError(f"its players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names")
        players = check_names(names)
        options = kept.get("rules")
        if not isinstance(options, Mapping):
            raise _UnreadableError("its rules must be an object")
        rules = Rules.from_options(options, player_count=len(players))
        entries = _entries(kept, len(players))
    except (_UnreadableError, RulesError, PlayerNameError, ValueError) as error:
        raise RecordError(f"the kept evening under {EXTRA!r} cannot be read: {error}") from None
    return SheetParts(
        rules=rules,
        players=players,
        entries=entries,
        title=title,
        jack_procedure=bool(kept.get("jack_procedure")) or jack is not None,
        extras=extras,
    )


def _changed(entries: SheetEntries) -> bool:
    return bool(entries.joins or entries.leaves or entries.sit_outs or entries.adjustments or entries.sizes)


def record_of(
    rules: Rules,
    players: Sequence[str],
    entries: SheetEntries,
    segments: Sequence[Segment],
    *,
    title: str,
    jack_procedure: bool,
    extras: Mapping[str, object],
) -> Record:
    """The sheet as a record (see the module's notes)."""
    first = entries.first_dealer
    info: dict[str, object] = {}
    if _changed(entries) and segments:
        head = segments[0]
        game_rules = head.game.rules
        noted = rules.trump is not Trump.ROTATE
        rounds = tuple(
            RoundRecord(
                dealer=result.dealer,
                bids=result.bids,
                tricks=result.tricks_won,
                trump=result.trump if noted else None,
            )
            for result in head.game.results
        )
        seated = [*players, *(j.name for j in entries.joins)]
        names = tuple(seated[s] for s in head.seats)
        info["evening"] = {
            "players": list(players),
            # A peak left to the player count stays so: the count changes during an evening.
            "rules": {
                k: v for k, v in rules.options().items() if k != "max_cards" or rules.max_cards is not None
            },
            "jack_procedure": jack_procedure,
            **entries.to_json(),
        }
    else:
        names, game_rules = tuple(players), rules
        rounds = tuple(
            RoundRecord(
                dealer=dealer_of_round(first, number, len(players)),
                bids=r.bids,
                tricks=r.tricks,  # type: ignore[arg-type]
                trump=r.trump,
            )
            for number, r in enumerate(entries.rounds, start=1)
            if first is not None
        )
        # The first dealer is in the rounds once there are any; before that, only here.
        if first is not None and not entries.rounds and not jack_procedure:
            info["first_dealer"] = first
    if title:
        info["title"] = title
    if jack_procedure:
        info["first_jack"] = entries.jack
        info["jack_dealt_from"] = JACK_FROM
    written = dict(extras)
    if info:
        written[EXTRA] = info
    if jack_procedure and game_rules.first_dealer is not FirstDealer.FIRST_JACK:
        game_rules = game_rules.replace(first_dealer=FirstDealer.FIRST_JACK)
    return Record(
        rules=canonical_rules(game_rules),
        players=names,
        rounds=rounds,
        extras=MappingProxyType(written),
    )
