"""A private, throw-away PostgreSQL server for the tests, and ``db``: the fixture that runs a test twice.

Its first run is on SQLite, its second on PostgreSQL.

The server is Debian's (``/usr/lib/postgresql/*/bin``, which ``python3 run.py test`` installs):
``initdb`` into a fresh folder under the system's temporary folder, ``pg_ctl start`` listening on
a Unix socket in that folder only (no TCP port, so parallel runs cannot collide), trusted local
connections as the user ``upriver``, no fsync (it is thrown away; a server killed mid-test
keeps every acknowledged commit). PostgreSQL refuses to run
as root, so under root (as CI runs) the server runs as the ``postgres`` user of Debian's package,
which owns the folder. Each test gets a database of its own (``CREATE DATABASE``, some 30 ms).

When the server cannot start, every test that needs it fails with the reason: never a skip.

``pg_ctl`` starts the server in a session of its own, so it outlives the process that started it
unless that process stops it. Three things make sure it does: the fixture's teardown; an ``atexit``
hook and handlers for SIGTERM, SIGHUP and SIGINT (what ``timeout``, a closed terminal and Ctrl-C
send) that stop every server this process started; and, as a new server is made, a sweep that
stops and removes the servers whose owner (the process named in their folder's ``owner`` file) is
gone, killed by a signal no handler sees (SIGKILL).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType

import pytest

from tests.waiting import wait_until
from upriver.database import open_database

BINARIES = "/usr/lib/postgresql/*/bin"
"""Where Debian's postgresql package puts initdb, pg_ctl and postgres, one folder per major version."""

SUPERUSER = "upriver"
"""The server's superuser, whom every local connection may be without a password."""

_INSTALL = (
    "install Debian's postgresql package (python3 run.py test does so when it may: as root or with sudo)"
)


class PostgresServerError(Exception):
    """The private server could not be started or used; the message says why and what to install."""


def server_binaries() -> Path:
    """The newest major version's folder of PostgreSQL server programs.

    :raises PostgresServerError: none is installed.
    """
    found = sorted(
        (path for path in Path("/").glob(BINARIES.lstrip("/")) if (path / "initdb").exists()),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
    )
    if not found:
        raise PostgresServerError(f"the PostgreSQL tests need initdb and pg_ctl under {BINARIES}: {_INSTALL}")
    return found[-1]


def _server_user() -> str | None:
    """Whom the server runs as: ``None`` for this user, ``postgres`` when this is root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresServerError(
            f"the PostgreSQL tests run as root, and PostgreSQL refuses to; the user 'postgres' to run it "
            f"as is missing: {_INSTALL}"
        ) from None
    return "postgres"


PREFIX = "upriver-pg-"
"""How the name of a private server's folder begins (under /tmp or the system's temporary folder)."""

OWNER = "owner"
"""The file in a server's folder naming the process that started it: its pid and start time."""


def _started_at(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot, from /proc), or ``None`` if it is gone.

    With the pid it names one process for good, though the kernel reuses pids."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return fields[19]  # field 22 of proc(5); the first two (pid, name) are before the ")"


def _owner_of_this_process() -> str:
    return f"{os.getpid()} {_started_at(os.getpid())}"


def _owner_alive(root: Path) -> bool:
    """Whether the process that started the server in ``root`` still runs (``True`` if unknown)."""
    try:
        pid, _, started = (root / OWNER).read_text().strip().partition(" ")
        return _started_at(int(pid)) == started
    except (OSError, ValueError):
        return True  # no owner file (yet, or from an older run): never take a server that may be in use


def _kill_server(root: Path) -> None:
    """Stop the postmaster of the server in ``root`` at once (SIGQUIT: PostgreSQL's immediate
    shutdown, which ends its children too) and wait until it is gone, for at most ten seconds.

    Its pid is from the server's ``postmaster.pid``, and signalled only if that process runs on this
    folder's data, so a pid the kernel has reused is left alone."""
    data = root / "data"
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        running = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError, IndexError):
        return
    if str(data).encode() not in running:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGQUIT)
    with contextlib.suppress(AssertionError):  # still there after ten seconds: left for the next run
        wait_until(lambda: not Path(f"/proc/{pid}").exists(), "the old server to stop", timeout=10)


def remove_abandoned_servers() -> list[Path]:
    """Stop and remove the private servers whose owner process is gone; the folders removed."""
    removed = []
    for folder in {Path("/tmp"), Path(tempfile.gettempdir())}:
        for root in sorted(folder.glob(f"{PREFIX}*")):
            if (root / OWNER).exists() and not _owner_alive(root):
                _kill_server(root)
                shutil.rmtree(root, ignore_errors=True)
                removed.append(root)
    return removed


_SERVERS: dict[Path, PostgresServer] = {}
"""The servers this process started and has not closed: what its exit and signal handlers stop."""
_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _close_all() -> None:
    # A child forked from this process (a pool's worker) inherits the handlers and the servers'
    # list, but not the servers: it leaves them to their owner.
    for server in list(_SERVERS.values()):
        if server.owner == os.getpid():
            server.kill()


def _on_signal(number: int, frame: FrameType | None) -> None:
    """Stop this process's servers, then do what the signal did before: end the process as the
    signal does (SIGTERM, SIGHUP), or raise KeyboardInterrupt (SIGINT, so pytest still reports)."""
    _close_all()
    previous = _PREVIOUS.get(number, signal.SIG_DFL)
    if callable(previous):
        previous(number, frame)
        return
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)


_PREVIOUS: dict[int, object] = {}


def _watch_exit() -> None:
    """Install the exit hook and the signal handlers, once, from the main thread (the only one that
    may set a handler; elsewhere the fixture's teardown and the sweep are what is left)."""
    if _PREVIOUS or not _main_thread():
        return
    atexit.register(_close_all)
    for number in _SIGNALS:
        _PREVIOUS[number] = signal.getsignal(number)
        signal.signal(number, _on_signal)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class PostgresServer:
    """One private server: :meth:`start`, a database per :meth:`create_database`, :meth:`close`.

    ``durable``: fsync on, as a server runs by default (for a benchmark); the tests leave it off.
    """

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.bin = server_binaries()
        self.user = _server_user()
        # Under /tmp, not pytest's own folder (nor a private TMPDIR): the postgres user must reach
        # it, and a Unix socket's path is limited to about 100 characters.
        remove_abandoned_servers()
        self.root = Path(tempfile.mkdtemp(prefix=PREFIX, dir="/tmp" if self.user else None))
        self.owner = os.getpid()
        (self.root / OWNER).write_text(_owner_of_this_process() + "\n")
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        if self.user is not None:
            shutil.chown(self.root, self.user, self.user)
        self._names = itertools.count(1)
        self.running = False

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=self.root)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresServerError(
                f"the private PostgreSQL server failed: `{' '.join(command)}` exited {done.returncode}: "
                f"{(done.stderr or done.stdout).strip()[-2000:]} {log}".strip()
            )

    def start(self) -> None:
        """Make the cluster (the first time) and start the server; wait until it accepts connections.

        :raises PostgresServerError: with the programs' own words and the server's log.
        """
        if not self.data.exists():
            self._run(
                "initdb",
                *("-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8"),
                *("--locale=C.UTF-8", "--no-sync", "--no-instructions"),
            )
        _watch_exit()
        _SERVERS[self.root] = self
        options = [
            "-c listen_addresses=''",
            f"-k {self.root}",
            # The machine does not crash under a test, the server may: a commit reaches the kernel before
            # it is acknowledged (synchronous_commit stays on), but nothing waits for the disk.
            *(() if self.durable else ("-c fsync=off", "-c full_page_writes=off")),
            "-c max_connections=200",
        ]
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-w",
            "-t",
            "60",
            "-o",
            " ".join(options),
            "start",
        )
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate``: as if it crashed)."""
        if self.running:
            self.running = False
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def close(self) -> None:
        """Stop the server (at once: nothing in it is kept) and remove its folder."""
        with contextlib.suppress(PostgresServerError):
            self.stop("immediate")
        self.kill()

    def kill(self) -> None:
        """Stop the server at once without ``pg_ctl`` (safe in a signal handler) and remove its folder."""
        _SERVERS.pop(self.root, None)
        self.running = False
        _kill_server(self.root)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        """The ``postgresql://`` URL of ``database`` on this server, connecting as ``user``."""
        return f"postgresql:///{database}?host={self.root}&user={user}"

    def execute(self, *statements: str, database: str = "postgres") -> None:
        """Run each statement as the superuser in ``database``."""
        import psycopg  # the dev lock's; imported here, so the SQLite tests run on an install without it

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement.encode())

    def create_database(self) -> str:
        """A new, empty database's name."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return name

    def drop_database(self, name: str) -> None:
        """Drop the database ``name``, closing whatever connections are left to it (each database
        holds some 7 MB: a session's hundreds of them would fill the disk)."""
        self.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def benched_database(url: str | None) -> Iterator[tuple[str, str]]:
    """The PostgreSQL database a benchmark measures, and how it was had: ``url`` as given, or a
    database on a private durable server (fsync on) for the benchmark's run."""
    if url is not None:
        yield url, "given"
        return
    server = PostgresServer(durable=True)
    try:
        server.start()
        yield server.url(server.create_database()), "private server, fsync and synchronous_commit on"
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's private PostgreSQL server, started at the first test that needs it."""
    try:
        server = PostgresServer()
        server.start()
    except PostgresServerError as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.close()


STORES: Sequence[object] = ("sqlite", pytest.param("postgres", marks=pytest.mark.postgres))
"""The ``db`` fixture's parameters: every test that takes ``db`` runs on each store."""


@pytest.fixture(params=STORES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test keeps its tables and sheets: a fresh SQLite file, then a fresh PostgreSQL database
    (dropped after the test)."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.db")
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.create_database()
    yield server.url(name)
    if server.running:
        server.drop_database(name)


def query(db: str, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
    """The rows of one query (``?`` placeholders) on the database ``db`` names, whichever engine it is:
    to look at what a store wrote without asking the store."""
    database = open_database(db)
    try:
        return database.fetch(sql, params)
    finally:
        database.close()


def write(db: str, sql: str, params: Sequence[object] = ()) -> int:
    """Run one statement on the database ``db`` names behind the stores' back (a bug or an attacker)."""
    database = open_database(db)
    try:
        return database.execute(sql, params)
    finally:
        database.close()
