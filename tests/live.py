"""Helpers for tests that run a real server or a real browser: free ports and Debian's Chromium."""

from __future__ import annotations

import socket
from pathlib import Path

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
