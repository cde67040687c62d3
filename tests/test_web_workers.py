"""Several `upriver serve` processes over one PostgreSQL database serve the same tables.

Each server is a real process on a port of its own (as servers on several machines would be),
over a database of the tests' private PostgreSQL server (``tests/pg.py``): a move made through
one reaches the clients of the other; the process owning a table (running its bots) killed with
SIGKILL mid-trick is taken over by the other, which plays on without losing an acknowledged move;
``--workers 2`` serves one port from two processes; with SQLite, ``--workers 2`` is refused; a
rematch made through one process is told to the seats connected to the other, each its own link,
and two presses at once in two processes make one rematch.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.live import Server
from tests.pg import query
from tests.waiting import receive_until

SEAT_TOKENS: dict[ClientConnection, str] = {}
"""The seat token each joining connection was sent (its ``seat`` message), by connection."""


def latest(ws: ClientConnection, at_least: int = 0, timeout: float = 15) -> dict[str, Any]:
    """The first state this client is sent at version ``at_least`` or later (a ``seat`` message
    before it is kept in :data:`SEAT_TOKENS`)."""

    def reached(message: dict[str, Any]) -> bool:
        if message["type"] == "seat":
            SEAT_TOKENS[ws] = message["token"]
            return False
        assert message["type"] == "state", message
        return bool(message["v"] >= at_least)

    return receive_until(ws, reached, f"a state at version {at_least} or later", timeout=timeout)


def first_legal(state: dict[str, Any], n: int) -> dict[str, Any]:
    """The message of this seat's first legal bid or card."""
    game = state["game"]
    if game["bid_options"]:
        bid = next(o["bid"] for o in game["bid_options"] if o["legal"])
        return {"type": "bid", "bid": bid, "v": state["v"], "id": f"m{n}"}
    card = next(h["card"] for h in game["hand"] if h["legal"])
    return {"type": "play", "card": card, "v": state["v"], "id": f"m{n}"}


class Player:
    """One seat's client: every state it was sent, by version, and the moves it made."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: dict[int, dict[str, Any]] = {}
        self.state = self.read()
        self.moves = 0

    def read(self, at_least: int = 0) -> dict[str, Any]:
        self.state = latest(self.ws, at_least)
        self.seen[self.state["v"]] = self.state
        return self.state

    def at_least(self, version: int) -> dict[str, Any]:
        """Its newest state, once at ``version`` or later."""
        return self.state if self.state["v"] >= version else self.read(version)

    def move_if_its_turn(self) -> bool:
        if not self.state["game"]["my_turn"]:
            return False
        self.moves += 1
        self.ws.send(json.dumps(first_legal(self.state, self.moves)))
        self.read(self.state["v"] + 1)
        return True


@pytest.mark.slow
def test_a_move_made_through_one_server_process_reaches_the_clients_of_another(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    table = first.create(["human", "human", "basic", "basic"], schedule=[2, 1])
    ann_ws = first.socket(table["table"], table["token"])
    invite = latest(ann_ws)["lobby"]["invites"][0]["url"].split("#token=")[1]
    # Bob opens his invite on the other process, which learns of the table from the database.
    bob_ws = second.socket(table["table"], invite)
    bob = Player(bob_ws)
    assert bob.state["lobby"]["seats"][0]["name"] == "Ann"
    bob_ws.send(json.dumps({"type": "join", "name": "Bob"}))
    ann = Player(first.socket(table["table"], table["token"]))
    players = (ann, bob)
    for player in players:
        player.at_least(2)
    assert ann.state["game"] is not None, "Bob's join through the second process started Ann's game"
    while not all(player.state["game"]["over"] for player in players):
        version = max(player.state["v"] for player in players)
        for player in players:
            player.at_least(version)
        if all(player.state["game"]["over"] for player in players):
            break
        if not any(player.move_if_its_turn() for player in players):
            # A bot's turn: its owner (the first process) moves it, and both processes announce it.
            for player in players:
                player.at_least(player.state["v"] + 1)
    assert ann.moves == bob.moves == 5  # 2 bids and 3 cards each
    # Whichever process sent it, a state of a version is the same table for both seats.
    common = sorted(v for v in set(ann.seen) & set(bob.seen) if ann.seen[v]["game"] is not None)
    assert len(common) >= 10
    for version in common:
        for key in ("trick", "tricks_won", "totals", "awaiting", "last_trick", "phase"):
            assert ann.seen[version]["game"][key] == bob.seen[version]["game"][key], (version, key)
    # Both processes hold the same finished game: the same record, move for move.
    records = [
        httpx.get(f"{server.url}/api/tables/{table['table']}/record").json() for server in (first, second)
    ]
    assert records[0] == records[1]
    assert records[0]["players"][:2] == ["Ann", "Bob"]


@pytest.mark.slow
def test_the_owner_killed_mid_trick_is_taken_over_and_no_acknowledged_move_is_lost(
    database: str, stack: contextlib.ExitStack
) -> None:
    owner, other = Server(database, stack, bot_delay=0.2), Server(database, stack, bot_delay=0.2)
    # Created through the first process, which so owns it and runs its three bots.
    table = owner.create(["human", "basic", "basic", "basic"], schedule=[3, 2])
    ann = other.socket(table["table"], table["token"])
    state = latest(ann)
    acknowledged: list[str] = []  # every card of Ann's that a state from the server showed played
    n = 0
    while True:
        game = state["game"]
        if game["my_turn"]:
            n += 1
            message = first_legal(state, n)
            ann.send(json.dumps(message))
            state = latest(ann, state["v"] + 1)
            if message["type"] == "play":
                acknowledged.append(confirmed(state, message["card"]))
            continue
        if acknowledged and len(game["trick"]) in (1, 2) and game["awaiting"][0] != 0:
            break  # a trick under way, a bot of the owner's to move next
        state = latest(ann, state["v"] + 1)
    killed_at = state["v"]
    owner.kill()
    # The other process takes the table over and its bots play on; Ann plays on through it to the end.
    while not state["game"]["over"]:
        if state["game"]["my_turn"]:
            n += 1
            message = first_legal(state, n)
            ann.send(json.dumps(message))
            state = latest(ann, state["v"] + 1)
            if message["type"] == "play":
                acknowledged.append(confirmed(state, message["card"]))
        else:
            state = latest(ann, state["v"] + 1, timeout=15)
    assert state["v"] > killed_at + 3, "the bots did not play on after their owner died"
    record = httpx.get(f"{other.url}/api/tables/{table['table']}/record").json()
    anns = [card for rnd in record["rounds"] for card in rnd["plays"] if card in rnd["hands"][0]]
    assert anns == acknowledged
    # A server started again over the same database replays the same finished game.
    again = Server(database, stack)
    assert httpx.get(f"{again.url}/api/tables/{table['table']}/record").json() == record


def confirmed(state: dict[str, Any], card: str) -> str:
    """``card``, once this state (the next one Ann is sent) shows it played by her, on the table or
    in the trick it just finished: the server acknowledged it."""
    game = state["game"]
    shown = game["trick"] + (game["last_trick"] or {"plays": []})["plays"]
    assert [0, card] in shown, (card, shown)
    return card


@pytest.mark.slow
def test_two_workers_on_one_port_play_a_table_to_the_end(database: str, stack: contextlib.ExitStack) -> None:
    server = Server(database, stack, workers=2)
    table = server.create(["human", "basic", "basic", "basic"], schedule=[2])
    ann = server.socket(table["table"], table["token"])
    state = latest(ann)
    n = 0
    while not state["game"]["over"]:
        if state["game"]["my_turn"]:
            n += 1
            ann.send(json.dumps(first_legal(state, n)))
        state = latest(ann, state["v"] + 1)
    assert len(state["game"]["sheet"]["rows"]) == 1


@pytest.mark.slow
def test_more_than_one_worker_over_sqlite_is_refused_saying_to_use_postgresql(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "upriver", "serve", "--db", str(tmp_path / "t.db"), "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--workers: 2 server processes need a PostgreSQL --db" in done.stderr
    assert not (tmp_path / "t.db").exists()


def notice(ws: ClientConnection, timeout: float = 15) -> dict[str, Any]:
    """The next ``rematch`` message this client is sent (the states before it are skipped)."""
    return receive_until(ws, lambda m: m["type"] == "rematch", "a rematch message", timeout=timeout)


def link_token(url: str) -> str | None:
    """The seat token in a link's fragment (``#token=…``), or ``None``."""
    return url.partition("#token=")[2] or None


class Finished:
    """A table of Ann (through ``first``) and Bob (through ``second``) and two bots, played to its end
    over both processes; a spectator watches through ``second``."""

    def __init__(self, first: Server, second: Server) -> None:
        body = first.create(["human", "human", "basic", "basic"], schedule=[1])
        self.id: str = body["table"]
        ann_ws = first.socket(self.id, body["token"])
        invite = latest(ann_ws)["lobby"]["invites"][0]["url"].split("#token=")[1]
        bob_ws = second.socket(self.id, invite)
        bob = Player(bob_ws)
        bob_ws.send(json.dumps({"type": "join", "name": "Bob"}))
        ann = Player(ann_ws)
        self.watching = second.socket(self.id, None)
        self.players = (ann, bob)
        for player in self.players:
            player.at_least(2)
        while True:
            version = max(player.state["v"] for player in self.players)
            for player in self.players:
                player.at_least(version)
            if all(player.state["game"]["over"] for player in self.players):
                break
            if not any(player.move_if_its_turn() for player in self.players):
                for player in self.players:
                    player.at_least(player.state["v"] + 1)
        self.tokens: list[str] = [body["token"], SEAT_TOKENS[bob_ws]]


def seat_opened(server: Server, table: str, token: str | None) -> Any:
    """The seat a token opens at ``table`` through ``server`` (``None``: a spectator's view)."""
    return latest(server.socket(table, token))["seat"]


@pytest.mark.slow
def test_a_rematch_made_through_one_process_is_told_to_the_seats_of_another_each_its_own_link(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    old = Finished(first, second)
    ann, bob = old.players
    made = httpx.post(f"{first.url}/api/tables/{old.id}/rematch", json={"token": old.tokens[0]})
    assert made.status_code == 201, made.text
    new = made.json()["table"]
    # Bob's connection is to the second process, which hears of the rematch from the database.
    told = notice(bob.ws)
    assert told["table"] == new
    assert told["by"] == "Ann"
    assert told["seat"] == 1
    bobs = link_token(told["url"])
    assert bobs is not None
    assert bobs != link_token(made.json()["url"])  # not Ann's seat's link
    watched = notice(old.watching)
    assert watched["table"] == new
    assert link_token(watched["url"]) is None  # a spectator is given no seat
    assert notice(ann.ws)["url"] == made.json()["url"]  # Ann's own process told her her own link
    # Bob's link opens Bob's seat (and only that), through either process.
    assert seat_opened(second, new, bobs) == 1
    assert seat_opened(first, new, link_token(made.json()["url"])) == 0
    # What Bob asks later with his old link is the same link.
    later = httpx.get(f"{second.url}/api/tables/{old.id}/rematch", params={"token": old.tokens[1]})
    assert later.json()["url"] == told["url"]


@pytest.mark.slow
def test_two_presses_of_rematch_at_once_in_two_processes_make_one_rematch(
    database: str, stack: contextlib.ExitStack
) -> None:
    first, second = Server(database, stack), Server(database, stack)
    old = Finished(first, second)
    start = threading.Barrier(2)

    def press(server: Server, token: str) -> httpx.Response:
        with httpx.Client() as client:
            start.wait()
            return client.post(f"{server.url}/api/tables/{old.id}/rematch", json={"token": token})

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        presses = [pool.submit(press, first, old.tokens[0]), pool.submit(press, second, old.tokens[1])]
        answers = [future.result(timeout=30) for future in presses]
    assert sorted(answer.status_code for answer in answers) == [200, 201], [a.text for a in answers]
    bodies = [answer.json() for answer in answers]
    assert bodies[0]["table"] == bodies[1]["table"]  # the same rematch for both
    assert [body["created"] for body in bodies].count(True) == 1
    made = query(database, "SELECT finished, rematch FROM rematches")
    assert made == [(old.id, bodies[0]["table"])]
    assert len(query(database, "SELECT id FROM tables")) == 2  # the old table and its one rematch
    # Each was answered with its own seat's link.
    assert seat_opened(first, bodies[0]["table"], link_token(bodies[0]["url"])) == 0
    assert seat_opened(second, bodies[1]["table"], link_token(bodies[1]["url"])) == 1
