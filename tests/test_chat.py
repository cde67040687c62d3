"""A table's chat room and its store, below the WebSocket: numbering, order, and lines from elsewhere.

Another server process stores lines at the same table (here: written straight to the store),
and its notifications may come late or not at all; a room sends every line to its connections
once, in order of ``n``, whatever order the news comes in.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from upriver.database import StoreError
from upriver.web.play.settings import TableSettings
from upriver.web.seats.holders import Connection
from upriver.web.social.chat import ChatRoom
from upriver.web.store import SqliteTableStore
from upriver.web.store.chat import add_line, lines


class _Place:
    """A table as its chat room sees it."""

    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.version = 7
        self.names: list[str | None] = ["Ann", "Bob", None]
        self.connections: set[Connection] = {Connection(0)}
        self.settings = TableSettings()

    def invited(self, seat: int) -> bool:
        return self.names[seat] is None


def sent(conn: Connection) -> list[int]:
    """The numbers of the lines sent to ``conn``, in the order sent."""
    return [line["n"] for text in conn.outbox for line in json.loads(text)["lines"]]


@pytest.fixture
def store(tmp_path: Path) -> SqliteTableStore:
    db = SqliteTableStore(tmp_path / "tables.db")
    db.add_table("t1", {"kinds": []})
    return db


def test_lines_are_numbered_per_table_and_read_back_in_order(store: SqliteTableStore) -> None:
    store.add_table("t2", {"kinds": []})
    for n in range(3):
        add_line(store.db, "t1", seat=0, name="Ann", kind="text", text=f"line {n}")
    other = add_line(
        store.db, "t2", seat=None, name="", kind="system", text="", event="left", facts={"seat": 1}
    )
    assert other.n == 1
    assert [line.n for line in lines(store.db, "t1")] == [1, 2, 3]
    assert [line.text for line in lines(store.db, "t1", last=2)] == ["line 1", "line 2"]
    assert [line.n for line in lines(store.db, "t1", after=1)] == [2, 3]
    assert lines(store.db, "t2")[0].facts == {"seat": 1}
    with pytest.raises(StoreError):
        add_line(store.db, "no such table", seat=0, name="Ann", kind="text", text="hello")


def test_a_line_heard_after_a_gap_brings_the_lines_before_it_in_order(store: SqliteTableStore) -> None:
    place = _Place("t1")
    room = ChatRoom(place)
    assert room.history(store) is None  # no line yet, and the room is read
    [conn] = place.connections
    stored = [add_line(store.db, "t1", seat=1, name="Bob", kind="text", text=f"{n}") for n in range(4)]
    room.heard(store, stored[2])  # the news of lines 1 and 2 is late
    room.heard(store, stored[0])
    room.heard(store, stored[1])
    room.heard(store, stored[3])
    room.heard(store, stored[3])
    assert sent(conn) == [1, 2, 3, 4]
    assert [line.n for line in room.recent] == [1, 2, 3, 4]


def test_lines_stored_while_no_connection_was_open_here_come_with_the_history(
    store: SqliteTableStore,
) -> None:
    place = _Place("t1")
    room = ChatRoom(place)
    first = add_line(store.db, "t1", seat=0, name="Ann", kind="text", text="<b>hi</b>")
    room.heard(store, first)  # nobody here yet: nothing kept, nothing sent
    [conn] = place.connections
    assert list(conn.outbox) == []
    history = room.history(store)
    assert history is not None
    message = json.loads(history)
    assert (message["type"], message["v"], message["full"]) == ("chat", 7, True)
    assert [line["text"] for line in message["lines"]] == ["<b>hi</b>"]
    later = add_line(store.db, "t1", seat=0, name="Ann", kind="text", text="again")
    for line in room.missed(store):  # the notifications were lost: read what was missed
        room.heard(store, line)
    assert sent(conn) == [later.n]


def test_a_database_made_before_the_chat_gets_its_chat_table_and_keeps_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:  # the schema before table talk
        old.executescript(
            """
            CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, config TEXT NOT NULL,
                archived REAL);
            CREATE TABLE events (table_id TEXT NOT NULL REFERENCES tables(id), version INTEGER NOT NULL,
                kind TEXT NOT NULL, seat INTEGER NOT NULL, value TEXT NOT NULL, client_id TEXT,
                at REAL NOT NULL, PRIMARY KEY (table_id, version)) WITHOUT ROWID;
            INSERT INTO tables VALUES ('t0', 1.0, '{"kinds": []}', NULL);
            """
        )
    old.close()
    store = SqliteTableStore(path)
    assert [row.id for row in store.tables()] == ["t0"]
    assert add_line(store.db, "t0", seat=0, name="Ann", kind="text", text="still here").n == 1
    store.close()
