"""Arena games a second on worker processes and on a local Ray, side by side, on the same plan.

Both backends play the same duplicate plan (same bots, rules and seed) with the same
number of workers, in the same run, alternating ``--repeats`` times so that a load that
changes during the run falls on both; each figure is the best of its repeats. The time
to start the backend (spawning the processes, ``ray.init``) is given apart from the games,
and the results of both are checked to be the same games. Needs the ``cluster`` extra.

    python bench/arena_backends.py [--games 80] [--jobs 2] [--repeats 2] [--bots basic random]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing
import sys
import time
from typing import Any

from upriver.arena.match import GameResult
from upriver.arena.runner import default_jobs, run_games
from upriver.arena.schedule import plan
from upriver.cli.backend import ray_executor
from upriver.rules import preset


def _key(results: list[GameResult]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """What the games came to, in plan order (timings left out)."""
    return [(r.index, r.totals, r.exact) for r in sorted(results, key=lambda r: r.index)]


def _nothing(value: int) -> int:
    return value


def main(argv: list[str] | None = None) -> int:
    """Time both backends on the same plan and print the figures as JSON; exit 1 if they disagree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--bots", nargs="+", default=["basic", "random"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = preset("classic", 4)
    tasks = plan(tuple(args.bots), rules, args.games, args.seed)
    runs: dict[str, list[dict[str, float]]] = {"processes": [], "ray": []}
    outcomes: dict[str, Any] = {}
    for _ in range(args.repeats):
        start = time.perf_counter()
        context = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
            # Trivial calls first (on both backends), so that the start is counted apart from the games.
            list(pool.map(_nothing, range(args.jobs)))
            started = time.perf_counter()
            outcome = run_games(tasks, jobs=args.jobs, executor=pool)
            played = time.perf_counter()
        runs["processes"].append({"start_s": started - start, "games_s": played - started})
        outcomes["processes"] = _key(outcome.results)
        start = time.perf_counter()
        with ray_executor(args.jobs) as executor:
            list(cf.as_completed([executor.submit(_nothing, i) for i in range(args.jobs)]))
            started = time.perf_counter()
            outcome = run_games(tasks, jobs=executor.slots, executor=executor)
            played = time.perf_counter()
        runs["ray"].append({"start_s": started - start, "games_s": played - started})
        outcomes["ray"] = _key(outcome.results)
    figures: dict[str, Any] = {}
    for name, timings in runs.items():
        best = min(t["games_s"] for t in timings)
        figures[name] = {
            "games_per_s": round(len(tasks) / best, 2),
            "games_s": round(best, 3),
            "start_s": round(min(t["start_s"] for t in timings), 2),
            "repeats": [{key: round(value, 3) for key, value in t.items()} for t in timings],
        }
    same = outcomes["processes"] == outcomes["ray"]
    report = {
        "bench": "arena_backends",
        "bots": args.bots,
        "rules": "classic, 4 players",
        "games": len(tasks),
        "jobs": args.jobs,
        "same_results": same,
        "processes": figures["processes"],
        "ray": figures["ray"],
        "ray_over_processes": round(figures["ray"]["games_per_s"] / figures["processes"]["games_per_s"], 3),
    }
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
