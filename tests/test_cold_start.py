"""Cold start: ``python3 run.py serve`` compiles the search bots' kernel at set-up, once.

A fresh install's first server start then loads compiled code instead of compiling it while the
first table's bots wait; ``bench/cold_start.py`` measures how late that first expert bid is.
Here: the set-up step runs when the install or the kernel's sources are new, not again after, and
a failure there says so and leaves the server to compile at start.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run  # noqa: E402 - run.py lives at the checkout's root, beside no package


@pytest.fixture
def set_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Sequence[str]]:
    """run.py pointed at a temporary environment folder and a one-file kernel; the commands it runs."""
    (tmp_path / "venv").mkdir()
    kernel = tmp_path / "fast"
    kernel.mkdir()
    (kernel / "kernel.py").write_text("STEP = 1\n")
    monkeypatch.setattr(run, "VENV", tmp_path / "venv")
    monkeypatch.setattr(run, "VENV_PYTHON", Path(sys.executable))
    monkeypatch.setattr(run, "KERNEL", kernel)
    # The real step compiles (or loads) the whole kernel, seconds; bench/cold_start.py runs that one.
    monkeypatch.setattr(run, "WARM_KERNEL", "import upriver")
    ran: list[Sequence[str]] = []
    real = subprocess.run

    def recording(args: Sequence[str], **options: Any) -> subprocess.CompletedProcess[Any]:
        ran.append(args)
        return real(args, **options)

    monkeypatch.setattr(subprocess, "run", recording)
    return ran


def test_serve_compiles_the_kernel_once_per_install_and_kernel_source(
    set_up: list[Sequence[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run.compiled_kernel in run.COMMANDS["serve"].prerequisites
    run.compiled_kernel("python3 run.py serve", [])
    assert set_up == [[sys.executable, "-c", run.WARM_KERNEL]]
    assert "compiling the search bots' kernel once" in capsys.readouterr().err
    run.compiled_kernel("python3 run.py serve", [])
    assert len(set_up) == 1, "compiled already: nothing to do"
    (run.KERNEL / "kernel.py").write_text("STEP = 2\n")  # an edited kernel is compiled again
    run.compiled_kernel("python3 run.py serve", [])
    assert len(set_up) == 2


def test_a_kernel_that_cannot_be_compiled_at_set_up_is_left_to_the_server(
    set_up: list[Sequence[str]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "WARM_KERNEL", "raise SystemExit(3)")
    run.compiled_kernel("python3 run.py serve", [])  # says so, and serve goes on
    assert "the server compiles it as it starts" in capsys.readouterr().err
    run.compiled_kernel("python3 run.py serve", [])
    assert len(set_up) == 2, "a failed compilation is tried again next time"
