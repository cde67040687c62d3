"""`upriver arena` as a command, and the report files it writes: JSON, PNG chart, table, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.helpers import SHORT
from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.match import GameResult, play_game
from upriver.arena.report import dumps, output_stem, write_chart, write_json
from upriver.bots import BOT_KINDS
from upriver.cli import app
from upriver.cli import arena as arena_cli


def test_the_command_writes_json_and_png_and_prints_json_that_parses(tmp_path: Path) -> None:
    args = ["arena", "random", "basic", "--games", "2", "--seed", "7", "--jobs", "1", "--max-cards", "2"]
    out = CliRunner().invoke(app, [*args, "--out", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["format"] == "upriver-arena/1"
    assert [row["bot"] for row in data["results"]] == ["random", "basic"]
    assert data["rules"]["hand_sizes"] == [1, 2, 2, 1]
    assert {"mean", "low", "high", "n"} <= set(data["results"][0]["points_per_game"])
    assert len(data["games"]) == 2
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["random-vs-basic-s7-n2.json", "random-vs-basic-s7-n2.png"]
    assert json.loads((tmp_path / written[0]).read_text()) == data
    assert (tmp_path / written[1]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_prints_a_table_with_every_bot_and_their_difference(tmp_path: Path) -> None:
    args = ["arena", "basic", "random", "--games", "4", "--seed", "2", "--jobs", "1", "--preset", "countdown"]
    out = CliRunner().invoke(app, [*args, "--schedule", "3,2", "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "basic" in out.stdout
    assert "random" in out.stdout
    assert "basic − random:" in out.stdout
    assert "points a game" in out.stdout


def test_the_command_refuses_an_unknown_bot_naming_the_registered_kinds(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["arena", "random", "wizard", "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert "unknown bot 'wizard'" in out.output
    for kind in BOT_KINDS:
        assert kind in out.output
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_the_command_needs_two_bots(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["arena", "basic", "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert "at least two bots" in out.output


def test_json_and_chart_are_written_where_asked(tmp_path: Path) -> None:
    res = run_arena(ArenaConfig(bots=("random", "basic", "basic"), rules=SHORT, games=4, seed=1))
    assert [bot.name for bot in res.summary.bots] == ["random", "basic", "basic#2"]
    stem = output_stem(res)
    assert stem == "random-vs-basic-vs-basic_2-s1-n4"
    json_path = write_json(res, tmp_path / "deep" / f"{stem}.json")
    png_path = write_chart(res, tmp_path / "deep" / f"{stem}.png")
    assert json.loads(json_path.read_text()) == json.loads(dumps(res))
    assert png_path.stat().st_size > 1000


def test_the_command_reports_the_finished_games_after_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = play_game
    calls: list[int] = []

    def flaky(task: Any) -> GameResult:
        calls.append(task.index)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr("upriver.arena.runner.play_game", flaky)
    args = ["arena", "random", "basic", "--games", "10", "--seed", "1", "--jobs", "1"]
    out = CliRunner().invoke(app, [*args, "--max-cards", "2", "--out", str(tmp_path), "--json"])
    assert out.exit_code == arena_cli.INTERRUPTED
    data = json.loads(out.stdout)
    assert data["interrupted"] is True
    assert data["games_played"] == 4
    assert data["games_used"] == 4
