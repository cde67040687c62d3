"""The arena's hand log and bidding report: every seat's every round, the bots' predictions, the figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.helpers import SHORT
from upriver import SeatView, preset
from upriver.arena.core import ArenaConfig, hand_records, run_arena
from upriver.arena.hands import (
    HandRecord,
    hand_report,
    read_hand_log,
    wilson,
    write_hand_log,
)
from upriver.arena.spec import ArenaError
from upriver.bots import BOT_KINDS, BasicBot
from upriver.cli import app
from upriver.cli import arena as arena_cli

assert arena_cli  # registers `arena` and `arena-report` on the app


def record(bid: int, tricks: int, *, position: int = 0, predicted: float | None = None) -> HandRecord:
    estimates = None if predicted is None else ((bid, predicted), (bid + 1, 0.1))
    return HandRecord(
        game=0,
        deal=0,
        rotation=0,
        round=1,
        seat=0,
        bot="b",
        players=4,
        hand_size=5,
        dealer_rule="hook",
        scoring="tricks-plus-ten",
        position=position,
        bid=bid,
        tricks=tricks,
        score=tricks + (10 if bid == tricks else 0),
        estimates=estimates,
    )


def test_the_hand_log_holds_every_seat_of_every_round_as_the_game_scored_it() -> None:
    result = run_arena(ArenaConfig(bots=("basic", "random"), rules=SHORT, games=2, seed=4))
    records = hand_records(result)
    assert len(records) == 2 * SHORT.rounds * 4
    for game in result.results:
        mine = [r for r in records if r.game == game.index]
        for seat in range(4):
            assert sum(r.score for r in mine if r.seat == seat) == game.totals[seat]
            assert sum(r.bid == r.tricks for r in mine if r.seat == seat) == game.exact[seat]
            assert {r.bot for r in mine if r.seat == seat} == {result.names[game.seating[seat]]}
        for number in range(1, SHORT.rounds + 1):
            round_ = [r for r in mine if r.round == number]
            assert sorted(r.position for r in round_) == [0, 1, 2, 3]
            assert {r.hand_size for r in round_} == {SHORT.hand_sizes[number - 1]}
            assert sum(r.tricks for r in round_) == SHORT.hand_sizes[number - 1]
    assert {r.dealer_rule for r in records} == {"free"}
    assert all(r.estimates is None for r in records)  # neither bot predicts its bids


@pytest.mark.slow
def test_a_search_bot_reports_each_candidates_make_rate_when_it_bids() -> None:
    rules = preset("countdown", 4, max_cards=3)
    result = run_arena(ArenaConfig(bots=("pimc:40", "basic"), rules=rules, games=2, seed=9))
    searched = [r for r in hand_records(result) if r.bot == "pimc:40"]
    predicted = [r for r in searched if r.estimates is not None]
    assert predicted  # every round with a choice of bid
    for r in predicted:
        assert r.predicted is not None
        assert all(0.0 <= p <= 1.0 for _, p in r.estimates or ())
        assert len(r.estimates or ()) >= 2
    # A one-card round under the hook may leave the dealer one legal bid: nothing to predict.
    assert all(r.estimates is None for r in hand_records(result) if r.bot == "basic")


class Predictor(BasicBot):
    """The rule of thumb, claiming a fixed make rate of 0.75 for its bid and 0.25 for the others."""

    kind = "predictor"

    def choose_bid(self, view: SeatView) -> int:
        bid = super().choose_bid(view)
        self.last_bid_estimates = {b: 0.75 if b == bid else 0.25 for b in view.legal_bids}
        return bid


def test_the_log_keeps_what_a_bot_predicted_at_bid_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOT_KINDS, Predictor.kind, Predictor)
    result = run_arena(ArenaConfig(bots=("predictor", "basic"), rules=SHORT, games=2, seed=3))
    mine = [r for r in hand_records(result) if r.bot == "predictor"]
    assert mine
    assert all(r.predicted == 0.75 for r in mine)
    calibration = hand_report(mine)["predictor"]["calibration"]
    assert sum(row["n"] for row in calibration) == len(mine)
    assert all(row["predicted"] == pytest.approx(0.75) for row in calibration)


def test_the_report_gives_exact_over_under_bid_zero_and_position_rates() -> None:
    rows = [
        record(0, 0, position=0),
        record(0, 1, position=1),
        record(2, 2, position=0),
        record(2, 1, position=1),
        record(3, 4, position=2),
    ]
    report = hand_report(rows)["b"]
    assert report["hands"] == 5
    assert (report["exact"]["hits"], report["over"]["hits"], report["under"]["hits"]) == (2, 2, 1)
    assert report["bid_zero"]["n"] == 2
    assert report["bid_zero"]["rate"] == 0.5
    assert [(row["bid"], row["n"], row["rate"]) for row in report["by_bid"]] == [
        (0, 2, 0.5),
        (2, 2, 0.5),
        (3, 1, 0.0),
    ]
    assert [(row["position"], row["hits"]) for row in report["by_position"]] == [(0, 2), (1, 0), (2, 0)]
    assert report["calibration"] == []


def test_calibration_sets_the_mean_prediction_of_the_bid_made_against_the_realized_rate() -> None:
    rows = [
        record(1, 1, predicted=0.6),
        record(1, 2, predicted=0.4),
        record(1, 1, predicted=0.8),
        record(0, 0),
    ]
    (row,) = hand_report(rows)["b"]["calibration"]
    assert row["bid"] == 1
    assert row["n"] == 3
    assert row["predicted"] == pytest.approx(0.6)
    assert row["realized"] == pytest.approx(2 / 3)
    assert row["gap"] == pytest.approx(0.6 - 2 / 3)
    assert (row["low"], row["high"]) == pytest.approx(wilson(2, 3))


def test_wilson_intervals_stay_inside_zero_and_one_and_contain_the_share() -> None:
    for hits, n in ((0, 10), (10, 10), (3, 7), (500, 1000)):
        low, high = wilson(hits, n)
        assert 0.0 <= low <= hits / n <= high <= 1.0
    assert wilson(500, 1000)[1] - wilson(500, 1000)[0] == pytest.approx(2 * 1.96 * 0.5 / 1000**0.5, rel=0.01)


def test_a_hand_log_reads_back_what_was_written(tmp_path: Path) -> None:
    rows = [record(1, 1, predicted=0.6), record(0, 2)]
    path = write_hand_log(rows, tmp_path / "logs" / "hands.jsonl")
    assert read_hand_log(path) == rows


def test_a_broken_hand_log_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = write_hand_log([record(1, 1)], tmp_path / "hands.jsonl")
    good = path.read_text()
    path.write_text(good + "{not json\n")
    with pytest.raises(ArenaError, match="line 2"):
        read_hand_log(path)
    path.write_text(good + json.dumps({"format": "upriver-hands/1", "bid": 1}) + "\n")
    with pytest.raises(ArenaError, match="line 2: a hand log line lacks"):
        read_hand_log(path)
    path.write_text("")
    with pytest.raises(ArenaError, match="holds no hands"):
        read_hand_log(path)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("bid", 1e400, "bid must be a whole number"),
        ("bid", True, "bid must be a whole number"),
        ("tricks", "2", "tricks must be a whole number"),
        ("bot", 5, "bot must be text"),
        ("scoring", None, "scoring must be text"),
        ("estimates", {"1": float("nan")}, "make rate for bid 1 must be between 0 and 1"),
        ("estimates", {"1": 1.5}, "make rate for bid 1 must be between 0 and 1"),
        ("estimates", {"one": 0.5}, "keyed by a bid, a whole number"),
        ("estimates", [0.5], "estimates must be an object"),
    ],
)
def test_a_hand_log_field_of_the_wrong_kind_is_refused_saying_which_and_what_it_must_be(
    tmp_path: Path, field: str, value: object, says: str
) -> None:
    line = record(1, 1, predicted=0.6).to_json() | {field: value}
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(ArenaError, match=f"line 1: .*{says}"):
        read_hand_log(path)
    refused = CliRunner().invoke(app, ["arena-report", str(path)])
    assert refused.exit_code == 2
    assert refused.exception is None or isinstance(refused.exception, SystemExit)


@pytest.mark.slow
def test_the_command_writes_the_hand_log_and_the_report_command_reads_it(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    args = ["arena", "pimc:20", "basic", "--games", "2", "--seed", "5", "--jobs", "1", "--max-cards", "2"]
    out = CliRunner().invoke(app, [*args, "--out", str(tmp_path), "--hand-log", str(log)])
    assert out.exit_code == 0, out.output
    assert "Bidding: how the bids turned out" in out.stdout
    assert len(read_hand_log(log)) == 2 * 4 * 4
    report = CliRunner().invoke(app, ["arena-report", str(log), "--json"])
    assert report.exit_code == 0, report.output
    data = json.loads(report.stdout)
    assert set(data) == {"pimc:20", "basic"}
    assert data["pimc:20"]["calibration"]
    table = CliRunner().invoke(app, ["arena-report", str(log), "--bot", "pimc:20"])
    assert table.exit_code == 0, table.output
    assert "calibration" in table.stdout
    assert "basic:" not in table.stdout


def test_the_report_command_refuses_a_missing_log_or_an_unknown_bot(tmp_path: Path) -> None:
    missing = CliRunner().invoke(app, ["arena-report", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2
    assert "cannot read the hand log" in missing.output
    log = write_hand_log([record(1, 1)], tmp_path / "hands.jsonl")
    unknown = CliRunner().invoke(app, ["arena-report", str(log), "--bot", "zz"])
    assert unknown.exit_code == 2
    assert "no hands of 'zz'" in unknown.output
