"""Groups through the HTTP API, signed in with a software authenticator (soft-webauthn), on SQLite and
PostgreSQL: members only (401 signed out, 403 to others), CSRF on every change, invite links that
expire and are revoked, leaving (shown as "a former member" on request) and removal, a web table
played for the group and a keeper evening attached to it, the standings, the CSV export neutralised
and the whole history as game records."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.webclient import ORIGIN, Person, group_with
from upriver.actions import Phase
from upriver.database import open_database
from upriver.record import loads
from upriver.sheet import spreadsheet_cell
from upriver.web.app import create_app
from upriver.web.groups.league import Player, game_result
from upriver.web.groups.store import GroupStore


@contextlib.contextmanager
def people(db: str, *names: str) -> Iterator[list[Person]]:
    """One app, and a browser (a client with its own cookies) signed in for each name."""
    with TestClient(create_app(db, bot_delay=0.0), base_url=ORIGIN) as client:
        yield [Person(client, name) for name in names]


def play_web_game(person: Person, group: str) -> str:
    """A one-card game at a table made for the group: the creator against three basic bots, played
    to the end over the WebSocket; the table's id."""
    made = person.post(
        f"/api/groups/{group}/tables",
        {"seats": ["human", "basic", "basic", "basic"], "options": {"preset": "classic", "max_cards": 1}},
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table"], made.json()["token"]
    table = manager_of(person.client).tables[table_id]
    ids = itertools.count()
    with person.client.websocket_connect(f"/ws/{table_id}?token={token}") as ws:
        while table.game is None or not table.game.is_over:
            message = ws.receive_json()
            game = table.game
            if message.get("type") != "state" or game is None or game.is_over or 0 not in game.awaiting:
                continue
            if message["v"] != table.version or table.committing is not None:
                continue
            if game.phase is Phase.BIDDING:
                ws.send_json(
                    {"type": "bid", "bid": game.legal_bids(0)[0], "v": message["v"], "id": f"m{next(ids)}"}
                )
            else:
                ws.send_json(
                    {
                        "type": "play",
                        "card": str(game.legal_cards(0)[0]),
                        "v": message["v"],
                        "id": f"m{next(ids)}",
                    }
                )
    return str(table_id)


def keeper_evening(person: Person, names: list[str]) -> str:
    """A two-round keeper sheet for four players at a real table, scored; its edit id."""
    made = person.post("/api/sheets", {"players": names, "preset": "classic", "max_cards": 1, "dealer": 0})
    assert made.status_code in (200, 201), made.text
    sheet = made.json()["id"]
    for _ in range(2):
        current = person.get(f"/api/sheets/{sheet}").json()["current"]
        person.post(f"/api/sheets/{sheet}/bids", {"bids": [0, 0, 0, 0]})  # no hook: the bids total 0
        tricks = [0] * 4
        tricks[current["bidding_order"][0]] = current["hand_size"]
        done = person.post(f"/api/sheets/{sheet}/tricks", {"tricks": tricks})
        assert done.status_code == 200, done.text
    return str(sheet)


def test_standings_answer_members_only_401_signed_out_and_403_to_another_account(db: str) -> None:
    with people(db, "Ann", "Bob") as (ann, bob):
        group = group_with(ann)
        assert ann.get(f"/api/groups/{group}/standings").status_code == 200
        assert bob.get(f"/api/groups/{group}/standings").status_code == 403
        assert bob.get(f"/api/groups/{group}/history").status_code == 403
        assert bob.get(f"/api/groups/{group}/standings.csv").status_code == 403
        bob.post("/api/account/signout")
        answer = bob.get(f"/api/groups/{group}/standings")
        assert answer.status_code == 401
        assert answer.json()["rule"] == "signed out"


def test_every_change_needs_the_sessions_csrf_token(db: str) -> None:
    with people(db, "Ann") as (ann,):
        assert ann.post("/api/groups", {"name": "Family"}, csrf=False).status_code == 403
        group = group_with(ann)
        refused = ann.post(f"/api/groups/{group}/invites", {"days": 7}, csrf=False)
        assert refused.status_code == 403
        assert refused.json()["rule"] == "csrf"
        assert ann.post(f"/api/groups/{group}/leave", {}, csrf=False).status_code == 403


def test_an_invite_link_joins_once_it_is_revoked_it_opens_nothing(db: str) -> None:
    with people(db, "Ann", "Bob", "Cid") as (ann, bob, cid):
        group = group_with(ann, bob)
        link = ann.post(f"/api/groups/{group}/invites", {"days": 1}).json()
        revoked = ann.send("DELETE", f"/api/groups/{group}/invites/{link['id']}")
        assert revoked.status_code == 200
        refused = cid.post(f"/api/groups/{group}/join", {"invite": link["invite"]})
        assert (refused.status_code, refused.json()["reason"]) == (409, "revoked")
        assert cid.get(f"/api/groups/{group}").status_code == 403
        assert bob.post(f"/api/groups/{group}/invites", {"days": 1}).status_code == 403  # not an admin


def test_an_invite_link_opens_nothing_once_it_expired(db: str) -> None:
    clock = [1000.0]
    store = GroupStore(open_database(db), now=lambda: clock[0])
    try:
        group = store.create("Family", "u1", "Ann")
        _invite, secret = store.new_invite(group.id, 86_400)
        assert store.invite_opens(group.id, secret) == "open"
        clock[0] += 86_400
        assert store.invite_opens(group.id, secret) == "expired"
        assert store.invite_opens(group.id, "not-a-secret") == "unknown"
    finally:
        store.close()


def test_a_web_table_and_a_keeper_evening_for_the_group_make_its_standings_and_history(db: str) -> None:
    with people(db, "Ann", "Bob") as (ann, bob):
        group = group_with(ann, bob)
        table = play_web_game(ann, group)
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        seats = [{"kind": "member", "member": ann.id}, {"kind": "member", "member": bob.id},
                 {"kind": "guest"}, {"kind": "guest"}]  # fmt: skip
        attached = ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
        assert attached.status_code == 201, attached.text

        history = bob.get(f"/api/groups/{group}/history").json()["games"]
        assert [game["kind"] for game in history] == ["web", "keeper"]
        web = history[0]
        assert [p["kind"] for p in web["players"]] == ["member", "bot", "bot", "bot"]
        assert web["review"] == f"/t/{table}"
        results = [game_result(loads(bob.get(game["record"]).text)) for game in history]
        ann_points = results[0].totals[0] + results[1].totals[0]
        bob_points = results[1].totals[1]

        body = bob.get(f"/api/groups/{group}/standings").json()
        rows = {row["name"]: row for row in body["standings"]}
        assert set(rows) == {"Ann", "Bob"}
        assert (rows["Ann"]["games"], rows["Ann"]["points"]) == (2, ann_points)
        assert (rows["Bob"]["games"], rows["Bob"]["points"]) == (1, bob_points)
        assert body["running"][ann.id][-1] == ann_points
        assert rows["Ann"]["rating"]["sigma"] > 0

        versus = bob.get(f"/api/groups/{group}/head-to-head?a={ann.id}&b={bob.id}").json()
        assert versus["games"] == 1


def test_a_member_who_leaves_keeps_their_results_shown_as_a_former_member_when_they_ask(db: str) -> None:
    with people(db, "Ann", "Bob") as (ann, bob):
        group = group_with(ann, bob)
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        seats = [{"kind": "member", "member": ann.id}, {"kind": "member", "member": bob.id},
                 {"kind": "guest"}, {"kind": "guest"}]  # fmt: skip
        ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
        assert bob.post(f"/api/groups/{group}/leave", {"former": True}).status_code == 200
        assert bob.get(f"/api/groups/{group}/standings").status_code == 403
        names = [row["name"] for row in ann.get(f"/api/groups/{group}/standings").json()["standings"]]
        assert sorted(names) == ["Ann", "a former member"]
        players = ann.get(f"/api/groups/{group}/games").json()["games"][0]["players"]
        assert [p["name"] for p in players] == ["Ann", "a former member", "Gus", "Hal"]


def test_an_admin_removes_a_member_and_a_member_may_not(db: str) -> None:
    with people(db, "Ann", "Bob", "Cid") as (ann, bob, cid):
        group = group_with(ann, bob, cid)
        assert bob.send("DELETE", f"/api/groups/{group}/members/{cid.id}").status_code == 403
        assert ann.send("DELETE", f"/api/groups/{group}/members/{cid.id}").status_code == 200
        assert cid.get(f"/api/groups/{group}/standings").status_code == 403
        members = {m["name"]: m["left"] for m in ann.get(f"/api/groups/{group}").json()["members"]}
        assert members["Cid"] is not None
        assert members["Bob"] is None


def test_the_csv_export_neutralises_cells_a_spreadsheet_would_run(db: str) -> None:
    with people(db, "=HYPERLINK(1)", "Bob") as (ann, bob):
        group = group_with(ann, bob)
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        seats = [{"kind": "member", "member": ann.id}, {"kind": "member", "member": bob.id},
                 {"kind": "guest"}, {"kind": "guest"}]  # fmt: skip
        ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
        text = bob.get(f"/api/groups/{group}/standings.csv").text
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][0] == "name"
        assert "'=HYPERLINK(1)" in [row[0] for row in rows[1:]]
        assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    cells = [spreadsheet_cell(v) for v in ("+x", "-x", "@a", "=1+1", "ok", "-3", "-1.5")]
    assert cells == ["'+x", "'-x", "'@a", "'=1+1", "ok", "-3", "-1.5"]


def test_a_keeper_evening_maps_each_member_once(db: str) -> None:
    with people(db, "Ann") as (ann,):
        group = group_with(ann)
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        twice = [{"kind": "member", "member": ann.id}] * 2 + [{"kind": "guest"}] * 2
        refused = ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": twice})
        assert (refused.status_code, refused.json()["field"]) == (400, "seats")


@pytest.mark.parametrize("season", [{"name": "Spring", "start": "2024-03-01", "end": "2024-05-31"}])
def test_an_admin_sets_a_season_and_its_standings_count_only_its_dates(
    db: str, season: dict[str, str]
) -> None:
    with people(db, "Ann") as (ann,):
        group = group_with(ann)
        made = ann.post(f"/api/groups/{group}/seasons", season)
        assert made.status_code == 201, made.text
        spring = made.json()["seasons"][0]
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        seats = [{"kind": "member", "member": ann.id}] + [{"kind": "guest"}] * 3
        ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
        assert ann.get(f"/api/groups/{group}/standings").json()["standings"][0]["games"] == 1  # this year
        spring_rows = ann.get(f"/api/groups/{group}/standings?season={spring['id']}").json()
        assert spring_rows["standings"] == []
        assert spring_rows["season"]["name"] == "Spring"


def test_the_next_game_night_is_shown_to_members(db: str) -> None:
    with people(db, "Ann", "Bob") as (ann, bob):
        group = group_with(ann, bob)
        answer = ann.send("PUT", f"/api/groups/{group}/next", {"date": "2030-01-02", "link": "/t/abc"})
        assert answer.status_code == 200, answer.text
        assert bob.get(f"/api/groups/{group}").json()["next"] == {"date": "2030-01-02", "link": "/t/abc"}


def test_standings_and_games_are_fresh_after_another_server_process_wrote(db: str) -> None:
    with people(db, "Ann", "Bob") as (ann, bob):
        group = group_with(ann, bob)
        sheet = keeper_evening(ann, ["Ann", "Bob", "Gus", "Hal"])
        seats = [{"kind": "member", "member": ann.id}, {"kind": "member", "member": bob.id},
                 {"kind": "guest"}, {"kind": "guest"}]  # fmt: skip
        ann.post(f"/api/groups/{group}/evenings", {"sheet": sheet, "seats": seats})
        first = ann.get(f"/api/groups/{group}/games").json()["games"][0]
        text = ann.get(first["record"]).text
        result = game_result(loads(text))
        assert {
            r["name"]: r["games"] for r in ann.get(f"/api/groups/{group}/standings").json()["standings"]
        } == {
            "Ann": 1,
            "Bob": 1,
        }

        other = GroupStore(open_database(db))  # another server process, on the same database
        try:
            bob_alone = (Player("guest"), Player("member", bob.id), Player("guest"), Player("guest"))
            added = other.add_game(
                group, "keeper", "another-sheet", first["played"] + 1, text, result, bob_alone
            )
            body = ann.get(f"/api/groups/{group}/standings").json()
            rows = {row["name"]: row for row in body["standings"]}
            assert (rows["Ann"]["games"], rows["Bob"]["games"]) == (1, 2)
            assert rows["Bob"]["points"] == 2 * result.totals[1]
            assert body["games"][-1]["id"] == added
            assert ann.get(f"/api/groups/{group}/games").json()["games"][0]["id"] == added

            swapped = (Player("member", bob.id), Player("member", ann.id), Player("guest"), Player("guest"))
            other.finish_game(group, first["id"], first["played"], text, result, swapped)  # seats corrected
            rows = {row["name"]: row for row in ann.get(f"/api/groups/{group}/standings").json()["standings"]}
            assert rows["Ann"]["points"] == result.totals[1]
            assert rows["Bob"]["points"] == result.totals[0] + result.totals[1]
            players = ann.get(f"/api/groups/{group}/games").json()["games"][1]["players"]
            assert [p["name"] for p in players[:2]] == ["Bob", "Ann"]

            other.leave(group, bob.id, former=True)  # the numbers kept, the name as it is now
            rows = {
                row["member"]: row for row in ann.get(f"/api/groups/{group}/standings").json()["standings"]
            }
            assert (rows[bob.id]["name"], rows[bob.id]["games"]) == ("a former member", 2)
        finally:
            other.close()
