"""Does playing to win the game win more games? ``expert`` with a rivalry weight against ``expert`` without.

    python bench/rivalry.py --rivalry 1.0 --deals 300 --iterations 500 [--workers 1] [--log FILE]

Whole games under the river rules (bench/river.py) on duplicate deals: A (with the rivalry
weight) in seats 0 and 2, then in 1 and 3, against B (the same bot without it). Prints A's
share of the wins (ties split; 0.5 is even) and A's lead in points a game, each with its 95%
interval over the deals, and the time a move. With ``--log`` every game is appended as it
ends and games already there are not played again.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from river import RIVER_RULES
from upriver import Game
from upriver.arena.stats import estimate
from upriver.bots import ExpertBot, act

Task = tuple[float, int, int, int]
"""The rivalry weight, the bots' iterations, the deal's seed and the flip."""


def _game(task: Task) -> dict[str, Any]:
    rivalry, iterations, seed, flip = task
    game = Game(RIVER_RULES, seed=seed)
    sides = ["a" if (seat + flip) % 2 == 0 else "b" for seat in range(4)]
    bots = [
        ExpertBot(
            seed * 8 + seat,
            config=dataclasses.replace(ExpertBot.defaults, rivalry=rivalry if side == "a" else 0.0),
            budget=iterations,
        )
        for seat, side in enumerate(sides)
    ]
    times: dict[str, list[float]] = {"a": [], "b": []}
    while not game.is_over:
        seat = game.awaiting[0]
        start = time.perf_counter()
        act(game, seat, bots[seat])
        times[sides[seat]].append(time.perf_counter() - start)
    totals = game.totals
    top = max(totals)
    winners = [s for s in range(4) if totals[s] == top]
    wins = sum(1 for s in winners if sides[s] == "a") / len(winners)
    points = statistics.mean(totals[s] for s in range(4) if sides[s] == "a") - statistics.mean(
        totals[s] for s in range(4) if sides[s] == "b"
    )
    return {
        "rivalry": rivalry,
        "iterations": iterations,
        "seed": seed,
        "flip": flip,
        "a_wins": wins,
        "a_points": points,
        **times,
    }


def _interval(values: list[float]) -> dict[str, float | None]:
    found = estimate(values)
    return {
        "mean": round(found.mean, 4),
        "low": None if found.low is None else round(found.low, 4),
        "high": None if found.high is None else round(found.high, 4),
        "n": found.n,
    }


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A's win share and points lead over the deals whose two games are both done."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_deal.setdefault(game["seed"], []).append(game)
    pairs = [pair for pair in by_deal.values() if len(pair) == 2]
    moves = {side: [t for pair in pairs for g in pair for t in g[side]] for side in ("a", "b")}

    def p95(values: list[float]) -> float:
        return sorted(values)[int(0.95 * (len(values) - 1))] if values else math.nan

    return {
        "bench": "rivalry",
        "rules": "river",
        "rivalry": games[0]["rivalry"] if games else None,
        "iterations": games[0]["iterations"] if games else None,
        "deals": len(pairs),
        "a_win_share": _interval([statistics.mean(g["a_wins"] for g in pair) for pair in pairs]),
        "a_points_a_game": _interval([statistics.mean(g["a_points"] for g in pair) for pair in pairs]),
        "move_s": {
            side: {"mean": round(statistics.mean(v), 4), "p95": round(p95(v), 4)}
            for side, v in moves.items()
            if v
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rivalry", type=float, default=1.0)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args(argv)
    done: list[dict[str, Any]] = []
    if args.log is not None and args.log.exists():
        done = [json.loads(line) for line in args.log.read_text("utf-8").splitlines() if line.strip()]
    clash = [g for g in done if (g["rivalry"], g["iterations"]) != (args.rivalry, args.iterations)]
    if clash:
        print(
            f"{args.log} holds games of another setting: rivalry {clash[0]['rivalry']}, "
            f"iterations {clash[0]['iterations']}",
            file=sys.stderr,
        )
        return 2
    have = {(g["seed"], g["flip"]) for g in done}
    tasks: list[Task] = [
        (args.rivalry, args.iterations, args.seed + d, flip)
        for d in range(args.deals)
        for flip in (0, 1)
        if (args.seed + d, flip) not in have
    ]
    games = list(done)
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for game in pool.imap_unordered(_game, tasks):
            games.append(game)
            if args.log is not None:
                with args.log.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(game) + "\n")
    print(json.dumps(summary(games), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
