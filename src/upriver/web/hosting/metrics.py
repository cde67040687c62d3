"""``GET /metrics``: this server process's figures for Prometheus (``prometheus_client``).

- ``upriver_tables``: tables loaded (being played, or finished and not yet archived);
- ``upriver_connections{role="player"|"spectator"}``: open WebSocket connections;
- ``upriver_actions_total{kind}``: events (bids, cards, joins, …) this process committed and
  applied: its rate is the actions per second;
- ``upriver_table_events``: the events the loaded tables hold, their versions' sum (whichever
  process committed them);
- ``upriver_message_seconds``: a histogram of the time the event loop spends on one client message
  (a move: checked by the engine, committed over SQLite, and every connection told of it);
- ``upriver_commit_seconds``: a histogram of the time the store takes to commit one event;
- ``upriver_update_seconds``: a histogram of the time from a move's arrival to every connection of
  its table being told of it (the move→update latency, over PostgreSQL its commit by a thread and
  the table's earlier moves included);
- ``upriver_refusals_total{rule}``: refusals answered, by rule (``stale``, ``rate``, ``host``, …:
  :mod:`upriver.web.hosting.refusals`);
- ``upriver_review_rounds``: rounds of reviews under way or waiting for a worker
  (:mod:`upriver.web.review.api`);
- and the client library's own process figures (CPU, memory, open files).

Every ``upriver_`` figure is labelled ``worker`` (the process id,
:func:`upriver.web.hosting.instruments.worker`): with ``--workers``, a scrape reaches one of the processes,
which answers for itself. prometheus_client's multiprocess mode, which would add the processes up
in one scrape, is not used: it supports no custom collector, and the tables and connections are read
from the live tables at each scrape. So give each worker's figures time to be scraped (scrape
often), or run one server process per port. ``/metrics`` holds no token or name; it answers whatever
the Host header (a Prometheus on the machine asks by address), so a public proxy should not pass it
on (docs/hosting.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from upriver.web.hosting import refusals
from upriver.web.hosting.instruments import (
    ACTIONS,
    COMMIT_SECONDS,
    MESSAGE_SECONDS,
    UPDATE_SECONDS,
    timed,
    worker,
)
from upriver.web.play.tables import Manager
from upriver.web.review.api import ReviewService

__all__ = ["MESSAGE_SECONDS", "metrics_router", "timed"]


class _Tables(Collector):
    """The figures read from the manager's tables at each scrape."""

    def __init__(self, manager: Manager, reviews: ReviewService | None) -> None:
        self.manager = manager
        self.reviews = reviews

    def collect(self) -> Iterator[Metric]:
        me = worker()
        tables = list(self.manager.tables.values())
        loaded = GaugeMetricFamily("upriver_tables", "Tables loaded in this process.", labels=["worker"])
        loaded.add_metric([me], len(tables))
        yield loaded
        connections = GaugeMetricFamily(
            "upriver_connections", "Open WebSocket connections.", labels=["worker", "role"]
        )
        spectators = sum(conn.seat is None for table in tables for conn in table.connections)
        players = sum(len(table.connections) for table in tables) - spectators
        connections.add_metric([me, "player"], players)
        connections.add_metric([me, "spectator"], spectators)
        yield connections
        events = CounterMetricFamily(
            "upriver_table_events",
            "Events (moves, joins, …) the loaded tables hold, whichever process committed them.",
            labels=["worker"],
        )
        events.add_metric([me], sum(table.version for table in tables))
        yield events
        refused = CounterMetricFamily(
            "upriver_refusals", "Refusals answered, by rule.", labels=["worker", "rule"]
        )
        for rule, count in sorted(refusals.counts().items()):
            refused.add_metric([me, rule], count)
        yield refused
        if self.reviews is not None:
            rounds = GaugeMetricFamily(
                "upriver_review_rounds",
                "Rounds of reviews under way or waiting for a worker.",
                labels=["worker"],
            )
            rounds.add_metric([me], self.reviews.under_way())
            yield rounds


def metrics_router(manager: Manager, reviews: ReviewService | None = None) -> APIRouter:
    """``GET /metrics`` over ``manager``'s tables and ``reviews``' queue, in Prometheus's text format."""
    registry = CollectorRegistry()
    registry.register(_Tables(manager, reviews))
    for instrument in (MESSAGE_SECONDS, COMMIT_SECONDS, UPDATE_SECONDS, ACTIONS):
        registry.register(instrument)
    registry.register(ProcessCollector(registry=None))
    router = APIRouter()

    @router.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    return router
