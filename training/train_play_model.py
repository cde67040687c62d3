"""Train the learned play policy of the rollouts from ``expert`` self-play, and export it for the kernel.

    .venv/bin/pip install -e ".[train]"
    .venv/bin/python training/train_play_model.py data play-data/hand1 --games 800 --seed 1
    .venv/bin/python training/train_play_model.py data play-data/river1 --games 50 --seed 100001 \\
        --rules river --chunk 5
    .venv/bin/python training/train_play_model.py fit --data 'play-data/*' --seed 0 --leaves 31 \\
        --trees 40 --rate 0.2 --out src/upriver/bots/models/play_model.json --report report.json

(the shipped model: ``fit`` on the same data gives it byte for byte).

``data`` plays games with ``expert`` in every seat (``--rules``: OpenSpiel's single 10-card
hand, the river of ``bench/river.py``, or both in turn) and, at every card decision with a
choice, writes each legal card's features (:data:`upriver.fast.learned.FEATURES`, computed
by the compiled code the policy runs) with the card the expert's search chose, and the
search's mean score for each card. A folder gets one ``.npz`` file per ``--chunk`` games, so
a stopped run keeps what it made.

``fit`` ranks the legal cards of each decision with LightGBM's ``lambdarank`` (the chosen
card relevant, the rest not; ``--target value`` instead learns each card's search value below
the best card's, a regression that ranked worse), holding out 20% of the games (every
decision of a game on one side); the number of trees is chosen by early stopping on the
held-out games, then the model is refitted on every game with that many. The trees go to the flat arrays of
:class:`upriver.bots.bidmodel.Forest` that :mod:`upriver.fast.learned` compiles in; the
export is checked against LightGBM's own scores. The report gives the held-out agreement
with the expert's choice, for the forest and for the rule of thumb, and the mean search
value given up by each (the expert's best card's value less the value of the card played).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from train_bid_model import forest

import upriver.fast
from river import RIVER_RULES
from upriver import Game
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import make_bot
from upriver.bots.ipimc import IpimcBot
from upriver.fast import position_from_view
from upriver.fast.api import play_features
from upriver.fast.learned import FEATURES, MODEL_FILE

RULES = {"hand": openspiel_rules(4, 10), "river": RIVER_RULES}


def play_game(rules: str, seed: int, spec: str) -> dict[str, list[Any]]:
    """One self-play game's card decisions with a choice: features, chosen flags, search values."""
    game = Game(RULES[rules], seed=seed)
    bots = [make_bot(spec, seed * 8 + seat) for seat in range(game.rules.player_count)]
    rows: dict[str, list[Any]] = {"x": [], "chosen": [], "value": [], "decision": []}
    decisions = 0
    while not game.is_over:
        seat = game.awaiting[0]
        view = game.view(seat)
        bot = bots[seat]
        if view.legal_bids or len(view.legal_cards) == 1:
            game.move(bot.act(view), seat=seat)
            continue
        assert isinstance(bot, IpimcBot)
        analysis = bot.analyse(view)
        cards, x = play_features(position_from_view(view))
        value = {choice.index: v for choice, v in zip(analysis.choices, analysis.value, strict=True)}  # type: ignore[union-attr]
        best = analysis.best.index  # type: ignore[union-attr]
        rows["x"].append(x)
        rows["chosen"].extend(1 if c == best else 0 for c in cards)
        rows["value"].extend(value[c] for c in cards)
        rows["decision"].extend(decisions for _ in cards)
        decisions += 1
        game.move(analysis.best, seat=seat)
    return rows


def data(folder: Path, games: int, seed: int, rules: list[str], spec: str, chunk: int) -> None:
    """Write ``games`` self-play games' decisions to ``folder`` in chunks of ``chunk`` games."""
    folder.mkdir(parents=True, exist_ok=True)
    for first in range(0, games, chunk):
        path = folder / f"chunk-{seed + first:07d}.npz"
        if path.exists():
            continue
        start = time.perf_counter()
        parts: dict[str, list[Any]] = {"x": [], "chosen": [], "value": [], "decision": [], "game": []}
        for g in range(first, min(games, first + chunk)):
            name = rules[g % len(rules)]
            rows = play_game(name, seed + g, spec)
            if not rows["x"]:
                continue
            parts["x"].append(np.concatenate(rows["x"]))
            parts["chosen"].append(np.array(rows["chosen"], dtype=np.int8))
            parts["value"].append(np.array(rows["value"], dtype=np.float64))
            parts["decision"].append(np.array(rows["decision"], dtype=np.int32))
            parts["game"].append(np.full(len(rows["chosen"]), seed + g, dtype=np.int64))
        arrays = {k: np.concatenate(v) for k, v in parts.items()}
        np.savez_compressed(path, x=arrays["x"], chosen=arrays["chosen"], value=arrays["value"],
                            decision=arrays["decision"], game=arrays["game"])  # fmt: skip
        print(f"{path}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)


def _load(patterns: list[str]) -> dict[str, NDArray[Any]]:
    files = [f for p in patterns for d in sorted(glob.glob(p)) for f in sorted(Path(d).glob("*.npz"))]
    if not files:
        raise SystemExit(f"no .npz files in {patterns}")
    loaded = [np.load(f) for f in files]
    return {k: np.concatenate([d[k] for d in loaded]) for k in ("x", "chosen", "value", "decision", "game")}


def _groups(game: NDArray[np.int64], decision: NDArray[np.int32]) -> NDArray[np.int64]:
    """The size of each decision's run of rows (rows of one decision are contiguous)."""
    key = game * 1000 + decision
    change = np.flatnonzero(np.diff(key)) + 1
    edges = np.concatenate([[0], change, [len(key)]])
    return np.diff(edges)


def _judge(scores: NDArray[np.float64], d: dict[str, NDArray[Any]]) -> dict[str, float]:
    """Agreement with the expert's card, and the search value given up, for a score a row."""
    sizes = _groups(d["game"], d["decision"])
    agree, lost, start = 0, 0.0, 0
    for size in sizes:
        rows = slice(start, start + size)
        pick = int(np.argmax(scores[rows]))
        agree += int(d["chosen"][rows][pick] == 1)
        value = d["value"][rows]
        lost += float(value.max() - value[pick])
        start += size
    return {"decisions": len(sizes), "agree": agree / len(sizes), "value_lost": lost / len(sizes)}


def fit(
    patterns: list[str],
    seed: int,
    leaves: int,
    depth: int,
    trees: int,
    rate: float,
    target: str,
    out: Path,
    report: Path | None,
) -> None:
    """Fit, choose the tree count on held-out games, refit on all, export and report."""
    d = _load(patterns)
    games = np.unique(d["game"])
    rng = np.random.default_rng(seed)
    held = set(rng.choice(games, size=max(1, len(games) // 5), replace=False).tolist())
    test = np.isin(d["game"], list(held))
    train = ~test
    sizes = _groups(d["game"], d["decision"])
    decision_of = np.repeat(np.arange(len(sizes)), sizes)
    best_value = np.maximum.reduceat(d["value"], np.concatenate([[0], np.cumsum(sizes)[:-1]]))
    regret = d["value"] - best_value[decision_of]  # 0 for the search's best card, below 0 for the rest
    objective: dict[str, Any] = (
        {"objective": "lambdarank", "metric": "map", "eval_at": [1]}
        if target == "choice"
        else {"objective": "regression", "metric": "l2"}
    )
    params = {
        **objective,
        "num_leaves": leaves,
        "max_depth": depth,
        "learning_rate": rate,
        "min_data_in_leaf": 50,
        "num_threads": 1,
        "deterministic": True,
        "seed": seed,
        "verbose": -1,
    }

    def dataset(mask: NDArray[np.bool_]) -> lgb.Dataset:
        if target == "choice":
            label, group = d["chosen"][mask], _groups(d["game"][mask], d["decision"][mask])
        else:
            label, group = regret[mask], None
        return lgb.Dataset(
            d["x"][mask], label=label, group=group, feature_name=list(FEATURES), free_raw_data=False
        )

    train_set, test_set = dataset(train), dataset(test)
    booster = lgb.train(
        params, train_set, num_boost_round=trees, valid_sets=[test_set],
        callbacks=[lgb.early_stopping(20, verbose=False)],
    )  # fmt: skip
    best = booster.best_iteration or trees
    held_out = {k: v[test] for k, v in d.items()}
    learned = _judge(
        np.asarray(booster.predict(d["x"][test], num_iteration=best), dtype=np.float64), held_out
    )
    thumb = _judge(d["x"][test][:, FEATURES.index("is_thumb")].astype(np.float64), held_out)
    final = lgb.train(params, dataset(np.ones(len(train), dtype=bool)), num_boost_round=best)
    exported = forest(final)
    check = d["x"][: min(20000, len(train))]
    if not np.allclose(exported.raw(check), final.predict(check, raw_score=True), atol=1e-9):
        raise SystemExit("the exported forest does not score as LightGBM does")
    out.write_text(json.dumps({"features": list(FEATURES), "forest": exported.to_dict()}) + "\n", "utf-8")
    # The kernel holds the forest as compiled constants, cached under the time stamp of its own files.
    for stale in (Path(upriver.fast.__file__).parent / "__pycache__").glob("*.nb*"):
        stale.unlink()
    summary = {
        "model": str(out),
        "file": MODEL_FILE,
        "rows": len(train),
        "games": len(games),
        "held_out_games": len(held),
        "trees": int(best),
        "leaves": leaves,
        "depth": depth,
        "rate": rate,
        "target": target,
        "held_out": {"learned": learned, "rule_of_thumb": thumb},
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if report is not None:
        report.write_text(text + "\n", "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("data", help="self-play games' card decisions into a folder")
    d.add_argument("folder", type=Path)
    d.add_argument("--games", type=int, default=400)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--rules", nargs="+", choices=sorted(RULES), default=["hand"])
    d.add_argument("--bot", default="expert", help="the self-play bot (an ipimc kind; default expert)")
    d.add_argument("--chunk", type=int, default=20)
    f = sub.add_parser("fit", help="fit, export and report")
    f.add_argument("--data", nargs="+", required=True, help="folders or glob patterns of folders")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--leaves", type=int, default=15)
    f.add_argument("--depth", type=int, default=-1, help="the trees' greatest depth (-1: no limit)")
    f.add_argument("--trees", type=int, default=300, help="at most this many trees")
    f.add_argument("--rate", type=float, default=0.1, help="LightGBM's learning rate")
    f.add_argument(
        "--target", choices=("choice", "value"), default="choice",
        help="rank the chosen card first (choice) or learn each card's search value below the best (value)",
    )  # fmt: skip
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    if args.command == "data":
        data(args.folder, args.games, args.seed, args.rules, args.bot, args.chunk)
    else:
        fit(
            args.data,
            args.seed,
            args.leaves,
            args.depth,
            args.trees,
            args.rate,
            args.target,
            args.out,
            args.report,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
