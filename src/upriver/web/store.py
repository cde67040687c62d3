"""Durable tables: SQLite in WAL mode, one row per table and an append-only log of what happened.

A finished table idle for long is archived: its rows stay, but start-up no longer replays it.

A table's row holds what never changes once the table exists (its rules, seats, secret
tokens, seed and, for an imported game, the record it continues). Everything that
happens afterwards — a seat joining, a bid, a card — is one row of ``events``, numbered
from 1 per table; that number is the table's state version. The server commits an event
before it tells anyone about it, so after a crash (even ``kill -9``) replaying each table's
events through the engine rebuilds exactly what the players last saw. The store itself
trusts nothing it holds: a row the engine refuses on replay marks only its table damaged.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["Event", "Store", "TableRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    value TEXT NOT NULL,
    client_id TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
"""


@dataclasses.dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: its id and its fixed configuration (plain JSON data)."""

    id: str
    config: dict[str, object]


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """One accepted event: ``join`` (value: the name), ``bid`` or ``play`` (value: ``3``, ``QH``)."""

    version: int
    kind: str
    seat: int
    value: str
    client_id: str | None


class Store:
    """The SQLite file behind the live tables; every write is committed before it returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # The server touches the database from its one event-loop thread only.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a crashed process (kill -9); only a power cut may lose the last commits.
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "archived" not in columns:  # a file from before archiving
            self._db.execute("ALTER TABLE tables ADD COLUMN archived REAL")

    def close(self) -> None:
        """Close the database file."""
        self._db.close()

    def add_table(self, table_id: str, config: dict[str, object]) -> None:
        """Store a new table's fixed configuration."""
        with self._db:
            self._db.execute(
                "INSERT INTO tables (id, created, config) VALUES (?, ?, ?)",
                (table_id, time.time(), json.dumps(config)),
            )

    def append(self, table_id: str, event: Event) -> None:
        """Commit one event; the primary key refuses a second event with the same version."""
        with self._db:
            self._db.execute(
                "INSERT INTO events (table_id, version, kind, seat, value, client_id, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, event.version, event.kind, event.seat, event.value, event.client_id, time.time()),
            )

    def tables(self) -> Iterator[TableRow]:
        """Every stored table not archived, oldest first."""
        rows = self._db.execute(
            "SELECT id, config FROM tables WHERE archived IS NULL ORDER BY created, id"
        ).fetchall()
        for table_id, config in rows:
            yield TableRow(table_id, json.loads(config))

    def events(self, table_id: str) -> list[Event]:
        """A table's events in version order."""
        rows = self._db.execute(
            "SELECT version, kind, seat, value, client_id FROM events WHERE table_id = ? ORDER BY version",
            (table_id,),
        ).fetchall()
        return [Event(*row) for row in rows]

    def last_event_at(self, table_id: str) -> float | None:
        """When the table's newest event was committed (``time.time()``), or ``None``."""
        (at,) = self._db.execute("SELECT MAX(at) FROM events WHERE table_id = ?", (table_id,)).fetchone()
        return None if at is None else float(at)

    def archive(self, table_id: str) -> None:
        """Keep the table and its events in the file but load it no more on start-up."""
        with self._db:
            self._db.execute("UPDATE tables SET archived = ? WHERE id = ?", (time.time(), table_id))
