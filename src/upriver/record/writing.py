"""Writing a record: canonical cards (``TH``), every rule key explicit, unknown keys kept."""

from __future__ import annotations

import json
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from types import MappingProxyType

from upriver.actions import Phase
from upriver.game import Game
from upriver.record.model import FORMAT, Record, RoundRecord, canonical_rules
from upriver.rules import Rules

__all__ = ["dump", "dumps", "record_of", "to_json"]

_WIDTH = 100
"""Lines of a written record stay under this many characters where a list allows it."""


def record_of(game: Game, extras: Mapping[str, object] | None = None) -> Record:
    """The record of ``game`` so far: its finished rounds, then the round in progress, if any.

    A round waiting to be dealt has no entry yet. ``extras`` become the record's extra
    top-level keys (a seed, times, an event name).
    """
    rounds = [
        RoundRecord(
            dealer=result.dealer,
            hands=result.hands,
            turned=result.turned,
            bids=result.bids,
            plays=result.plays,
            tricks=None if result.hands is not None else result.tricks_won,
            trump=None if result.hands is not None else result.trump,
        )
        for result in game.results
    ]
    if game.phase in (Phase.BIDDING, Phase.PLAYING, Phase.TRICKS):
        dealt = tuple(game.dealt_hand(seat) for seat in range(game.rules.player_count))
        hands = None if None in dealt else tuple(hand for hand in dealt if hand is not None)
        rounds.append(
            RoundRecord(
                dealer=game.dealer,
                hands=hands,
                turned=game.turned,
                bids=game.bids,
                plays=None if hands is None else game.plays,
                trump=None if hands is not None else game.trump,
            )
        )
    return Record(
        rules=canonical_rules(game.rules),
        players=game.players,
        rounds=tuple(rounds),
        extras=MappingProxyType(dict(extras or {})),
    )


def _rules_json(rules: Rules, extras: Mapping[str, object]) -> dict[str, object]:
    out = rules.options()
    out.update((k, v) for k, v in extras.items() if k not in out)
    return out


def _round_json(entry: RoundRecord) -> dict[str, object]:
    out: dict[str, object] = {"dealer": entry.dealer}
    if entry.hands is not None:
        out["hands"] = [[str(card) for card in hand] for hand in entry.hands]
        out["turned"] = None if entry.turned is None else str(entry.turned)
        out["bids"] = list(entry.bids)
        out["plays"] = [str(card) for card in entry.plays or ()]
        if entry.tricks is not None:
            out["tricks"] = list(entry.tricks)
    else:
        out["bids"] = list(entry.bids)
        if entry.tricks is not None:
            out["tricks"] = list(entry.tricks)
        if entry.trump is not None:
            out["trump"] = entry.trump.value
    out.update((k, v) for k, v in entry.extras.items() if k not in out)
    return out


def to_json(record: Record) -> dict[str, object]:
    """The record as a JSON-ready dict in canonical form, extras after the known keys."""
    out: dict[str, object] = {
        "format": FORMAT,
        "rules": _rules_json(record.rules, record.rule_extras),
        "players": list(record.players),
        "rounds": [_round_json(entry) for entry in record.rounds],
    }
    out.update((k, v) for k, v in record.extras.items() if k not in out)
    return out


def _layout(value: object, indent: int, lead: int = 0) -> str:
    """JSON text with each list or object on one line when it fits, else one item a line.

    ``indent`` is the line's indentation and ``lead`` what precedes the value on its line.
    """
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= _WIDTH or not isinstance(value, list | dict) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            head = f"{json.dumps(key, ensure_ascii=False)}: "
            lines.append(pad + head + _layout(item, indent + 2, len(head)))
        return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"
    if any(isinstance(item, list | dict) for item in value):
        lines = [pad + _layout(item, indent + 2) for item in value]
    else:
        # A long list of cards or numbers is filled line by line, like text.
        rows: list[list[str]] = [[]]
        used = len(pad)
        for item in value:
            word = json.dumps(item, ensure_ascii=False)
            if rows[-1] and used + len(word) + 2 > _WIDTH:
                rows.append([])
                used = len(pad)
            rows[-1].append(word)
            used += len(word) + 2
        lines = [pad + ", ".join(row) for row in rows]
    return "[\n" + ",\n".join(lines) + "\n" + " " * indent + "]"


def dumps(record: Record | Game) -> str:
    """Canonical JSON text of a record (or of a game's record so far), ending in a newline."""
    if isinstance(record, Game):
        record = record_of(record)
    return _layout(to_json(record), 0) + "\n"


def dump(record: Record | Game, path: str | PathLike[str]) -> None:
    """Write :func:`dumps` to ``path`` as UTF-8."""
    Path(path).write_text(dumps(record), encoding="utf-8")
