"""The figures this server process measures as it goes, for ``GET /metrics``
(:mod:`upriver.web.hosting.metrics`).

Each is labelled with the process (``worker``: its process id), since with ``upriver serve
--workers N`` a scrape reaches one of the N processes and each answers for itself. This module
imports only ``prometheus_client``, the event log and the store's events, so the live tables
(:mod:`upriver.web.play.tables`) and the WebSocket handler can observe them without importing the
metrics page.
"""

from __future__ import annotations

import os
import time
from types import TracebackType
from typing import TYPE_CHECKING

from prometheus_client import Counter, Histogram

from upriver.web.hosting import eventlog
from upriver.web.store import Event

if TYPE_CHECKING:
    from upriver.state import GameState

__all__ = ["ACTIONS", "COMMIT_SECONDS", "MESSAGE_SECONDS", "UPDATE_SECONDS", "applied", "timed", "worker"]

_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)

MESSAGE_SECONDS = Histogram(
    "upriver_message_seconds",
    "Time the event loop spends on one client message (a move: checked, committed over SQLite, sent).",
    ["worker"],
    buckets=_BUCKETS,
    registry=None,
)
COMMIT_SECONDS = Histogram(
    "upriver_commit_seconds",
    "Time the store takes to commit one event (a move, a join, …).",
    ["worker"],
    buckets=_BUCKETS,
    registry=None,
)
UPDATE_SECONDS = Histogram(
    "upriver_update_seconds",
    "Time from a move's arrival (a message, a bot's choice) until every connection of its table "
    "is told of the state that includes it (waiting behind the table's earlier moves included).",
    ["worker"],
    buckets=_BUCKETS,
    registry=None,
)
ACTIONS = Counter(
    "upriver_actions",
    "Events this process committed and applied, by kind (bid, play, join, …): its rate is actions/s.",
    ["worker", "kind"],
    registry=None,
)


def worker() -> str:
    """This process's ``worker`` label: its process id."""
    return str(os.getpid())


def applied(table_id: str, event: Event, arrived: float, game: GameState | None = None) -> None:
    """``event``, which arrived at ``arrived`` (``time.perf_counter()``), was committed, applied and
    announced at ``table_id`` (whose game is ``game`` now): count it, time it, and log it
    (:mod:`upriver.web.hosting.eventlog`, which keeps a bid sealed until every seat may see it)."""
    me = worker()
    ACTIONS.labels(me, event.kind).inc()
    UPDATE_SECONDS.labels(me).observe(time.perf_counter() - arrived)
    eventlog.applied(table_id, event.version, event.seat, event.kind, event.value, game)


class timed:  # noqa: N801 - used as a context manager, like a function
    """``with timed():`` observes the block's time in :data:`MESSAGE_SECONDS`."""

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        MESSAGE_SECONDS.labels(worker()).observe(time.perf_counter() - self._start)
