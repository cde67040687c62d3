"""A seat's secret changes hands only as its person or the host means it to: a lost join is recovered
by its page for a bounded time, across a restart, and then never; "sign out my other devices" gives
the asking page a new token and closes the others; the host re-invites the seat of a person who is
away (never while they are connected), the old token dead at once; and every token that opens nothing
any more says why, over the WebSocket and the API."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from tests.conftest import manager_of
from upriver.web.app import create_app
from upriver.web.seats.keys import JOIN_RECOVERY_SECONDS


class Clock:
    """The server's time: the real time, moved on by what the test adds to ``offset``."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def open_seat(
    client: TestClient, stack: contextlib.ExitStack, table: str, token: str
) -> WebSocketTestSession:
    ws: WebSocketTestSession = stack.enter_context(client.websocket_connect(f"/ws/{table}?token={token}"))
    return ws


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the others are passed over)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def refusal_of(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """What opening ``token`` answers: the error (rule ``token``) before the close 4403."""
    with client.websocket_connect(f"/ws/{table}?token={token}") as ws:
        error: dict[str, Any] = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403
    assert error["rule"] == "token"
    return error


def invite_of(client: TestClient, stack: contextlib.ExitStack, table: str, host: str, seat: int) -> str:
    lobby = next_of(open_seat(client, stack, table, host), "state")["lobby"]
    url: str = next(i["url"] for i in lobby["invites"] if i["seat"] == seat)
    return url.split("#token=")[1]


def joined(ws: WebSocketTestSession, name: str, secret: str = "the page's own secret, 32 chars") -> str:
    """Join with the proof of ``secret``; the seat's token (the ``seat`` message)."""
    proof = hashlib.sha256(secret.encode()).hexdigest()
    ws.send_text(json.dumps({"type": "join", "name": name, "proof": proof}))
    token = next_of(ws, "seat")["token"]
    assert isinstance(token, str)
    return token


def test_a_lost_join_is_recovered_within_its_window_even_after_a_restart_and_never_after(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    clock = Clock()
    path = tmp_path / "tables.db"
    with TestClient(create_app(path, bot_delay=0.0, now=clock)) as first, contextlib.ExitStack() as before:
        body = first.post("/api/tables", json={"name": "Ann", "seats": ["human", "human", "basic"]}).json()
        table = body["table"]
        invite = invite_of(first, before, table, body["token"], 1)
        secret = "a secret only the joining page holds"
        with first.websocket_connect(f"/ws/{table}?token={invite}") as page:
            page.receive_json()
            token = joined(page, "Bea", secret)  # the answer reaches a page that is then lost
        ask = {"invite": invite, "secret": secret}
        clock.offset += JOIN_RECOVERY_SECONDS - 1
        answer = first.post(f"/api/tables/{table}/recover", json=ask)
        assert answer.status_code == 200
        assert answer.json()["token"] == token
    # A restarted server knows the join, when it was stored and its proof.
    second = stack.enter_context(TestClient(create_app(path, bot_delay=0.0, now=clock)))
    assert second.post(f"/api/tables/{table}/recover", json=ask).json()["token"] == token
    clock.offset += 2
    late = second.post(f"/api/tables/{table}/recover", json=ask)
    assert late.status_code == 403
    assert late.json()["rule"] == "recover"
    assert "Bea took the seat" in late.json()["error"]


def test_a_join_without_a_proof_or_with_a_malformed_one(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    body = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "human", "human"]}).json()
    table = body["table"]
    [first, second] = [invite_of(client, stack, table, body["token"], seat) for seat in (1, 2)]
    page = open_seat(client, stack, table, first)
    page.receive_json()
    page.send_text(json.dumps({"type": "join", "name": "Bea", "proof": "not a hash"}))
    error = next_of(page, "error")
    assert error["rule"] == "field"
    assert error["facts"] == {"field": "proof"}
    assert manager_of(client).tables[table].names[1] is None  # nothing changed
    # Without a proof the join works; nothing can recover it.
    plain = open_seat(client, stack, table, second)
    plain.receive_json()
    plain.send_text(json.dumps({"type": "join", "name": "Cid"}))
    assert next_of(plain, "seat")["seat"] == 2
    tries = client.post(f"/api/tables/{table}/recover", json={"invite": second, "secret": "x" * 32})
    assert tries.status_code == 403


def test_signing_out_other_devices_gives_the_asking_page_a_new_token_and_closes_the_others(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    body = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]}).json()
    table, old = body["table"], body["token"]
    laptop = open_seat(client, stack, table, old)
    phone = open_seat(client, stack, table, old)
    next_of(laptop, "state")
    next_of(phone, "state")
    phone.send_text(json.dumps({"type": "rekey"}))
    new = next_of(phone, "seat")["token"]
    assert new != old
    error = next_of(laptop, "error")
    assert error["facts"] == {"reason": "moved", "seat": 0, "name": "Ann"}
    with pytest.raises(WebSocketDisconnect) as closed:
        laptop.receive_json()
    assert closed.value.code == 4403
    assert refusal_of(client, table, old)["facts"]["reason"] == "moved"
    summary = client.get(f"/api/tables/{table}", params={"token": old})
    assert summary.status_code == 403
    assert summary.json()["reason"] == "moved"
    assert client.get(f"/api/tables/{table}", params={"token": new}).json()["seat"] == 0
    phone.send_text(json.dumps({"type": "sync"}))
    assert next_of(phone, "state")["seat"] == 0  # the page that asked keeps its connection


def test_the_host_reinvites_the_seat_of_a_person_who_is_away_and_the_new_invite_takes_it_back(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    body = client.post(
        "/api/tables", json={"name": "Ann", "seats": ["human", "human", "basic"], "schedule": [3, 3]}
    ).json()
    table = body["table"]
    live = manager_of(client).tables[table]
    host = open_seat(client, stack, table, body["token"])
    next_of(host, "state")
    invite = invite_of(client, stack, table, body["token"], 1)
    with client.websocket_connect(f"/ws/{table}?token={invite}") as bea:
        bea.receive_json()
        lost = joined(bea, "Bea")
        bea.send_text(json.dumps({"type": "confirm"}))
        # While Bea is connected the host may not re-invite her seat.
        host.send_text(json.dumps({"type": "reinvite", "seat": 1}))
        refused = next_of(host, "error")
        assert refused["rule"] == "reinvite"
        assert "connected" in refused["message"]
    tenure = live.keys.tenure[1]
    assert live.holder_token(1, tenure) == lost
    host.send_text(json.dumps({"type": "reinvite", "seat": 1}))
    invites: list[dict[str, Any]] = []
    notices: list[tuple[str, dict[str, int]]] = []
    while not invites or not notices:
        message = host.receive_json()
        if message["type"] == "state":
            invites = [i for i in message["lobby"].get("invites", []) if i["seat"] == 1]
        elif message["type"] == "chat":
            notices += [
                (line["event"], line["facts"]) for line in message["lines"] if line["kind"] == "system"
            ]
    assert notices == [("reinvited", {"seat": 1, "by": 0})]
    fresh = invites[0]["url"].split("#token=")[1]
    assert refusal_of(client, table, lost)["facts"] == {"reason": "reinvited", "seat": 1, "name": "Bea"}
    assert live.holder_token(1, tenure) is None  # an account bound to the old tenure no longer opens it
    # Whoever opens the new invite is offered the seat, and takes it back under Bea's name.
    back = open_seat(client, stack, table, fresh)
    offered = next_of(back, "state")
    assert offered["invited"] is True
    # Until it is taken the link only offers the seat: no hand, no move, no line in the chat as Bea.
    assert offered["game"]["hand"] == []
    assert offered["game"]["bid_options"] == []
    back.send_text(json.dumps({"type": "bid", "bid": 0, "v": offered["v"], "id": "b1"}))
    assert next_of(back, "error")["rule"] == "join"
    back.send_text(json.dumps({"type": "chat", "text": "hello as Bea"}))
    assert next_of(back, "error")["facts"]["case"] == "join"
    token = joined(back, "Someone else")
    assert next_of(back, "state")["game"]["hand"] != []
    assert live.names[1] == "Bea"
    assert live.game is not None
    assert live.game.players[1] == "Bea"
    assert refusal_of(client, table, fresh)["facts"]["reason"] == "taken"
    assert live.holder_token(1, live.keys.tenure[1]) == token


def test_only_the_host_reinvites_and_never_their_own_seat_or_a_bots(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    body = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "human", "basic"]}).json()
    table = body["table"]
    invite = invite_of(client, stack, table, body["token"], 1)
    bea = open_seat(client, stack, table, invite)
    bea.receive_json()
    joined(bea, "Bea")
    bea.send_text(json.dumps({"type": "reinvite", "seat": 0}))
    assert next_of(bea, "error")["rule"] == "reinvite"
    host = open_seat(client, stack, table, body["token"])
    for seat in (0, 2):
        host.send_text(json.dumps({"type": "reinvite", "seat": seat}))
        assert next_of(host, "error")["rule"] == "reinvite"
    assert manager_of(client).tables[table].keys.reinvited == set()
