"""Serving on the internet: client addresses behind a proxy, the Host header, health, backups."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.live import free_port
from tests.test_web_api import manager_of
from upriver.web.app import create_app
from upriver.web.hosts import CLOSE_BAD_HOST, HostPolicy

TABLE = {"name": "Ann", "seats": ["human", "basic", "basic"]}


@contextlib.contextmanager
def served(db: str, *args: str) -> Iterator[str]:
    """``upriver serve`` on a free loopback port with ``args``; yields its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "upriver", "serve", "--no-warm", "--port", str(port), "--db", db, *args]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.communicate()[0]
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"{url}/healthz", timeout=1)  # any answer (a 400 for a host not allowed too)
                break
            assert time.monotonic() < deadline, "the server did not start in 30 s"
            time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        try:
            server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()


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
        assert not manager_of(client).tables
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
