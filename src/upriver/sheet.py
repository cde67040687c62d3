"""The score sheet: one row per round, each player's bid / tricks / round score / running total.

:class:`ScoreSheet` is plain frozen data made from a :class:`~upriver.game.Game`;
:meth:`ScoreSheet.table` draws it with ``rich`` (for ``upriver check`` and the
terminal game) and :attr:`ScoreSheet.headline` says who leads or who won.

>>> from upriver import Game, preset
>>> game = Game(preset("classic", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=1)
>>> sheet = ScoreSheet.of(game)
>>> sheet.rows[0].hand_size, sheet.rows[0].finished, sheet.headline
(1, False, 'No round has been scored yet')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from upriver.actions import Phase
from upriver.cards import Suit
from upriver.game import Game
from upriver.rules import Bidding

__all__ = ["ScoreSheet", "SheetCell", "SheetRow", "spoken_names"]

_NAME_WIDTH = 12
"""A player's column is 12 characters wide, so five players fit in 80 columns."""


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
    """One round: its number (1-based), hand size, trump (``None``: no trump or unknown), dealer and cells."""

    number: int
    hand_size: int
    trump: Suit | None
    dealer: int
    cells: tuple[SheetCell, ...]
    finished: bool


def spoken_names(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cid``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


@dataclasses.dataclass(kw_only=True, frozen=True, slots=True)
class ScoreSheet:
    """A game's score sheet; ``totals`` count finished rounds only."""

    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    complete: bool

    @classmethod
    def of(cls, game: Game, *, viewer: int | None = None) -> ScoreSheet:
        """The sheet of ``game`` so far, with the round in progress as far as it is known.

        With ``viewer`` set, the sheet shows only what that seat may know: under
        simultaneous bidding the others' bids stay blank until everyone has bid.
        """
        n = game.rules.player_count
        running = [0] * n
        rows = []
        for result in game.results:
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
                    finished=True,
                )
            )
        if game.phase in (Phase.BIDDING, Phase.PLAYING, Phase.TRICKS):
            hidden = (
                viewer is not None
                and game.phase is Phase.BIDDING
                and game.rules.bidding is Bidding.SIMULTANEOUS
            )
            cards = game.dealt_hand(0) is not None
            bids = tuple(None if hidden and seat != viewer else bid for seat, bid in enumerate(game.bids))
            rows.append(
                SheetRow(
                    number=game.round_number,
                    hand_size=game.hand_size,
                    trump=game.trump,
                    dealer=game.dealer,
                    cells=tuple(
                        SheetCell(
                            bid=bids[seat],
                            tricks=game.tricks_won[seat] if cards else None,
                            score=None,
                            total=None,
                        )
                        for seat in range(n)
                    ),
                    finished=False,
                )
            )
        return cls(players=game.players, rows=tuple(rows), totals=tuple(running), complete=game.is_over)

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

    def table(self) -> Table:
        """The sheet as a ``rich`` table that fits 80 columns for up to five players."""
        table = Table(
            box=None,
            header_style="bold underline",
            padding=(0, 1, 0, 0),
            caption="each player: bid/tricks, round score, running total",
            caption_justify="left",
        )
        table.add_column("Rd", justify="right")
        table.add_column("Cards", justify="right")
        table.add_column("Trump", justify="center")
        for name in self.players:
            short = name if len(name) <= _NAME_WIDTH else name[: _NAME_WIDTH - 1] + "…"
            table.add_column(short, justify="right", width=_NAME_WIDTH, no_wrap=True)
        for row in self.rows:
            table.add_row(
                str(row.number),
                str(row.hand_size),
                _trump(row.trump),
                *(_cell(cell) for cell in row.cells),
            )
        return table

    def __rich__(self) -> Table:
        return self.table()


def _trump(suit: Suit | None) -> Text:
    if suit is None:
        return Text("–")
    return Text(suit.symbol, style="red" if suit.is_red else "")


def _cell(cell: SheetCell) -> Text:
    def shown(value: int | None, width: int, align: str = ">") -> str:
        return format("·" if value is None else str(value), f"{align}{width}")

    text = Text(f"{shown(cell.bid, 2)}/{shown(cell.tricks, 2, '<')} ")
    made = cell.made
    style = "" if made is None else ("green" if made else "dim")
    text.append(format("" if cell.score is None else str(cell.score), ">2"), style=style)
    text.append(format("" if cell.total is None else str(cell.total), ">4"), style="bold")
    return text
