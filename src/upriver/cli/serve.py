"""`upriver serve`: the web app, for a table of friends and bots in the browser."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from upriver.cli.root import app
from upriver.web.cluster.workers import SETTINGS_VARIABLE, ServeSettings
from upriver.web.hosting.limits import Limits
from upriver.web.seats.presence import PING_INTERVAL, PING_TIMEOUT

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
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-host",
            help="A host name this server answers to (cards.example; * for any); repeat for more. Others "
            "are refused, against DNS rebinding (default: the --host address and the loopback names; "
            "with --host 0.0.0.0 also any IP address and this machine's name).",
        ),
    ] = None,
    proxy_headers: Annotated[
        bool,
        typer.Option(
            "--proxy-headers/--no-proxy-headers",
            help="Take the client's address (for the limits) from X-Forwarded-For when a reverse proxy "
            "on this machine (127.0.0.1 or ::1) sends it; off by default: the address is the socket's.",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="The addresses or networks of the reverse proxies to believe (comma-separated, such as "
            "10.0.0.2,192.168.1.0/24): a client's address is then taken from their X-Forwarded-For; "
            "implies --proxy-headers.",
        ),
    ] = None,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log",
            help="Write one JSON line per request and WebSocket to standard error (no tokens in it).",
        ),
    ] = False,
    event_log: Annotated[
        bool,
        typer.Option(
            "--event-log",
            help="Write one JSON line per table created, event applied, refusal and server start or "
            "stop to standard error (no tokens, names or hidden cards in it).",
        ),
    ] = False,
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
    max_seat_connections: Annotated[
        int, typer.Option(help="Connections one seat's link may hold open at once (tabs and devices).")
    ] = _DEFAULT.seat_connections,
    outbox: Annotated[
        int, typer.Option(help="Messages queued for a client that does not read before it is disconnected.")
    ] = _DEFAULT.outbox,
    archive_after_days: Annotated[
        float, typer.Option(help="Days after its last move that a finished table is archived at start-up.")
    ] = _DEFAULT.archive_after / _DAY,
    sign_ins_per_minute: Annotated[
        int,
        typer.Option(
            help="Passkey sign-ins and registrations, and recovery codes, one address may try a minute."
        ),
    ] = _DEFAULT.sign_ins_per_minute,
    session_days: Annotated[
        float, typer.Option(help="Days a signed-in browser's session lasts without a visit.")
    ] = _DEFAULT.session_idle_days,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes sharing this port; more than one needs a PostgreSQL --db, "
            "which servers on other machines may share too.",
        ),
    ] = 1,
) -> None:
    """Serve the web game: create a table, invite friends, add bots, play in the browser."""
    # FastAPI and uvicorn load only here, so `upriver --help` and the other commands stay quick.
    import uvicorn

    from upriver.database import PostgresTarget, StoreError, TargetError, parse_target

    try:
        target = parse_target(db if db is not None else default_db())
    except TargetError as error:
        typer.echo(f"Error: --db: {error}", err=True)
        raise typer.Exit(2) from None
    except StoreError as error:  # a PostgreSQL URL without psycopg installed
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    if not 1 <= workers <= most_workers() or (workers > 1 and not isinstance(target, PostgresTarget)):
        typer.echo(f"Error: --workers: {_workers_refusal(workers)}", err=True)
        raise typer.Exit(2)
    proxies = trusted_proxies(proxy_headers, forwarded_allow_ips)
    limits = Limits(
        body_bytes=max_body,
        schedule_rounds=max_rounds,
        creations_per_minute=creations_per_minute,
        spectators=max_spectators,
        seat_connections=max_seat_connections,
        outbox=outbox,
        archive_after=archive_after_days * _DAY,
        sign_ins_per_minute=sign_ins_per_minute,
        session_idle_days=session_days,
    )
    settings = ServeSettings(
        db=target.url if isinstance(target, PostgresTarget) else str(target.path),
        bot_delay=bot_delay,
        limits=limits,
        allowed_origins=tuple(allow_origin or ()),
        allowed_hosts=tuple(allowed_host or ()),
        bind=host,
        access_log=access_log,
        event_log=event_log,
        warm=warm,
    )
    try:
        # One process builds its app here; each of several workers builds its own as it starts, so
        # the database is opened once first to say at once (and once) why it cannot be.
        web = settings.app() if workers == 1 else None
        if web is None:
            settings.check()
    except StoreError as error:  # unreachable, refused, without the rights to create its tables
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"upriver: tables in {target.display}")
    if workers > 1:
        typer.echo(f"upriver: {workers} server processes")
    typer.echo(f"upriver: open http://{shown}:{port}/", nl=True)
    # A state is a couple of kilobytes; compressing each one costs more CPU than it saves on a LAN.
    if web is not None:
        uvicorn.run(
            web,
            host=host,
            port=port,
            log_level="warning",
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_ping_interval=PING_INTERVAL,  # a vanished browser shows away within seconds
            ws_ping_timeout=PING_TIMEOUT,
            **proxies,
        )
        return
    os.environ[SETTINGS_VARIABLE] = settings.to_json()  # what each worker's app is built from
    uvicorn.run(
        "upriver.web.cluster.workers:app_from_environment",
        factory=True,
        workers=workers,
        # A worker busy replaying every table at start, on a loaded machine, must not be taken for hung.
        timeout_worker_healthcheck=30,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_TIMEOUT,
        **proxies,
    )


def trusted_proxies(proxy_headers: bool, forwarded_allow_ips: str | None) -> dict[str, Any]:
    """uvicorn's proxy settings: whose ``X-Forwarded-For`` gives the client's address.

    uvicorn by default believes the header from 127.0.0.1, so behind no proxy (or a proxy that
    does not set it) any client could claim any address and escape every per-address limit. Here
    the header is believed only when asked: from the addresses ``forwarded_allow_ips`` lists, or,
    with ``proxy_headers`` alone, from a proxy on this machine; otherwise the address is the socket's.

    >>> trusted_proxies(False, None)
    {'proxy_headers': False}
    >>> trusted_proxies(True, None)
    {'proxy_headers': True, 'forwarded_allow_ips': '127.0.0.1,::1'}
    >>> trusted_proxies(False, "10.0.0.2")
    {'proxy_headers': True, 'forwarded_allow_ips': '10.0.0.2'}
    """
    if forwarded_allow_ips is not None:
        return {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    if proxy_headers:
        return {"proxy_headers": True, "forwarded_allow_ips": "127.0.0.1,::1"}
    return {"proxy_headers": False}


def most_workers() -> int:
    """The most server processes one machine runs: four a core (they wait on the network and the
    database, not only the CPU); more machines serve more."""
    return 4 * (os.cpu_count() or 1)


def _workers_refusal(workers: int) -> str:
    if workers < 1:
        return f"the server needs at least 1 process, not {workers}"
    if workers > most_workers():
        return (
            f"{workers} server processes are more than this machine's {os.cpu_count() or 1} cores can run "
            f"well: use at most {most_workers()}, and servers on other machines sharing the database for more"
        )
    return (
        f"{workers} server processes need a PostgreSQL --db (postgresql://USER@HOST:PORT/DATABASE): with "
        "SQLite the tables live in one process's memory, and several would each play a copy of every "
        "table; use --workers 1 with SQLite"
    )
