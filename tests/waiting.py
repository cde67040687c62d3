"""The one way a test waits: for an event it names, never for a while.

:func:`wait_until` polls a condition (a page's function, a message, a recording clock) and fails saying
what never happened; :func:`receive_until` reads a WebSocket's messages until one shows what is awaited.
The poll interval lives here and nowhere else in the tests."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")

TIMEOUT = 15.0
"""How long a test waits for an event by default, in seconds: long enough for a loaded machine."""

POLL = 0.01
"""How often :func:`wait_until` looks again, in seconds."""


class _Looks(Generic[T]):
    """One wait's looks at ``predicate``: each gives its answer, and the first after ``timeout``
    seconds with no true answer fails saying ``what`` was awaited."""

    def __init__(self, predicate: Callable[[], T | None], what: str, timeout: float) -> None:
        self.predicate, self.what, self.timeout = predicate, what, timeout
        self.deadline = time.monotonic() + timeout

    def __call__(self) -> T | None:
        answer = self.predicate()
        if not answer and time.monotonic() >= self.deadline:
            raise AssertionError(f"still waiting after {self.timeout:g} s: {self.what}")
        return answer


def wait_until(
    predicate: Callable[[], T | None],
    what: str,
    *,
    timeout: float = TIMEOUT,
    pause: Callable[[float], object] = time.sleep,
    every: float = POLL,
) -> T:
    """Return ``predicate()``'s first true answer; fail saying ``what`` was awaited if none comes
    within ``timeout`` seconds. A predicate may raise (an ``AssertionError`` that a process died, say)
    to stop the wait at once. ``pause`` waits between two looks: a browser test whose page's traffic
    runs through Playwright's routes passes :func:`in_page`, so the routes run meanwhile. A look that
    asks the server something it must refuse meanwhile (a move while its store is down) comes
    ``every`` seconds rather than :data:`POLL`, so as not to flood it."""
    look = _Looks(predicate, what, timeout)
    while not (answer := look()):
        pause(every)
    return answer


async def until(predicate: Callable[[], T | None], what: str, *, timeout: float = TIMEOUT) -> T:
    """:func:`wait_until` inside a test's own event loop: the loop runs its tasks (the server's, a
    thread's callback) between two looks."""
    look = _Looks(predicate, what, timeout)
    while not (answer := look()):
        await asyncio.sleep(POLL)
    return answer


class Page(Protocol):
    """A Playwright page, which can wait while its events (routes, console) are handled."""

    def wait_for_timeout(self, timeout: float) -> None: ...


def in_page(page: Page) -> Callable[[float], None]:
    """A pause for :func:`wait_until` spent in ``page``: Playwright handles its routes meanwhile."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


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
