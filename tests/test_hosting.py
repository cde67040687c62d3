"""Serving on the internet: client addresses behind a proxy, the Host header, health, backups."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.conftest import manager_of
from tests.live import TABLE, serving
from tests.webclient import Client, Room, tables_loaded
from upriver.cli import app
from upriver.cli import backup as _backup  # noqa: F401  (registers upriver backup and restore)
from upriver.database import StoreError
from upriver.web.app import create_app
from upriver.web.hosting.hosts import CLOSE_BAD_HOST, HostPolicy


@contextlib.contextmanager
def served(db: str, *args: str) -> Iterator[str]:
    """``upriver serve`` on a free loopback port with ``args``; yields its base URL."""
    with serving(db, *args) as (url, _):
        yield url


def _create(url: str, forwarded_for: str) -> int:
    headers = {"X-Forwarded-For": forwarded_for}
    return httpx.post(f"{url}/api/tables", json=TABLE, headers=headers, timeout=10).status_code


@pytest.mark.slow
def test_a_forged_forwarded_for_does_not_escape_the_creation_limit_unless_the_proxy_is_trusted(
    db: str,
) -> None:
    with served(db, "--creations-per-minute", "3") as url:
        codes = [_create(url, f"10.0.0.{n}") for n in range(4)]
        assert codes == [201, 201, 201, 429], "every request is the socket's address, 127.0.0.1"
        sheet = {"players": ["A", "B", "C"], "dealer": 0}
        sheets = [
            httpx.post(
                f"{url}/api/sheets", json=sheet, headers={"X-Forwarded-For": f"10.1.0.{n}"}, timeout=10
            )
            for n in range(4)
        ]
        assert [sheet.status_code for sheet in sheets] == [201, 201, 201, 429], [s.text for s in sheets]
    with served(db, "--creations-per-minute", "3", "--forwarded-allow-ips", "127.0.0.1") as url:
        assert [_create(url, f"10.0.0.{n}") for n in range(4)] == [201] * 4, "four clients behind the proxy"
        assert [_create(url, "10.0.0.9") for _ in range(4)] == [201, 201, 201, 429], "one client"


def test_the_forwarded_address_is_believed_only_from_the_proxies_named() -> None:
    from upriver.cli.serve import trusted_proxies

    assert trusted_proxies(False, None) == {"proxy_headers": False}
    assert trusted_proxies(True, None)["forwarded_allow_ips"] == "127.0.0.1,::1"
    assert trusted_proxies(False, "10.0.0.2,192.168.1.0/24") == {
        "proxy_headers": True,
        "forwarded_allow_ips": "10.0.0.2,192.168.1.0/24",
    }


def _guarded_app(db: str, *allowed: str) -> TestClient:
    return TestClient(create_app(db, bot_delay=0.0, hosts=HostPolicy.of(allowed, "127.0.0.1")))


def test_a_request_naming_another_host_is_refused_and_changes_nothing(db: str) -> None:
    evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    with _guarded_app(db) as client:
        refused = client.post("/api/tables", json=TABLE, headers=evil)
        assert refused.status_code == 400
        assert refused.json()["rule"] == "host"
        assert "evil.example" in refused.json()["error"]
        assert "--allowed-host" in refused.json()["error"]
        assert client.post("/api/sheets", json={"players": ["A", "B", "C"]}, headers=evil).status_code == 400
        assert client.get("/", headers=evil).status_code == 400
        assert tables_loaded(client) == 0
        own = {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}
        table = client.post("/api/tables", json=TABLE, headers=own).json()
        assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
        with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}", headers=evil) as ws:
            assert ws.receive_json()["rule"] == "host"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_BAD_HOST
        with client.websocket_connect(f"/ws/{table['table']}?token={table['token']}", headers=own) as ws:
            assert ws.receive_json()["role"] == "player"


def test_allowed_hosts_replace_the_defaults_and_allowed_origins_follow_them(db: str) -> None:
    with _guarded_app(db, "cards.example") as client:
        site = {"host": "cards.example", "origin": "https://cards.example"}
        assert client.post("/api/tables", json=TABLE, headers=site).status_code == 201
        assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 400
        # A page of another allowed name, or of a name not allowed, may not change anything here.
        other = {"host": "cards.example", "origin": "http://localhost:8000"}
        assert client.post("/api/tables", json=TABLE, headers=other).status_code == 403


def test_a_server_on_every_address_answers_to_ip_addresses_but_not_to_other_names() -> None:
    policy = HostPolicy.of([], "0.0.0.0")
    assert policy.allows("192.168.1.5:8000")
    assert policy.allows("[fe80::1]:8000")
    assert policy.allows("localhost:8000")
    assert not policy.allows("evil.example:8000")
    assert not policy.allows(None)
    assert HostPolicy.of(["*"]).allows("anything.example")


@pytest.mark.slow
def test_upriver_serve_refuses_another_host_by_default_and_answers_an_allowed_one(db: str) -> None:
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    with served(db) as url:
        assert httpx.post(f"{url}/api/tables", json=TABLE, headers=evil).status_code == 400
        assert httpx.post(f"{url}/api/tables", json=TABLE).status_code == 201
    with served(db, "--allowed-host", "evil.example") as url:
        assert httpx.post(f"{url}/api/tables", json=TABLE, headers=evil).status_code == 201
        assert httpx.get(f"{url}/").status_code == 400, "the loopback names are no longer answered"


# ------------------------------------------------------------------ health


def test_healthz_says_the_process_lives_and_readyz_that_its_store_answers(db: str) -> None:
    with _guarded_app(db, "cards.example") as client:
        alive = client.get("/healthz", headers={"host": "127.0.0.1:8000"})  # a probe asks by address
        assert alive.status_code == 200
        assert alive.json() == {"alive": True}
        ready = client.get("/readyz", headers={"host": "127.0.0.1:8000"})
        assert ready.status_code == 200
        assert ready.json() == {"ready": True, "store": "ok", "kernel": "cold", "tables": 0}


def test_readyz_is_503_saying_why_while_the_store_does_not_answer(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from upriver.web.hosting import health

    with TestClient(create_app(db, bot_delay=0.0)) as client:

        def fails(*args: object) -> None:
            raise StoreError("the database server is away")

        monkeypatch.setattr(health, "reach", fails)
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["ready"] is False
        assert answer.json()["store"] == "the database server is away"
        assert client.get("/healthz").status_code == 200


def test_readyz_waits_for_the_kernel_while_it_is_being_made_ready(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from upriver.web.play import bots

    monkeypatch.setattr(bots, "kernel_state", lambda: "warming")
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        answer = client.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["kernel"] == "warming"


# ------------------------------------------------------------------ backups


def _reopened(client: TestClient, stack: contextlib.ExitStack, table_id: str) -> Room:
    """A :class:`Room` of every seat of a table that is already playing (on a restarted server)."""
    room = Room.__new__(Room)
    room.id = table_id
    room.table = manager_of(client).tables[table_id]
    room.clients = []
    for seat, token in enumerate(room.table.tokens):
        ws = stack.enter_context(client.websocket_connect(f"/ws/{table_id}?token={token}"))
        member = Client(ws, room.table, seat)
        member.ids = 1000  # message ids new to the table (ids are unique per seat)
        room.clients.append(member)
    room.settle_all()
    return room


def test_a_backup_taken_mid_game_is_restored_and_the_game_goes_on(tmp_path: Path) -> None:
    live, copy, restored = tmp_path / "live.db", tmp_path / "copy.db", tmp_path / "restored.db"
    with TestClient(create_app(str(live), bot_delay=0.0)) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[1, 2, 1])
        for _ in range(5):
            room.move()
        taken = room.table.version
        totals = list(room.game.totals)
        result = CliRunner().invoke(app, ["backup", str(copy), "--db", str(live)])  # the server is serving
        assert result.exit_code == 0, result.output
        assert "1 tables" in result.output
        for _ in range(3):  # moves after the backup, which the restored store does not hold
            room.move()
    again = CliRunner().invoke(app, ["backup", str(copy), "--db", str(live)])
    assert again.exit_code == 1
    assert "exists already" in again.output
    result = CliRunner().invoke(app, ["restore", str(copy), "--db", str(restored)])
    assert result.exit_code == 0, result.output
    with TestClient(create_app(str(restored), bot_delay=0.0)) as client, contextlib.ExitStack() as stack:
        room = _reopened(client, stack, room.id)
        assert room.table.version == taken
        assert list(room.game.totals) == totals
        while not room.game.is_over:
            room.move()
        assert room.table.version > taken
    refused = CliRunner().invoke(app, ["restore", str(copy), "--db", str(restored)])
    assert refused.exit_code == 1
    assert "--force" in refused.output


def test_backup_refuses_a_file_that_is_no_store_and_a_postgresql_store(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    result = CliRunner().invoke(app, ["backup", str(tmp_path / "out.db"), "--db", str(junk)])
    assert result.exit_code == 1
    assert "not a SQLite database" in result.output
    result = CliRunner().invoke(app, ["restore", str(junk), "--db", str(tmp_path / "new.db")])
    assert result.exit_code == 1
    result = CliRunner().invoke(app, ["backup", str(tmp_path / "out.db"), "--db", "postgresql://u@h/cards"])
    assert result.exit_code == 2
    assert "pg_dump" in result.output


# ------------------------------------------------------------------ metrics


def _figure(text: str, name: str) -> float:
    """The value of the sample ``name`` (with its labels, as written, but for the ``worker`` label
    every figure has) in a Prometheus text page."""
    for line in text.splitlines():
        line = re.sub(r',?worker="\d+",?', ",", line).replace("{,", "{").replace(",}", "}").replace("{}", "")
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} is not in /metrics")


def test_metrics_show_tables_connections_events_message_times_and_refusals_by_rule(db: str) -> None:
    with _guarded_app(db, "testserver") as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[1, 1])
        watcher = stack.enter_context(client.websocket_connect(f"/ws/{room.id}"))
        watcher.receive_json()
        before = client.get("/metrics", headers={"host": "127.0.0.1:9100"}).text
        for _ in range(3):
            room.move()
        client.post("/api/tables", json=TABLE, headers={"host": "evil.example"})  # refused: rule host
        room.clients[0].act("bid", 0, v=0)  # refused: stale
        room.clients[0].error()
        page = client.get("/metrics", headers={"host": "127.0.0.1:9100"})
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/plain")
        text = page.text
        assert _figure(text, "upriver_tables") == 1
        assert _figure(text, 'upriver_connections{role="player"}') == 4
        assert _figure(text, 'upriver_connections{role="spectator"}') == 1
        assert _figure(text, "upriver_table_events_total") == room.table.version
        moved = _figure(text, "upriver_message_seconds_count") - _figure(
            before, "upriver_message_seconds_count"
        )
        assert moved >= 4, "three moves and a stale one were timed"
        assert _figure(text, 'upriver_refusals_total{rule="host"}') >= 1
        assert _figure(text, 'upriver_refusals_total{rule="stale"}') >= 1
        assert _figure(text, "upriver_review_rounds") == 0
        secrets = [token for token in room.table.tokens if token] + [str(room.table.seat_key)]
        assert not [secret for secret in secrets if secret in text]


# ------------------------------------------------------------------ the access log


def test_the_access_log_is_one_json_line_per_request_without_tokens_or_sheet_ids(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="upriver.access")
    with _guarded_app(db, "testserver") as client:
        body = client.post("/api/tables", json=TABLE).json()
        sheet = client.post("/api/sheets", json={"players": ["A", "B", "C"]}).json()
        client.get(f"/api/sheets/{sheet['id']}")
        client.get("/", headers={"host": "evil.example"})
        with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
            ws.receive_json()
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == "upriver.access"]
    assert [(line["kind"], line["method"], line["status"]) for line in lines] == [
        ("http", "POST", 201),
        ("http", "POST", 201),
        ("http", "GET", 200),
        ("http", "GET", 400),
        ("ws", "GET", 101),
    ]
    assert lines[2]["path"] == "/api/sheets/…"
    assert lines[4]["path"] == f"/ws/{body['table']}"
    text = caplog.text
    assert body["token"] not in text
    assert sheet["id"] not in text
    assert all(line["ms"] >= 0 and line["client"] for line in lines)


# ------------------------------------------------------------------ stopping


def _read_until_closed(ws: ClientConnection, seen: int) -> tuple[int, int | None]:
    """Read until the server closes: the newest version seen, and the close code."""
    try:
        while True:
            seen = max(seen, json.loads(ws.recv(timeout=10)).get("v", 0))
    except ConnectionClosed as closed:
        return seen, None if closed.rcvd is None else closed.rcvd.code


@pytest.mark.slow
def test_on_sigterm_every_page_is_told_to_reconnect_and_no_accepted_move_is_lost(db: str) -> None:
    watched = {"creator": None, "seats": ["basic", "basic", "basic"], "schedule": [3] * 12}
    with serving(db, "--bot-delay", "0.02") as (url, server):
        table = httpx.post(f"{url}/api/tables", json=watched).json()["table"]
        with connect(f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/ws/{table}") as ws:
            seen = 0
            while seen < 10:  # the bots are playing: moves are in flight when the signal comes
                message = json.loads(ws.recv(timeout=10))
                seen = max(seen, message.get("v", 0))
            server.send_signal(signal.SIGTERM)
            seen, code = _read_until_closed(ws, seen)
            assert code == 1012, "service restart: the page reconnects to the next process"
        server.wait(timeout=20)
    with served(db, "--bot-delay", "0.02") as url:
        after = httpx.get(f"{url}/api/tables/{table}").json()
        assert not after["damaged"]
        with connect(f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/ws/{table}") as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["v"] >= seen, "every move a page was told of is still there"
            while True:  # and the game goes on
                if json.loads(ws.recv(timeout=10)).get("v", 0) > first["v"]:
                    break
