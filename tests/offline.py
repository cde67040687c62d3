"""The score keeper with no server, as the browser tests drive it: ``upriver serve`` as a process that
can really be stopped, a phone's page, and the page's own request function."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page

from tests.waiting import wait_until

TIMEOUT_MS = 60_000  # the first entry with no server waits for Python to start in the worker


@contextlib.contextmanager
def process(command: list[str], url: str, cwd: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A server process answering at ``url``; stopped (SIGTERM, then waited for) at the end."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    try:

        def answers() -> bool:
            assert child.poll() is None, f"{command} stopped"
            with contextlib.suppress(httpx.TransportError):
                httpx.get(url, timeout=1)
                return True
            return False

        wait_until(answers, f"{command} to answer", timeout=60)
        yield child
    finally:
        child.terminate()
        child.wait(timeout=20)


def serve(db: Path, port: int) -> contextlib.AbstractContextManager[subprocess.Popen[bytes]]:
    command = [sys.executable, "-m", "upriver", "serve", "--no-warm", "--port", str(port), "--db", str(db)]
    return process(command, f"http://127.0.0.1:{port}/keep")


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def api(page: Page, path: str, body: dict[str, Any] | None = None) -> Any:
    """The page's one request function (keep-api.js): the answer, or ``{"refused": message}``."""
    return page.evaluate(
        """async ([path, body]) => {
            const { api } = await import("/static/keep-api.js");
            try { return await api(path, body === null ? undefined : body); }
            catch (err) { return { refused: err.message }; }
        }""",
        [path, body],
    )
