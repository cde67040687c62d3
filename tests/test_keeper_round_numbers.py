"""A kept evening counts its rounds as the sheet does, across changes of players: a round's value under
``anderson`` scoring and the rotating trump follow the sheet's round number, not the number of the
round within the run of rounds since the last arrival, departure or sit-out."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from upriver.deal import rotating_trump
from upriver.keeper import KeptSheet, commands
from upriver.keeper.commands import apply, new_sheet
from upriver.scoring import Scoring, round_score

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def view_of(sheet: KeptSheet) -> dict[str, Any]:
    view: dict[str, Any] = commands.sheet_view(sheet)
    return view


def play_round(sheet: KeptSheet, taker: int) -> None:
    """Each player at the table bids the first legal bid; ``taker`` (if playing) takes every trick."""
    view = view_of(sheet)
    absent = view["evening"]["absent"][view["current"]["number"] - 1]
    while view_of(sheet)["current"]["to_bid"]:
        now = view_of(sheet)["current"]
        seat = now["to_bid"][0]
        apply(sheet, "bid", {"seat": seat, "bid": now["legal_bids"][str(seat)][0]})
    count = len(view["players"])
    playing = [s for s in range(count) if s not in absent]
    tricks = [None if s in absent else 0 for s in range(count)]
    tricks[taker if taker in playing else playing[0]] = view_of(sheet)["current"]["hand_size"]
    apply(sheet, "tricks", {"tricks": tricks})


@settings(max_examples=20, deadline=None)
@given(
    change=st.sampled_from(["join", "leave", "sit-out"]),
    before=st.integers(1, 3),
    takers=st.lists(st.integers(0, 4), min_size=6, max_size=6),
)
def test_anderson_values_each_round_by_its_number_on_the_sheet(
    change: str, before: int, takers: list[int]
) -> None:
    sheet = new_sheet(
        {"players": FOUR, "preset": "classic", "scoring": "anderson", "trump": "rotate", "dealer": 0}
    )
    for number in range(before):
        play_round(sheet, takers[number])
    if change == "join":
        apply(sheet, "join", {"name": "Eve"})
    elif change == "leave":
        apply(sheet, "leave", {"seat": 3})
    else:
        apply(sheet, "sit-out", {"seat": 2})
    for number in range(before, 6):
        play_round(sheet, takers[number])
    rows = sheet.score_sheet.rows
    assert [row.number for row in rows] == list(range(1, 7))
    for row in rows:
        assert row.trump is rotating_trump(row.number)
        for cell in row.cells:
            if cell.bid is not None and cell.tricks is not None:
                assert cell.score == round_score(Scoring.ANDERSON, cell.bid, cell.tricks, row.number)
