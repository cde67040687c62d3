"""The score keeper in the web app: its pages and a small JSON API over :mod:`upriver.keeper`.

``keeper_router(db_path)`` gives the routes; the app includes them. Pages: ``GET /keep``
(start a sheet, import a record, the sheets this browser knows), ``GET /keep/{id}`` (a
sheet, to fill in), ``GET /keep/view/{share}`` (the same sheet, read-only). The sheet's
id is its edit link; the share id opens it read-only and cannot be turned into the edit id.

JSON, under ``/api/sheets``; every write answers with the whole sheet (:func:`sheet_json`,
whose ``"sheet"`` is :meth:`upriver.sheet.ScoreSheet.to_json`, the web table's shape too). A
refusal is 400 ``{"error", "rule", "seat", "facts"}``: the engine's sentence, and the rule,
seat and facts it is made of as data (:class:`~upriver.errors.IllegalActionError`), or for
rules that cannot be played ``{"error", "rule": "rules", "option"}``. A write that names a
``version`` older than the stored one is 409 (another phone, or the terminal, wrote first):

- ``GET /options`` :func:`upriver.rules.rules_catalogue`, as the lobby's ``/api/options``;
  ``POST /`` ``{"players", "preset", …rule options as in the record
  (read by :meth:`Rules.from_options`), "dealer": seat | null, "first_jack": bool, "title"}``;
  ``POST /import`` ``{"record": text}``.
- ``GET /{id}``; ``POST /{id}/jack`` ``{"seat"}``; ``/bid`` ``{"seat", "bid"}``; ``/bids`` ``{"bids"}``;
  ``/tricks`` ``{"tricks"}``; ``/trump`` ``{"suit", "round"?}``; ``/rounds/{k}`` ``{"bids"?, "tricks"?}``;
  ``/dealer`` ``{"seat"}``; ``/undo``. Each takes an optional ``"version"``.
- ``GET /{id}/csv``, ``GET /{id}/record``; ``GET /shared/{share}`` (and its ``/csv``, ``/record``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from upriver.database import Target
from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.keeper import KeptSheet
from upriver.keeper.commands import ACTIONS, BadEntryError, apply, new_sheet, rules_from, sheet_view, whole
from upriver.keeper.store import SheetStore, StaleSheetError, StoredSheet, open_sheet_store
from upriver.names import PlayerNameError
from upriver.record import RecordRuleError, dumps
from upriver.rules import rules_catalogue
from upriver.web.guard import (
    AnyObject,
    InputError,
    RateLimiter,
    guarded_record,
    read_body,
    refusal,
    rounds_within,
)
from upriver.web.limits import Limits

__all__ = ["KeeperRouter", "keeper_router", "rules_from", "sheet_json"]

STATIC = Path(__file__).parent / "static"


def _illegal(error: IllegalActionError) -> JSONResponse:
    return refusal(str(error), rule=error.rule, seat=error.seat, facts=error.facts_json())


def sheet_json(stored: StoredSheet, *, read_only: bool = False) -> dict[str, object]:
    """Everything a page needs (:func:`upriver.keeper.commands.sheet_view`), with the sheet's
    share id, its version and, when not ``read_only``, its edit id."""
    return {
        "id": None if read_only else stored.id,
        "share": stored.share,
        "version": stored.version,
        **sheet_view(stored.sheet, read_only=read_only),
    }


async def _body(request: Request, limits: Limits) -> dict[str, Any]:
    """The JSON object of the request (:func:`upriver.web.guard.read_body`: its type, size and depth).

    :raises InputError: refused, with the status (400, 413 or 415) and the field at fault.
    """
    return (await read_body(request, AnyObject, limits)).data()


def _input(error: InputError) -> JSONResponse:
    return refusal(str(error), error.status, rule="request", field=error.field)


class KeeperRouter(APIRouter):
    """The keeper's routes, holding the store they write to."""

    def __init__(self, store: SheetStore) -> None:
        super().__init__()
        self.store = store


def keeper_router(db_path: str | Path | Target, limits: Limits | None = None) -> KeeperRouter:
    """The score keeper's pages and API, over the sheets stored in ``db_path``, within ``limits``."""
    limits = limits or Limits()
    creations = RateLimiter(limits.creations_per_minute)
    store = open_sheet_store(db_path)

    def too_many(request: Request) -> JSONResponse | None:
        if creations.allow(request.client.host if request.client is not None else "?"):
            return None
        return refusal(
            f"this address created {limits.creations_per_minute} sheets in the last minute, "
            "this server's limit: wait a minute",
            429,
            rule="rate",
        )

    router = KeeperRouter(store)
    api = APIRouter(prefix="/api/sheets")

    def page() -> FileResponse:
        return FileResponse(STATIC / "keep.html", headers={"Cache-Control": "no-cache"})

    @router.get("/keep", include_in_schema=False)
    async def keep_home() -> FileResponse:
        return page()

    @router.get("/keep/view/{share}", include_in_schema=False)
    async def keep_shared(share: str) -> FileResponse:
        return page()

    @router.get("/keep/{sheet_id}", include_in_schema=False)
    async def keep_sheet(sheet_id: str) -> FileResponse:
        return page()

    @api.get("/options")
    async def options() -> dict[str, object]:
        return rules_catalogue()

    @api.post("")
    @api.post("/")
    async def create(request: Request) -> JSONResponse:
        try:
            body = await _body(request, limits)
            if isinstance(body.get("schedule"), list):  # counted before the engine reads it
                rounds_within(limits, len(body["schedule"]), "'schedule'", "schedule")
            sheet = new_sheet(body)
            rounds_within(limits, sheet.rules.rounds, "the sheet's game", "schedule")
        except InputError as error:
            return _input(error)
        except PlayerNameError as error:
            return refusal(str(error), rule="name", seat=error.seat, field="players")
        except BadEntryError as error:
            return refusal(str(error), rule="request")
        except RulesError as error:
            return refusal(str(error), rule="rules", option=error.option)
        except IllegalActionError as error:
            return _illegal(error)
        except ValueError as error:  # KeptSheet.start: a dealer that is no seat, or with first_jack
            return refusal(str(error), rule="dealer")
        return too_many(request) or JSONResponse(sheet_json(store.create(sheet)), status_code=201)

    @api.post("/import")
    async def import_record(request: Request) -> JSONResponse:
        try:
            body = await _body(request, limits)
            text = body.get("record")
            if not isinstance(text, str):
                raise BadEntryError("'record' must be the text of a game record")
            sheet = KeptSheet.from_record(guarded_record(text, limits))
        except InputError as error:
            return _input(error)
        except BadEntryError as error:
            return refusal(str(error), rule="request")
        except RecordError as error:
            return refusal(f"not a game record: {error}", rule="record")
        except RecordRuleError as error:
            return refusal(f"rule broken: {error}", rule=error.rule)
        return too_many(request) or JSONResponse(sheet_json(store.create(sheet)), status_code=201)

    @api.get("/shared/{share}")
    async def shared(share: str) -> JSONResponse:
        stored = store.load_shared(share)
        if stored is None:
            return refusal("no such sheet", 404, rule="sheet")
        return JSONResponse(sheet_json(stored, read_only=True))

    def _export(stored: StoredSheet | None, kind: str) -> Response:
        if stored is None:
            return refusal("no such sheet", 404, rule="sheet")
        if kind == "csv":
            text, media, ext = stored.sheet.to_csv(), "text/csv", "csv"
        else:
            text, media, ext = dumps(stored.sheet.to_record()), "application/json", "json"
        headers = {"Content-Disposition": f'attachment; filename="upriver-sheet-{stored.share[:8]}.{ext}"'}
        return Response(text, media_type=f"{media}; charset=utf-8", headers=headers)

    @api.get("/shared/{share}/{kind}")
    async def shared_export(share: str, kind: str) -> Response:
        if kind not in ("csv", "record"):
            return refusal("export as csv or record", 404, rule="export")
        return _export(store.load_shared(share), kind)

    @api.get("/{sheet_id}")
    async def read(sheet_id: str) -> JSONResponse:
        stored = store.load(sheet_id)
        if stored is None:
            return refusal("no such sheet", 404, rule="sheet")
        return JSONResponse(sheet_json(stored))

    @api.get("/{sheet_id}/csv")
    async def export_csv(sheet_id: str) -> Response:
        return _export(store.load(sheet_id), "csv")

    @api.get("/{sheet_id}/record")
    async def export_record(sheet_id: str) -> Response:
        return _export(store.load(sheet_id), "record")

    async def _apply(sheet_id: str, request: Request, action: str, extra: Mapping[str, Any]) -> JSONResponse:
        stored = store.load(sheet_id)
        if stored is None:
            return refusal("no such sheet", 404, rule="sheet")
        try:
            body = await _body(request, limits)
            version = body.get("version")
            if version is not None and whole(version, "'version'") != stored.version:
                raise StaleSheetError("the sheet changed since this page read it")
            sheet, label = apply(stored.sheet, action, {**body, **extra})
            saved = store.save(stored, sheet, label)
        except InputError as error:
            return _input(error)
        except BadEntryError as error:
            return refusal(str(error), rule="request")
        except IllegalActionError as error:
            return _illegal(error)
        except StaleSheetError as error:
            return refusal(f"{error}; here is the latest", 409, rule="stale")
        return JSONResponse(sheet_json(saved))

    @api.post("/{sheet_id}/rounds/{number}")
    async def edit(sheet_id: str, number: int, request: Request) -> JSONResponse:
        return await _apply(sheet_id, request, "edit", {"round": number})

    @api.post("/{sheet_id}/{action}")
    async def act(sheet_id: str, action: str, request: Request) -> JSONResponse:
        if action not in ACTIONS or action == "edit":
            named = ", ".join(a for a in ACTIONS if a != "edit")
            return refusal(f"unknown action {action!r}: expected one of {named}", 404, rule="request")
        return await _apply(sheet_id, request, action, {})

    router.include_router(api)
    return router
