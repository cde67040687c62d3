"""The keeper's CSV export: every change of the evening on its own line with its note, each player's
score column adding up to their total, and no cell a spreadsheet would read as a formula."""

from __future__ import annotations

import csv
import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from upriver.keeper import KeptSheet, commands
from upriver.keeper.commands import apply, new_sheet
from upriver.sheet import spreadsheet_cell

FOUR = ["Ann", "Bob", "Cid", "Dee"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def sheet_view(sheet: KeptSheet) -> dict[str, Any]:
    """The keeper's JSON view of ``sheet``, as the pages read it."""
    view: dict[str, Any] = commands.sheet_view(sheet)
    return view


def play_round(sheet: KeptSheet, winner: int = 0) -> None:
    """Everyone bids the first legal bid; ``winner`` (or the first seat playing) takes every trick."""
    view = sheet_view(sheet)
    absent = view["evening"]["absent"][view["current"]["number"] - 1]
    while (to_bid := sheet_view(sheet)["current"]["to_bid"]) != []:
        seat = to_bid[0]
        apply(sheet, "bid", {"seat": seat, "bid": sheet_view(sheet)["current"]["legal_bids"][str(seat)][0]})
    view = sheet_view(sheet)
    count = len(view["players"])
    playing = [s for s in range(count) if s not in absent]
    taker = winner if winner in playing else playing[0]
    tricks = [None if s in absent else 0 for s in range(count)]
    tricks[taker] = view["current"]["hand_size"]
    apply(sheet, "tricks", {"tricks": tricks})


def rows(sheet: KeptSheet) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(sheet.to_csv())))


def score_column_sums(sheet: KeptSheet) -> list[int]:
    table = rows(sheet)
    return [sum(int(line[f"{name} score"] or 0) for line in table) for name in sheet.players]


def test_a_penalty_and_an_arrivals_starting_score_are_lines_with_their_notes() -> None:
    sheet = new_sheet({"players": FOUR, "preset": "classic", "dealer": 0})
    play_round(sheet, winner=1)
    play_round(sheet, winner=2)
    apply(sheet, "adjust", {"seat": 0, "points": -10, "note": "renege"})
    apply(sheet, "join", {"name": "Eve", "start": "average"})
    apply(sheet, "sit-out", {"seat": 3})
    play_round(sheet)
    notes = [line["note"] for line in rows(sheet) if not line["round"]]
    start = sheet.totals[4] - sheet.score_sheet.rows[2].cells[4].score  # type: ignore[operator]
    assert notes == [
        "Ann -10: renege",
        f"Eve arrives for round 3, starting with {start}",
        "Dee sits out round 3",
    ]
    penalty = next(line for line in rows(sheet) if line["note"] == "Ann -10: renege")
    assert penalty["Ann score"] == "-10"
    assert score_column_sums(sheet) == list(sheet.totals)


@settings(max_examples=25, deadline=None)
@given(
    before=st.integers(1, 3),
    start=st.sampled_from(["zero", "lowest", "average"]),
    penalties=st.lists(st.tuples(st.integers(0, 4), st.integers(-50, 50).filter(bool)), max_size=4),
    winners=st.lists(st.integers(0, 4), min_size=4, max_size=4),
)
def test_each_players_score_column_adds_up_to_their_total(
    before: int, start: str, penalties: list[tuple[int, int]], winners: list[int]
) -> None:
    sheet = new_sheet({"players": FOUR, "preset": "classic", "dealer": 0})
    for number in range(before):
        play_round(sheet, winner=winners[number] % 4)
    apply(sheet, "join", {"name": "Eve", "start": start})
    for seat, points in penalties:
        apply(sheet, "adjust", {"seat": seat, "points": points, "note": "table's call"})
    play_round(sheet, winner=winners[-1])
    assert score_column_sums(sheet) == list(sheet.totals)


def test_no_cell_a_spreadsheet_would_read_as_a_formula() -> None:
    players = ['=HYPERLINK("//x.io")', "+Bob", "@Cid", "Dee"]
    sheet = new_sheet({"players": players, "preset": "classic", "dealer": 0})
    play_round(sheet)
    apply(sheet, "adjust", {"seat": 3, "points": 5, "note": "=1+1"})
    table = list(csv.reader(io.StringIO(sheet.to_csv())))
    for line in table:
        for cell in line:
            number = cell.lstrip("+-").isdigit()
            assert number or not cell.startswith(FORMULA), cell
    assert table[0][4] == """'=HYPERLINK("//x.io") bid"""
    assert table[1][2] == """'=HYPERLINK("//x.io")"""  # Ann dealt round 1
    assert table[-1][-1] == "Dee +5: =1+1"  # a note inside a line is text, never a cell's start


def test_a_negative_score_stays_a_number() -> None:
    assert spreadsheet_cell("-40") == "-40"
    assert spreadsheet_cell("-4 0") == "'-4 0"
