"""The limits of a seat and of a table hold across two `upriver serve` processes over one PostgreSQL
database: a seat's connections, a table's spectators, a seat's chat lines and reactions, and the
spectators' lines are each counted once for the cluster, however the clients split between the
processes (``tests/live.py``'s :class:`Server`, a real process each on its own port)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.live import Server
from tests.waiting import receive_until, wait_until
from upriver.database import open_database
from upriver.web.app import CLOSE_FULL
from upriver.web.cluster import shared_limits
from upriver.web.cluster.shared_limits import SharedLimits
from upriver.web.hosting.limits import Limits
from upriver.web.social.chat import LINES, REACTIONS, REACTIONS_LIMIT, SPECTATOR_LINES

DEFAULTS = Limits()


@pytest.fixture
def pair(database: str, stack: contextlib.ExitStack) -> tuple[Server, Server]:
    return Server(database, stack), Server(database, stack)


def until(
    ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    """The first message ``ws`` is sent within ``timeout`` seconds that is ``wanted``; fails if none."""
    return receive_until(ws, wanted, "a message wanted", timeout=timeout)


def admitted(ws: ClientConnection) -> bool:
    """Whether ``ws`` was let in (its first message is a state), or refused as full (and closed)."""
    first = json.loads(ws.recv(timeout=10))
    if first["type"] == "state":
        return True
    assert first["type"] == "error", first
    assert first["rule"] in ("connections", "spectators")
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_FULL
    return False


def has_line(text: str) -> Callable[[dict[str, Any]], bool]:
    """A ``chat`` message bringing the line ``text``."""
    return lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["lines"])


def shows(reaction: str) -> Callable[[dict[str, Any]], bool]:
    """A ``reaction`` message showing ``reaction``."""
    return lambda m: m["type"] == "reaction" and m["reaction"] == reaction


def outcome(ws: ClientConnection, ident: str, echoed: Callable[[dict[str, Any]], bool]) -> str:
    """``"taken"`` when what ``ws`` sent as ``ident`` comes back (``echoed``), else its refusal's case."""
    message = until(ws, lambda m: m.get("id") == ident or echoed(m))
    return "taken" if message["type"] != "error" else str(message["facts"]["case"])


def test_a_seats_connections_are_counted_across_the_processes(pair: tuple[Server, Server]) -> None:
    first, second = pair
    table = first.create(["human", "basic", "basic"], schedule=[2, 2])
    tabs = [pair[n % 2].socket(table["table"], table["token"]) for n in range(DEFAULTS.seat_connections)]
    assert all(admitted(ws) for ws in tabs)
    for server in pair:  # one more, on either process, is refused
        assert not admitted(server.socket(table["table"], table["token"]))
    tabs[0].close()
    # Its place is given back by a round trip after it closed.
    wait_until(
        lambda: admitted(second.socket(table["table"], table["token"])),
        "the closed tab's place to be given back",
        timeout=5,
    )


def test_a_tables_spectators_are_counted_across_the_processes(pair: tuple[Server, Server]) -> None:
    first, _second = pair
    table = first.create(["human", "basic", "basic"], schedule=[2, 2])
    watching = [pair[n % 2].socket(table["table"], None) for n in range(DEFAULTS.spectators)]
    assert all(admitted(ws) for ws in watching)
    for server in pair:
        assert not admitted(server.socket(table["table"], None))


def test_a_seats_lines_and_reactions_are_counted_across_the_processes(pair: tuple[Server, Server]) -> None:
    first, second = pair
    table = first.create(["human", "basic", "basic"], schedule=[2, 2])
    ann = [server.socket(table["table"], table["token"]) for server in pair]
    for ws in ann:
        until(ws, lambda m: m["type"] == "state")
    count, _seconds = LINES
    outcomes = []
    for n in range(count + 1):  # alternately through each process: under each one's own count
        ws = ann[n % 2]
        ws.send(json.dumps({"type": "chat", "text": f"line {n}", "id": f"c{n}"}))
        outcomes.append(outcome(ws, f"c{n}", has_line(f"line {n}")))
    assert outcomes == ["taken"] * count + ["too fast"]

    most, _seconds = REACTIONS_LIMIT
    outcomes = []
    for n in range(most + 1):
        ws = ann[n % 2]
        ws.send(json.dumps({"type": "react", "reaction": REACTIONS[n], "id": f"r{n}"}))
        outcomes.append(outcome(ws, f"r{n}", shows(REACTIONS[n])))
    assert outcomes == ["taken"] * most + ["too fast"]
    assert second.process.poll() is None


def test_the_spectators_lines_are_counted_across_the_processes(pair: tuple[Server, Server]) -> None:
    first, _second = pair
    table = first.create(["human", "basic", "basic"], schedule=[2, 2], spectator_chat=True)
    watchers = [pair[n % 2].socket(table["table"], None) for n in range(4)]
    for ws in watchers:
        until(ws, lambda m: m["type"] == "state")
    most, _seconds = SPECTATOR_LINES
    outcomes = []
    for n in range(most + 2):  # three lines each from four spectators, two on each process
        ws = watchers[n % 4]
        ws.send(
            json.dumps({"type": "chat", "text": f"from the rail {n}", "name": f"Fan {n % 4}", "id": f"s{n}"})
        )
        outcomes.append(outcome(ws, f"s{n}", has_line(f"from the rail {n}")))
    assert outcomes == ["taken"] * most + ["too fast"] * 2


def test_a_place_is_given_back_when_its_connection_closes_or_lapses_when_its_process_stops_renewing(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_limits, "LEASE_SECONDS", 1.0)
    db = open_database(database)
    try:
        alive = SharedLimits(db, cluster=True, process="alive")
        dead = SharedLimits(db, cluster=True, process="dead")
        assert dead.hold("connections:t:0", 3, "a")
        assert alive.hold("connections:t:0", 3, "b")
        assert alive.hold("connections:t:0", 3, "c")
        assert not alive.hold("connections:t:0", 3, "d")
        alive.release("connections:t:0", "c")
        assert alive.hold("connections:t:0", 3, "d")

        def lapsed() -> bool:
            """The living process renews its places (its heartbeat); whether the dead one's is free."""
            alive.renew()
            return alive.hold("connections:t:0", 3, "e")

        wait_until(lapsed, "the stopped process's place to lapse", timeout=15, every=0.5)
        assert not alive.hold("connections:t:0", 3, "f")
        assert SharedLimits(db, cluster=False).hold("connections:t:0", 3, "g")  # one process: its own count
    finally:
        db.close()
