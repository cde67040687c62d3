"""Hints at practice tables: the expert's choice and every legal choice's expected points.

A seat at a table made with the option ``"hints": true`` may send ``{"type": "hint"}`` while it
has a bid or a card to choose. The answer, ``{"type": "hint", "v", "choice", "options": [{"move",
"points"}, …]}``, is the review's own verdict on that decision (:func:`upriver.review.evaluate`):
built from ``game.view(seat)`` alone — the seat's hand and what the table has shown, never a hidden
card — by playing every legal choice out in the same deals of the hidden cards. It runs in a
thread, off the event loop (some tens of milliseconds; the first of a server's life loads the
compiled kernel), and is kept per table, version and seat, so asking twice costs nothing. At most
:data:`HINTS_AT_ONCE` are worked out at once in a server process (the others wait their turn), so
hints never take every thread of the pool the bots choose their moves in.

Refused with rule ``hint`` and the fact ``case``: ``off`` (the table has no hints), ``spectator``,
``turn`` (the seat has nothing to decide now), ``busy`` (its last hint is still being worked out)
or ``failed`` (the evaluation broke: asking again tries again).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import weakref

from upriver.cards import Card
from upriver.review import DEFAULT_DEALS, Evaluation, evaluate
from upriver.view import SeatView
from upriver.web import protocol
from upriver.web.seats import Connection
from upriver.web.table import Table

__all__ = ["HINTS_AT_ONCE", "HINT_DEALS", "ask_hint", "hint_message"]

log = logging.getLogger("upriver.web")

HINT_DEALS = DEFAULT_DEALS
"""Deals of the hidden cards each hint plays every choice out in: the review's own number."""
_KEPT = 256
"""Hints kept (per table, version and seat) so a repeated request is answered at once."""
HINTS_AT_ONCE = 2
"""Hints worked out at once per server process: asyncio's default thread pool, which the bots' and
the clock's moves are chosen in too, has a few more threads than cores."""

_kept: collections.OrderedDict[tuple[str, int, int], str] = collections.OrderedDict()
_busy: weakref.WeakSet[Connection] = weakref.WeakSet()
_tasks: set[asyncio.Task[None]] = set()
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()
"""Per event loop, the turns of :data:`HINTS_AT_ONCE` hints (a semaphore belongs to one loop)."""


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


def _refuse(conn: Connection, version: int, case: str, message: str, client_id: str | None) -> None:
    conn.push(
        protocol.error_message(version, "hint", message, client_id, seat=conn.seat, facts={"case": case})
    )


def ask_hint(table: Table, conn: Connection, message: protocol.ClientMessage) -> None:
    """Answer ``conn``'s ``hint`` message: a ``hint`` message once worked out, or a refusal now."""
    version = table.version
    seat = conn.seat
    if seat is None:
        _refuse(conn, version, "spectator", "hints are for the players at the table", message.id)
        return
    if not table.config.get("hints", False):
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
    key = (table.id, version, seat)
    if key in _kept:
        conn.push(_kept[key])
        return
    if conn in _busy:
        _refuse(conn, version, "busy", "your last hint is still being worked out: wait for it", message.id)
        return
    _busy.add(conn)
    seed = (table.seed ^ (version << 4) ^ seat) & (2**63 - 1)
    task = asyncio.get_running_loop().create_task(_answer(conn, key, view, seed, message.id))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _answer(
    conn: Connection, key: tuple[str, int, int], view: SeatView, seed: int, client_id: str | None
) -> None:
    """Work the hint out in a thread and send it (a sentence if it cannot be worked out)."""
    version = key[1]
    try:
        slots = _slots.setdefault(asyncio.get_running_loop(), asyncio.Semaphore(HINTS_AT_ONCE))
        async with slots:
            evaluation = await asyncio.to_thread(evaluate, view, deals=HINT_DEALS, seed=seed)
    except Exception as error:  # a hint that fails is said in a sentence, never a closed connection
        log.exception("table %s: the hint for seat %d failed", key[0], key[2])
        _busy.discard(conn)
        _refuse(
            conn, version, "failed", f"the hint could not be worked out ({type(error).__name__})", client_id
        )
        return
    _busy.discard(conn)
    text = hint_message(version, evaluation)
    _kept[key] = text
    while len(_kept) > _KEPT:
        _kept.popitem(last=False)
    conn.push(text)
