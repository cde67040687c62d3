"""The start page's API: continuing a saved game keeps its names, the host's seat tools, the table list."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from upriver.game import Game
from upriver.record import dumps, record_of
from upriver.rules import Rules
from upriver.web.app import create_app
from upriver.web.tables import Manager


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "tables.db", bot_delay=0.0)) as test_client:
        yield test_client


def manager_of(client: TestClient) -> Manager:
    manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


def saved_game(players: list[str], rounds: int = 1) -> str:
    """A record of a web game stopped after ``rounds`` finished rounds of a 3-round schedule."""
    game = Game(Rules.from_options({"schedule": [1, 1, 1]}, player_count=len(players)), players, seed=5)
    while len(game.results) < rounds:
        seat = game.awaiting[0]
        view = game.view(seat)
        game.move(view.legal_bids[0] if view.legal_bids else view.legal_cards[0], seat)
    record = record_of(game)
    return dumps(dataclasses.replace(record, rounds=record.rounds[:rounds]))


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


# ------------------------------------------------------------------ continuing a saved game


def test_a_continued_game_labels_each_bot_once_and_keeps_the_saved_names(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (basic)"])
    body = create(client, name="", seats=["human", "basic", "basic"], record=record)
    game = manager_of(client).tables[body["table"]].game
    assert game is not None
    assert game.players == ("Zoe", "Bob (basic)", "Cid (basic)")


def test_a_continued_game_relabels_a_bot_that_changed_kind(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (random)"])
    body = create(client, name="", seats=["human", "random", "basic"], record=record)
    game = manager_of(client).tables[body["table"]].game
    assert game is not None
    assert game.players == ("Zoe", "Bob (random)", "Cid (basic)")


def test_a_continued_game_takes_the_name_the_creator_typed(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (basic)"])
    body = create(client, name="Ann", seats=["human", "basic", "basic"], record=record)
    game = manager_of(client).tables[body["table"]].game
    assert game is not None
    assert game.players[0] == "Ann"


def test_a_new_table_still_needs_a_name(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "", "seats": ["human", "basic", "basic"]})
    assert response.status_code == 400
    assert response.json()["field"] == "name"
