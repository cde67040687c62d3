"""The join is made whole: a person who pressed Join gets their seat back with the invite they hold,
whatever happens between storing the join and its answer — the connection cut before the answer is
read (20 times), or the server killed with SIGKILL — until their page confirms it saved its new token;
after that the invite opens nothing. Real `upriver serve` processes over SQLite, real sockets; and a
turn clock over PostgreSQL run by one of two server processes."""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.live import Server
from tests.pg import PostgresServer, query

pytestmark = pytest.mark.slow


@pytest.fixture
def database(postgres_server: PostgresServer) -> str:
    """A fresh database on the tests' private PostgreSQL server."""
    return postgres_server.url(postgres_server.create_database())


@pytest.fixture
def stack() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as exits:
        yield exits


def state_of(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    """The next state message (chat lines and reactions are passed over)."""
    deadline = time.monotonic() + timeout
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


def stored_join(db: Path, table: str, seat: int) -> bool:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM events WHERE table_id = ? AND kind = 'join' AND seat = ?", (table, seat)
        ).fetchone()
    return bool(row[0])


def join_and_cut(server: Server, db: Path, table: str, seat: int, invite: str, name: str) -> None:
    """Open the seat with its invite, send the join, wait until the join is stored, and cut the
    connection without reading the answer (the socket closed under the client, no closing handshake)."""
    ws = server.socket(table, invite)
    state_of(ws)
    ws.send(json.dumps({"type": "join", "name": name}))
    deadline = time.monotonic() + 10
    while not stored_join(db, table, seat):
        assert time.monotonic() < deadline, "the join was not stored"
        time.sleep(0.01)
    ws.socket.shutdown(socket.SHUT_RDWR)
    ws.socket.close()


def refused_token(server: Server, table: str, token: str) -> None:
    """The token opens nothing: an error with rule ``token``, then the close code 4403."""
    ws = server.socket(table, token)
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "error"
    assert message["rule"] == "token"
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4403


def recover(server: Server, table: str, seat: int, invite: str, name: str) -> str:
    """Open the seat again with the invite: it holds the joined seat and is sent the new token, which
    opens the seat too; confirming ends the invite. Returns the seat's own token."""
    ws = server.socket(table, invite)
    state = state_of(ws)
    assert state["seat"] == seat
    assert state["joined_pending"] is True
    assert state["lobby"]["seats"][seat]["name"] == name
    token = state["token"]
    assert token
    assert token != invite
    other = server.socket(table, token)
    assert state_of(other)["seat"] == seat
    ws.send(json.dumps({"type": "confirm"}))
    while state["joined_pending"]:
        state = state_of(ws)
    refused_token(server, table, invite)
    # The page that recovered, having confirmed, keeps its connection: it holds the seat's own token now.
    ws.send(json.dumps({"type": "sync"}))
    assert state_of(ws)["seat"] == seat
    return str(token)


def test_a_join_whose_answer_is_lost_is_recovered_with_the_invite_twenty_times_out_of_twenty(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    db = tmp_path / "tables.db"
    server = Server(str(db), stack, bot_delay=0.0)
    tries = 0
    while tries < 20:
        body = server.create(["human"] * 8, schedule=[1])
        host = server.socket(body["table"], body["token"])
        invites = state_of(host)["lobby"]["invites"]
        for invite in invites[: 20 - tries]:
            seat, token = invite["seat"], invite["url"].split("#token=")[1]
            join_and_cut(server, db, body["table"], seat, token, f"P{seat}")
            recover(server, body["table"], seat, token, f"P{seat}")
            tries += 1


def test_a_join_stored_just_before_the_server_is_killed_is_recovered_with_the_invite(
    tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    db = tmp_path / "tables.db"
    first = Server(str(db), stack, bot_delay=0.0)
    body = first.create(["human", "human", "basic"], schedule=[1])
    host = first.socket(body["table"], body["token"])
    invite = state_of(host)["lobby"]["invites"][0]["url"].split("#token=")[1]
    ws = first.socket(body["table"], invite)
    state_of(ws)
    ws.send(json.dumps({"type": "join", "name": "Bea"}))
    deadline = time.monotonic() + 10
    while not stored_join(db, body["table"], 1):
        assert time.monotonic() < deadline, "the join was not stored"
        time.sleep(0.002)
    first.kill()  # SIGKILL right after the join is stored, before its answer is read
    second = Server(str(db), stack, bot_delay=0.0)
    token = recover(second, body["table"], 1, invite, "Bea")
    # The join started the game, and the seat's own token opens the seat in the API too.
    ws = second.socket(body["table"], token)
    state = state_of(ws)
    assert state["game"] is not None
    summary = httpx.get(f"{second.url}/api/tables/{body['table']}", params={"token": token}).json()
    assert summary["seat"] == 1


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
    turn = time.monotonic()
    assert state["clock"]["left_ms"]["0"] > 8000
    # Nobody answers: the owner's clock bids for the seat once, about ten seconds later.
    while not any(move["seat"] == 0 for move in state["automatic"]):
        state = state_of(ws, timeout=20)
    waited = time.monotonic() - turn
    assert 9.5 <= waited <= 14, waited
    assert state["automatic"][0]["kind"] == "bid"
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
