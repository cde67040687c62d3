"""`upriver serve`: the web app, for a table of friends and bots in the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from upriver.cli.root import app
from upriver.web.limits import Limits

__all__ = ["serve"]

_DEFAULT = Limits()
"""The limits' defaults, which each option below shows and keeps unless it is given."""
_DAY = 24 * 3600.0


def default_db() -> Path:
    """Where tables are kept unless ``--db`` says otherwise: the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("upriver")) / "tables.sqlite3"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Where tables and score sheets are kept: a SQLite file (a path, or sqlite:///PATH) or a "
            "PostgreSQL database (postgresql://USER@HOST:PORT/DATABASE, with the postgres extra) "
            "[default: a SQLite file in the user data folder].",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay",
            help="Seconds a bot waits before it moves at a normal pace (slow: twice that, fast: a quarter).",
        ),
    ] = 0.8,
    warm: Annotated[
        bool,
        typer.Option(
            "--warm/--no-warm",
            help="Make the search bots' compiled kernel ready in the background at start "
            "(else a searching bot's first move on this machine compiles it, for seconds).",
        ),
    ] = True,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            help="An origin (https://cards.example) whose pages may use this server; repeat for more "
            "(default: this server's own host and port, and its loopback names).",
        ),
    ] = None,
    max_body: Annotated[int, typer.Option(help="Largest request body, in bytes.")] = _DEFAULT.body_bytes,
    max_rounds: Annotated[
        int, typer.Option(help="Longest explicit schedule, in rounds.")
    ] = _DEFAULT.schedule_rounds,
    creations_per_minute: Annotated[
        int, typer.Option(help="Tables (and, separately, sheets) one address may create per minute.")
    ] = _DEFAULT.creations_per_minute,
    max_spectators: Annotated[
        int, typer.Option(help="Spectators of one table at once.")
    ] = _DEFAULT.spectators,
    outbox: Annotated[
        int, typer.Option(help="Messages queued for a client that does not read before it is disconnected.")
    ] = _DEFAULT.outbox,
    archive_after_days: Annotated[
        float, typer.Option(help="Days after its last move that a finished table is archived at start-up.")
    ] = _DEFAULT.archive_after / _DAY,
) -> None:
    """Serve the web game: create a table, invite friends, add bots, play in the browser."""
    # FastAPI and uvicorn load only here, so `upriver --help` and the other commands stay quick.
    import uvicorn

    from upriver.storage import StoreError, TargetError, parse_target
    from upriver.web.app import create_app

    try:
        target = parse_target(db if db is not None else default_db())
    except TargetError as error:
        typer.echo(f"Error: --db: {error}", err=True)
        raise typer.Exit(2) from None
    except StoreError as error:  # a PostgreSQL URL without psycopg installed
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    limits = Limits(
        body_bytes=max_body,
        schedule_rounds=max_rounds,
        creations_per_minute=creations_per_minute,
        spectators=max_spectators,
        outbox=outbox,
        archive_after=archive_after_days * _DAY,
    )
    try:
        web = create_app(
            target, bot_delay=bot_delay, limits=limits, allowed_origins=allow_origin or (), warm=warm
        )
    except StoreError as error:  # unreachable, refused, without the rights to create its tables
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"upriver: tables in {target.display}")
    typer.echo(f"upriver: open http://{shown}:{port}/", nl=True)
    # A state is a couple of kilobytes; compressing each one costs more CPU than it saves on a LAN.
    uvicorn.run(
        web, host=host, port=port, log_level="warning", ws="websockets-sansio", ws_per_message_deflate=False
    )
