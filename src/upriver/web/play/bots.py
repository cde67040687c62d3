"""The bots of the web tables: their pace, their turns, and the search kernel made ready at start.

A table's bots move from one asyncio task (:func:`wake`) after the table's pace: ``slow``,
``normal`` or ``fast`` (:data:`PACES`), each a multiple of the server's ``--bot-delay`` (the
``normal`` delay), so a server started with no delay plays every pace at once. After a move
that finishes a trick the next bot also waits the trick's pause, the time the page shows the
finished trick (``trick_pause_ms`` in the state), so no bot leads before it is gathered.

The seats the bots move for are the table's ``bots``: its bots' seats, and the person-seats a
stand-in bot plays for (:mod:`upriver.web.seats.standins`: the person left, went quiet or was handed
over); a seat leaves it when its person comes back, and a move then being chosen is dropped.

While a bot's turn is on, the table's ``thinking`` is its seat (the state message carries it),
from the start of its wait until its move is committed; ``None`` otherwise.

A searching bot's first move on a machine compiles numba's kernel (seconds), so the server
warms it at start (:func:`warm_in_background`): a thread in which each search kind plays a tiny
game. numba caches compiled code on disk, so after the first start it only loads. A bot that
needs the kernel meanwhile waits on numba's compiler lock for the same compilation, never a second.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Literal, Protocol, get_args

from upriver.bots import Bot, act, make_bot
from upriver.errors import IllegalActionError
from upriver.game import Game, Move
from upriver.rules import Rules, Schedule

__all__ = [
    "DEFAULT_PACE",
    "PACES",
    "BotTable",
    "Pace",
    "PaceName",
    "legal_or_fallback",
    "pace_of",
    "wake",
    "warm_in_background",
    "warm_search",
]

log = logging.getLogger("upriver.web")

PaceName = Literal["slow", "normal", "fast"]
"""The paces a table may be created with (the create request's ``pace``)."""
PACES: dict[str, tuple[float, float]] = {"slow": (2.0, 2.5), "normal": (1.0, 1.5), "fast": (0.25, 0.75)}
"""Each pace's bot delay and finished-trick pause, as multiples of the server's bot delay
(at the default 0.8 s: slow 1.6 s and 2 s, normal 0.8 s and 1.2 s, fast 0.2 s and 0.6 s)."""
assert tuple(PACES) == get_args(PaceName)
DEFAULT_PACE: PaceName = "normal"


@dataclasses.dataclass(frozen=True)
class Pace:
    """A table's pace in seconds: how long a bot waits before it moves, and a finished trick stays up."""

    name: str
    bot_delay: float
    trick_pause: float


def pace_of(name: str, bot_delay: float) -> Pace:
    """The pace called ``name`` on a server whose normal bot delay is ``bot_delay`` seconds.

    :raises ValueError: ``name`` is no pace.
    """
    if name not in PACES:
        raise ValueError(f"the pace is one of {', '.join(map(repr, PACES))}, not {name!r}")
    bots, trick = PACES[name]
    return Pace(name, bots * bot_delay, trick * bot_delay)


class BotTable(Protocol):
    """What the bots need of a table (:class:`upriver.web.play.tables.Table`)."""

    id: str
    kinds: list[str]
    bots: dict[int, Bot]
    game: Game | None
    damaged: str | None
    version: int
    gathered: int
    pace: Pace
    thinking: int | None
    bot_task: asyncio.Task[None] | None

    def announce(self) -> None:
        """Send every connection the table's newest state."""


Commit = Callable[[BotTable, int, Move], bool]
"""Make ``seat``'s move at the table through the one path of every event; ``False`` if the
store failed (nothing changed), so the bot tries again later."""


def wake(table: BotTable, commit: Commit) -> None:
    """Start the table's bot task if a bot is due and none runs (only inside the event loop)."""
    game = table.game
    if game is None or table.bot_task is not None or table.damaged is not None:
        return
    if any(seat in table.bots for seat in game.awaiting):
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        table.bot_task = loop.create_task(_bot_loop(table, commit))


def _think_about(table: BotTable, seat: int | None) -> None:
    if table.thinking != seat:
        table.thinking = seat
        table.announce()


async def _bot_loop(table: BotTable, commit: Commit) -> None:
    try:
        while table.game is not None and table.damaged is None:
            seats = [seat for seat in table.game.awaiting if seat in table.bots]
            if not seats:
                return
            seat = seats[0]
            _think_about(table, seat)
            pace = table.pace
            await asyncio.sleep(pace.trick_pause if table.gathered == table.version else pace.bot_delay)
            game = table.game
            if table.damaged is not None or seat not in game.awaiting:
                continue
            # A searching bot may think for a while: it does so in a worker thread, on its frozen
            # view, so the other tables keep playing meanwhile.
            version = table.version
            move = await _think(table, seat, game)
            if table.version != version or seat not in table.bots:
                continue  # people moved meanwhile (simultaneous bids), or took their seat back: look again
            move = legal_or_fallback(table, seat, game, move)
            table.thinking = None  # the move's own state says the turn is over
            if not commit(table, seat, move):
                await asyncio.sleep(max(pace.bot_delay, 1.0))  # nothing changed; try again later
    except Exception:  # an engine or server fault must not take the server down; the table waits
        log.exception("the bots of table %s stopped", table.id)
    finally:
        table.bot_task = None
        _think_about(table, None)


async def _think(table: BotTable, seat: int, game: Game) -> object:
    """The bot's move, or ``None`` when the bot fails (logged; the fallback then moves for it)."""
    try:
        bot = table.bots.get(seat)
        return None if bot is None else await asyncio.to_thread(bot.act, game.view(seat))
    except Exception:
        log.exception(
            "table %s: the %s bot at seat %d failed to choose a move", table.id, table.kinds[seat], seat
        )
        return None


def legal_or_fallback(table: BotTable, seat: int, game: Game, move: object) -> Move:
    """``move`` if the engine accepts it; else, logged, the first legal move (the lowest legal
    bid, or the first legal card in the engine's order), so the table goes on reproducibly."""
    try:
        game.check_move(move, seat)  # type: ignore[arg-type]  # a faulty bot may return anything
    except IllegalActionError as error:
        fallback: Move = (game.legal_bids(seat) or game.legal_cards(seat))[0]
        log.warning(
            "table %s: the %s bot at seat %d chose %r, which the engine refused (%s: %s); "
            "it plays the first legal move, %s, instead",
            table.id,
            table.kinds[seat],
            seat,
            move,
            error.rule,
            error,
            fallback,
        )
        return fallback
    return move  # type: ignore[return-value]  # the engine accepted it, so it is a move


# ---------------------------------------------------------------- warming the kernel

SEARCH_KINDS = ("pimc", "ipimc", "expert")
"""The bot kinds that search with the kernel: the levels normal and hard are pimc with a budget and
run its compiled code; expert is ipimc bidding from the learned bid model, whose features call
kernel functions of their own."""

_warming: threading.Thread | None = None
_warming_lock = threading.Lock()


def warm_search() -> float:
    """Compile (or load from numba's disk cache) every kernel function the search bots call:
    each search kind plays a whole two-card game of three. Returns the seconds it took."""
    start = time.perf_counter()
    rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(2,))
    for kind in SEARCH_KINDS:
        game = Game(rules, seed=1)
        bot = make_bot(kind, seed=1, iterations=32)
        while not game.is_over:
            act(game, game.awaiting[0], bot)
    return time.perf_counter() - start


_warmed: str | None = None
"""How warming ended in this process: ``"warm"``, ``"failed"``, or ``None`` (not ended, or not started)."""


def _warm() -> None:
    global _warmed
    try:
        log.info("upriver: the search bots' kernel is ready (%.1f s)", warm_search())
        _warmed = "warm"
    except Exception:  # a bot then compiles on its first move, as without warming
        log.exception("the search bots' kernel could not be made ready at start")
        _warmed = "failed"


def kernel_state() -> str:
    """The search bots' kernel in this process: ``"warm"``, ``"warming"``, ``"failed"`` (a bot compiles on
    its first move) or ``"cold"`` (never warmed: ``upriver serve --no-warm``)."""
    if _warmed is not None:
        return _warmed
    return "cold" if _warming is None else "warming"


def warm_in_background() -> threading.Thread:
    """Start :func:`warm_search` in a daemon thread, once per process; the thread (to join in tests)."""
    global _warming
    with _warming_lock:
        if _warming is None:
            _warming = threading.Thread(target=_warm, name="upriver-warm-kernel", daemon=True)
            _warming.start()
        return _warming
