"""Hostile input and a hostile host: each defect found on loopback, as a named regression test.

Every refusal is a clear error in the API's shape (``{"error", "field"/"rule"}``) with a 4xx
status, never a 500 or a traceback, and stores nothing; a refused WebSocket message gets an
error reply and the connection lives.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.conftest import manager_of
from tests.pg import query
from tests.webclient import Client, Room, create
from upriver.actions import Phase
from upriver.game import Game
from upriver.record import dumps, loads, record_of, replay
from upriver.rules import Rules
from upriver.web.app import create_app

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def client(db: str, caplog: pytest.LogCaptureFixture) -> Iterator[TestClient]:
    """A test client over a fresh database; no error (let alone a traceback) may be logged."""
    caplog.set_level(logging.WARNING)
    with TestClient(create_app(db, bot_delay=0.0)) as test_client:
        yield test_client
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text


def rows(db: str, table: str) -> int:
    """How many rows the database holds in ``table`` (read past the stores)."""
    ((count,),) = query(db, f"SELECT COUNT(*) FROM {table}")
    return int(str(count))


def post_raw(client: TestClient, path: str, body: str | bytes, **headers: str) -> Any:
    return client.post(path, content=body, headers={"content-type": "application/json", **headers})


# ------------------------------------------------------------------ malformed HTTP bodies


@pytest.mark.parametrize("path", ["/api/tables", "/api/sheets", "/api/sheets/import"])
def test_a_body_nested_5000_deep_is_a_400_naming_the_depth(client: TestClient, db: str, path: str) -> None:
    response = post_raw(client, path, '{"name": "Ann", "players": ' + DEEP + "}")
    assert response.status_code == 400, response.text
    assert "deep" in response.json()["error"] or "nest" in response.json()["error"]
    assert rows(db, "tables") == rows(db, "sheets") == 0


def test_a_record_holding_a_5000_digit_number_is_refused_on_import(client: TestClient, db: str) -> None:
    record = '{"format": "upriver-record", "version": 1, "seed": ' + "9" * 5000 + "}"
    for path, body in (
        ("/api/sheets/import", {"record": record}),
        ("/api/tables", {"name": "Ann", "record": record}),
    ):
        response = client.post(path, json=body)
        assert response.status_code == 400, response.text
        assert "number" in response.json()["error"]
        assert len(response.text) < 1000
    assert rows(db, "tables") == rows(db, "sheets") == 0


def test_a_surrogate_player_name_on_table_creation_is_refused_and_stores_nothing(
    client: TestClient, db: str
) -> None:
    response = post_raw(client, "/api/tables", '{"name": "Bea\\ud800", "seats": ["human", "basic", "basic"]}')
    assert response.status_code == 400, response.text
    assert response.json()["field"] == "name"
    assert rows(db, "tables") == 0


def test_a_surrogate_player_name_on_sheet_creation_is_refused_and_stores_nothing(
    client: TestClient, db: str
) -> None:
    response = post_raw(client, "/api/sheets", '{"players": ["Ann", "B\\ud800b", "Cid"], "dealer": 0}')
    assert response.status_code == 400, response.text
    assert response.json()["field"] == "players"
    assert rows(db, "sheets") == 0


def test_sheet_players_follow_the_one_name_rule(client: TestClient, db: str) -> None:
    for players, words in (
        (["Ann", " ann", "Cid"], "names must differ"),
        (["Ann", "B\nb", "Cid"], "control"),
    ):
        response = client.post("/api/sheets", json={"players": players, "dealer": 0})
        assert response.status_code == 400, response.text
        assert words in response.json()["error"]
    assert rows(db, "sheets") == 0


def test_a_cross_site_text_plain_post_is_refused(client: TestClient, db: str) -> None:
    body = json.dumps({"name": "Ann", "seats": ["human", "basic", "basic"]})
    plain = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
    assert plain.status_code == 415
    assert "application/json" in plain.json()["error"]
    evil = post_raw(client, "/api/tables", body, origin="https://evil.example")
    assert evil.status_code == 403
    assert "origin" in evil.json()["error"]
    sheet = client.post(
        "/api/sheets",
        content=json.dumps({"players": ["A", "B", "C"]}),
        headers={"content-type": "text/plain"},
    )
    assert sheet.status_code == 415
    assert rows(db, "tables") == rows(db, "sheets") == 0
    same = post_raw(client, "/api/tables", body, origin="http://testserver")
    assert same.status_code == 201


def test_a_cross_site_keeper_bid_is_refused(client: TestClient) -> None:
    sheet = client.post("/api/sheets", json={"players": ["A", "B", "C"], "dealer": 0}).json()
    response = client.post(
        f"/api/sheets/{sheet['id']}/bid",
        content=json.dumps({"seat": 1, "bid": 0}),
        headers={"content-type": "text/plain", "origin": "https://evil.example"},
    )
    assert response.status_code in (403, 415)
    assert client.get(f"/api/sheets/{sheet['id']}").json()["version"] == sheet["version"]


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/keep", "/static/app.js", "/api/options", "/api/tables/none/record"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_the_pages_use_no_inline_script_or_handler() -> None:
    from upriver.web.app import STATIC

    for page in STATIC.glob("*.html"):
        text = page.read_text()
        assert "<script>" not in text
        assert not re.search(r"\son[a-z]+\s*=", text), page
        for tag in text.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], page
        assert "style=" not in text, page


# ------------------------------------------------------------------ malformed WebSocket messages


def test_brackets_2000_deep_over_the_websocket_get_an_error_and_the_socket_lives(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[1])
    me = room.clients[0]
    me.ws.send_text("[" * 2000 + "]" * 2000)
    error = me.error()
    assert error["rule"] == "json"
    assert "deep" in error["message"]
    me.send(type="sync")
    assert me.state()["v"] == room.table.version


def test_a_lone_surrogate_in_a_moves_id_is_refused_and_the_socket_lives(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[1])
    seat = room.game.awaiting[0]
    member = room.clients[seat]
    bid = room.game.legal_bids(seat)[0]
    version = room.table.version
    member.ws.send_text(f'{{"type": "bid", "bid": {bid}, "v": {member.v}, "id": "c\\ud800"}}')
    assert member.error()["rule"] == "json"
    assert room.table.version == version
    member.act("bid", bid)
    assert room.settle(member)["v"] == version + 1


def test_a_lone_surrogate_in_a_join_name_is_refused_and_the_socket_lives(
    client: TestClient, stack: Any
) -> None:
    body = create(client, ["human", "human", "basic"], schedule=[1])
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    guest.state()
    guest.ws.send_text('{"type": "join", "name": "Bea\\ud800"}')
    error = guest.error()  # pydantic-core's reader refuses the surrogate before any name rule sees it
    assert error["rule"] == "json"
    assert "surrogate" in error["message"]
    assert table.names[1] is None
    guest.send(type="join", name="Bea")
    assert guest.state()["lobby"]["seats"][1]["name"] == "Bea"


def test_a_non_ascii_token_closes_the_websocket_with_4403(client: TestClient) -> None:
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}?token=%C3%A9") as ws:
        assert ws.receive_json()["rule"] == "token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_a_non_ascii_token_on_the_export_is_a_403(client: TestClient) -> None:
    table = create(client)["table"]
    response = client.get(f"/api/tables/{table}/record?token=%C3%A9")
    assert response.status_code == 403


def test_a_cross_site_websocket_is_refused(client: TestClient) -> None:
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}", headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["rule"] == "origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


# ------------------------------------------------------------------ names at a table


def test_two_people_cannot_both_join_as_ann(client: TestClient, stack: Any) -> None:
    body = create(client, ["human", "human", "human"], schedule=[1])  # the creator is "Ann"
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    guest.state()
    guest.send(type="join", name=" ann")
    error = guest.error()
    assert error["rule"] == "name"
    assert "names must differ" in error["message"]
    assert table.names[1] is None


def test_a_name_may_not_imitate_a_bots_label(client: TestClient, stack: Any) -> None:
    response = client.post("/api/tables", json={"name": "Dee (basic)", "seats": ["human", "basic", "basic"]})
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    body = create(client, ["human", "human", "basic"], schedule=[1])
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    guest.state()
    guest.send(type="join", name="Dee (basic)")
    assert guest.error()["rule"] == "name"
    guest.send(type="join", name="Bob (random)")
    assert "bot" in guest.error()["message"]
    assert table.names[1] is None


# ------------------------------------------------------------------ the host and the seats


def test_the_host_cannot_use_another_seats_token_after_that_person_joined(
    client: TestClient, stack: Any
) -> None:
    body = create(client, ["human", "human", "human"], schedule=[1, 1])
    table_id = body["table"]
    host = stack.enter_context(client.websocket_connect(f"/ws/{table_id}?token={body['token']}"))
    lobby = host.receive_json()["lobby"]
    invite = lobby["invites"][0]["url"].split("#token=")[1]
    guest = stack.enter_context(client.websocket_connect(f"/ws/{table_id}?token={invite}"))
    guest.receive_json()
    guest.send_text(json.dumps({"type": "join", "name": "Bea"}))
    answer = guest.receive_json()
    assert answer["type"] == "seat"
    own = answer["token"]
    assert own
    assert own != invite
    state = guest.receive_json()
    assert "token" not in state
    assert state["joined_pending"] is True
    # The host's lobby lists only the seat still open, and the invite opens nothing at once.
    seen = host.receive_json()
    while seen["v"] < state["v"]:  # (the host is sent the guest's presence first, at the same version)
        seen = host.receive_json()
    assert [i["seat"] for i in seen["lobby"]["invites"]] == [2]
    assert own not in json.dumps(seen)
    with client.websocket_connect(f"/ws/{table_id}?token={invite}") as stolen:
        refusal = stolen.receive_json()
        assert refusal["rule"] == "token"
        assert refusal["facts"] == {"reason": "taken", "seat": 1, "name": "Bea"}
    # The person opens their seat in a second tab with their own link.
    with client.websocket_connect(f"/ws/{table_id}?token={own}") as second:
        again = second.receive_json()
        assert again["seat"] == 1
        assert again["role"] == "player"


def test_a_connection_on_an_invite_is_closed_the_moment_someone_else_takes_the_seat(
    client: TestClient, stack: Any
) -> None:
    body = create(client, ["human", "human", "human"], schedule=[1])
    table = manager_of(client).tables[body["table"]]
    invite = table.tokens[1]
    lurker = stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={invite}"))
    lurker.receive_json()
    guest = stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={invite}"))
    guest.receive_json()
    guest.send_text(json.dumps({"type": "join", "name": "Bea"}))
    assert guest.receive_json()["type"] == "seat"
    while (message := lurker.receive_json())["type"] == "state":
        pass
    assert message["type"] == "error"
    assert message["rule"] == "token"
    assert message["facts"]["reason"] == "taken"
    with pytest.raises(WebSocketDisconnect) as closed:
        lurker.receive_json()
    assert closed.value.code == 4403


def test_the_host_revokes_an_unused_invite(client: TestClient, stack: Any) -> None:
    body = create(client, ["human", "human", "human"], schedule=[1])
    table_id = body["table"]
    host = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table_id}?token={body['token']}")),
        manager_of(client).tables[table_id],
        0,
    )
    old = host.state()["lobby"]["invites"][0]["url"].split("#token=")[1]
    host.send(type="revoke", seat=1)
    fresh = host.state()["lobby"]["invites"][0]["url"].split("#token=")[1]
    assert fresh != old
    with client.websocket_connect(f"/ws/{table_id}?token={old}") as revoked:
        refusal = revoked.receive_json()
        assert refusal["rule"] == "token"
        assert refusal["facts"] == {"reason": "revoked", "seat": 1, "name": None}
    with client.websocket_connect(f"/ws/{table_id}?token={fresh}") as invited:
        assert invited.receive_json()["seat"] == 1
    # Only the host revokes, and only an open seat.
    host.send(type="revoke", seat=0)
    assert host.error()["rule"] == "revoke"


def test_a_guest_cannot_revoke_an_invite(client: TestClient, stack: Any) -> None:
    body = create(client, ["human", "human", "human"], schedule=[1])
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    guest.state()
    guest.send(type="revoke", seat=2)
    assert guest.error()["rule"] == "revoke"


def mid_round_record(*, bids: bool) -> str:
    """A record that stops inside round 2: its hands dealt (as the creator wrote them), maybe bid."""
    game = Game(Rules.from_options({"schedule": [1, 2]}, player_count=3), ["Ann", "Bob", "Cid"], seed=5)
    while not game.results:
        game.move((game.legal_bids() or game.legal_cards())[0])
    while bids and game.phase is Phase.BIDDING:
        game.move(game.legal_bids()[0])
    return dumps(record_of(game))


def finished_round_record() -> str:
    """A record of round 1 of 2, finished, carrying a seed of its own (which the server must not use)."""
    game = Game(Rules.from_options({"schedule": [1, 1]}, player_count=3), ["Ann", "Bob", "Cid"], seed=5)
    while not game.results:
        game.move((game.legal_bids() or game.legal_cards())[0])
    record = record_of(game)
    data = json.loads(dumps(dataclasses.replace(record, rounds=record.rounds[:1])))
    data["seed"] = 5
    return json.dumps(data)


@pytest.mark.parametrize("bids", [False, True])
def test_a_saved_game_that_stops_inside_a_round_is_refused(client: TestClient, db: str, bids: bool) -> None:
    body = {"name": "Ann", "seats": ["human", "basic", "basic"], "record": mid_round_record(bids=bids)}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert "inside a round" in response.json()["error"]
    assert rows(db, "tables") == 0


def test_a_continued_game_deals_its_new_rounds_from_the_servers_secret_seed(client: TestClient) -> None:
    text = finished_round_record()
    body = {"name": "Ann", "seats": ["human", "basic", "basic"], "record": text}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table = manager_of(client).tables[response.json()["table"]]
    game = table.game
    assert game is not None
    assert game.round_number == 2
    assert game.seed == table.seed != 5
    again = replay(loads(text), seed=table.seed)
    again.deal()
    assert [game.dealt_hand(s) for s in range(3)] == [again.dealt_hand(s) for s in range(3)]


@pytest.mark.parametrize(
    ("method", "path", "field"),
    [
        ("get", "/api/tables/{table}/review?seat=0&round=abc&token=t", "round"),
        ("get", "/api/tables/{table}/review?seat=x&token=t", "seat"),
        ("post", "/api/tables/{table}/seats/zz/bot", "seat"),
    ],
)
def test_a_parameter_of_the_wrong_kind_is_a_400_in_the_apis_own_shape_naming_it(
    client: TestClient, method: str, path: str, field: str
) -> None:
    # A table that is there: for one that is not, every route's answer is the one 404 (test_web_api).
    path = path.format(table=create(client)["table"])
    answer = client.request(method, path, json={"token": "t", "kind": "basic"} if method == "post" else None)
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == field
    assert f"parameter {field!r} is not valid" in body["error"]
    assert "detail" not in body
