"""`upriver review FILE`: the review in the terminal and as JSON (docs/review.md, docs/review.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import upriver.cli.review
from tests.conftest import record_doc
from tests.reviewing import GOLDEN, short_copy
from upriver.cli import app
from upriver.record import load
from upriver.review import MAX_DEALS, Settings

ROOT = Path(__file__).parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "review.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
runner = CliRunner()

assert upriver.cli.review  # registers `upriver review` on the app


def problems(document: object) -> list[str]:
    return [
        f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}"
        for error in VALIDATOR.iter_errors(document)
    ]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("golden", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_review_json_of_a_golden_record_is_deterministic_and_matches_the_schema(
    golden: Path, tmp_path: Path
) -> None:
    path = short_copy(golden, tmp_path)
    args = ["review", str(path), "--json", "--budget", "16", "--jobs", "1"]
    first = runner.invoke(app, args)
    second = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    document = json.loads(first.stdout)
    assert problems(document) == []
    assert [seat["player"] for seat in document["seats"]] == list(load(golden).players)
    assert all(len(seat["rounds"]) == len(load(path).rounds) for seat in document["seats"])


def test_one_player_is_reviewed_by_name_in_any_case(tmp_path: Path) -> None:
    path = short_copy(GOLDEN[0], tmp_path, rounds=2)
    result = runner.invoke(
        app, ["review", str(path), "--json", "--player", " bOb ", "--budget", "8", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [seat["player"] for seat in document["seats"]] == ["Bob"]
    assert problems(document) == []


def test_the_table_names_each_round_the_totals_and_the_biggest_mistakes(tmp_path: Path) -> None:
    path = short_copy(GOLDEN[0], tmp_path, rounds=6)
    result = runner.invoke(app, ["review", str(path), "--player", "Ann", "--budget", "16", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "Ann:" in result.stdout
    assert "to bidding" in result.stdout
    document = json.loads(
        runner.invoke(
            app, ["review", str(path), "--json", "--player", "Ann", "--budget", "16", "--jobs", "1"]
        ).stdout
    )
    for mistake in document["seats"][0]["mistakes"]:
        assert f"round {mistake['round']}" in result.stdout
    if not document["seats"][0]["mistakes"]:
        assert "No decision cost the threshold or more." in result.stdout


def test_an_unknown_player_is_refused_with_the_players_there_are(tmp_path: Path) -> None:
    path = short_copy(GOLDEN[0], tmp_path, rounds=1)
    result = runner.invoke(app, ["review", str(path), "--player", "Zed"])
    assert result.exit_code == 2
    assert "no player is named 'Zed': the players are Ann, Bob, Cid, Dee" in result.stderr
    assert result.stdout == ""


def test_a_score_keepers_record_is_refused_because_it_has_no_cards(tmp_path: Path) -> None:
    doc = record_doc(rounds=[{"dealer": 0, "bids": [0, 1, 0, 1], "tricks": [0, 1, 0, 0]}])
    path = tmp_path / "kept.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{path}: cannot be reviewed: round 1 was kept without its cards")
    assert "Traceback" not in result.output


def test_a_record_that_breaks_a_rule_is_refused_as_check_refuses_it(tmp_path: Path) -> None:
    doc = record_doc()
    doc["rounds"][0]["plays"] = ["7H", "2C", "KD", "KD"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{path}: rule broken: round 1")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not a game record: record: not JSON"),
        (b"\xff\xfe", "not a game record: not UTF-8 text"),
    ],
)
def test_a_file_that_is_no_record_is_refused_in_one_line(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_cannot_be_read(tmp_path: Path) -> None:
    result = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "cannot be read" in result.stderr


@pytest.mark.parametrize("budget", ["0", "100001", "1000000000"])
def test_a_budget_below_one_deal_or_past_the_most_is_refused_by_the_command_line(
    tmp_path: Path, budget: str
) -> None:
    path = short_copy(GOLDEN[0], tmp_path, rounds=1)
    result = runner.invoke(app, ["review", str(path), "--budget", budget])
    assert result.exit_code == 2
    assert "--budget" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_review_settings_refuse_a_budget_past_the_most_saying_the_range() -> None:
    with pytest.raises(ValueError, match="from 1 to 100,000"):
        Settings(deals=MAX_DEALS + 1)
