"""The web tables' store: :class:`TableStore` over SQLite (the default) or PostgreSQL.

``open_table_store(db)`` opens what ``upriver serve --db`` names (:func:`upriver.database.parse_target`);
``SqliteTableStore(path)`` opens a SQLite file directly.
"""

from __future__ import annotations

from pathlib import Path

from upriver.database import Target, open_database
from upriver.database.sqlite import SqliteDatabase
from upriver.web.store.base import Event, TableRow, TableStore, VersionConflictError
from upriver.web.store.sqlite import SqliteTableStore

__all__ = ["Event", "SqliteTableStore", "TableRow", "TableStore", "VersionConflictError", "open_table_store"]


def open_table_store(db: str | Path | Target) -> TableStore:
    """The store of the tables kept where ``db`` says: a SQLite path or ``sqlite:///PATH``, or a
    ``postgresql://`` URL.

    :raises upriver.database.TargetError: ``db`` names no database (one sentence saying why).
    :raises upriver.database.StoreUnavailableError: it cannot be opened or prepared (one sentence).
    """
    database = open_database(db)
    if isinstance(database, SqliteDatabase):
        return SqliteTableStore(database)
    from upriver.database.postgres import PostgresDatabase
    from upriver.web.store.postgres import PostgresTableStore

    assert isinstance(database, PostgresDatabase)
    return PostgresTableStore(database)
