"""The issue's strength targets, measured with the arena: seeds and game counts written down here.

Each target is one arena (duplicate deals, every seating rotation) whose verdict is
read from the paired per-set differences; the JSON printed on standard output holds,
per target, the arena command that reproduces it, the figures and ``met``.

    python bench/strength.py                         # every target, counts as below
    python bench/strength.py ladder-expert-hard expert-vs-basic --jobs 2
    python bench/strength.py --games 8               # a smoke run of every target
    python bench/strength.py --as expert=expert:2000 --as hard=hard:400   # reproducible budgets

``--as NAME=SPEC`` replaces a bot of the table below by any arena spec (e.g. an
iteration budget, which makes a run reproducible from its seed; a time budget does not).
Rules: ``river`` is 4 players, 10 cards down to 1 and back up to 10, the hook, 10 + bid
scoring (``--preset countdown --scoring ten-plus-bid``); ``openspiel`` is single
4-player hands of 10 cards under OpenSpiel's ``oh_hell`` rules (hook, 1 a trick + 10,
any lead), which needs the ``bench`` extra for OpenSpiel's own seats; ``expert-vs-standin``
plays the compiled stand-in of OpenSpiel's ISMCTS instead (``ismcts-standin``, which knows the
cards in play as OpenSpiel's resampler does), a figure to iterate on in minutes;
``expert-vs-fair`` plays the fair reference, ``openspiel-ismcts-fair`` (800 duplicate deals).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console

from river import RIVER_RULES
from upriver.arena.core import ArenaConfig, ArenaResult, run_arena
from upriver.arena.openspiel import openspiel_rules
from upriver.arena.report import result_json
from upriver.arena.runner import default_jobs, run_with_progress
from upriver.arena.stats import PairStats
from upriver.rules import DealerBid, Rules, Schedule, Scoring

RULES: dict[str, tuple[Rules, str]] = {
    "river": (
        RIVER_RULES,
        "--preset countdown --scoring ten-plus-bid",
    ),
    "river-hand": (
        Rules(
            player_count=4,
            schedule=Schedule.EXPLICIT,
            explicit_sizes=(10,),
            dealer_bid=DealerBid.HOOK,
            scoring=Scoring.TEN_PLUS_BID,
        ),
        "--preset countdown --scoring ten-plus-bid --schedule 10",
    ),
    "openspiel": (openspiel_rules(4, 10), ""),
}

KEPT = ("bot", "points_per_game", "points_per_hand", "win_share", "exact_rate", "within_one_rate")
Verdict = Callable[[ArenaResult], tuple[bool, str]]


def _pair(result: ArenaResult) -> PairStats:
    return result.summary.pairs[0]


def _significant_win(result: ArenaResult) -> tuple[bool, str]:
    diff = _pair(result).difference
    return diff.low is not None and diff.low > 0, "first bot ahead, 95% interval of the difference above 0"


def _at_least(points: float) -> Verdict:
    def verdict(result: ArenaResult) -> tuple[bool, str]:
        diff = _pair(result).difference
        return diff.mean >= points, f"first bot ahead by at least {points:+g} points a game"

    return verdict


def _beats_openspiel(result: ArenaResult) -> tuple[bool, str]:
    diff = _pair(result).difference  # a game is one hand here
    ours, theirs = result.summary.bots
    faster = ours.mean_move_s <= theirs.mean_move_s
    met = diff.mean >= 1.0 and diff.low is not None and diff.low > 0 and faster
    return met, "≥ +1.0 point a hand, 95% interval above 0, no more time a move than OpenSpiel's"


def _beats_standin(result: ArenaResult) -> tuple[bool, str]:
    diff = _pair(result).difference  # a game is one hand here
    met = diff.mean >= 1.0 and diff.low is not None and diff.low > 0
    return met, "≥ +1.0 point a hand against the stand-in, 95% interval above 0 (iteration figure)"


def _beats_fair(result: ArenaResult) -> tuple[bool, str]:
    diff = _pair(result).difference  # a game is one hand here
    met = diff.mean >= 1.5 and diff.low is not None and diff.low > 0
    return met, "≥ +1.5 points a hand against the fair OpenSpiel ISMCTS, 95% interval above 0"


def _fast_enough(result: ArenaResult) -> tuple[bool, str]:
    return result.summary.bots[0].p95_move_s <= 1.0, "first bot's p95 time a move ≤ 1 s (10-card hands)"


@dataclasses.dataclass(frozen=True, slots=True)
class Target:
    """One strength target of the issue: who plays, under which rules, how many games, and the verdict."""

    name: str
    bots: tuple[str, str]
    rules: str
    games: int
    seed: int
    verdict: Verdict


TARGETS = (
    Target("ladder-expert-hard", ("expert", "hard"), "river", 200, 101, _significant_win),
    Target("ladder-hard-normal", ("hard", "normal"), "river", 200, 102, _significant_win),
    Target("ladder-normal-easy", ("normal", "easy"), "river", 200, 103, _significant_win),
    Target("expert-vs-basic", ("expert", "basic"), "river", 100, 104, _at_least(25)),
    Target(
        "expert-vs-openspiel", ("expert", "openspiel-ismcts:1000"), "openspiel", 400, 105, _beats_openspiel
    ),
    Target("expert-vs-standin", ("expert", "ismcts-standin:1000"), "openspiel", 800, 107, _beats_standin),
    Target("expert-vs-fair", ("expert", "openspiel-ismcts-fair:1000"), "openspiel", 1600, 108, _beats_fair),
    Target("expert-speed", ("expert", "basic"), "river-hand", 40, 106, _fast_enough),
)
"""Every target, with its game count and seed: the written-down benchmark of the issue."""


def run_target(
    target: Target, bots: tuple[str, ...], games: int, jobs: int, console: Console
) -> dict[str, Any]:
    """Play one target's arena and return its figures and verdict as JSON-ready data."""
    rules, options = RULES[target.rules]
    config = ArenaConfig(bots=bots, rules=rules, games=games, seed=target.seed, jobs=jobs)
    console.print(f"[bold]{target.name}[/bold]: {' vs '.join(bots)}, {games} games, seed {target.seed}")
    result = run_arena(config, runner=lambda tasks: run_with_progress(tasks, jobs=jobs, console=console))
    met, wanted = target.verdict(result)
    data = result_json(result)
    pair = data["pairs"][0]
    command = f"upriver arena {' '.join(bots)} --games {games} --seed {target.seed} {options}".strip()
    return {
        "target": target.name,
        "wanted": wanted,
        "met": met,
        "command": command,
        "games_played": data["games_played"],
        "interrupted": data["interrupted"],
        "difference_per_game": pair["points_per_game_difference"],
        "bots": [
            {
                key: row[key]
                for key in ("bot", "points_per_game", "points_per_hand", "win_share", "exact_rate")
            }
            | {
                "mean_move_ms": _ms(row["mean_move_s"]),
                "p95_move_ms": _ms(row["p95_move_s"]),
                "rating_mu": row["rating"]["mu"],
            }
            for row in data["results"]
        ],
        "elapsed_s": round(result.elapsed_s, 1),
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None or math.isnan(seconds) else round(seconds * 1000, 3)


def main(argv: list[str] | None = None) -> int:
    """Run the chosen targets (all by default) and print their results as one JSON document."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("targets", nargs="*", help=f"targets to run: {', '.join(t.name for t in TARGETS)}")
    parser.add_argument("--games", type=int, help="games for every target instead of its own count")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes (default: cores)")
    parser.add_argument(
        "--as", dest="aliases", action="append", default=[], metavar="NAME=SPEC", help="play SPEC for NAME"
    )
    args = parser.parse_args(argv)
    known = {target.name: target for target in TARGETS}
    unknown = [name for name in args.targets if name not in known]
    if unknown:
        parser.error(f"unknown target {unknown[0]!r}: expected one of {', '.join(known)}")
    aliases: dict[str, str] = {}
    for alias in args.aliases:
        name, sep, spec = alias.partition("=")
        if not sep or not spec:
            parser.error(f"--as takes NAME=SPEC, e.g. expert=expert:2000, not {alias!r}")
        aliases[name.strip()] = spec.strip()
    console = Console(stderr=True, highlight=False)
    chosen = [known[name] for name in args.targets] or list(TARGETS)
    report = []
    for target in chosen:
        bots = tuple(aliases.get(bot, bot) for bot in target.bots)
        report.append(run_target(target, bots, args.games or target.games, args.jobs, console))
    json.dump({"benchmark": "strength", "jobs": args.jobs, "targets": report}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
