"""The tables' own routes, as one router: the pages, the create form's options, creating a table,
a table's summary, giving a seat to a bot, the record, and the WebSocket.

A route under ``/api/tables/{table_id}`` finds its table through the one look-up every such route
shares (:mod:`upriver.web.play.lookup`). The routes and their answers are listed in :mod:`upriver.web.app`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from pathlib import Path

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import ConfigDict, Field

from upriver.bots import BOT_KINDS
from upriver.errors import RulesError
from upriver.names import PlayerNameError
from upriver.rules import preset as preset_rules
from upriver.rules import rules_catalogue
from upriver.web.hosting import admission
from upriver.web.hosting.guard import (
    AnyObject,
    InputError,
    RateLimiter,
    form_options,
    read_body,
    record_within,
    refusal,
    rounds_within,
)
from upriver.web.hosting.limits import Limits
from upriver.web.play import bots, protocol
from upriver.web.play.lookup import NO_SUCH_TABLE, TableRoute, table_lookup
from upriver.web.play.settings import SettingError, TableSettings
from upriver.web.play.sockets import serve_socket
from upriver.web.play.tables import HUMAN, CommitError, Manager, Table, TableError, TableRefusalError
from upriver.web.seats.holders import CLOSE_BAD_TOKEN, Connection
from upriver.web.seats.links import dead_link_message
from upriver.web.social.talk import Social

__all__ = ["CLOSE_FULL", "CLOSE_NO_TABLE", "STATIC", "table_router"]

STATIC = Path(__file__).parent.parent / "static"

# WebSocket close codes in the application range: no such table, too many spectators
# (and CLOSE_BAD_TOKEN, 4403: a token or origin that opens no seat; CLOSE_TOO_SLOW, 1008).
CLOSE_NO_TABLE = 4404
CLOSE_FULL = admission.CLOSE_FULL  # too many spectators, or connections of one seat


def _options(bot_delay: float) -> dict[str, object]:
    """The rules catalogue the score keeper's form gets too, the bot kinds for the seats, and the paces;
    for the start page's estimate of a game's length, each pace's seconds (a bot's move, a finished
    trick's pause) and, per preset and player count, the rounds and the cards dealt to a seat."""
    catalogue = rules_catalogue()
    lengths: dict[str, dict[str, dict[str, int]]] = {}
    for preset in catalogue["presets"]:  # type: ignore[attr-defined]
        name = preset["name"]
        lengths[name] = {}
        for count in range(preset["min_players"], preset["max_players"] + 1):
            rules = preset_rules(name, count)
            lengths[name][str(count)] = {"rounds": rules.rounds, "cards": sum(rules.hand_sizes)}
    paces = {name: bots.pace_of(name, bot_delay) for name in bots.PACES}
    return {
        **catalogue,
        "bots": list(BOT_KINDS),
        "paces": list(bots.PACES),
        "pace": bots.DEFAULT_PACE,
        "pace_seconds": {name: {"move": p.bot_delay, "trick": p.trick_pause} for name, p in paces.items()},
        "lengths": lengths,
    }


_NOT_RULES = ("seats", "name", "creator", "record", *TableSettings.names())
"""The keys of a create request that are not rule options (:func:`upriver.web.hosting.guard.form_options`)."""
_DEFAULT = TableSettings()


class CreateTable(AnyObject):
    """``POST /api/tables``: the seats, the creator's name and seat, a record to continue, the
    table's settings (:class:`TableSettings`, which checks them and owns their defaults), and (as
    the other keys) the rule options spelled as in the game record."""

    model_config = ConfigDict(extra="allow", strict=True)

    name: str = Field("", max_length=200)
    seats: list[str] = Field(default_factory=lambda: [HUMAN, "basic", "basic", "basic"], max_length=64)
    creator: int | None = 0
    record: str | None = None
    pace: bots.PaceName = _DEFAULT.pace
    clock: int = _DEFAULT.clock
    level: str = Field(_DEFAULT.level, max_length=16)
    hints: bool = _DEFAULT.hints
    spectator_chat: bool = _DEFAULT.spectator_chat


class SeatBot(AnyObject):
    """``POST /api/tables/{id}/seats/{seat}/bot``: the host's token and the bot's kind."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(max_length=200)
    kind: str = Field(max_length=16)


class Recovery(AnyObject):
    """``POST /api/tables/{id}/recover``: the invite a page joined with and the secret it kept."""

    model_config = ConfigDict(extra="forbid", strict=True)

    invite: str = Field(max_length=200)
    secret: str = Field(min_length=16, max_length=200)


def _summary(table: Table, seat: int | None, base_url: str) -> dict[str, object]:
    """The table as the start page lists it, for ``seat`` (the host also gets the open seats' invites)."""
    game = table.game
    rounds: int | None = None
    if game is not None:
        rounds = game.rules.rounds
    elif table.base is None:
        with contextlib.suppress(RulesError):  # checked at creation; a restored table may differ
            rounds = table.rules.rounds
    return {
        "table": table.id,
        "seat": seat,
        "host": seat is not None and seat == table.host,
        "over": game is not None and game.is_over,
        "round": 0 if game is None else min(game.round_number, game.rules.rounds),
        "rounds": rounds,
        "pace": table.pace.name,
        **table.lobby(seat, base_url),
    }


def _option_limits(options: Mapping[str, object], limits: Limits) -> None:
    """Refuse a rule option too large to be one (the engine reads what is left)."""
    for key, value in options.items():
        if isinstance(value, str) and len(value) > 64:
            raise InputError(
                f"'{key}' is {len(value):,} characters long: an option's value has at most 64", field=key
            )
        if isinstance(value, list):
            rounds_within(limits, len(value), f"'{key}'", key)
        if isinstance(value, dict | list) and len(str(value)) > 2000:
            raise InputError(f"'{key}' is too large to be a rule option", field=key)


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "?"


def table_router(manager: Manager, social: Social, *, limits: Limits, bot_delay: float) -> APIRouter:
    """The tables' routes over ``manager``'s tables: pages, options, create, summary, a seat to a bot,
    the record, and the WebSocket (``social``: presence and table talk)."""
    router = APIRouter(route_class=TableRoute)
    creations = RateLimiter(limits.creations_per_minute)
    found = Depends(table_lookup(manager))  # the table a route's path names

    @router.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @router.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        if manager.find(table_id) is None:
            return FileResponse(STATIC / "missing.html", status_code=404)  # says so in the browser's language
        return FileResponse(STATIC / "table.html")

    @router.get("/api/options")
    async def options() -> dict[str, object]:
        return _options(bot_delay)

    @router.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        try:
            body = await read_body(request, CreateTable, limits)
            options = form_options(body.data(), _NOT_RULES)
            _option_limits(options, limits)
            if body.record is not None:
                record_within(body.record, limits)
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        if not creations.allow(_client(request)):
            return refusal(
                f"this address created {limits.creations_per_minute} tables in the last minute, "
                "this server's limit: wait a minute",
                429,
                rule="rate",
            )
        try:
            table, token = manager.create(
                name=body.name,
                seats=body.seats,
                options=options,
                creator=body.creator,
                record=body.record,
                settings=TableSettings(
                    clock=body.clock,
                    level=body.level,
                    hints=body.hints,
                    spectator_chat=body.spectator_chat,
                    pace=body.pace,
                ),
            )
        except PlayerNameError as error:
            return refusal(f"your name: {error}", field="name", rule="name", facts={"case": error.reason})
        except RulesError as error:
            return refusal(str(error), option=error.option, facts=error.facts)
        except CommitError as error:
            return refusal(str(error), 503)
        except (TableError, SettingError) as error:
            return refusal(str(error))
        url = f"/t/{table.id}" if token is None else f"/t/{table.id}#token={token}"
        return JSONResponse(
            {"table": table.id, "seat": body.creator, "token": token, "url": url}, status_code=201
        )

    @router.get("/api/tables/{table_id}")
    async def table_summary(token: str | None = None, table: Table = found) -> JSONResponse:
        seat = table.seat_of(token)
        if token and seat is None:
            dead = table.keys.why_dead(token)
            if dead is None:
                return refusal(
                    "this token opens no seat at this table: check that the whole link was copied", 403
                )
            return refusal(dead.sentence(), 403, rule="token", **dead.facts())
        return JSONResponse(_summary(table, seat, manager.base_url))

    @router.post("/api/tables/{table_id}/recover")
    async def recover(request: Request, table: Table = found) -> JSONResponse:
        try:
            body = await read_body(request, Recovery, limits)
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        try:
            seat, token = manager.links.recover(table, body.invite, body.secret)
        except TableRefusalError as error:
            return refusal(str(error), 403, rule=error.rule)
        return JSONResponse(
            {"table": table.id, "seat": seat, "token": token, "url": f"/t/{table.id}#token={token}"}
        )

    @router.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_bot(seat: int, request: Request, table: Table = found) -> JSONResponse:
        try:
            body = await read_body(request, SeatBot, limits)
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        host = table.seat_of(body.token)
        if host is None or host != table.host:
            return refusal("only the table's creator can give a seat to a bot", 403, rule="bot")
        try:
            manager.give_to_bot(table, host, seat, body.kind)
        except TableRefusalError as error:
            return refusal(str(error), rule=error.rule)
        except CommitError as error:
            return refusal(str(error), 503)
        except (RulesError, TableError) as error:
            return refusal(str(error))
        return JSONResponse(_summary(table, host, manager.base_url))

    @router.get("/api/tables/{table_id}/record")
    async def export(token: str | None = None, table: Table = found) -> Response:
        over = table.game is not None and table.game.is_over
        if not over and table.seat_of(token) is None:
            return refusal("while the game is on, only a player's link can export it", 403)
        try:
            text = manager.export(table, whole=over)
        except TableError as error:
            return refusal(str(error), 409)
        headers = {"Content-Disposition": f'attachment; filename="upriver-{table.id}.json"'}
        return Response(text, media_type="application/json", headers=headers)

    @router.websocket("/ws/{table_id}")
    async def socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        # A WebSocket is refused in the protocol's own words and a close code, not by the HTTP look-up.
        await websocket.accept()
        if not websocket.scope.get("state", {}).get("origin_ok", True):
            await websocket.send_text(
                protocol.error_message(0, "origin", "a page of another site may not open this table")
            )
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        table = manager.find(table_id)
        if table is None:
            await websocket.send_text(protocol.error_message(0, "table", NO_SUCH_TABLE))
            await websocket.close(CLOSE_NO_TABLE)
            return
        seat = table.seat_of(token)
        if token and seat is None:
            await websocket.send_text(dead_link_message(table, token))
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        full = admission.refusal(table.connections, seat, limits, table.version)  # spectators, a seat's tabs
        if full is not None:
            await websocket.send_text(full)
            await websocket.close(CLOSE_FULL)
            return
        conn = Connection(
            seat, token=token if seat is not None else None, limit=limits.outbox, address=_client(websocket)
        )
        full = await social.admit(table, conn, limits)  # the same, across the cluster's processes
        if full is not None:
            await websocket.send_text(full)
            await websocket.close(CLOSE_FULL)
            return
        await serve_socket(manager, table, websocket, conn, social)

    return router
