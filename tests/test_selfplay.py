"""`upriver selfplay`: counterfactual bid data written chunk by chunk, reproducible and resumable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from typer.testing import CliRunner

from tests.conftest import expected_score
from upriver.bots.bidmodel import FEATURES
from upriver.cli import app
from upriver.cli import selfplay as selfplay_cli
from upriver.rules import Scoring

TINY = ["--deals", "3", "--chunk-size", "1", "--opponents", "basic,random"]
TINY += ["--iterations", "24", "--jobs", "1"]


def run(out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["selfplay", str(out), *TINY, *extra])
    return result.exit_code, result.output


def columns(path: Path) -> dict[str, NDArray[Any]]:
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


@pytest.mark.slow
def test_selfplay_writes_one_file_per_chunk_with_features_and_labels_and_resumes(tmp_path: Path) -> None:
    code, output = run(tmp_path)
    assert code == 0, output
    chunks = sorted(tmp_path.glob("chunk-*.npz"))
    assert [path.name for path in chunks] == [f"chunk-0-00000{i}.npz" for i in range(3)]
    first = columns(chunks[0])
    assert set(FEATURES) | set(selfplay_cli.LABELS) <= set(first)
    assert all(len(first[name]) == len(first["made"]) for name in (*FEATURES, *selfplay_cli.LABELS))
    code, output = run(tmp_path)
    assert code == 0
    assert "0 chunks written now" in output
    chunks[1].unlink()
    code, output = run(tmp_path)
    assert "1 chunks written now" in output
    again = columns(chunks[1])
    assert again.keys() == columns(chunks[2]).keys()


@pytest.mark.slow
def test_a_chunk_is_the_same_whenever_it_is_made(tmp_path: Path) -> None:
    run(tmp_path / "a")
    run(tmp_path / "b", "--jobs", "2")
    for name in ("chunk-0-000000.npz", "chunk-0-000002.npz"):
        a, b = columns(tmp_path / "a" / name), columns(tmp_path / "b" / name)
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[key], b[key]) for key in a)


def test_every_row_is_a_legal_bid_labelled_with_its_outcome_and_score(tmp_path: Path) -> None:
    run(tmp_path, "--deals", "6")
    for path in tmp_path.glob("chunk-*.npz"):
        data = columns(path)
        for i in range(len(data["made"])):
            bid, took, size = int(data["bid"][i]), int(data["tricks"][i]), int(data["hand_size"][i])
            assert 0 <= bid <= size
            assert 0 <= took <= size
            assert data["made"][i] == (bid == took)
            scoring = Scoring.TRICKS_PLUS_TEN if data["tricks_plus_ten"][i] else Scoring.TEN_PLUS_BID
            assert data["score"][i] == expected_score(scoring, bid, took)
            assert 0 <= data["make_rate"][i] <= 1


def test_resuming_with_other_settings_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    run(tmp_path)
    before = sorted(path.name for path in tmp_path.iterdir())
    result = CliRunner().invoke(
        app, ["selfplay", str(tmp_path), *TINY[:-4], "--iterations", "48", "--jobs", "1"]
    )
    assert result.exit_code == 2
    assert "other settings" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == before


def test_an_unknown_opponent_kind_is_refused_naming_the_kinds(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["selfplay", str(tmp_path), "--opponents", "basic,wizard"])
    assert result.exit_code == 2
    assert "unknown bot kind 'wizard'" in result.output
    assert not tmp_path.exists() or not any(tmp_path.iterdir())
