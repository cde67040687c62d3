"""GET /api/tables/{id}/review never answers 500: a review that fails, or a worker pool that cannot
start (a server started from a script without an ``if __name__ == "__main__":`` guard, whose spawned
workers run the script again), is a 503 with a sentence, and a later request starts afresh."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.reviewing import Setup
from tests.waiting import wait_until
from upriver.review import Settings
from upriver.web.play.tables import Table
from upriver.web.review import api as review_api
from upriver.web.review.api import POOL_BROKEN, ReviewService, review_router


def answer(client: TestClient, table: Table, seat: int = 0) -> httpx.Response:
    """Ask for seat ``seat``'s review of round 1 until it is no longer running."""

    def ended() -> httpx.Response | None:
        response: httpx.Response = client.get(
            f"/api/tables/{table.id}/review", params={"token": table.tokens[seat], "round": 1}
        )
        return None if response.status_code == 202 else response

    return wait_until(ended, "the review to end", timeout=60)


def reviews_over(setup: Setup, service: ReviewService) -> TestClient:
    """An app serving only the review over ``setup``'s tables, from ``service``."""
    app = FastAPI()
    app.include_router(review_router(setup.manager, service))
    return TestClient(app, raise_server_exceptions=True)


def one_round_over(setup: Setup) -> Table:
    table = setup.table([1, 2])
    setup.play(table, 4 + 4)  # round 1: four bids, four cards
    return table


def failing_review(*args: Any) -> None:
    raise ValueError("no position to judge")


@pytest.mark.slow
def test_a_review_whose_computation_raises_is_a_503_in_a_sentence_and_a_retry_computes_it(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = one_round_over(setup)
    monkeypatch.setattr(review_api, "review_round", failing_review)
    failed = answer(setup.client, table)
    assert failed.status_code == 503
    assert failed.json()["error"] == "the review could not be computed (ValueError): try again"
    monkeypatch.undo()
    again = answer(setup.client, table)
    assert again.status_code == 200, again.text
    assert again.json()["status"] == "done"


def test_a_review_that_cannot_be_put_in_words_is_a_503_not_a_500(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = one_round_over(setup)

    def broken_json(*args: Any) -> None:
        raise KeyError("decisions")

    monkeypatch.setattr(review_api, "review_json", broken_json)
    failed = answer(setup.client, table)
    assert failed.status_code == 503
    assert failed.json()["error"] == "the review could not be computed (KeyError): try again"


def dead_pool() -> concurrent.futures.ProcessPoolExecutor:
    """A spawned pool whose workers exit as they start, as a script without a main guard makes them."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=os._exit, initargs=(1,)
    )


def test_a_worker_pool_that_cannot_start_is_a_503_saying_why_and_the_next_request_starts_a_new_one(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = one_round_over(setup)
    threads = concurrent.futures.ThreadPoolExecutor(1)
    pools = iter((dead_pool(), threads))
    made: list[concurrent.futures.Executor] = []

    def worker_pool(**kwargs: Any) -> concurrent.futures.Executor:
        made.append(next(pools))
        return made[-1]

    monkeypatch.setattr(review_api, "worker_pool", worker_pool)
    service = ReviewService(Settings(deals=16))  # its own pool, made at the first request
    try:
        with reviews_over(setup, service) as client:
            failed = answer(client, table)
            assert failed.status_code == 503
            assert failed.json()["error"] == POOL_BROKEN
            assert 'if __name__ == "__main__":' in POOL_BROKEN
            again = answer(client, table)  # the broken pool was dropped: a fresh one reviews
            assert again.status_code == 200, again.text
            assert made[1] is threads
    finally:
        service.close()


def test_a_pool_that_refuses_work_is_a_503_saying_why(setup: Setup) -> None:
    table = one_round_over(setup)
    pool = dead_pool()
    pool.submit(int).exception()  # its worker died: the pool is broken and refuses every submission
    service = ReviewService(Settings(deals=16), executor=pool)
    try:
        with reviews_over(setup, service) as client:
            for _ in range(2):  # a pool it was given is kept, and still said to be broken
                failed = answer(client, table)
                assert failed.status_code == 503
                assert failed.json()["error"] == POOL_BROKEN
    finally:
        service.close()
