"""The turn clock of a table with the ``clock`` option: a bot moves for a person whose time ran out.

A person's turn starts when their choices change (the event that made it their turn); its
deadline is that event's stored time (:attr:`upriver.web.store.Event.at`) plus the table's
``clock`` seconds. Deadlines are so derived from stored events: a restarted server knows them
as they were, and a turn whose time ran out while the server was down is played at once.

Only the table's owner process (:meth:`upriver.web.cluster.news.Cluster.owns`) runs its clock, so
over ``--workers`` an automatic move is made once; should two processes ever try, the store's
version check keeps the second out and the engine refuses it against the new state.

Every :data:`TICK` seconds :meth:`Clock.tick` looks at each owned table with a running clock:

- a person's time ran out: a bot of the table's ``level`` chooses their move (in a worker
  thread, on the seat's own view) and it is committed as an ordinary ``bid`` or ``play`` event
  with the client id ``clock`` (an *automatic* move: the state lists them, the record export
  names them in ``upriver_automatic``);
- after two automatic moves in a row, or when the person has been away a whole clock (their
  last connection went away that long ago: ``table.presence``), a ``standin`` event (``clock``
  or ``away``) seats a stand-in bot (:mod:`upriver.web.seats.standins`) until they come back.

The time is the manager's ``now`` (``time.time`` unless a test drives it).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from upriver.bots import make_bot
from upriver.web.cluster.news import Cluster
from upriver.web.play.bots import legal_or_fallback
from upriver.web.play.table import HUMAN, Table
from upriver.web.seats.standins import SeatActions

__all__ = ["TICK", "Clock", "ClockHost", "running"]

log = logging.getLogger("upriver.web")

TICK = 0.2
"""Seconds between two looks at the clocks (an automatic move is made at most this late)."""
TWO_IN_A_ROW = 2
"""Automatic moves in a row after which a stand-in bot plays for the person."""


class ClockHost(Protocol):
    """What the clock needs of :class:`upriver.web.play.tables.Manager`."""

    tables: dict[str, Table]
    cluster: Cluster
    now: Callable[[], float]
    standins: SeatActions
    """Its seat-control requests: the clock's moves and stand-ins."""


def running(table: Table) -> bool:
    """Whether ``table``'s clock runs: it has one, and its game is on and sound."""
    game = table.game
    return bool(table.settings.clock) and game is not None and not game.is_over and table.damaged is None


def deadline(table: Table, seat: int) -> float:
    """When ``seat``'s time for its current decision runs out (manager's time)."""
    return table.control.turn_started[seat] + table.settings.clock


class Clock:
    """The clocks of one server process's tables (see the module)."""

    def __init__(self, host: ClockHost, *, tick: float = TICK) -> None:
        self.host = host
        self.interval = tick
        self.tasks: dict[str, asyncio.Task[None]] = {}
        """Per table, the automatic move being chosen (one at a time)."""

    async def run(self) -> None:
        """Look at the clocks every :attr:`interval` seconds, until cancelled."""
        try:
            while True:
                try:
                    self.tick()
                except Exception:  # one table's fault must not stop every clock
                    log.exception("the turn clocks failed; they look again shortly")
                await asyncio.sleep(self.interval)
        finally:
            for task in self.tasks.values():
                task.cancel()

    def tick(self) -> None:
        """Act on every clock that ran out at the tables this process owns (inside the event loop)."""
        for table in list(self.host.tables.values()):
            if running(table) and self.host.cluster.owns(table.id):
                self._look(table)

    def _look(self, table: Table) -> None:
        now = self.host.now()
        for seat in self._to_stand_in(table, now):
            reason = "clock" if table.auto_moves(seat) >= TWO_IN_A_ROW else "away"
            try:
                self.host.standins.stand_in(table, seat, reason)
            except Exception as error:  # refused (news came first) or the store failed: look again
                log.info(
                    "table %s: seat %d's stand-in (%s) was not stored: %s", table.id, seat, reason, error
                )
        game = table.game
        if game is None or table.id in self.tasks or not running(table):
            return
        due = [s for s in game.awaiting if table.plays_for_person(s) and now >= deadline(table, s)]
        if due:
            task = asyncio.get_running_loop().create_task(self._move(table, due[0]))
            self.tasks[table.id] = task

    def _to_stand_in(self, table: Table, now: float) -> Iterable[int]:
        presence = table.presence
        for seat, kind in enumerate(table.kinds):
            if kind != HUMAN or table.standin_reason(seat) is not None:
                continue
            if table.auto_moves(seat) >= TWO_IN_A_ROW:
                yield seat
            elif not presence.online(seat):
                since = presence.away_since(seat)
                if since is not None and now - since >= table.settings.clock:
                    yield seat

    async def _move(self, table: Table, seat: int) -> None:
        """Choose and commit the automatic move of ``seat``, whose time ran out."""
        try:
            game = table.game
            version = table.version
            if game is None:
                return
            bot = make_bot(table.settings.level, seed=table.seed ^ (seat + 1) ^ (version << 8))
            move: object = None
            try:
                move = await asyncio.to_thread(bot.act, game.view(seat))
            except Exception:
                log.exception(
                    "table %s: the clock's %s bot failed for seat %d", table.id, table.settings.level, seat
                )
            if table.version != version or table.game is not game or seat not in game.awaiting:
                return  # the person (or the news of another process) moved meanwhile: look again
            if not table.plays_for_person(seat):
                return
            chosen = legal_or_fallback(table, seat, game, move)
            if (
                self.host.standins.automatic_move(table, seat, chosen, version)
                and table.auto_moves(seat) >= TWO_IN_A_ROW
            ):
                self.host.standins.stand_in(table, seat, "clock")
        except Exception:
            log.exception("table %s: the clock's move for seat %d failed; it tries again", table.id, seat)
        finally:
            self.tasks.pop(table.id, None)
