"""`upriver serve` killed with SIGKILL mid-game and started again carries on from the last accepted action,
over SQLite and over PostgreSQL (``db``: ``tests/pg.py``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.live import free_port
from tests.waiting import receive_until, wait_until


class Server:
    """`python -m upriver serve` as a child process on a free port."""

    def __init__(self, db: str, bot_delay: float, stack: contextlib.ExitStack) -> None:
        self.stack = stack
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "upriver",
                "serve",
                "--port",
                str(self.port),
                "--db",
                db,
                *("--bot-delay", str(bot_delay)),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wait_until(self.answers, "the server to answer", timeout=30)

    def answers(self) -> bool:
        """Whether the server answers its options (fails at once if its process stopped)."""
        assert self.process.poll() is None, self.process.communicate()[0]
        with contextlib.suppress(httpx.TransportError):
            return httpx.get(f"{self.url}/api/options", timeout=1).status_code == 200
        return False

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        assert self.process.returncode == -signal.SIGKILL
        if self.process.stdout is not None:
            self.process.stdout.close()

    def socket(self, table: str, token: str | None) -> ClientConnection:
        """A client of the table, closed when the test ends."""
        query = f"?token={token}" if token else ""
        # An unbounded queue: a client that stops reading must still see the close handshake promptly.
        ws = connect(
            f"ws://127.0.0.1:{self.port}/ws/{table}{query}", open_timeout=10, max_queue=None, legacy=True
        )
        self.stack.callback(ws.close)
        return ws


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.kill()
        server.stack.close()


def latest(ws: ClientConnection, at_least: int = 0) -> dict[str, Any]:
    """The newest state this client is sent that has reached version ``at_least``."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=10))
        assert message["type"] == "state", message
        if message["v"] >= at_least:
            return message


def move(ws: ClientConnection, state: dict[str, Any], n: int) -> None:
    """Send the first legal bid or card of this seat's state."""
    game = state["game"]
    if game["bid_options"]:
        bid = next(o["bid"] for o in game["bid_options"] if o["legal"])
        ws.send(json.dumps({"type": "bid", "bid": bid, "v": state["v"], "id": f"m{n}"}))
    else:
        card = next(h["card"] for h in game["hand"] if h["legal"])
        ws.send(json.dumps({"type": "play", "card": card, "v": state["v"], "id": f"m{n}"}))


@pytest.mark.slow
def test_a_killed_server_resumes_every_table_from_its_last_accepted_action(
    db: str, servers: list[Server]
) -> None:
    # Bots wait 60 s in the first life, so only people move before the crash.
    first = Server(db, bot_delay=60, stack=contextlib.ExitStack())
    servers.append(first)
    people = httpx.post(
        f"{first.url}/api/tables", json={"name": "Ann", "seats": ["human"] * 4, "schedule": [3, 3]}
    ).json()
    with_bots = httpx.post(
        f"{first.url}/api/tables",
        json={
            "name": "Ann",
            "seats": ["human", "basic", "basic", "basic"],
            "schedule": [2],
            "dealer_bid": "hook",
        },
    ).json()
    host = first.socket(people["table"], people["token"])
    latest(host)
    invites = latest(first.socket(people["table"], people["token"]))["lobby"]["invites"]
    tokens = [people["token"]] + [invite["url"].split("#token=")[1] for invite in invites]
    sockets = [host] + [first.socket(people["table"], token) for token in tokens[1:]]
    for seat, ws in enumerate(sockets[1:], start=1):
        latest(ws)
        ws.send(json.dumps({"type": "join", "name": f"P{seat}"}))
        # Once joined, each seat opens with its own secret, sent to its page alone, no longer with its invite.
        own = next(m for m in (json.loads(ws.recv(timeout=10)) for _ in range(20)) if m["type"] == "seat")
        assert own["token"] != tokens[seat]
        tokens[seat] = own["token"]
    version = 4  # the creator's join, then three more
    for n in range(9):  # four bids and five cards: the second trick is under way
        states = [latest(ws, version) for ws in sockets]
        seat = states[0]["game"]["awaiting"][0]
        move(sockets[seat], states[seat], n)
        version += 1
    before = [latest(ws, version) for ws in sockets]
    assert len(before[0]["game"]["trick"]) == 1
    first.kill()

    second = Server(db, bot_delay=0.05, stack=contextlib.ExitStack())
    servers.append(second)
    after = [latest(second.socket(people["table"], token)) for token in tokens]
    for old, new in zip(before, after, strict=True):
        assert new["v"] == old["v"] == version
        for key in ("hand", "bids", "trick", "tricks_won", "awaiting", "bid_options"):
            assert new["game"][key] == old["game"][key], key
    # The game goes on from there, to the end.
    sockets = [second.socket(people["table"], token) for token in tokens]
    n = 100
    while True:
        states = [latest(ws, version) for ws in sockets]
        if states[0]["game"]["over"]:
            break
        seat = states[0]["game"]["awaiting"][0]
        move(sockets[seat], states[seat], n)
        n += 1
        version += 1
    assert len(states[0]["game"]["sheet"]["rows"]) == 2
    # The bots, asleep for 60 s in the first life, move again at once in the second.
    ws = second.socket(with_bots["table"], with_bots["token"])

    def my_turn(message: dict[str, Any]) -> bool:
        assert message["type"] == "state", message
        return bool(message["game"]["my_turn"])

    receive_until(ws, my_turn, "the bots to move again, up to this seat's turn", timeout=10)
    second.stack.close()
