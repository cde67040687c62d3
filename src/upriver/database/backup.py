"""A consistent copy of a live SQLite store, and putting one back.

:func:`backup` uses SQLite's online backup API (``sqlite3.Connection.backup``): it copies the
database page by page while the server keeps running and writing, and restarts a step when a
write changed a page it had copied, so the copy is the database as it was at one commit, never
half of a move. :func:`restore` checks that a file is such a copy (a SQLite database that passes
``PRAGMA quick_check`` and holds upriver's tables) and writes it over a store with the same API;
the server must be stopped while it does (a running server holds its tables in memory and would
go on from them). A PostgreSQL store is backed up with PostgreSQL's own tools (``pg_dump``; see
docs/hosting.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from upriver.database.base import StoreError

__all__ = ["BackupError", "Contents", "backup", "contents", "restore"]

_TABLES = ("tables", "events", "sheets")
"""upriver's own tables, of which a backup holds at least the web tables'."""


class BackupError(StoreError):
    """A backup or a restore that cannot be done; the message says why and what would be right."""


@dataclasses.dataclass(frozen=True, slots=True)
class Contents:
    """What a store holds: how many web tables, events and score sheets."""

    tables: int
    events: int
    sheets: int

    def __str__(self) -> str:
        return f"{self.tables} tables ({self.events} moves and other events) and {self.sheets} score sheets"


@contextlib.contextmanager
def _opened(path: Path, *, read_only: bool) -> Iterator[sqlite3.Connection]:
    try:
        uri = f"{path.resolve().as_uri()}?mode={'ro' if read_only else 'rwc'}"
        connection = sqlite3.connect(uri, uri=True, timeout=10.0)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open the SQLite file {path}: {error}") from None
    try:
        yield connection
    finally:
        connection.close()


def _names(connection: sqlite3.Connection) -> set[str]:
    return {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _count(connection: sqlite3.Connection, table: str, names: set[str]) -> int:
    if table not in names:
        return 0
    ((count,),) = connection.execute(f"SELECT COUNT(*) FROM {table}").fetchall()  # a fixed name of _TABLES
    return int(count)


def contents(path: Path) -> Contents:
    """What the SQLite store at ``path`` holds, read without changing it.

    :raises BackupError: it is no SQLite database, fails SQLite's check, or holds no upriver tables.
    """
    if not path.is_file():
        raise BackupError(f"{path} is not a file")
    with _opened(path, read_only=True) as connection:
        try:
            (verdict,) = connection.execute("PRAGMA quick_check").fetchone()
            names = _names(connection)
            if verdict != "ok":
                raise BackupError(f"{path} is a damaged SQLite database ({verdict})")
            if not {"tables", "events"} <= names:
                raise BackupError(
                    f"{path} is a SQLite database without upriver's tables: not a store of upriver serve"
                )
            return Contents(*(_count(connection, table, names) for table in _TABLES))
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not a SQLite database upriver can read: {error}") from None


def backup(store: Path, out: Path, *, force: bool = False) -> Contents:
    """Copy the live SQLite store ``store`` to ``out`` with SQLite's online backup API.

    :raises BackupError: ``store`` is no upriver store, ``out`` exists (unless ``force``) or
        cannot be written.
    """
    contents(store)  # says why a file that is no store cannot be backed up
    if out.exists() and not force:
        raise BackupError(f"{out} exists already: choose another name, or give --force to write over it")
    if out.resolve() == store.resolve():
        raise BackupError(f"{out} is the store itself: write the backup to another file")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    with _opened(store, read_only=True) as source, _opened(out, read_only=False) as copy:
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        except sqlite3.Error as error:
            raise BackupError(f"cannot write the backup {out}: {error}") from None
    return contents(out)


def restore(copy: Path, store: Path, *, force: bool = False) -> Contents:
    """Write the backup ``copy`` over the SQLite store ``store`` (made if missing): the server must be
    stopped. A store that holds tables already is written over only with ``force``.

    :raises BackupError: ``copy`` is no backup of an upriver store, or ``store`` holds tables and
        ``force`` was not given, or it cannot be written.
    """
    restored = contents(copy)
    if copy.resolve() == store.resolve():
        raise BackupError(f"{copy} is the store itself: nothing to restore")
    if store.exists() and not force:
        present = contents(store) if store.stat().st_size else Contents(0, 0, 0)
        if present.tables or present.sheets:
            raise BackupError(
                f"{store} holds {present} already: stop the server and give --force to replace them "
                f"with the backup's {restored}"
            )
    store.parent.mkdir(parents=True, exist_ok=True)
    with _opened(copy, read_only=True) as source, _opened(store, read_only=False) as target:
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=WAL")  # as upriver serve keeps it
            target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            raise BackupError(f"cannot write the store {store}: {error}") from None
    return contents(store)
