"""Hints at practice tables: the expert's choice and every legal choice's expected points.

A seat at a table made with the option ``"hints": true`` may send ``{"type": "hint"}`` while it
has a bid or a card to choose. The answer, ``{"type": "hint", "v", "choice", "options": [{"move",
"points"}, …]}``, is the review's own verdict on that decision (:func:`upriver.review.evaluate`):
built from ``game.view(seat)`` alone — the seat's hand and what the table has shown, never a hidden
card — by playing every legal choice out in the same deals of the hidden cards. It runs in a
thread, off the event loop (some tens of milliseconds to half a second; the first of a server's
life loads the compiled kernel).

One position, one evaluation: a hint is worked out once per table, version and seat, whichever of
the seat's connections ask and however often — those asking while it is worked out all get it when
it is done, and those asking later get it at once (:data:`_KEPT` are kept). At most
:data:`HINTS_AT_ONCE` are worked out at once in a server process, so hints never take every
thread of the pool the bots choose their moves in; the others wait in a fair queue (:class:`HintQueue`):
the tables take turns, one hint each, so a table asking many does not hold up another asking
one, and one client address has at most :data:`RUNNING_PER_ADDRESS` worked out at once, so
another's hint finds a thread free. And what waits is bounded: at most :data:`QUEUED_PER_SEAT`
hints waiting or being worked out for one seat, :data:`QUEUED_PER_TABLE` for one table and
:data:`QUEUED_PER_ADDRESS` for the connections of one client address; one more is refused. A hint
still waiting when its table has moved on is not worked out (no page shows a hint of a past version).

Refused with rule ``hint`` and the fact ``case``: ``off`` (the table has no hints), ``spectator``,
``turn`` (the seat has nothing to decide now), ``busy`` (this connection's last hint is still being
worked out), ``queue`` (one of the bounds above: facts ``scope`` — ``seat``, ``table`` or
``address`` — and ``limit``) or ``failed`` (the evaluation broke: asking again tries again).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import logging
import weakref
from collections.abc import Callable

from upriver.cards import Card
from upriver.review import DEFAULT_DEALS, Evaluation, evaluate
from upriver.view import SeatView
from upriver.web.play import protocol
from upriver.web.play.messages import Hint
from upriver.web.play.table import Table
from upriver.web.seats.holders import Connection

__all__ = [
    "HINTS_AT_ONCE",
    "HINT_DEALS",
    "QUEUED_PER_ADDRESS",
    "QUEUED_PER_SEAT",
    "QUEUED_PER_TABLE",
    "RUNNING_PER_ADDRESS",
    "HintQueue",
    "ask_hint",
    "hint_message",
]

log = logging.getLogger("upriver.web")

HINT_DEALS = DEFAULT_DEALS
"""Deals of the hidden cards each hint plays every choice out in: the review's own number."""
_KEPT = 256
"""Hints kept (per table, version and seat) so a repeated request is answered at once."""
HINTS_AT_ONCE = 2
"""Hints worked out at once per server process: asyncio's default thread pool, which the bots' and
the clock's moves are chosen in too, has a few more threads than cores."""
QUEUED_PER_SEAT = 2
"""Hints waiting or being worked out for one seat (its connections share each): its own decision, and
the one just before it if it moved meanwhile."""
QUEUED_PER_TABLE = 4
"""Hints waiting or being worked out for one table."""
QUEUED_PER_ADDRESS = 4
"""Hints waiting or being worked out for the connections of one client address, whatever their tables."""
RUNNING_PER_ADDRESS = 1
"""Hints being worked out at once for one client address: however many it asks, it never takes every
one of the :data:`HINTS_AT_ONCE`, so a hint from elsewhere starts when it comes."""

Key = tuple[str, int, int]
"""A hint's position: table id, version, seat."""

_SCOPES = {"seat": "this seat", "table": "this table", "address": "your connections"}


@dataclasses.dataclass(eq=False)
class _Job:
    """One position to work out, and the connections waiting for it (with their messages' ids)."""

    key: Key
    view: SeatView
    seed: int
    address: str
    current: Callable[[], bool]
    """Whether the position is still the table's (a job whose table moved on is dropped)."""
    waiters: list[tuple[Connection, str | None]]


class HintQueue:
    """The hints of one server process (one event loop): those kept, those waiting their turn table by
    table, and those being worked out, at most ``at_once`` (see the module)."""

    def __init__(self, at_once: int = HINTS_AT_ONCE) -> None:
        self.at_once = at_once
        self.kept: collections.OrderedDict[Key, str] = collections.OrderedDict()
        self.jobs: dict[Key, _Job] = {}
        """Every position waiting or being worked out."""
        self.turns: dict[str, collections.deque[_Job]] = {}
        """The waiting jobs by table."""
        self.served: dict[str, int] = {}
        """When each table with a job waiting or being worked out last had its turn (a count of turns)."""
        self._turn = 0
        self.working: collections.Counter[str] = collections.Counter()
        """The hints being worked out, by client address."""
        self.running = 0
        self.evaluations = 0
        """How many evaluations this queue started (one per position)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def full(self, seat: int, table_id: str, address: str) -> tuple[str, int] | None:
        """The bound (scope, limit) one more position for ``seat`` at ``table_id`` from ``address``
        would pass, or ``None``."""
        mine = [job for job in self.jobs.values() if job.key[0] == table_id]
        if sum(job.key[2] == seat for job in mine) >= QUEUED_PER_SEAT:
            return "seat", QUEUED_PER_SEAT
        if len(mine) >= QUEUED_PER_TABLE:
            return "table", QUEUED_PER_TABLE
        if sum(job.address == address for job in self.jobs.values()) >= QUEUED_PER_ADDRESS:
            return "address", QUEUED_PER_ADDRESS
        return None

    def add(self, job: _Job) -> None:
        """Queue ``job`` behind its table's others; start it now if a slot is free."""
        self.jobs[job.key] = job
        self.turns.setdefault(job.key[0], collections.deque()).append(job)
        self._start()

    def _next(self) -> _Job | None:
        """The first waiting job of the table that had its turn longest ago (or never), among those
        whose client address has no other hint being worked out; ``None`` if none may start now."""
        for table_id in sorted(self.turns, key=lambda waiting: self.served.get(waiting, -1)):
            waiting = self.turns[table_id]
            while waiting and not waiting[0].current():
                self._drop(waiting.popleft())  # its table moved on: no page shows it
            if waiting and self.working[waiting[0].address] < RUNNING_PER_ADDRESS:
                job = waiting.popleft()
                self._turn += 1
                self.served[table_id] = self._turn
            else:
                job = None
            if not waiting:
                del self.turns[table_id]
            if job is not None:
                return job
        return None

    def _drop(self, job: _Job) -> None:
        self._done(job)
        for conn, _ in job.waiters:
            _busy.discard(conn)

    def _done(self, job: _Job) -> None:
        """``job`` is no longer waiting nor being worked out."""
        del self.jobs[job.key]
        table_id = job.key[0]
        if not any(key[0] == table_id for key in self.jobs):
            self.served.pop(table_id, None)

    def _start(self) -> None:
        while self.running < self.at_once:
            job = self._next()
            if job is None:
                return
            self.running += 1
            self.working[job.address] += 1
            self.evaluations += 1
            task = asyncio.get_running_loop().create_task(self._answer(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _answer(self, job: _Job) -> None:
        """Work ``job`` out in a thread and send it to every waiter (a sentence if it cannot be)."""
        table_id, version, seat = job.key
        failure = ""
        try:
            evaluation = await asyncio.to_thread(evaluate, job.view, deals=HINT_DEALS, seed=job.seed)
        except Exception as error:  # a hint that fails is said in a sentence, never a closed connection
            log.exception("table %s: the hint for seat %d failed", table_id, seat)
            text = None
            failure = f"the hint could not be worked out ({type(error).__name__})"
        else:
            text = hint_message(version, evaluation)
            self.kept[job.key] = text
            while len(self.kept) > _KEPT:
                self.kept.popitem(last=False)
        finally:
            self.running -= 1
            self.working[job.address] -= 1
            if not self.working[job.address]:
                del self.working[job.address]
            self._done(job)
        for conn, client_id in job.waiters:
            _busy.discard(conn)
            if text is not None:
                conn.push(text)
            else:
                _refuse(conn, version, "failed", failure, client_id)
        self._start()


_queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, HintQueue] = weakref.WeakKeyDictionary()
"""Per event loop, its hints (a server process has one loop; tests start several)."""
_busy: weakref.WeakSet[Connection] = weakref.WeakSet()


def queue() -> HintQueue:
    """This event loop's :class:`HintQueue`."""
    return _queues.setdefault(asyncio.get_running_loop(), HintQueue())


def _move(choice: int | Card) -> int | str:
    return choice if isinstance(choice, int) else str(choice)


def hint_message(version: int, evaluation: Evaluation) -> str:
    """The ``hint`` message of an evaluation, as JSON text."""
    return json.dumps(
        {
            "type": "hint",
            "v": version,
            "choice": _move(evaluation.best),
            "options": [
                {"move": _move(candidate.choice), "points": round(candidate.expected, 2)}
                for candidate in evaluation.candidates
            ],
        }
    )


def _refuse(
    conn: Connection, version: int, case: str, message: str, client_id: str | None, **facts: object
) -> None:
    conn.push(
        protocol.error_message(
            version, "hint", message, client_id, seat=conn.seat, facts={"case": case, **facts}
        )
    )


def ask_hint(table: Table, conn: Connection, message: Hint) -> None:
    """Answer ``conn``'s ``hint`` message: a ``hint`` message once worked out, or a refusal now."""
    version = table.version
    seat = conn.seat
    if seat is None:
        _refuse(conn, version, "spectator", "hints are for the players at the table", message.id)
        return
    if not table.settings.hints:
        _refuse(
            conn,
            version,
            "off",
            "this table has no hints: a table made with hints on offers them",
            message.id,
        )
        return
    game = table.game
    view = None if game is None else game.view(seat)
    if view is None or not (view.legal_bids or view.legal_cards):
        _refuse(conn, version, "turn", "a hint is for your own bid or card, when it is your turn", message.id)
        return
    hints = queue()
    key = (table.id, version, seat)
    if key in hints.kept:
        conn.push(hints.kept[key])
        return
    if conn in _busy:
        _refuse(conn, version, "busy", "your last hint is still being worked out: wait for it", message.id)
        return
    job = hints.jobs.get(key)
    if job is not None:  # the same position, asked by another of the seat's connections: one evaluation
        job.waiters.append((conn, message.id))
        _busy.add(conn)
        return
    bound = hints.full(seat, table.id, conn.address)
    if bound is not None:
        scope, limit = bound
        _refuse(
            conn,
            version,
            "queue",
            f"{limit} hints are being worked out for {_SCOPES[scope]} already, the most this server "
            "takes at once: wait for them, then ask again",
            message.id,
            scope=scope,
            limit=limit,
        )
        return
    seed = (table.seed ^ (version << 4) ^ seat) & (2**63 - 1)
    _busy.add(conn)
    hints.add(_Job(key, view, seed, conn.address, lambda: table.version == version, [(conn, message.id)]))
