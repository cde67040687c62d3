"""The web server's limits: each refuses with a clear error; the server serves the others."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.live import free_port
from tests.waiting import wait_until
from tests.webclient import Room, create, found, tables_loaded
from upriver.web.app import CLOSE_FULL, create_app
from upriver.web.hosting.guard import RateLimiter
from upriver.web.hosting.limits import Limits


def app_client(db: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db, bot_delay=0.0, limits=Limits(**limits)))


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with app_client(db) as test_client:
        yield test_client


def test_a_30_mb_option_is_refused_as_too_large_and_the_server_goes_on(client: TestClient) -> None:
    body = json.dumps({"name": "Ann", "seats": ["human", "basic", "basic"], "scoring": "x" * 30_000_000})
    response = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "1,000,000 bytes" in response.json()["error"]
    assert tables_loaded(client) == 0
    assert create(client)["table"]
    assert tables_loaded(client) == 1


def test_a_long_option_value_is_refused_naming_the_option(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "Ann", "scoring": "x" * 5000})
    assert response.status_code == 400
    assert response.json()["field"] == "scoring"


def test_a_200000_round_schedule_is_refused_and_the_server_goes_on(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "Ann", "schedule": [1] * 200_000})
    assert response.status_code == 400
    assert response.json()["field"] == "schedule"
    assert "at most 100 rounds" in response.json()["error"]
    assert tables_loaded(client) == 0
    assert create(client, schedule=[1] * 34)["table"]


def test_tables_and_sheets_per_address_per_minute_are_limited(db: str) -> None:
    with app_client(db, creations_per_minute=3) as client:
        made = [create(client, ["human", "basic", "basic"])["table"] for _ in range(3)]
        refused = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]})
        assert refused.status_code == 429
        assert refused.json()["rule"] == "rate"
        assert tables_loaded(client) == 3
        sheet = {"players": ["A", "B", "C"], "dealer": 0}
        for _ in range(3):
            assert client.post("/api/sheets", json=sheet).status_code == 201
        assert client.post("/api/sheets", json=sheet).status_code == 429
        # Everything else is still served.
        assert client.get("/api/options").status_code == 200
        with client.websocket_connect(f"/ws/{made[0]}") as ws:
            assert ws.receive_json()["type"] == "state"


def test_the_rate_limit_forgets_after_a_minute_and_counts_each_address_apart() -> None:
    now = [0.0]
    limiter = RateLimiter(2, clock=lambda: now[0])
    assert limiter.allow("a")
    assert limiter.allow("a")
    assert not limiter.allow("a")
    assert limiter.allow("b")
    now[0] = 61.0
    assert limiter.allow("a")


def test_spectators_per_table_are_capped_and_players_still_connect(db: str) -> None:
    with app_client(db, spectators=3) as client, contextlib.ExitStack() as stack:
        body = create(client, ["human", "human", "basic"])
        for _ in range(3):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{body['table']}"))
            assert ws.receive_json()["role"] == "spectator"
        with client.websocket_connect(f"/ws/{body['table']}") as extra:
            assert extra.receive_json()["rule"] == "spectators"
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_json()
            assert closed.value.code == CLOSE_FULL
        with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as player:
            assert player.receive_json()["role"] == "player"


def test_idle_finished_tables_are_archived_at_start_up_and_others_come_up(db: str) -> None:
    with app_client(db) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[1])
        while not room.game.is_over:
            room.move()
        finished = room.id
        open_table = create(client)["table"]
    with app_client(db, archive_after=3600) as client:
        assert found(client, finished), "not idle for an hour yet"
    with app_client(db, archive_after=0) as client:
        assert not found(client, finished)
        assert found(client, open_table)
        assert client.get(f"/t/{finished}").status_code == 404
    with app_client(db, archive_after=3600) as client:
        assert not found(client, finished), "an archived table is not loaded again"
        assert found(client, open_table)


def test_a_client_that_does_not_read_is_disconnected_and_others_are_served(db: str) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "upriver", "serve", "--port", str(port), "--db", db]
    server = subprocess.Popen(
        [*command, "--outbox", "5"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:

        def answers() -> bool:
            assert server.poll() is None, server.communicate()[0]
            with contextlib.suppress(httpx.TransportError):
                return httpx.get(f"{url}/api/options", timeout=1).status_code == 200
            return False

        wait_until(answers, "the server to answer", timeout=30)
        table = httpx.post(
            f"{url}/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]}
        ).json()
        raw = socket.create_connection(("127.0.0.1", port))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        with connect(f"ws://127.0.0.1:{port}/ws/{table['table']}", sock=raw, max_queue=1) as lazy:

            def closed() -> bool:
                """Send a hundred messages, each of which gets an error reply it never reads."""
                try:
                    for _ in range(100):
                        lazy.send("x" * 2000)
                except (ConnectionClosed, OSError):
                    return True
                return False

            wait_until(closed, "the server to close a connection that reads none of its replies", timeout=30)
        with connect(f"ws://127.0.0.1:{port}/ws/{table['table']}?token={table['token']}") as other:
            assert json.loads(other.recv(timeout=10))["role"] == "player"
    finally:
        server.kill()
        server.communicate()


def test_upriver_serve_defaults_each_limit_from_limits_and_an_option_changes_only_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import upriver.web.app
    from upriver.cli import app, serve  # noqa: F401  (importing serve registers its command)

    built: list[Limits] = []

    def fake_app(path: Path, *, bot_delay: float, limits: Limits, warm: bool, **guards: Any) -> None:
        built.append(limits)

    monkeypatch.setattr(upriver.web.app, "create_app", fake_app)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    db = str(tmp_path / "t.db")
    for args in ([], ["--max-spectators", "3", "--archive-after-days", "1"]):
        result = CliRunner().invoke(app, ["serve", "--db", db, *args])
        assert result.exit_code == 0, result.output
    assert built == [Limits(), dataclasses.replace(Limits(), spectators=3, archive_after=24 * 3600.0)]
