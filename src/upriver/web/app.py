"""The FastAPI application: pages, a small JSON API to create and export tables, and the WebSocket.

``create_app(db_path)`` builds an app whose tables live in that SQLite file; on start-up
it resumes every stored table by replaying its events through the engine (a table with an
event the engine refuses comes up damaged, saying why; the others come up as they were).

HTTP:

- ``GET /`` the lobby page (create a table, import a record); ``GET /t/{id}`` a table's page.
- ``GET /api/options`` presets, rule options and bot kinds for the create form.
- ``POST /api/tables`` ``{"name", "seats": ["human", "basic", …], "creator": 0, "record": text?,
  …rule options spelled as in the game record ("preset", "schedule", "dealer_bid", …)}`` →
  ``{"table", "seat", "token", "url"}``; a refusal is 400 ``{"error"}``, and for rules the engine
  refuses also ``"option"``, the option at fault (or ``null``).
- ``GET /api/tables/{id}/record?token=…`` the game record (no seed): while the game is on, only
  for a seat's token and only the finished rounds, so no card still in a hand leaves the server.

WebSocket ``/ws/{id}?token=…`` (no token: a spectator); see :mod:`upriver.web.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from upriver.bots import BOT_KINDS
from upriver.errors import IllegalActionError, RulesError
from upriver.rules import rules_catalogue
from upriver.web import protocol
from upriver.web.keeper_api import keeper_router
from upriver.web.store import Store
from upriver.web.tables import HUMAN, CommitError, Connection, Manager, Table, TableError

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"

# WebSocket close codes in the application range: no such table, a token that opens no seat.
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4403


def _options() -> dict[str, object]:
    """The rules catalogue the score keeper's form gets too, and the bot kinds for the seats."""
    return {**rules_catalogue(), "bots": list(BOT_KINDS)}


def _refusal(message: str, status: int = 400, **data: object) -> JSONResponse:
    return JSONResponse({"error": message, **data}, status_code=status)


_NOT_RULES = ("seats", "name", "creator", "record")


def rule_options(body: Mapping[str, object]) -> dict[str, object]:
    """The rule options of a create request, spelled as in the game record (every key of the
    body but seats, name, creator and record); a form's blank (``""``) means not given (``None``).

    The engine (:meth:`Rules.from_options`) reads them and refuses unknown keys.
    """
    return {key: None if value == "" else value for key, value in body.items() if key not in _NOT_RULES}


async def _serve_socket(manager: Manager, table: Table, websocket: WebSocket, seat: int | None) -> None:
    """Read a client's messages and keep it sent the newest state, until it goes away."""
    conn = Connection(seat)
    conn.refresh()  # the first state goes out at once
    table.connections.add(conn)

    async def write() -> None:
        while True:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.outbox:
                await websocket.send_text(conn.outbox.popleft())
            if conn.dirty:
                conn.dirty = False
                await websocket.send_text(table.state(conn, manager.base_url))

    writer = asyncio.create_task(write())
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            _handle(manager, table, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        table.connections.discard(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


def _handle(manager: Manager, table: Table, conn: Connection, text: str) -> None:
    """Apply one client message, or queue the error reply; a refusal changes nothing."""
    try:
        message = protocol.parse_client(text)
    except protocol.ProtocolError as error:
        conn.push(protocol.error_message(table.version, error.rule, str(error), error.client_id))
        return
    if message.type == "sync":
        conn.refresh()
        return
    seat = conn.seat
    if seat is None:
        conn.push(
            protocol.error_message(
                table.version, "spectator", "spectators watch; they cannot act", message.id
            )
        )
        return
    if message.seat is not None and message.seat != seat:
        conn.push(
            protocol.error_message(
                table.version,
                "seat",
                f"this connection holds seat {seat}'s token, not seat {message.seat}'s",
                message.id,
            )
        )
        return
    try:
        if message.type == "join":
            assert message.name is not None
            manager.join(table, seat, message.name)
        else:
            manager.act(table, seat, message)
    except IllegalActionError as error:
        conn.push(protocol.error_message(table.version, error.rule, str(error), message.id))
        if error.rule == "stale":
            conn.refresh()
    except CommitError as error:
        conn.push(protocol.error_message(table.version, "store", str(error), message.id))


def create_app(db_path: str | Path, *, bot_delay: float = 0.8) -> FastAPI:
    """The web app over the tables stored in ``db_path``; bots wait ``bot_delay`` seconds before a move."""
    store = Store(db_path)
    manager = Manager(store, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        manager.wake_all_bots()
        yield
        for table in manager.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
        store.close()

    app = FastAPI(title="upriver", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(keeper_router(db_path))  # the score keeper: /keep and /api/sheets

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        if table_id not in manager.tables:
            return PlainTextResponse("No such table.", status_code=404)
        return FileResponse(STATIC / "table.html")

    @app.get("/api/options")
    async def options() -> dict[str, object]:
        return _options()

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return _refusal("the request body must be JSON")
        if not isinstance(body, dict):
            return _refusal("the request body must be a JSON object")
        seats = body.get("seats", [HUMAN, "basic", "basic", "basic"])
        name, creator, record = body.get("name", ""), body.get("creator", 0), body.get("record")
        if not isinstance(seats, list) or not all(isinstance(kind, str) for kind in seats):
            return _refusal('\'seats\' must be a list like ["human", "basic", "basic", "basic"]')
        if not isinstance(name, str) or not isinstance(creator, int) or isinstance(creator, bool):
            return _refusal("'name' must be text and 'creator' a seat number")
        if record is not None and not isinstance(record, str):
            return _refusal("'record' must be the text of a game record")
        try:
            table, token = manager.create(
                name=name, seats=seats, options=rule_options(body), creator=creator, record=record
            )
        except RulesError as error:
            return _refusal(str(error), option=error.option)
        except CommitError as error:
            return _refusal(str(error), 503)
        except TableError as error:
            return _refusal(str(error))
        return JSONResponse(
            {"table": table.id, "seat": creator, "token": token, "url": f"/t/{table.id}#token={token}"},
            status_code=201,
        )

    @app.get("/api/tables/{table_id}/record")
    async def export(table_id: str, token: str | None = None) -> Response:
        table = manager.tables.get(table_id)
        if table is None:
            return _refusal("no such table", 404)
        over = table.game is not None and table.game.is_over
        if not over and table.seat_of(token) is None:
            return _refusal("while the game is on, only a player's link can export it", 403)
        try:
            text = manager.export(table, whole=over)
        except TableError as error:
            return _refusal(str(error), 409)
        headers = {"Content-Disposition": f'attachment; filename="upriver-{table_id}.json"'}
        return Response(text, media_type="application/json", headers=headers)

    @app.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        table = manager.tables.get(table_id)
        if table is None:
            await websocket.send_text(protocol.error_message(0, "table", f"no table {table_id!r}"))
            await websocket.close(CLOSE_NO_TABLE)
            return
        seat = table.seat_of(token)
        if token and seat is None:
            await websocket.send_text(
                protocol.error_message(
                    table.version, "token", "this link's token opens no seat at this table"
                )
            )
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        await _serve_socket(manager, table, websocket, seat)

    return app
