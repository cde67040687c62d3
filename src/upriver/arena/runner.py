"""Run the arena's games on every core, and stop cleanly when asked, keeping the finished games.

Games go to a pool of worker processes (``spawn``ed, so no lock held by a thread of
this process is copied into them) a few at a time, so that an interruption stops the
dispatch at once: Ctrl-C (or a set ``stop`` event) lets the games already being
played finish and drops the rest; a second Ctrl-C abandons those too. The workers
ignore Ctrl-C themselves, so only this process decides. Results come back in
completion order; the statistics sort them by their place in the plan, so the
numbers do not depend on ``jobs``, nor on the ``executor`` that plays them (the arena's
``--ray`` hands in one that runs the games as Ray tasks).
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from upriver.arena.match import GameResult, play_game
from upriver.arena.schedule import GameTask

__all__ = ["RunOutcome", "default_jobs", "run_games", "run_with_progress"]

_POLL_S = 0.2


@dataclasses.dataclass(frozen=True, slots=True)
class RunOutcome:
    """The games that finished, and whether the run stopped before the end of the plan."""

    results: list[GameResult]
    interrupted: bool


def default_jobs() -> int:
    """One worker process per core."""
    return os.cpu_count() or 1


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_inline(
    tasks: Sequence[GameTask],
    on_result: Callable[[GameResult], None] | None,
    stop: threading.Event | None,
) -> RunOutcome:
    results: list[GameResult] = []
    try:
        for task in tasks:
            if stop is not None and stop.is_set():
                return RunOutcome(results, True)
            result = play_game(task)
            results.append(result)
            if on_result is not None:
                on_result(result)
    except KeyboardInterrupt:
        return RunOutcome(results, True)
    return RunOutcome(results, False)


def run_games(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    stop: threading.Event | None = None,
    executor: cf.Executor | None = None,
) -> RunOutcome:
    """Play ``tasks`` on ``jobs`` processes (1: in this process); Ctrl-C or ``stop`` ends the run early.

    With an ``executor`` (left open; ``jobs`` is then how many games it plays at once) the
    games are played there instead. ``on_result`` is called in this process for every
    finished game; a ``KeyboardInterrupt`` raised from it counts as a Ctrl-C.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if executor is None and (jobs == 1 or len(tasks) <= 1):
        return _run_inline(tasks, on_result, stop)
    results: list[GameResult] = []
    queue = iter(tasks)
    pending: set[cf.Future[GameResult]] = set()
    interrupted = False
    pool = executor or cf.ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
    )
    try:
        try:
            while True:
                # One game running and one queued per worker, no more, so that a stop takes effect fast.
                while not interrupted and len(pending) < 2 * jobs:
                    task = next(queue, None)
                    if task is None:
                        break
                    pending.add(pool.submit(play_game, task))
                if not pending:
                    break
                done, pending = cf.wait(pending, timeout=_POLL_S, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    results.append(result)
                    if on_result is not None:
                        on_result(result)
                if not interrupted and stop is not None and stop.is_set():
                    interrupted = True
                    pending = {f for f in pending if not f.cancel()}
        except KeyboardInterrupt:
            interrupted = True
            # Games not started are dropped; those being played are waited for (a second Ctrl-C drops them).
            pending = {f for f in pending if not f.cancel()}
            for future in cf.as_completed(pending):
                result = future.result()
                results.append(result)
                if on_result is not None:
                    on_result(result)
    except KeyboardInterrupt:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
    finally:
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)
    return RunOutcome(results, interrupted)


def run_with_progress(
    tasks: Sequence[GameTask],
    *,
    jobs: int,
    console: Console,
    stop: threading.Event | None = None,
    executor: cf.Executor | None = None,
) -> RunOutcome:
    """:func:`run_games` with a progress bar on ``console`` (the arena prints it on standard error)."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("games", total=len(tasks))
        outcome = run_games(
            tasks, jobs=jobs, stop=stop, executor=executor, on_result=lambda _: progress.advance(bar)
        )
        if outcome.interrupted:
            progress.update(bar, description="games (interrupted)")
    return outcome
