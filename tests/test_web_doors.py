"""Every way into the server enforces every limit: the longest game, whichever door it comes in by."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.conftest import random_action
from tests.webclient import tables_loaded
from upriver.game import Game
from upriver.record import dumps, record_of
from upriver.rules import Rules
from upriver.web.app import CLOSE_FULL, create_app
from upriver.web.hosting.limits import Limits


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0.0, limits=Limits(schedule_rounds=100))) as test_client:
        yield test_client


def _record(schedule: list[int], played: int) -> str:
    """A four-player game of ``schedule`` with its first ``played`` rounds played (random legal moves)."""
    rules = Rules.from_options({"schedule": schedule}, player_count=4)
    game = Game(rules, players=["Ann", "Bob", "Cid", "Dee"], seed=3)
    rng = random.Random(3)
    while len(game.results) < played:
        random_action(game, rng)
    record = record_of(game)
    return dumps(dataclasses.replace(record, rounds=record.rounds[:played]))  # between two rounds


def test_a_sheet_of_100000_rounds_is_refused_naming_the_schedule_and_the_limit(client: TestClient) -> None:
    refused = client.post("/api/sheets", json={"players": ["A", "B", "C"], "schedule": [1] * 100_000})
    assert refused.status_code == 400
    assert refused.json()["field"] == "schedule"
    assert "100,000 rounds" in refused.json()["error"]
    assert "at most 100 rounds" in refused.json()["error"]
    assert (
        client.post("/api/sheets", json={"players": ["A", "B", "C"], "schedule": [1] * 100}).status_code
        == 201
    )


def test_a_record_longer_than_the_limit_is_neither_kept_as_a_sheet_nor_continued_at_a_table(
    client: TestClient,
) -> None:
    long = _record([1] * 150, played=2)
    kept = client.post("/api/sheets/import", json={"record": long})
    assert kept.status_code == 400
    assert kept.json()["field"] == "record"
    assert "150 rounds" in kept.json()["error"]
    continued = client.post(
        "/api/tables", json={"name": "Ann", "seats": ["human"] + ["basic"] * 3, "record": long}
    )
    assert continued.status_code == 400
    assert continued.json()["field"] == "record"
    assert "at most 100 rounds" in continued.json()["error"]
    assert tables_loaded(client) == 0
    # The same game within the limit comes in by both doors.
    short = _record([1] * 100, played=2)
    assert client.post("/api/sheets/import", json={"record": short}).status_code == 201
    body = {"name": "Ann", "seats": ["human"] + ["basic"] * 3, "record": short}
    assert client.post("/api/tables", json=body).status_code == 201


def test_a_record_whose_rounds_outnumber_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    text = (
        '{"format": "upriver-record/1", "players": ["A", "B", "C"], "rounds": ['
        + ",".join(["{}"] * 5000)
        + "]}"
    )
    refused = client.post("/api/sheets/import", json={"record": text})
    assert refused.status_code == 400
    assert "5,000 rounds" in refused.json()["error"]


def test_one_seats_link_opens_a_bounded_number_of_connections_and_the_next_is_told_why(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.0, limits=Limits(seat_connections=3))) as client:
        body = client.post("/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"]}).json()
        url = f"/ws/{body['table']}?token={body['token']}"
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                ws = stack.enter_context(client.websocket_connect(url))
                assert ws.receive_json()["role"] == "player"
            with client.websocket_connect(url) as extra:
                refused = extra.receive_json()
                assert refused["rule"] == "connections"
                assert refused["facts"] == {"limit": 3}
                assert "seat 0 is open in 3 connections" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == CLOSE_FULL
            with client.websocket_connect(f"/ws/{body['table']}") as spectator:
                assert spectator.receive_json()["role"] == "spectator", "spectators are counted apart"
        with client.websocket_connect(url) as again:
            assert again.receive_json()["role"] == "player", "a closed tab frees its place"
