"""The exact endgame solver: what it costs a decision, and what it is worth to ``expert``.

    python bench/endgame.py cost [--cards 2 3 4] [--positions 12] [--worlds 2000]
    python bench/endgame.py duel --cards 3 --deals 2000 [--seed 1000] [--rules hand | river] [--log FILE]
    python bench/endgame.py summary FILE

``cost`` deals single 10-card hands under OpenSpiel's rules (4 players), lets the rule of
thumb play until the seat to act holds ``cards`` cards, and times trying every legal card in
``worlds`` uniform deals by the solver and by the rule of thumb's rollout, then one whole
``expert`` decision with and without the solver.

``duel`` is :func:`bench.bidmodel.duel`'s duplicate match of ``expert`` with the solver
(``endgame=cards``, side A) against ``expert`` without it (side B), A in seats 0 and 2 and
then in 1 and 3, played as a fork: the two bots make the same moves, from the same seeds,
until a seat holds ``cards`` cards, so each deal is played once by four plain experts to
that point and then finished twice, once for each seating. A deal's figures are the very
ones the duel would give, at a third of its cost. Each move's time goes to the side of the
seat that made it (the shared moves to both games). The figures come from
:func:`bench.bidmodel.summary` (a game, a hand, their 95% intervals, move p95), with each
side's mean time a move and its time a move in the endgame. ``--rules hand`` is OpenSpiel's
10-card hand; ``--rules river`` forks each round of a river game on its own (see
:func:`fork_deal`), since over a whole game the bots' random streams part at the first endgame.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bidmodel import DUEL_RULES, summary
from river import RIVER_RULES
from upriver import Game, Phase, Rules, Schedule
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import BasicBot, ExpertBot, act
from upriver.bots.pimc import SearchBot
from upriver.fast import position_from_view, rollout, sample_worlds, solve_endgame
from upriver.view import SeatView


def _endgame_view(seed: int, cards: int) -> SeatView:
    """The view of the first seat to act with ``cards`` cards in hand, the rule of thumb playing."""
    game = Game(openspiel_rules(4, 10), seed=seed)
    bot = BasicBot(seed)
    while True:
        seat = game.awaiting[0]
        view = game.view(seat)
        if not view.legal_bids and len(view.hand) <= cards:
            return view
        act(game, seat, bot)


def cost(cards: list[int], positions: int, worlds: int) -> dict[str, Any]:
    """Seconds a decision: every legal card in ``worlds`` deals, solved and rolled out; expert's move."""
    rows = []
    for k in cards:
        solved, rolled, with_, without = [], [], [], []
        for seed in range(positions + 1):  # the first position compiles: not timed
            view = _endgame_view(seed, k)
            position = position_from_view(view)
            deals = sample_worlds(position, worlds, seed, threads=1)
            start = time.perf_counter()
            for card in view.legal_cards:
                solve_endgame(position, deals, script=(card,), check=False)
            middle = time.perf_counter()
            for card in view.legal_cards:
                rollout(position, deals, script=(card,), check=False, threads=1)
            end = time.perf_counter()
            times = []
            for endgame in (k, 0):
                bot = ExpertBot(seed, config=dataclasses.replace(ExpertBot.defaults, endgame=endgame))
                begin = time.perf_counter()
                bot.choose_card(view)
                times.append(time.perf_counter() - begin)
            if seed:
                solved.append(middle - start)
                rolled.append(end - middle)
                with_.append(times[0])
                without.append(times[1])
        rows.append(
            {
                "cards": k,
                "positions": positions,
                "worlds": worlds,
                "solve_all_cards_s": _spread(solved),
                "rollout_all_cards_s": _spread(rolled),
                "expert_move_with_s": _spread(with_),
                "expert_move_without_s": _spread(without),
            }
        )
    return {"benchmark": "endgame-cost", "players": 4, "hand": 10, "rows": rows}


def _spread(times: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.mean(times), 4),
        "p95": round(float(np.percentile(times, 95)), 4),
        "max": round(max(times), 4),
    }


def _move(game: Game, bots: list[SearchBot], log: list[tuple[int, float]]) -> None:
    seat = game.awaiting[0]
    start = time.perf_counter()
    act(game, seat, bots[seat])
    log.append((seat, time.perf_counter() - start))


def fork_deal(cards: int, rules: str, seed: int) -> list[dict[str, Any]]:
    """Both seatings of one duplicate deal, in the game format of :func:`bench.bidmodel.summary`.

    ``hand`` is one 10-card hand under OpenSpiel's rules. ``river`` is a river game whose 19
    rounds are each dealt and forked on their own (deal ``100 * seed + round``): the bots never
    look at the totals, so a round plays the same whatever came before it, and the game's lead
    is the sum of the rounds' leads."""
    if rules == "hand":
        return _fork_hand(cards, DUEL_RULES["hand"], rules, seed, seed)
    games: list[list[dict[str, Any]]] = [[], []]
    for number, size in enumerate(RIVER_RULES.hand_sizes):
        one = dataclasses.replace(
            RIVER_RULES, schedule=Schedule.EXPLICIT, max_cards=None, explicit_sizes=(size,)
        )
        for flip, game in enumerate(_fork_hand(cards, one, rules, seed, 100 * seed + number)):
            games[flip].append(game)
    return [
        {
            **rounds[0],
            "diff": sum(g["diff"] for g in rounds),
            **{key: [x for g in rounds for x in g[key]] for key in ("bids", "a", "b", "late_a", "late_b")},
        }
        for rounds in games
    ]


def _fork_hand(cards: int, rules: Rules, name: str, seed: int, deal: int) -> list[dict[str, Any]]:
    game = Game(rules, seed=deal)
    bots: list[SearchBot] = [ExpertBot(deal * 8 + seat) for seat in range(4)]
    shared: list[tuple[int, float]] = []
    predicted: dict[int, float | None] = {}
    while game.phase is Phase.BIDDING or (game.hand_size - len(game.tricks) > cards):
        seat = game.awaiting[0]
        bidding = game.phase is Phase.BIDDING
        _move(game, bots, shared)
        if bidding:
            estimates, bid = bots[seat].last_bid_estimates, game.bids[seat]
            predicted[seat] = None if not estimates or bid is None else estimates.get(bid)
    out = []
    for flip in (0, 1):
        sides = ["a" if (seat + flip) % 2 == 0 else "b" for seat in range(4)]
        branch = game.copy()
        mine = [copy.deepcopy(bot) for bot in bots]
        for seat, bot in enumerate(mine):
            bot.config = dataclasses.replace(bot.config, endgame=cards if sides[seat] == "a" else 0)
        log = list(shared)
        while not branch.is_over:
            _move(branch, mine, log)
        result = branch.results[-1]
        times: dict[str, list[float]] = {"a": [], "b": []}
        late: dict[str, list[float]] = {"a": [], "b": []}  # the moves after the fork
        for index, (seat, seconds) in enumerate(log):
            times[sides[seat]].append(seconds)
            if index >= len(shared):
                late[sides[seat]].append(seconds)
        totals = branch.totals
        out.append(
            {
                "names": [f"expert endgame={cards}", "expert"],
                "rules": name,
                "seed": seed,
                "flip": flip,
                "diff": statistics.mean(totals[s] for s in range(4) if sides[s] == "a")
                - statistics.mean(totals[s] for s in range(4) if sides[s] == "b"),
                "bids": [
                    {
                        "side": sides[s],
                        "bid": result.bids[s],
                        "made": result.bids[s] == result.tricks_won[s],
                        "predicted": predicted.get(s),
                    }
                    for s in range(4)
                ],
                **times,
                "late_a": late["a"],
                "late_b": late["b"],
            }
        )
    return out


def fork_summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """:func:`bench.bidmodel.summary` of the games, with each side's mean time a move, overall and
    in the endgame (the moves after the fork, which A makes with the solver)."""
    first = games[0]
    out = summary(games, first["names"][0], first["names"][1], first["rules"])
    out["benchmark"] = "endgame-duel"
    for side in ("a", "b"):
        every = [t for g in games for t in g[side]]
        late = [t for g in games for t in g[f"late_{side}"]]
        out[f"{side}_move_mean_s"] = round(statistics.mean(every), 4)
        out[f"{side}_endgame_move_mean_s"] = round(statistics.mean(late), 4)
        out[f"{side}_endgame_move_p95_s"] = round(float(np.percentile(late, 95)), 4)
    return out


def fork_duel(cards: int, rules: str, deals: int, seed: int, log: Path | None) -> dict[str, Any]:
    """The fork duel over ``deals`` deals in this one process; with ``log``, each deal's two games
    are appended to it as they end and deals already there are not played again."""
    games: list[dict[str, Any]] = []
    if log is not None and log.exists():
        games = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]
    have = {g["seed"] for g in games}
    for deal in range(seed, seed + deals):
        if deal in have:
            continue
        pair = fork_deal(cards, rules, deal)
        games.extend(pair)
        if log is not None:
            with log.open("a", encoding="utf-8") as out:
                out.writelines(json.dumps(g) + "\n" for g in pair)
    return fork_summary(games)


def main(argv: list[str] | None = None) -> int:
    """Run one measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cost", help="seconds a decision with and without the solver")
    c.add_argument("--cards", type=int, nargs="+", default=[2, 3, 4])
    c.add_argument("--positions", type=int, default=12)
    c.add_argument("--worlds", type=int, default=2000)
    d = sub.add_parser("duel", help="expert with the solver against expert without, forked duplicate deals")
    d.add_argument("--cards", type=int, default=3)
    d.add_argument("--rules", choices=["hand", "river"], default="hand")
    d.add_argument("--deals", type=int, default=100)
    d.add_argument("--seed", type=int, default=1000)
    d.add_argument("--log", type=Path, help="append each deal's games here; resume from it")
    m = sub.add_parser("summary", help="the figures of a duel's log")
    m.add_argument("log", type=Path)
    args = parser.parse_args(argv)
    if args.what == "cost":
        out = cost(args.cards, args.positions, args.worlds)
    elif args.what == "duel":
        out = fork_duel(args.cards, args.rules, args.deals, args.seed, args.log)
    else:
        out = fork_summary(
            [json.loads(line) for line in args.log.read_text("utf-8").splitlines() if line.strip()]
        )
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
