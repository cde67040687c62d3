"""Table talk and presence for one server process: what the app's WebSocket and the cluster call.

The app tells :class:`Social` when a connection opens or closes (presence, and the chat's last
lines for the new connection) and hands it every ``chat`` and ``react`` message; the cluster
(:class:`upriver.web.cluster.PostgresCluster`) hands it the other processes' notifications and
asks it for this process's heartbeat. With one process (:class:`~upriver.web.cluster.Solo`)
nothing is told to anyone else. See :mod:`upriver.web.presence` and :mod:`upriver.web.chat`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from upriver.database import PostgresTarget, StoreError
from upriver.web import protocol
from upriver.web.chat import ChatRefusalError
from upriver.web.cluster import CHAT_CHANNEL, PRESENCE_CHANNEL, REACTIONS_CHANNEL, Cluster, Solo
from upriver.web.commits import in_event_loop
from upriver.web.presence import Roster
from upriver.web.seats import Connection
from upriver.web.store import TableStore
from upriver.web.store.chat import ChatLine, add_line

if TYPE_CHECKING:
    from upriver.web.table import Table

__all__ = ["Social"]

log = logging.getLogger("upriver.web")


def _unsaved(table: Table, message: protocol.ClientMessage) -> str:
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

    # ------------------------------------------------------------ the app's side

    def connected(self, table: Table, conn: Connection) -> str | None:
        """``conn`` opened at ``table``: count it, and return the chat message it gets after its first
        state (the last lines), or ``None`` if the table has none."""
        self.roster.connected(table.id, conn.seat)
        return table.chat.history(self.store)

    def disconnected(self, table: Table, conn: Connection) -> None:
        """``conn`` closed."""
        self.roster.disconnected(table.id, conn.seat)

    def handle(self, table: Table, conn: Connection, message: protocol.ClientMessage) -> None:
        """Apply a ``chat`` or ``react`` message, or queue its refusal for ``conn`` (nothing changed)."""
        try:
            if message.type == "chat":
                if self.background and in_event_loop():
                    self._say_in_background(table, conn, message)
                else:
                    table.chat.say(self.store, conn, message.text, message.name)
                return
            table.chat.react(conn, message.reaction)
            assert conn.seat is not None  # a spectator's reaction is refused
            news = [self.roster.process, table.id, conn.seat, message.reaction, time.time()]
            self.cluster.publish(REACTIONS_CHANNEL, json.dumps(news))
        except ChatRefusalError as error:
            conn.push(
                protocol.error_message(
                    table.version, error.rule, str(error), message.id, seat=error.seat, facts=error.facts
                )
            )
        except StoreError as error:
            log.warning("table %s: a chat line could not be stored: %s", table.id, error)
            conn.push(_unsaved(table, message))

    def _say_in_background(self, table: Table, conn: Connection, message: protocol.ClientMessage) -> None:
        """Store a line off the event loop (a PostgreSQL round trip, which an outage makes long), then
        send it; a refusal is raised at once, a store failure told to ``conn`` when it comes.

        :raises ChatRefusalError: the line may not be written.
        """
        room = table.chat
        draft = room.draft(conn, message.text, message.name)
        write = functools.partial(
            add_line, self.store.db, table.id, seat=draft.seat, name=draft.name, kind="text", text=draft.text
        )

        def stored(future: asyncio.Future[ChatLine]) -> None:
            error = None if future.cancelled() else future.exception()
            if isinstance(error, StoreError):
                log.warning("table %s: a chat line could not be stored: %s", table.id, error)
                conn.push(_unsaved(table, message))
            elif error is None and not future.cancelled():
                room.heard(self.store, future.result())

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
        """This process's heartbeat (:meth:`upriver.web.presence.Roster.beat`)."""
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
