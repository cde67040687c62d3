"""`upriver serve`: the web app, for a table of friends and bots in the browser."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from upriver.cli.root import app

__all__ = ["serve"]


def default_db() -> Path:
    """Where tables are kept unless ``--db`` says otherwise: the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("upriver")) / "tables.sqlite3"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file of the tables [default: in the user data folder].")
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Seconds a bot waits before it moves.")
    ] = 0.8,
) -> None:
    """Serve the web game: create a table, invite friends, add bots, play in the browser."""
    # FastAPI and uvicorn load only here, so `upriver --help` and the other commands stay quick.
    import uvicorn

    from upriver.web.app import create_app

    path = db if db is not None else default_db()
    web = create_app(path, bot_delay=bot_delay)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"upriver: tables in {path}")
    typer.echo(f"upriver: open http://{shown}:{port}/", nl=True)
    # A state is a couple of kilobytes; compressing each one costs more CPU than it saves on a LAN.
    uvicorn.run(
        web, host=host, port=port, log_level="warning", ws="websockets-sansio", ws_per_message_deflate=False
    )
