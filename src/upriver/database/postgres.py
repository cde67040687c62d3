"""The PostgreSQL :class:`~upriver.database.Database`: psycopg 3 over a :class:`psycopg_pool.ConnectionPool`.

Connections are in autocommit, so a lone statement is its own transaction (one round trip);
:meth:`PostgresDatabase.transaction` wraps several. The pool replaces a connection the server
dropped; while the server is away a statement fails within :data:`WAIT_SECONDS` with a
:class:`~upriver.database.StoreError` and the caller keeps what it had (the web tables refuse the
move, nothing applied or announced) until the server is back.

psycopg is the ``postgres`` extra: without it, opening a PostgreSQL target says how to install it.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from upriver.database.base import (
    Database,
    DuplicateKeyError,
    PostgresTarget,
    Row,
    StoreError,
    StoreUnavailableError,
    TargetError,
    Transaction,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

__all__ = ["CONNECT_SECONDS", "POOL_SIZE", "WAIT_SECONDS", "PostgresDatabase", "check_url", "reason"]

log = logging.getLogger("upriver.database")

CONNECT_SECONDS = 5
"""How long opening the database may take before it counts as unreachable."""
WAIT_SECONDS = 2.0
"""How long a statement waits for a pooled connection (the server is away: the write fails then)."""
POOL_SIZE = (1, 4)
"""The pool's least and most connections (the server uses one at a time from its event loop)."""
SCHEMA_LOCK = 0x75707276
"""The advisory lock key under which processes create the schema one at a time ('uprv')."""

_INSTALL = (
    "PostgreSQL needs psycopg: install upriver with its postgres extra (pip install 'upriver[postgres]')"
)


def _psycopg() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401 - the pool is needed as soon as the database opens
    except ImportError:
        raise StoreUnavailableError(_INSTALL) from None
    return psycopg


def check_url(url: str) -> str:
    """``url`` if libpq reads it as connection parameters and its port is a number, else raise.

    :raises TargetError: saying what is wrong with it.
    :raises StoreUnavailableError: psycopg is not installed.
    """
    psycopg = _psycopg()
    try:
        params = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        raise TargetError(f"{url[:80]!r} is not a PostgreSQL URL: {reason(error)}") from None
    for port in str(params.get("port", "")).split(","):
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise TargetError(
                f"{url[:80]!r} is not a PostgreSQL URL: "
                f"its port {port[:20]!r} is not a number from 1 to 65535"
            )
    return url


def reason(error: BaseException) -> str:
    """libpq's or the server's message: its first line (the next ones are hints), without psycopg's
    ``connection failed:`` prefix."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = re.sub(r"^connection failed: ", "", " ".join(lines[0].split()) if lines else "")
    return text.rstrip(".") or type(error).__name__


class _Tx:
    def __init__(self, conn: psycopg.Connection[Row]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        return self._conn.execute(sql.replace("?", "%s"), params).rowcount

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return self._conn.execute(sql.replace("?", "%s"), params).fetchall()


class PostgresDatabase(Database):
    """A PostgreSQL database through a pool of autocommit connections.

    Opening connects once, directly, so an unreachable server, a missing database or a refused
    user is said at once in libpq's words (:class:`StoreUnavailableError`); then the pool opens.
    """

    row_lock = " FOR UPDATE"

    def __init__(self, target: PostgresTarget) -> None:
        driver = _psycopg()
        from psycopg_pool import ConnectionPool, PoolTimeout

        self.target = target
        self._errors = driver
        try:
            driver.connect(target.url, connect_timeout=CONNECT_SECONDS).close()
        except driver.Error as error:
            raise StoreUnavailableError(
                f"cannot open the PostgreSQL database {target.display}: {reason(error)}"
            ) from None
        self.pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            target.url,
            min_size=POOL_SIZE[0],
            max_size=POOL_SIZE[1],
            kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS},
            timeout=WAIT_SECONDS,
            name="upriver",
            open=False,
        )
        try:
            self.pool.open(wait=True, timeout=CONNECT_SECONDS)
        except PoolTimeout:
            self.pool.close()
            raise StoreUnavailableError(
                f"cannot open the PostgreSQL database {target.display}: "
                f"no connection within {CONNECT_SECONDS} s"
            ) from None

    def _error(self, error: Exception) -> StoreError:
        if isinstance(error, self._errors.errors.UniqueViolation):
            return DuplicateKeyError(f"the database already holds that row ({reason(error)})")
        log.warning("PostgreSQL %s: %s", self.target.display, reason(error))
        return StoreError(f"the PostgreSQL database failed: {reason(error)}")

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Row]]:
        from psycopg_pool import PoolTimeout

        try:
            with self.pool.connection() as conn:
                yield conn
        except PoolTimeout:
            raise StoreError(
                f"the PostgreSQL database {self.target.display} did not answer within {WAIT_SECONDS:g} s"
            ) from None
        except self._errors.Error as error:
            raise self._error(error) from None

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        with self._connection() as conn:
            return _Tx(conn).execute(sql, params)

    def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        with self._connection() as conn:
            return _Tx(conn).fetch(sql, params)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        with self._connection() as conn, conn.transaction():
            yield _Tx(conn)

    def prepare(self, schema: str, migrations: Sequence[tuple[str, str, str]] = ()) -> None:
        try:
            with self.pool.connection() as conn, conn.transaction():
                # Two servers starting at once would race on CREATE TABLE IF NOT EXISTS.
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                conn.execute(schema)
                for table, column, kind in migrations:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")
        except self._errors.Error as error:
            hint = ""
            if isinstance(error, self._errors.errors.InsufficientPrivilege):
                hint = "; grant this user CREATE on the schema, or create upriver's tables as a user who may"
            raise StoreUnavailableError(
                f"cannot prepare the PostgreSQL database {self.target.display}: {reason(error)}{hint}"
            ) from None

    def close(self) -> None:
        self.pool.close()
