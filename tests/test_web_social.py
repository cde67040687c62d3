"""Who is at a table and table talk, through the WebSocket: presence, spectators, chat and reactions.

Each test runs on a fresh SQLite file and on a fresh PostgreSQL database (one server process;
``tests/test_web_social_workers.py`` has two). A client here reads messages in the order the
server sent them, so "the next state after Bob's socket closed shows him away" is the whole
claim: with one process the change is sent at once. One test runs a real server over SQLite and
real sockets, and gives the change its 2 s.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.conftest import manager_of
from tests.live import Server
from tests.waiting import receive_until
from tests.webclient import create
from upriver.web.app import create_app
from upriver.web.play.table import Table
from upriver.web.seats.presence import PING_INTERVAL, PING_TIMEOUT
from upriver.web.social.chat import HISTORY, LINES, MAX_LINE, REACTIONS, REACTIONS_LIMIT


class Socket:
    """One WebSocket client that keeps what it was sent and finds the next message of a kind."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.state = self.next("state")

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (the others before it are kept in ``received``)."""
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            self.received.append(message)
            if message["type"] == "state":
                self.state = message
            if message["type"] == kind:
                return message

    def state_where(self, key: str, value: object, within: int = 5) -> dict[str, Any]:
        """The first of the next ``within`` states whose ``key`` is ``value``.

        A state sent just before the change may still be on its way: over PostgreSQL the bots'
        opening bids are stored off the event loop and sent when they land. A few is the bound.
        """
        seen: list[object] = []
        for _ in range(within):
            state = self.next("state")
            if state[key] == value:
                return state
            seen.append(state[key])
        raise AssertionError(f"no state with {key} = {value!r} among the next {within}: {seen}")

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def chat(self, text: object, **more: Any) -> None:
        self.send(type="chat", text=text, **more)

    def said(self, text: str) -> dict[str, Any]:
        """Write ``text`` and wait until it comes back as a line (the others' lines before it are kept)."""
        self.chat(text)
        while True:
            for line in self.next("chat")["lines"]:
                if line["text"] == text:
                    return dict(line)


def open_socket(client: TestClient, stack: contextlib.ExitStack, table: str, token: str | None) -> Socket:
    query = f"?token={token}" if token else ""
    return Socket(stack.enter_context(client.websocket_connect(f"/ws/{table}{query}")))


def table_of(client: TestClient, table_id: str) -> Table:
    table: Table = manager_of(client).tables[table_id]
    return table


def seated(
    client: TestClient, stack: contextlib.ExitStack, seats: list[str], **options: Any
) -> tuple[Table, Socket, str]:
    """A table whose creator Ann is connected (seat 0), and the invite of the first open seat ("")."""
    body = create(client, seats, **options)
    ann = open_socket(client, stack, body["table"], body["token"])
    invites = ann.state["lobby"]["invites"]
    invite = invites[0]["url"].split("#token=")[1] if invites else ""
    return table_of(client, body["table"]), ann, invite


def statuses(state: dict[str, Any]) -> list[str]:
    return [seat["status"] for seat in state["presence"]]


# ------------------------------------------------------------------ presence


def test_a_seat_is_online_while_its_socket_is_open_and_away_since_it_closed(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, invite = seated(client, stack, ["human", "human", "basic"])
    assert statuses(ann.state) == ["online", "away", "bot"]
    with client.websocket_connect(f"/ws/{table.id}?token={invite}") as ws:
        bob = Socket(ws)
        assert statuses(bob.state) == ["online", "online", "bot"]
        assert bob.state["presence"][1]["away_since"] is None
        seen = ann.next("state")
        assert statuses(seen) == ["online", "online", "bot"]
        assert seen["v"] == ann.received[0]["v"], "presence changes the state, not its version"
        closed = time.time()
    gone = ann.next("state")
    assert statuses(gone) == ["online", "away", "bot"]
    assert closed - 1 <= gone["presence"][1]["away_since"] <= time.time()
    assert table.presence.away_since(1) == gone["presence"][1]["away_since"]
    assert not table.presence.online(1)
    assert table.presence.online(0)


def test_a_seat_nobody_opened_is_away_since_the_table_was_made(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    before = time.time()
    _table, ann, _invite = seated(client, stack, ["human", "human", "basic"])
    assert ann.state["presence"][1]["status"] == "away"
    assert before <= ann.state["presence"][1]["away_since"] <= time.time()
    assert ann.state["presence"][2] == {"status": "bot", "away_since": None, "auto": 0}


def test_a_person_in_two_tabs_is_online_once_and_stays_online_until_both_close(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, invite = seated(client, stack, ["human", "human", "basic"])
    first = stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={invite}"))
    Socket(first)
    assert statuses(ann.next("state")) == ["online", "online", "bot"]
    with client.websocket_connect(f"/ws/{table.id}?token={invite}") as second:
        Socket(second)
    # The second tab came and went without changing who is here: the next state Ann gets is the
    # one after the first tab closes.
    first.close()
    assert statuses(ann.next("state")) == ["online", "away", "bot"]
    assert all(statuses(message) != ["online", "online", "online"] for message in ann.received)
    states = [m for m in ann.received if m["type"] == "state"]
    assert len(states) == 3, "one state when Bob came, one when he went: his second tab changed nothing"


def test_spectators_are_counted_and_everyone_sees_how_many_watch(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    assert ann.state["watching"] == 0
    watcher = open_socket(client, stack, table.id, None)
    assert watcher.state["watching"] == 1
    assert watcher.state["presence"][0]["status"] == "online"
    ann.state_where("watching", 1)
    with client.websocket_connect(f"/ws/{table.id}") as ws:
        assert Socket(ws).state["watching"] == 2
        ann.state_where("watching", 2)
        watcher.state_where("watching", 2)
    ann.state_where("watching", 1)
    assert table.presence.watching() == 1


# ------------------------------------------------------------------ chat


def test_a_line_reaches_every_connection_as_the_text_typed_markup_included(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, invite = seated(client, stack, ["human", "human", "basic"])
    bob = open_socket(client, stack, table.id, invite)
    bob.send(type="join", name="Bob")
    watcher = open_socket(client, stack, table.id, None)
    hostile = '<img src=x onerror="alert(1)"> & <b>bold</b> "quoted" \'single\''
    bob.chat(hostile)
    for socket in (ann, bob, watcher):
        message = socket.next("chat")
        assert message["full"] is False
        [line] = message["lines"]
        assert line["text"] == hostile, "stored and sent verbatim, as a JSON string"
        assert (line["n"], line["seat"], line["name"], line["kind"]) == (1, 1, "Bob", "text")
        assert line["event"] is None
        assert line["facts"] == {}
    assert table.chat.recent[-1].text == hostile


@pytest.mark.parametrize(
    ("text", "case"),
    [
        ("x" * (MAX_LINE + 1), "too long"),
        ("   ", "empty"),
        ("", "empty"),
        ("line one\nline two", "control"),
        ("bell\x07", "control"),
        ("\u202etxet desrever", "control"),
        ("isolate \u2066x\u2069", "control"),
        ("null\x00byte", "control"),
    ],
)
def test_a_line_that_cannot_be_shown_as_one_line_of_text_is_refused_and_changes_nothing(
    client: TestClient, stack: contextlib.ExitStack, text: str, case: str
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    ann.chat(text, id="c1")
    error = ann.next("error")
    assert (error["rule"], error["seat"], error["id"], error["facts"]["case"]) == ("chat", 0, "c1", case)
    if case == "too long":
        assert error["facts"]["limit"] == MAX_LINE
        assert f"at most {MAX_LINE} characters" in error["message"]
    assert "\n" not in error["message"]
    assert not any(message["type"] == "chat" for message in ann.received)
    assert list(table.chat.recent) == []


def test_a_line_of_exactly_200_characters_and_emoji_sequences_are_taken(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    _table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    ann.chat("y" * MAX_LINE)
    assert ann.next("chat")["lines"][0]["text"] == "y" * MAX_LINE
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 well played"  # joined by zero-width joiners
    ann.chat(family)
    assert ann.next("chat")["lines"][0]["text"] == family


def test_ten_kilobytes_of_text_are_refused_for_their_size_and_change_nothing(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    ann.chat("z" * 10_000)
    error = ann.next("error")
    assert error["rule"] == "size"
    ann.chat("z" * 4000)  # under the message size, over the line's
    assert ann.next("error")["facts"] == {"case": "too long", "limit": MAX_LINE}
    assert list(table.chat.recent) == []


def test_a_flood_is_refused_past_the_limit_the_refusal_names(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    count, seconds = LINES
    for n in range(count):
        ann.chat(f"line {n}")
        assert ann.next("chat")["lines"][0]["text"] == f"line {n}"
    ann.chat("one too many", id="flood")
    error = ann.next("error")
    assert error["facts"] == {"case": "too fast", "limit": count, "seconds": seconds}
    assert f"at most {count} lines in {seconds:g} seconds" in error["message"]
    assert [line.text for line in table.chat.recent] == [f"line {n}" for n in range(count)]


def test_a_second_tab_shares_its_seats_limit(client: TestClient, stack: contextlib.ExitStack) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    assert table.tokens[0] is not None
    other_tab = open_socket(client, stack, table.id, table.tokens[0])
    count, _seconds = LINES
    for n in range(count):
        (ann if n % 2 else other_tab).chat(f"line {n}")
        ann.next("chat")
    other_tab.chat("one too many")
    assert other_tab.next("error")["facts"]["case"] == "too fast"


def test_the_last_lines_come_back_after_a_reload_and_after_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as first, contextlib.ExitStack() as stack:
        table, ann, invite = seated(first, stack, ["human", "human", "basic"])
        bob = open_socket(first, stack, table.id, invite)
        bob.send(type="join", name="Bob")
        bob.next("state")
        minutes = [0.0]
        table.chat.clock = lambda: minutes[0]  # the rate limits' clock, moved on between bursts
        for n in range(HISTORY + 3):
            (ann if n % 2 else bob).said(f"<i>{n}</i>")
            if n % 8 == 7:
                minutes[0] += 60
        # A reload: a new connection gets the last lines at once, full.
        again = open_socket(first, stack, table.id, None)
        history = next(m for m in again.received if m["type"] == "chat")
        assert history["full"] is True
        expected = [f"<i>{n}</i>" for n in range(3, HISTORY + 3)]
        assert [line["text"] for line in history["lines"]] == expected
        assert [line["n"] for line in history["lines"]] == list(range(4, HISTORY + 4))
        record = first.get(f"/api/tables/{table.id}/record?token={table.tokens[0]}")
        assert "<i>" not in record.text, "chat is never in the game record"
        table_id = table.id
    with TestClient(create_app(db, bot_delay=0.0)) as second, contextlib.ExitStack() as later:
        watcher = open_socket(second, later, table_id, None)
        history = next(m for m in watcher.received if m["type"] == "chat")
        assert [line["text"] for line in history["lines"]] == expected
        assert [line["name"] for line in history["lines"][-2:]] == ["Ann", "Bob"]


def test_a_table_without_lines_sends_no_chat_message_on_connect(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    _table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    assert [m["type"] for m in ann.received] == ["state"]


def test_spectators_read_the_chat_but_may_not_write_unless_the_table_allows(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    watcher = open_socket(client, stack, table.id, None)
    ann.chat("hello")
    assert watcher.next("chat")["lines"][0]["text"] == "hello"
    watcher.chat("hi, I watch", name="Zed")
    error = watcher.next("error")
    assert (error["rule"], error["seat"], error["facts"]) == ("chat", None, {"case": "spectator"})
    watcher.send(type="react", reaction="oops")
    assert watcher.next("error")["facts"] == {"case": "spectator"}
    assert [line.text for line in table.chat.recent] == ["hello"]


def test_where_spectators_may_write_they_do_under_a_name_unlike_any_players(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"], spectator_chat=True)
    watcher = open_socket(client, stack, table.id, None)
    for name, reason in [
        ("ann", "taken"),
        ("Bob (basic)", "bot label"),
        (None, "not text"),
        ("", "empty"),
        ("x" * 30, "too long"),
        ("Z\u202ed", "control"),
    ]:
        watcher.chat("hello", name=name)
        assert watcher.next("error")["facts"] == {"case": "name", "reason": reason}, name
    watcher.chat("good luck all", name=" Zed ")
    [line] = ann.next("chat")["lines"]
    assert (line["seat"], line["name"], line["text"]) == (None, "Zed", "good luck all")
    assert [line.text for line in table.chat.recent] == ["good luck all"]


def test_reactions_reach_every_connection_and_are_not_kept(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    watcher = open_socket(client, stack, table.id, None)
    ann.send(type="react", reaction="well-played")
    for socket in (ann, watcher):
        reaction = socket.next("reaction")
        assert (reaction["seat"], reaction["reaction"]) == (0, "well-played")
    ann.send(type="react", reaction="<script>")
    error = ann.next("error")
    assert error["facts"] == {"case": "reaction", "reactions": list(REACTIONS)}
    count, seconds = REACTIONS_LIMIT
    for _ in range(count - 1):
        ann.send(type="react", reaction="🎉")
        ann.next("reaction")
    ann.send(type="react", reaction="🎉")
    assert ann.next("error")["facts"] == {"case": "too fast", "limit": count, "seconds": seconds}
    again = open_socket(client, stack, table.id, None)
    assert [m["type"] for m in again.received] == ["state"], "a reaction is not shown again"
    assert list(table.chat.recent) == []


def test_the_tables_notice_is_a_system_line_every_connection_gets(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    assert table.chat.notice(manager_of(client).store, "left", {"seat": 0, "by": 0})
    [line] = ann.next("chat")["lines"]
    assert (line["kind"], line["event"], line["facts"], line["seat"], line["text"]) == (
        "system",
        "left",
        {"seat": 0, "by": 0},
        0,
        "",
    )
    with pytest.raises(ValueError, match="unknown chat notice"):
        table.chat.notice(manager_of(client).store, "shouted", {})


def test_a_malformed_chat_message_is_refused_as_a_field(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    ann.send(type="chat")
    assert ann.next("error")["facts"] == {"field": "text"}
    ann.send(type="chat", text=["not", "text"])
    assert ann.next("error")["facts"] == {"field": "text"}
    ann.send(type="react")
    assert ann.next("error")["facts"] == {"field": "reaction"}
    assert list(table.chat.recent) == []


@pytest.mark.slow
def test_over_real_sockets_a_closed_page_is_away_for_the_others_before_any_ping_could_tell(
    tmp_path: Path,
) -> None:
    with contextlib.ExitStack() as stack:
        server = Server(str(tmp_path / "tables.db"), stack)
        table = server.create(["human", "human", "basic"])
        ann = server.socket(table["table"], table["token"])
        state = json.loads(ann.recv(timeout=10))
        invite = state["lobby"]["invites"][0]["url"].split("#token=")[1]
        tabs = [server.socket(table["table"], invite) for _ in range(2)]
        if state["presence"][1]["status"] != "online":
            state = receive_until(
                ann, lambda m: m["type"] == "state" and m["presence"][1]["status"] == "online", "Bob online"
            )
        tabs[0].close()  # one of Bob's two tabs: he is still here
        tabs[1].close()
        # The closing itself tells: a silent page is found out by the pings only, after both their times.
        state = receive_until(
            ann,
            lambda m: m["type"] == "state" and m["presence"][1]["status"] == "away",
            "Bob away, his last tab closed",
            timeout=PING_INTERVAL + PING_TIMEOUT - 1,
        )
        assert [seat["status"] for seat in state["presence"]] == ["online", "away", "bot"]
