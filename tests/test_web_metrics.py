"""``/metrics`` shows what a host watches: actions, the time a commit takes and a move takes to reach
every seat, each figure labelled with the server process that measured it."""

from __future__ import annotations

import contextlib
import os
import re

from fastapi.testclient import TestClient

from tests.webclient import Room
from upriver.web.app import create_app
from upriver.web.hosting.hosts import HostPolicy

_LOCAL = {"host": "127.0.0.1:9100"}


Labels = frozenset[tuple[str, str]]


def _samples(text: str, name: str) -> dict[Labels, float]:
    """The samples of metric ``name`` in a Prometheus text page, by their labels."""
    found: dict[Labels, float] = {}
    for line in text.splitlines():
        match = re.fullmatch(rf"{name}(?:\{{([^}}]*)\}})? (\S+)", line)
        if match:
            found[frozenset(re.findall(r'(\w+)="([^"]*)"', match.group(1) or ""))] = float(match.group(2))
    return found


def _one(text: str, name: str, **labels: str) -> float:
    """The sample of ``name`` with ``labels`` and this process's ``worker`` label (0 if absent)."""
    key = frozenset({**labels, "worker": str(os.getpid())}.items())
    return _samples(text, name).get(key, 0.0)


def test_metrics_count_actions_by_kind_and_time_commits_and_move_to_update(db: str) -> None:
    app = create_app(db, bot_delay=0.0, hosts=HostPolicy.of(("testserver",), "127.0.0.1"))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[1, 1])
        before = client.get("/metrics", headers=_LOCAL).text
        for _ in range(3):
            room.move()
        text = client.get("/metrics", headers=_LOCAL).text
    bids = _one(text, "upriver_actions_total", kind="bid") - _one(before, "upriver_actions_total", kind="bid")
    assert bids == 3
    assert _one(text, "upriver_actions_total", kind="join") >= 3
    actions = sum(_samples(text, "upriver_actions_total").values()) - sum(
        _samples(before, "upriver_actions_total").values()
    )
    commits = _one(text, "upriver_commit_seconds_count") - _one(before, "upriver_commit_seconds_count")
    assert commits == actions, "each event committed once"
    assert _one(text, "upriver_commit_seconds_sum") > 0
    updates = _one(text, "upriver_update_seconds_count") - _one(before, "upriver_update_seconds_count")
    assert updates == actions
    everything = _one(text, "upriver_update_seconds_bucket", le="+Inf")
    assert everything == _one(text, "upriver_update_seconds_count")


def test_every_upriver_figure_names_the_process_that_measured_it(db: str) -> None:
    app = create_app(db, bot_delay=0.0, hosts=HostPolicy.of(("testserver",), "127.0.0.1"))
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        Room(client, stack, schedule=[1])
        text = client.get("/metrics", headers=_LOCAL).text
    figures = [line for line in text.splitlines() if line.startswith("upriver_")]
    assert figures
    unlabelled = [line for line in figures if f'worker="{os.getpid()}"' not in line]
    assert unlabelled == []
    assert _one(text, "upriver_tables") == 1
    assert _one(text, "upriver_table_events_total") > 0
    assert _one(text, "upriver_connections", role="player") == 4
