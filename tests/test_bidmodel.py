"""The learned bid model: the shipped file loads, its trees evaluate as written, expert bids by it,
and retraining from the same data and seed writes the same model."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from upriver import Game, Rules, Schedule, Scoring
from upriver.bots import make_bot
from upriver.bots.bidmodel import (
    FEATURES,
    BidModel,
    BidTable,
    Forest,
    bid_table,
    default_model,
    expected_scores,
    shipped_model,
    using_model,
)
from upriver.bots.ipimc import IpimcBot, IpimcConfig
from upriver.rules import DealerBid
from upriver.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "selfplay"


def first_bid_view(seed: int, size: int = 8, scoring: Scoring = Scoring.TEN_PLUS_BID) -> SeatView:
    """The first bidder's view of a single hook hand."""
    rules = Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(size,),
        dealer_bid=DealerBid.HOOK,
        scoring=scoring,
    )
    game = Game(rules, seed=seed)
    return game.view(game.awaiting[0])


def constant_forest(value: float) -> Forest:
    """A forest of one tree that is a single leaf."""
    return Forest(
        roots=np.array([0]),
        feature=np.array([-1]),
        threshold=np.array([0.0]),
        left=np.array([0]),
        right=np.array([0]),
        value=np.array([value]),
        depth=0,
    )


def test_the_shipped_model_loads_with_the_features_this_version_computes() -> None:
    model = BidModel.load()
    assert model.features == FEATURES
    view = first_bid_view(3)
    table = bid_table(view, IpimcBot(0), 200, seed=5)
    assert table.bids == view.legal_bids
    p = model.make_probability(table.features)
    assert p.shape == (len(view.legal_bids),)
    assert np.all((p > 0) & (p < 1))


def test_a_forest_sums_the_leaf_each_row_reaches_in_every_tree() -> None:
    # Tree 0: x0 <= 1.5 ? 10 : 20.  Tree 1: x1 <= 0 ? (x0 <= 3 ? 1 : 2) : 3.
    forest = Forest(
        roots=np.array([0, 3]),
        feature=np.array([0, -1, -1, 1, 0, -1, -1, -1]),
        threshold=np.array([1.5, 0, 0, 0.0, 3.0, 0, 0, 0]),
        left=np.array([1, 1, 2, 4, 5, 5, 6, 7]),
        right=np.array([2, 1, 2, 7, 6, 5, 6, 7]),
        value=np.array([0, 10, 20, 0, 0, 1, 2, 3.0]),
        depth=2,
    )
    rows = np.array([[1.0, 0.0], [1.5, 1.0], [2.0, -1.0], [4.0, 0.0]])
    assert forest.raw(rows).tolist() == [11.0, 13.0, 21.0, 22.0]
    assert Forest.from_dict(json.loads(json.dumps(forest.to_dict()))).raw(rows).tolist() == [11, 13, 21, 22]


def test_expected_score_is_p_times_ten_plus_bid_or_tricks_plus_ten_p() -> None:
    half = BidModel(features=FEATURES, make=constant_forest(0.0), tricks=constant_forest(2.5), meta={})
    features = np.zeros((3, len(FEATURES)))
    features[:, FEATURES.index("make_rate")] = 0.5  # the forests correct the rollouts: here by nothing
    table = BidTable(bids=(0, 1, 3), features=features)
    assert expected_scores(table, half, Scoring.TEN_PLUS_BID).tolist() == [5.0, 5.5, 6.5]
    assert expected_scores(table, half, Scoring.TRICKS_PLUS_TEN).tolist() == [7.5, 7.5, 7.5]


def test_the_make_forest_starts_from_the_rollout_rate_clipped_as_its_file_says(tmp_path: Path) -> None:
    never = np.zeros((1, len(FEATURES)))  # the rollouts never made this bid; the forest adds nothing
    model = BidModel(
        features=FEATURES, make=constant_forest(0.0), tricks=constant_forest(0.0), meta={}, offset_clip=0.05
    )
    path = tmp_path / "clipped.json"
    path.write_text(model.to_json())
    assert BidModel.load(path).make_probability(never) == pytest.approx([0.05])
    data = json.loads(model.to_json())
    del data["offset_clip"]  # a file from before the clip was written: the first models' 0.001
    path.write_text(json.dumps(data))
    assert BidModel.load(path).make_probability(never) == pytest.approx([0.001])


@pytest.mark.parametrize("clip", [0.0, 0.5, -0.1, 0.7])
def test_a_model_file_whose_clip_would_flatten_or_break_the_make_rate_is_refused(
    tmp_path: Path, clip: float
) -> None:
    data = json.loads(BidModel.load().to_json())
    data["offset_clip"] = clip
    path = tmp_path / "clip.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"strictly between 0 and 0\.5"):
        BidModel.load(path)


def test_a_model_file_for_other_features_is_refused_naming_both(tmp_path: Path) -> None:
    data = json.loads(BidModel.load().to_json())
    data["features"] = ["bid", "hand_size"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"trained on features \('bid', 'hand_size'\)"):
        BidModel.load(path)


@pytest.mark.parametrize("scoring", list(Scoring))
def test_expert_bids_the_models_best_expected_score_the_same_for_the_same_view(scoring: Scoring) -> None:
    for seed in (11, 12):
        view = first_bid_view(seed, scoring=scoring)
        bots = [make_bot("expert", 7) for _ in range(2)]
        bids = {bot.act(view) for bot in bots}
        assert len(bids) == 1
        table = bid_table(view, IpimcBot(0), 2000, random.Random(7).getrandbits(31))
        best = table.bids[int(np.argmax(expected_scores(table, default_model(), scoring)))]
        assert bids == {best}
        assert best in view.legal_bids
        predicted = default_model().make_probability(table.features)
        assert bots[0].last_bid_estimates == dict(zip(table.bids, predicted.tolist(), strict=True))


def test_ipimc_bids_from_its_rollouts_as_before_unless_told_to_use_the_model() -> None:
    view = first_bid_view(21)
    old = IpimcBot(4, budget=300)
    assert old.config.bid_model is False
    assert old.choose_bid(view) == IpimcBot(4, budget=300).analyse(view).best
    assert IpimcBot(4, config=IpimcConfig(bid_model=True), budget=300).config.bid_model is True


def test_expert_bids_with_the_model_using_model_sets_and_the_shipped_one_after() -> None:
    # Every bid sure to be made: under 10 + bid the highest legal bid is worth most.
    sure = BidModel(features=FEATURES, make=constant_forest(50.0), tricks=constant_forest(0.0), meta={})
    view = first_bid_view(11, scoring=Scoring.TEN_PLUS_BID)
    with using_model(sure):
        assert default_model() is sure
        assert make_bot("expert", 7).act(view) == max(view.legal_bids)
    assert default_model() is shipped_model()
    table = bid_table(view, IpimcBot(0), 2000, random.Random(7).getrandbits(31))
    best = table.bids[int(np.argmax(expected_scores(table, shipped_model(), Scoring.TEN_PLUS_BID)))]
    assert best != max(view.legal_bids)
    assert make_bot("expert", 7).act(view) == best


CROSS_VALIDATION = ["--cv-folds", "3", "--offset-clips", "0.001,0.05", "--rounds", "150"]
"""A small cross-validation, to keep the retraining test quick."""


@pytest.mark.slow
def test_retraining_from_the_same_data_and_seed_writes_the_same_model(tmp_path: Path) -> None:
    outputs = []
    for run in range(2):
        out = tmp_path / f"model{run}.json"
        # The second run names the folder by a glob pattern: the same folders, the same model.
        data = str(FIXTURE) if run == 0 else str(FIXTURE.parent / "selfp*")
        command = [sys.executable, str(ROOT / "training" / "train_bid_model.py"), "--data", data]
        done = subprocess.run(
            [*command, "--out", str(out), "--seed", "3", "--min-leaf", "5", *CROSS_VALIDATION],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert {"log_loss", "brier", "calibration_all", "per_folder"} <= set(report)
        for level in report["calibration_all"]:
            low, high = level["realized_ci95"]
            assert 0 <= low <= level["realized"] <= high <= 1
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    model = BidModel.load(tmp_path / "model0.json")
    assert model.meta["seed"] == 3
    assert model.meta["make_trees"] >= 1
    chosen = report["cross_validation"]["offset_clip"]
    assert model.offset_clip == chosen
    assert report["cross_validation"]["make_log_loss"][str(chosen)] == min(
        report["cross_validation"]["make_log_loss"].values()
    )
