"""Several server processes over one PostgreSQL database: who owns a table, and news of every event.

With SQLite the server is one process, which owns every table (:class:`Solo`). Over PostgreSQL any
number of processes — ``upriver serve --workers N`` on one machine, or servers on several
machines — serve the same tables (:class:`PostgresCluster`):

- **Every process holds every table.** Each replays the stored events at start, as one process
  does, and follows every event committed since, so a client connected to any process sees the
  same table and may act there.
- **The database orders the events.** A process commits a move as the next version of its table
  (:meth:`upriver.web.store.TableStore.append` writes it only if it follows the last stored one);
  a process that was behind is refused with ``VersionConflictError``, reads what it missed, checks
  the move again against it and tries again. So an event is checked against every event before
  it, whichever process committed them, and a move is announced (acknowledged) only once it is
  committed.
- **News by LISTEN/NOTIFY.** A trigger on ``events`` calls ``pg_notify`` in the inserting
  transaction, so a notification goes out exactly when an event is committed, whoever committed
  it, and never for one that was not. Each process listens on a connection of its own and applies
  the event (checked by the engine again); a gap in versions, or a lost listening connection, is
  made up by reading the store. A new table's row notifies the same way.
- **One owner per table: its bots' runner.** A table's bots move from one process only: the one
  holding the table's PostgreSQL advisory lock, taken on a connection kept for the purpose. When
  that process dies, PostgreSQL ends its session and so frees its locks; another process, which
  tries every :data:`SWEEP_SECONDS` the lock of each table with a bot to move, takes it over,
  reads any event it has not applied yet, and the bots go on. People's moves need no owner.

The seat a bot is thinking for (``thinking`` in the state) is known only to its owner's clients.

Table talk and presence (:mod:`upriver.web.social.chat`, :mod:`upriver.web.seats.presence`) reach
every process the same way, on channels of their own: a trigger on ``chat`` announces each stored line
(:data:`CHAT_CHANNEL`); each process tells the others its connections per table whenever they
change and, as a heartbeat, every :data:`HEARTBEAT_SECONDS` (:data:`PRESENCE_CHANNEL`), so the
connections of a process that died are forgotten a few seconds later; a reaction, never stored, is
told on :data:`REACTIONS_CHANNEL`. A process sends its own notifications from a connection of its own.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from upriver.database import StoreUnavailableError
from upriver.web.store import Event

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "CHAT_CHANNEL",
    "EVENTS_CHANNEL",
    "HEARTBEAT_SECONDS",
    "PRESENCE_CHANNEL",
    "REACTIONS_CHANNEL",
    "SWEEP_SECONDS",
    "TABLES_CHANNEL",
    "Cluster",
    "PostgresCluster",
    "Social",
    "Solo",
]

log = logging.getLogger("upriver.web")

EVENTS_CHANNEL = "upriver_events"
"""The NOTIFY channel of committed events: ``[table_id, version, kind, seat, value, client_id]``."""
TABLES_CHANNEL = "upriver_tables"
"""The NOTIFY channel of new tables: the table's id."""
CHAT_CHANNEL = "upriver_chat"
"""The NOTIFY channel of stored chat lines: ``[table_id, n, at, seat, name, kind, text, event, facts]``."""
PRESENCE_CHANNEL = "upriver_presence"
"""The NOTIFY channel of each process's connections per table (:mod:`upriver.web.seats.presence`)."""
REACTIONS_CHANNEL = "upriver_reactions"
"""The NOTIFY channel of reactions: ``[process, table_id, seat, reaction, at]``."""
HEARTBEAT_SECONDS = 1.0
"""How often a process repeats its connections to the others (:data:`upriver.web.seats.presence.EXPIRY`)."""
_OUTBOX = 1000
"""The most notifications waiting to be sent (the oldest go first when the database is away)."""
_BATCH = 200
"""The most notifications sent in one statement (:data:`_NOTIFY`)."""
_NOTIFY = (
    "SELECT pg_notify(c, p) FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY AS n(c, p, i) ORDER BY i"
)
SWEEP_SECONDS = 0.5
"""How often a process tries to take over the tables whose bots are due and that it does not own."""
_LOCK_CLASS = 0x75707277
"""The first key of every table's advisory lock ('uprw'); the second is a hash of the table's id."""

_TRIGGERS = f"""
CREATE OR REPLACE FUNCTION upriver_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{EVENTS_CHANNEL}', json_build_array(
        NEW.table_id, NEW.version, NEW.kind, NEW.seat, NEW.value, NEW.client_id)::text);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER upriver_event_notify AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION upriver_event_notify();
CREATE OR REPLACE FUNCTION upriver_table_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{TABLES_CHANNEL}', NEW.id);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER upriver_table_notify AFTER INSERT ON tables
    FOR EACH ROW EXECUTE FUNCTION upriver_table_notify();
CREATE OR REPLACE FUNCTION upriver_chat_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHAT_CHANNEL}', json_build_array(
        NEW.table_id, NEW.n, NEW.at, NEW.seat, NEW.name, NEW.kind, NEW.text, NEW.event, NEW.facts)::text);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER upriver_chat_notify AFTER INSERT ON chat
    FOR EACH ROW EXECUTE FUNCTION upriver_chat_notify();
"""


class Follower(Protocol):
    """What the cluster tells of the tables (:class:`upriver.web.cluster.following.Following`)."""

    def received(self, table_id: str, event: Event) -> None:
        """Another process (or this one) committed ``event`` at ``table_id``."""

    def table_added(self, table_id: str) -> None:
        """A table was created (perhaps by another process)."""

    def catch_up_all(self) -> None:
        """Read every event not applied yet (news may have been missed)."""

    def needing_owner(self) -> Iterable[str]:
        """The tables whose bots are due to move."""

    def took_over(self, table_id: str) -> None:
        """This process now owns ``table_id``: read what it missed and start its bots."""


class Social(Protocol):
    """What the cluster tells of chat, reactions and presence (:class:`upriver.web.social.talk.Social`)."""

    def heard(self, channel: str, payload: str) -> None:
        """A notification on :data:`CHAT_CHANNEL`, :data:`PRESENCE_CHANNEL` or :data:`REACTIONS_CHANNEL`."""

    def beat(self) -> list[str]:
        """This process's heartbeat on :data:`PRESENCE_CHANNEL` (after forgetting what expired)."""

    def catch_up(self) -> None:
        """Read the chat lines stored while the notifications were lost."""

    def goodbye(self) -> str:
        """The notification on :data:`PRESENCE_CHANNEL` that this process's connections are gone."""


class Cluster(Protocol):
    """Who owns which table, for :class:`upriver.web.play.tables.Manager`."""

    def owns(self, table_id: str) -> bool:
        """Whether this process runs ``table_id``'s bots."""

    def claim(self, table_id: str) -> bool:
        """Try to own ``table_id`` now (a table this process created); whether it does."""

    def release(self, table_id: str) -> None:
        """Stop owning ``table_id`` (its game is over)."""

    async def run(self, follower: Follower, social: Social | None = None) -> None:
        """Follow the other processes until cancelled (and tell ``social`` their chat and presence)."""

    def publish(self, channel: str, payload: str) -> None:
        """Tell the other processes ``payload`` on ``channel`` (soon, from a task of :meth:`run`)."""

    def close(self) -> None:
        """Free every lock and close the connections."""


class Solo:
    """One server process over its own store: it owns every table, and no one else commits."""

    def owns(self, table_id: str) -> bool:
        return True

    def claim(self, table_id: str) -> bool:
        return True

    def release(self, table_id: str) -> None:
        pass

    async def run(self, follower: Follower, social: Social | None = None) -> None:
        return

    def publish(self, channel: str, payload: str) -> None:
        pass

    def close(self) -> None:
        pass


def lock_key(table_id: str) -> int:
    """The second key of ``table_id``'s advisory lock: a signed 32-bit hash of its id."""
    return int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=4).digest(), "big", signed=True)


def parse_event(payload: str) -> tuple[str, Event] | None:
    """The table id and event of an :data:`EVENTS_CHANNEL` notification, or ``None`` if unreadable."""
    try:
        table_id, version, kind, seat, value, client_id = json.loads(payload)
        return str(table_id), Event(int(version), str(kind), int(seat), str(value), client_id)
    except (ValueError, TypeError):
        return None


class PostgresCluster:
    """Server processes sharing one PostgreSQL database (see the module): advisory locks for owners,
    LISTEN/NOTIFY for news. ``url`` is the database's libpq URL.

    :raises StoreUnavailableError: the notification triggers cannot be made (one sentence saying why).
    """

    def __init__(
        self, url: str, *, sweep_seconds: float = SWEEP_SECONDS, heartbeat_seconds: float = HEARTBEAT_SECONDS
    ) -> None:
        import psycopg

        self.url = url
        self.sweep_seconds = sweep_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self._outbox: collections.deque[tuple[str, str]] = collections.deque(maxlen=_OUTBOX)
        self._wake = asyncio.Event()
        self._social: Social | None = None
        self._owned: set[str] = set()
        self._locks: psycopg.Connection[tuple[object, ...]] | None = None
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn, conn.transaction():
                # Two processes starting at once would race on CREATE OR REPLACE.
                conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (_LOCK_CLASS,))
                conn.execute(_TRIGGERS.encode())
        except psycopg.Error as error:
            raise StoreUnavailableError(
                f"cannot prepare the PostgreSQL database's notifications: {' '.join(str(error).split())}"
            ) from None
        self._connect_locks()

    def _connect_locks(self) -> psycopg.Connection[tuple[object, ...]] | None:
        """The connection holding this process's locks, (re)opened if need be; ``None`` if it cannot be."""
        import psycopg

        if self._locks is not None and not self._locks.closed and not self._locks.broken:
            return self._locks
        if self._owned:
            log.warning(
                "the connection holding %d tables' locks was lost: they are free now", len(self._owned)
            )
            self._owned.clear()
        try:
            self._locks = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        except psycopg.Error as error:
            log.warning("cannot open the connection for the tables' locks: %s", error)
            self._locks = None
        return self._locks

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    def claim(self, table_id: str) -> bool:
        return table_id in self._try([table_id])

    def _try(self, table_ids: list[str]) -> set[str]:
        """Take the locks of ``table_ids`` that no other process holds; those now owned."""
        import psycopg

        conn = self._connect_locks()
        if conn is None or not table_ids:
            return set()
        try:
            rows = conn.execute(
                "SELECT t, pg_try_advisory_lock(%s, k) FROM unnest(%s::text[], %s::int[]) AS u(t, k)",
                (_LOCK_CLASS, table_ids, [lock_key(t) for t in table_ids]),
            ).fetchall()
        except psycopg.Error as error:
            log.warning("cannot take the tables' locks: %s", error)
            return set()
        taken = {str(table_id) for table_id, got in rows if got}
        self._owned |= taken
        return taken

    def release(self, table_id: str) -> None:
        import psycopg

        if table_id not in self._owned:
            return
        self._owned.discard(table_id)
        conn = self._connect_locks()
        if conn is not None:
            with contextlib.suppress(psycopg.Error):
                conn.execute("SELECT pg_advisory_unlock(%s, %s)", (_LOCK_CLASS, lock_key(table_id)))

    async def run(self, follower: Follower, social: Social | None = None) -> None:
        self._social = social
        sweeper = asyncio.create_task(self._sweep(follower))
        publisher = asyncio.create_task(self._publish(social))
        try:
            await self._listen(follower)
        finally:
            for task in (sweeper, publisher):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def publish(self, channel: str, payload: str) -> None:
        self._outbox.append((channel, payload))
        self._wake.set()

    async def _publish(self, social: Social | None) -> None:
        """Send this process's notifications and, every :attr:`heartbeat_seconds`, its heartbeat;
        after a lost connection, connect again (what waits is sent then)."""
        import psycopg

        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    delay = 0.5
                    beat_at = 0.0
                    while True:
                        if social is not None and time.monotonic() >= beat_at:
                            beat_at = time.monotonic() + self.heartbeat_seconds
                            self._outbox.extend((PRESENCE_CHANNEL, payload) for payload in social.beat())
                        while self._outbox:
                            # Every waiting notification in one round trip, in order; back in the
                            # outbox if the connection fails.
                            batch = [self._outbox.popleft() for _ in range(min(len(self._outbox), _BATCH))]
                            try:
                                await conn.execute(_NOTIFY, ([c for c, _ in batch], [p for _, p in batch]))
                            except BaseException:
                                self._outbox.extendleft(reversed(batch))
                                raise
                        self._wake.clear()
                        wait = None if social is None else max(0.0, beat_at - time.monotonic())
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self._wake.wait(), wait)
            except psycopg.Error as error:
                log.warning("cannot tell other server processes of this one's news (%s); reconnecting", error)
            except Exception:  # the heartbeat must go on whatever one table's presence does
                log.exception("telling other server processes of this one's news failed")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    async def _listen(self, follower: Follower) -> None:
        """Apply every notification; after a lost connection, reconnect and read what was missed."""
        import psycopg

        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {EVENTS_CHANNEL}")
                    await conn.execute(f"LISTEN {TABLES_CHANNEL}")
                    for channel in (CHAT_CHANNEL, PRESENCE_CHANNEL, REACTIONS_CHANNEL):
                        await conn.execute(f"LISTEN {channel}")
                    follower.catch_up_all()  # whatever was committed before we listened
                    if self._social is not None:
                        self._social.catch_up()
                    delay = 0.5
                    async for notify in conn.notifies():
                        self._deliver(follower, notify.channel, notify.payload)
            except psycopg.Error as error:
                log.warning("lost the notifications of other server processes (%s); reconnecting", error)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)

    def _deliver(self, follower: Follower, channel: str, payload: str) -> None:
        try:
            if channel == TABLES_CHANNEL:
                follower.table_added(payload)
                return
            if channel != EVENTS_CHANNEL:
                if self._social is not None:
                    self._social.heard(channel, payload)
                return
            parsed = parse_event(payload)
            if parsed is None:
                log.warning("an unreadable event notification was ignored: %.200r", payload)
                return
            follower.received(*parsed)
        except Exception:  # one table's fault must not stop the news of every other
            log.exception("a notification (%s %.200r) could not be applied", channel, payload)

    async def _sweep(self, follower: Follower) -> None:
        """Take over, every :attr:`sweep_seconds`, the tables whose bots are due and nobody runs."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                wanted = [t for t in follower.needing_owner() if t not in self._owned]
                for table_id in sorted(self._try(wanted)):
                    log.info("table %s: this process runs its bots now", table_id)
                    follower.took_over(table_id)
            except Exception:
                log.exception("taking over the tables of other server processes failed")

    def close(self) -> None:
        self._owned.clear()
        if self._social is not None and self._locks is not None:
            with contextlib.suppress(Exception):  # the others would forget this process's connections anyway
                self._locks.execute("SELECT pg_notify(%s, %s)", (PRESENCE_CHANNEL, self._social.goodbye()))
        if self._locks is not None:
            with contextlib.suppress(Exception):
                self._locks.close()  # the session ends: PostgreSQL frees every lock it held


def cluster_for(target: object, *, make: Callable[[str], Cluster] = PostgresCluster) -> Cluster:
    """The cluster for a store kept at ``target``: a PostgreSQL URL gets :class:`PostgresCluster`
    (over ``make``), anything else :class:`Solo`."""
    url = getattr(target, "url", None)
    return make(url) if isinstance(url, str) else Solo()
