"""``upriver serve --workers N``: the settings every server process builds its app from.

uvicorn runs N worker processes on one port (its own supervisor, which also starts a worker
again if one dies); each builds its app by calling :func:`app_from_environment`, which reads the
command's settings from :data:`SETTINGS_VARIABLE`. Several processes need a PostgreSQL store
(:mod:`upriver.web.cluster.news`): with SQLite ``upriver serve`` refuses ``--workers`` above 1.

This module imports only the standard library at the top, so ``upriver --help`` stays quick.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
from typing import TYPE_CHECKING

from upriver.web.hosting.limits import Limits

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "COLLECTOR_THRESHOLDS",
    "SETTINGS_VARIABLE",
    "ServeSettings",
    "app_from_environment",
    "quiet_collector",
]

SETTINGS_VARIABLE = "UPRIVER_SERVE_SETTINGS"
"""The environment variable through which ``upriver serve`` hands its settings to its workers."""

COLLECTOR_THRESHOLDS = (10_000, 10, 100)
"""Python's cycle collector's thresholds in a server process (:func:`quiet_collector`); Python's own
are ``(700, 10, 10)``."""


def quiet_collector() -> None:
    """Keep Python's cycle collector from stopping the event loop for long, once the app has started.

    A full collection walks every object the process holds: with 500 tables in play some 220,000,
    100 to 250 ms during which no table moves, every few seconds under Python's own thresholds;
    these pauses made the tail of a move's latency. So what exists once the app has started (the
    modules, the restored tables) is frozen out of every later collection (:func:`gc.freeze`), the
    youngest generation is collected after 10,000 new objects rather than 700 (so few of a
    message's short-lived objects are still alive to be promoted), and a full collection waits for
    100 collections of the middle generation rather than 10. Objects in no reference cycle are
    still freed at once by reference counting, so memory stays bounded.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


@dataclasses.dataclass(frozen=True, kw_only=True)
class ServeSettings:
    """What ``upriver serve`` builds an app from: the store, the bots' delay, limits, origins, host names,
    warming."""

    db: str
    bot_delay: float = 0.8
    limits: Limits = dataclasses.field(default_factory=Limits)
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    """``--allowed-host`` values; none: the default for ``bind``
    (:class:`upriver.web.hosting.hosts.HostPolicy`)."""
    bind: str = "127.0.0.1"
    """The address the server listens on."""
    access_log: bool = False
    """Write the JSON access log to standard error (:mod:`upriver.web.hosting.accesslog`)."""
    event_log: bool = False
    """Write the JSON event log to standard error (:mod:`upriver.web.hosting.eventlog`)."""
    warm: bool = True

    def app(self) -> ASGIApp:
        """The web app over these settings (:func:`upriver.web.app.create_app`), as a server process
        serves it (its collector quieted once started, its start and stop logged).

        :raises upriver.database.StoreError: the store cannot be opened (one sentence saying why).
        """
        from upriver.web.app import create_app
        from upriver.web.hosting import accesslog, eventlog
        from upriver.web.hosting.hosts import HostPolicy

        if self.access_log:
            accesslog.enable()
        if self.event_log:
            eventlog.enable()

        app = create_app(
            self.db,
            bot_delay=self.bot_delay,
            limits=self.limits,
            allowed_origins=self.allowed_origins,
            hosts=HostPolicy.of(self.allowed_hosts, self.bind),
            warm=self.warm,
        )
        return _Served(app)

    def check(self) -> None:
        """Open the store and close it again, to say before any worker starts why it cannot be opened.

        :raises upriver.database.StoreError: it cannot be.
        """
        from upriver.web.store import open_table_store

        open_table_store(self.db).close()

    def to_json(self) -> str:
        """These settings as JSON text (:meth:`from_json` reads it back)."""
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeSettings:
        """The settings :meth:`to_json` wrote."""
        data = json.loads(text)
        return cls(
            db=data["db"],
            bot_delay=float(data["bot_delay"]),
            limits=Limits(**data["limits"]),
            allowed_origins=tuple(data["allowed_origins"]),
            allowed_hosts=tuple(data["allowed_hosts"]),
            bind=str(data["bind"]),
            access_log=bool(data.get("access_log", False)),
            event_log=bool(data.get("event_log", False)),
            warm=bool(data["warm"]),
        )


class _Served:
    """The app as a server process serves it: once it has started, the cycle collector is quieted
    (:func:`quiet_collector`: what exists then, the app and its restored tables, is frozen) and the
    event log says so (:mod:`upriver.web.hosting.eventlog`), as it does when the app has stopped. Every other
    request and WebSocket goes straight to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        from upriver.web.hosting import eventlog

        async def told(message: Message) -> None:
            if message["type"] == "lifespan.startup.complete":
                quiet_collector()
                eventlog.note("started")
            elif message["type"] == "lifespan.shutdown.complete":
                eventlog.note("stopped")
            await send(message)

        await self.app(scope, receive, told)


def app_from_environment() -> ASGIApp:
    """The app of one worker of ``upriver serve --workers N``, from :data:`SETTINGS_VARIABLE`.

    :raises RuntimeError: the variable is not set (this factory is only for ``upriver serve``).
    """
    text = os.environ.get(SETTINGS_VARIABLE)
    if text is None:
        raise RuntimeError(
            f"{SETTINGS_VARIABLE} is not set: start the workers with upriver serve --workers N"
        )
    return ServeSettings.from_json(text).app()
