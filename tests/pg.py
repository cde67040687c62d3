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
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from upriver.storage import open_database

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
        self.root = Path(tempfile.mkdtemp(prefix="upriver-pg-", dir="/tmp" if self.user else None))
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
