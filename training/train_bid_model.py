"""Train the bid model from ``upriver selfplay`` chunks, export it for the package, and report its quality.

    .venv/bin/pip install -e ".[train]"
    .venv/bin/python -m upriver selfplay bid-data/run1 --deals 856 --seed 1 --opponents expert,basic --jobs 2
    .venv/bin/python -m upriver selfplay bid-data/run2 --deals 2000 --seed 2 \
        --opponents expert,basic,ucb:1000 --jobs 2
    .venv/bin/python training/train_bid_model.py --data 'bid-data/*' --seed 0 \
        --out src/upriver/bots/models/bid_model.json --report report.json

(the shipped model, byte for byte).

``--data`` takes several folders, or glob patterns of folders (``'runs/*'``, expanded in
sorted order): the same folders in the same order give the same model.

Two LightGBM models over the features of :data:`upriver.bots.bidmodel.FEATURES`: a binary
one (was the bid made?) and a regression (tricks taken), each a correction of the rollouts'
own estimate. Deals, not rows, are split (every candidate of a deal on one side): 20% are
held out, so the held-out figures are for hands the model never saw; the rest are cut into
``--cv-folds`` folds, and cross-validation over them picks the number of boosting rounds
and, for the make model, how far the rollout make rate is clipped from 0 and 1 before its
log-odds start the trees (``--offset-clips``); the models are then fitted on all of the
rest. ``--cv-folds 0`` trains as the first shipped model was: early stopping on 10% of the
deals, the clip 0.001. The trees are exported to the
small JSON file :class:`upriver.bots.bidmodel.BidModel` reads and evaluates in NumPy; the
export is checked against LightGBM's own predictions. One thread and LightGBM's
deterministic mode make a retraining from the same data and seed give the same file.

The report (JSON on standard output, and ``--report``): held-out log-loss and Brier score
of the model against the raw rollout make rate (and against the model in ``--compare``,
e.g. the shipped one), over all held-out deals and per data folder, and the calibration
table per bid level (rows, predicted, rollout estimate, realized with its 95% Wilson
interval), over all held-out candidates and over the bids the model itself would choose;
and ``held_out_picks``, an offline duel on the held-out deals: the realized score of the
candidate the model would bid less that of the rollouts' own choice, paired per deal.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import sys
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
from numpy.typing import NDArray

from upriver.bots.bidmodel import (
    FEATURES,
    OFFSET_CLIP,
    BidModel,
    Forest,
    rollout_log_odds,
    rollout_tricks,
)

LABELS = ("made", "tricks", "score", "deal", "random_pick", "opponent_mix")
PARAMS: dict[str, Any] = {
    "learning_rate": 0.03,
    "num_leaves": 7,
    "max_depth": 4,
    "lambda_l2": 5.0,
    "feature_fraction": 1.0,
    "bagging_fraction": 1.0,
    "num_threads": 1,
    "deterministic": True,
    "force_row_wise": True,
    "verbose": -1,
}


def load(folders: list[Path]) -> tuple[dict[str, NDArray[np.float64]], list[str]]:
    """Every chunk's columns, concatenated in file-name order; and the rollout policies seen."""
    files = sorted(path for folder in folders for path in folder.glob("chunk-*.npz"))
    if not files:
        raise SystemExit(f"no chunk-*.npz files in {', '.join(map(str, folders))}")
    parts: dict[str, list[NDArray[np.float64]]] = {name: [] for name in (*FEATURES, *LABELS)}
    policies = set()
    for path in files:
        with np.load(path) as data:
            missing = [name for name in parts if name not in data]
            if missing:
                raise SystemExit(f"{path} lacks the columns {missing}: made by another version")
            policies.add(str(data["policy"]))
            for name in parts:
                column = data[name]
                if name == "deal":
                    # Deal numbers restart in every run: make them unique per folder.
                    column = column + 1e7 * folders.index(path.parent)
                parts[name].append(column)
    return {name: np.concatenate(columns) for name, columns in parts.items()}, sorted(policies)


def folders_of(patterns: list[str]) -> list[Path]:
    """The data folders: each argument a folder, or a glob pattern expanded in sorted order."""
    folders: list[Path] = []
    for pattern in patterns:
        if glob.has_magic(pattern):
            matches = sorted(Path(match) for match in glob.glob(pattern) if Path(match).is_dir())
            if not matches:
                raise SystemExit(f"--data {pattern!r} matches no folder")
            folders += matches
        else:
            folders.append(Path(pattern))
    for folder in folders:
        if not folder.is_dir():
            raise SystemExit(f"--data {str(folder)!r} is not a folder of chunk-*.npz files")
    if len(set(map(Path.resolve, folders))) != len(folders):
        raise SystemExit(f"--data names a folder twice: {', '.join(map(str, folders))}")
    return folders


def split(deals: NDArray[np.float64], seed: int) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Held-out (20%) and early-stopping (10%) masks over the rows, by deal."""
    held, draw = _draws(deals, seed)
    return held, (draw >= 0.2) & (draw < 0.3)


def _draws(deals: NDArray[np.float64], seed: int) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Each row's deal's uniform draw (one per deal, from ``seed``), and the held-out mask (draw < 0.2)."""
    unique = np.unique(deals)
    draw = np.random.default_rng(seed).random(len(unique))
    per_row = draw[np.searchsorted(unique, deals)]
    return per_row < 0.2, per_row


def cv_folds(deals: NDArray[np.float64], seed: int, folds: int) -> NDArray[np.int64]:
    """Each row's cross-validation fold, ``0 … folds-1``, by deal; -1 for the held-out rows
    (the same held-out deals as :func:`split`)."""
    held, draw = _draws(deals, seed)
    fold = np.minimum(((draw - 0.2) / 0.8 * folds).astype(np.int64), folds - 1)
    out: NDArray[np.int64] = np.where(held, -1, fold)
    return out


def forest(booster: lgb.Booster) -> Forest:
    """The booster's trees in the flat arrays of :class:`Forest`."""
    dump = booster.dump_model()
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []
    roots: list[int] = []
    depth = 0

    def add(node: dict[str, Any], level: int) -> int:
        nonlocal depth
        depth = max(depth, level)
        index = len(feature)
        feature.append(-1)
        threshold.append(0.0)
        left.append(index)
        right.append(index)
        value.append(0.0)
        if "leaf_value" in node:
            value[index] = float(node["leaf_value"])
            return index
        if node["decision_type"] != "<=":
            raise SystemExit(f"unexpected split {node['decision_type']!r}: only numeric splits are exported")
        feature[index] = int(node["split_feature"])
        threshold[index] = float(node["threshold"])
        left[index] = add(node["left_child"], level + 1)
        right[index] = add(node["right_child"], level + 1)
        return index

    for tree in dump["tree_info"]:
        roots.append(add(tree["tree_structure"], 0))
    return Forest(
        roots=np.array(roots, dtype=np.int64),
        feature=np.array(feature, dtype=np.int64),
        threshold=np.array(threshold, dtype=np.float64),
        left=np.array(left, dtype=np.int64),
        right=np.array(right, dtype=np.int64),
        value=np.array(value, dtype=np.float64),
        depth=depth,
    )


def _params(objective: str, seed: int, min_leaf: int) -> dict[str, Any]:
    return {
        **PARAMS,
        "objective": objective,
        "seed": seed,
        "min_data_in_leaf": min_leaf,
        "boost_from_average": False,
    }


def cv_curve(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    fold: NDArray[np.int64],
    start: NDArray[np.float64],
    objective: str,
    seed: int,
    rounds: int,
    min_leaf: int,
) -> NDArray[np.float64]:
    """The validation loss after each boosting round, averaged over the folds (each fold fitted
    on the others): log-loss for ``binary``, mean squared error for ``regression``."""
    metric = "binary_logloss" if objective == "binary" else "l2"
    params = {**_params(objective, seed, min_leaf), "metric": metric}
    curves = []
    for k in range(int(fold.max()) + 1):
        fit_rows, check_rows = fold != k, fold == k
        fit = lgb.Dataset(
            x[fit_rows],
            y[fit_rows],
            init_score=start[fit_rows],
            feature_name=list(FEATURES),
            free_raw_data=False,
        )
        check = lgb.Dataset(x[check_rows], y[check_rows], init_score=start[check_rows], reference=fit)
        record: dict[str, Any] = {}
        lgb.train(
            params,
            fit,
            num_boost_round=rounds,
            valid_sets=[check],
            valid_names=["check"],
            callbacks=[lgb.record_evaluation(record)],
        )
        curves.append(np.asarray(record["check"][metric], dtype=np.float64))
    mean: NDArray[np.float64] = np.mean(curves, axis=0)
    return mean


def fit_rounds(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    start: NDArray[np.float64],
    objective: str,
    seed: int,
    rounds: int,
    min_leaf: int,
) -> lgb.Booster:
    """One LightGBM model correcting ``start``, fitted on every row for exactly ``rounds`` rounds."""
    fit = lgb.Dataset(x, y, init_score=start, feature_name=list(FEATURES), free_raw_data=False)
    return lgb.train(_params(objective, seed, min_leaf), fit, num_boost_round=rounds)


def train(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    stop: NDArray[np.bool_],
    start: NDArray[np.float64],
    objective: str,
    seed: int,
    rounds: int,
    min_leaf: int,
) -> lgb.Booster:
    """One LightGBM model learning a correction of ``start`` (the rollouts' own estimate, as a raw
    score), early-stopped on the ``stop`` rows."""
    params = _params(objective, seed, min_leaf)
    fit = lgb.Dataset(
        x[~stop], y[~stop], init_score=start[~stop], feature_name=list(FEATURES), free_raw_data=False
    )
    check = lgb.Dataset(x[stop], y[stop], init_score=start[stop], reference=fit)
    return lgb.train(
        params,
        fit,
        num_boost_round=rounds,
        valid_sets=[check],
        callbacks=[lgb.early_stopping(30, verbose=False)],
    )


def log_loss(p: NDArray[np.float64], y: NDArray[np.float64]) -> float:
    """Mean negative log-likelihood of the outcomes (probabilities clipped to [0.001, 0.999])."""
    q = np.clip(p, 1e-3, 1 - 1e-3)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def brier(p: NDArray[np.float64], y: NDArray[np.float64]) -> float:
    """Mean squared error of the probabilities."""
    return float(np.mean((p - y) ** 2))


def wilson(made: int, rows: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a make rate of ``made`` in ``rows``."""
    if rows == 0:
        return (0.0, 1.0)
    rate = made / rows
    centre = (rate + z * z / (2 * rows)) / (1 + z * z / rows)
    half = z * math.sqrt(rate * (1 - rate) / rows + z * z / (4 * rows * rows)) / (1 + z * z / rows)
    return (round(centre - half, 3), round(centre + half, 3))


def calibration(
    bids: NDArray[np.float64],
    p: NDArray[np.float64],
    raw: NDArray[np.float64],
    y: NDArray[np.float64],
    other: NDArray[np.float64] | None = None,
) -> list[dict[str, Any]]:
    """Per bid level: rows, mean predicted (and ``other``'s, the compared model's), mean rollout
    estimate, realized make rate with its 95% Wilson interval."""
    out = []
    for level in np.unique(bids).astype(int).tolist():
        rows = bids == level
        entry: dict[str, Any] = {
            "bid": level,
            "rows": int(rows.sum()),
            "predicted": round(float(p[rows].mean()), 3),
        }
        if other is not None:
            entry["compared"] = round(float(other[rows].mean()), 3)
        entry["rollout"] = round(float(raw[rows].mean()), 3)
        entry["realized"] = round(float(y[rows].mean()), 3)
        entry["realized_ci95"] = wilson(int(y[rows].sum()), int(rows.sum()))
        out.append(entry)
    return out


def scores(p: NDArray[np.float64], y: NDArray[np.float64]) -> dict[str, float]:
    """Log-loss and Brier score of ``p`` for the outcomes ``y``."""
    return {"log_loss": round(log_loss(p, y), 4), "brier": round(brier(p, y), 4)}


def picks_against_rollout(
    columns: dict[str, NDArray[np.float64]], expected: NDArray[np.float64]
) -> dict[str, Any]:
    """The realized score of the candidate of best ``expected`` score in each deal, less that of
    the rollouts' own choice (best mean rollout score), paired per deal: mean and 95% interval.

    The candidates were each played out once, so this is an offline duel of the two ways of
    bidding, restricted to the bids played out (the rollouts' best three and a random one).
    """
    mine, theirs = chosen(columns, expected), chosen(columns, columns["mean_score"])
    deals = columns["deal"]
    score = dict(zip(deals[mine].tolist(), columns["score"][mine].tolist(), strict=True))
    base = dict(zip(deals[theirs].tolist(), columns["score"][theirs].tolist(), strict=True))
    diff = np.array([score[d] - base[d] for d in sorted(base)], dtype=np.float64)
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
    mean = float(diff.mean()) if len(diff) else 0.0
    return {
        "deals": len(diff),
        "scored_differently": int(np.count_nonzero(diff != 0)),
        "model_minus_rollout": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
    }


def expected_score(
    model: BidModel, x: NDArray[np.float64], tricks_plus_ten: NDArray[np.bool_]
) -> NDArray[np.float64]:
    """Each row's expected round score by ``model`` (as :func:`upriver.bots.bidmodel.expected_scores`)."""
    p = model.make_probability(x)
    out: NDArray[np.float64] = np.where(
        tricks_plus_ten,
        np.clip(model.expected_tricks(x), 0, None) + 10 * p,
        p * (10 + x[:, FEATURES.index("bid")]),
    )
    return out


def chosen(columns: dict[str, NDArray[np.float64]], score: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Rows holding, per deal, the candidate with the best ``score`` (among those played out)."""
    best: dict[float, int] = {}
    for i, deal in enumerate(columns["deal"].tolist()):
        if deal not in best or score[i] > score[best[deal]]:
            best[deal] = i
    mask = np.zeros(len(score), dtype=bool)
    mask[list(best.values())] = True
    return mask


def main(argv: list[str] | None = None) -> int:
    """Train, export, report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument(
        "--data", nargs="+", required=True, help="folders of chunk-*.npz, or glob patterns of them"
    )
    parser.add_argument("--out", type=Path, required=True, help="the model file to write")
    parser.add_argument("--report", type=Path, help="also write the report here")
    parser.add_argument("--compare", type=Path, help="a model file to compare on the held-out deals")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=600, help="most boosting rounds (early stopping)")
    parser.add_argument("--min-leaf", type=int, default=40, help="fewest training rows in a leaf")
    parser.add_argument(
        "--cv-folds",
        type=int,
        default=5,
        help="cross-validation folds (0: early stopping on 10%% of the deals)",
    )
    parser.add_argument(
        "--offset-clips",
        default="0.001,0.02,0.05,0.1",
        help="clips of the rollout make rate tried by cross-validation, comma-separated",
    )
    args = parser.parse_args(argv)
    try:
        clips = [float(clip) for clip in args.offset_clips.split(",")]
    except ValueError:
        raise SystemExit(f"--offset-clips {args.offset_clips!r}: expected numbers like 0.001,0.05") from None
    if not clips or not all(0 < clip < 0.5 for clip in clips):
        raise SystemExit(f"--offset-clips {args.offset_clips!r}: each clip must be between 0 and 0.5")
    if args.cv_folds == 1 or args.cv_folds < 0:
        raise SystemExit(f"--cv-folds {args.cv_folds}: expected 0 (early stopping) or at least 2")
    folders = folders_of(args.data)
    compared = None if args.compare is None else BidModel.load(args.compare)
    columns, policies = load(folders)
    x = np.column_stack([columns[name] for name in FEATURES])
    made, tricks = columns["made"], columns["tricks"]
    held, stop = split(columns["deal"], args.seed)
    train_rows = ~held
    xt, st = x[train_rows], stop[train_rows]
    cv: dict[str, Any] = {"folds": args.cv_folds}
    if args.cv_folds == 0:
        clip = OFFSET_CLIP
        make_booster = train(
            xt, made[train_rows], st, rollout_log_odds(xt), "binary", args.seed, args.rounds, args.min_leaf
        )
        tricks_booster = train(
            xt,
            tricks[train_rows],
            st,
            rollout_tricks(xt),
            "regression",
            args.seed,
            args.rounds,
            args.min_leaf,
        )
    else:
        fold = cv_folds(columns["deal"], args.seed, args.cv_folds)[train_rows]
        losses = {}
        for tried in clips:
            curve = cv_curve(
                xt,
                made[train_rows],
                fold,
                rollout_log_odds(xt, tried),
                "binary",
                args.seed,
                args.rounds,
                args.min_leaf,
            )
            losses[tried] = (float(curve.min()), int(np.argmin(curve)) + 1)
        clip = min(clips, key=lambda tried: losses[tried][0])
        cv["make_log_loss"] = {str(tried): round(loss, 4) for tried, (loss, _) in losses.items()}
        cv["offset_clip"] = clip
        make_booster = fit_rounds(
            xt,
            made[train_rows],
            rollout_log_odds(xt, clip),
            "binary",
            args.seed,
            losses[clip][1],
            args.min_leaf,
        )
        curve = cv_curve(
            xt,
            tricks[train_rows],
            fold,
            rollout_tricks(xt),
            "regression",
            args.seed,
            args.rounds,
            args.min_leaf,
        )
        cv["tricks_mse"] = round(float(curve.min()), 4)
        tricks_booster = fit_rounds(
            xt,
            tricks[train_rows],
            rollout_tricks(xt),
            "regression",
            args.seed,
            int(np.argmin(curve)) + 1,
            args.min_leaf,
        )
    model = BidModel(
        features=FEATURES,
        make=forest(make_booster),
        tricks=forest(tricks_booster),
        meta={
            "rows": len(made),
            "deals": len(np.unique(columns["deal"])),
            "seed": args.seed,
            "make_trees": int(make_booster.num_trees()),
            "tricks_trees": int(tricks_booster.num_trees()),
            "rollout_policy": policies,
            **({"cv_folds": args.cv_folds} if args.cv_folds else {}),
        },
        offset_clip=clip,
    )
    xh = x[held]
    exported = model.make.raw(xh)
    native = make_booster.predict(xh, raw_score=True)
    if not np.allclose(exported, native, atol=1e-9):
        raise SystemExit(f"the exported trees disagree with LightGBM by {np.abs(exported - native).max()}")
    if not np.allclose(model.tricks.raw(xh), tricks_booster.predict(xh), atol=1e-9):
        raise SystemExit("the exported tricks trees disagree with LightGBM")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(model.to_json(), "utf-8")
    p = model.make_probability(xh)
    raw = columns["make_rate"][held]
    yh = made[held]
    bids = columns["bid"][held]
    tricks_plus_ten = columns["tricks_plus_ten"][held] == 1
    expected = expected_score(model, xh, tricks_plus_ten)
    sub = {name: column[held] for name, column in columns.items()}
    pick = chosen(sub, expected)
    offline = {"model": picks_against_rollout(sub, expected)}
    if compared is not None:
        offline["compared"] = picks_against_rollout(sub, expected_score(compared, xh, tricks_plus_ten))
    other = None if compared is None else compared.make_probability(xh)
    folder_of = np.floor(columns["deal"][held] / 1e7).astype(int)
    per_folder = {}
    for index, folder in enumerate(folders):
        rows = folder_of == index
        entry: dict[str, Any] = {
            "held_out_rows": int(rows.sum()),
            "model": scores(p[rows], yh[rows]),
            "rollout": scores(raw[rows], yh[rows]),
        }
        if other is not None:
            entry["compared"] = scores(other[rows], yh[rows])
        per_folder[str(folder)] = entry
    report = {
        "rows": len(made),
        "held_out_rows": int(held.sum()),
        "held_out_deals": len(np.unique(columns["deal"][held])),
        "rollout_policies": policies,
        "make_trees": model.meta["make_trees"],
        "tricks_trees": model.meta["tricks_trees"],
        "model_bytes": len(model.to_json()),
        "cross_validation": cv,
        "log_loss": {"model": round(log_loss(p, yh), 4), "rollout": round(log_loss(raw, yh), 4)},
        "brier": {"model": round(brier(p, yh), 4), "rollout": round(brier(raw, yh), 4)},
        "tricks_rmse": {
            "model": round(float(np.sqrt(np.mean((model.expected_tricks(xh) - tricks[held]) ** 2))), 3),
            "rollout": round(float(np.sqrt(np.mean((columns["mean_tricks"][held] - tricks[held]) ** 2))), 3),
        },
        "calibration_all": calibration(bids, p, raw, yh, other),
        "calibration_chosen": calibration(
            bids[pick], p[pick], raw[pick], yh[pick], None if other is None else other[pick]
        ),
        "per_folder": per_folder,
        "held_out_picks": offline,
    }
    if other is not None:
        report["compared"] = {"model": str(args.compare), **scores(other, yh)}
    text = json.dumps(report, indent=1)
    if args.report:
        args.report.write_text(text + "\n", "utf-8")
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
