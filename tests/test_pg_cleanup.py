"""The tests' private PostgreSQL servers (``tests/pg.py``) end with the run that started them, even
when that run is killed: by ``timeout``'s SIGTERM at once, by SIGKILL at the next run's start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests import pg
from tests.pg import PostgresServer, remove_abandoned_servers
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parent.parent

WAITING_TEST = """
import time
from pathlib import Path

import pytest

from tests.pg import postgres_server  # noqa: F401 - the fixture under test


def test_waits_with_its_server_running(postgres_server):
    Path({started!r}).write_text(str(postgres_server.root))
    time.sleep(600)
"""
"""A one-test pytest run that starts the private server, says where, and waits to be killed."""

STARTS_A_SERVER = """
import sys, time
from tests.pg import PostgresServer

server = PostgresServer()
server.start()
print(server.root, flush=True)
time.sleep(600)
"""
"""A process that starts a private server, prints its folder and waits to be killed."""


def postmaster(root: Path) -> int:
    """The pid of the postmaster serving the folder ``root`` (it is running)."""
    return int((root / "data" / "postmaster.pid").read_text().split()[0])


def gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]


@contextmanager
def process(*command: str) -> Iterator[subprocess.Popen[str]]:
    """A child process run from the checkout's root, killed if the test leaves it running."""
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield child
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate()


@pytest.mark.slow
def test_a_test_run_killed_by_timeouts_sigterm_stops_its_server_and_removes_its_folder(
    tmp_path: Path,
) -> None:
    started = tmp_path / "started"
    (tmp_path / "test_waiting.py").write_text(textwrap.dedent(WAITING_TEST.format(started=str(started))))
    pytest = [
        sys.executable,
        "-m",
        "pytest",
        str(tmp_path / "test_waiting.py"),
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    with process(*pytest, "--rootdir", str(tmp_path)) as run:
        wait_until(started.exists, "the run's server to start", timeout=60)
        root = Path(started.read_text())
        pid = postmaster(root)
        assert not gone(pid)
        run.send_signal(signal.SIGTERM)  # what `timeout` sends
        assert run.wait(timeout=60) == -signal.SIGTERM
    wait_until(lambda: gone(pid), "the killed run's server to stop", timeout=10)
    assert not root.exists()


@pytest.mark.slow
def test_a_server_whose_owner_was_killed_outright_is_removed_and_a_running_runs_server_kept(
    postgres_server: PostgresServer,
) -> None:
    with process(sys.executable, "-c", STARTS_A_SERVER) as owner:
        assert owner.stdout is not None
        root = Path(owner.stdout.readline().strip())
        pid = postmaster(root)
        owner.send_signal(signal.SIGKILL)  # no handler runs: the server is left behind
        owner.wait(timeout=60)
    assert not gone(pid)
    assert root.exists()
    assert root in remove_abandoned_servers()
    assert gone(pid)
    assert not root.exists()
    # This run's own server is in use by a live process: the sweep leaves it alone.
    assert not gone(postmaster(postgres_server.root))
    postgres_server.execute("SELECT 1")


def test_a_child_forked_from_the_run_leaves_the_runs_server_alone_when_it_ends(
    postgres_server: PostgresServer,
) -> None:
    child = os.fork()
    if child == 0:  # a pool's worker, say, told to stop: it runs the handler it inherited
        pg._close_all()
        os._exit(0)
    os.waitpid(child, 0)
    assert not gone(postmaster(postgres_server.root))
    postgres_server.execute("SELECT 1")
