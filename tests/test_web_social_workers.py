"""Presence and table talk across two `upriver serve` processes over one PostgreSQL database.

Each server is a real process on its own port (``tests/test_web_workers.py``'s :class:`Server`):
a person connected to one is online for the clients of the other, and away within 2 s of
closing their socket; the connections of a process killed with SIGKILL turn away a few seconds
later (its heartbeat stops); spectators on either count; a line written through either process
reaches the clients of both, in order, and so does a reaction.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.live import Server
from tests.waiting import receive_until
from upriver.web.seats.presence import EXPIRY


def until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool], timeout: float) -> dict[str, Any]:
    """The first message ``ws`` is sent within ``timeout`` seconds that is ``wanted``; fails if none."""
    return receive_until(ws, wanted, "a message wanted", timeout=timeout)


def status(seat: int, wanted: str) -> Callable[[dict[str, Any]], bool]:
    """A state showing ``seat`` as ``wanted``."""
    return lambda m: m["type"] == "state" and m["presence"][seat]["status"] == wanted


def seated(first: Server) -> tuple[dict[str, Any], ClientConnection, str]:
    """A table of Ann (connected to ``first``), an open seat and a bot; and the open seat's invite."""
    table = first.create(["human", "human", "basic"], schedule=[2, 2])
    ann = first.socket(table["table"], table["token"])
    state = until(ann, lambda m: m["type"] == "state", 10)
    assert [seat["status"] for seat in state["presence"]] == ["online", "away", "bot"]
    invite = state["lobby"]["invites"][0]["url"].split("#token=")[1]
    return table, ann, invite


@pytest.mark.slow
def test_a_person_connected_to_one_process_is_online_for_another_and_away_soon_after_closing(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    table, ann, invite = seated(first)
    bob = second.socket(table["table"], invite)
    until(bob, status(0, "online"), 5)  # the second process knows Ann is here
    until(ann, status(1, "online"), 5)
    watcher = second.socket(table["table"], None)
    assert (
        until(ann, lambda m: m["type"] == "state" and m["watching"] == 1, 5)["presence"][1]["status"]
        == "online"
    )
    closed = time.time()
    bob.close()
    away = until(ann, status(1, "away"), 2.0)
    assert closed - 0.5 <= away["presence"][1]["away_since"] <= time.time()
    assert until(watcher, status(1, "away"), 2.0)["watching"] == 1
    watcher.close()
    assert (
        until(ann, lambda m: m["type"] == "state" and m["watching"] == 0, 2.0)["presence"][1]["status"]
        == "away"
    )


@pytest.mark.slow
def test_the_connections_of_a_killed_process_turn_away_within_seconds(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    table, ann, invite = seated(first)
    second.socket(table["table"], invite)
    second.socket(table["table"], None)
    until(
        ann,
        lambda m: m["type"] == "state" and m["presence"][1]["status"] == "online" and m["watching"] == 1,
        5,
    )
    killed = time.time()
    second.kill()  # no goodbye: the first process stops hearing its heartbeat
    away = until(ann, status(1, "away"), EXPIRY + 2.0)
    assert away["watching"] == 0
    assert killed - EXPIRY <= away["presence"][1]["away_since"] <= time.time()


@pytest.mark.slow
def test_lines_and_reactions_written_through_either_process_reach_the_clients_of_both(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    table, ann, invite = seated(first)
    bob = second.socket(table["table"], invite)
    bob.send(json.dumps({"type": "join", "name": "Bob"}))
    until(ann, lambda m: m["type"] == "state" and m["game"] is not None, 5)

    def line(message: dict[str, Any]) -> bool:
        return bool(message["type"] == "chat")

    ann.send(json.dumps({"type": "chat", "text": "<b>good luck</b>"}))
    for ws in (ann, bob):
        [got] = until(ws, line, 3)["lines"]
        assert (got["n"], got["name"], got["text"]) == (1, "Ann", "<b>good luck</b>")
    bob.send(json.dumps({"type": "chat", "text": "you too"}))
    for ws in (bob, ann):
        [got] = until(ws, line, 3)["lines"]
        assert (got["n"], got["seat"], got["text"]) == (2, 1, "you too")
    bob.send(json.dumps({"type": "react", "reaction": "😮"}))
    reaction = until(ann, lambda m: m["type"] == "reaction", 3)
    assert (reaction["seat"], reaction["reaction"]) == (1, "😮")
    # A page opened later on either process gets both lines, once each.
    for server in (first, second):
        late = server.socket(table["table"], None)
        history = until(late, line, 3)
        assert history["full"] is True
        assert [(got["n"], got["text"]) for got in history["lines"]] == [
            (1, "<b>good luck</b>"),
            (2, "you too"),
        ]
