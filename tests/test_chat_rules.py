"""Table talk's text rule and who may talk, through the WebSocket: a line with nothing visible is
refused, the characters that show nothing are dropped, and a seat not taken yet neither writes nor
reacts. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.webclient import create
from upriver.web.play.settings import TableSettings
from upriver.web.play.table import Table
from upriver.web.seats.holders import Connection
from upriver.web.social.chat import ChatRefusalError, ChatRoom


class Socket:
    """A WebSocket client that keeps what it was sent and finds the next message of a kind."""

    def __init__(
        self, client: TestClient, stack: contextlib.ExitStack, table: str, token: str | None
    ) -> None:
        query = f"?token={token}" if token else ""
        self.ws = stack.enter_context(client.websocket_connect(f"/ws/{table}{query}"))
        self.received: list[dict[str, Any]] = []
        self.state = self.next("state")

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (those before it are kept in ``received``)."""
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            self.received.append(message)
            if message["type"] == kind:
                return message

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def chat(self, text: str, **more: Any) -> None:
        self.send(type="chat", text=text, **more)


def seated(client: TestClient, stack: contextlib.ExitStack, seats: list[str]) -> tuple[Table, Socket, str]:
    """A table whose creator Ann is connected (seat 0), and the invite of its first open seat ("")."""
    body = create(client, seats)
    ann = Socket(client, stack, body["table"], body["token"])
    invites = ann.state["lobby"]["invites"]
    table: Table = manager_of(client).tables[body["table"]]
    return table, ann, invites[0]["url"].split("#token=")[1] if invites else ""


@pytest.mark.parametrize(
    "text",
    [
        "\u200b\u200b\u200b",  # zero width spaces
        "\u200d\u200c\u2060",  # joiners and a word joiner
        "\u00ad\u00ad",  # soft hyphens
        "\u3164 \u115f\uffa0",  # Hangul fillers
        "\ufeff",  # a byte order mark
        "\U000e0068\U000e0069",  # Unicode tags (they spell "hi", unseen)
    ],
)
def test_a_line_with_nothing_visible_is_refused_and_changes_nothing(
    client: TestClient, stack: contextlib.ExitStack, text: str
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    ann.chat(text, id="c1")
    error = ann.next("error")
    assert (error["rule"], error["id"], error["facts"]) == ("chat", "c1", {"case": "empty"})
    assert "invisible" in error["message"]
    assert list(table.chat.recent) == []


def test_the_characters_that_show_nothing_are_dropped_from_a_line_and_emoji_kept(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, _invite = seated(client, stack, ["human", "basic", "basic"])
    watcher = Socket(client, stack, table.id, None)
    ann.chat("\u200bwell\u00ad played \U000e0069\U000e0067\U000e006e\U0001f3f3\ufe0f\u200d\U0001f308\ufeff")
    for socket in (ann, watcher):
        assert socket.next("chat")["lines"][0]["text"] == "well played \U0001f3f3\ufe0f\u200d\U0001f308"
    assert [line.text for line in table.chat.recent] == ["well played \U0001f3f3\ufe0f\u200d\U0001f308"]


def test_a_seat_not_taken_yet_may_neither_write_nor_react(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    table, ann, invite = seated(client, stack, ["human", "human", "basic"])
    guest = Socket(client, stack, table.id, invite)
    guest.send(type="react", reaction="\U0001f44d", id="r1")
    refused = guest.next("error")
    assert (refused["rule"], refused["id"]) == ("join", "r1")
    guest.chat("hello", id="c1")
    assert guest.next("error")["id"] == "c1"
    ann.send(type="react", reaction="\U0001f389")
    assert ann.next("reaction")["seat"] == 0  # the first reaction Ann sees is her own
    assert not any(message["type"] == "reaction" for message in guest.received)


class _Place:
    """A table as its chat room sees it: seat 1 is open, seat 2 re-invited by the host."""

    id = "t1"
    version = 3

    def __init__(self) -> None:
        self.names: list[str | None] = ["Ann", None, "Cid"]
        self.connections: set[Connection] = set()
        self.settings = TableSettings()

    def invited(self, seat: int) -> bool:
        return self.names[seat] is None or seat == 2


@pytest.mark.parametrize("seat", [1, 2])
def test_a_chat_room_refuses_the_reaction_of_a_seat_not_taken_as_it_refuses_its_line(seat: int) -> None:
    place = _Place()
    watching = Connection(0)
    place.connections.add(watching)
    room = ChatRoom(place)
    with pytest.raises(ChatRefusalError) as refused:
        room.react(Connection(seat), "\U0001f44d")
    assert refused.value.facts == {"case": "join"}
    assert refused.value.seat == seat
    assert list(watching.outbox) == []
    room.react(Connection(0), "\U0001f44d")
    assert len(watching.outbox) == 1
