"""The review at a web table: a player's finished rounds judged by the expert, in the background.

HTTP:

- ``GET /api/tables/{id}/review?token=…&round=N&seat=S`` — the review (docs/review.md) of round
  ``N`` (omit it: every finished round, the game so far) for seat ``S`` (omit it: the token's own
  seat). The first request starts the work in a process pool and answers ``202`` with
  ``{"status": "running", "done", "total"}`` (decisions reviewed so far, of how many); asked again,
  it answers the same until the review is ready, then ``200`` with ``{"status": "done", "seat",
  "others", "review"}``. A round reviewed once is kept (per table, seat and round) and answered at
  once; a whole answer once ready is kept too (:data:`ANSWERS_KEPT`), so asking again costs nothing.

The work is shared fairly: one table has at most :attr:`ReviewService.table_in_flight` rounds under
way at once (whoever asks, for whichever seats; the rest start as those finish), so one client
holding every seat of a 30-round table never queues ahead of another table's one round; and the
server at most :attr:`ReviewService.most_in_flight`: past that, a request none of whose rounds is
under way yet is answered 503 with a sentence, to ask again in a moment.

Who may see what, as the game's own visibility rules: a review needs a seat's token (a spectator
gets none); a round is reviewed once it is finished (never the round being played, whose review
would advise on it); a seat gets its own review only, and, once the game is over, the other
seats' reviews if the table allows it. A table allows it unless its configuration says
``"review_others": false``: by default it does, since after the game anyone with the table's
address may download the whole record, every hand included. Every refusal is a sentence in
``{"error"}`` (403, 404, 409; 400 for a seat or round that does not exist; 503 when the review
could not be computed, which a retry starts again). Never a 500: a worker pool that cannot start
(a server started from a script without an ``if __name__ == "__main__":`` guard, whose spawned
workers run the script again) or a review that fails is a 503 saying so, and the next request
starts a fresh pool.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import logging
import threading
from collections.abc import Callable

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from upriver.record import Record, record_of
from upriver.review import (
    GameReview,
    NoCardsError,
    RoundReview,
    RoundTask,
    Settings,
    review_json,
    review_round,
    round_tasks,
    seat_review,
    worker_pool,
)
from upriver.web.hosting.guard import refusal
from upriver.web.play.lookup import TableRoute, table_lookup
from upriver.web.play.tables import Manager, Table

__all__ = ["POOL_BROKEN", "ReviewRouter", "ReviewService", "ReviewUnavailableError", "review_router"]

log = logging.getLogger("upriver.web")

CACHED_ROUNDS = 4096
"""Round reviews kept in memory (a 22-round game of 4 seats needs 88); the oldest go first."""

ANSWERS_KEPT = 32
"""Whole answers kept ready to send again (each up to about half a megabyte); the oldest go first."""

BUSY = "the reviewer is busy with other tables' reviews: ask again in a moment"
"""What a request is told when the server has as many rounds under way as it takes."""

Key = tuple[str, int, int]
"""(table id, seat, round number)."""

POOL_BROKEN = (
    "the review's worker processes stopped before finishing (a server started from a Python script "
    'needs its start under if __name__ == "__main__":, since each worker imports the script again): '
    "try again"
)
"""What a request is told when the review's process pool broke."""


class ReviewUnavailableError(Exception):
    """The review cannot be computed now (its workers cannot start, or are busy); the sentence says why."""


@dataclasses.dataclass(frozen=True, slots=True)
class Progress:
    """How far a requested review is: decisions reviewed of ``total``; ``rounds`` once all are done."""

    done: int
    total: int
    rounds: tuple[RoundReview, ...] | None
    error: str | None = None


class ReviewService:
    """Round reviews computed in an executor (by default a process pool at low priority, made at
    the first request) and kept per table, seat and round."""

    def __init__(
        self,
        settings: Settings | None = None,
        executor: concurrent.futures.Executor | None = None,
        *,
        table_in_flight: int = 4,
        most_in_flight: int = 32,
    ) -> None:
        self.settings = settings or Settings()
        self.table_in_flight = table_in_flight
        """Rounds of one table under way at once."""
        self.most_in_flight = most_in_flight
        """Rounds under way at once on this server."""
        self._executor = executor
        self._own = executor is None
        """Whether this service made its executor (and so may replace it once broken)."""
        self._lock = threading.Lock()
        self._done: collections.OrderedDict[Key, RoundReview] = collections.OrderedDict()
        self._running: dict[Key, tuple[concurrent.futures.Future[RoundReview], int]] = {}

    @property
    def executor(self) -> concurrent.futures.Executor:
        """Where the rounds are reviewed (settable before the first review, e.g. to threads in tests)."""
        if self._executor is None:
            self._executor = worker_pool(nice=10)
        return self._executor

    @executor.setter
    def executor(self, executor: concurrent.futures.Executor) -> None:
        self._executor = executor
        self._own = False

    def _broken(self) -> None:
        """Forget a broken pool this service made, so the next request starts a fresh one."""
        if self._own and self._executor is not None:
            executor, self._executor = self._executor, None
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers this service started (reviews under way are dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def progress(self, table: Table, seat: int, rounds: tuple[int, ...]) -> Progress:
        """The review of ``rounds`` (finished ones) for ``seat``, starting whatever is not under way."""
        return self.progress_of(table.id, lambda: _finished(table), seat, rounds)

    def progress_of(
        self, key: str, record: Callable[[], Record], seat: int, rounds: tuple[int, ...]
    ) -> Progress:
        """The review of ``rounds`` of ``record()`` (made only if a round must start) for ``seat``,
        kept under ``key`` as a table's are under its id (an uploaded record's key is its content's)."""
        with self._lock:
            missing = [n for n in rounds if (key, seat, n) not in self._done]
            unstarted = [n for n in missing if (key, seat, n) not in self._running]
            waiting: dict[int, int] = {}  # rounds not started yet (past a bound), and their sizes
            if unstarted:
                waiting = self._start(key, record(), seat, unstarted)
                if len(waiting) == len(missing) and self._under_way() >= self.most_in_flight:
                    raise ReviewUnavailableError(BUSY)
            done = total = 0
            error = None
            for number in rounds:
                where = (key, seat, number)
                if where in self._done:
                    size = len(self._done[where].decisions)
                    done += size
                    total += size
                    continue
                if number in waiting:
                    total += waiting[number]
                    continue
                future, size = self._running[where]
                total += size
                if future.done():
                    del self._running[where]
                    exception = future.exception()
                    if isinstance(exception, concurrent.futures.BrokenExecutor):
                        log.error("table %s: the review's workers broke (seat %d, round %d)", *where)
                        self._broken()
                        error = POOL_BROKEN
                        continue
                    if exception is not None:
                        log.error("table %s: the review of seat %d, round %d failed: %s", *where, exception)
                        error = f"the review could not be computed ({type(exception).__name__}): try again"
                        continue
                    self._keep(where, future.result())
                    done += size
            if error is not None:
                return Progress(done, total, None, error)
            if all((key, seat, n) in self._done for n in rounds):
                return Progress(done, total, tuple(self._done[(key, seat, n)] for n in rounds))
            return Progress(done, total, None)

    def _keep(self, key: Key, review: RoundReview) -> None:
        self._done[key] = review
        self._done.move_to_end(key)
        while len(self._done) > CACHED_ROUNDS:
            self._done.popitem(last=False)

    def under_way(self) -> int:
        """Rounds being reviewed or waiting for a worker now (``/metrics``: the review's queue)."""
        with self._lock:
            return self._under_way()

    def _under_way(self, table_id: str | None = None) -> int:
        """Rounds submitted and not finished: of ``table_id``, or of every table."""
        return sum(
            1
            for key, (future, _) in self._running.items()
            if not future.done() and (table_id is None or key[0] == table_id)
        )

    def _start(self, key: str, record: Record, seat: int, numbers: list[int]) -> dict[int, int]:
        """Start reviewing ``numbers`` for ``seat``, as many as the bounds allow (the longest first);
        the rounds left waiting, with their decisions' counts."""
        tasks: dict[int, RoundTask] = {task.round_number: task for task in round_tasks(record, (seat,))}
        room = min(self.table_in_flight - self._under_way(key), self.most_in_flight - self._under_way())
        ordered = sorted(numbers, key=lambda n: -len(tasks[n].moments))
        waiting = {number: len(tasks[number].moments) for number in ordered[max(room, 0) :]}
        for number in ordered[: max(room, 0)]:
            task = tasks[number]
            try:
                future = self.executor.submit(review_round, task, self.settings)
            except (concurrent.futures.BrokenExecutor, RuntimeError, OSError) as error:
                # A pool whose workers died (or cannot start) refuses every submission.
                log.error("table %s: the review's workers cannot take work: %s", key, error)
                self._broken()
                raise ReviewUnavailableError(POOL_BROKEN) from None
            self._running[(key, seat, number)] = (future, len(task.moments))
        return waiting


def _finished(table: Table) -> Record:
    """The record of the table's finished rounds (the round being played is never reviewed)."""
    game = table.game
    assert game is not None
    record = record_of(game)
    return dataclasses.replace(record, rounds=record.rounds[: len(game.results)])


class ReviewRouter(APIRouter):
    """The review's route, holding the service that computes and keeps the reviews."""

    def __init__(self, service: ReviewService) -> None:
        super().__init__(route_class=TableRoute)
        self.service = service


def review_router(manager: Manager, service: ReviewService | None = None) -> ReviewRouter:
    """The review's route over ``manager``'s tables (``service``: where reviews are computed and kept)."""
    reviews = service or ReviewService()
    router = ReviewRouter(reviews)
    found = Depends(table_lookup(manager))  # the table the path names, or the one 404 refusal
    answers: collections.OrderedDict[tuple[object, ...], bytes] = collections.OrderedDict()
    """Whole answers once ready, by (table, seat, rounds, others, over): a finished review never changes."""

    @router.get("/api/tables/{table_id}/review")
    async def review(
        token: str | None = None, round: int | None = None, seat: int | None = None, table: Table = found
    ) -> Response:
        own = table.seat_of(token)
        if own is None:
            return refusal(
                "a review is for the players at this table: open it from your seat's link", 403, rule="review"
            )
        game = table.game
        if game is None:
            return refusal("the game has not started: there is nothing to review yet", 409, rule="review")
        n = game.rules.player_count
        target = own if seat is None else seat
        if not 0 <= target < n:
            return refusal(f"the table has seats 0 to {n - 1}, not {target}", 400, field="seat")
        others = game.is_over and bool(table.config.get("review_others", True))
        if target != own and not others:
            reason = (
                "this table keeps each player's review to themselves"
                if game.is_over
                else "another player's review opens only after the game, and only if the table allows it"
            )
            return refusal(reason, 403, rule="review")
        finished = len(game.results)
        if round is not None:
            if not 1 <= round <= game.rules.rounds:
                return refusal(
                    f"the game has rounds 1 to {game.rules.rounds}, not {round}", 400, field="round"
                )
            if round > finished:
                return refusal(
                    f"round {round} is not over yet: its review opens when its last trick is taken",
                    409,
                    rule="review",
                )
        rounds = (round,) if round is not None else tuple(range(1, finished + 1))
        if not rounds:
            return refusal(
                "no round has finished yet: a round's review opens when it ends", 409, rule="review"
            )
        kept = (table.id, target, rounds, others, game.is_over)
        if kept in answers:
            answers.move_to_end(kept)
            return Response(answers[kept], media_type="application/json")
        try:
            progress = reviews.progress(table, target, rounds)
            if progress.error is not None:
                return refusal(progress.error, 503, rule="review")
            if progress.rounds is None:
                return JSONResponse(
                    {"status": "running", "done": progress.done, "total": progress.total}, status_code=202
                )
            summary = seat_review(target, game.players[target], progress.rounds)
            whole = GameReview(players=game.players, settings=reviews.settings, seats=(summary,))
            answer = review_json(whole)
        except NoCardsError as error:  # a saved game continued here, whose first rounds were kept on paper
            return refusal(str(error), 409, rule="review")
        except ReviewUnavailableError as error:
            return refusal(str(error), 503, rule="review")
        except Exception as error:  # a review that breaks is said in a sentence, never a 500
            log.exception("table %s: the review of seat %d failed", table.id, target)
            return refusal(
                f"the review could not be computed ({type(error).__name__}): try again", 503, rule="review"
            )
        ready = JSONResponse(
            {"status": "done", "seat": target, "others": others, "over": game.is_over, "review": answer}
        )
        answers[kept] = bytes(ready.body)
        while len(answers) > ANSWERS_KEPT:
            answers.popitem(last=False)
        return ready

    return router
