"""bench/report.py: the committed benchmark results drawn as the benchmarks page's tables."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import report  # noqa: E402 - bench/ holds scripts, not a package


def result_file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": "Engine speed",
        "script": "bench/engine.py",
        "about": "Random hands through the checked API.",
        "columns": [{"key": "hands_per_s", "label": "hands a second"}, {"key": "ratio", "label": "ratio"}],
        "runs": [
            {
                "date": "2026-11-29",
                "command": "python bench/engine.py",
                "machine": "2 cores, idle",
                "output": {"hands_per_s": 4187, "ratio": 0.52},
            },
            {
                "date": "2026-12-01",
                "command": "python bench/engine.py",
                "machine": "2 cores, busy",
                "output": {"hands_per_s": 11900},
                "note": "after the fast path",
            },
        ],
    }
    data.update(changes)
    return data


def test_every_committed_result_file_is_drawn_with_its_title_and_each_runs_date() -> None:
    results = report.load()
    assert results
    page = report.render(results)
    for result in results:
        assert f"## {result.title}\n" in page
        assert all(run.date in page for run in result.runs)


def test_a_result_is_a_table_with_a_row_per_run_its_figures_and_a_dash_where_a_run_lacks_one() -> None:
    page = report.render_result(report.parse("engine.json", result_file()))
    assert "| 2026-11-29 | `python bench/engine.py` | 2 cores, idle | 4,187 | 0.52 |" in page
    assert "| 2026-12-01 | `python bench/engine.py` | 2 cores, busy | 11,900 | — |" in page
    assert "- 2026-12-01: after the fast path" in page


def test_the_figures_layout_draws_a_table_of_figure_and_value_per_run() -> None:
    result = report.parse("engine.json", result_file(layout="figures", runs=result_file()["runs"][:1]))
    page = report.render_result(result)
    assert "| hands a second | 4,187 |" in page
    assert "| ratio | 0.52 |" in page


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"columns": [{"key": "hand_per_s", "label": "hands"}]}, "column 'hand_per_s' is in no run's output"),
        ({"runs": []}, "'runs' must be a non-empty list"),
        ({"title": 3}, "'title' must be text"),
        ({"layout": "chart"}, "layout 'chart' is not one of runs, figures"),
    ],
)
def test_a_malformed_result_file_is_refused_naming_the_file_and_what_is_wrong(
    changes: dict[str, Any], said: str
) -> None:
    with pytest.raises(report.ResultError, match=r"^engine\.json: ") as refused:
        report.parse("engine.json", result_file(**changes))
    assert said in str(refused.value)


def test_the_command_prints_the_tables_or_one_sentence_and_exit_1_for_a_broken_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "engine.json").write_text(json.dumps(result_file()), "utf-8")
    assert report.main(["--results", str(tmp_path)]) == 0
    assert "## Engine speed" in capsys.readouterr().out
    (tmp_path / "broken.json").write_text("{", "utf-8")
    assert report.main(["--results", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith("bench/report.py: broken.json: not JSON")


def test_the_entries_layout_heads_each_run_with_its_first_figure_and_lists_the_others_under_it() -> None:
    columns = [{"key": "target", "label": "target"}, {"key": "result", "label": "result"}]
    runs = [
        {
            "date": "2026-12-01",
            "command": "python bench/bots.py duel normal basic",
            "machine": "2 cores",
            "output": {"target": "normal > easy", "result": "+19.7 a game"},
        },
    ]
    page = report.render_result(
        report.parse("strength.json", result_file(layout="entries", columns=columns, runs=runs))
    )
    assert (
        "- **normal > easy**<br>\n  `python bench/bots.py duel normal basic` (2026-12-01, 2 cores)<br>\n"
        in page
    )
    assert "  result: +19.7 a game\n" in page


def test_a_column_of_numbers_is_right_aligned_and_a_column_of_words_is_not() -> None:
    runs = [
        {
            "date": "2026-12-01",
            "command": "c",
            "machine": "m",
            "output": {"hands_per_s": 4187, "ratio": "0.79–0.98"},
        },
    ]
    page = report.render_result(report.parse("engine.json", result_file(runs=runs)))
    assert "| --- | --- | --- | ---: | --- |" in page
