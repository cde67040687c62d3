"""The join is safe and made whole: a seat's new token goes to the joining connection and nobody else
— not a connection the host opened on the invite before the join, not a second tab left open on it,
not anyone who opens the invite afterwards, before or after a restart — and a join whose answer is
lost (the connection cut 20 times, or the server killed with SIGKILL) is recovered by the page that
sent it, with the secret whose SHA-256 it sent, and by nobody else; over PostgreSQL with two server
processes too. Real `upriver serve` processes, real sockets; and a turn clock over PostgreSQL run by
one of two server processes."""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import socket
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.live import Server
from tests.pg import query
from tests.waiting import receive_until, wait_until

pytestmark = pytest.mark.slow


def state_of(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    """The next state message (chat lines, reactions and a ``seat`` message are passed over)."""

    def a_state(message: dict[str, Any]) -> bool:
        assert message["type"] != "error", message
        return bool(message["type"] == "state")

    return receive_until(ws, a_state, "a state", timeout=timeout)


def proof(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def join(ws: ClientConnection, name: str) -> tuple[str, str]:
    """Send a join with the proof of a new secret; the secret and the token the ``seat`` message brings."""
    secret = secrets.token_hex(16)
    ws.send(json.dumps({"type": "join", "name": name, "proof": proof(secret)}))
    while True:
        message = json.loads(ws.recv(timeout=15))
        assert message["type"] != "error", message
        if message["type"] == "seat":
            return secret, str(message["token"])


def stored_join(db: Path, table: str, seat: int) -> bool:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM events WHERE table_id = ? AND kind = 'join' AND seat = ?", (table, seat)
        ).fetchone()
    return bool(row[0])


def join_and_cut(server: Server, db: Path, table: str, seat: int, invite: str, name: str) -> str:
    """Open the seat with its invite, send a join with a proof, wait until the join is stored, and cut
    the connection without reading the answer (no closing handshake); the page's secret."""
    ws = server.socket(table, invite)
    state_of(ws)
    secret = secrets.token_hex(16)
    ws.send(json.dumps({"type": "join", "name": name, "proof": proof(secret)}))
    wait_until(lambda: stored_join(db, table, seat), "the join to be stored", timeout=10)
    ws.socket.shutdown(socket.SHUT_RDWR)
    ws.socket.close()
    return secret


def refused(ws: ClientConnection, secrets_seen: list[str] | None = None) -> dict[str, Any]:
    """Read until the server closes ``ws`` with 4403; the ``error`` that said why (rule ``token``). Every
    message read is added to ``secrets_seen`` as text, to look for a token in it."""
    error: dict[str, Any] | None = None
    code: int | None = None
    while code is None:
        try:
            text = ws.recv(timeout=10)
        except ConnectionClosed as closed:
            code = -1 if closed.rcvd is None else closed.rcvd.code
            break
        if secrets_seen is not None:
            secrets_seen.append(str(text))
        message = json.loads(text)
        if message["type"] == "error":
            error = message
    assert code == 4403
    assert error is not None
    assert error["rule"] == "token"
    return error


def refused_token(server: Server, table: str, token: str) -> dict[str, Any]:
    """The token opens nothing: an error with rule ``token`` saying why, then the close code 4403."""
    return refused(server.socket(table, token))


def recovery(server: Server, table: str, invite: str, secret: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables/{table}/recover", json={"invite": invite, "secret": secret})


def recover(server: Server, table: str, seat: int, invite: str, secret: str, name: str) -> str:
    """The invite opens nothing; another secret recovers nothing; the page's own secret gets the seat's
    token, which opens the seat; once confirmed, the secret recovers nothing either. The token."""
    assert refused_token(server, table, invite)["facts"] == {"reason": "taken", "seat": seat, "name": name}
    stranger = recovery(server, table, invite, secrets.token_hex(16))
    assert stranger.status_code == 403
    assert stranger.json()["rule"] == "recover"
    answer = recovery(server, table, invite, secret)
    assert answer.status_code == 200, answer.text
    token = str(answer.json()["token"])
    assert answer.json()["seat"] == seat
    assert token != invite
    ws = server.socket(table, token)
    state = state_of(ws)
    assert state["seat"] == seat
    assert state["joined_pending"] is True
    assert state["lobby"]["seats"][seat]["name"] == name
    ws.send(json.dumps({"type": "confirm"}))
    while state["joined_pending"]:
        state = state_of(ws)
    assert recovery(server, table, invite, secret).status_code == 403
    ws.send(json.dumps({"type": "sync"}))
    assert state_of(ws)["seat"] == seat
    return token


def invites_of(server: Server, body: dict[str, Any]) -> list[tuple[int, str]]:
    host = server.socket(body["table"], body["token"])
    invites = state_of(host)["lobby"]["invites"]
    return [(invite["seat"], invite["url"].split("#token=")[1]) for invite in invites]


def test_a_join_whose_answer_is_lost_is_recovered_by_its_own_page_alone_twenty_times_out_of_twenty(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    db = tmp_path / "tables.db"
    server = Server(str(db), stack, bot_delay=0.0)
    tries = 0
    while tries < 20:
        body = server.create(["human"] * 8, schedule=[1])
        for seat, invite in invites_of(server, body)[: 20 - tries]:
            secret = join_and_cut(server, db, body["table"], seat, invite, f"P{seat}")
            recover(server, body["table"], seat, invite, secret, f"P{seat}")
            tries += 1


def test_connections_open_on_the_invite_before_the_join_are_closed_and_never_see_the_new_token(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    server = Server(str(tmp_path / "tables.db"), stack, bot_delay=0.0)
    for _ in range(5):
        body = server.create(["human", "human", "basic"], schedule=[1, 1])
        [(seat, invite)] = invites_of(server, body)
        host_copy = server.socket(body["table"], invite)  # the host saw every invite
        second_tab = server.socket(body["table"], invite)  # a tab left open on a link shared in a group chat
        joining = server.socket(body["table"], invite)
        for ws in (host_copy, second_tab, joining):
            assert state_of(ws)["seat"] == seat
        _, token = join(joining, "Bea")
        for ws in (host_copy, second_tab):
            seen: list[str] = []
            error = refused(ws, seen)
            assert error["facts"] == {"reason": "taken", "seat": seat, "name": "Bea"}
            assert not any(token in text for text in seen)
        assert state_of(server.socket(body["table"], token))["seat"] == seat


def test_a_join_stored_just_before_the_server_is_killed_is_recovered_by_its_page_after_the_restart(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    db = tmp_path / "tables.db"
    first = Server(str(db), stack, bot_delay=0.0)
    body = first.create(["human", "human", "basic"], schedule=[1])
    [(_, invite)] = invites_of(first, body)
    ws = first.socket(body["table"], invite)
    state_of(ws)
    secret = secrets.token_hex(16)
    ws.send(json.dumps({"type": "join", "name": "Bea", "proof": proof(secret)}))
    wait_until(lambda: stored_join(db, body["table"], 1), "the join to be stored", timeout=10)
    first.kill()  # SIGKILL right after the join is stored, before its answer is read
    second = Server(str(db), stack, bot_delay=0.0)
    # The host, who saw the invite, opens it after the restart: the seat is taken, and no token comes.
    seen: list[str] = []
    assert refused(second.socket(body["table"], invite), seen)["facts"]["reason"] == "taken"
    token = recover(second, body["table"], 1, invite, secret, "Bea")
    assert not any(token in text for text in seen)
    # The join started the game, and the seat's own token opens the seat in the API too.
    assert state_of(second.socket(body["table"], token))["game"] is not None
    summary = httpx.get(f"{second.url}/api/tables/{body['table']}", params={"token": token}).json()
    assert summary["seat"] == 1


@pytest.mark.postgres
def test_over_two_server_processes_the_joiner_alone_gets_the_token_and_recovers_the_join(
    database: str, stack: contextlib.ExitStack
) -> None:
    joins_here = Server(database, stack, bot_delay=0.0)
    watches_there = Server(database, stack, bot_delay=0.0)
    body = joins_here.create(["human", "human", "human"], schedule=[1])
    [(seat, invite), _] = invites_of(joins_here, body)
    elsewhere = watches_there.socket(body["table"], invite)  # the host's copy, on the other process
    assert state_of(elsewhere)["seat"] == seat
    joining = joins_here.socket(body["table"], invite)
    state_of(joining)
    secret, token = join(joining, "Bea")
    seen: list[str] = []
    assert refused(elsewhere, seen)["facts"]["reason"] == "taken"
    assert not any(token in text for text in seen)
    # The page lost its answer after all: the other process recovers it for the secret, and only for it.
    assert recovery(watches_there, body["table"], invite, secrets.token_hex(16)).status_code == 403
    again = recovery(watches_there, body["table"], invite, secret)
    assert again.status_code == 200, again.text
    assert again.json()["token"] == token


@pytest.mark.postgres
def test_two_server_processes_make_a_ten_second_clocks_automatic_move_once(
    database: str, stack: contextlib.ExitStack
) -> None:
    owner = Server(database, stack, bot_delay=0.0)
    other = Server(database, stack, bot_delay=0.0)
    body = owner.create(["human", "random", "random"], schedule=[1], clock=10, level="random")
    table = body["table"]
    ws = other.socket(table, body["token"])  # the person is served by the process that does not own it
    state = state_of(ws)
    while not state["game"]["my_turn"]:
        state = state_of(ws)
    assert state["clock"]["left_ms"]["0"] > 8000
    # Nobody answers: the owner's clock bids for the seat once, when its ten seconds are over.
    while not any(move["seat"] == 0 for move in state["automatic"]):
        state = state_of(ws, timeout=20)
    assert state["automatic"][0]["kind"] == "bid"
    # The store's clock says when: the turn began with the move before it (a bot's bid).
    times = query(
        database, "SELECT version, client_id, at FROM events WHERE table_id = ? ORDER BY version", (table,)
    )
    [automatic] = [n for n, (_, client, _) in enumerate(times) if client == "clock"]
    assert automatic > 0, "a bot bids first"
    waited = float(times[automatic][2]) - float(times[automatic - 1][2])  # type: ignore[arg-type]
    assert waited >= 10 - 0.1, f"the clock moved after {waited} s of the seat's 10"
    # The person plays their card at once; the game ends with that one automatic move.
    while not state["game"]["over"]:
        if state["game"]["my_turn"]:
            card = next(h["card"] for h in state["game"]["hand"] if h["legal"])
            ws.send(json.dumps({"type": "play", "card": card, "v": state["v"], "id": "c1"}))
        state = state_of(ws)
    rows = query(
        database, "SELECT seat, kind FROM events WHERE table_id = ? AND client_id = 'clock'", (table,)
    )
    assert rows == [(0, "bid")]
