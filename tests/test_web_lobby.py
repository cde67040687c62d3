"""The start page's API: continuing a saved game keeps its names, the host's seat tools, the table list."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from fastapi.testclient import TestClient

from upriver.game import Game
from upriver.record import dumps, record_of
from upriver.rules import Rules
from upriver.web.app import create_app


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


def summary(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """The table as its creator's start page lists it (``GET /api/tables/{id}``)."""
    response = client.get(f"/api/tables/{body['table']}?token={body['token']}")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def players(client: TestClient, body: dict[str, Any]) -> list[str]:
    """The game's players, as the creator's page is told them."""
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        state = ws.receive_json()
    assert state["game"] is not None, "the game has not started"
    names: list[str] = state["game"]["players"]
    return names


def invite(client: TestClient, body: dict[str, Any], seat: int) -> str:
    """The token of ``seat``'s invite link, as the host is given it."""
    [url] = [i["url"] for i in summary(client, body)["invites"] if i["seat"] == seat]
    return str(url.partition("#token=")[2])


# ------------------------------------------------------------------ continuing a saved game


def test_a_continued_game_labels_each_bot_once_and_keeps_the_saved_names(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (basic)"])
    body = create(client, name="", seats=["human", "basic", "basic"], record=record)
    assert players(client, body) == ["Zoe", "Bob (basic)", "Cid (basic)"]


def test_a_continued_game_relabels_a_bot_that_changed_kind(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (random)"])
    body = create(client, name="", seats=["human", "random", "basic"], record=record)
    assert players(client, body) == ["Zoe", "Bob (random)", "Cid (basic)"]


def test_a_continued_game_takes_the_name_the_creator_typed(client: TestClient) -> None:
    record = saved_game(["Zoe", "Bob (basic)", "Cid (basic)"])
    body = create(client, name="Ann", seats=["human", "basic", "basic"], record=record)
    assert players(client, body)[0] == "Ann"


def test_a_new_table_still_needs_a_name(client: TestClient) -> None:
    response = client.post("/api/tables", json={"name": "", "seats": ["human", "basic", "basic"]})
    assert response.status_code == 400
    assert response.json()["field"] == "name"


# ------------------------------------------------------------------ the host gives a seat to a bot


def test_the_host_gives_an_open_seat_to_a_bot_and_its_invite_stops_working(client: TestClient) -> None:
    body = create(client, name="Ann", seats=["human", "human", "human"])
    table = body["table"]
    bob = invite(client, body, 1)
    response = client.post(f"/api/tables/{table}/seats/1/bot", json={"token": body["token"], "kind": "basic"})
    assert response.status_code == 200, response.text
    summary = response.json()
    assert summary["seats"][1] == {"seat": 1, "name": "Bob (basic)", "kind": "basic", "joined": True}
    assert [invite["seat"] for invite in summary["invites"]] == [2]
    assert not summary["started"]
    assert client.get(f"/api/tables/{table}?token={bob}").status_code == 403


def test_giving_the_last_open_seat_to_a_bot_starts_the_game(client: TestClient) -> None:
    body = create(client, name="Ann", seats=["human", "human", "basic"])
    url = f"/api/tables/{body['table']}/seats/1/bot"
    summary = client.post(url, json={"token": body["token"], "kind": "random"}).json()
    assert summary["started"]
    assert players(client, body) == ["Ann", "Bob (random)", "Cid (basic)"]


@pytest.mark.parametrize(
    ("seat", "kind", "status", "words"),
    [
        (0, "basic", 400, "open seat"),  # the host's own seat
        (2, "basic", 400, "open seat"),  # already a bot
        (5, "basic", 400, "open seat"),  # no such seat
        (1, "wizard", 400, "unknown bot 'wizard'"),
    ],
)
def test_a_seat_that_is_not_open_or_a_kind_that_is_no_bot_is_refused(
    client: TestClient, seat: int, kind: str, status: int, words: str
) -> None:
    body = create(client, name="Ann", seats=["human", "human", "basic"])
    response = client.post(
        f"/api/tables/{body['table']}/seats/{seat}/bot", json={"token": body["token"], "kind": kind}
    )
    assert response.status_code == status
    assert words in response.json()["error"]
    assert [seat["kind"] for seat in summary(client, body)["seats"]] == ["human", "human", "basic"]


def test_only_the_host_gives_a_seat_to_a_bot(client: TestClient) -> None:
    body = create(client, name="Ann", seats=["human", "human", "human"])
    response = client.post(
        f"/api/tables/{body['table']}/seats/2/bot", json={"token": invite(client, body, 1), "kind": "basic"}
    )
    assert response.status_code == 403
    assert summary(client, body)["seats"][2]["kind"] == "human"


def test_a_seat_given_to_a_bot_stays_a_bot_after_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as first:
        body = create(first, name="Ann", seats=["human", "human", "human"])
        first.post(f"/api/tables/{body['table']}/seats/2/bot", json={"token": body["token"], "kind": "basic"})
    with TestClient(create_app(db, bot_delay=0.0)) as second:
        seats = summary(second, body)["seats"]
        assert [seat["kind"] for seat in seats] == ["human", "human", "basic"]
        assert [seat["name"] for seat in seats] == ["Ann", None, "Cid (basic)"]
        assert [i["seat"] for i in summary(second, body)["invites"]] == [1]  # seat 2's invite is gone


def test_the_host_gives_a_seat_to_a_bot_over_the_websocket(client: TestClient) -> None:
    body = create(client, name="Ann", seats=["human", "human", "human"])
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "bot", "seat": 1, "kind": "basic"})
        state = ws.receive_json()
        assert state["lobby"]["seats"][1]["name"] == "Bob (basic)"
        ws.send_json({"type": "bot", "seat": 1, "kind": "basic"})
        assert ws.receive_json()["rule"] == "bot"


# ------------------------------------------------------------------ the start page's list


def test_a_table_summary_shows_the_host_its_invites_and_a_guest_none(client: TestClient) -> None:
    body = create(client, name="Ann", seats=["human", "human", "basic"], schedule=[1, 2, 1])
    table = body["table"]
    host = client.get(f"/api/tables/{table}?token={body['token']}").json()
    assert host["host"]
    assert host["seat"] == 0
    assert host["rounds"] == 3
    assert not host["started"]
    assert [invite["seat"] for invite in host["invites"]] == [1]
    assert host["spectate"].endswith(f"/t/{table}")
    guest = client.get(f"/api/tables/{table}?token={invite(client, body, 1)}").json()
    assert guest["seat"] == 1
    assert not guest["host"]
    assert "invites" not in guest
    watcher = client.get(f"/api/tables/{table}").json()
    assert watcher["seat"] is None
    assert "invites" not in watcher


def test_a_table_summary_of_an_unknown_table_is_404(client: TestClient) -> None:
    assert client.get("/api/tables/nosuchtable").status_code == 404
