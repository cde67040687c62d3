"""A real evening on the score keeper: late arrivals, departures, sit-outs, adjustments, a schedule
changed mid-game and the statistics, through the keeper's commands (the API the server and the
browser both run) and through the HTTP API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from upriver.errors import IllegalActionError
from upriver.keeper import KeptSheet, commands
from upriver.keeper.commands import BadEntryError, apply, new_sheet
from upriver.record import dumps, loads, replay
from upriver.rules import Rules

FOUR = ["Ann", "Bob", "Cid", "Dee"]


def classic(players: list[str] = FOUR, **more: object) -> KeptSheet:
    return new_sheet({"players": players, "preset": "classic", "dealer": 0, **more})


def sheet_view(sheet: KeptSheet) -> dict[str, Any]:
    """The keeper's JSON view of ``sheet``, as the pages read it."""
    view: dict[str, Any] = commands.sheet_view(sheet)
    return view


def play_round(sheet: KeptSheet, made: int | None = None) -> dict[str, Any]:
    """Bid the first legal bid for each seat in turn; the first player at the table takes every trick,
    unless ``made`` names a seat that takes them all instead."""
    view = sheet_view(sheet)
    number = view["current"]["number"]
    absent = view["evening"]["absent"][number - 1]
    while sheet_view(sheet)["current"]["to_bid"]:
        seat = sheet_view(sheet)["current"]["to_bid"][0]
        apply(sheet, "bid", {"seat": seat, "bid": sheet_view(sheet)["current"]["legal_bids"][str(seat)][0]})
    view = sheet_view(sheet)
    playing = [s for s in range(len(view["players"])) if s not in absent]
    winner = playing[0] if made is None else made
    tricks = [None if s in absent else 0 for s in range(len(view["players"]))]
    tricks[winner] = view["current"]["hand_size"]
    apply(sheet, "tricks", {"tricks": tricks})
    return sheet_view(sheet)


def row(view: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = view["sheet"]["rows"][number - 1]
    assert found["number"] == number
    return found


def test_a_late_arrival_plays_from_the_next_round_on_the_schedule_for_five_from_the_average() -> None:
    sheet = classic()
    play_round(sheet)
    play_round(sheet)
    totals = sheet_view(sheet)["sheet"]["totals"]
    assert totals == [0, 20, 20, 20]
    apply(sheet, "join", {"name": "Eve", "start": "average"})
    view = sheet_view(sheet)
    assert view["players"] == [*FOUR, "Eve"]
    assert view["sheet"]["totals"] == [0, 20, 20, 20, 15]  # 60 / 4
    five = Rules.from_options({"preset": "classic"}, player_count=5).hand_sizes
    assert view["evening"]["schedule"] == [1, 2, *five[2:]]
    # Bob dealt round 2; the deal passes left, to Cid, with Eve at the table between Dee and Ann.
    assert (view["current"]["number"], view["current"]["dealer"]) == (3, 2)
    assert view["current"]["bidding_order"] == [3, 4, 0, 1, 2]
    view = play_round(sheet)
    assert [cell["total"] for cell in row(view, 1)["cells"]] == [0, 10, 10, 10, None]
    assert row(view, 3)["cells"][4]["total"] == 25


def test_the_lowest_total_and_zero_are_the_other_starting_scores() -> None:
    for start, expected in (("lowest", 10), ("zero", 0), ("average", 15)):
        sheet = classic()
        play_round(sheet, made=0)
        play_round(sheet, made=1)
        assert sheet_view(sheet)["sheet"]["totals"] == [10, 10, 20, 20]
        apply(sheet, "join", {"name": "Eve", "start": start})
        assert sheet_view(sheet)["sheet"]["totals"][4] == expected


def test_a_sit_out_leaves_the_round_to_the_others_and_the_deal_skips_the_absent_player() -> None:
    sheet = new_sheet({"players": [*FOUR, "Eve"], "preset": "classic", "dealer": 0})
    play_round(sheet)  # Ann dealt round 1
    apply(sheet, "sit-out", {"seat": 1})  # Bob would deal round 2
    view = sheet_view(sheet)
    assert view["evening"]["absent"][1] == [1]
    assert view["current"]["dealer"] == 2
    assert view["current"]["bidding_order"] == [3, 4, 0, 2]
    with pytest.raises(IllegalActionError, match="Bob does not play round 2"):
        apply(sheet, "bid", {"seat": 1, "bid": 0})
    before = sheet_view(sheet)["sheet"]["totals"][1]
    view = play_round(sheet)
    cell = row(view, 2)["cells"][1]
    assert (cell["bid"], cell["tricks"], cell["score"], cell["total"]) == (None, None, None, before)
    # Back for round 3, which the player after Cid deals: Dee.
    assert view["evening"]["absent"][2] == []
    assert view["current"]["dealer"] == 3
    # A schedule for five stays: one sits out, four play the round's hand size.
    assert view["evening"]["schedule"] == list(
        Rules.from_options({"preset": "classic"}, player_count=5).hand_sizes
    )


def test_a_player_who_leaves_keeps_their_points_and_the_rest_is_the_schedule_for_the_fewer() -> None:
    sheet = new_sheet({"players": [*FOUR, "Eve"], "preset": "classic", "dealer": 0})
    play_round(sheet)
    play_round(sheet)
    apply(sheet, "leave", {"seat": 4})
    view = sheet_view(sheet)
    four = Rules.from_options({"preset": "classic"}, player_count=4).hand_sizes
    assert view["evening"]["schedule"] == [1, 2, *four[2:]]
    assert view["evening"]["leaves"] == [{"seat": 4, "round": 3}]
    view = play_round(sheet)
    assert view["sheet"]["totals"][4] == 20
    assert row(view, 3)["cells"][4]["total"] is None
    with pytest.raises(IllegalActionError, match="Eve has already left"):
        apply(sheet, "leave", {"seat": 4})


def test_an_adjustment_counts_in_the_totals_from_the_round_it_follows() -> None:
    sheet = classic()
    play_round(sheet)
    apply(sheet, "adjust", {"seat": 2, "points": -5, "note": "renege"})
    view = sheet_view(sheet)
    assert view["sheet"]["totals"] == [0, 10, 5, 10]
    assert view["evening"]["adjustments"] == [{"seat": 2, "after": 1, "points": -5, "note": "renege"}]
    view = play_round(sheet)
    assert [cell["total"] for cell in row(view, 1)["cells"]] == [0, 10, 10, 10]
    assert [cell["total"] for cell in row(view, 2)["cells"]] == [0, 20, 15, 20]


def test_the_rounds_not_yet_begun_can_be_rescheduled_and_the_engine_refuses_a_hand_too_big() -> None:
    sheet = classic()
    play_round(sheet)
    apply(sheet, "schedule", {"sizes": [5, 3]})
    view = sheet_view(sheet)
    assert view["evening"]["schedule"] == [1, 5, 3]
    assert view["current"]["hand_size"] == 5
    with pytest.raises(IllegalActionError, match="round 2: 4 players × 14 cards needs 56 cards") as refused:
        apply(sheet, "schedule", {"sizes": [14]})
    assert refused.value.rule == "schedule"
    play_round(sheet)
    view = play_round(sheet)
    assert view["phase"] == "over"
    assert view["sheet"]["complete"] is True


def test_changes_of_players_wait_for_the_round_in_progress_and_keep_three_at_the_table() -> None:
    sheet = classic(schedule=[1, 2, 3])
    apply(sheet, "bid", {"seat": 1, "bid": 0})
    with pytest.raises(IllegalActionError, match="round 1 has begun: Eve can join from round 2") as refused:
        apply(sheet, "join", {"name": "Eve"})
    assert refused.value.rule == "roster"
    apply(sheet, "undo", {})
    apply(sheet, "sit-out", {"seat": 0})
    with pytest.raises(IllegalActionError, match="round 1 needs at least 3 players: Bob cannot sit it out"):
        apply(sheet, "sit-out", {"seat": 1})
    with pytest.raises(IllegalActionError, match=r"differs from|already") as refused:
        apply(sheet, "join", {"name": "ann"})
    assert (refused.value.rule, refused.value.facts["case"]) == ("name", "taken")
    with pytest.raises(BadEntryError, match="'start' must be one of zero, lowest, average"):
        apply(sheet, "join", {"name": "Eve", "start": "half"})
    with pytest.raises(IllegalActionError, match="a bonus or a penalty of 1 to 1000 points, not 0"):
        apply(sheet, "adjust", {"seat": 0, "points": 0})


def test_the_statistics_count_exact_bids_overs_unders_and_the_longest_run() -> None:
    sheet = classic(schedule=[1, 1, 1, 1])
    for bids, tricks in (
        ([0, 1, 0, 0], [0, 1, 0, 0]),
        ([0, 1, 0, 0], [0, 1, 0, 0]),
        ([1, 0, 0, 0], [0, 1, 0, 0]),
        ([0, 1, 0, 0], [0, 1, 0, 0]),
    ):
        apply(sheet, "bids", {"bids": bids})
        apply(sheet, "tricks", {"tricks": tricks})
    stats = sheet_view(sheet)["stats"]
    assert stats[1] == {"played": 4, "exact": 3, "over": 1, "under": 0, "rate": 0.75, "longest_run": 2}
    assert stats[0] == {"played": 4, "exact": 3, "over": 0, "under": 1, "rate": 0.75, "longest_run": 2}
    assert stats[2]["longest_run"] == 4


def test_an_evening_is_a_record_the_checker_replays_and_the_keeper_reads_back_whole() -> None:
    sheet = classic()
    play_round(sheet)
    apply(sheet, "join", {"name": "Eve", "start": "average"})
    play_round(sheet)
    apply(sheet, "sit-out", {"seat": 0})
    play_round(sheet)
    apply(sheet, "adjust", {"seat": 4, "points": 7, "note": "bonus"})
    record = loads(dumps(sheet.to_record()))
    game = replay(record)  # the first segment is a legal game of its own
    assert game.players == tuple(FOUR)
    again = KeptSheet.from_record(record)
    assert again.entries == sheet.entries
    assert sheet_view(again) == sheet_view(sheet) | {"can_undo": False}


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_every_change_of_the_evening_goes_through_the_http_api(client: TestClient) -> None:
    sheet = post(client, "/api/sheets", {"players": FOUR, "schedule": [1, 2, 3, 2], "dealer": 0}, 201)
    base = f"/api/sheets/{sheet['id']}"
    post(client, f"{base}/bids", {"bids": [0, 1, 0, 0]})
    post(client, f"{base}/tricks", {"tricks": [0, 1, 0, 0]})
    sheet = post(client, f"{base}/join", {"name": "Eve", "start": "lowest"})
    assert sheet["players"][-1] == "Eve"
    assert sheet["sheet"]["totals"][-1] == 10
    sheet = post(client, f"{base}/sit-out", {"seat": 0, "version": sheet["version"]})
    assert sheet["evening"]["absent"][1] == [0]
    sheet = post(client, f"{base}/adjust", {"seat": 1, "points": 3, "note": "nice"})
    assert sheet["sheet"]["totals"][1] == 14
    sheet = post(client, f"{base}/schedule", {"sizes": [2, 1]})
    assert sheet["evening"]["schedule"] == [1, 2, 1]
    too_long = post(client, f"{base}/schedule", {"sizes": [1] * 100}, 400)  # 101 rounds: past the limit
    assert (too_long["field"], too_long["error"].startswith("the sheet's game")) == ("sizes", True)
    sheet = post(client, f"{base}/leave", {"seat": 3})
    assert sheet["evening"]["leaves"] == [{"seat": 3, "round": 2}]
    refused = post(client, f"{base}/leave", {"seat": 2}, 400)
    assert refused["rule"] == "roster"
    assert refused["error"] == "round 2: a round needs at least 3 players, not 2"  # Ann sits it out
    refused = post(client, f"{base}/adjust", {"seat": 1, "points": "ten"}, 400)
    assert (refused["rule"], refused["error"]) == ("request", "'points' must be a whole number, not 'ten'")
    shared = client.get(f"/api/sheets/shared/{sheet['share']}").json()
    assert shared["evening"] == sheet["evening"]
    text = client.get(f"{base}/record").text
    copy = post(client, "/api/sheets/import", {"record": text}, 201)
    assert copy["sheet"] == sheet["sheet"]


ENTRY = st.one_of(
    st.tuples(st.just("round"), st.integers(0, 7)),
    st.tuples(st.just("join"), st.sampled_from(["zero", "lowest", "average"])),
    st.tuples(st.just("leave"), st.integers(0, 7)),
    st.tuples(st.just("sit-out"), st.integers(0, 7)),
    st.tuples(st.just("adjust"), st.integers(-30, 30)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.lists(ENTRY, min_size=1, max_size=14))
def test_any_evening_totals_its_starts_rounds_and_adjustments_and_survives_its_record(
    entries: list[tuple[str, object]],
) -> None:
    sheet = classic(schedule=[1, 2, 3, 2, 1, 2, 3, 2])
    newcomers, refused = 0, []
    for kind, value in entries:
        if sheet.is_over:
            break
        seats = len(sheet.players)
        assert isinstance(value, int | str)
        try:  # a change the table cannot make now is refused as such, and the evening goes on
            if kind == "round":
                play_round(sheet, made=None)
            elif kind == "join":
                newcomers += 1
                apply(sheet, "join", {"name": f"New {newcomers}", "start": value})
            elif kind == "adjust" and value:
                apply(sheet, "adjust", {"seat": int(value) % seats, "points": value})
            elif kind in ("leave", "sit-out"):
                apply(sheet, kind, {"seat": int(value) % seats})
        except IllegalActionError as error:
            refused.append(error.rule)
    view = sheet_view(sheet)
    evening, rows = view["evening"], [r for r in view["sheet"]["rows"] if r["status"] == "scored"]

    def points(seat: int, before: int) -> int:
        """Round scores and adjustments of ``seat`` before round ``before``."""
        scores: int = sum(r["cells"][seat]["score"] or 0 for r in rows if r["number"] < before)
        adjusted: int = sum(
            a["points"] for a in evening["adjustments"] if a["seat"] == seat and a["after"] < before
        )
        return scores + adjusted

    starts = [0] * len(view["players"])
    left = {x["seat"]: x["round"] for x in evening["leaves"]}
    for join in evening["joins"]:  # a newcomer's start: from the totals of those seated before them
        k = join["round"]
        joined = {j["seat"]: j["round"] for j in evening["joins"]}
        others = [
            s
            for s in range(join["seat"])
            if joined.get(s, 1) < k or (s not in joined and k >= 1)
            if left.get(s, k + 1) > k and joined.get(s, 0) != k
        ]
        totals = [starts[s] + points(s, k) for s in others]
        starts[join["seat"]] = {
            "zero": 0,
            "lowest": min(totals),
            "average": (2 * sum(totals) + len(totals)) // (2 * len(totals)),
        }[join["start"]]
    end = len(evening["schedule"]) + 2
    assert view["sheet"]["totals"] == [starts[s] + points(s, end) for s in range(len(view["players"]))]
    assert set(refused) <= {"roster"}
    again = KeptSheet.from_record(loads(dumps(sheet.to_record())))
    assert again.entries == sheet.entries
    assert again.totals == sheet.totals


@pytest.mark.parametrize(
    ("part", "value", "said"),
    [
        (
            "joins",
            [{"name": "Eve", "round": "two", "start": "zero"}],
            "a join's round must be a whole number",
        ),
        ("leaves", [{"seat": 9, "round": 2}], "a seat must be a whole number from 0 to 4, not 9"),
        ("sizes", [0, 2], "a hand size must be a whole number from 1 to 52, not 0"),
        ("adjustments", [{"seat": 0, "after": 0, "points": "ten"}], "an adjustment must be a whole number"),
    ],
)
def test_an_imported_evening_that_is_not_what_the_keeper_writes_is_refused_naming_the_part(
    client: TestClient, part: str, value: object, said: str
) -> None:
    sheet = classic()
    play_round(sheet)
    apply(sheet, "join", {"name": "Eve"})
    document = json.loads(dumps(sheet.to_record()))
    document["upriver_keep"]["evening"][part] = value
    refused = post(client, "/api/sheets/import", {"record": json.dumps(document)}, 400)
    assert refused["rule"] == "record"
    assert refused["error"].startswith(
        "not a game record: the kept evening under 'upriver_keep' cannot be read: "
    )
    assert said in refused["error"]
