"""The arena's hand log and its bidding report: how each bot's bids turn out, and how well it predicted them.

Every arena game keeps one :class:`HandRecord` per seat and round: the bid, the tricks
taken, the score, where the seat bid in the round (0 = first after the dealer), the hand
size and the dealer's rule, and, where the bot reports them
(:attr:`upriver.bots.Bot.last_bid_estimates`), each candidate bid's predicted chance of
being made, as it stood when the bot bid (:func:`upriver.arena.core.hand_records` collects
them from an arena's result). :func:`write_hand_log` writes them as JSON
Lines (``upriver arena ... --hand-log FILE``); :func:`hand_report` reads them back into
the figures the bidding is judged by, per bot: the exact rate by bid and by bidding
position, how often it took more or fewer tricks than bid, the bid-0 make rate, and the
calibration table, the predicted make rate of the bid made against the realized one, per
bid level, with counts and 95% (Wilson) intervals (``upriver arena-report FILE``).

>>> record = HandRecord(game=0, deal=0, rotation=0, round=1, seat=0, bot="basic", players=4,
...     hand_size=10, dealer_rule="hook", scoring="tricks-plus-ten", position=0, bid=2, tricks=2,
...     score=12, estimates=((1, 0.3), (2, 0.5)))
>>> report = hand_report([record])["basic"]
>>> report["exact"]["rate"], report["calibration"][0]["predicted"], report["calibration"][0]["realized"]
(1.0, 0.5, 1.0)
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from upriver.arena.base import ArenaError
from upriver.record.decoding import shown

if TYPE_CHECKING:
    from rich.table import Table

__all__ = [
    "HAND_LOG_FORMAT",
    "HandRecord",
    "hand_report",
    "hand_tables",
    "read_hand_log",
    "wilson",
    "write_hand_log",
]

HAND_LOG_FORMAT = "upriver-hands/1"
"""The ``format`` of every line of a hand log; the number changes when a field changes meaning."""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class HandRecord:
    """One seat's round in an arena game: its bid and how it turned out."""

    game: int
    """The game's place in the arena's plan."""
    deal: int
    rotation: int
    round: int
    """1-based, as on the score sheet."""
    seat: int
    bot: str
    """The bot's label in the arena's report."""
    players: int
    hand_size: int
    dealer_rule: str
    """The dealer's bid rule: ``free``, ``hook`` or ``overbid``."""
    scoring: str
    position: int
    """Where the seat bid in the round: 0 is the dealer's left, ``players - 1`` the dealer."""
    bid: int
    tricks: int
    score: int
    estimates: tuple[tuple[int, float], ...] | None = None
    """Each candidate bid with its predicted make rate at bid time, where the bot reported them."""

    @property
    def predicted(self) -> float | None:
        """The predicted make rate of the bid made, if the bot gave one."""
        if self.estimates is None:
            return None
        return dict(self.estimates).get(self.bid)

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object of the hand log."""
        data = dataclasses.asdict(self)
        data["estimates"] = None if self.estimates is None else {str(b): p for b, p in self.estimates}
        return {"format": HAND_LOG_FORMAT, **data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandRecord:
        """A record from one object of a hand log; :class:`ArenaError` if it is not one."""
        if data.get("format") != HAND_LOG_FORMAT:
            raise ArenaError(
                f"not an upriver hand log line: format {data.get('format')!r}, not {HAND_LOG_FORMAT!r}"
            )
        fields = {field.name for field in dataclasses.fields(cls)}
        missing = sorted(fields - data.keys() - {"estimates"})
        if missing:
            raise ArenaError(f"a hand log line lacks {', '.join(missing)}")
        values = {name: data[name] for name in fields if name in data}
        for name in fields - {"estimates"}:
            values[name] = _text(name, values[name]) if name in _TEXT_FIELDS else _whole(name, values[name])
        estimates = values.get("estimates")
        if estimates is not None:
            if not isinstance(estimates, dict):
                raise ArenaError("a hand log line's estimates must be an object of bids and make rates")
            values["estimates"] = tuple(sorted((_bid_key(b), _rate(b, p)) for b, p in estimates.items()))
        return cls(**values)


_TEXT_FIELDS = frozenset({"bot", "dealer_rule", "scoring"})


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ArenaError(f"a hand log line's {name} must be text, not {shown(value)}")
    return value


def _whole(name: str, value: object) -> int:
    """A whole number from JSON; :class:`ArenaError` for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise ArenaError(f"a hand log line's {name} must be a whole number, not {shown(value)}")


def _bid_key(key: str) -> int:
    """A bid written as an object key of the estimates (JSON keys are text)."""
    if key.isdigit():
        return int(key)
    raise ArenaError(f"a hand log line's estimates are keyed by a bid, a whole number, not {shown(key)}")


def _rate(bid: str, value: object) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0.0 <= value <= 1.0:
        return float(value)
    raise ArenaError(
        f"a hand log line's make rate for bid {bid[:10]} must be between 0 and 1, not {shown(value)}"
    )


def write_hand_log(records: Iterable[HandRecord], path: Path) -> Path:
    """Write ``records`` to ``path`` as JSON Lines (parents made as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
    return path


def read_hand_log(path: Path) -> list[HandRecord]:
    """The records of a hand log; :class:`ArenaError` naming the line that is not one."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ArenaError(f"cannot read the hand log {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ArenaError(f"{path} is not a hand log: it is not UTF-8 text") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ArenaError("a hand log line must be a JSON object")
            records.append(HandRecord.from_json(data))
        except (json.JSONDecodeError, ArenaError) as error:
            raise ArenaError(f"{path}, line {number}: {error}") from None
    if not records:
        raise ArenaError(f"{path} holds no hands: write one with upriver arena ... --hand-log {path}")
    return records


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``hits`` out of ``n`` (good near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (math.nan, math.nan)
    z = 1.959963984540054
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if hits == 0 else centre - half, 1.0 if hits == n else centre + half)


def _share(hits: int, n: int) -> dict[str, Any]:
    low, high = wilson(hits, n)
    return {
        "n": n,
        "hits": hits,
        "rate": hits / n if n else None,
        "low": low if n else None,
        "high": high if n else None,
    }


def _by(records: Sequence[HandRecord], key: str) -> list[dict[str, Any]]:
    groups: dict[int, list[HandRecord]] = {}
    for record in records:
        groups.setdefault(getattr(record, key), []).append(record)
    return [
        {key: value, **_share(sum(r.bid == r.tricks for r in group), len(group))}
        for value, group in sorted(groups.items())
    ]


def _calibration(records: Sequence[HandRecord]) -> list[dict[str, Any]]:
    groups: dict[int, list[tuple[float, bool]]] = {}
    for record in records:
        predicted = record.predicted
        if predicted is not None:
            groups.setdefault(record.bid, []).append((predicted, record.bid == record.tricks))
    rows = []
    for bid, pairs in sorted(groups.items()):
        n = len(pairs)
        predicted = sum(p for p, _ in pairs) / n
        made = sum(m for _, m in pairs)
        row = {"bid": bid, **_share(made, n), "predicted": predicted}
        row["realized"] = row.pop("rate")
        row["gap"] = predicted - row["realized"]
        rows.append(row)
    return rows


def hand_report(records: Iterable[HandRecord]) -> dict[str, dict[str, Any]]:
    """The bidding figures of every bot in ``records``, by bot label (JSON-ready).

    Per bot: ``hands``; ``exact``, ``over`` (more tricks than bid) and ``under`` shares;
    ``bid_zero`` (the make rate of bids of 0); ``by_bid`` and ``by_position`` (exact
    rate per bid and per bidding position); ``calibration``, per bid level of the hands
    with a prediction: the mean ``predicted`` make rate against the ``realized`` one,
    its interval (``low``, ``high``) and the ``gap``. Every share carries ``n`` and a
    95% Wilson interval.
    """
    by_bot: dict[str, list[HandRecord]] = {}
    for record in records:
        by_bot.setdefault(record.bot, []).append(record)
    report = {}
    for bot, rows in by_bot.items():
        zero = [r for r in rows if r.bid == 0]
        report[bot] = {
            "hands": len(rows),
            "exact": _share(sum(r.bid == r.tricks for r in rows), len(rows)),
            "over": _share(sum(r.tricks > r.bid for r in rows), len(rows)),
            "under": _share(sum(r.tricks < r.bid for r in rows), len(rows)),
            "bid_zero": _share(sum(r.tricks == 0 for r in zero), len(zero)),
            "mean_bid": sum(r.bid for r in rows) / len(rows),
            "mean_score": sum(r.score for r in rows) / len(rows),
            "by_bid": _by(rows, "bid"),
            "by_position": _by(rows, "position"),
            "calibration": _calibration(rows),
            "with_estimates": sum(r.predicted is not None for r in rows),
        }
    return report


def _pct(row: dict[str, Any], key: str = "rate") -> str:
    """A share in percent with its interval, compact: ``61.5 [58–65]``."""
    value = row[key]
    if value is None:
        return "–"
    return f"{100 * value:.1f} [{100 * row['low']:.0f}–{100 * row['high']:.0f}]"


def hand_tables(report: dict[str, dict[str, Any]]) -> list[Table]:
    """The report as rich tables: a summary, then per bot its rates by bid and position, its calibration."""
    from rich.table import Table

    summary = Table(title="Bidding: how the bids turned out, in % (95% Wilson intervals); points a hand")
    for heading in ("bot", "hands", "exact", "over", "under", "bids of 0", "made", "mean bid", "points"):
        summary.add_column(heading, justify="left" if heading == "bot" else "right", no_wrap=True)
    for bot, data in report.items():
        summary.add_row(
            bot,
            str(data["hands"]),
            _pct(data["exact"]),
            _pct(data["over"]),
            _pct(data["under"]),
            str(data["bid_zero"]["n"]),
            _pct(data["bid_zero"]),
            f"{data['mean_bid']:.2f}",
            f"{data['mean_score']:.2f}",
        )
    tables = [summary]
    for bot, data in report.items():
        detail = Table(title=f"{bot}: exact % by bid and by bidding position (0 = dealer's left)")
        for heading in ("", "n", "exact %"):
            detail.add_column(heading, justify="right")
        for row in data["by_bid"]:
            detail.add_row(f"bid {row['bid']}", str(row["n"]), _pct(row))
        for row in data["by_position"]:
            detail.add_row(f"position {row['position']}", str(row["n"]), _pct(row))
        tables.append(detail)
        if data["calibration"]:
            calibration = Table(
                title=f"{bot}: calibration, predicted make rate of the bid made against realized"
            )
            for heading in ("bid", "n", "predicted", "realized %", "gap"):
                calibration.add_column(heading, justify="right")
            for row in data["calibration"]:
                calibration.add_row(
                    str(row["bid"]),
                    str(row["n"]),
                    f"{row['predicted']:.3f}",
                    _pct(row, "realized"),
                    f"{row['gap']:+.3f}",
                )
            tables.append(calibration)
    return tables
