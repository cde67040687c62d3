"""Seats that change hands at a web table: leaving and coming back, handing an away person's seat to a
bot, the turn clock's automatic moves and stand-ins, the table's own options, and tables of bots to
watch — through the HTTP API and the WebSocket, with the manager's clock driven by the test."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.conftest import manager_of
from tests.waiting import wait_until
from tests.webclient import tables_loaded
from upriver.record import loads
from upriver.web.app import create_app
from upriver.web.play.table import Table


class FakeNow:
    """The time the manager's clocks go by: the real time, moved on by what the test adds. It counts
    how often it is read: the turn clock reads it each time it looks at a running table."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds

    def looked_again(self) -> None:
        """Return once the server read the time twice more: its clock has looked at the table since
        this was called, with the time as it is now (what it did not do then, it does not do)."""
        mark = self.reads
        wait_until(lambda: self.reads >= mark + 2, "the server's clock to look at the table again")


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


def serve(path: Path, now: FakeNow, stack: contextlib.ExitStack) -> TestClient:
    """A server over the SQLite file at ``path`` whose bots do not wait."""
    return stack.enter_context(TestClient(create_app(path, bot_delay=0.0, now=now)))


@pytest.fixture
def client(tmp_path: Path, now: FakeNow, stack: contextlib.ExitStack) -> TestClient:
    return serve(tmp_path / "tables.db", now, stack)


def create(client: TestClient, seats: list[str], **options: Any) -> tuple[Table, str]:
    response = client.post("/api/tables", json={"name": "Ann", "seats": seats, "schedule": [2, 2], **options})
    assert response.status_code == 201, response.text
    body = response.json()
    return manager_of(client).tables[body["table"]], body["token"]


def events(table: Table, client: TestClient) -> list[Any]:
    return manager_of(client).store.events(table.id)


def move(ws: WebSocketTestSession, table: Table, seat: int, n: int) -> None:
    """The person at ``seat`` makes their first legal move."""
    game = table.game
    assert game is not None
    assert seat in game.awaiting
    bids = game.legal_bids(seat)
    key, value = ("bid", bids[0]) if bids else ("card", str(game.legal_cards(seat)[0]))
    kind = "bid" if bids else "play"
    ws.send_text(json.dumps({"type": kind, key: value, "v": table.version, "id": f"m{n}"}))


def receive(ws: WebSocketTestSession, seconds: float = 10.0) -> dict[str, Any]:
    """The socket's next message, failing the test after ``seconds`` rather than waiting for ever."""

    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    data: dict[str, Any] = json.loads(message["text"])
    return data


def latest(ws: WebSocketTestSession, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read states until one passes ``check`` (errors fail the test)."""
    while True:
        message = receive(ws)
        assert message["type"] in ("state", "chat", "reaction", "seat"), message
        if message["type"] == "state" and check(message):
            return message


def error_of(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = receive(ws)
        if message["type"] == "error":
            return message


def seat_in(
    client: TestClient, table: Table, token: str, stack: contextlib.ExitStack
) -> WebSocketTestSession:
    ws = stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={token}"))
    receive(ws)
    return ws


def join(
    client: TestClient, table: Table, seat: int, stack: contextlib.ExitStack
) -> tuple[WebSocketTestSession, str]:
    """The person invited to ``seat`` joins and confirms; their socket and own token."""
    assert table.tokens[seat] is not None
    ws = seat_in(client, table, str(table.tokens[seat]), stack)
    ws.send_text(json.dumps({"type": "join", "name": f"P{seat}"}))
    token = next(m for m in iter(lambda: receive(ws), None) if m["type"] == "seat")["token"]
    latest(ws, lambda s: s["joined_pending"])
    ws.send_text(json.dumps({"type": "confirm"}))
    latest(ws, lambda s: not s["joined_pending"])
    return ws, str(token)


# ------------------------------------------------------------------ options


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"clock": 5}, "10 to 300"),
        ({"clock": 301}, "10 to 300"),
        ({"clock": "30"}, "clock"),
        ({"clock": 30.5}, "clock"),
        ({"level": "grandmaster"}, "normal"),
        ({"hints": "yes"}, "hints"),
        ({"spectator_chat": 1}, "spectator_chat"),
    ],
)
def test_a_table_option_out_of_range_is_refused_naming_what_would_do(
    client: TestClient, options: dict[str, Any], words: str
) -> None:
    before = tables_loaded(client)
    response = client.post(
        "/api/tables", json={"name": "Ann", "seats": ["human", "basic", "basic"], **options}
    )
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert tables_loaded(client) == before


def test_the_tables_options_are_kept_and_every_state_carries_them(client: TestClient, stack: Any) -> None:
    table, token = create(client, ["human", "basic", "basic"], clock=30, level="easy", hints=True)
    ws = seat_in(client, table, token, stack)
    ws.send_text(json.dumps({"type": "sync"}))
    state = latest(ws, lambda s: True)
    assert state["options"] == {"clock": 30, "level": "easy", "hints": True, "spectator_chat": False}
    assert state["clock"]["seconds"] == 30
    assert state["automatic"] == []
    plain, token = create(client, ["human", "basic", "basic"])
    ws = seat_in(client, plain, token, stack)
    ws.send_text(json.dumps({"type": "sync"}))
    state = latest(ws, lambda s: True)
    assert state["options"] == {"clock": 0, "level": "normal", "hints": False, "spectator_chat": False}
    assert state["clock"] is None


# ------------------------------------------------------------------ bots only


def test_a_table_of_bots_only_is_watched_to_its_last_round(client: TestClient) -> None:
    response = client.post(
        "/api/tables", json={"creator": None, "seats": ["random", "basic", "random"], "schedule": [2, 1]}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["seat"] is None
    assert body["token"] is None
    assert body["url"] == f"/t/{body['table']}"
    with client.websocket_connect(body["url"].replace("/t/", "/ws/")) as ws:
        state = latest(ws, lambda s: s["game"] is not None and s["game"]["over"])
    assert state["role"] == "spectator"
    assert len(state["game"]["standings"]) == 3


def test_a_table_without_a_creators_seat_must_have_only_bots(client: TestClient) -> None:
    response = client.post("/api/tables", json={"creator": None, "seats": ["human", "basic", "basic"]})
    assert response.status_code == 400
    assert "every seat a bot" in response.json()["error"]


# ------------------------------------------------------------------ leave, back, hand over


@pytest.mark.slow
def test_a_person_who_leaves_is_played_for_at_once_and_takes_the_seat_back(
    tmp_path: Path, now: FakeNow, stack: Any
) -> None:
    # Bots wait 50 ms here, so the game is still on when the person comes back.
    client = stack.enter_context(TestClient(create_app(tmp_path / "t.db", bot_delay=0.05, now=now)))
    table, token = create(client, ["human", "random", "random", "random"], schedule=[4, 4])
    ws = seat_in(client, table, token, stack)
    game = table.game
    assert game is not None
    ws.send_text(json.dumps({"type": "leave"}))
    # Every page sees the seat "left", the table says so in its chat, and the stand-in plays the
    # person's turns, stored as its own.
    status, lines = "online", list[tuple[str, str, dict[str, int]]]()
    while status == "online" or not lines:
        message = receive(ws)
        if message["type"] == "state":
            status = message["presence"][0]["status"]
        elif message["type"] == "chat":
            lines += [(line["kind"], line["event"], line["facts"]) for line in message["lines"]]
    assert status == "left"
    assert lines == [("system", "left", {"seat": 0})]
    assert table.standin_reason(0) == "left"
    wait_until(
        lambda: any(e.seat == 0 and e.client_id == "standin" for e in events(table, client)),
        "a stand-in's move for seat 0",
    )
    # Their own moves wait until they say they are back.
    wait_until(lambda: 0 in game.awaiting, "seat 0's turn")
    move(ws, table, 0, 1)
    assert error_of(ws)["rule"] == "back"
    ws.send_text(json.dumps({"type": "back"}))
    wait_until(lambda: table.standin_reason(0) is None, "seat 0's stand-in to leave")
    assert not game.is_over
    wait_until(lambda: 0 in game.awaiting, "seat 0's turn")
    version = table.version
    # The table's bots stop when none is due: a stand-in still playing for seat 0 would keep them on.
    wait_until(lambda: table.bot_task is None, "the table's bots to rest")
    assert 0 in game.awaiting, "no bot moves for a person who came back"
    assert table.version == version
    move(ws, table, 0, 2)
    wait_until(lambda: table.version > version, "a new state")
    # Coming back to a seat one holds is refused with a sentence.
    ws.send_text(json.dumps({"type": "back"}))
    refusal = error_of(ws)
    assert refusal["rule"] == "back"
    assert "plays already" in refusal["message"]


def test_leaving_before_the_game_starts_is_refused_and_changes_nothing(
    client: TestClient, stack: Any
) -> None:
    table, token = create(client, ["human", "human", "random"])
    ws = seat_in(client, table, token, stack)
    version = table.version
    ws.send_text(json.dumps({"type": "leave"}))
    refusal = error_of(ws)
    assert refusal["rule"] == "leave"
    assert "while the game is on" in refusal["message"]
    assert table.version == version
    assert table.standin_reason(0) is None


@pytest.mark.parametrize("kind", ["leave", "back", "confirm", "claim", "hint"])
def test_a_seats_own_request_naming_another_seat_is_refused_and_changes_nothing(
    client: TestClient, stack: Any, kind: str
) -> None:
    table, token = create(client, ["human", "human", "random"], hints=True)
    host = seat_in(client, table, token, stack)
    join(client, table, 1, stack)
    wait_until(lambda: table.game is not None, "the game to start")
    version = table.version
    host.send_text(json.dumps({"type": kind, "seat": 1, "v": version, "id": "x-1"}))
    refusal = error_of(host)
    assert (refusal["rule"], refusal["id"]) == ("seat", "x-1")
    assert "seat 0's token, not seat 1's" in refusal["message"]
    assert table.standin_reason(0) is None
    assert table.standin_reason(1) is None
    assert table.version == version


@pytest.mark.parametrize(
    "message",
    [{"type": "leave"}, {"type": "back"}, {"type": "confirm"}, {"type": "handover", "seat": 1}],
)
def test_a_spectator_may_not_leave_come_back_confirm_or_hand_a_seat_over(
    client: TestClient, now: FakeNow, stack: Any, message: dict[str, Any]
) -> None:
    table, token = create(client, ["human", "human", "random"])
    seat_in(client, table, token, stack)
    guest, _own = join(client, table, 1, stack)
    guest.close()
    wait_until(lambda: not table.presence.online(1), "seat 1 to be away")
    now.advance(600)  # long enough away for a person to hand their seat over
    watcher = stack.enter_context(client.websocket_connect(f"/ws/{table.id}"))
    version = table.version
    watcher.send_text(json.dumps(message))
    refusal = error_of(watcher)
    assert refusal["rule"] == "spectator"
    assert table.standin_reason(1) is None
    assert table.version == version


def test_a_seat_is_never_handed_to_a_bot_while_its_person_is_connected(
    client: TestClient, now: FakeNow, stack: Any
) -> None:
    table, token = create(client, ["human", "human", "random", "random"])
    host = seat_in(client, table, token, stack)
    guest, _ = join(client, table, 1, stack)
    game = table.game
    assert game is not None
    for n in range(4):  # the host plays until it is the guest's turn
        wait_until(lambda: 0 in game.awaiting or 1 in game.awaiting, "seat 0's or seat 1's turn")
        if 1 in game.awaiting:
            break
        move(host, table, 0, n)
        wait_until(lambda: 0 not in game.awaiting, "seat 0's move to be taken")
    now.advance(600)  # ten minutes of their turn, but they are connected
    host.send_text(json.dumps({"type": "handover", "seat": 1}))
    refusal = error_of(host)
    assert refusal["rule"] == "handover"
    assert refusal["facts"] == {"case": "here", "who": table.names[1]}  # they are here: said so
    assert "is back" in refusal["message"]
    assert table.standin_reason(1) is None
    # Once they are gone, at a table without a clock, two minutes of their turn are enough.
    guest.close()
    wait_until(lambda: not table.presence.online(1), "seat 1 to be away")
    host.send_text(json.dumps({"type": "handover", "seat": 1}))
    wait_until(lambda: table.standin_reason(1) == "handover:0", "seat 1 handed to a bot by seat 0")


def test_an_away_persons_seat_is_handed_to_a_bot_after_a_minute_and_they_take_it_back(
    client: TestClient, now: FakeNow, stack: Any
) -> None:
    # With a (long) clock only the minute away counts, not how long their turn lasts.
    table, token = create(client, ["human", "human", "random", "random"], clock=300)
    host = seat_in(client, table, token, stack)
    guest, _ = join(client, table, 1, stack)
    guest.close()
    wait_until(lambda: not table.presence.online(1), "seat 1 to be away")
    now.advance(30)
    host.send_text(json.dumps({"type": "handover", "seat": 1}))
    refusal = error_of(host)
    assert refusal["rule"] == "handover"
    assert "after 60 s away" in refusal["message"]
    assert refusal["facts"] == {"case": "wait", "who": table.names[1], "away": 30, "seconds": 30}
    assert table.standin_reason(1) is None
    # Every state says when the server will allow it: the page offers it then, not before.
    watcher = stack.enter_context(client.websocket_connect(f"/ws/{table.id}"))
    assert 29_000 <= json.loads(watcher.receive_text())["handover"]["1"] <= 30_000
    now.advance(30)
    watcher.close()
    watcher = stack.enter_context(client.websocket_connect(f"/ws/{table.id}"))
    assert json.loads(watcher.receive_text())["handover"] == {"1": 0}
    now.advance(31)
    host.send_text(json.dumps({"type": "handover", "seat": 1}))
    wait_until(lambda: table.standin_reason(1) == "handover:0", "seat 1 handed to a bot by seat 0")
    # Their own link still opens the seat, and they take it back.
    back = seat_in(client, table, str(table.tokens[1]), stack)
    back.send_text(json.dumps({"type": "back"}))
    wait_until(lambda: table.standin_reason(1) is None, "seat 1's stand-in to leave")


def test_a_person_may_not_use_the_servers_own_move_ids(client: TestClient, stack: Any) -> None:
    table, token = create(client, ["human", "random", "random"])
    ws = seat_in(client, table, token, stack)
    wait_until(
        lambda: table.game is not None and 0 in table.game.awaiting, "the game to start at seat 0's turn"
    )
    assert table.game is not None
    bid = table.game.legal_bids(0)[0]
    ws.send_text(json.dumps({"type": "bid", "bid": bid, "v": table.version, "id": "clock"}))
    assert error_of(ws)["rule"] == "duplicate"
    assert table.auto_moves(0) == 0


# ------------------------------------------------------------------ the clock


def test_the_clock_moves_for_a_person_twice_then_a_bot_stands_in_until_they_are_back(
    client: TestClient, now: FakeNow, stack: Any
) -> None:
    table, token = create(client, ["human", "random", "random"], clock=10, level="random")
    ws = seat_in(client, table, token, stack)
    game = table.game
    assert game is not None
    for count in (1, 2):
        wait_until(lambda: 0 in game.awaiting, "seat 0's turn")
        version = table.version
        now.looked_again()
        assert table.version == version, "no move before the clock runs out"
        now.advance(10.5)
        wait_until(lambda count=count: table.auto_moves(0) == count, "the clock's automatic move for seat 0")  # type: ignore[misc]
    wait_until(lambda: table.standin_reason(0) == "clock", "a stand-in for seat 0 after two automatic moves")
    automatic = [e for e in events(table, client) if e.client_id == "clock"]
    assert [e.seat for e in automatic] == [0, 0]
    state = latest(ws, lambda s: s["v"] == table.version)
    assert {m["seat"] for m in state["automatic"]} == {0}
    assert [m["by"] for m in state["automatic"]][:2] == ["clock", "clock"]
    # The stand-in now plays without waiting for the clock, each of its moves marked as its own.
    wait_until(
        lambda: any(e.client_id == "standin" for e in events(table, client)) or game.is_over,
        "the stand-in's first move (or the end)",
    )
    standin = [e for e in events(table, client) if e.client_id == "standin"]
    if standin and not game.is_over:
        state = latest(ws, lambda s: s["v"] >= standin[0].version)
        marked = [(m["seat"], m["v"]) for m in state["automatic"] if m["by"] == "standin"]
        assert (0, standin[0].version) in marked
        assert table.auto_moves(0) == 2  # the stand-in's moves are not the clock's in a row
    ws.send_text(json.dumps({"type": "back"}))
    wait_until(lambda: table.standin_reason(0) is None, "seat 0's stand-in to leave")
    assert table.auto_moves(0) == 0


def test_the_clock_carries_a_table_to_its_end_when_a_person_never_answers(
    client: TestClient, now: FakeNow, stack: Any
) -> None:
    table, token = create(client, ["human", "human", "random", "random"], clock=10, level="basic")
    ws = seat_in(client, table, token, stack)
    join(client, table, 1, stack)  # and then never answers again
    game = table.game
    assert game is not None
    moves = 0

    def played_on() -> bool:
        """Play seat 0's turn, or let seat 1's clock run out; whether the game is over."""
        nonlocal moves
        version = table.version
        if 0 in game.awaiting:
            move(ws, table, 0, moves)
            moves += 1
            wait_until(lambda: table.version > version, "seat 0's move to be taken")
        elif 1 in game.awaiting and table.plays_for_person(1):
            now.advance(11)
            wait_until(lambda: table.version > version, "seat 1's automatic move")
        return game.is_over

    wait_until(played_on, "the clock to carry the table to its end", timeout=60)
    assert table.standin_reason(1) in ("clock", "away")
    assert table.standin_reason(0) is None
    record = loads(client.get(f"/api/tables/{table.id}/record").text)
    automatic: list[dict[str, Any]] = record.extras["upriver_automatic"]  # type: ignore[assignment]
    assert automatic
    assert {entry["seat"] for entry in automatic} == {1}
    assert set(record.extras) == {"upriver_automatic"}
    for entry in automatic:  # each names an ordinary move of the record
        played = record.rounds[entry["round"] - 1]
        if entry["kind"] == "bid":
            assert played.bids[entry["seat"]] == entry["move"]
        else:
            assert played.plays is not None
            assert entry["move"] in [str(card) for card in played.plays]


def test_a_turns_deadline_survives_a_restart(tmp_path: Path, now: FakeNow) -> None:
    path = tmp_path / "tables.db"
    with contextlib.ExitStack() as first:
        client = serve(path, now, first)
        table, _token = create(client, ["human", "random", "random"], clock=30, level="random")
        wait_until(
            lambda: table.game is not None and 0 in table.game.awaiting, "the game to start at seat 0's turn"
        )
        table_id, version = table.id, table.version
        started = table.control.turn_started[0]
    now.advance(20)  # the server is down for 20 s of the person's 30
    with contextlib.ExitStack() as second:
        client = serve(path, now, second)
        table = manager_of(client).tables[table_id]
        assert table.control.turn_started[0] == pytest.approx(started)
        now.looked_again()
        assert table.version == version, "the person still has 10 s"
        now.advance(10.5)
        wait_until(lambda: table.auto_moves(0) == 1, "the clock's automatic move for seat 0")
        assert [e.client_id for e in manager_of(client).store.events(table_id)][version] == "clock"


def test_a_person_away_a_whole_clock_gets_a_stand_in_until_they_are_back(
    client: TestClient, now: FakeNow, stack: Any
) -> None:
    table, token = create(client, ["human", "human", "random"], clock=20, level="random")
    host = seat_in(client, table, token, stack)
    guest, own = join(client, table, 1, stack)
    guest.close()
    wait_until(lambda: not table.presence.online(1), "seat 1 to be away")
    now.advance(15)
    now.looked_again()
    assert table.standin_reason(1) is None, "away less than a whole clock"
    now.advance(6)
    wait_until(lambda: table.standin_reason(1) == "away", "a stand-in for seat 1, away a whole clock")
    lines: list[Any] = []
    while not lines:
        message = receive(host)
        if message["type"] == "chat":
            lines = [(line["event"], line["facts"]) for line in message["lines"]]
    assert ("away-bot", {"seat": 1}) in lines
    # Their link still opens the seat; they say they are back.
    back = seat_in(client, table, own, stack)
    back.send_text(json.dumps({"type": "back"}))
    wait_until(lambda: table.standin_reason(1) is None, "seat 1's stand-in to leave")


def test_a_table_whose_clock_runs_needs_an_owner_even_with_no_bot_to_move(
    client: TestClient, stack: Any
) -> None:
    manager = manager_of(client)
    clocked, _ = create(client, ["human"] * 3, clock=60)
    plain, _ = create(client, ["human"] * 3)
    for table in (clocked, plain):
        join(client, table, 1, stack)
        join(client, table, 2, stack)
    wait_until(lambda: clocked.game is not None and plain.game is not None, "both games to start")
    owners = set(manager.following.needing_owner())
    assert clocked.id in owners
    assert plain.id not in owners
