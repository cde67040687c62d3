"""The score sheet: one row per round, each player's bid / tricks / round score / running total.

:class:`ScoreSheet` is the one model of a score sheet: the web table, the score keeper
(web and terminal) and ``upriver check`` all draw it. It is plain frozen data made
from a view (:meth:`ScoreSheet.from_view`), so it can never show more than that view:
a spectator's sheet (``game.view(None)``) has no bid that closed fists still hide.
:meth:`ScoreSheet.to_json` is its one JSON shape (the pages' ``sheet.js`` draws it),
:meth:`ScoreSheet.to_csv` writes it as CSV, and :attr:`ScoreSheet.headline` says who
leads or who won. The terminal draws it (``upriver.cli.tui.sheet_table``); the core keeps
the data.

>>> from upriver import Game, preset
>>> game = Game(preset("classic", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=1)
>>> sheet = ScoreSheet.from_view(game.view(None))
>>> sheet.rows[0].hand_size, sheet.rows[0].status.value, sheet.headline
(1, 'bidding', 'No round has been scored yet')
"""

from __future__ import annotations

import csv
import dataclasses
import enum
import io
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from upriver.actions import Phase, standings_of
from upriver.cards import Suit
from upriver.view import TableView

if TYPE_CHECKING:
    from upriver.game import Game

__all__ = ["RowStatus", "ScoreSheet", "SheetCell", "SheetRow", "spoken_names", "spreadsheet_cell"]


class RowStatus(enum.Enum):
    """Where a round stands on the sheet."""

    SCORED = "scored"
    BIDDING = "bidding"
    PLAYING = "playing"
    TRICKS = "tricks"
    """Played with real cards: the trick counts are awaited."""
    FLAGGED = "flagged"
    """Kept at a real table: the engine refuses this round since an edit elsewhere (see ``note``)."""
    UNCHECKED = "unchecked"
    """Kept at a real table: entered after a flagged round, so not checked or scored yet."""


_IN_PROGRESS = {
    Phase.BIDDING: RowStatus.BIDDING,
    Phase.PLAYING: RowStatus.PLAYING,
    Phase.TRICKS: RowStatus.TRICKS,
}


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class SheetCell:
    """One player's entry in one round; ``None`` where it is not known (yet)."""

    bid: int | None
    tricks: int | None
    score: int | None
    total: int | None

    @property
    def made(self) -> bool | None:
        """Whether the bid was exact, once the round is scored."""
        if self.score is None or self.bid is None or self.tricks is None:
            return None
        return self.bid == self.tricks


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class SheetRow:
    """One round: its number (1-based), hand size, dealer, trump (``None``: none or unknown) and cells."""

    number: int
    hand_size: int
    trump: Suit | None
    dealer: int
    cells: tuple[SheetCell, ...]
    status: RowStatus
    note: str | None = None
    """Why a flagged round is refused (``"not checked"`` on the rounds after it)."""

    @property
    def finished(self) -> bool:
        """Whether the round is scored."""
        return self.status is RowStatus.SCORED


def spoken_names(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _suit(suit: Suit | None) -> str | None:
    return None if suit is None else suit.value


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class ScoreSheet:
    """A game's score sheet; ``totals`` count scored rounds only; ``rounds`` is the schedule's length."""

    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    complete: bool
    rounds: int

    @classmethod
    def from_view(cls, view: TableView, *, at_table: bool = False) -> ScoreSheet:
        """The sheet of what ``view`` shows: its finished rounds, and the round in progress as far as known.

        In the round in progress, a bid the view does not show (closed fists, before
        everyone has bid) stays ``None``; the tricks are those completed so far, or
        ``None`` when ``at_table`` says the round is played with real cards (kept at a
        table, :meth:`~upriver.game.Game.deal_at_table`), where no count is known until
        it is entered.
        """
        n = view.player_count
        running = [0] * n
        rows = []
        for result in view.history:
            cells = []
            for seat in range(n):
                running[seat] += result.scores[seat]
                cells.append(
                    SheetCell(
                        bid=result.bids[seat],
                        tricks=result.tricks_won[seat],
                        score=result.scores[seat],
                        total=running[seat],
                    )
                )
            rows.append(
                SheetRow(
                    number=result.number,
                    hand_size=result.hand_size,
                    trump=result.trump,
                    dealer=result.dealer,
                    cells=tuple(cells),
                    status=RowStatus.SCORED,
                )
            )
        status = _IN_PROGRESS.get(view.phase)
        if status is not None:
            known = view.phase is Phase.PLAYING or (view.phase is Phase.BIDDING and not at_table)
            rows.append(
                SheetRow(
                    number=view.round_number,
                    hand_size=view.hand_size,
                    trump=view.trump,
                    dealer=view.dealer,
                    cells=tuple(
                        SheetCell(
                            bid=view.bids[seat],
                            tricks=view.tricks_won[seat] if known else None,
                            score=None,
                            total=None,
                        )
                        for seat in range(n)
                    ),
                    status=status,
                )
            )
        return cls(
            players=view.players,
            rows=tuple(rows),
            totals=view.totals,
            complete=view.phase is Phase.OVER,
            rounds=view.rules.rounds,
        )

    @classmethod
    def of(cls, game: Game, *, viewer: int | None = None) -> ScoreSheet:
        """``from_view(game.view(viewer))``: the sheet as seat ``viewer`` sees it (``None``: a spectator).

        ``at_table`` is read from the game: whether the round in progress was dealt with real cards.
        """
        at_table = game.phase is not Phase.OVER and game.dealt_hand(0) is None
        return cls.from_view(game.view(viewer), at_table=at_table)

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the most points so far (all of them share a tie); empty before any score."""
        if not any(row.finished for row in self.rows):
            return ()
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)

    @property
    def winners(self) -> tuple[int, ...]:
        """The leaders once the game is complete; empty before."""
        return self.leaders if self.complete else ()

    def standings(self) -> tuple[tuple[int, int, int], ...]:
        """``(place, seat, total)`` from first to last; tied seats share a place (as ``Game.standings``)."""
        return standings_of(self.totals)

    @property
    def headline(self) -> str:
        """``Ann leads with 54``, ``Ann and Bob win with 120``: who is ahead, in words."""
        seats = self.leaders
        if not seats:
            return "No round has been scored yet"
        names = spoken_names([self.players[seat] for seat in seats])
        if self.complete:
            verb = "wins" if len(seats) == 1 else "win"
        else:
            verb = "leads" if len(seats) == 1 else "lead"
        return f"{names} {verb} with {self.totals[seats[0]]}"

    def to_json(self) -> dict[str, object]:
        """The sheet as JSON data: the one shape every page draws (``static/sheet.js``).

        ``{"players": [name, …], "rounds": rounds in the game, "rows": [row, …],
        "totals": [points, …], "standings": [[place, seat, total], …], "leaders": [seat, …],
        "winners": [seat, …], "complete": bool, "headline": text}``, where a row is
        ``{"number", "hand_size", "dealer": seat, "trump": "C"|"D"|"H"|"S"|null,
        "status": "scored"|"bidding"|"playing"|"tricks"|"flagged"|"unchecked",
        "note": text|null, "cells": [cell per seat]}`` and a cell is ``{"bid", "tricks",
        "score", "total", "made"}``, each ``null`` where not known (yet); ``total`` is the
        running total after the round, ``made`` whether the bid was exact once scored.
        """
        return {
            "players": list(self.players),
            "rounds": self.rounds,
            "rows": [
                {
                    "number": row.number,
                    "hand_size": row.hand_size,
                    "dealer": row.dealer,
                    "trump": _suit(row.trump),
                    "status": row.status.value,
                    "note": row.note,
                    "cells": [
                        {"bid": c.bid, "tricks": c.tricks, "score": c.score, "total": c.total, "made": c.made}
                        for c in row.cells
                    ],
                }
                for row in self.rows
            ],
            "totals": list(self.totals),
            "standings": [list(place) for place in self.standings()],
            "leaders": list(self.leaders),
            "winners": list(self.winners),
            "complete": self.complete,
            "headline": self.headline,
        }

    def summary(self) -> dict[str, object]:
        """The summary ``upriver check --json`` prints (docs/record.md): tricks and scores per round, totals.

        A round in progress has the tricks taken so far (``null`` where unknown, at a real
        table) and ``null`` scores.
        """
        return {
            "rounds": [
                {
                    "tricks": [cell.tricks for cell in row.cells],
                    "scores": [cell.score for cell in row.cells] if row.finished else None,
                }
                for row in self.rows
            ],
            "totals": list(self.totals),
            "complete": self.complete,
            "winners": list(self.winners),
        }

    def to_csv(self, notes: Mapping[int, Sequence[tuple[int | None, int | None, str]]] | None = None) -> str:
        """The sheet as CSV: one row per round; per player bid, tricks, round score and running total.

        ``notes`` maps a round number (0: before the first) to lines written after that round:
        ``(seat, points, text)``, where ``points`` goes in the seat's score column (a starting
        score, a bonus or a penalty), so each player's score column adds up to their total. Every
        text cell is :func:`spreadsheet_cell`, so a name or a note is never read as a formula.
        """
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        head = ["round", "cards", "dealer", "trump"]
        for name in self.players:
            head += [f"{name} bid", f"{name} tricks", f"{name} score", f"{name} total"]
        writer.writerow([spreadsheet_cell(cell) for cell in (*head, "note")])
        extra = notes or {}

        def shown(value: int | None) -> str:
            return "" if value is None else str(value)

        def write_notes(number: int) -> None:
            for seat, points, text in extra.get(number, ()):
                cells = ["", "", "", ""]
                for s in range(len(self.players)):
                    cells += ["", "", shown(points) if s == seat else "", ""]
                writer.writerow([*cells, spreadsheet_cell(text)])

        write_notes(0)
        for row in self.rows:
            cells = [str(row.number), str(row.hand_size), self.players[row.dealer], _suit(row.trump) or ""]
            for cell in row.cells:
                cells += [shown(cell.bid), shown(cell.tricks), shown(cell.score), shown(cell.total)]
            writer.writerow([*(spreadsheet_cell(cell) for cell in cells), spreadsheet_cell(row.note or "")])
            write_notes(row.number)
        for number in sorted(extra):
            if number and not any(row.number == number for row in self.rows):
                write_notes(number)
        return out.getvalue()


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def spreadsheet_cell(value: str) -> str:
    """``value`` as a CSV cell no spreadsheet reads as a formula (OWASP's CSV-injection advice):
    text beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``;
    a number (``-10``, ``-1.5``) is left as it is, so it stays a number.

    >>> [spreadsheet_cell(text) for text in ("=SUM(A1:A9)", "@cmd", "-10", "Ann")]
    ["'=SUM(A1:A9)", "'@cmd", '-10', 'Ann']
    """
    return "'" + value if value.startswith(_FORMULA_STARTS) and not _NUMBER.fullmatch(value) else value
