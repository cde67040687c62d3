"""Table talk and presence for one server process: what the app's WebSocket and the cluster call.

The app tells :class:`Social` when a connection opens or closes (presence, and the chat's last
lines for the new connection) and hands it every ``chat`` and ``react`` message; the cluster
(:class:`upriver.web.cluster.news.PostgresCluster`) hands it the other processes' notifications and
asks it for this process's heartbeat. With one process (:class:`~upriver.web.cluster.news.Solo`)
nothing is told to anyone else. See :mod:`upriver.web.seats.presence` and :mod:`upriver.web.social.chat`.

In a cluster the limits of a seat and of a table are the cluster's (:mod:`upriver.web.cluster.shared_limits`):
:meth:`Social.admit` holds a place for each connection of a seat, or spectator, in the database,
given back when it closes; a seat's chat lines and reactions, and a table's spectator lines, are
counted there too before they are stored or shown. Each such check is a round trip off the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from upriver.database import PostgresTarget, StoreError
from upriver.web.cluster.news import CHAT_CHANNEL, PRESENCE_CHANNEL, REACTIONS_CHANNEL, Cluster, Solo
from upriver.web.cluster.shared_limits import SharedLimits
from upriver.web.hosting import admission
from upriver.web.hosting.limits import Limits
from upriver.web.play import protocol
from upriver.web.play.commits import in_event_loop
from upriver.web.play.messages import Chat, React
from upriver.web.seats.holders import Connection
from upriver.web.seats.presence import Roster
from upriver.web.social.chat import LINES, REACTIONS_LIMIT, SPECTATOR_LINES, ChatRefusalError, too_fast
from upriver.web.store import TableStore
from upriver.web.store.chat import ChatLine, add_line

if TYPE_CHECKING:
    from upriver.web.play.table import Table

__all__ = ["Social"]

log = logging.getLogger("upriver.web")


def _unsaved(table: Table, message: Chat | React) -> str:
    """The refusal of a line the store could not keep."""
    return protocol.error_message(
        table.version, "store", "the table could not save this line; nothing changed: try again", message.id
    )


class Social:
    """This process's presence and chat over ``tables`` (the manager's live tables by id), whose
    lines are kept in ``store``; news goes to the other processes of ``cluster``."""

    def __init__(
        self,
        tables: Mapping[str, Table],
        store: TableStore,
        cluster: Cluster,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.store = store
        self.cluster = cluster
        solo = isinstance(cluster, Solo)
        self.background = isinstance(store.db.target, PostgresTarget)
        """Whether lines are stored off the event loop (a PostgreSQL store, as the moves are)."""
        self.roster = Roster(
            tables, None if solo else functools.partial(cluster.publish, PRESENCE_CHANNEL), now=now
        )
        self.limits = SharedLimits(store.db, cluster=not solo, process=self.roster.process)
        """The limits counted across the cluster (none with one process)."""
        self._held: weakref.WeakKeyDictionary[Connection, tuple[str, str]] = weakref.WeakKeyDictionary()

    # ------------------------------------------------------------ the app's side

    def connected(self, table: Table, conn: Connection) -> str | None:
        """``conn`` opened at ``table``: count it, and return the chat message it gets after its first
        state (the last lines), or ``None`` if the table has none."""
        self.roster.connected(table.id, conn.seat)
        return table.chat.history(self.store)

    async def admit(self, table: Table, conn: Connection, limits: Limits) -> str | None:
        """Hold a place for ``conn`` among its seat's connections or its table's spectators across the
        cluster; the refusal to send it (:func:`upriver.web.hosting.admission.refusal`'s) if they are full."""
        if not self.limits.shared:
            return None
        key, most = admission.place(table.id, conn.seat, limits)
        holder = secrets.token_hex(8)  # not id(conn): a closed connection's id may be a new one's
        if not await asyncio.to_thread(self.limits.hold, key, most, holder):
            return admission.full_message(conn.seat, limits, table.version)
        self._held[conn] = (key, holder)
        return None

    def disconnected(self, table: Table, conn: Connection) -> None:
        """``conn`` closed (its place across the cluster is given back)."""
        self.roster.disconnected(table.id, conn.seat)
        held = self._held.pop(conn, None)
        if held is not None and in_event_loop():
            asyncio.get_running_loop().run_in_executor(None, self.limits.release, *held)

    def handle(self, table: Table, conn: Connection, message: Chat | React) -> None:
        """Apply a ``chat`` or ``react`` message, or queue its refusal for ``conn`` (nothing changed)."""
        try:
            if isinstance(message, Chat):
                if self.background and in_event_loop():
                    self._say_in_background(table, conn, message)
                else:
                    table.chat.say(self.store, conn, message.text, message.name)
                return
            seat, reaction = table.chat.counted(conn, message.reaction)
            if self.limits.shared and in_event_loop():
                self._react_in_background(table, conn, message, seat, reaction)
            else:
                self._show(table, seat, reaction)
        except ChatRefusalError as error:
            self._refuse(table, conn, message, error)
        except StoreError as error:
            log.warning("table %s: a chat line could not be stored: %s", table.id, error)
            conn.push(_unsaved(table, message))

    def _show(self, table: Table, seat: int, reaction: str) -> None:
        """Show ``seat``'s reaction here and tell the other processes."""
        at = time.time()
        table.chat.show(seat, reaction, at)
        self.cluster.publish(
            REACTIONS_CHANNEL, json.dumps([self.roster.process, table.id, seat, reaction, at])
        )

    def _refuse(self, table: Table, conn: Connection, message: Chat | React, error: ChatRefusalError) -> None:
        conn.push(
            protocol.error_message(
                table.version, error.rule, str(error), message.id, seat=error.seat, facts=error.facts
            )
        )

    def _react_in_background(
        self, table: Table, conn: Connection, message: React, seat: int, reaction: str
    ) -> None:
        """Count the reaction across the cluster off the event loop, then show it or refuse it."""
        key = f"reactions:{table.id}:{seat}"

        def counted(future: asyncio.Future[bool]) -> None:
            if future.cancelled():
                return
            if future.exception() is None and not future.result():
                self._refuse(table, conn, message, too_fast(REACTIONS_LIMIT, seat, "reactions"))
            else:
                self._show(table, seat, reaction)

        loop = asyncio.get_running_loop()
        count = functools.partial(self.limits.take, key, *REACTIONS_LIMIT, table.chat.clock())
        loop.run_in_executor(None, count).add_done_callback(counted)

    def _say_in_background(self, table: Table, conn: Connection, message: Chat) -> None:
        """Store a line off the event loop (a PostgreSQL round trip, which an outage makes long), then
        send it; a refusal is raised at once, a store failure told to ``conn`` when it comes.

        :raises ChatRefusalError: the line may not be written.
        """
        room = table.chat
        draft = room.draft(conn, message.text, message.name)
        if draft.seat is None:
            key, limit, what = f"lines:{table.id}:spectators", SPECTATOR_LINES, "lines from spectators"
        else:
            key, limit, what = f"lines:{table.id}:{draft.seat}", LINES, "lines"

        at = room.clock()

        def write() -> ChatLine | ChatRefusalError:
            if not self.limits.take(key, *limit, at):  # the cluster's count (always taken with one process)
                return too_fast(limit, draft.seat, what)
            return add_line(
                self.store.db, table.id, seat=draft.seat, name=draft.name, kind="text", text=draft.text
            )

        def stored(future: asyncio.Future[ChatLine | ChatRefusalError]) -> None:
            error = None if future.cancelled() else future.exception()
            if isinstance(error, StoreError):
                log.warning("table %s: a chat line could not be stored: %s", table.id, error)
                conn.push(_unsaved(table, message))
            elif error is None and not future.cancelled():
                result = future.result()
                if isinstance(result, ChatRefusalError):
                    self._refuse(table, conn, message, result)
                else:
                    room.heard(self.store, result)

        asyncio.get_running_loop().run_in_executor(None, write).add_done_callback(stored)

    # ------------------------------------------------------------ the cluster's side

    def heard(self, channel: str, payload: str) -> None:
        """Another process's news (or this one's, come back): a chat line, a reaction, presence."""
        if channel == PRESENCE_CHANNEL:
            self.roster.heard(payload)
            return
        try:
            news = json.loads(payload)
            if channel == CHAT_CHANNEL:
                table_id, n, at, seat, name, kind, text, event, facts = news
                table = self.tables.get(str(table_id))
                if table is not None:
                    line = ChatLine(
                        int(n),
                        float(at),
                        None if seat is None else int(seat),
                        str(name),
                        str(kind),
                        str(text),
                        None if event is None else str(event),
                        json.loads(facts) if facts else {},
                    )
                    table.chat.heard(self.store, line)
            elif channel == REACTIONS_CHANNEL:
                process, table_id, seat, reaction, at = news
                table = self.tables.get(str(table_id))
                if table is not None and process != self.roster.process:
                    table.chat.reaction_heard(int(seat), str(reaction), float(at))
        except (ValueError, TypeError) as error:
            log.warning("an unreadable %s notification was ignored (%s): %.200r", channel, error, payload)
        except StoreError as error:
            log.warning("the chat lines missed could not be read: %s", error)

    def beat(self) -> list[str]:
        """This process's heartbeat (:meth:`upriver.web.seats.presence.Roster.beat`); its connections' places
        across the cluster are renewed with it."""
        if self.limits.shared and in_event_loop():
            asyncio.get_running_loop().run_in_executor(None, self.limits.renew)
        return self.roster.beat()

    def catch_up(self) -> None:
        """Send the chat lines stored while the notifications were lost, at every table read here."""
        for table in list(self.tables.values()):
            room = table.chat
            if room.loaded:
                try:
                    for line in room.missed(self.store):
                        room.heard(self.store, line)
                except StoreError as error:
                    log.warning("table %s: the chat lines missed could not be read: %s", table.id, error)

    def goodbye(self) -> str:
        """The notification that this process's connections are gone."""
        return self.roster.goodbye()
