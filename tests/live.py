"""Helpers for tests that run a real server or a real browser: free ports, Debian's Chromium, and
``upriver serve`` as a child process."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tests.waiting import wait_until

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium, which `.ci/run` installs; browser tests fail (never skip) without it."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Flags for a root user on a machine whose only network is the package registries."""

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
"""Where browser tests leave their screenshots."""


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """`python -m upriver serve` over ``db`` as a child process on a free port; killed at the end."""

    def __init__(
        self, db: str, stack: contextlib.ExitStack, *, bot_delay: float = 0.05, workers: int = 1
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "upriver", "serve", "--port", str(self.port), "--db", db]
        command += ["--bot-delay", str(bot_delay), "--no-warm", "--workers", str(workers)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        stack.callback(self.stop)
        self.stack = stack
        wait_until(self.answers, "the server to answer", timeout=60)

    def answers(self) -> bool:
        """Whether the server answers its options (fails at once if its process stopped)."""
        assert self.process.poll() is None, self.process.communicate()[0]
        with contextlib.suppress(httpx.TransportError):
            return httpx.get(f"{self.url}/api/options", timeout=1).status_code == 200
        return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash; PostgreSQL sees its sessions end."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def create(self, seats: list[str], **options: object) -> dict[str, Any]:
        response = httpx.post(f"{self.url}/api/tables", json={"name": "Ann", "seats": seats, **options})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    def socket(self, table: str, token: str | None) -> ClientConnection:
        query = f"?token={token}" if token else ""
        ws = connect(
            f"ws://127.0.0.1:{self.port}/ws/{table}{query}", open_timeout=10, max_queue=None, legacy=True
        )
        self.stack.callback(ws.close)
        return ws


TABLE = {"name": "Ann", "seats": ["human", "basic", "basic"]}
"""A table for one person and two bots, as a create request's body."""


@contextlib.contextmanager
def serving(db: str, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``upriver serve`` on a free loopback port with ``args``; yields its base URL and its process."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "upriver", "serve", "--no-warm", "--port", str(port), "--db", db, *args]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:

        def answers() -> bool:
            assert server.poll() is None, server.communicate()[0]
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"{url}/healthz", timeout=1)  # any answer (a 400 for a host not allowed too)
                return True
            return False

        wait_until(answers, "the server to answer", timeout=60)  # two workers on a busy machine: slow
        yield url, server
    finally:
        server.terminate()
        try:
            server.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
