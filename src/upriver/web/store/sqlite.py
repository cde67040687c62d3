"""The tables in a SQLite file (WAL): the embedded default, nothing to install."""

from __future__ import annotations

from pathlib import Path

from upriver.database import SqliteTarget
from upriver.database.sqlite import SqliteDatabase
from upriver.web.store.base import TableStore

__all__ = ["SqliteTableStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,
    archived REAL
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
CREATE TABLE IF NOT EXISTS rematches (
    finished TEXT PRIMARY KEY,
    rematch TEXT NOT NULL REFERENCES tables(id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    at REAL NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    event TEXT,
    facts TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


class SqliteTableStore(TableStore):
    """The SQLite file behind the live tables (made, with its folder, if missing)."""

    def __init__(self, path: str | Path | SqliteDatabase) -> None:
        db = path if isinstance(path, SqliteDatabase) else SqliteDatabase(SqliteTarget(Path(path)))
        self.path = db.path
        super().__init__(db)

    def schema(self) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        # A file from before archiving lacks the column.
        return _SCHEMA, (("tables", "archived", "REAL"),)
