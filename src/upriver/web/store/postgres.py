"""The tables in a PostgreSQL database: the same statements as SQLite's, several servers can share it.

Ids compare byte by byte (``COLLATE "C"``), as in SQLite, so tables list in the same order
whatever the database's locale.
"""

from __future__ import annotations

from upriver.database import Database
from upriver.database.postgres import PostgresDatabase
from upriver.web.store.base import TableStore

__all__ = ["PostgresTableStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT COLLATE "C" PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    config TEXT NOT NULL,
    archived DOUBLE PRECISION
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables(id),
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    value TEXT NOT NULL,
    client_id TEXT,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, version)
);
CREATE TABLE IF NOT EXISTS rematches (
    finished TEXT COLLATE "C" PRIMARY KEY,
    rematch TEXT COLLATE "C" NOT NULL REFERENCES tables(id)
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    event TEXT,
    facts TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


class PostgresTableStore(TableStore):
    """A PostgreSQL database behind the live tables (:class:`~upriver.database.postgres.PostgresDatabase`)."""

    def __init__(self, db: Database) -> None:
        if not isinstance(db, PostgresDatabase):
            raise TypeError(f"a PostgreSQL store needs a PostgreSQL database, not {db.target.display}")
        self.pool = db.pool
        """The connections, for what a subclass adds (a table's owner, notifications)."""
        super().__init__(db)

    def schema(self) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        return _SCHEMA, ()
