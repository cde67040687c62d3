"""The code base stays clean under ``mypy --strict`` and ``ruff``, as part of the test command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_mypy_strict_finds_no_errors() -> None:
    result = run("mypy", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_lint_finds_no_errors() -> None:
    result = run("ruff", "check", "src", "tests", "bench", "training", "run.py", "docs/hooks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_every_file_as_it_is() -> None:
    result = run("ruff", "format", "--check", "src", "tests", "bench", "training", "run.py", "docs/hooks")
    assert result.returncode == 0, result.stdout + result.stderr
