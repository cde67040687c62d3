"""Helpers for the tests of the review: the golden records cut short for a quick review, and a web
app with the review's API beside it (its fixture, ``setup``, is in ``tests/conftest.py``)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.waiting import wait_until
from upriver.actions import Phase
from upriver.record import FORMAT, dumps, load
from upriver.review import Settings
from upriver.web.app import create_app
from upriver.web.play.messages import Bid, Play
from upriver.web.play.tables import Manager, Table
from upriver.web.review.api import ReviewService, review_router

GOLDEN = sorted(
    path
    for path in (Path(__file__).parent / "golden").glob("*.json")
    if json.loads(path.read_text(encoding="utf-8")).get("format") == FORMAT  # the game records there
)
"""The golden game records (``tests/golden``): every preset and house rule, one game each."""


def short_copy(golden: Path, tmp_path: Path, rounds: int | None = None) -> Path:
    """The golden record's first ``rounds`` (default: as many as deal at most 10 cards a seat, at
    least one), as a file: a quick review that covers every rule set."""
    record = load(golden)
    if rounds is None:
        sizes = [len(entry.hands[0]) for entry in record.rounds if entry.hands is not None]
        rounds = max(1, sum(1 for i in range(len(sizes)) if sum(sizes[: i + 1]) <= 10))
    path = tmp_path / golden.name
    path.write_text(dumps(dataclasses.replace(record, rounds=record.rounds[:rounds])), encoding="utf-8")
    return path


class Setup:
    """A web app's manager, and beside it an app serving only the review, with small budgets on threads."""

    def __init__(self, db: Path) -> None:
        self.site = TestClient(create_app(db, bot_delay=0.0))
        self.manager: Manager = manager_of(self.site)
        self.pool = concurrent.futures.ThreadPoolExecutor(2)
        self.service = ReviewService(Settings(deals=16), executor=self.pool)
        app = FastAPI()
        app.include_router(review_router(self.manager, self.service))
        self.client = TestClient(app)

    def table(self, schedule: list[int]) -> Table:
        """An all-human four-seat table, every seat joined, its game started."""
        body = self.site.post(
            "/api/tables",
            json={"name": "Ann", "seats": ["human"] * 4, "preset": "classic", "schedule": schedule},
        ).json()
        table = self.manager.tables[body["table"]]
        for seat, name in ((1, "Bob"), (2, "Cid"), (3, "Dee")):
            self.manager.join(table, seat, name)
        assert table.game is not None
        return table

    def play(self, table: Table, moves: int | None = None) -> None:
        """The seat to act makes its first legal move, ``moves`` times (default: to the game's end)."""
        game = table.game
        assert game is not None
        done = 0
        while not game.is_over and (moves is None or done < moves):
            seat = game.awaiting[0]
            made = f"r{table.version}"  # the move's client id, unique per seat
            if game.phase is Phase.BIDDING:
                message: Bid | Play = Bid(id=made, v=table.version, bid=game.legal_bids(seat)[0])
            else:
                message = Play(id=made, v=table.version, card=str(game.legal_cards(seat)[0]))
            self.manager.act(table, seat, message)
            done += 1

    def ask(self, table: Table, me: int, **query: Any) -> httpx.Response:
        """Ask for a review with seat ``me``'s token."""
        response: httpx.Response = self.client.get(
            f"/api/tables/{table.id}/review", params={"token": table.tokens[me], **query}
        )
        return response

    def review(self, table: Table, me: int, **query: Any) -> dict[str, Any]:
        """Ask until the review is ready, as the page polls."""

        def ready() -> dict[str, Any] | None:
            response = self.ask(table, me, **query)
            if response.status_code == 200:
                body: dict[str, Any] = response.json()
                return body
            assert response.status_code == 202, response.text
            progress = response.json()
            assert 0 <= progress["done"] <= progress["total"]
            return None

        return wait_until(ready, "the review to be ready", timeout=60)
