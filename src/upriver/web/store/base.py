"""Durable tables: one row per table and an append-only log of what happened, in SQL both engines run.

A table's row holds what never changes once the table exists (its rules, seats, secret
tokens, seed and, for an imported game, the record it continues). Everything that
happens afterwards — a seat joining, a bid, a card — is one row of ``events``, numbered
from 1 per table; that number is the table's state version. The server commits an event
before it tells anyone about it, so after a crash (even ``kill -9``) replaying each table's
events through the engine rebuilds exactly what the players last saw. The store itself
trusts nothing it holds: a row the engine refuses on replay marks only its table damaged.

:class:`TableStore` is the one interface; :mod:`upriver.web.store.sqlite` (the embedded default)
and :mod:`upriver.web.store.postgres` differ only in their schema and their
:class:`~upriver.database.Database`, so every statement, and so every promise, is the same:

- :meth:`TableStore.append` commits one event atomically, and only the event that follows the
  table's last by exactly one: any other version (a second writer, a stale process) is refused
  with :class:`VersionConflictError`, writing nothing;
- :meth:`TableStore.events` reads a table's events back in version order (from any version on);
- a finished table has at most one rematch (:meth:`TableStore.add_table` refuses a second with
  :class:`~upriver.database.DuplicateKeyError`, writing nothing), whichever process stores it;
- a finished table idle for long is archived: its rows stay, but :meth:`TableStore.tables` no
  longer lists it, so start-up no longer replays it.

A failure of the database is a :class:`~upriver.database.StoreError` with one sentence; the
caller has changed nothing yet (the web tables refuse the move with ``CommitError``).
"""

from __future__ import annotations

import dataclasses
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator

from upriver.database import Database, DuplicateKeyError, StoreError

__all__ = ["Event", "TableRow", "TableStore", "VersionConflictError"]


@dataclasses.dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: its id and its fixed configuration (plain JSON data)."""

    id: str
    config: dict[str, object]


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """One accepted event: ``join`` (value: the name), ``bid`` or ``play`` (value: ``3``, ``QH``), …"""

    version: int
    kind: str
    seat: int
    value: str
    client_id: str | None
    at: float | None = dataclasses.field(default=None, compare=False)
    """When it was committed (``time.time()``, or the manager's clock): read back from the store, so
    a turn's clock (:mod:`upriver.web.play.clock`) starts when its event was stored, across restarts.
    ``None`` for an event not stored yet, or known only from a notification (the receiver's time then).
    Not compared: the same event is the same whenever it was stored."""


class VersionConflictError(StoreError):
    """An event whose version does not follow the table's last stored one by exactly one; nothing
    was written. ``stored`` is the table's last stored version (0: none, or no such table)."""

    def __init__(self, table_id: str, version: int, stored: int) -> None:
        super().__init__(
            f"table {table_id} is at version {stored} in the store, so event {version} cannot follow it"
            + ("" if version > stored else ": another writer stored that version first")
        )
        self.table_id = table_id
        self.version = version
        self.stored = stored


# One statement, so it is atomic on both engines without a transaction: the insert happens only if
# the event follows the table's last one; two writers of the same version meet the primary key.
_APPEND = """
INSERT INTO events (table_id, version, kind, seat, value, client_id, at)
SELECT ?, ?, ?, ?, ?, ?, ?
WHERE (SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?) = ?
AND EXISTS (SELECT 1 FROM tables WHERE id = ?)
"""


class TableStore(ABC):
    """The database behind the live tables; every write is committed before it returns.

    Subclasses give the schema (:meth:`schema`) over their :class:`~upriver.database.Database`.
    Ways to grow, for several server processes on one PostgreSQL database: a table's owner is a
    subclass concern (an advisory lock held on a connection of its own, or a lease row), and so is
    telling other processes of a committed event (``pg_notify`` in the same statement as
    :data:`_APPEND`, which keeps it atomic with the commit); :meth:`events` with ``after`` reads
    what another process committed since a version, and :meth:`table` one table's row.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        try:
            schema, migrations = self.schema()
            db.prepare(schema, migrations)
        except BaseException:
            db.close()
            raise

    @abstractmethod
    def schema(self) -> tuple[str, tuple[tuple[str, str, str], ...]]:
        """The ``CREATE TABLE IF NOT EXISTS`` script of ``tables`` and ``events``, and the columns
        ``(table, column, type)`` added to a database made before them."""

    @property
    def target(self) -> str:
        """Where the tables are kept, to name to a person (a PostgreSQL password hidden)."""
        return self.db.target.display

    def close(self) -> None:
        """Close the database connection(s)."""
        self.db.close()

    def add_table(self, table_id: str, config: dict[str, object]) -> None:
        """Store a new table's fixed configuration. A rematch (``config["rematch_of"]``: the finished
        table's id) is stored only if that table has none yet, whichever process made one first: the
        table's row and its ``rematches`` row are one transaction, and ``rematches`` holds one row
        per finished table.

        :raises DuplicateKeyError: a table with this id is there already, or (a rematch) the finished
            table has its rematch already (:meth:`rematch` names it); nothing was written.
        """
        row = (table_id, time.time(), json.dumps(config))
        of = config.get("rematch_of")
        if of is None:
            self.db.execute("INSERT INTO tables (id, created, config) VALUES (?, ?, ?)", row)
            return
        with self.db.transaction() as tx:
            tx.execute("INSERT INTO tables (id, created, config) VALUES (?, ?, ?)", row)
            tx.execute("INSERT INTO rematches (finished, rematch) VALUES (?, ?)", (str(of), table_id))

    def rematch(self, table_id: str) -> str | None:
        """The id of the rematch stored of finished table ``table_id``, or ``None`` (a rematch made
        before the ``rematches`` table exists only in its own configuration)."""
        row = self.db.fetch_one("SELECT rematch FROM rematches WHERE finished = ?", (table_id,))
        return None if row is None else str(row[0])

    def append(self, table_id: str, event: Event) -> None:
        """Commit one event, if it follows the table's last by exactly one, stored at ``event.at``
        (default: now).

        :raises VersionConflictError: it does not (or there is no such table); nothing was written.
        :raises StoreError: the database failed; nothing was written.
        """
        at = time.time() if event.at is None else event.at
        params = (table_id, event.version, event.kind, event.seat, event.value, event.client_id, at)
        try:
            written = self.db.execute(_APPEND, (*params, table_id, event.version - 1, table_id))
        except DuplicateKeyError:
            written = 0
        if written != 1:
            raise VersionConflictError(table_id, event.version, self.version(table_id))

    def version(self, table_id: str) -> int:
        """The table's last stored version (0: no event, or no such table)."""
        row = self.db.fetch_one(
            "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?", (table_id,)
        )
        return 0 if row is None else int(row[0])

    def tables(self) -> Iterator[TableRow]:
        """Every stored table not archived, oldest first."""
        rows = self.db.fetch("SELECT id, config FROM tables WHERE archived IS NULL ORDER BY created, id")
        for table_id, config in rows:
            yield TableRow(table_id, json.loads(config))

    def table(self, table_id: str) -> TableRow | None:
        """One table's row, or ``None`` if there is none or it is archived (as :meth:`tables` lists them)."""
        row = self.db.fetch_one(
            "SELECT id, config FROM tables WHERE id = ? AND archived IS NULL", (table_id,)
        )
        return None if row is None else TableRow(row[0], json.loads(row[1]))

    def events(self, table_id: str, after: int = 0) -> list[Event]:
        """A table's events in version order, those after version ``after`` (default: all)."""
        rows = self.db.fetch(
            "SELECT version, kind, seat, value, client_id, at FROM events"
            " WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after),
        )
        return [Event(*row) for row in rows]

    def last_event_at(self, table_id: str) -> float | None:
        """When the table's newest event was committed (``time.time()``), or ``None``."""
        row = self.db.fetch_one("SELECT MAX(at) FROM events WHERE table_id = ?", (table_id,))
        return None if row is None or row[0] is None else float(row[0])

    def archive(self, table_id: str) -> None:
        """Keep the table and its events in the database but list it no more (:meth:`tables`)."""
        self.db.execute("UPDATE tables SET archived = ? WHERE id = ?", (time.time(), table_id))
