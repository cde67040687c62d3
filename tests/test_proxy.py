"""upriver serve behind a real reverse proxy (Debian's nginx on loopback), set up as docs/hosting.md says."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.live import TABLE, free_port, serving
from tests.pg import PostgresServer
from tests.waiting import wait_until

NGINX = "/usr/sbin/nginx"
"""Debian's nginx (nginx-light), which ``run.py test`` installs; these tests fail, never skip, without it."""

_CONFIG = """
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log stderr;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port};
        server_name cards.example;
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


@contextlib.contextmanager
def nginx(root: Path, port: int, upstream: int) -> Iterator[str]:
    """nginx on ``127.0.0.1:port`` in front of ``upstream``; yields its base URL."""
    assert shutil.which(NGINX), f"{NGINX} is missing: python3 run.py test installs Debian's nginx-light"
    root.mkdir(exist_ok=True)
    (root / "nginx.conf").write_text(_CONFIG.format(root=root, port=port, upstream=upstream))
    proxy = subprocess.Popen(
        [NGINX, "-p", str(root), "-c", str(root / "nginx.conf"), "-e", "stderr"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:

        def answers() -> bool:
            assert proxy.poll() is None, proxy.communicate()[0]
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"{url}/healthz", timeout=1)
                return True
            return False

        wait_until(answers, "nginx to answer", timeout=20)
        yield url
    finally:
        proxy.terminate()
        proxy.communicate(timeout=10)


@pytest.mark.slow
def test_behind_nginx_pages_websockets_client_addresses_and_hosts_work_and_a_restarted_proxy_is_rejoined(
    db: str, tmp_path: Path
) -> None:
    args = ("--allowed-host", "cards.example", "--allowed-host", "127.0.0.1", "--proxy-headers")
    with serving(db, "--creations-per-minute", "3", *args) as (upstream, _):
        port, behind = free_port(), int(upstream.rsplit(":", 1)[1])
        site = {"host": "cards.example", "origin": "https://cards.example"}
        with nginx(tmp_path / "nginx", port, behind) as url:
            assert httpx.get(f"{url}/", headers=site).status_code == 200
            made = httpx.post(f"{url}/api/tables", json=TABLE, headers=site)
            assert made.status_code == 201
            table = made.json()
            # nginx writes the address it saw over whatever a client claims: one client, one count.
            codes = [
                httpx.post(
                    f"{url}/api/tables", json=TABLE, headers={**site, "X-Forwarded-For": f"10.0.0.{n}"}
                ).status_code
                for n in range(3)
            ]
            assert codes == [201, 201, 429]
            refused = httpx.post(f"{url}/api/tables", json=TABLE, headers={"host": "evil.example"})
            assert refused.status_code == 400
            assert refused.json()["rule"] == "host"
            with connect(f"ws://127.0.0.1:{port}/ws/{table['table']}?token={table['token']}") as ws:
                assert json.loads(ws.recv(timeout=10))["role"] == "player"
        with nginx(tmp_path / "nginx", port, behind) as url:  # the proxy restarted: a page reconnects
            with connect(f"ws://127.0.0.1:{port}/ws/{table['table']}?token={table['token']}") as ws:
                assert json.loads(ws.recv(timeout=10))["role"] == "player"
            assert httpx.get(f"{url}/readyz").json()["ready"] is True


@pytest.mark.slow
def test_behind_nginx_two_workers_over_postgresql_serve_one_table_to_pages_on_either(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    database = postgres_server.url(postgres_server.create_database())
    args = (
        "--workers",
        "2",
        "--allowed-host",
        "cards.example",
        "--allowed-host",
        "127.0.0.1",
        "--proxy-headers",
    )
    with serving(database, *args) as (upstream, _):
        port = free_port()
        with nginx(tmp_path / "nginx", port, int(upstream.rsplit(":", 1)[1])) as url:
            site = {"host": "cards.example", "origin": "https://cards.example"}
            made = httpx.post(f"{url}/api/tables", json=TABLE, headers=site)
            assert made.status_code == 201
            table = made.json()
            for _ in range(4):  # each new connection may land on either process; every one serves it
                with connect(f"ws://127.0.0.1:{port}/ws/{table['table']}?token={table['token']}") as ws:
                    assert json.loads(ws.recv(timeout=15))["role"] == "player"
            assert (
                httpx.post(f"{url}/api/tables", json=TABLE, headers={"host": "evil.example"}).status_code
                == 400
            )
            assert httpx.get(f"{url}/readyz").status_code == 200
