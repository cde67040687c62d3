"""A whole game reviewed: the rounds spread over the machine's cores, with progress, then totalled.

Each round of each seat is one task (:func:`~upriver.review.model.review_round`, a pure
function), sent to a process pool and gathered in a fixed order, so the result is the same
on one core or many, and a later backend that runs the same function elsewhere gives it too.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence

from upriver.record import Record
from upriver.review.model import Decision, RoundReview, Settings, review_round
from upriver.review.moments import RoundTask, round_tasks

__all__ = [
    "GameReview",
    "Progress",
    "SeatReview",
    "review_record",
    "review_tasks",
    "seat_review",
    "worker_pool",
]

Progress = Callable[[int, int], None]
"""Called as decisions are reviewed: ``(done, total)``."""

POOL_FROM = 100
"""Decisions from which :func:`review_record` starts worker processes (each loads the kernel, ~1 s)."""

MISTAKES = 3
"""How many of a seat's biggest mistakes its review names."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class SeatReview:
    """One player's game: each round, the points given up to bidding and to play, the luck of the
    deals (the sum of each round's ``luck``), the score, and the biggest flagged mistakes."""

    seat: int
    player: str
    rounds: tuple[RoundReview, ...]
    bidding: float
    play: float
    luck: float
    score: int
    mistakes: tuple[Decision, ...]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class GameReview:
    """The review of a game record for the seats asked for, with the settings that made it."""

    players: tuple[str, ...]
    settings: Settings
    seats: tuple[SeatReview, ...]

    def seat(self, seat: int) -> SeatReview:
        """The review of ``seat``.

        :raises KeyError: that seat was not reviewed.
        """
        for review in self.seats:
            if review.seat == seat:
                return review
        raise KeyError(f"seat {seat} was not reviewed")


def _start_worker(nice: int, parent: int) -> None:
    """A review worker: at lower priority if asked, and gone once the process that started it is
    (a server killed outright leaves no worker behind)."""
    if nice:
        os.nice(nice)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="review-parent-watch", daemon=True).start()


def worker_pool(jobs: int | None = None, *, nice: int = 0) -> concurrent.futures.ProcessPoolExecutor:
    """A process pool for reviews: ``jobs`` workers (default: every core), started fresh
    (``spawn``), since the caller may be a threaded server; ``nice`` lowers their priority
    (a server keeps its tables quick while it reviews)."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=jobs or os.cpu_count() or 1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(nice, os.getpid()),
    )


def seat_review(seat: int, player: str, rounds: Sequence[RoundReview]) -> SeatReview:
    """The totals of one seat's reviewed rounds, and its biggest flagged mistakes."""
    flagged = [d for r in rounds for d in r.decisions if d.flagged]
    flagged.sort(key=lambda d: (-d.cost, d.round_number, d.step))
    return SeatReview(
        seat=seat,
        player=player,
        rounds=tuple(rounds),
        bidding=sum(r.bidding for r in rounds),
        play=sum(r.play for r in rounds),
        luck=sum(r.luck for r in rounds if r.luck is not None),
        score=sum(r.score for r in rounds if r.score is not None),
        mistakes=tuple(flagged[:MISTAKES]),
    )


def review_tasks(
    tasks: Sequence[RoundTask],
    settings: Settings,
    *,
    executor: concurrent.futures.Executor | None = None,
    progress: Progress | None = None,
) -> tuple[RoundReview, ...]:
    """Review every task, in ``executor`` if given (else here), in the order given.

    Large rounds go first so that the cores finish together.
    """
    total = sum(len(task.moments) for task in tasks)
    done = 0
    if progress is not None:
        progress(0, total)
    results: list[RoundReview | None] = [None] * len(tasks)
    if executor is None:
        for i, task in enumerate(tasks):
            results[i] = review_round(task, settings)
            done += len(task.moments)
            if progress is not None:
                progress(done, total)
    else:
        order = sorted(range(len(tasks)), key=lambda i: -len(tasks[i].moments))
        futures = {executor.submit(review_round, tasks[i], settings): i for i in order}
        for future in concurrent.futures.as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            done += len(tasks[i].moments)
            if progress is not None:
                progress(done, total)
    return tuple(r for r in results if r is not None)


def review_record(
    record: Record,
    *,
    seats: tuple[int, ...] | None = None,
    settings: Settings | None = None,
    jobs: int | None = 1,
    executor: concurrent.futures.Executor | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """Review ``record`` for ``seats`` (default: every seat), each decision from its seat's view.

    ``jobs`` workers (``None``: every core; 1: in this process) unless an ``executor`` is given; a
    record of fewer than :data:`POOL_FROM` decisions is reviewed in this process all the same, since
    starting workers would take longer than the review.
    The same record and settings always give the same review.

    :raises NoCardsError: the record holds a round without its cards.
    :raises RecordRuleError: the record breaks a rule.
    """
    settings = settings or Settings()
    tasks = round_tasks(record, seats)
    if executor is None and jobs != 1 and sum(len(task.moments) for task in tasks) >= POOL_FROM:
        with worker_pool(jobs) as pool:
            rounds = review_tasks(tasks, settings, executor=pool, progress=progress)
    else:
        rounds = review_tasks(tasks, settings, executor=executor, progress=progress)
    wanted = tuple(range(len(record.players))) if seats is None else seats
    reviews = tuple(
        seat_review(seat, record.players[seat], [r for r in rounds if r.seat == seat]) for seat in wanted
    )
    return GameReview(players=record.players, settings=settings, seats=reviews)
