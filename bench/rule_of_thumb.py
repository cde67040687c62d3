"""The rule of thumb that knows the scoring, against the rule of thumb before it, on duplicate deals.

The earlier ``basic`` bot is read from the project's git history (``--before REV``,
default the commit before the scoring-aware rule) and loaded beside today's, so the
two play in one process; nothing of it is kept in the package. Each deal (a game
seed) is played twice, today's bot in seats 0 and 2, then in seats 1 and 3; a deal's
figure is today's mean total minus the earlier bot's, averaged over its two games.
The report gives, per rule set, the mean a game and a hand with a 95% interval
(1.96 standard errors over deals).

    python bench/rule_of_thumb.py --deals 2000
    python bench/rule_of_thumb.py --rules countdown openspiel --deals 4000 --workers 2

Rule sets: ``river`` (4 players, 10 … 1 … 10, hook, 10 + bid), ``classic`` (source 000's
preset, 4 players), ``countdown`` (the preset, 4 players: 1 a trick + 10) and
``openspiel`` (single 10-card hands under OpenSpiel's ``oh_hell`` rules).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

from river import RIVER_RULES
from upriver import Game, Rules, preset
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import BasicBot, Bot, act

RULES: dict[str, Rules] = {
    "river": RIVER_RULES,
    "classic": preset("classic", 4),
    "countdown": preset("countdown", 4),
    "openspiel": openspiel_rules(4, 10),
}
BEFORE = "4211868^"
"""The commit before the rule of thumb learned the scoring."""

_before: type[Bot] | None = None


def load_before(rev: str) -> type[Bot]:
    """The ``BasicBot`` class of ``src/upriver/bots/basic.py`` at ``rev``, loaded under another name."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{rev}:src/upriver/bots/basic.py"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("upriver_basic_before")
    exec(compile(source, f"{rev}:basic.py", "exec"), module.__dict__)  # our own history, read from git
    cls: type[Bot] = module.BasicBot
    return cls


def play(task: tuple[str, int, int]) -> tuple[int, float, int]:
    """One game: today's bot in the even seats (``flip`` 0) or the odd ones; (seed, difference, rounds)."""
    rules_name, seed, flip = task
    assert _before is not None
    game = Game(RULES[rules_name], seed=seed)
    bots: list[Bot] = [BasicBot(seat) if (seat + flip) % 2 == 0 else _before(seat) for seat in range(4)]
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])
    mine = [game.totals[s] for s in range(4) if (s + flip) % 2 == 0]
    theirs = [game.totals[s] for s in range(4) if (s + flip) % 2 == 1]
    return seed, statistics.mean(mine) - statistics.mean(theirs), len(game.results)


def _init(rev: str) -> None:
    global _before
    _before = load_before(rev)


def duel(rules_name: str, deals: int, seed: int, workers: int, rev: str) -> dict[str, Any]:
    """Today's rule of thumb against the one at ``rev`` over ``deals`` duplicate deals."""
    tasks = [(rules_name, seed + d, flip) for d in range(deals) for flip in (0, 1)]
    with multiprocessing.get_context("spawn").Pool(workers, initializer=_init, initargs=(rev,)) as pool:
        games = pool.map(play, tasks, chunksize=16)
    per_deal: dict[int, list[float]] = {}
    rounds = games[0][2]
    for game_seed, diff, _ in games:
        per_deal.setdefault(game_seed, []).append(diff)
    values = [statistics.mean(v) for v in per_deal.values()]
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    identical = sum(1 for v in values if v == 0)
    return {
        "rules": rules_name,
        "deals": deals,
        "seed": seed,
        "before": rev,
        "new_minus_old_per_game": round(mean, 3),
        "ci95_per_game": [round(mean - half, 3), round(mean + half, 3)],
        "new_minus_old_per_hand": round(mean / rounds, 4),
        "ci95_per_hand": [round((mean - half) / rounds, 4), round((mean + half) / rounds, 4)],
        "deals_with_no_difference": identical,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the duel under each chosen rule set and print one JSON document."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", choices=sorted(RULES), default=sorted(RULES))
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--before", default=BEFORE, help=f"git revision of the earlier bot (default {BEFORE})"
    )
    args = parser.parse_args(argv)
    out = [duel(name, args.deals, args.seed, args.workers, args.before) for name in args.rules]
    json.dump({"benchmark": "rule_of_thumb", "duels": out}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
