"""The score keeper's store: :class:`SheetStore` over SQLite (the default) or PostgreSQL.

``open_sheet_store(db)`` opens what ``--db`` names (:func:`upriver.database.parse_target`);
``SqliteSheetStore(path)`` opens a SQLite file directly.
"""

from __future__ import annotations

from pathlib import Path

from upriver.database import Target, open_database
from upriver.database.sqlite import SqliteDatabase
from upriver.keeper.store.base import (
    ConflictGoneError,
    Entered,
    SheetStore,
    SheetSummary,
    StaleSheetError,
    StoredSheet,
    UnreadableSheetError,
)
from upriver.keeper.store.sqlite import SqliteSheetStore

__all__ = [
    "ConflictGoneError",
    "Entered",
    "SheetStore",
    "SheetSummary",
    "SqliteSheetStore",
    "StaleSheetError",
    "StoredSheet",
    "UnreadableSheetError",
    "open_sheet_store",
]


def open_sheet_store(db: str | Path | Target) -> SheetStore:
    """The store of the sheets kept where ``db`` says: a SQLite path or ``sqlite:///PATH``, or a
    ``postgresql://`` URL.

    :raises upriver.database.TargetError: ``db`` names no database (one sentence saying why).
    :raises upriver.database.StoreUnavailableError: it cannot be opened or prepared (one sentence).
    """
    database = open_database(db)
    if isinstance(database, SqliteDatabase):
        return SqliteSheetStore(database)
    from upriver.keeper.store.postgres import PostgresSheetStore

    return PostgresSheetStore(database)
