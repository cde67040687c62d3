"""run.py test installs Debian's libgomp1 where LightGBM's OpenMP runtime is missing (slim images)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run  # noqa: E402 - run.py lives at the checkout's root, beside no package


def test_without_libgomp_or_the_right_to_install_it_the_test_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run, "libgomp_found", lambda: False)
    monkeypatch.setattr(run, "apt_get_prefix", lambda: None)
    with pytest.raises(run.SetupError) as refused:
        run.libgomp("python3 run.py test", [])
    message = str(refused.value)
    assert "LightGBM (the bid model's retraining test) needs GNU OpenMP's libgomp.so.1" in message
    assert "install it with `sudo apt-get install libgomp1`, then run `python3 run.py test` again." in message
    assert run.libgomp in run.COMMANDS["test"].prerequisites
    assert run.libgomp not in run.COMMANDS["serve"].prerequisites


def test_with_libgomp_found_nothing_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    installs: list[str] = []
    monkeypatch.setattr(run, "libgomp_found", lambda: True)
    monkeypatch.setattr(run, "apt_install", lambda package, needed_for, again: installs.append(package))
    run.libgomp("python3 run.py test", [])
    assert installs == []


def test_without_libgomp_it_is_installed_with_apt_and_then_looked_for_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installs: list[str] = []
    monkeypatch.setattr(run, "libgomp_found", lambda: bool(installs))
    monkeypatch.setattr(run, "apt_install", lambda package, needed_for, again: installs.append(package))
    run.libgomp("python3 run.py test", [])
    assert installs == ["libgomp1"]


def test_an_install_that_leaves_libgomp_missing_is_refused_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run, "libgomp_found", lambda: False)
    monkeypatch.setattr(run, "apt_install", lambda package, needed_for, again: None)
    with pytest.raises(run.SetupError, match=r"`apt-get install libgomp1` did not put it there\.$"):
        run.libgomp("python3 run.py test", [])
