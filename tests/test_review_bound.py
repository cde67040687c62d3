"""The review's work is bounded and shared fairly between tables, and a finished answer is kept."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.reviewing import Setup
from upriver.review import RoundTask, Settings, review_round
from upriver.web.play.tables import Table
from upriver.web.review import api as review_api
from upriver.web.review.api import BUSY, ReviewService, review_router


class Held(concurrent.futures.Executor):
    """An executor that runs nothing until told: each submitted round waits in :attr:`held`."""

    def __init__(self) -> None:
        self.held: list[tuple[RoundTask, concurrent.futures.Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.held.append((args[0], future))
        return future

    def run_all(self, settings: Settings) -> None:
        for task, future in self.held:
            if not future.done():
                future.set_result(review_round(task, settings))


class Bounded(Setup):
    """:class:`Setup` whose reviews wait in a :class:`Held` executor, with the given bounds."""

    def __init__(self, db: Path, **bounds: int) -> None:
        super().__init__(db)
        self.held = Held()
        self.service = ReviewService(Settings(deals=4), executor=self.held, **bounds)
        app = FastAPI()
        app.include_router(review_router(self.manager, self.service))
        self.client = TestClient(app)

    def finished(self, rounds: int, of: int) -> Table:
        table = self.table([1] * of)
        while table.game is not None and len(table.game.results) < rounds:
            self.play(table, 1)
        return table


@pytest.fixture
def bounded(tmp_path: Path) -> Iterator[Bounded]:
    made = Bounded(tmp_path / "tables.db", table_in_flight=4, most_in_flight=32)
    with made.site:
        yield made
    made.pool.shutdown()


def test_one_client_reviewing_every_seat_of_a_long_table_does_not_queue_ahead_of_another_table(
    bounded: Bounded,
) -> None:
    big = bounded.finished(rounds=10, of=12)
    for seat in range(4):  # one client holding every seat asks for every finished round of each
        answer = bounded.ask(big, seat)
        assert answer.status_code == 202
        assert answer.json()["total"] > 0
    assert len(bounded.held.held) == 4, "one table has at most four rounds under way"
    small = bounded.finished(rounds=1, of=2)
    assert bounded.ask(small, 0).status_code == 202
    assert len(bounded.held.held) == 5
    assert bounded.held.held[-1][0].round_number == 1, "the other table's round is next, not the 36th"
    bounded.held.run_all(bounded.service.settings)
    assert bounded.ask(small, 0).status_code == 200
    assert bounded.ask(big, 0).status_code == 202, "the big table's next rounds start as those finish"
    assert len(bounded.held.held) > 5


def test_past_the_servers_bound_a_new_review_is_refused_in_a_sentence(tmp_path: Path) -> None:
    made = Bounded(tmp_path / "tables.db", table_in_flight=4, most_in_flight=2)
    with made.site:
        first = made.finished(rounds=3, of=4)
        assert made.ask(first, 0).status_code == 202
        other = made.finished(rounds=1, of=2)
        refused = made.ask(other, 0)
        assert refused.status_code == 503
        assert refused.json() == {"error": BUSY, "rule": "review"}
        made.held.run_all(made.service.settings)
        assert made.ask(first, 0).status_code == 202  # its last round starts now
        assert made.ask(other, 0).status_code == 202, "once the work is done, it is taken"
    made.pool.shutdown()


def test_a_finished_review_is_answered_again_without_being_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = Setup(tmp_path / "tables.db")
    with made.site:
        table = made.table([1, 1])
        made.play(table)
        first = made.review(table, 0)

        def rebuilt(*args: object) -> None:
            raise AssertionError("a finished review was rebuilt")

        monkeypatch.setattr(review_api, "review_json", rebuilt)
        again = made.ask(table, 0)
        assert again.status_code == 200
        assert again.json() == first
    made.pool.shutdown()
