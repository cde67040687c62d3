"""Review speed and accuracy: a whole 22-round 4-player game reviewed for every seat, on every core.

Figures (JSON on standard output):

- ``seconds``: wall time of ``upriver.review.review_record`` for all four seats at the budget,
  the workers started fresh (``spawn``, as ``upriver review`` does) — the target is ≤ 30 s;
  ``start_seconds``: of that, starting the pool and loading the kernel in each worker (a web
  server keeps its pool, so a review there costs ``seconds - start_seconds``); ``worker_cpu_seconds``:
  the CPU time the workers spent (start included), which other jobs on a shared machine do not
  inflate: on an idle machine the wall time is about that divided by ``jobs``;
- ``decisions``, ``played_out``: decisions reviewed, and those played out (forced cards are not);
- accuracy of the budget, from the same review: ``cost_error_*``, the standard error of each
  played-out decision's cost (the expected-score difference between the best choice and the
  one made, paired over the shared deals), over the decisions that cost something: median, 95th
  percentile and mean; and, from a second
  review with another seed, ``seed_agreement_flags`` (the share of decisions flagged alike),
  ``seed_cost_diff_mean`` (mean absolute difference of a decision's cost between the two
  seeds), ``seed_total_diff_mean`` and ``_max`` (the difference of a seat's points lost in the game).

The game is a 22-round classic game (1 … 11 … 1 cards, 4 players) played by the ``basic`` bot in
every seat from a fixed seed, unless ``--record`` names a record. ``distinct_median`` is the median
share of distinct deals among a decision's deals (the expert resamples deals by the bids made; a
golden record's random bids leave few deals that fit them, which ``--record
tests/golden/classic.json`` shows).

    python bench/review.py [--budget N] [--jobs J] [--record FILE] [--no-replicate]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from upriver import Game, preset
from upriver.bots import act, make_bot
from upriver.record import Record, load, record_of
from upriver.review import DEFAULT_DEALS, GameReview, Settings, review_record, worker_pool


def bots_game(seed: int = 7) -> Record:
    """A whole classic 4-player game of the ``basic`` bot in every seat."""
    game = Game(preset("classic", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=seed)
    bots = [make_bot("basic", seed=seed + seat) for seat in range(4)]
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])
    return record_of(game)


def _decisions(review: GameReview) -> list[Any]:
    return [d for seat in review.seats for r in seat.rounds for d in r.decisions]


def _warm(_: int) -> int:
    from upriver.fast import rollout  # noqa: F401  (loads the compiled kernel in the worker)

    return os.getpid()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_DEALS, help="deals a decision")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--record", type=Path, default=None, help="the game record to review")
    parser.add_argument("--no-replicate", action="store_true", help="skip the second review (another seed)")
    args = parser.parse_args(argv)
    record = bots_game() if args.record is None else load(args.record)
    settings = Settings(deals=args.budget, seed=0)

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with worker_pool(args.jobs) as pool:
        list(pool.map(_warm, range(args.jobs)))
        started = time.perf_counter()
        review = review_record(record, settings=settings, executor=pool)
        end = time.perf_counter()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    other = None
    if not args.no_replicate:
        other = review_record(record, settings=Settings(deals=args.budget, seed=1), jobs=args.jobs)

    decisions = _decisions(review)
    played = [d for d in decisions if d.evaluation is not None and len(d.evaluation.candidates) > 1]
    # A choice that was the best has no cost to be wrong about: the error of those that cost something.
    errors = sorted(d.evaluation.of(d.chosen).loss_error for d in played if d.cost > 0)
    result: dict[str, Any] = {
        "bench": "review",
        "record": "basic bots, seed 7" if args.record is None else args.record.name,
        "players": len(record.players),
        "rounds": len(record.rounds),
        "budget": args.budget,
        "jobs": args.jobs,
        "cores": os.cpu_count(),
        "seconds": round(end - start, 2),
        "start_seconds": round(started - start, 2),
        "worker_cpu_seconds": round(cpu, 1),
        "target_seconds": 30,
        "met": end - start <= 30,
        "decisions": len(decisions),
        "played_out": sum(d.evaluation is not None for d in decisions),
        "flagged": sum(d.flagged for d in decisions),
        "cost_error_median": round(statistics.median(errors), 3),
        "cost_error_p95": round(errors[int(0.95 * (len(errors) - 1))], 3),
        "cost_error_mean": round(statistics.fmean(errors), 3),
        "distinct_median": round(
            statistics.median(d.evaluation.distinct / d.evaluation.deals for d in played), 3
        ),
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if other is not None:
        again = _decisions(other)
        same = sum(a.flagged == b.flagged for a, b in zip(decisions, again, strict=True))
        result["seed_agreement_flags"] = round(same / len(decisions), 4)
        result["seed_cost_diff_mean"] = round(
            statistics.fmean(abs(a.cost - b.cost) for a, b in zip(decisions, again, strict=True)), 3
        )
        result["seed_total_diff_mean"] = round(
            statistics.fmean(
                abs((a.bidding + a.play) - (b.bidding + b.play))
                for a, b in zip(review.seats, other.seats, strict=True)
            ),
            2,
        )
        result["seed_total_diff_max"] = round(
            max(
                abs((a.bidding + a.play) - (b.bidding + b.play))
                for a, b in zip(review.seats, other.seats, strict=True)
            ),
            2,
        )
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
