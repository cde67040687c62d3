"""A served app keeps Python's cycle collector from pausing its event loop for long: what exists once
it is built is frozen out of later collections, and full collections come seldom."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from upriver.web.cluster.workers import COLLECTOR_THRESHOLDS, ServeSettings


@pytest.fixture
def collector() -> Iterator[None]:
    """Give the test process its collector back as it was."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("collector")
def test_a_served_app_freezes_what_it_holds_once_started_and_collects_fully_seldom(tmp_path: Path) -> None:
    gc.unfreeze()
    app = ServeSettings(db=str(tmp_path / "tables.db"), warm=False, allowed_hosts=("testserver",)).app()
    assert gc.get_freeze_count() == 0, "built, not yet started"
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the modules and the app, out of every later collection
    young, middle, full = gc.get_threshold()
    assert (young, middle, full) == COLLECTOR_THRESHOLDS
    assert young > 700
    assert full > 10
