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
from upriver.errors import RecordError, RulesError
from upriver.keeper.entries import EXTRA, JACK_FROM, KeptRound, SheetEntries
from upriver.keeper.evening import Segment
from upriver.names import PlayerNameError, check_names
from upriver.record import Record, RoundRecord, replay
from upriver.record.model import canonical_rules
from upriver.rules import FirstDealer, Rules, Trump

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


def _evening(
    kept: Mapping[str, object], *, title: str, jack: int | None, extras: dict[str, object]
) -> SheetParts:
    """The parts of an evening written by :func:`record_of` (re-checked when the sheet replays it)."""
    try:
        players = check_names(list(kept["players"]))  # type: ignore[call-overload]
        options = kept["rules"]
        if not isinstance(options, Mapping):
            raise TypeError("its rules are not an object")
        rules = Rules.from_options(options, player_count=len(players))
        entries = SheetEntries.from_json(kept)
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        AssertionError,
        RulesError,
        PlayerNameError,
    ) as error:
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
            RoundRecord(dealer=(first + i) % len(players), bids=r.bids, tricks=r.tricks, trump=r.trump)  # type: ignore[arg-type]
            for i, r in enumerate(entries.rounds)
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
