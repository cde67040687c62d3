"""``GET /healthz`` and ``GET /readyz``: whether this server process lives, and whether it is ready.

- ``/healthz`` answers 200 ``{"alive": true}`` as long as the process serves at all (its event loop
  turns): for a supervisor (systemd, a container's health check) that restarts a hung process.
- ``/readyz`` answers 200 when the process can serve a game: its store answers a query (within
  :data:`STORE_SECONDS`) and the search bots' kernel is not still being made ready at start
  (``upriver serve --warm``, the default: a bot's first move would wait for it); else 503. The
  body says which: ``{"ready", "store": "ok" | sentence, "kernel": "warm" | "warming" | "failed" |
  "cold", "tables"}``. For a proxy or load balancer that sends players only to ready processes.

Both answer whatever the request's Host (a probe on the machine asks by address) and are read only.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from upriver.database import PostgresTarget, StoreError
from upriver.web.play import bots
from upriver.web.play.tables import Manager
from upriver.web.store import TableStore

__all__ = ["PROBES", "STORE_SECONDS", "health_router", "reach"]

PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
"""The paths of the probes and the metrics (read only, answered whatever the Host header:
:mod:`upriver.web.hosting.hosts`)."""

STORE_SECONDS = 3.0
"""How long ``/readyz`` waits for the store's answer before it calls it unreachable."""

_NO_CACHE = {"Cache-Control": "no-store"}


def reach(store: TableStore) -> None:
    """Ask ``store``'s database the smallest question.

    :raises StoreError: it does not answer (one sentence saying why).
    """
    store.db.fetch("SELECT 1")


def health_router(manager: Manager) -> APIRouter:
    """The two probes, over ``manager``'s store."""
    router = APIRouter()
    store = manager.store

    def ping() -> None:
        reach(store)

    @router.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        return JSONResponse({"alive": True}, headers=_NO_CACHE)

    @router.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        try:
            if isinstance(store.db.target, PostgresTarget):  # a round trip: off the event loop
                await asyncio.wait_for(asyncio.to_thread(ping), STORE_SECONDS)
            else:
                ping()
            reached = "ok"
        except (StoreError, TimeoutError) as error:
            reached = str(error) or f"no answer within {STORE_SECONDS:g} s"
        kernel = bots.kernel_state()
        ready = reached == "ok" and kernel != "warming"
        body = {"ready": ready, "store": reached, "kernel": kernel, "tables": len(manager.tables)}
        return JSONResponse(body, status_code=200 if ready else 503, headers=_NO_CACHE)

    return router
