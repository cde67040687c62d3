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

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from upriver.cards import Suit
from upriver.errors import IllegalActionError, NotationError, RecordError, RulesError, json_facts
from upriver.keeper import JACK_FROM, KeptSheet
from upriver.keeper.store import SheetStore, StaleSheetError, StoredSheet, open_sheet_store
from upriver.names import PlayerNameError, check_names
from upriver.record import RecordRuleError, dumps
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, rules_catalogue
from upriver.sheet import RowStatus
from upriver.storage import Target
from upriver.web.guard import (
    AnyObject,
    InputError,
    RateLimiter,
    form_options,
    guarded_record,
    read_body,
    refusal,
    rounds_within,
)
from upriver.web.limits import Limits
from upriver.web.protocol import restriction_json, rules_json

__all__ = ["KeeperRouter", "keeper_router", "rules_from", "sheet_json"]

STATIC = Path(__file__).parent / "static"


class _BadRequestError(Exception):
    """A request that is not what the API expects; the message says what is."""


def _illegal(error: IllegalActionError) -> JSONResponse:
    return refusal(str(error), rule=error.rule, seat=error.seat, facts=error.facts_json())


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadRequestError(f"{what} must be a whole number, not {value!r}")
    return value


def _ints(value: object, what: str, *, nulls: bool = False) -> list[Any]:
    if not isinstance(value, list):
        raise _BadRequestError(f"{what} must be a list of whole numbers")
    return [None if nulls and v is None else _int(v, what) for v in value]


SHEET_FIELDS = ("players", "dealer", "first_jack", "title", "version")
"""The keys of a new sheet's request that are not rule options."""


def rules_from(body: Mapping[str, Any], players: int) -> Rules:
    """The request's rule options (every key but :data:`SHEET_FIELDS`) through
    :meth:`Rules.from_options`, read as the lobby's (:func:`upriver.web.guard.form_options`).

    :raises RulesError: as the engine refuses the combination (or a key that is no rule
        option, :data:`~upriver.rules.OPTION_NAMES`), naming the option at fault.
    """
    return Rules.from_options(form_options(body, SHEET_FIELDS), player_count=players)


def sheet_json(stored: StoredSheet, *, read_only: bool = False) -> dict[str, object]:
    """Everything a page needs: the entry state, and under ``"sheet"`` the one score sheet shape.

    The edit id only when not ``read_only``. ``current.restriction`` is the engine's
    :class:`~upriver.legality.BidRestriction` on the next bid as data (``null``: none).
    """
    sheet = stored.sheet
    flag = sheet.flag
    trump = sheet.trump
    scored = sheet.score_sheet
    bids = list(sheet.bids)
    if read_only:
        # A reader sees the round's bids as the table does: closed fists stay closed until all have bid.
        live = [row for row in scored.rows if row.number == sheet.current and row.status is RowStatus.BIDDING]
        bids = [cell.bid for cell in live[0].cells] if live else bids
    return {
        "id": None if read_only else stored.id,
        "share": stored.share,
        "read_only": read_only,
        "version": stored.version,
        "title": sheet.title,
        "players": list(sheet.players),
        "rules": rules_json(sheet.rules),
        "phase": sheet.phase,
        "jack_from": JACK_FROM if sheet.awaiting_jack else None,
        "jack": sheet.entries.jack,
        "first_dealer": sheet.entries.first_dealer,
        "current": {
            "number": sheet.current,
            "hand_size": sheet.hand_size,
            "dealer": sheet.dealer,
            "bidding_order": list(sheet.bidding_order),
            "bids": bids,
            "to_bid": list(sheet.to_bid),
            "legal_bids": {str(seat): list(sheet.legal_bids(seat)) for seat in sheet.to_bid},
            "restriction": restriction_json(sheet.bid_restriction()),
            "trump": None if trump is None else trump.value,
        },
        "sheet": scored.to_json(),
        "flag": None
        if flag is None
        else {
            "round": flag.round,
            "message": flag.message,
            "rule": flag.rule,
            "seat": flag.seat,
            "facts": json_facts(flag.facts),
        },
        "can_undo": bool(sheet.history) and not read_only,
    }


def _suit(value: object) -> Suit | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise _BadRequestError("'suit' must be C, D, H, S or null")
    try:
        return Suit.parse(value)
    except NotationError as error:
        raise _BadRequestError(str(error)) from None


Action = Callable[[KeptSheet, dict[str, Any]], str]


def _jack(sheet: KeptSheet, body: dict[str, Any]) -> str:
    sheet.first_jack(_int(body.get("seat"), "'seat'"))
    return "first jack"


def _bid(sheet: KeptSheet, body: dict[str, Any]) -> str:
    seat = body.get("seat")
    sheet.enter_bid(None if seat is None else _int(seat, "'seat'"), _int(body.get("bid"), "'bid'"))
    return "bid"


def _bids(sheet: KeptSheet, body: dict[str, Any]) -> str:
    sheet.enter_bids(_ints(body.get("bids"), "'bids'"))
    return "bids"


def _tricks(sheet: KeptSheet, body: dict[str, Any]) -> str:
    sheet.enter_tricks(_ints(body.get("tricks"), "'tricks'"))
    return "tricks"


def _trump(sheet: KeptSheet, body: dict[str, Any]) -> str:
    number = body.get("round")
    sheet.note_trump(_suit(body.get("suit")), None if number is None else _int(number, "'round'"))
    return "trump"


def _dealer(sheet: KeptSheet, body: dict[str, Any]) -> str:
    sheet.set_first_dealer(_int(body.get("seat"), "'seat'"))
    return "first dealer"


def _undo(sheet: KeptSheet, body: dict[str, Any]) -> str:
    sheet.undo()
    return "undo"


ACTIONS: dict[str, Action] = {
    "jack": _jack,
    "bid": _bid,
    "bids": _bids,
    "tricks": _tricks,
    "trump": _trump,
    "dealer": _dealer,
    "undo": _undo,
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
            names = body.get("players")
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise _BadRequestError("'players' must be a list of names in seating order")
            if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:  # before the names: a long list is refused now
                raise _BadRequestError(
                    f"a sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names):,}"
                )
            names = list(check_names(names))
            if isinstance(body.get("schedule"), list):  # counted before the engine reads it
                rounds_within(limits, len(body["schedule"]), "'schedule'", "schedule")
            if isinstance(body.get("title"), str) and len(body["title"]) > 80:
                raise _BadRequestError(f"'title' has at most 80 characters, not {len(body['title']):,}")
            dealer = body.get("dealer")
            title = body.get("title") or ""
            if not isinstance(title, str):
                raise _BadRequestError("'title' must be text")
            rules = rules_from(body, len(names))
            rounds_within(limits, rules.rounds, "the sheet's game", "schedule")
            sheet = KeptSheet.start(
                names,
                rules,
                dealer=None if dealer is None else _int(dealer, "'dealer'"),
                first_jack=bool(body["first_jack"]) if "first_jack" in body else None,
                title=title.strip(),
            )
        except InputError as error:
            return _input(error)
        except PlayerNameError as error:
            return refusal(str(error), rule="name", seat=error.seat, field="players")
        except _BadRequestError as error:
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
                raise _BadRequestError("'record' must be the text of a game record")
            sheet = KeptSheet.from_record(guarded_record(text, limits))
        except InputError as error:
            return _input(error)
        except _BadRequestError as error:
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

    async def _apply(sheet_id: str, request: Request, action: Action) -> JSONResponse:
        stored = store.load(sheet_id)
        if stored is None:
            return refusal("no such sheet", 404, rule="sheet")
        try:
            body = await _body(request, limits)
            version = body.get("version")
            if version is not None and _int(version, "'version'") != stored.version:
                raise StaleSheetError("the sheet changed since this page read it")
            sheet = stored.sheet
            label = action(sheet, body)
            saved = store.save(stored, sheet, label)
        except InputError as error:
            return _input(error)
        except _BadRequestError as error:
            return refusal(str(error), rule="request")
        except IllegalActionError as error:
            return _illegal(error)
        except StaleSheetError as error:
            return refusal(f"{error}; here is the latest", 409, rule="stale")
        return JSONResponse(sheet_json(saved))

    @api.post("/{sheet_id}/rounds/{number}")
    async def edit(sheet_id: str, number: int, request: Request) -> JSONResponse:
        def apply(sheet: KeptSheet, body: dict[str, Any]) -> str:
            bids, tricks = body.get("bids"), body.get("tricks")
            sheet.edit_round(
                number,
                bids=None if bids is None else _ints(bids, "'bids'", nulls=True),
                tricks=None if tricks is None else _ints(tricks, "'tricks'"),
            )
            return f"edit {number}"

        return await _apply(sheet_id, request, apply)

    @api.post("/{sheet_id}/{action}")
    async def act(sheet_id: str, action: str, request: Request) -> JSONResponse:
        handler = ACTIONS.get(action)
        if handler is None:
            return refusal(
                f"unknown action {action!r}: expected one of {', '.join(ACTIONS)}", 404, rule="request"
            )
        return await _apply(sheet_id, request, handler)

    router.include_router(api)
    return router
