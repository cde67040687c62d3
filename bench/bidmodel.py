"""The shipped bid model: its cost per candidate bid, and its quality on selfplay data it was not trained on.

    python bench/bidmodel.py speed [--repeat 2000]
    python bench/bidmodel.py quality DATA_FOLDER [DATA_FOLDER ...]

``speed`` times the model on one decision's candidates (the forest evaluation alone, per
candidate, and the whole bid: rolling every legal bid out and predicting) on 10-card
hands. ``quality`` reads ``upriver selfplay`` chunks (make them with another ``--seed``
than the training data's) and prints the model's log-loss and Brier score against the
raw rollout make rate, and the calibration table per bid level: rows, predicted,
rollout estimate, realized, over every candidate and over the bids the model would choose.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from upriver import Game, Rules, Schedule, Scoring
from upriver.bots.bidmodel import FEATURES, BidTable, bid_table, default_model, expected_scores
from upriver.bots.ipimc import IpimcBot
from upriver.rules import DealerBid


def speed(repeat: int) -> dict[str, Any]:
    """Microseconds per candidate for the forests, milliseconds for a whole bid decision."""
    rules = Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(10,),
        dealer_bid=DealerBid.HOOK,
        scoring=Scoring.TRICKS_PLUS_TEN,
    )
    model = default_model()
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


def quality(folders: list[Path]) -> dict[str, Any]:
    """The shipped model against the rollouts on these chunks."""
    columns = _load(folders)
    x = np.column_stack([columns[name] for name in FEATURES])
    model = default_model()
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


def main(argv: list[str] | None = None) -> int:
    """Run one measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed", help="time per candidate and per bid decision")
    s.add_argument("--repeat", type=int, default=2000)
    q = sub.add_parser("quality", help="log-loss, Brier and calibration on selfplay chunks")
    q.add_argument("folders", type=Path, nargs="+")
    args = parser.parse_args(argv)
    out = speed(args.repeat) if args.what == "speed" else quality(args.folders)
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
