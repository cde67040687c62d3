"""The parts every store is made of: where data is kept (:data:`Target`), the errors, and
:class:`Database`, the runner of SQL statements each engine implements."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "Database",
    "DuplicateKeyError",
    "PostgresTarget",
    "Row",
    "SqliteTarget",
    "StoreError",
    "StoreUnavailableError",
    "Target",
    "TargetError",
    "Transaction",
]

Row = tuple[Any, ...]


class StoreError(Exception):
    """The database could not do what was asked; nothing of the write was kept. The message says why."""


class TargetError(StoreError, ValueError):
    """A ``--db`` value that names no database: the message says what is wrong and what would be right."""


class StoreUnavailableError(StoreError):
    """The database cannot be opened or prepared: unreachable, refused, without the rights, or its
    driver is not installed. The message is one sentence naming the database and the reason."""


class DuplicateKeyError(StoreError):
    """A write refused because a row with the same key is there already (another writer was first)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SqliteTarget:
    """A SQLite file (made, with its folder, when missing)."""

    path: Path

    @property
    def display(self) -> str:
        """How to name it to a person."""
        return str(self.path)


@dataclasses.dataclass(frozen=True, slots=True)
class PostgresTarget:
    """A PostgreSQL database, by its libpq URL (``postgresql://USER:PASSWORD@HOST:PORT/DB?...``)."""

    url: str

    @property
    def display(self) -> str:
        """The URL with any password replaced by ``***``, to name it to a person or in a log."""
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


Target = SqliteTarget | PostgresTarget
"""Where a store keeps its data."""


class Transaction(Protocol):
    """The statements of one transaction (placeholders ``?``); see :meth:`Database.transaction`."""

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Run one query; its rows."""


class Database(ABC):
    """One database's connection(s), for a store. Every method raises :class:`StoreError` (or
    :class:`DuplicateKeyError`) instead of the driver's exceptions; statements use ``?``."""

    target: Target

    row_lock: str = ""
    """What a ``SELECT`` ends with to lock the rows it reads until the transaction ends
    (``" FOR UPDATE"`` on PostgreSQL; SQLite's write transaction already holds the whole file)."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """One statement in a transaction of its own, committed before it returns; the rows changed."""

    @abstractmethod
    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """The rows of one query."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Transaction]:
        """A write transaction, committed when the block ends and rolled back if it raises.

        Writers are serialised where the engine needs it (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL:
        rows read with :attr:`row_lock`).
        """

    @abstractmethod
    def prepare(self, schema: str, migrations: Sequence[tuple[str, str, str]] = ()) -> None:
        """Create the tables of ``schema`` (``CREATE TABLE IF NOT EXISTS`` statements) unless they are
        there, then add each missing column ``(table, column, type)`` of ``migrations``; several
        processes may do this at once.

        :raises StoreUnavailableError: the database refuses (no rights to create, read-only file, ...).
        """

    @abstractmethod
    def close(self) -> None:
        """Close the connection(s)."""

    def fetch_one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        """The first row of one query, or ``None``."""
        rows = self.fetch(sql, params)
        return rows[0] if rows else None
