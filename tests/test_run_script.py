"""run.py, the README's two commands: what it asks of the machine before it runs pytest."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run  # noqa: E402 - run.py lives at the checkout's root, beside no package


@pytest.mark.parametrize(
    ("args", "needs_chromium"),
    [
        ([], True),
        (["-m", "not browser and not slow"], False),
        (["-mnot browser"], False),
        (["-m", "slow"], True),
        (["tests/test_names.py", "-k", "quoted"], False),
        (["tests/test_web_browser.py::test_x"], True),
        (["tests"], True),
        (["-k", "hook"], True),
    ],
)
def test_the_test_command_needs_chromium_unless_its_arguments_leave_the_browser_tests_out(
    args: list[str], needs_chromium: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert run.selects_browser_tests(args) is needs_chromium


def test_each_lock_file_keeps_its_own_install_stamp() -> None:
    assert run.stamp("requirements.lock") != run.stamp("requirements-dev.lock")


def test_an_unknown_command_prints_the_usage_and_exits_2() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "run.py"), "launch"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "python3 run.py serve" in done.stderr
    assert "python3 run.py test" in done.stderr


def test_run_py_lists_exactly_the_test_files_that_drive_chromium() -> None:
    # A browser test file missing from the list would neither install Chromium nor carry the marker.
    driving = sorted(
        path.name
        for path in (ROOT / "tests").glob("test_*.py")
        if re.search(r"^from playwright\b", path.read_text("utf-8"), re.MULTILINE)
    )
    assert driving == sorted(run.BROWSER_TESTS)


def test_the_docs_command_serves_the_site_with_mkdocs_from_the_test_lock_beside_the_web_app() -> None:
    # The site's tools are pinned in the test lock; it serves on a port of its own, so `serve` can run too.
    docs = run.COMMANDS["docs"]
    assert docs.lock == "requirements-dev.lock"
    assert docs.module == ("mkdocs", "serve", "--dev-addr", run.DOCS_ADDRESS)
    assert run.DOCS_ADDRESS.rpartition(":")[2] != "8000"
    lock = (ROOT / docs.lock).read_text("utf-8")
    assert re.search(r"^mkdocs==", lock, re.MULTILINE)


def test_the_usage_names_the_docs_command() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "run.py")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "python3 run.py docs" in done.stderr


@pytest.mark.parametrize(
    ("args", "needs_node"),
    [
        ([], True),
        (["-m", "not static"], False),
        (["-m", "not browser and not slow"], True),
        (["tests/test_names.py"], False),
        (["tests/test_javascript.py"], True),
    ],
)
def test_the_test_command_installs_the_javascript_tools_unless_its_arguments_leave_their_checks_out(
    args: list[str], needs_node: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert run.javascript_tools in run.COMMANDS["test"].prerequisites
    assert run.selects_marked_tests(args, "static", run.JAVASCRIPT_TESTS) is needs_node
