"""The shipped bid model: its cost per candidate bid, and its quality on selfplay data it was not trained on.

    python bench/bidmodel.py speed [--repeat 2000] [--model FILE]
    python bench/bidmodel.py quality DATA_FOLDER [DATA_FOLDER ...] [--model FILE]
    python bench/bidmodel.py duel expert ipimc:2000 --rules river --deals 100 [--workers 2] [--log FILE]
    python bench/bidmodel.py duel expert expert --a-model candidate.json --rules hand --deals 400
    python bench/bidmodel.py summary FILE

``speed`` times the model on one decision's candidates (the forest evaluation alone, per
candidate, and the whole bid: rolling every legal bid out and predicting) on 10-card
hands. ``quality`` reads ``upriver selfplay`` chunks (make them with another ``--seed``
than the training data's) and prints the model's log-loss and Brier score against the
raw rollout make rate, and the calibration table per bid level: rows, predicted,
rollout estimate, realized, over every candidate and over the bids the model would choose
(``--model``: a model file's instead of the shipped one's).
``duel`` plays A against B on duplicate deals (A in seats 0 and 2, then in 1 and 3) under
``river`` (4 players, 10 … 1 … 10, hook, 10 + bid), ``classic`` (source 000's preset) or
``hand`` (single 10-card hands under OpenSpiel's rules), and reports A's lead a game over B
with its 95% interval, each side's exact rate, bid-0 make rate, and the calibration of
the make rate each side predicted for the bid it made (``Bot.last_bid_estimates``).
``--a-model`` / ``--b-model`` make that side's ``expert`` bid with a model file instead of the
shipped one (:func:`upriver.bots.bidmodel.using_model`), to duel a candidate model against it.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from river import RIVER_RULES
from upriver import Game, Rules, Schedule, Scoring, preset
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import act, make_bot
from upriver.bots.bidmodel import (
    FEATURES,
    BidModel,
    BidTable,
    bid_table,
    default_model,
    expected_scores,
    using_model,
)
from upriver.bots.ipimc import IpimcBot
from upriver.rules import DealerBid


def speed(repeat: int, model_file: Path | None = None) -> dict[str, Any]:
    """Microseconds per candidate for the forests, milliseconds for a whole bid decision
    (of the shipped model, or the one in ``model_file``)."""
    rules = Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(10,),
        dealer_bid=DealerBid.HOOK,
        scoring=Scoring.TRICKS_PLUS_TEN,
    )
    model = default_model() if model_file is None else BidModel.load(model_file)
    bot = IpimcBot(0)
    decisions: list[float] = []
    forest: list[float] = []
    candidates = 0
    for seed in range(12):
        game = Game(rules, seed=seed)
        view = game.view(game.awaiting[0])
        start = time.perf_counter()
        table = bid_table(view, bot, 2000, seed)
        expected_scores(table, model, rules.scoring)
        decisions.append(time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(repeat):
            expected_scores(table, model, rules.scoring)
        forest.append((time.perf_counter() - start) / repeat / len(table.bids))
        candidates += len(table.bids)
    return {
        "benchmark": "bidmodel-speed",
        "make_trees": model.meta.get("make_trees"),
        "tricks_trees": model.meta.get("tricks_trees"),
        "forest_us_per_candidate": round(1e6 * float(np.median(forest)), 1),
        "bid_decision_ms_median": round(1e3 * float(np.median(decisions[1:])), 1),
        "bid_decision_ms_max": round(1e3 * float(np.max(decisions[1:])), 1),
        "decisions": len(decisions) - 1,
        "candidates": candidates,
    }


def _load(folders: list[Path]) -> dict[str, NDArray[np.float64]]:
    parts: dict[str, list[NDArray[np.float64]]] = {}
    for index, folder in enumerate(folders):
        for path in sorted(folder.glob("chunk-*.npz")):
            with np.load(path) as data:
                for name in data.files:
                    if name == "policy":
                        continue
                    column = data[name] + (1e7 * index if name == "deal" else 0)
                    parts.setdefault(name, []).append(column)
    if not parts:
        raise SystemExit(f"no chunk-*.npz in {', '.join(map(str, folders))}")
    return {name: np.concatenate(columns) for name, columns in parts.items()}


def _table(
    bids: NDArray[np.float64], p: NDArray[np.float64], raw: NDArray[np.float64], y: NDArray[np.float64]
) -> list[dict[str, Any]]:
    rows = []
    for level in np.unique(bids).astype(int).tolist():
        mask = bids == level
        rows.append(
            {
                "bid": level,
                "rows": int(mask.sum()),
                "predicted": round(float(p[mask].mean()), 3),
                "rollout": round(float(raw[mask].mean()), 3),
                "realized": round(float(y[mask].mean()), 3),
            }
        )
    return rows


def quality(folders: list[Path], model_file: Path | None = None) -> dict[str, Any]:
    """The shipped model (or the one in ``model_file``) against the rollouts on these chunks."""
    columns = _load(folders)
    x = np.column_stack([columns[name] for name in FEATURES])
    model = default_model() if model_file is None else BidModel.load(model_file)
    p = model.make_probability(x)
    raw = columns["make_rate"]
    y = columns["made"]
    q, r = np.clip(p, 1e-3, 1 - 1e-3), np.clip(raw, 1e-3, 1 - 1e-3)
    best: dict[float, tuple[float, int]] = {}
    for i, deal in enumerate(columns["deal"].tolist()):
        scoring = Scoring.TRICKS_PLUS_TEN if columns["tricks_plus_ten"][i] else Scoring.TEN_PLUS_BID
        one = BidTable(bids=(int(columns["bid"][i]),), features=x[i : i + 1])
        value = float(expected_scores(one, model, scoring)[0])
        if deal not in best or value > best[deal][0]:
            best[deal] = (value, i)
    pick = np.array(sorted(i for _, i in best.values()), dtype=np.int64)
    return {
        "benchmark": "bidmodel-quality",
        "model": "shipped" if model_file is None else str(model_file),
        "rows": len(y),
        "deals": len(best),
        "log_loss": {
            "model": round(float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))), 4),
            "rollout": round(float(-np.mean(y * np.log(r) + (1 - y) * np.log(1 - r))), 4),
        },
        "brier": {
            "model": round(float(np.mean((p - y) ** 2)), 4),
            "rollout": round(float(np.mean((raw - y) ** 2)), 4),
        },
        "calibration_all": _table(columns["bid"], p, raw, y),
        "calibration_chosen": _table(columns["bid"][pick], p[pick], raw[pick], y[pick]),
    }


DUEL_RULES = {
    "river": RIVER_RULES,
    "classic": preset("classic", player_count=4),
    "hand": openspiel_rules(4, 10),
}


@functools.cache
def _model(path: str) -> BidModel:
    return BidModel.load(path)


DuelTask = tuple[str, str, str, int, int, str | None, str | None]
"""A, B, the rules' name, the deal's seed, the flip, and A's and B's bid model files (or None)."""


def _duel_game(task: DuelTask) -> dict[str, Any]:
    """One game: A in the even seats (``flip`` 0) or the odd ones; the totals and every bid's record."""
    a, b, rules, seed, flip, a_model, b_model = task
    model_files = {"a": a_model, "b": b_model}
    game = Game(DUEL_RULES[rules], seed=seed)
    sides = ["a" if (seat + flip) % 2 == 0 else "b" for seat in range(4)]
    bots = [make_bot(a if side == "a" else b, seed * 8 + seat) for seat, side in enumerate(sides)]
    predicted: dict[tuple[int, int], float | None] = {}
    times: dict[str, list[float]] = {"a": [], "b": []}
    while not game.is_over:
        seat = game.awaiting[0]
        bidding = bool(game.view(seat).legal_bids)
        model_file = model_files[sides[seat]]
        start = time.perf_counter()
        with contextlib.ExitStack() as stack:
            if model_file is not None:
                stack.enter_context(using_model(_model(model_file)))
            move = act(game, seat, bots[seat])
        times[sides[seat]].append(time.perf_counter() - start)
        if bidding:
            estimates = bots[seat].last_bid_estimates
            bid = getattr(move, "bid", None)
            predicted[len(game.results), seat] = None if not estimates or bid is None else estimates.get(bid)
    bids = []
    for number, result in enumerate(game.results):
        for seat in range(4):
            bids.append(
                {
                    "side": sides[seat],
                    "bid": result.bids[seat],
                    "made": result.bids[seat] == result.tricks_won[seat],
                    "predicted": predicted.get((number, seat)),
                }
            )
    totals = game.totals
    mine = statistics.mean(totals[s] for s in range(4) if sides[s] == "a")
    theirs = statistics.mean(totals[s] for s in range(4) if sides[s] == "b")
    return {
        "names": [a, b],
        "models": [a_model, b_model],
        "rules": rules,
        "seed": seed,
        "flip": flip,
        "diff": mine - theirs,
        "bids": bids,
        **times,
    }


def _bidding(bids: list[dict[str, Any]]) -> dict[str, Any]:
    levels: dict[int, list[dict[str, Any]]] = {}
    for row in bids:
        levels.setdefault(row["bid"], []).append(row)
    table = []
    for level in sorted(levels):
        rows = levels[level]
        known = [r["predicted"] for r in rows if r["predicted"] is not None]
        table.append(
            {
                "bid": level,
                "rows": len(rows),
                "predicted": round(statistics.mean(known), 3) if known else None,
                "realized": round(statistics.mean(r["made"] for r in rows), 3),
            }
        )
    zero = levels.get(0, [])
    return {
        "bids": len(bids),
        "exact_rate": round(statistics.mean(r["made"] for r in bids), 3),
        "bid0_make_rate": round(statistics.mean(r["made"] for r in zero), 3) if zero else None,
        "calibration": table,
    }


def duel(
    a: str,
    b: str,
    rules: str,
    deals: int,
    seed: int,
    workers: int,
    log: Path | None,
    models: tuple[Path | None, Path | None] = (None, None),
) -> dict[str, Any]:
    """A against B over ``deals`` duplicate deals; with ``log``, every game is appended to it as it
    ends and games already there are not played again (stop any time, then ``summary LOG``).
    ``models``: A's and B's bid model files, None for the shipped model."""
    files = tuple(None if path is None else str(path) for path in models)
    for path in files:
        if path is not None:
            BidModel.load(path)  # a wrong file fails here, before any game
    done: list[dict[str, Any]] = []
    if log is not None and log.exists():
        done = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]
    clash = [g for g in done if g.get("names") != [a, b] or g.get("models", [None, None]) != list(files)]
    if clash:
        raise SystemExit(
            f"{log} holds games of another duel ({clash[0].get('names')}, {clash[0].get('models')})"
        )
    have = {(g["seed"], g["flip"]) for g in done}
    tasks: list[DuelTask] = [
        (a, b, rules, seed + d, flip, files[0], files[1]) for d in range(deals) for flip in (0, 1)
    ]
    tasks = [task for task in tasks if (task[3], task[4]) not in have]
    games = list(done)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for game in pool.imap_unordered(_duel_game, tasks):
            games.append(game)
            if log is not None:
                with log.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(game) + "\n")
    return summary(games, a, b, rules)


def _named(kind: str, model: str | None) -> str:
    return kind if model is None else f"{kind} ({Path(model).name})"


def summary(games: list[dict[str, Any]], a: str, b: str, rules: str) -> dict[str, Any]:
    """The duel's figures over the deals whose two games are both done."""
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_seed.setdefault(game["seed"], []).append(game)
    complete = {seed: pair for seed, pair in by_seed.items() if len(pair) == 2}
    games = [game for pair in complete.values() for game in pair]
    per_deal = [statistics.mean(g["diff"] for g in pair) for pair in complete.values()]
    deals = len(per_deal)
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(deals) if deals > 1 else math.inf
    rounds = len(DUEL_RULES[rules].hand_sizes)
    moves = {side: np.array([t for g in games for t in g[side]]) for side in ("a", "b")}
    return {
        "benchmark": "bidmodel-duel",
        "a": _named(a, (games[0].get("models") or [None, None])[0]) if games else a,
        "b": _named(b, (games[0].get("models") or [None, None])[1]) if games else b,
        "rules": rules,
        "deals": deals,
        "seeds": [min(complete), max(complete)],
        "a_minus_b_per_game": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "a_minus_b_per_hand": round(mean / rounds, 3),
        "ci95_per_hand": [round((mean - half) / rounds, 3), round((mean + half) / rounds, 3)],
        "a_move_p95_s": round(float(np.percentile(moves["a"], 95)), 4),
        "b_move_p95_s": round(float(np.percentile(moves["b"], 95)), 4),
        "a_bidding": _bidding([r for g in games for r in g["bids"] if r["side"] == "a"]),
        "b_bidding": _bidding([r for g in games for r in g["bids"] if r["side"] == "b"]),
    }


def main(argv: list[str] | None = None) -> int:
    """Run one measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="time per candidate and per bid decision")
    s.add_argument("--repeat", type=int, default=2000)
    s.add_argument("--model", type=Path, help="a bid model file (default: the shipped one)")
    q = sub.add_parser("quality", help="log-loss, Brier and calibration on selfplay chunks")
    q.add_argument("folders", type=Path, nargs="+")
    q.add_argument("--model", type=Path, help="a bid model file (default: the shipped one)")
    d = sub.add_parser("duel", help="A against B on duplicate deals, with both sides' bidding")
    d.add_argument("a")
    d.add_argument("b")
    d.add_argument("--rules", choices=sorted(DUEL_RULES), default="river")
    d.add_argument("--deals", type=int, default=20)
    d.add_argument("--seed", type=int, default=1000)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--log", type=Path, help="append each game here; resume from it")
    d.add_argument("--a-model", type=Path, help="A's expert bids with this model file")
    d.add_argument("--b-model", type=Path, help="B's expert bids with this model file")
    m = sub.add_parser("summary", help="the figures of a duel's log, over its complete deals")
    m.add_argument("log", type=Path)
    m.add_argument("--a", default="A", help="A's name, for a log that does not carry it")
    m.add_argument("--b", default="B", help="B's name, for a log that does not carry it")
    args = parser.parse_args(argv)
    if args.what == "duel":
        models = (args.a_model, args.b_model)
        out = duel(args.a, args.b, args.rules, args.deals, args.seed, args.workers, args.log, models)
    elif args.what == "summary":
        games = [json.loads(line) for line in args.log.read_text("utf-8").splitlines() if line.strip()]
        a, b = games[0].get("names") or (args.a, args.b)
        out = summary(games, a, b, games[0]["rules"])
    else:
        out = speed(args.repeat, args.model) if args.what == "speed" else quality(args.folders, args.model)
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
