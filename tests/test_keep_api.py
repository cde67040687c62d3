"""The score keeper's HTTP API and its store, through FastAPI's test client and the real app, on SQLite
and on PostgreSQL (``db``: ``tests/pg.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from upriver import preset
from upriver.keeper import KeptSheet
from upriver.keeper.store import StaleSheetError, open_sheet_store
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS
from upriver.web.app import create_app

NAMES = ["Ann", "Bob", "Cid", "Dee"]
HOOK = {"players": NAMES, "preset": "classic-hook", "schedule": [1, 2, 1], "dealer": 0}


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def first_round(client: TestClient, sheet: dict[str, Any]) -> dict[str, Any]:
    base = f"/api/sheets/{sheet['id']}"
    for seat in (1, 2, 3, 0):
        sheet = post(client, f"{base}/bid", {"seat": seat, "bid": 0})
    return post(client, f"{base}/tricks", {"tricks": [1, 0, 0, 0]})


def test_a_sheet_is_created_filled_in_and_scored_by_the_engine(client: TestClient) -> None:
    sheet = post(client, "/api/sheets", HOOK, 201)
    assert sheet["phase"] == "bidding"
    assert sheet["current"]["bidding_order"] == [1, 2, 3, 0]
    sheet = first_round(client, sheet)
    assert sheet["sheet"]["totals"] == [0, 10, 10, 10]
    assert sheet["sheet"]["headline"] == "Bob, Cid and Dee lead with 10"
    (row,) = sheet["sheet"]["rows"]
    assert (row["status"], row["dealer"], row["hand_size"]) == ("scored", 0, 1)
    assert [cell["total"] for cell in row["cells"]] == [0, 10, 10, 10]
    assert [cell["made"] for cell in row["cells"]] == [False, True, True, True]


def test_a_refused_entry_is_a_400_with_the_engines_message_and_rule(client: TestClient) -> None:
    sheet = post(client, "/api/sheets", HOOK, 201)
    base = f"/api/sheets/{sheet['id']}"
    for seat, bid in ((1, 1), (2, 0), (3, 0)):
        sheet = post(client, f"{base}/bid", {"seat": seat, "bid": bid})
    assert sheet["current"]["restriction"] == {
        "rule": "hook",
        "seat": 0,
        "tricks": 1,
        "others": 1,
        "forbidden": [0],
        "allowed": [1],
        "reason": "with the hook, the bids may not total 1, the number of tricks (the others bid 1)",
    }
    refused = post(client, f"{base}/bid", {"seat": 0, "bid": 0}, 400)
    assert refused["rule"] == "hook"
    assert refused["seat"] == 0
    assert refused["facts"] == {"bid": 0, "tricks": 1, "others": 1, "allowed": [1]}
    assert refused["error"].startswith("Ann may not bid 0: with the hook")
    assert (
        post(client, f"{base}/bid", {"seat": 0, "bid": "one"}, 400)["error"]
        == "'bid' must be a whole number, not 'one'"
    )


def test_everything_entered_survives_a_restart_of_the_server(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as client:
        sheet = first_round(client, post(client, "/api/sheets", HOOK, 201))
    with TestClient(create_app(db, bot_delay=0)) as client:
        again = client.get(f"/api/sheets/{sheet['id']}").json()
        assert again["sheet"]["totals"] == [0, 10, 10, 10]
        assert again["version"] == sheet["version"]
        undone = post(client, f"/api/sheets/{sheet['id']}/undo", {})
        assert undone["phase"] == "tricks"


def test_a_write_from_an_older_version_is_refused_as_stale(client: TestClient) -> None:
    sheet = post(client, "/api/sheets", HOOK, 201)
    base = f"/api/sheets/{sheet['id']}"
    post(client, f"{base}/bid", {"seat": 1, "bid": 0, "version": sheet["version"]})
    stale = post(client, f"{base}/bid", {"seat": 2, "bid": 0, "version": sheet["version"]}, 409)
    assert stale["rule"] == "stale"


def test_the_store_refuses_a_second_writer_that_read_the_same_version(db: str) -> None:
    one, two = open_sheet_store(db), open_sheet_store(db)
    try:
        rules = preset("countdown", 4, max_cards=2)
        stored = one.create(KeptSheet.start(NAMES, rules, dealer=0))
        mine, theirs = one.load(stored.id), two.load(stored.id)
        assert mine is not None
        assert theirs is not None
        mine.sheet.enter_bid(1, 0)
        one.save(mine, mine.sheet, "bid")
        theirs.sheet.enter_bid(1, 1)
        with pytest.raises(StaleSheetError, match="the sheet changed"):
            two.save(theirs, theirs.sheet, "bid")
        reread = two.load(stored.id)
        assert reread is not None
        assert reread.sheet.bids[1] == 0
    finally:
        one.close()
        two.close()


def test_the_share_link_reads_the_sheet_but_hides_the_edit_id(client: TestClient) -> None:
    sheet = first_round(client, post(client, "/api/sheets", HOOK, 201))
    shared = client.get(f"/api/sheets/shared/{sheet['share']}").json()
    assert shared["id"] is None
    assert shared["read_only"] is True
    assert shared["sheet"] == sheet["sheet"]
    assert client.get(f"/api/sheets/shared/{sheet['share']}/csv").text.startswith("round,cards,dealer")
    assert client.post(f"/api/sheets/{sheet['share']}/undo", json={}).status_code == 404
    assert client.get(f"/keep/view/{sheet['share']}").status_code == 200


def test_edit_export_and_import_round_trip(client: TestClient) -> None:
    sheet = first_round(client, post(client, "/api/sheets", HOOK, 201))
    sheet = post(client, f"/api/sheets/{sheet['id']}/rounds/1", {"tricks": [0, 1, 0, 0]})
    assert sheet["sheet"]["totals"] == [10, 0, 10, 10]
    record = client.get(f"/api/sheets/{sheet['id']}/record").text
    imported = post(client, "/api/sheets/import", {"record": record}, 201)
    assert imported["id"] != sheet["id"]
    assert imported["sheet"]["totals"] == [10, 0, 10, 10]
    assert imported["current"]["number"] == 2
    broken = post(
        client, "/api/sheets/import", {"record": record.replace('"tricks": [0, 1', '"tricks": [1, 1')}, 400
    )
    assert "rule broken: round 1: the tricks add up to 2" in broken["error"]


def test_a_first_jack_sheet_waits_for_the_jack(client: TestClient) -> None:
    sheet = post(client, "/api/sheets", {"players": NAMES, "preset": "classic", "max_cards": 2}, 201)
    assert sheet["phase"] == "jack"
    assert sheet["jack_from"] == 0
    refused = post(client, f"/api/sheets/{sheet['id']}/bid", {"bid": 0}, 400)
    assert "until a Jack shows" in refused["error"]
    sheet = post(client, f"/api/sheets/{sheet['id']}/jack", {"seat": 3})
    assert sheet["current"]["dealer"] == 3


def test_bad_starts_are_refused_with_a_reason(client: TestClient) -> None:
    for names in (NAMES[: MIN_PLAYERS - 1], [f"P{i}" for i in range(MAX_PLAYERS + 1)]):
        refused = post(client, "/api/sheets", {"players": names}, 400)
        assert refused["error"] == f"a sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}"
    assert (
        "most for 8 players is 6"
        in post(client, "/api/sheets", {"players": list("ABCDEFGH"), "max_cards": 9}, 400)["error"]
    )
    assert client.get("/api/sheets/nope").status_code == 404


def test_the_share_link_shows_no_closed_fist_bid_before_everyone_has_bid(client: TestClient) -> None:
    body = {"players": NAMES, "preset": "closed-fists", "max_cards": 2, "dealer": 0}
    sheet = post(client, "/api/sheets", body, 201)
    sheet = post(client, f"/api/sheets/{sheet['id']}/bid", {"seat": 1, "bid": 1})
    assert sheet["current"]["bids"] == [None, 1, None, None]  # the keeper typed it
    shared = client.get(f"/api/sheets/shared/{sheet['share']}").json()
    assert shared["current"]["bids"] == [None, None, None, None]
    assert all(cell["bid"] is None for cell in shared["sheet"]["rows"][-1]["cells"])
