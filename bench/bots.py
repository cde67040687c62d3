"""Bot strength and speed: duplicate duels, kernel against Python-engine rollouts, time per move.

Every duel is duplicate: each deal (a game seed) is played twice, bot A in seats 0 and 2
then in seats 1 and 3, so luck of the cards cancels. A deal's figure is A's mean total
minus B's mean total, averaged over its two games; the report gives the mean over deals
with a 95% interval (1.96 standard errors) and each side's time per move.

    python bench/bots.py duel expert:2000 basic --rules river --deals 40
    python bench/bots.py duel pimc:0.05 pimc-py:0.05 --rules hand --deals 100
    python bench/bots.py timing expert --hands 20

Rule sets: ``river`` is 4 players, 10 down to 1 and back to 10, the hook, 10 + bid
scoring; ``hand`` is single 10-card hands of the same rules.
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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from river import RIVER_RULES
from upriver import Game, Rules
from upriver.bots import Bot, act, make_bot
from upriver.bots.basic import BasicBot
from upriver.bots.pimc import Choice, PimcBot, SearchConfig
from upriver.cards import Card, cards_in
from upriver.fast import Position
from upriver.rules import DealerBid, Schedule, Scoring
from upriver.view import SeatView

RULES = {
    "river": RIVER_RULES,
    "hand": Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(10,),
        dealer_bid=DealerBid.HOOK,
        scoring=Scoring.TEN_PLUS_BID,
    ),
}


class PimcPyBot(PimcBot):
    """PIMC exactly as ``pimc`` but completing each deal through the Python engine
    (:class:`upriver.Game` with :class:`BasicBot` in every seat): the yardstick for what the
    compiled kernel buys at the same time per move. For this benchmark only."""

    kind = "pimc-py"
    defaults = SearchConfig(first_batch=2)  # about 50 ms for a 10-card bid: the engine plays 400 hands/s

    def evaluate(
        self, view: SeatView, position: Position, worlds: NDArray[np.uint64], choice: Choice
    ) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.float64]]:
        """Replay the round so far on each deal in the engine, then finish it with rule-of-thumb bots."""
        n, size = view.player_count, view.hand_size
        rules = dataclasses.replace(
            view.rules, schedule=Schedule.EXPLICIT, explicit_sizes=(size,), max_cards=None
        )
        played = [0] * n
        for seat, card in view.played:
            played[seat] |= card.mask
        basic = BasicBot(0)
        bids = np.empty((len(worlds), n), np.int8)
        tricks = np.empty((len(worlds), n), np.int8)
        scores = np.empty((len(worlds), n), np.float64)
        for w, world in enumerate(worlds):
            game = Game(rules, seed=0, dealer=view.dealer, auto_deal=False)
            game.deal(hands=[cards_in(int(world[s]) | played[s]) for s in range(n)], turned=view.turned)
            for seat in view.bidding_order:
                bid = view.bids[seat]
                if seat == view.seat and not isinstance(choice, Card):
                    bid = choice
                if bid is None:
                    break
                game.bid(bid, seat=seat)
            while game.awaiting and not game.results and game.phase.value == "bidding":
                act(game, game.awaiting[0], basic)
            for seat, card in view.played:
                game.play(card, seat=seat)
            if isinstance(choice, Card):
                game.play(choice, seat=view.seat)
            while not game.is_over:
                act(game, game.awaiting[0], basic)
            result = game.results[0]
            bids[w], tricks[w], scores[w] = result.bids, result.tricks_won, result.scores
        return bids, tricks, scores


def bot(spec: str, seed: int) -> Bot:
    """A bot from ``NAME[:BUDGET]``, including the benchmark-only ``pimc-py``."""
    kind, _, arg = spec.partition(":")
    if kind == "pimc-py":
        return PimcPyBot(seed, budget=(float(arg.rstrip("s")) if "." in arg else int(arg)) if arg else None)
    return make_bot(spec, seed)


def play(task: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One game: A in the even seats (``flip`` 0) or the odd ones; totals and A's and B's move times."""
    a, b, rules, seed, flip = task
    game = Game(RULES[rules], seed=seed)
    specs = [a if (seat + flip) % 2 == 0 else b for seat in range(4)]
    bots = [bot(spec, seed * 8 + seat) for seat, spec in enumerate(specs)]
    times: dict[str, list[float]] = {"a": [], "b": []}
    while not game.is_over:
        seat = game.awaiting[0]
        start = time.perf_counter()
        act(game, seat, bots[seat])
        side = "a" if (seat + flip) % 2 == 0 else "b"
        times[side].append(time.perf_counter() - start)
    totals = game.totals
    mine = [totals[s] for s in range(4) if (s + flip) % 2 == 0]
    theirs = [totals[s] for s in range(4) if (s + flip) % 2 == 1]
    return {"seed": seed, "flip": flip, "diff": statistics.mean(mine) - statistics.mean(theirs), **times}


def duel(a: str, b: str, rules: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """A against B over ``deals`` duplicate deals; mean points a game for A over B with a 95% interval."""
    tasks = [(a, b, rules, seed + d, flip) for d in range(deals) for flip in (0, 1)]
    with multiprocessing.Pool(workers) as pool:
        games = pool.map(play, tasks, chunksize=1)
    per_deal = [statistics.mean(g["diff"] for g in games if g["seed"] == seed + d) for d in range(deals)]
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(deals) if deals > 1 else math.inf
    moves = {side: np.array([t for g in games for t in g[side]]) for side in ("a", "b")}
    return {
        "a": a,
        "b": b,
        "rules": rules,
        "deals": deals,
        "seed": seed,
        "a_minus_b_per_game": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "a_move_mean_s": round(float(moves["a"].mean()), 4),
        "a_move_p95_s": round(float(np.percentile(moves["a"], 95)), 4),
        "b_move_mean_s": round(float(moves["b"].mean()), 4),
    }


def timing(spec: str, hands: int, seed: int) -> dict[str, Any]:
    """Time per move of ``spec`` on 10-card hands against three rule-of-thumb bots (first move excluded:
    it loads the compiled kernel)."""
    times: list[float] = []
    for h in range(hands):
        game = Game(RULES["hand"], seed=seed + h)
        bots = [bot(spec, seed + h) if seat == h % 4 else make_bot("basic") for seat in range(4)]
        while not game.is_over:
            seat = game.awaiting[0]
            start = time.perf_counter()
            act(game, seat, bots[seat])
            if seat == h % 4:
                times.append(time.perf_counter() - start)
    spent = np.array(times[1:])
    return {
        "bot": spec,
        "hands": hands,
        "moves": len(spent),
        "mean_s": round(float(spent.mean()), 4),
        "p95_s": round(float(np.percentile(spent, 95)), 4),
        "max_s": round(float(spent.max()), 4),
    }


def main(argv: list[str] | None = None) -> int:
    """Run one benchmark and print its figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("duel", help="A against B, duplicate deals")
    d.add_argument("a")
    d.add_argument("b")
    d.add_argument("--rules", choices=sorted(RULES), default="river")
    d.add_argument("--deals", type=int, default=20)
    d.add_argument("--seed", type=int, default=1000)
    d.add_argument("--workers", type=int, default=2)
    t = sub.add_parser("timing", help="time per move on 10-card hands")
    t.add_argument("bot")
    t.add_argument("--hands", type=int, default=20)
    t.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "duel":
        out = duel(args.a, args.b, args.rules, args.deals, args.seed, args.workers)
    else:
        out = timing(args.bot, args.hands, args.seed)
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
