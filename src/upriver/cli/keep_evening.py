"""`upriver keep`'s evening: arrivals, departures, sit-outs, bonuses and penalties, the schedule of the
rounds not yet begun, and the sheet drawn as an evening (a sit-out says so, each change is a line).

The commands are the web keeper's (docs/keeper.md, "A real evening"), through the same
:class:`~upriver.keeper.KeptSheet` calls; an arrival or a departure first shows the cards of each
round it leaves (:meth:`KeptSheet.preview`) and asks for a yes. Values typed for a round are those of
the players at the table then, in seat order (:func:`seat_values`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from upriver.i18n import Translator
from upriver.keeper import KeptSheet
from upriver.keeper.entries import Start
from upriver.sheet import RowStatus, ScoreSheet, SheetCell

__all__ = [
    "COMMANDS",
    "Sitting",
    "evening_command",
    "evening_notes",
    "evening_table",
    "names_of",
    "seat_values",
]

COMMANDS = frozenset({"join", "arrive", "leave", "sitout", "sit-out", "adjust", "schedule"})
"""The evening's commands (``arrive`` is ``join``, ``sit-out`` is ``sitout``)."""


class Sitting(Protocol):
    """What the evening's commands need of the terminal keeper (:class:`upriver.cli.keep.Keeper`)."""

    t: Translator
    console: Console

    @property
    def sheet(self) -> KeptSheet: ...

    def ask(self, prompt: str) -> str:
        """A line typed at ``prompt``."""
        ...

    def apply(self, label: str, change: Callable[[], None]) -> bool:
        """Make ``change`` and save it, or show the engine's refusal; whether it was made."""
        ...

    def find(self, text: str) -> int | None:
        """The seat named by ``text``, or ``None`` having said which names there are."""
        ...


def seat_values(sheet: KeptSheet, number: int, values: Sequence[int]) -> list[int | None]:
    """Values typed for round ``number``: one per seat, or one per player at the table then (in seat
    order), spread over the seats with ``None`` for a seat not playing it."""
    playing = sheet.playing(number)
    if len(values) != len(playing) or len(values) == len(sheet.players):
        return list(values)
    spread: list[int | None] = [None] * len(sheet.players)
    for seat, value in zip(playing, values, strict=True):
        spread[seat] = value
    return spread


def _sizes(sizes: Sequence[int]) -> str:
    return " ".join(str(size) for size in sizes)


def _show(out: Sitting, text: str, style: str = "") -> None:
    out.console.print(f"[{style}]{escape(text)}[/{style}]" if style else escape(text), highlight=False)


def _yes(out: Sitting, question: str) -> bool:
    answer = out.ask(question).strip().lower()
    return bool(answer) and answer in out.t("keep.yes_words").split()


def _preview(out: Sitting, kind: str) -> bool:
    """Show the cards of each round from the next one, now and after ``kind`` (``arrival`` or
    ``departure``); ``False`` with the engine's word when the change cannot be made."""
    made = out.sheet.preview()
    if made is None:  # no change of players now: the sheet's own refusal says why
        return True
    after = made.arrival if kind == "arrival" else made.departure
    if isinstance(after, str):
        return True
    t = out.t
    _show(out, t("keeper.cardsFrom", round=made.start), "bold")
    if tuple(after) == made.sizes:
        _show(out, "  " + t("keeper.restSame", sizes=_sizes(after), rounds=len(after)))
    else:
        _show(out, "  " + t("keeper.restNow", sizes=_sizes(made.sizes), rounds=len(made.sizes)))
        key = "keeper.restArrival" if kind == "arrival" else "keeper.restDeparture"
        _show(out, "  " + t(key, sizes=_sizes(after), rounds=len(after)))
    return True


def _join(out: Sitting, rest: str) -> None:
    t, sheet = out.t, out.sheet
    words = rest.split()
    start = Start.ZERO
    if len(words) > 1 and words[-1].lower() in {s.value for s in Start}:
        start = Start(words.pop().lower())
    name = " ".join(words)
    if not name:
        _show(out, t("keep.usage_join"), "red")
        return
    _preview(out, "arrival")
    if not _yes(out, t("keep.ask_join", name=name)):
        _show(out, t("keep.nothing_changed"))
        return
    if out.apply("join", lambda: sheet.join(name, start)):
        seat = len(sheet.players) - 1
        join = sheet.entries.joins[-1]
        _show(out, t("keeper.joined", name=sheet.players[seat], round=join.round, points=sheet.totals[seat]))


def _leave(out: Sitting, rest: str) -> None:
    t, sheet = out.t, out.sheet
    if not rest:
        _show(out, t("keep.usage_leave"), "red")
        return
    seat = out.find(rest)
    if seat is None:
        return
    _preview(out, "departure")
    if not _yes(out, t("keep.ask_leave", name=sheet.players[seat])):
        _show(out, t("keep.nothing_changed"))
        return
    if out.apply("leave", lambda: sheet.leave(seat)):
        gone = sheet.entries.leaves[-1]
        _show(out, t("keeper.left", name=sheet.players[seat], round=gone.round - 1))


def _sit_out(out: Sitting, rest: str) -> None:
    t, sheet = out.t, out.sheet
    words = rest.split()
    number = int(words.pop()) if len(words) > 1 and words[-1].isdigit() else None
    if not words:
        _show(out, t("keep.usage_sitout"), "red")
        return
    seat = out.find(" ".join(words))
    if seat is not None and out.apply("sit out", lambda: sheet.sit_out(seat, number)):
        made = sheet.entries.sit_outs[-1]
        _show(out, t("keeper.satOut", name=sheet.players[seat], round=made.round))


def _adjust(out: Sitting, rest: str) -> None:
    t, sheet = out.t, out.sheet
    words = rest.split(maxsplit=2)
    points = words[1].replace("−", "-") if len(words) > 1 else ""
    if len(words) < 2 or not points.lstrip("+-").isdigit():
        _show(out, t("keep.usage_adjust"), "red")
        return
    seat = out.find(words[0])
    note = words[2] if len(words) > 2 else ""
    if seat is not None and out.apply("adjust", lambda: sheet.adjust(seat, int(points), note)):
        made = sheet.entries.adjustments[-1]
        _show(out, _adjusted(t, sheet.players[seat], made.points, made.after, made.note))


def _schedule(out: Sitting, rest: str) -> None:
    t, sheet = out.t, out.sheet
    sizes = [w for w in rest.replace(",", " ").split() if w]
    first = sheet.scored + 1
    if not sizes or not all(w.isdigit() for w in sizes):
        _show(out, t("keep.usage_schedule", sizes=_sizes(sheet.schedule[first - 1 :])), "red")
        return
    if out.apply("schedule", lambda: sheet.set_schedule([int(w) for w in sizes])):
        _show(out, t("keeper.cardsFrom", round=first) + ": " + _sizes(sheet.schedule[first - 1 :]))


def evening_command(out: Sitting, command: str, rest: str) -> bool:
    """Run the evening's ``command`` with the rest of the line; ``False`` if it is none of
    :data:`COMMANDS`."""
    handler = {
        "join": _join,
        "arrive": _join,
        "leave": _leave,
        "sitout": _sit_out,
        "sit-out": _sit_out,
        "adjust": _adjust,
        "schedule": _schedule,
    }.get(command)
    if handler is None:
        return False
    handler(out, rest.strip())
    return True


def _adjusted(t: Translator, name: str, points: int, after: int, note: str) -> str:
    signed = f"+{points}" if points > 0 else f"−{-points}"
    key = "keeper.adjusted" if after else "keeper.adjustedFirst"
    return t(key, name=name, points=signed, round=after) + (f": {note}" if note else "")


def _starting_score(sheet: KeptSheet, scored: ScoreSheet, seat: int, first: int) -> int:
    """A newcomer's starting score: their total before their first round (adjustments to them left out)."""
    before = sum(a.points for a in sheet.entries.adjustments if a.seat == seat and a.after < first)
    for row in scored.rows:
        cell = row.cells[seat]
        if row.number == first and row.finished and cell.total is not None:
            return cell.total - (cell.score or 0) - before
    return scored.totals[seat] - sum(a.points for a in sheet.entries.adjustments if a.seat == seat)


def evening_notes(sheet: KeptSheet, t: Translator) -> list[str]:
    """What changed during the evening, a line each in the order it happened on the sheet (the web
    keeper's notes): arrivals with their starting score, departures, sit-outs, bonuses and penalties
    with their notes."""
    scored, names, starters = sheet.score_sheet, sheet.players, len(sheet.starters)
    lines: list[tuple[float, str]] = []
    for i, join in enumerate(sheet.entries.joins):
        points = _starting_score(sheet, scored, starters + i, join.round)
        lines.append((join.round - 0.5, t("keeper.joined", name=join.name, round=join.round, points=points)))
    for gone in sheet.entries.leaves:
        lines.append((gone.round - 0.5, t("keeper.left", name=names[gone.seat], round=gone.round - 1)))
    for out in sheet.entries.sit_outs:
        lines.append((out.round - 0.4, t("keeper.satOut", name=names[out.seat], round=out.round)))
    for made in sheet.entries.adjustments:
        lines.append((made.after + 0.3, _adjusted(t, names[made.seat], made.points, made.after, made.note)))
    return [text for _, text in sorted(lines, key=lambda line: line[0])]


def _cell(cell: SheetCell, sits_out: str | None) -> Text:
    """A player's cell in 12 columns, as :func:`upriver.cli.tui.sheet_table` draws it."""
    if sits_out is not None:
        return Text(f"{sits_out} ", style="dim").append(format(cell.total, ">3"), style="bold")
    if cell.bid is None and cell.tricks is None and cell.total is None:
        return Text("")
    shown = "·" if cell.bid is None else str(cell.bid)
    taken = "·" if cell.tricks is None else str(cell.tricks)
    text = Text(f"{shown:>2}/{taken:<2} ")
    made = cell.made
    score = "" if cell.score is None else str(cell.score)
    text.append(format(score, ">2"), style="" if made is None else ("green" if made else "dim"))
    text.append(format("" if cell.total is None else str(cell.total), ">4"), style="bold")
    return text


def evening_table(sheet: KeptSheet, t: Translator) -> Table:
    """The sheet as the web keeper draws it: a round's dealer, a cell per player (``bid/tricks score
    total``), a seat sitting the round out saying so with its total, a seat not yet come or gone left
    blank, a flagged round's note (the changes of the evening follow it: :func:`evening_notes`)."""
    scored = sheet.score_sheet
    table = Table(
        box=None,
        header_style="bold underline",
        padding=(0, 1, 0, 0),
        caption=t("sheet.caption"),
        caption_justify="left",
    )
    noted = any(row.trump is not None for row in scored.rows)  # no column of dashes at a real table
    table.add_column(t("sheet.round"), justify="right")
    table.add_column(t("sheet.cards"), justify="right")
    table.add_column(t("sheet.deals"))
    if noted:
        table.add_column(t("sheet.trump"), justify="center")
    for name in scored.players:
        table.add_column(name, justify="right", no_wrap=True)
    sits_out = t("keeper.sitsOutCell")
    lead = [""] * (4 if noted else 3)
    for row in scored.rows:
        seated = sheet.playing(row.number) if row.number <= len(sheet.schedule) else ()
        out = {s.seat for s in sheet.entries.sit_outs if s.round == row.number}
        cells = [
            _cell(cell, sits_out if seat in out and seat not in seated and cell.total is not None else None)
            for seat, cell in enumerate(row.cells)
        ]
        head: list[str | Text] = [str(row.number), str(row.hand_size), scored.players[row.dealer][:8]]
        if noted:
            suit = row.trump
            head.append(Text("–") if suit is None else Text(suit.symbol, style="red" if suit.is_red else ""))
        table.add_row(*head, *cells)
        if row.note is not None and row.status is RowStatus.FLAGGED:
            table.add_row(*lead, Text(f"⚠ {row.note}", style="bold red"))
    return table


def names_of(sheet: KeptSheet, number: int) -> str:
    """The players at the table for round ``number``, in seat order, as a prompt lists them."""
    return " ".join(sheet.players[seat] for seat in sheet.playing(number))
