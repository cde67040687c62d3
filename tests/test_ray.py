"""``--ray``: the arena, self-play and reviews run as Ray tasks give what worker processes give.

One local Ray of two CPUs serves the whole module (starting one takes seconds); the
commands find it already running and use it. Ray is imported at the top, so without the
cluster extra these tests fail rather than pass unseen.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray
from typer.testing import CliRunner

from tests.reviewing import GOLDEN, short_copy
from upriver.arena.base import ArenaError
from upriver.arena.match import GameResult, play_game
from upriver.arena.runner import run_games
from upriver.arena.schedule import plan
from upriver.arena.spec import parse_spec
from upriver.cli import app
from upriver.cli import arena as _arena  # noqa: F401  (each command module registers its command)
from upriver.cli import review as _review  # noqa: F401
from upriver.cli import selfplay as _selfplay  # noqa: F401
from upriver.cli.backend import MISSING_RAY, BackendError, RayExecutor, ray_executor
from upriver.rules import preset

TIMINGS = ("jobs", "elapsed_s", "mean_move_s", "p95_move_s")
"""What an arena's JSON says about how fast and on how many workers it ran, not about the games."""
ARENA = ["arena", "basic", "random", "--games", "4", "--schedule", "1,2,3", "--seed", "11", "--json"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    yield
    ray.shutdown()


def without_timings(document: Any) -> Any:
    if isinstance(document, dict):
        return {key: without_timings(value) for key, value in document.items() if key not in TIMINGS}
    if isinstance(document, list):
        return [without_timings(value) for value in document]
    return document


def invoke(*args: str) -> tuple[int, str]:
    """The exit status, and standard output if it succeeded, else standard error."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout if result.exit_code == 0 else result.stderr


@pytest.mark.slow
def test_an_arena_on_ray_gives_the_same_json_as_worker_processes_and_one_process(
    tmp_path: Path, local_ray: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[object] = []
    submit = RayExecutor.submit

    def counted(self: RayExecutor, fn: Any, /, *args: Any) -> Any:
        sent.append(args[0])
        return submit(self, fn, *args)

    monkeypatch.setattr(RayExecutor, "submit", counted)
    documents = []
    for backend in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "2", "--ray"]):
        code, output = invoke(*ARENA, *backend, "--out", str(tmp_path / backend[-1]))
        assert code == 0, output
        documents.append(json.loads(output))
    assert len(sent) == documents[2]["games_played"] == 4  # the --ray run's games went to Ray
    assert without_timings(documents[2]) == without_timings(documents[1]) == without_timings(documents[0])


@pytest.mark.slow
def test_selfplay_on_ray_writes_the_same_chunks_as_worker_processes(tmp_path: Path, local_ray: None) -> None:
    tiny = ["--deals", "2", "--chunk-size", "1", "--opponents", "basic,random", "--iterations", "16"]
    for name, backend in (("pool", ["--jobs", "2"]), ("ray", ["--jobs", "2", "--ray"])):
        code, output = invoke("selfplay", str(tmp_path / name), *tiny, *backend)
        assert code == 0, output
    pool, on_ray = (
        sorted((tmp_path / "pool").glob("chunk-*.npz")),
        sorted((tmp_path / "ray").glob("chunk-*.npz")),
    )
    assert [p.name for p in on_ray] == [p.name for p in pool] == ["chunk-0-000000.npz", "chunk-0-000001.npz"]
    for a, b in zip(pool, on_ray, strict=True):
        with np.load(a) as left, np.load(b) as right:
            assert left.files == right.files
            for column in left.files:
                assert np.array_equal(left[column], right[column]), column


@pytest.mark.slow
def test_a_review_on_ray_is_the_review_made_in_one_process(tmp_path: Path, local_ray: None) -> None:
    path = short_copy(GOLDEN[0], tmp_path, rounds=2)
    reviews = []
    for backend in (["--jobs", "1"], ["--ray"]):
        code, output = invoke("review", str(path), "--json", "--budget", "16", *backend)
        assert code == 0, output
        reviews.append(json.loads(output))
    assert reviews[1] == reviews[0]


@pytest.mark.slow
def test_a_stopped_arena_on_ray_keeps_the_games_already_played(local_ray: None) -> None:
    tasks = plan(("random", "basic"), preset("classic", 4, max_cards=3), 40, seed=9)
    stop = threading.Event()
    seen: list[GameResult] = []

    def finished(result: GameResult) -> None:
        seen.append(result)
        if len(seen) == 2:
            stop.set()

    with ray_executor(2) as executor:
        outcome = run_games(tasks, jobs=executor.slots, executor=executor, on_result=finished, stop=stop)
    assert outcome.interrupted
    assert 2 <= len(outcome.results) < len(tasks)
    assert len({r.index for r in outcome.results}) == len(outcome.results)


@pytest.mark.slow
def test_a_waiting_call_can_be_cancelled_and_a_started_one_runs_to_its_end(local_ray: None) -> None:
    tasks = plan(("random", "basic"), preset("classic", 4, max_cards=3), 2, seed=3)
    executor = RayExecutor(slots=1)
    started, waiting = executor.submit(play_game, tasks[0]), executor.submit(play_game, tasks[1])
    assert waiting.cancel()
    assert not started.cancel()
    assert started.result(timeout=60).index == tasks[0].index
    executor.shutdown()


@pytest.mark.slow
def test_an_error_in_a_task_is_raised_as_itself_not_as_rays_wrapper(local_ray: None) -> None:
    executor = RayExecutor(slots=1)
    future = executor.submit(parse_spec, "wizard")
    with pytest.raises(ArenaError, match="unknown bot 'wizard'") as caught:
        future.result(timeout=60)
    assert type(caught.value) is ArenaError
    executor.shutdown()


def test_an_address_nothing_answers_at_is_refused_in_one_sentence(tmp_path: Path) -> None:
    code, output = invoke(*ARENA, "--ray-address", "127.0.0.1:1", "--out", str(tmp_path))
    assert code == 1
    assert output.startswith("Error: cannot reach the Ray cluster at 127.0.0.1:1: ")
    assert output.count("\n") == 1
    assert "Traceback" not in output


def test_an_address_that_is_not_one_is_refused_naming_the_forms_it_may_take(tmp_path: Path) -> None:
    code, output = invoke("selfplay", str(tmp_path), "--ray-address", "nowhere")
    assert code == 1
    assert "'nowhere' is not a Ray address: give HOST:PORT" in output
    assert not list(tmp_path.glob("chunk-*"))


def test_without_the_cluster_extra_ray_is_refused_saying_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed: importing it raises ImportError
    with pytest.raises(BackendError, match="pip install 'upriver\\[cluster\\]'"):
        RayExecutor(slots=1)
    code, output = invoke(*ARENA, "--ray", "--out", str(tmp_path))
    assert (code, output) == (1, f"Error: {MISSING_RAY}\n")
