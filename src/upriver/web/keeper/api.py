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
``version`` older than the stored one is 409 (another phone, or the terminal, wrote first).
An entry for a round may say what it was made against instead (``"against": {"round", "bids",
"tricks"}``, with ``"device"``, ``"by"``, ``"queued"``: :mod:`upriver.keeper.conflicts`); if the
round moved on meanwhile it is kept as a conflict on the sheet and answered 409 ``{"error", "rule":
"conflict", "facts", "conflict", "sheet"}``. Every sheet lists its open ``"conflicts"``:

- ``GET /options`` :func:`upriver.rules.rules_catalogue`, as the lobby's ``/api/options``;
  ``POST /`` ``{"players", "preset", …rule options as in the record
  (read by :meth:`Rules.from_options`), "dealer": seat | null, "first_jack": bool, "title"}``;
  ``POST /import`` ``{"record": text}``.
- ``GET /{id}``; ``POST /{id}/{action}`` with the body :mod:`upriver.keeper.commands` takes
  for that action (``jack``, ``bid``, ``bids``, ``tricks``, ``trump``, ``dealer``, ``undo``, and for
  the evening ``join``, ``leave``, ``sit-out``, ``adjust``, ``schedule``); ``/rounds/{k}``
  ``{"bids"?, "tricks"?}`` edits round ``k``. Each takes an optional ``"version"``.
- ``POST /{id}/conflicts/{conflict}`` ``{"pick": "current" | "entry", "version"}``: the table's
  pick for a conflict (keep the sheet, or make the round what the entry wanted), a write of
  ``version``; a conflict resolved already is 409 ``rule: "resolved"``.
- ``GET /{id}/csv``, ``GET /{id}/record``; ``GET /shared/{share}`` (and its ``/csv``, ``/record``).

A route names its sheet by its path and receives it through one look-up (:func:`sheet_lookup`,
a FastAPI dependency); a sheet that is not there, and every typed refusal of the keeper's
commands, is turned into the API's refusal by the routes' class (:class:`SheetRoute`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute

from upriver.database import Target
from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.keeper import KeptSheet
from upriver.keeper.commands import ACTIONS, BadEntryError, new_sheet, rules_from, sheet_view, whole
from upriver.keeper.conflicts import Pick, Verdict
from upriver.keeper.store import ConflictGoneError, SheetStore, StaleSheetError, StoredSheet, open_sheet_store
from upriver.names import PlayerNameError
from upriver.record import RecordRuleError, dumps
from upriver.rules import rules_catalogue
from upriver.web.hosting.guard import (
    AnyObject,
    InputError,
    RateLimiter,
    guarded_record,
    read_body,
    refusal,
    rounds_within,
)
from upriver.web.hosting.limits import Limits

__all__ = [
    "NO_SUCH_SHEET",
    "KeeperRouter",
    "NoSuchSheetError",
    "SheetRoute",
    "keeper_router",
    "rules_from",
    "sheet_json",
    "sheet_lookup",
]

STATIC = Path(__file__).parent.parent / "static"
NO_SUCH_SHEET = "no such sheet"
"""The one refusal of a sheet the path names that is not there (404)."""


class NoSuchSheetError(LookupError):
    """The sheet a route's path names is not there; ``key`` is the id or share id it named."""

    def __init__(self, key: str) -> None:
        super().__init__(NO_SUCH_SHEET)
        self.key = key


class SheetRoute(APIRoute):
    """A keeper route whose refusals are data: a sheet not there is 404; a request that is not what
    the API takes (:class:`InputError`, :class:`BadEntryError`), an entry the engine refuses
    (:class:`IllegalActionError`) and a write over a newer version (:class:`StaleSheetError`, 409)
    are the API's JSON refusals, never a server error."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except NoSuchSheetError:
                return refusal(NO_SUCH_SHEET, 404, rule="sheet")
            except InputError as error:
                return refusal(str(error), error.status, rule="request", field=error.field)
            except BadEntryError as error:
                return refusal(str(error), rule=error.rule, field=error.field, facts=error.facts_json())
            except IllegalActionError as error:
                return refusal(str(error), rule=error.rule, seat=error.seat, facts=error.facts_json())
            except StaleSheetError as error:
                return refusal(f"{error}; here is the latest", 409, rule="stale")
            except ConflictGoneError as error:
                return refusal(str(error), 409, rule="resolved", facts={"conflict": error.conflict_id})

        return run


def sheet_lookup(store: SheetStore, *, shared: bool = False) -> Callable[[str], StoredSheet]:
    """The dependency that finds the sheet a route's ``{sheet_id}`` (or, ``shared``, its ``{share}``
    id) names in ``store``, or raises :class:`NoSuchSheetError` (the :class:`SheetRoute` answers 404)."""

    def by_id(sheet_id: str) -> StoredSheet:
        found = store.load(sheet_id)
        if found is None:
            raise NoSuchSheetError(sheet_id)
        return found

    def by_share(share: str) -> StoredSheet:
        found = store.load_shared(share)
        if found is None:
            raise NoSuchSheetError(share)
        return found

    return by_share if shared else by_id


def sheet_json(stored: StoredSheet, *, read_only: bool = False) -> dict[str, object]:
    """Everything a page needs (:func:`upriver.keeper.commands.sheet_view`), with the sheet's
    share id, its version and, when not ``read_only``, its edit id."""
    return {
        "id": None if read_only else stored.id,
        "share": stored.share,
        "version": stored.version,
        **sheet_view(stored.sheet, read_only=read_only),
        "conflicts": [] if read_only else [conflict.to_json() for conflict in stored.conflicts],
    }


async def _body(request: Request, limits: Limits) -> dict[str, Any]:
    """The JSON object of the request (:func:`upriver.web.hosting.guard.read_body`: its type, size and depth).

    :raises InputError: refused, with the status (400, 413 or 415) and the field at fault.
    """
    return (await read_body(request, AnyObject, limits)).data()


def _export(stored: StoredSheet, kind: str) -> Response:
    """The sheet as a download: ``csv`` or its game ``record``."""
    if kind == "csv":
        text, media, ext = stored.sheet.to_csv(), "text/csv", "csv"
    else:
        text, media, ext = dumps(stored.sheet.to_record()), "application/json", "json"
    headers = {"Content-Disposition": f'attachment; filename="upriver-sheet-{stored.share[:8]}.{ext}"'}
    return Response(text, media_type=f"{media}; charset=utf-8", headers=headers)


def _page() -> FileResponse:
    return FileResponse(STATIC / "keep.html", headers={"Cache-Control": "no-cache"})


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
    found = Depends(sheet_lookup(store))  # the sheet a route's {sheet_id} names, or the one 404 refusal
    shared = Depends(sheet_lookup(store, shared=True))  # the same by its {share} id, read-only

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
    api = APIRouter(prefix="/api/sheets", route_class=SheetRoute)
    for path in ("/keep", "/keep/view/{share}", "/keep/{sheet_id}"):
        router.add_api_route(path, _page, methods=["GET"], include_in_schema=False)

    @api.get("/options")
    async def options() -> dict[str, object]:
        return rules_catalogue()

    @api.post("")
    @api.post("/")
    async def create(request: Request) -> JSONResponse:
        body = await _body(request, limits)
        try:
            if isinstance(body.get("schedule"), list):  # counted before the engine reads it
                rounds_within(limits, len(body["schedule"]), "'schedule'", "schedule")
            sheet = new_sheet(body)
            rounds_within(limits, sheet.rules.rounds, "the sheet's game", "schedule")
        except PlayerNameError as error:
            facts = {"case": error.reason}  # the page words it: "A name has at most 24 characters."
            return refusal(str(error), rule="name", seat=error.seat, field="players", facts=facts)
        except RulesError as error:
            return refusal(str(error), rule="rules", option=error.option)
        except (BadEntryError, InputError, IllegalActionError):
            raise  # the route's refusals
        except ValueError as error:  # KeptSheet.start: a dealer that is no seat, or with first_jack
            return refusal(str(error), rule="dealer")
        return too_many(request) or JSONResponse(sheet_json(store.create(sheet)), status_code=201)

    @api.post("/import")
    async def import_record(request: Request) -> JSONResponse:
        text = (await _body(request, limits)).get("record")
        if not isinstance(text, str):
            raise BadEntryError("'record' must be the text of a game record")
        try:
            sheet = KeptSheet.from_record(guarded_record(text, limits))
        except RecordError as error:
            return refusal(f"not a game record: {error}", rule="record")
        except RecordRuleError as error:
            return refusal(f"rule broken: {error}", rule=error.rule)
        return too_many(request) or JSONResponse(sheet_json(store.create(sheet)), status_code=201)

    @api.get("/shared/{share}")
    async def read_shared(stored: StoredSheet = shared) -> JSONResponse:
        return JSONResponse(sheet_json(stored, read_only=True))

    @api.get("/shared/{share}/{kind}")
    async def shared_export(kind: str, stored: StoredSheet = shared) -> Response:
        if kind not in ("csv", "record"):
            return refusal("export as csv or record", 404, rule="export")
        return _export(stored, kind)

    @api.get("/{sheet_id}")
    async def read(stored: StoredSheet = found) -> JSONResponse:
        return JSONResponse(sheet_json(stored))

    @api.get("/{sheet_id}/csv")
    async def export_csv(stored: StoredSheet = found) -> Response:
        return _export(stored, "csv")

    @api.get("/{sheet_id}/record")
    async def export_record(stored: StoredSheet = found) -> Response:
        return _export(stored, "record")

    async def entry(stored: StoredSheet, request: Request, action: str, **path: object) -> JSONResponse:
        """Make one entry (:func:`upriver.keeper.commands.apply`) on the stored sheet and save it."""
        body = await _body(request, limits)
        version = body.get("version")
        # An entry made against a round is checked against that round, not the whole sheet's version.
        if (
            body.get("against") is None
            and version is not None
            and whole(version, "'version'") != stored.version
        ):
            raise StaleSheetError("the sheet changed since this page read it")
        sizes = body.get("sizes")
        if action == "schedule" and isinstance(sizes, list):  # this server's longest game, as at the start
            rounds_within(limits, stored.sheet.scored + len(sizes), "the sheet's game", "sizes")
        done = store.enter(stored, action, {**body, **path})
        if done.verdict is Verdict.CONFLICT and done.conflict is not None:
            conflict = done.conflict
            message = f"{conflict.reason}: it is kept as a conflict for the table to resolve"
            facts = {"round": conflict.round, "current": done.stored.sheet.current, "conflict": conflict.id}
            return JSONResponse(
                {
                    "error": message,
                    "rule": "conflict",
                    "facts": facts,
                    "conflict": conflict.to_json(),
                    "sheet": sheet_json(done.stored),
                },
                status_code=409,
            )
        return JSONResponse(sheet_json(done.stored))

    @api.post("/{sheet_id}/conflicts/{conflict_id}")
    async def resolve(conflict_id: str, request: Request, stored: StoredSheet = found) -> JSONResponse:
        body = await _body(request, limits)
        pick = body.get("pick")
        if pick not in {p.value for p in Pick}:
            raise BadEntryError(f"'pick' must be one of {', '.join(p.value for p in Pick)}, not {pick!r}")
        if whole(body.get("version"), "'version'") != stored.version:
            raise StaleSheetError("the sheet changed since this page read it")
        return JSONResponse(sheet_json(store.resolve(stored, conflict_id, Pick(pick))))

    @api.post("/{sheet_id}/rounds/{number}")
    async def edit(number: int, request: Request, stored: StoredSheet = found) -> JSONResponse:
        return await entry(stored, request, "edit", round=number)

    @api.post("/{sheet_id}/{action}")
    async def act(action: str, request: Request, stored: StoredSheet = found) -> JSONResponse:
        if action not in ACTIONS or action == "edit":
            named = ", ".join(a for a in ACTIONS if a != "edit")
            return refusal(f"unknown action {action!r}: expected one of {named}", 404, rule="request")
        return await entry(stored, request, action)

    router.include_router(api)
    return router
