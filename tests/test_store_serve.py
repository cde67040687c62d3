"""`upriver serve --db`: a malformed database, one that cannot be opened, one without the rights to
prepare it: each is one sentence on standard error and an exit code (2: the value is wrong; 1: the
database is), never a traceback, and no server starts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import upriver.cli.serve  # noqa: F401 - importing it registers the command
from tests.live import free_port
from tests.pg import PostgresServer
from upriver.cli import app


def serve(db: str) -> tuple[int, str]:
    """The exit code and standard error of ``upriver serve --db DB`` (which must not start serving)."""
    result = CliRunner().invoke(app, ["serve", "--db", db, "--port", str(free_port()), "--no-warm"])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


def one_sentence(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert lines[0].startswith("Error: ")
    return lines[0]


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("mysql://ann@localhost/cards", "uses the scheme 'mysql', which upriver cannot store in"),
        ("postgresql://localhost:port/cards", "its port 'port' is not a number from 1 to 65535"),
        ("postgresql://localhost/cards?colour=red", 'invalid URI query parameter: "colour"'),
        ("sqlite://host/tables.db", "write sqlite:///PATH"),
    ],
)
def test_a_malformed_database_exits_2_with_one_sentence_naming_what_would_do(db: str, words: str) -> None:
    code, err = serve(db)
    assert code == 2
    line = one_sentence(err)
    assert line.startswith("Error: --db: ")
    assert words in line
    assert "postgresql://USER@HOST:PORT/DATABASE" in line or "sqlite:///" in line or "PostgreSQL URL" in line


def test_an_unreachable_postgresql_server_exits_1_naming_it_and_libpqs_reason() -> None:
    code, err = serve(f"postgresql://ann:s3cret@127.0.0.1:{free_port()}/cards")
    assert code == 1
    line = one_sentence(err)
    assert "cannot open the PostgreSQL database postgresql://ann:***@127.0.0.1:" in line
    assert "Connection refused" in line
    assert "s3cret" not in line


def test_a_database_that_does_not_exist_exits_1_saying_so(postgres_server: PostgresServer) -> None:
    code, err = serve(postgres_server.url("no_such_database"))
    assert code == 1
    assert 'database "no_such_database" does not exist' in one_sentence(err)


def test_a_user_without_the_right_to_create_the_tables_exits_1_saying_what_to_grant(
    postgres_server: PostgresServer,
) -> None:
    database = postgres_server.create_database()
    postgres_server.execute("DROP ROLE IF EXISTS reader", "CREATE ROLE reader LOGIN")
    code, err = serve(postgres_server.url(database, user="reader"))
    assert code == 1
    line = one_sentence(err)
    assert "cannot prepare the PostgreSQL database" in line
    assert "permission denied for schema public" in line
    assert "grant this user CREATE on the schema" in line


def test_a_sqlite_file_that_cannot_be_made_exits_1_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    code, err = serve(str(blocker / "tables.db"))
    assert code == 1
    assert f"cannot open the SQLite file {blocker / 'tables.db'}" in one_sentence(err)


def test_a_postgresql_url_without_psycopg_installed_exits_1_saying_to_install_the_postgres_extra() -> None:
    # The default install has no psycopg: this interpreter is made to lack it, as that install does.
    script = (
        "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None\n"
        "import upriver.cli.serve\n"
        "from upriver.cli import main\n"
        "sys.argv = ['upriver', 'serve', '--db', 'postgresql://ann@localhost/cards', '--no-warm']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert one_sentence(done.stderr) == (
        "Error: PostgreSQL needs psycopg: install upriver with its postgres extra "
        "(pip install 'upriver[postgres]')"
    )


def test_more_server_processes_than_four_a_core_are_refused_naming_the_most() -> None:
    most = 4 * (os.cpu_count() or 1)
    url = "postgresql://nobody@127.0.0.1:1/never_opened"  # refused before any connection is tried
    result = CliRunner().invoke(app, ["serve", "--db", url, "--workers", str(most + 1), "--no-warm"])
    assert result.exit_code == 2
    assert f"use at most {most}" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
