"""The SQLite :class:`~upriver.database.Database`: one file in WAL mode, one connection per store.

The server uses a store from its one event-loop thread, the terminal keeper from its one
thread, so one connection serves each; two stores (or two processes) on one file meet in
SQLite's own locking, which a writer waits on for up to :data:`BUSY_SECONDS`.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence

from upriver.database.base import (
    Database,
    DuplicateKeyError,
    Row,
    SqliteTarget,
    StoreError,
    StoreUnavailableError,
    Transaction,
)

__all__ = ["BUSY_SECONDS", "SqliteDatabase"]

BUSY_SECONDS = 10.0
"""How long a write waits for another connection's write to finish before it fails."""


def _error(error: sqlite3.Error) -> StoreError:
    if getattr(error, "sqlite_errorname", "") in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"):
        return DuplicateKeyError(f"the database already holds that row ({error})")
    return StoreError(f"the SQLite database failed: {error}")


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return self._db.execute(sql, params).rowcount

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return self._db.execute(sql, params).fetchall()


class SqliteDatabase(Database):
    """A SQLite file (WAL, ``synchronous=NORMAL``, foreign keys on), its folder made if missing."""

    def __init__(self, target: SqliteTarget) -> None:
        self.target = target
        self.path = target.path
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # The server touches the database from its one event-loop thread only.
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=BUSY_SECONDS
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode survives a crashed process (kill -9): only a power cut may lose the
            # last commits.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailableError(f"cannot open the SQLite file {self.path}: {error}") from None

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        try:
            return self._db.execute(sql, params).rowcount
        except sqlite3.Error as error:
            raise _error(error) from None

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as error:
            raise _error(error) from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise _error(error) from None

    def prepare(self, schema: str, migrations: Sequence[tuple[str, str, str]] = ()) -> None:
        try:
            self._db.executescript(schema)
            for table, column, kind in migrations:
                columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in columns:  # a file from before the column
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        except sqlite3.Error as error:
            raise StoreUnavailableError(f"cannot prepare the SQLite file {self.path}: {error}") from None

    def close(self) -> None:
        self._db.close()
