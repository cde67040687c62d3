"""Limits counted across every server process of a cluster, in the PostgreSQL database they share.

With ``upriver serve --workers N`` (or several servers over one database) a person's tabs and a
table's spectators land on any process, so what one process counts is not the seat's or the table's
whole. These limits are counted in the database (:class:`SharedLimits`), each check one round trip,
made off the event loop:

- **holds** — a seat's connections (:attr:`~upriver.web.hosting.limits.Limits.seat_connections`) and a
  table's spectators (:attr:`~upriver.web.hosting.limits.Limits.spectators`): a row per open connection,
  deleted when it closes, and renewed with the process's heartbeat; a process that dies without
  closing its connections stops renewing them, and its rows lapse after :data:`LEASE_SECONDS`;
- **windows** — a seat's chat lines and reactions and a table's spectator lines in any so many
  seconds (:data:`upriver.web.social.chat.LINES`, …): a row per line, that lapses when the window has passed.

Each check counts and adds under a PostgreSQL advisory lock of its key (:data:`_SCHEMA`'s
``upriver_take``), so two processes admitting at the same instant are counted one after the other.
If the database cannot be asked, the check lets the connection or line through (each process still
holds its own count) and says so in the log: a limit never shuts a table.

With one process (SQLite, or no cluster) nothing is shared: each limit is counted in the process.
"""

from __future__ import annotations

import logging
import os
import time

from upriver.database import Database, PostgresTarget, StoreError

__all__ = ["LEASE_SECONDS", "SharedLimits"]

log = logging.getLogger("upriver.web")

LEASE_SECONDS = 15.0
"""How long a connection's hold lasts without its process's heartbeat (once a second)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS upriver_limits (
    key TEXT NOT NULL,
    holder TEXT NOT NULL,
    process TEXT NOT NULL,
    until DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS upriver_limits_key ON upriver_limits (key);
CREATE INDEX IF NOT EXISTS upriver_limits_process ON upriver_limits (process);
CREATE OR REPLACE FUNCTION upriver_take(
    k TEXT, most INTEGER, seconds DOUBLE PRECISION, h TEXT, p TEXT, at DOUBLE PRECISION
)
RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
    now_s DOUBLE PRECISION := coalesce(at, extract(epoch FROM clock_timestamp()));
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('upriver_limits'), hashtext(k));
    DELETE FROM upriver_limits WHERE key = k AND until <= now_s;
    IF (SELECT count(*) FROM upriver_limits WHERE key = k) >= most THEN
        RETURN FALSE;
    END IF;
    INSERT INTO upriver_limits (key, holder, process, until) VALUES (k, h, p, now_s + seconds);
    RETURN TRUE;
END $$;
"""
"""The counts' table and the function that counts and adds one, under the key's advisory lock."""


class SharedLimits:
    """This process's side of the limits counted in ``db`` (see the module); ``shared`` is false, and
    every check passes, unless ``db`` is PostgreSQL and ``cluster`` is set.

    :raises StoreUnavailableError: the table or function cannot be made (one sentence saying why).
    """

    def __init__(self, db: Database, *, cluster: bool, process: str | None = None) -> None:
        self.db = db
        self.shared = cluster and isinstance(db.target, PostgresTarget)
        self.process = process or f"{os.getpid()}-{time.time_ns()}"
        if self.shared:
            db.prepare(_SCHEMA)

    def _take(self, key: str, most: int, seconds: float, holder: str, at: float | None) -> bool:
        if not self.shared:
            return True
        try:
            row = self.db.fetch_one(
                "SELECT upriver_take(?, ?, ?, ?, ?, ?)", (key, most, seconds, holder, self.process, at)
            )
        except StoreError as error:
            log.warning("the limit %s could not be counted across the servers (%s): let through", key, error)
            return True
        return bool(row and row[0])

    def take(self, key: str, most: int, seconds: float, at: float) -> bool:
        """Count one more event of ``key`` (a chat line of a seat, …) at ``at`` (unix seconds: the chat
        room's clock) if fewer than ``most`` were counted in the ``seconds`` before, across every
        process; whether it was. Blocking: run it off the event loop."""
        return self._take(key, most, seconds, "", at)

    def hold(self, key: str, most: int, holder: str) -> bool:
        """Hold one of ``most`` places of ``key`` (a seat's connections, a table's spectators) for
        ``holder`` (a connection), across every process; whether it is held. Blocking."""
        return self._take(key, most, LEASE_SECONDS, holder, None)  # the database's clock

    def release(self, key: str, holder: str) -> None:
        """Give ``holder``'s place of ``key`` back (its connection closed). Blocking."""
        if not self.shared:
            return
        try:
            self.db.execute(
                "DELETE FROM upriver_limits WHERE key = ? AND holder = ? AND process = ?",
                (key, holder, self.process),
            )
        except StoreError as error:
            log.warning("a connection's place could not be given back (%s): it lapses by itself", error)

    def renew(self) -> None:
        """Keep this process's places held another :data:`LEASE_SECONDS` (its heartbeat), and forget
        the counts that lapsed a minute ago (those of keys no longer counted: a finished table's).
        Blocking."""
        if not self.shared:
            return
        try:
            with self.db.transaction() as tx:
                tx.execute(
                    "UPDATE upriver_limits SET until = extract(epoch FROM clock_timestamp()) + ? "
                    "WHERE process = ? AND holder <> ''",
                    (LEASE_SECONDS, self.process),
                )
                tx.execute(
                    "DELETE FROM upriver_limits WHERE until < extract(epoch FROM clock_timestamp()) - 60"
                )
        except StoreError as error:
            log.warning("this server's connections could not be renewed in the database: %s", error)
