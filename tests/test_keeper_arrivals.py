"""Arrivals and departures on every preset: the rounds not yet begun follow the rules for the new
number of players (docs/keeper.md, "The schedule follows the number of players"), the change is
previewed before it is made, and the rounds already played keep their scores."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from upriver.errors import IllegalActionError
from upriver.keeper import KeptSheet, commands
from upriver.keeper.commands import apply, new_sheet
from upriver.rules import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, PRESETS, Trump, most_cards, preset

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def sheet_view(sheet: KeptSheet) -> dict[str, Any]:
    """The keeper's JSON view of ``sheet``, as the pages read it."""
    view: dict[str, Any] = commands.sheet_view(sheet)
    return view


def play_round(sheet: KeptSheet, winner: int = 0) -> None:
    """Every seat playing bids its first legal bid in turn; the ``winner``-th player at the table
    takes every trick."""
    while sheet.to_bid:
        seat = sheet.to_bid[0]
        sheet.enter_bid(seat, sheet.legal_bids(seat)[0])
    playing = sheet.playing(sheet.current)
    taker = playing[winner % len(playing)]
    sheet.enter_tricks(
        [sheet.hand_size if s == taker else (0 if s in playing else None) for s in range(len(sheet.players))]
    )


def stored(sheet: KeptSheet) -> KeptSheet:
    """The sheet as the store and an export read it back: through its record (the peak resolved)."""
    return KeptSheet.from_record(sheet.to_record())


def sheet_of(name: str, players: int, rounds: int, *, reread: bool = False) -> KeptSheet:
    sheet = new_sheet({"players": NAMES[:players], "preset": name, "dealer": 0})
    for number in range(rounds):
        play_round(sheet, number)
    return stored(sheet) if reread else sheet


def fits(sizes: list[int] | tuple[int, ...], players: int, trump: Trump) -> bool:
    """Each hand leaves a card to turn up for this many players (none is needed when trump rotates)."""
    most = DECK_SIZE // players if trump is Trump.ROTATE else most_cards(players)
    return all(1 <= size <= most for size in sizes)


@pytest.mark.parametrize(
    ("name", "players", "rounds", "rest"),
    [
        # Classic, four at round 5 (five cards, rising): the river climbs to five players' peak of 10.
        ("classic", 4, 4, [5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        ("classic-hook", 4, 4, [5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        # Five to six at round 5: up to 8.
        ("classic", 5, 4, [5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1]),
        # Overbid, three to four: up to four players' 11 instead of 17.
        ("overbid", 3, 4, [5, 6, 7, 8, 9, 10, 11, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        # At the first of the two 11s: a fifth makes it 10, twice, and down.
        ("classic", 4, 10, [10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]),
        # Falling, every hand still fits five: the river goes on falling as it was.
        ("classic", 4, 14, [8, 7, 6, 5, 4, 3, 2, 1]),
        # Countdown, seven to eight in round 3 (five cards, falling): down to 1 and up to eight's 6.
        ("countdown", 7, 2, [5, 4, 3, 2, 1, 2, 3, 4, 5, 6]),
    ],
)
def test_a_late_arrival_is_taken_on_every_up_and_down_preset_even_once_the_sheet_was_stored(
    name: str, players: int, rounds: int, rest: list[int]
) -> None:
    for reread in (False, True):
        sheet = sheet_of(name, players, rounds, reread=reread)
        preview = sheet_view(sheet)["evening"]["changes"]
        assert preview["from"] == rounds + 1
        assert preview["arrival"] == {"sizes": rest}
        apply(sheet, "join", {"name": "Zed", "start": "average"})
        assert list(sheet.schedule[rounds:]) == rest
        assert sheet.playing(rounds + 1)[-1] == players  # the newcomer plays the next round


def test_the_family_evening_classic_four_then_a_fifth_for_round_five_is_scored_by_the_engine() -> None:
    sheet = sheet_of("classic", 4, 4, reread=True)
    before = sheet.score_sheet.rows
    apply(sheet, "join", {"name": "Eve", "start": "zero"})
    for number in range(len(sheet.schedule) - 4):
        play_round(sheet, number)
    assert sheet.is_over
    assert [row.cells[:4] for row in sheet.score_sheet.rows[:4]] == [row.cells for row in before]
    assert len(sheet.schedule) == 20
    assert max(sheet.schedule[4:]) == 10


def test_a_listed_schedule_keeps_its_sizes_but_deals_the_newcomers_table_no_more_than_the_deck_holds() -> (
    None
):
    sheet = new_sheet({"players": NAMES[:4], "schedule": [13, 12, 13, 2], "dealer": 0})
    play_round(sheet)
    assert sheet_view(sheet)["evening"]["changes"]["arrival"] == {"sizes": [10, 10, 2]}
    apply(sheet, "join", {"name": "Eve"})
    assert sheet.schedule == (13, 10, 10, 2)
    assert sheet_view(sheet)["evening"]["edited"] is True  # written into the sheet, undone by undo
    apply(sheet, "undo", {})
    assert sheet.schedule == (13, 12, 13, 2)


def test_a_departure_is_previewed_and_three_at_the_table_cannot_lose_one() -> None:
    sheet = sheet_of("classic", 5, 3)
    view = sheet_view(sheet)["evening"]["changes"]
    assert view["departure"] == {"sizes": [4, 5, 6, 7, 8, 9, 10, 11, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]}
    apply(sheet, "leave", {"seat": 4})
    assert list(sheet.schedule[3:]) == view["departure"]["sizes"]
    apply(sheet, "leave", {"seat": 3})
    assert "at least 3 players" in sheet_view(sheet)["evening"]["changes"]["departure"]["refused"]


def test_no_change_of_players_is_offered_once_a_bid_of_the_round_is_in() -> None:
    sheet = sheet_of("classic", 4, 2)
    sheet.enter_bid(None, 0)
    assert sheet_view(sheet)["evening"]["changes"] is None
    with pytest.raises(IllegalActionError, match="round 3 has begun: Eve can join from round 4"):
        apply(sheet, "join", {"name": "Eve"})


def test_eight_at_the_table_is_the_most_and_the_preview_says_so() -> None:
    sheet = sheet_of("countdown", 8, 1)
    assert "at most 8 players" in sheet_view(sheet)["evening"]["changes"]["arrival"]["refused"]


def _counts() -> st.SearchStrategy[tuple[str, int]]:
    return st.sampled_from(
        [(name, n) for name, p in PRESETS.items() for n in range(p.min_players, p.max_players + 1)]
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=_counts(), data=st.data(), arrive=st.booleans(), reread=st.booleans())
def test_any_arrival_or_departure_between_any_two_rounds_of_any_preset_leaves_a_playable_rest(
    chosen: tuple[str, int], data: Any, arrive: bool, reread: bool
) -> None:
    name, players = chosen
    rules = preset(name, players)
    if not (players < MAX_PLAYERS if arrive else players > MIN_PLAYERS):
        arrive = not arrive
    rounds = data.draw(st.integers(0, rules.rounds - 1), label="rounds played")
    sheet = sheet_of(name, players, rounds, reread=reread)
    before = sheet.score_sheet
    promised = sheet_view(sheet)["evening"]["changes"]["arrival" if arrive else "departure"]
    if arrive:
        apply(
            sheet, "join", {"name": "Zed", "start": data.draw(st.sampled_from(["zero", "lowest", "average"]))}
        )
    else:
        apply(sheet, "leave", {"seat": data.draw(st.integers(0, players - 1), label="who leaves")})
    count = players + (1 if arrive else -1)
    rest = sheet.schedule[rounds:]
    assert rest, "the players of the change play at least one round"
    assert fits(rest, count, rules.trump)
    assert promised == {"sizes": list(rest)}  # the dialog said exactly this before the change
    assert sheet.schedule[:rounds] == rules.hand_sizes[:rounds]
    after = sheet.score_sheet
    for was, now in zip(before.rows[:rounds], after.rows[:rounds], strict=True):
        assert (now.number, now.hand_size, now.dealer, now.status) == (
            was.number,
            was.hand_size,
            was.dealer,
            was.status,
        )
        assert now.cells[:players] == was.cells  # every bid, count, score and total as it was
        assert all(cell.score is None for cell in now.cells[players:])  # the newcomer played none of them
    # The evening plays to its end under the engine.
    for number in range(len(rest)):
        play_round(sheet, number)
    assert sheet.is_over
    assert sheet.flag is None
