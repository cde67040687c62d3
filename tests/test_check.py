"""`upriver check`: exit codes and one-line messages, golden games, and hand-scored stories per preset."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import upriver.cli.check  # noqa: F401  (registers the command)
from upriver import PRESETS, Game, Phase, Scoring, preset
from upriver.cli import app
from upriver.record import FORMAT, dumps, record_of

GOLDEN = Path(__file__).parent / "golden"
NAMES = ["Ann", "Bob", "Cid", "Dee"]
SEED = 2024
runner = CliRunner()


def check(tmp_path: Path, data: Any, *options: str) -> tuple[int, str, str]:
    """Run ``upriver check`` on ``data`` (a dict is written as JSON): exit code, stdout, stderr."""
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), *options])
    return result.exit_code, result.stdout, result.stderr


def summary(tmp_path: Path, data: Any) -> dict[str, Any]:
    code, out, err = check(tmp_path, data, "--json")
    assert (code, err) == (0, "")
    parsed: dict[str, Any] = json.loads(out)
    return parsed


def one_line(err: str) -> str:
    assert err.endswith("\n")
    assert err.count("\n") == 1
    return err.rstrip("\n")


# ------------------------------------------------------------------ golden games


def golden_game(name: str) -> str:
    """A seeded 4-player game of ``name``, played by uniformly random legal moves from ``Random(SEED)``."""
    game = Game(preset(name, 4), NAMES, seed=SEED)
    rng = random.Random(SEED)
    while not game.is_over:
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat=seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    return dumps(record_of(game, extras={"seed": SEED, "policy": "uniform random legal moves"}))


def trick_winners(entry: dict[str, Any], n: int) -> list[int]:
    """Tricks per seat from a round's plays, computed without the engine."""
    trump = entry["turned"][1] if entry["turned"] else None
    took = [0] * n
    leader = (entry["dealer"] + 1) % n
    plays = entry["plays"]
    for start in range(0, len(plays), n):
        cards = plays[start : start + n]
        led = cards[0][1]

        def strength(card: str, led: str = led) -> int:
            rank = "23456789TJQKA".index(card[0])
            return rank + 100 if card[1] == trump else rank + 50 if card[1] == led else -1

        best = max(range(n), key=lambda i: strength(cards[i]))
        leader = (leader + best) % n
        took[leader] += 1
    return took


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_golden_record_regenerates_to_the_same_bytes(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    text = golden_game(name)
    if os.environ.get("UPRIVER_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_golden_record_totals_equal_the_preset_formula_summed_over_its_rounds(
    name: str, tmp_path: Path
) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    ten_plus_bid = PRESETS[name].options["scoring"] is Scoring.TEN_PLUS_BID
    totals = [0, 0, 0, 0]
    for entry in data["rounds"]:
        for seat, took in enumerate(trick_winners(entry, 4)):
            bid = entry["bids"][seat]
            if ten_plus_bid:
                totals[seat] += 10 + bid if bid == took else 0
            else:
                totals[seat] += took + (10 if bid == took else 0)
    result = summary(tmp_path, data)
    assert result["totals"] == totals
    assert result["complete"] is True
    assert result["winners"] == [seat for seat in range(4) if totals[seat] == max(totals)]


# ------------------------------------------------------------------ hand-scored stories

# Ann deals, so Bob bids first and leads; bids run Bob, Cid, Dee, Ann. Hearts are trump.
TWO_CARDS = {
    "dealer": 0,
    "hands": [["7C", "9S"], ["AH", "3C"], ["KC", "4D"], ["QC", "5D"]],
    "turned": "2H",
}


def record(rules: dict[str, Any], *rounds: dict[str, Any]) -> dict[str, Any]:
    return {"format": FORMAT, "rules": rules, "players": NAMES, "rounds": list(rounds)}


def test_classic_story_agrees_with_hand_computed_scores(tmp_path: Path) -> None:
    # Trump must be broken, so Bob leads 3C, not his AH; Cid's KC takes it. Cid leads 4D,
    # Ann (no diamonds) throws 9S, Bob trumps with AH. Bids Ann 1, Bob 1, Cid 1, Dee 0:
    # Ann misses (0), Bob and Cid make 1 (10 + 1), Dee makes 0 (10 + 0).
    story = record(
        {"preset": "classic", "schedule": [2]},
        {**TWO_CARDS, "bids": [1, 1, 1, 0], "plays": ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"]},
    )
    assert summary(tmp_path, story) == {
        "rounds": [{"tricks": [0, 1, 1, 0], "scores": [0, 11, 11, 10]}],
        "totals": [0, 11, 11, 10],
        "complete": True,
        "winners": [1, 2],
    }
    code, out, _ = check(tmp_path, story)
    assert code == 0
    assert "Bob and Cid win with 11" in out


def test_classic_hook_story_agrees_with_hand_computed_scores(tmp_path: Path) -> None:
    # Bob 0, Cid 1, Dee 0 bid 1 of 2 tricks, so the hook forbids Ann 1; she bids 0 and makes it.
    # Bob took a trick he did not want (0), Cid made 1 (11), Dee and Ann made 0 (10 each).
    story = record(
        {"preset": "classic-hook", "schedule": [2]},
        {**TWO_CARDS, "bids": [0, 0, 1, 0], "plays": ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"]},
    )
    assert summary(tmp_path, story)["rounds"] == [{"tricks": [0, 1, 1, 0], "scores": [10, 0, 11, 10]}]
    assert summary(tmp_path, story)["winners"] == [2]


def test_countdown_story_agrees_with_hand_computed_scores(tmp_path: Path) -> None:
    # Round 1: any card may lead, so Bob leads trump AH, then 3C: both tricks his. Bob 2,
    # Cid 0, Dee 0 total 2, so the hook forbids Ann 0; she bids 1 and misses.
    # Scores: Ann 0, Bob 2 + 10, Cid 0 + 10, Dee 0 + 10.
    # Round 2: Bob deals, Cid leads 5S; Dee has no spade and trumps with AD (diamonds).
    # Cid 0, Dee 1, Ann 1, Bob 0: Ann misses (0), Bob 10, Cid 10, Dee 1 + 10.
    story = record(
        {"preset": "countdown", "schedule": [2, 1]},
        {**TWO_CARDS, "bids": [1, 2, 0, 0], "plays": ["AH", "KC", "QC", "7C", "3C", "4D", "5D", "9S"]},
        {"dealer": 1, "hands": [["KS"], ["2S"], ["5S"], ["AD"]], "turned": "TD", "bids": [1, 0, 0, 1],
         "plays": ["5S", "AD", "KS", "2S"]},
    )  # fmt: skip
    assert summary(tmp_path, story) == {
        "rounds": [
            {"tricks": [0, 2, 0, 0], "scores": [0, 12, 10, 10]},
            {"tricks": [0, 0, 0, 1], "scores": [0, 10, 10, 11]},
        ],
        "totals": [0, 22, 20, 21],
        "complete": True,
        "winners": [1],
    }


def test_closed_fists_story_agrees_with_hand_computed_scores(tmp_path: Path) -> None:
    # Bids are shown together, so no hook: Bob 2 and three 0s total the 2 tricks, and all make it.
    story = record(
        {"preset": "closed-fists", "schedule": [2]},
        {**TWO_CARDS, "bids": [0, 2, 0, 0], "plays": ["AH", "KC", "QC", "7C", "3C", "4D", "5D", "9S"]},
    )
    assert summary(tmp_path, story)["rounds"] == [{"tricks": [0, 2, 0, 0], "scores": [10, 12, 10, 10]}]


def test_overbid_story_agrees_with_hand_computed_scores(tmp_path: Path) -> None:
    # Bob, Cid, Dee bid 0; no bid of Ann's can push the total past 2, so she must bid 2, the
    # hand size, and takes nothing (0). Bob and Cid take a trick each (1), Dee makes 0 (10).
    story = record(
        {"preset": "overbid", "schedule": [2]},
        {**TWO_CARDS, "bids": [2, 0, 0, 0], "plays": ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"]},
    )
    assert summary(tmp_path, story) == {
        "rounds": [{"tricks": [0, 1, 1, 0], "scores": [0, 1, 1, 10]}],
        "totals": [0, 1, 1, 10],
        "complete": True,
        "winners": [3],
    }


def test_round_in_progress_has_tricks_so_far_and_null_scores(tmp_path: Path) -> None:
    story = record(
        {"preset": "classic", "schedule": [2, 1]},
        {**TWO_CARDS, "bids": [1, 1, 1, 0], "plays": ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"]},
        {
            "dealer": 1,
            "hands": [["KS"], ["2S"], ["5S"], ["AD"]],
            "turned": "TD",
            "bids": [None, None, 0, None],
        },
    )
    assert summary(tmp_path, story) == {
        "rounds": [
            {"tricks": [0, 1, 1, 0], "scores": [0, 11, 11, 10]},
            {"tricks": [0, 0, 0, 0], "scores": None},
        ],
        "totals": [0, 11, 11, 10],
        "complete": False,
        "winners": [],
    }
    code, out, _ = check(tmp_path, story)
    assert code == 0
    assert "Bob and Cid lead with 11" in out


# ------------------------------------------------------------------ score-only records


def test_score_only_record_is_scored_from_its_bids_and_tricks(tmp_path: Path) -> None:
    # Hook on: Bob 1, Cid 0, Dee 1 total 2 of 3 tricks, so Ann may not bid 1; she bids 0.
    story = record(
        {"schedule": [3, 2], "dealer_bid": "hook"},
        {"dealer": 0, "bids": [0, 1, 0, 1], "tricks": [0, 2, 0, 1]},
        {"dealer": 1, "bids": [1, 1, 1, 0], "tricks": [1, 0, 1, 0]},
    )
    assert summary(tmp_path, story) == {
        "rounds": [
            {"tricks": [0, 2, 0, 1], "scores": [10, 2, 10, 11]},
            {"tricks": [1, 0, 1, 0], "scores": [11, 0, 11, 10]},
        ],
        "totals": [21, 2, 21, 21],
        "complete": True,
        "winners": [0, 2, 3],
    }


def test_score_only_hook_bid_exits_1_naming_round_player_and_rule(tmp_path: Path) -> None:
    story = record(
        {"schedule": [3], "dealer_bid": "hook"}, {"dealer": 0, "bids": [1, 1, 0, 1], "tricks": [1, 1, 0, 1]}
    )
    code, out, err = check(tmp_path, story)
    assert (code, out) == (1, "")
    assert "rule broken: round 1, Ann: may not bid 1: with the hook" in one_line(err)


def test_score_only_tricks_not_adding_up_exit_1(tmp_path: Path) -> None:
    story = record({"schedule": [3]}, {"dealer": 0, "bids": [1, 1, 0, 1], "tricks": [1, 1, 0, 0]})
    code, _, err = check(tmp_path, story)
    assert code == 1
    assert "round 1: the tricks add up to 2 (Ann 1, Bob 1, Cid 0, Dee 0), but 3 were played" in one_line(err)


# ------------------------------------------------------------------ rule breaches: exit 1

STORY_RULES = {"preset": "classic", "schedule": [2]}
STORY_PLAYS = ["3C", "KC", "QC", "7C", "4D", "5D", "9S", "AH"]


def story_with(**changes: Any) -> dict[str, Any]:
    return record(STORY_RULES, {**TWO_CARDS, "bids": [1, 1, 1, 0], "plays": STORY_PLAYS, **changes})


BREACHES: list[tuple[str, dict[str, Any], str]] = [
    (
        "revoke",
        story_with(plays=["3C", "4D"]),
        "round 1, Cid: must follow suit: clubs were led and Cid holds KC",
    ),
    (
        "trump led before broken",
        story_with(plays=["AH"]),
        "round 1, Bob: may not lead trump (hearts) before trump",
    ),
    ("card not in hand", story_with(plays=["KC"]), "round 1, Bob: does not hold KC"),
    (
        "hook bid",
        record({**STORY_RULES, "dealer_bid": "hook"}, {**TWO_CARDS, "bids": [0, 1, 1, 0]}),
        "round 1, Ann: may not bid 0: with the hook",
    ),
    (
        "wrong hand size",
        record({"schedule": [3]}, {**TWO_CARDS, "bids": [None] * 4}),
        "round 1, Ann: was dealt 2 cards",
    ),
    (
        "too many rounds",
        record(
            STORY_RULES,
            {**TWO_CARDS, "bids": [1, 1, 1, 0], "plays": STORY_PLAYS},
            {"dealer": 1, "bids": [None] * 4},
        ),
        "round 2, Bob: the schedule has only 1 rounds",
    ),
    (
        "plays before bids",
        story_with(bids=[None, 1, 1, 0]),
        "round 1, Ann: cards are played before Ann has bid",
    ),
    ("null turned card", story_with(turned=None), "round 1, Ann: 44 cards are left after the deal"),
]


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in BREACHES], ids=[c[0] for c in BREACHES])
def test_record_that_breaks_a_rule_exits_1_with_one_line_naming_round_player_and_rule(
    tmp_path: Path, data: dict[str, Any], message: str
) -> None:
    code, out, err = check(tmp_path, data)
    assert code == 1
    assert out == ""
    line = one_line(err)
    assert line.startswith(f"{tmp_path / 'game.json'}: rule broken: ")
    assert message in line


def test_wrong_dealer_in_a_later_round_exits_1(tmp_path: Path) -> None:
    data = record(
        {"preset": "classic", "schedule": [2, 1]},
        {**TWO_CARDS, "bids": [1, 1, 1, 0], "plays": STORY_PLAYS},
        {"dealer": 2, "bids": [None] * 4},
    )
    code, _, err = check(tmp_path, data)
    assert code == 1
    assert "round 2, Cid: the deal passes to the left, so Bob deals round 2, not Cid" in one_line(err)


# ------------------------------------------------------------------ not a record: exit 2

NOT_RECORDS: list[tuple[str, Any, str]] = [
    ("not JSON", "{ not json", "not a game record: record: not JSON: line 1, column 3"),
    ("not an object", "[]", "not a game record: record: a record must be a JSON object, not a list"),
    ("unknown format", {**story_with(), "format": "other/2"}, "format: unknown format 'other/2'"),
    ("missing key", {"format": FORMAT, "players": NAMES}, "record: missing key 'rounds'"),
    ("unknown card", story_with(plays=["3C", "1X"]), "rounds[0].plays[1]: unknown card '1X'"),
    (
        "card dealt twice",
        story_with(turned="KC"),
        "rounds[0].turned: the turned card KC is also dealt at rounds[0].hands[2][0]",
    ),
    (
        "unknown rule value",
        record({"bidding": "shouting"}),
        "rules.bidding: bidding must be one of 'sequential', 'simultaneous', not 'shouting'",
    ),
    (
        "impossible rules",
        record({"bidding": "simultaneous", "dealer_bid": "overbid"}),
        "rules.dealer_bid: simultaneous bidding has no last bidder",
    ),
    (
        "wrong type",
        record({"max_cards": "ten"}),
        "rules.max_cards: max_cards must be a whole number of at least 1, not 'ten'",
    ),
]


@pytest.mark.parametrize(("data", "message"), [c[1:] for c in NOT_RECORDS], ids=[c[0] for c in NOT_RECORDS])
def test_document_that_is_not_a_record_exits_2_with_one_line_saying_what_and_where(
    tmp_path: Path, data: Any, message: str
) -> None:
    code, out, err = check(tmp_path, data)
    assert code == 2
    assert out == ""
    line = one_line(err)
    assert line.startswith(f"{tmp_path / 'game.json'}: not a game record: ")
    assert message in line


def test_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path / "nowhere.json")])
    assert result.exit_code == 2
    assert (
        one_line(result.stderr) == f"{tmp_path / 'nowhere.json'}: cannot be read: No such file or directory"
    )


def test_file_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b'{"format": "\xff"}')
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert "not UTF-8 text" in one_line(result.stderr)


def test_valid_record_prints_the_sheet_and_the_winner(tmp_path: Path) -> None:
    code, out, err = check(tmp_path, (GOLDEN / "countdown.json").read_text(encoding="utf-8"))
    assert (code, err) == (0, "")
    totals = json.loads(subprocess_json(GOLDEN / "countdown.json"))["totals"]
    assert f"with {max(totals)}" in out.splitlines()[-1]
    assert len(out.splitlines()) > 19


def subprocess_json(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "upriver", "check", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_real_command_in_a_subprocess_reports_a_revoke_with_exit_1_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "revoke.json"
    path.write_text(json.dumps(story_with(plays=["3C", "4D"])), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "upriver", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert (
        done.stderr
        == f"{path}: rule broken: round 1, Cid: must follow suit: clubs were led and Cid holds KC\n"
    )


def test_real_command_in_a_subprocess_prints_json_for_a_golden_game() -> None:
    result = json.loads(subprocess_json(GOLDEN / "classic.json"))
    assert list(result) == ["rounds", "totals", "complete", "winners"]
    assert result["complete"] is True


# ------------------------------------------------------------------ hostile input

LINE_LIMIT = 300
"""The most characters of a refusal line after ``FILE: ``, whatever the input held."""


def run_check(path: Path, *options: str) -> tuple[int, str, str]:
    """The real ``upriver check`` in a subprocess: exit code, stdout, stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "upriver", "check", str(path), *options],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def bounded_line(err: str, path: Path) -> str:
    """The one line on stderr, after its ``FILE: `` prefix; bounded and never a traceback."""
    line = one_line(err)
    assert "Traceback" not in line
    assert line.startswith(f"{path}: ")
    rest = line.removeprefix(f"{path}: ")
    assert len(rest) <= LINE_LIMIT, rest[:500]
    return rest


def golden_with(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / "classic.json").read_text(encoding="utf-8"))
    data.update(changes)
    return data


def test_a_number_of_4301_digits_exits_2_with_one_line_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    text = json.dumps(golden_with()).replace('"dealer": 0', '"dealer": ' + "7" * 4301, 1)
    path.write_text(text, encoding="utf-8")
    code, out, err = run_check(path)
    assert (code, out) == (2, "")
    rest = bounded_line(err, path)
    assert rest.startswith("not a game record: record: not JSON this reader can follow: ")
    assert "4301 digits" in rest


def test_a_player_named_with_a_lone_surrogate_exits_2_naming_the_seat(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(golden_with(players=["Ann", "B\ud800b", "Cid", "Dee"])), encoding="utf-8")
    for options in ((), ("--json",)):
        code, out, err = run_check(path, *options)
        assert (code, out) == (2, "")
        rest = bounded_line(err, path)
        assert rest.startswith("not a game record: players[1]: a name must be valid Unicode text")
        assert "U+D800" in rest


def test_a_player_name_with_a_newline_exits_2_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(golden_with(players=["Ann", "Bob", "Cid\nDee", "Eve"])), encoding="utf-8")
    code, out, err = run_check(path)
    assert (code, out) == (2, "")
    rest = bounded_line(err, path)
    assert rest.startswith("not a game record: players[2]: a name may not hold control characters")
    assert "'Cid\\nDee'" in rest


def test_a_20_mb_value_is_quoted_as_a_bounded_excerpt(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(golden_with(format="x" * 20_000_000)), encoding="utf-8")
    code, out, err = run_check(path)
    assert (code, out) == (2, "")
    rest = bounded_line(err, path)
    assert rest.startswith("not a game record: format: unknown format 'xxxxxxxx")
    assert "…" in rest


def test_names_that_differ_only_in_case_or_spaces_exit_2(tmp_path: Path) -> None:
    code, out, err = check(tmp_path, golden_with(players=["Ann", "Bob", "ANN", "Dee"]))
    assert (code, out) == (2, "")
    assert "players[2]: 'ANN' is already at the table as 'Ann' (seat 0)" in one_line(err)


def test_a_file_name_that_is_not_printable_is_escaped_on_the_one_line(tmp_path: Path) -> None:
    path = tmp_path / "two\nlines\udcff.json"
    code, out, err = run_check(path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "\\n" in err
    assert "cannot be read" in err
