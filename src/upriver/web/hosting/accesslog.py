"""A structured access log: one JSON line per HTTP request and per WebSocket, with no secret in it.

``upriver serve --access-log`` writes the lines to standard error (:func:`enable`), for journald or
a log shipper; without it nothing is formatted. A line is
``{"at": unix seconds, "kind": "http" | "ws", "method", "path", "status", "ms", "client"}``: ``status``
is the HTTP status, or for a WebSocket the code it was closed with (``101`` while it was open to
the end); ``ms`` how long the request or the connection lasted; ``client`` the client's address (as
the limits see it: :mod:`upriver.cli.serve`'s proxy options). The query string is never logged
(seat tokens travel there), and a path segment that is a score sheet's id (its edit or share
link) is logged as ``…``.
"""

from __future__ import annotations

import json
import logging
import re
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from upriver.web.hosting.eventlog import lines_to_stderr

__all__ = ["AccessLog", "enable", "shown_path"]

log = logging.getLogger("upriver.access")

_SECRET = re.compile(r"^[0-9a-f]{20}$")
"""A score sheet's edit or share id (``secrets.token_hex(10)``)."""


def shown_path(path: str) -> str:
    """``path`` as logged: a sheet's id replaced by ``…``, at most 200 characters.

    >>> shown_path("/api/sheets/0123456789abcdef0123/bids")
    '/api/sheets/…/bids'
    """
    return "/".join("…" if _SECRET.match(part) else part for part in path[:200].split("/"))


def enable() -> None:
    """Write the access log's lines to standard error (once per process)."""
    lines_to_stderr(log)


class AccessLog:
    """ASGI middleware writing one line per request or WebSocket to ``upriver.access`` at INFO."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status: list[int] = []

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            elif message["type"] == "websocket.accept":
                status.append(101)
            elif message["type"] == "websocket.close":
                status.append(int(message.get("code", 1000)))
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            client = scope.get("client")
            line = {
                "at": round(time.time(), 3),
                "kind": "http" if scope["type"] == "http" else "ws",
                "method": scope.get("method", "GET"),
                "path": shown_path(scope.get("path", "")),
                "status": status[-1] if status else None,
                "ms": round((time.perf_counter() - start) * 1000, 1),
                "client": client[0] if client else None,
            }
            log.info(json.dumps(line))
