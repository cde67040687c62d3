"""`upriver backup OUT` and `upriver restore BACKUP`: a consistent copy of a live store, and putting it back.

Both work on the SQLite file ``upriver serve`` keeps its tables and score sheets in
(:mod:`upriver.database.backup`). ``backup`` may run while the server serves; ``restore`` needs it
stopped. A PostgreSQL store is backed up with ``pg_dump`` (docs/hosting.md). Exit 0 with one line
saying what was copied; 1 with one line saying why not; 2 for a ``--db`` that names no SQLite file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from upriver.cli.root import app

__all__ = ["backup", "restore"]

_DB_HELP = "The store: a SQLite file (a path, or sqlite:///PATH) [default: upriver serve's]."


def _store(db: str | None) -> Path:
    """The SQLite file ``--db`` names (``upriver serve``'s default without one); exits 2 for anything else."""
    from upriver.cli.serve import default_db
    from upriver.database import PostgresTarget, SqliteTarget, StoreError, parse_target

    try:
        target = parse_target(db if db is not None else default_db())
    except StoreError as error:
        typer.echo(f"Error: --db: {error}", err=True)
        raise typer.Exit(2) from None
    if isinstance(target, PostgresTarget):
        typer.echo(
            "Error: --db: a PostgreSQL store is backed up and restored with PostgreSQL's own tools: "
            "pg_dump --format=custom and pg_restore (see docs/hosting.md)",
            err=True,
        )
        raise typer.Exit(2)
    assert isinstance(target, SqliteTarget)
    return target.path


@app.command()
def backup(
    out: Annotated[Path, typer.Argument(help="The file to write the copy to.", show_default=False)],
    db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None,
    force: Annotated[bool, typer.Option("--force", help="Write over OUT if it exists.")] = False,
) -> None:
    """Copy the tables and score sheets to OUT, consistently, while the server goes on serving."""
    from upriver.database.backup import BackupError
    from upriver.database.backup import backup as copy_store

    store = _store(db)
    try:
        copied = copy_store(store, out, force=force)
    except BackupError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"upriver: {copied} copied from {store} to {out}")


@app.command()
def restore(
    copy: Annotated[Path, typer.Argument(help="A file upriver backup wrote.", show_default=False)],
    db: Annotated[str | None, typer.Option(help=_DB_HELP)] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the tables and sheets the store holds already.")
    ] = False,
) -> None:
    """Put a backup back as the store; stop the server first, and start it again after."""
    from upriver.database.backup import BackupError
    from upriver.database.backup import restore as put_back

    store = _store(db)
    try:
        restored = put_back(copy, store, force=force)
    except BackupError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"upriver: {restored} restored from {copy} to {store}; start upriver serve again")
