"""Score sheets in a PostgreSQL database, beside the web tables: the same statements as SQLite's."""

from __future__ import annotations

from upriver.keeper.store.base import SheetStore

__all__ = ["PostgresSheetStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sheets (
    id TEXT COLLATE "C" PRIMARY KEY,
    share TEXT COLLATE "C" NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    config TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sheet_entries (
    sheet_id TEXT COLLATE "C" NOT NULL REFERENCES sheets(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    entries TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (sheet_id, seq)
);
CREATE TABLE IF NOT EXISTS sheet_conflicts (
    sheet_id TEXT COLLATE "C" NOT NULL REFERENCES sheets(id),
    id TEXT COLLATE "C" NOT NULL,
    opened DOUBLE PRECISION NOT NULL,
    data TEXT NOT NULL,
    resolved TEXT,
    PRIMARY KEY (sheet_id, id)
);
"""


class PostgresSheetStore(SheetStore):
    """The score sheets of a PostgreSQL database (:class:`~upriver.database.postgres.PostgresDatabase`)."""

    def schema(self) -> str:
        return _SCHEMA
