"""How the live tables follow other server processes over the same store (:mod:`upriver.web.cluster.news`).

:class:`Following` is the part of :class:`upriver.web.play.tables.Manager` (``manager.following``)
that the cluster calls: an event another process committed is applied through the manager's own
check and announced (:meth:`Following.received`), a table created elsewhere is loaded
(:meth:`Following.load`), and a table whose owner died is taken over. A rematch made elsewhere is
told to this process's connections of the finished table once the new table's first event (its
starter's seat) is applied here, each connection its own seat's link
(:func:`upriver.web.play.rematch_notice.tell_rematch`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

from upriver.web.cluster.news import Cluster
from upriver.web.play.rematch_notice import tell_rematch
from upriver.web.play.table import Table
from upriver.web.store import Event, TableStore

__all__ = ["Following"]

log = logging.getLogger("upriver.web")


Replay = Callable[[Table, Sequence[Event]], None]
"""Apply stored events through the engine's check, announcing each (the manager's replay)."""


class Following:
    """The live tables as the cluster sees them (a :class:`upriver.web.cluster.news.Follower`)."""

    def __init__(
        self,
        tables: dict[str, Table],
        store: TableStore,
        cluster: Cluster,
        *,
        bot_delay: float,
        base_url: str,
        now: Callable[[], float],
        replay: Replay,
        wake_bots: Callable[[Table], None],
    ) -> None:
        """``tables``: the manager's live tables (shared, not copied); ``replay``: the manager's way
        to apply stored events; ``wake_bots``: start a table's bots if one is due and this process
        owns it."""
        self.tables = tables
        self.store = store
        self.cluster = cluster
        self.bot_delay = bot_delay
        self.base_url = base_url
        self.now = now
        self._replay = replay
        self._wake_bots = wake_bots

    def load(self, table_id: str) -> Table | None:
        """Load the stored table ``table_id`` (created by another process) and apply its events, or
        ``None`` if there is none or its stored configuration is unreadable (logged)."""
        row = self.store.table(table_id)
        if row is None:
            return None
        try:
            table = Table(row.id, row.config, bot_delay=self.bot_delay, now=self.now)
        except (KeyError, TypeError, ValueError) as error:
            log.error("table %s cannot be loaded: its stored configuration is unreadable (%s)", row.id, error)
            return None
        self.tables[row.id] = table
        self._follow(table, self.store.events(row.id))
        return table

    def _follow(self, table: Table, events: Sequence[Event]) -> None:
        """Apply events another process committed; a rematch made there is told here once its first
        event is (the process that made it told its own connections)."""
        fresh = table.version == 0
        self._replay(table, events)
        if fresh and table.version > 0 and table.rematch_of is not None:
            finished = self.tables.get(table.rematch_of)
            if finished is not None:
                tell_rematch(self.base_url, finished, table)

    def received(self, table_id: str, event: Event) -> None:
        """``event`` was committed at ``table_id`` (by any process): apply it, checked again, unless it
        is here already; after a gap, read every event missed."""
        table = self.tables.get(table_id)
        if table is None:
            self.load(table_id)
        elif table.damaged is not None:
            return  # it accepts nothing more, and already says why
        elif table.committing is not None:  # this process's own move, or one its commit will meet
            table.missed = table.missed or event.version > table.committing.version
        elif event.version == table.version + 1:
            self._follow(table, (event,))
        elif event.version > table.version:
            self.catch_up(table)

    def table_added(self, table_id: str) -> None:
        """A table was created, perhaps by another process: load it unless it is here."""
        if table_id not in self.tables:
            self.load(table_id)

    def catch_up(self, table: Table) -> None:
        """Apply what the store holds of ``table`` after its version (committed by another process)."""
        if table.damaged is None:
            self._follow(table, self.store.events(table.id, after=table.version))

    def catch_up_all(self) -> None:
        """Read every table's events not applied yet, and every table not loaded yet."""
        for row in self.store.tables():
            table = self.tables.get(row.id)
            if table is None:
                self.load(row.id)
            else:
                self.catch_up(table)

    def needing_owner(self) -> Iterator[str]:
        """The tables whose bots (stand-ins too) are due to move, or whose turn clock runs (to be
        taken over if their owner is gone)."""
        for table in self.tables.values():
            game = table.game
            if game is None or table.damaged is not None or game.is_over:
                continue
            if table.settings.clock or any(seat in table.bots for seat in game.awaiting):
                yield table.id

    def took_over(self, table_id: str) -> None:
        """This process owns ``table_id`` now: apply what it missed, then its bots go on."""
        table = self.tables.get(table_id)
        if table is not None:
            self.catch_up(table)
            self._wake_bots(table)
