"""``master`` settings against a bot on duplicate deals of OpenSpiel's hand, to tune before the arena.

Each deal is played twice with the two bots in alternate seats (A B A B, then B A B A), under
OpenSpiel's ``oh_hell`` rules (4 players, one 10-card hand, hook, 1 a trick + 10): the luck of
the cards cancels. A side is ``master`` with settings after ``+`` (``master+opponents=policy``,
``master+exploration=0.4+iterations=10000``: any field of :class:`upriver.bots.master.MasterConfig`)
or any registered ``NAME[:BUDGET]``. Prints JSON: A's points a hand less B's with a 95% interval
(Student t over deals) and each side's mean time a card decision.

    python bench/master.py master expert --deals 100 --jobs 2
    python bench/master.py master+opponents=policy master --deals 100 --seed 7
    python bench/master.py master expert --swap expert --deals 200

``--swap FIELD`` plays each deal twice with the same three FIELD bots and one seat (seed mod 4)
played by A, then by B, with the same seeds: ``master`` and ``expert`` then bid alike (the same
bid model on the same deals), so the difference is their card play alone, with far less noise.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from upriver import Game
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import Bot, make_bot
from upriver.bots.master import MasterBot, MasterConfig

T95 = {n: t for n, t in ((10, 2.228), (20, 2.086), (30, 2.042), (60, 2.0), (120, 1.98))}


def bot_from(spec: str, seed: int) -> Bot:
    """A bot from ``master+FIELD=VALUE…`` or a registry spec."""
    head, *options = spec.split("+")
    if not options:
        return make_bot(head, seed)
    if head != "master":
        raise ValueError(f"settings after + are for master, not {head!r}")
    fields = {f.name: f.type for f in dataclasses.fields(MasterConfig)}
    changes: dict[str, object] = {}
    for option in options:
        name, _, value = option.partition("=")
        if name not in fields:
            raise ValueError(f"MasterConfig has no field {name!r}: one of {', '.join(fields)}")
        current = getattr(MasterConfig(), name)
        changes[name] = value if isinstance(current, str) else (float(value) if "." in value else int(value))
    return MasterBot(seed, config=dataclasses.replace(MasterConfig(), **changes))  # type: ignore[arg-type]


def play_deal(args: tuple[str, str, int]) -> dict[str, float]:
    """One deal played twice, the seats swapped: A's and B's mean score a hand, time a card each."""
    a, b, seed = args
    scores = {"A": 0.0, "B": 0.0}
    clock = {"A": [0.0, 0], "B": [0.0, 0]}
    for flip in (0, 1):
        game = Game(openspiel_rules(4, 10), seed=seed)
        sides = ["A" if (s + flip) % 2 == 0 else "B" for s in range(4)]
        bots = [bot_from(a if side == "A" else b, seed * 8 + 2 * s + flip) for s, side in enumerate(sides)]
        while not game.is_over:
            seat = game.awaiting[0]
            view = game.view(seat)
            start = time.perf_counter()
            move = bots[seat].act(view)
            if view.legal_cards and len(view.legal_cards) > 1:
                clock[sides[seat]][0] += time.perf_counter() - start
                clock[sides[seat]][1] += 1
            game.move(move, seat=seat)
        for s, side in enumerate(sides):
            scores[side] += game.results[-1].scores[s] / 4
    return {
        "diff": scores["A"] - scores["B"],
        "a_ms": 1000 * clock["A"][0] / max(clock["A"][1], 1),
        "b_ms": 1000 * clock["B"][0] / max(clock["B"][1], 1),
    }


def swap_deal(args: tuple[str, str, str, int]) -> dict[str, float]:
    """One deal played twice with the same three ``field`` bots, one seat (by the seed) played by A,
    then by B, each with the same seed: A's score less B's there, the time a card of each."""
    a, b, field, seed = args
    seat = seed % 4
    got: dict[str, float] = {}
    clock: dict[str, list[float]] = {}
    for side, spec in (("A", a), ("B", b)):
        game = Game(openspiel_rules(4, 10), seed=seed)
        bots = [bot_from(spec if s == seat else field, seed * 8 + s) for s in range(4)]
        clock[side] = [0.0, 0]
        while not game.is_over:
            who = game.awaiting[0]
            view = game.view(who)
            start = time.perf_counter()
            move = bots[who].act(view)
            if who == seat and view.legal_cards and len(view.legal_cards) > 1:
                clock[side][0] += time.perf_counter() - start
                clock[side][1] += 1
            game.move(move, seat=who)
        got[side] = game.results[-1].scores[seat]
    return {
        "diff": got["A"] - got["B"],
        "a_ms": 1000 * clock["A"][0] / max(clock["A"][1], 1),
        "b_ms": 1000 * clock["B"][0] / max(clock["B"][1], 1),
    }


def t95(n: int) -> float:
    """Student t's 97.5% quantile for ``n`` degrees of freedom (nearest tabulated; 1.96 beyond)."""
    for limit, value in sorted(T95.items()):
        if n <= limit:
            return value
    return 1.96


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the paired difference as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--swap", metavar="FIELD", help="one seat A then B among three FIELD bots, the same seeds (card play)"
    )
    args = parser.parse_args(argv)
    bot_from(args.a, 0), bot_from(args.b, 0)  # a bad spec fails before any deal
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.swap:
            bot_from(args.swap, 0)
            rows = list(
                pool.map(swap_deal, [(args.a, args.b, args.swap, args.seed + d) for d in range(args.deals)])
            )
        else:
            rows = list(pool.map(play_deal, [(args.a, args.b, args.seed + d) for d in range(args.deals)]))
    n = len(rows)
    diffs = [r["diff"] for r in rows]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else float("nan")
    half = t95(n - 1) * sd / math.sqrt(n)
    out = {
        "benchmark": "master",
        "a": args.a,
        "b": args.b,
        "design": f"swap among {args.swap}" if args.swap else "duplicate, seats swapped",
        "deals": n,
        "seed": args.seed,
        "points_a_hand_a_less_b": round(mean, 3),
        "interval95": [round(mean - half, 3), round(mean + half, 3)],
        "a_mean_card_ms": round(sum(r["a_ms"] for r in rows) / n, 1),
        "b_mean_card_ms": round(sum(r["b_ms"] for r in rows) / n, 1),
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
