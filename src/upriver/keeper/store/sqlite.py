"""Score sheets in a SQLite file (WAL), by default the web app's own."""

from __future__ import annotations

from pathlib import Path

from upriver.database import SqliteTarget
from upriver.database.sqlite import SqliteDatabase
from upriver.keeper.store.base import SheetStore

__all__ = ["SqliteSheetStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sheets (
    id TEXT PRIMARY KEY,
    share TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    config TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sheet_entries (
    sheet_id TEXT NOT NULL REFERENCES sheets(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    entries TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (sheet_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sheet_conflicts (
    sheet_id TEXT NOT NULL REFERENCES sheets(id),
    id TEXT NOT NULL,
    opened REAL NOT NULL,
    data TEXT NOT NULL,
    resolved TEXT,
    PRIMARY KEY (sheet_id, id)
) WITHOUT ROWID;
"""


class SqliteSheetStore(SheetStore):
    """The score sheets of one SQLite file (made, with its folder, if missing).

    Its own connection: the web app uses it from its event loop, the terminal from its one thread.
    """

    def __init__(self, path: str | Path | SqliteDatabase) -> None:
        db = path if isinstance(path, SqliteDatabase) else SqliteDatabase(SqliteTarget(Path(path)))
        self.path = db.path
        super().__init__(db)

    def schema(self) -> str:
        return _SCHEMA
