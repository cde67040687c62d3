"""The FastAPI application: pages, a small JSON API to create and export tables, and the WebSocket.

``create_app(db_path)`` builds an app whose tables live in that SQLite file or PostgreSQL database
(:func:`upriver.web.store.open_table_store`); on start-up it resumes every stored table by
replaying its events through the engine (a table with an event the engine refuses comes up
damaged, saying why; the others come up as they were).

HTTP:

- ``GET /`` the lobby page (create a table, import a record); ``GET /t/{id}`` a table's page.
- ``GET /api/options`` presets, rule options, bot kinds and paces (``paces``, default ``pace``) for
  the create form; ``POST /api/scoring`` a scoring's worked examples (:mod:`upriver.web.keeper.scoring`).
- ``POST /api/tables`` ``{"name", "seats": ["human", "basic", …], "creator": 0, "record": text?,
  "pace": "slow" | "normal" | "fast" (default normal; :mod:`upriver.web.play.bots`), …rule options
  spelled as in the game record ("preset", "schedule", "dealer_bid", …), and the table's own
  options: "clock" (0, none, the default, or 10 to 300 seconds a person has for a move),
  "level" (the bot that plays for a person, default "normal"), "hints" and "spectator_chat"
  (false by default; :mod:`upriver.web.play.clock`)}`` → ``{"table", "seat", "token", "url"}``; a
  refusal is 400 ``{"error"}``, and for rules the engine refuses also ``"option"``, the option at
  fault (or ``null``). ``"creator": null`` with every seat a bot makes a table to watch: the
  answer's ``seat`` and ``token`` are ``null`` and ``url`` is the spectators' link.
- ``GET /api/tables/{id}?token=…`` a table as the start page lists it: ``seats`` (name, kind,
  joined), ``started``, ``over``, ``round`` and ``rounds``, ``damaged``, ``seat`` (the token's, or
  ``null``), ``host``, and for the host the open seats' ``invites`` and the ``spectate`` link; a
  token that opens nothing any more is 403 with ``rule: token`` and its ``reason``
  (:mod:`upriver.web.seats.keys`).
- ``POST /api/tables/{id}/recover`` ``{"invite", "secret"}`` the page that sent a join with the
  SHA-256 of ``secret`` gets the seat's token back while the join is not confirmed (ten minutes at
  most) → ``{"table", "seat", "token", "url"}``; anyone else 403 ``rule: recover``.
- ``POST /api/tables/{id}/seats/{seat}/bot`` ``{"token", "kind"}`` the host gives an open seat to a
  bot before the game starts (its invite opens nothing any more) → the table as above; 403 for
  another token, 400 ``{"error"}`` for a seat or kind that cannot be given.
- ``POST /api/tables/{id}/rematch`` ``{"token"}`` and ``GET /api/tables/{id}/rematch?token=…``: a
  finished table's rematch and this seat's own link to it; ``GET /api/tables/{id}/rules`` its rules
  (:mod:`upriver.web.play.rematch`).
- ``POST /api/tables/{id}/qr`` ``{"token"}`` the QR code (SVG) of the seat's link, to move the seat to
  another device; 403 for a token that opens no seat (:mod:`upriver.web.seats.qr`).
- ``GET /favicon.ico`` the site's icon (an SVG).
- ``GET /i18n/{lang}.json`` the pages' words in one language (:mod:`upriver.i18n`, read by ``i18n.js``).
- ``GET /api/tables/{id}/record?token=…`` the game record (no seed): while the game is on, only
  for a seat's token and only the finished rounds, so no card still in a hand leaves the server.

WebSocket ``/ws/{id}?token=…`` (no token: a spectator); see :mod:`upriver.web.play.protocol`.

Each part is a router of its own module: the tables' routes and the WebSocket
(:mod:`upriver.web.play.routes`), the score keeper, the rematch, the review, the scoring examples,
health and metrics; a route under ``/api/tables/{id}`` finds its table through one look-up
(:mod:`upriver.web.play.lookup`), whose refusal is 404 ``{"error": "no such table (or it was archived)"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from upriver.database import PostgresTarget, StoreError, Target
from upriver.i18n import CATALOGUES
from upriver.keeper.store import UnreadableSheetError
from upriver.web.accounts import account_router
from upriver.web.cluster.news import cluster_for
from upriver.web.groups.page import group_page_router
from upriver.web.groups.routes import group_router
from upriver.web.hosting import admission, metrics
from upriver.web.hosting.accesslog import AccessLog
from upriver.web.hosting.guard import SECURITY_HEADERS, origin_allowed, refusal
from upriver.web.hosting.health import PROBES, health_router
from upriver.web.hosting.hosts import HostPolicy
from upriver.web.hosting.limits import Limits
from upriver.web.keeper.api import keeper_router
from upriver.web.keeper.offline import keeper_offline_router
from upriver.web.keeper.scoring import scoring_router
from upriver.web.play import bots
from upriver.web.play.rematch import rematch_router
from upriver.web.play.routes import CLOSE_FULL, CLOSE_NO_TABLE, STATIC, table_router
from upriver.web.play.tables import Manager
from upriver.web.review.api import review_router
from upriver.web.review.upload import review_upload_router
from upriver.web.seats.holders import CLOSE_BAD_TOKEN, CLOSE_TOO_SLOW
from upriver.web.seats.qr import seat_qr_router
from upriver.web.social.talk import Social
from upriver.web.store import open_table_store

__all__ = ["CLOSE_BAD_TOKEN", "CLOSE_FULL", "CLOSE_NO_TABLE", "CLOSE_TOO_SLOW", "STATIC", "create_app"]


class _Guard:
    """ASGI middleware: the security headers on every HTTP response, and the Origin check on every
    request that may change state (any method but GET/HEAD/OPTIONS, and every WebSocket); before
    both, the Host check (``hosts``; :mod:`upriver.web.hosting.hosts`)."""

    def __init__(
        self, app: ASGIApp, allowed_origins: tuple[str, ...], hosts: HostPolicy | None = None
    ) -> None:
        self.app = app
        self.allowed = allowed_origins
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.hosts is not None and scope["type"] in ("http", "websocket") and scope["path"] not in PROBES:
            host = dict(scope.get("headers", [])).get(b"host")
            if not self.hosts.allows(None if host is None else host.decode("latin-1")):
                await admission.refuse_host(self.hosts, scope, receive, send)
                return
        if scope["type"] == "websocket":
            scope.setdefault("state", {})["origin_ok"] = self._origin_ok(scope)
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.lower().encode() not in names:
                        headers.append((name.lower().encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        if scope["method"] not in ("GET", "HEAD", "OPTIONS") and not self._origin_ok(scope):
            refused = refusal(
                "this request's origin may not change anything on this server "
                "(a page of another site; see upriver serve --allow-origin)",
                403,
                rule="origin",
            )
            await refused(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    def _origin_ok(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        host = headers.get(b"host")
        return origin_allowed(
            None if origin is None else origin.decode("latin-1"),
            None if host is None else host.decode("latin-1"),
            self.allowed,
            self.hosts,
        )


def create_app(
    db_path: str | Path | Target,
    *,
    bot_delay: float = 0.8,
    limits: Limits | None = None,
    allowed_origins: Sequence[str] = (),
    hosts: HostPolicy | None = None,
    warm: bool = False,
    now: Callable[[], float] = time.time,
) -> FastAPI:
    """The web app over the tables and sheets stored in ``db_path`` (a SQLite path or
    ``sqlite:///PATH``, or a ``postgresql://`` URL: :func:`upriver.database.parse_target`); bots wait
    ``bot_delay`` seconds before a move at a ``normal`` pace (:data:`upriver.web.play.bots.PACES`). With
    ``warm``, the search bots' kernel is made ready in a background thread as the app starts
    (:func:`upriver.web.play.bots.warm_in_background`).

    ``limits`` are the server's limits (default :class:`Limits`). ``allowed_origins`` lists the
    origins (``https://cards.example:8443``) whose pages may change state; empty means this
    server's own host and port and its loopback names. ``hosts`` are the host names the server
    answers to (:class:`upriver.web.hosting.hosts.HostPolicy`; ``upriver serve`` always gives them);
    ``None`` answers every host. ``now`` is the time the turn clocks go by
    (:mod:`upriver.web.play.clock`; tests drive it).

    :raises upriver.database.StoreError: the database is malformed (``TargetError``) or cannot be
        opened (``StoreUnavailableError``): one sentence saying why.
    """
    limits = limits or Limits()
    store = open_table_store(db_path)
    try:
        # Over PostgreSQL other server processes may serve the same tables (upriver.web.cluster.news).
        cluster = cluster_for(store.db.target)
    except BaseException:
        store.close()
        raise
    # A PostgreSQL commit is a round trip to another process: it runs off the event loop.
    background = isinstance(store.db.target, PostgresTarget)
    manager = Manager(
        store,
        bot_delay=bot_delay,
        archive_after=limits.archive_after,
        cluster=cluster,
        background=background,
        now=now,
    )
    social = Social(manager.tables, store, cluster, now=now)  # presence and table talk

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm:
            bots.warm_in_background()
        manager.wake_all_bots()
        following = asyncio.create_task(cluster.run(manager.following, social))
        clocks = asyncio.create_task(manager.clock.run())  # the turn clocks of the tables owned here
        yield
        following.cancel()
        clocks.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following
        with contextlib.suppress(asyncio.CancelledError):
            await clocks
        for table in manager.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        manager.close()
        cluster.close()
        store.close()
        keeper.store.close()
        accounts.store.close()
        groups.store.close()
        reviews.service.close()

    app = FastAPI(title="upriver", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.limits = limits
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/i18n", StaticFiles(directory=CATALOGUES), name="i18n")  # the pages' words: /i18n/fr.json
    try:
        keeper = keeper_router(db_path, limits)  # the score keeper: /keep and /api/sheets
        accounts = account_router(db_path, manager, limits)  # optional accounts by passkey: /account
    except BaseException:
        store.close()
        raise
    app.include_router(keeper)
    app.include_router(accounts)  # /account, /api/account: passkeys, sessions, My tables
    groups = group_router(db_path, manager, limits, accounts.store)  # /g/{id}, /api/groups: the league
    app.include_router(groups)
    app.include_router(group_page_router())  # /g/{id}: the group's page, over that API
    app.include_router(keeper_offline_router())  # the keeper offline: /keep-sw.js, its manifest and core
    app.include_router(health_router(manager))  # /healthz and /readyz
    app.include_router(rematch_router(manager, limits))  # /api/tables/{id}/rematch and /rules
    app.include_router(seat_qr_router(manager, limits))  # /api/tables/{id}/qr: a seat's link to scan
    reviews = review_router(manager)  # /api/tables/{id}/review: the post-game review
    app.include_router(reviews)
    app.include_router(review_upload_router(reviews.service, limits))  # /api/review: a hand or record sent
    app.include_router(scoring_router(limits))  # /api/scoring: a scoring's worked examples
    app.state.reviews = reviews.service
    app.include_router(metrics.metrics_router(manager, reviews.service))  # /metrics, for Prometheus

    @app.exception_handler(UnreadableSheetError)
    async def unreadable_sheet(request: Request, error: UnreadableSheetError) -> JSONResponse:
        # A sheet stored before its names or rules were checked: say why instead of a 500.
        return refusal(str(error), status=409, rule="unreadable sheet")

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        # A path or query parameter of the wrong kind (?round=abc): the API's own error shape, not FastAPI's.
        problems = error.errors()
        first = problems[0] if problems else {}
        location = [str(part) for part in first.get("loc", ())]
        field = location[-1] if location else "request"
        where = location[0] if location else "request"
        message = f"the {where} parameter {field!r} is not valid: {first.get('msg', 'it is malformed')}"
        return refusal(message, 400, field=field)

    @app.exception_handler(StoreError)
    async def store_failed(request: Request, error: StoreError) -> JSONResponse:
        # The database is away (a PostgreSQL outage) or failed: nothing was written; say so, not a 500.
        return refusal(f"{error}; nothing changed: try again", status=503, rule="store")

    app.add_middleware(_Guard, allowed_origins=tuple(allowed_origins), hosts=hosts)
    app.add_middleware(AccessLog)  # outermost, so refusals are logged too (upriver serve --access-log)

    # The tables: the pages, /api/options, /api/tables and a table's routes, the WebSocket /ws/{id}.
    app.include_router(table_router(manager, social, limits=limits, bot_delay=bot_delay))

    return app
