"""Serving on the internet: client addresses behind a proxy, the Host header, health, backups."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.live import free_port

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
                if httpx.get(f"{url}/api/options", timeout=1).status_code == 200:
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
