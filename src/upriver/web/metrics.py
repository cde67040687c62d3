"""``GET /metrics``: this server process's figures for Prometheus (``prometheus_client``).

- ``upriver_tables``: tables loaded (being played, or finished and not yet archived);
- ``upriver_connections{role="player"|"spectator"}``: open WebSocket connections;
- ``upriver_table_events``: the events (moves, joins, …) the loaded tables hold, their versions'
  sum: its rate is the actions per second;
- ``upriver_message_seconds``: a histogram of the time the event loop spends on one client message
  (a move: checked by the engine, committed over SQLite, and every connection told of it);
- ``upriver_refusals_total{rule}``: refusals answered, by rule (``stale``, ``rate``, ``host``, …:
  :mod:`upriver.web.refusals`);
- ``upriver_review_rounds``: rounds of reviews under way or waiting for a worker
  (:mod:`upriver.web.review_api`);
- and the client library's own process figures (CPU, memory, open files).

Each server process answers for itself (with ``--workers``, a scrape reaches one of them: give
each worker its own port or scrape often). ``/metrics`` holds no token or name; it answers whatever
the Host header (a Prometheus on the machine asks by address), so a public proxy should not pass
it on (docs/hosting.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from upriver.web import refusals
from upriver.web.review_api import ReviewService
from upriver.web.tables import Manager

__all__ = ["MESSAGE_SECONDS", "metrics_router", "timed"]

MESSAGE_SECONDS = Histogram(
    "upriver_message_seconds",
    "Time the event loop spends on one client message (a move: checked, committed over SQLite, sent).",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
    registry=None,
)
"""One histogram for the process, whichever app's connection the message came on."""


class timed:  # noqa: N801 - used as a context manager, like a function
    """``with timed():`` observes the block's time in :data:`MESSAGE_SECONDS`."""

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        MESSAGE_SECONDS.observe(time.perf_counter() - self._start)


class _Tables(Collector):
    """The figures read from the manager's tables at each scrape."""

    def __init__(self, manager: Manager, reviews: ReviewService | None) -> None:
        self.manager = manager
        self.reviews = reviews

    def collect(self) -> Iterator[Metric]:
        tables = list(self.manager.tables.values())
        yield GaugeMetricFamily("upriver_tables", "Tables loaded in this process.", value=len(tables))
        connections = GaugeMetricFamily("upriver_connections", "Open WebSocket connections.", labels=["role"])
        spectators = sum(conn.seat is None for table in tables for conn in table.connections)
        players = sum(len(table.connections) for table in tables) - spectators
        connections.add_metric(["player"], players)
        connections.add_metric(["spectator"], spectators)
        yield connections
        yield CounterMetricFamily(
            "upriver_table_events",
            "Events (moves, joins, …) the loaded tables hold: its rate is actions per second.",
            value=sum(table.version for table in tables),
        )
        refused = CounterMetricFamily("upriver_refusals", "Refusals answered, by rule.", labels=["rule"])
        for rule, count in sorted(refusals.counts().items()):
            refused.add_metric([rule], count)
        yield refused
        if self.reviews is not None:
            yield GaugeMetricFamily(
                "upriver_review_rounds",
                "Rounds of reviews under way or waiting for a worker.",
                value=self.reviews.under_way(),
            )


def metrics_router(manager: Manager, reviews: ReviewService | None = None) -> APIRouter:
    """``GET /metrics`` over ``manager``'s tables and ``reviews``' queue, in Prometheus's text format."""
    registry = CollectorRegistry()
    registry.register(_Tables(manager, reviews))
    registry.register(MESSAGE_SECONDS)
    registry.register(ProcessCollector(registry=None))
    router = APIRouter()

    @router.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    return router
