"""The one way a test waits: for an event it names, never for a while.

:func:`wait_until` polls a condition (a page's function, a message, a recording clock) and fails saying
what never happened; :func:`receive_until` reads a WebSocket's messages until one shows what is awaited.
The poll interval lives here and nowhere else in the tests."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

TIMEOUT = 15.0
"""How long a test waits for an event by default, in seconds: long enough for a loaded machine."""

POLL = 0.01
"""How often :func:`wait_until` looks again, in seconds."""


def wait_until(predicate: Callable[[], T | None], what: str, *, timeout: float = TIMEOUT) -> T:
    """Return ``predicate()``'s first true answer; fail saying ``what`` was awaited if none comes
    within ``timeout`` seconds. A predicate may raise (an ``AssertionError`` that a process died, say)
    to stop the wait at once."""
    deadline = time.monotonic() + timeout
    while True:
        answer = predicate()
        if answer:
            return answer
        if time.monotonic() >= deadline:
            raise AssertionError(f"still waiting after {timeout:g} s: {what}")
        time.sleep(POLL)


class Socket(Protocol):
    """A WebSocket client (the ``websockets`` one) that reads one text message within a timeout."""

    def recv(self, timeout: float | None = None) -> str | bytes: ...


def receive_until(
    ws: Socket, predicate: Callable[[dict[str, Any]], object], what: str, *, timeout: float = TIMEOUT
) -> dict[str, Any]:
    """Read ``ws``'s messages until one makes ``predicate`` true and return it; fail saying ``what``
    was awaited if none does within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"still waiting after {timeout:g} s: {what}")
        try:
            message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError(f"still waiting after {timeout:g} s: {what}") from None
        if predicate(message):
            return message
