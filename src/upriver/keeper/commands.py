"""The score keeper's entries as commands on plain JSON data, and the sheet as plain JSON data.

This is the whole of the keeper's API that is not storage or HTTP: the web server
(:mod:`upriver.web.keeper.api`) answers each request through it, and the same module runs
in the browser (Pyodide, through :mod:`upriver.keeper.browser`) for a sheet kept with no
server. So it imports only the core (no FastAPI, Starlette, pydantic, rich or numpy), and
both give the same sheet, refusal for refusal, for the same entries.

The contract:

- :func:`new_sheet` ``(body) -> KeptSheet``: a new sheet from ``{"players": [names in
  seating order], "preset", …rule options as in the record, "dealer": seat | null,
  "first_jack": bool, "title"}``.
- :func:`apply` ``(sheet, action, body) -> (sheet, label)``: one entry, named by ``action``
  (a key of :data:`ACTIONS`) with its JSON object ``body``; the sheet is changed in place
  and returned with a short label of what was done (the store writes it beside the
  version). Every action either applies whole or raises and changes nothing.
- :func:`sheet_view` ``(sheet, *, read_only=False) -> dict``: everything a page needs to
  draw the sheet and take the next entry (the API adds the sheet's storage ``id``,
  ``share`` and ``version``).

Refusals are typed: :class:`~upriver.errors.IllegalActionError` (the engine's sentence, with
its rule, seat and facts), :class:`BadEntryError` (a body that is not what the action
takes: a missing or mistyped field, an unknown action) and, from :func:`new_sheet` only,
:class:`~upriver.errors.RulesError` (rules that cannot be played, naming the option),
:class:`~upriver.names.PlayerNameError` (a name that may not be used) and ``ValueError``
(a first dealer that is no seat).

The actions and their bodies (every seat is an index into ``players``):

===========  ==========================================================================
``jack``     ``{"seat"}``: who was dealt the first Jack.
``bid``      ``{"seat", "bid"}``: one bid (``seat`` null: the next bidder).
``bids``     ``{"bids"}``: every bid of the round at once, in seat order.
``tricks``   ``{"tricks"}``: the tricks each seat took, in seat order.
``trump``    ``{"suit": "C" | "D" | "H" | "S" | null, "round"?}``: the round's trump.
``edit``     ``{"round", "bids"?, "tricks"?}``: change a round already entered.
``dealer``   ``{"seat"}``: who dealt the first round.
``undo``     ``{}``: take back the last entry.
``join``     ``{"name", "start": "zero" | "lowest" | "average"}``: a newcomer from the next round.
``leave``    ``{"seat"}``: a player gone from the next round on.
``sit-out``  ``{"seat", "round"?}``: a player sitting out the next round (or a later one).
``adjust``   ``{"seat", "points", "note"?}``: a bonus (points > 0) or a penalty (< 0).
``schedule`` ``{"sizes"}``: the hand sizes of every round not yet begun.
===========  ==========================================================================

How an evening whose players change is scored, and who deals, is
:mod:`upriver.keeper.evening`'s.

>>> sheet = new_sheet({"players": ["Ann", "Bob", "Cid", "Dee"], "schedule": [1], "dealer": 0})
>>> apply(sheet, "bids", {"bids": [0, 1, 0, 0]})[1]
'bids'
>>> apply(sheet, "tricks", {"tricks": [0, 1, 0, 0]})[1]
'tricks'
>>> view = sheet_view(sheet)
>>> view["phase"], view["sheet"]["totals"]
('over', [10, 11, 10, 10])
>>> apply(sheet, "bid", {"seat": 0, "bid": "one"})
Traceback (most recent call last):
...
upriver.keeper.commands.BadEntryError: 'bid' must be a whole number, not 'one'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from upriver.cards import Suit
from upriver.deal import rules_json
from upriver.errors import NotationError, RefusalError, json_facts
from upriver.keeper.changes import MOST_ROUNDS
from upriver.keeper.entries import JACK_FROM, Start
from upriver.keeper.sheet import KeptSheet
from upriver.names import check_names, quoted
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from upriver.sheet import RowStatus, ScoreSheet

__all__ = [
    "ACTIONS",
    "SHEET_FIELDS",
    "BadEntryError",
    "apply",
    "entered",
    "evening_view",
    "new_sheet",
    "rules_from",
    "sheet_view",
    "statistics",
    "whole",
    "wholes",
]


class BadEntryError(RefusalError):
    """A request body that is not what its action takes; the message says what would be.

    Its rule is ``"request"``; its facts are the ``field`` at fault (``""``: the body as a whole),
    the ``case`` that words it for a person (``reason.request.<case>`` in the catalogues: what the
    field should be) and the values that sentence names.
    """

    def __init__(
        self, message: str, *, field: str | None = None, case: str | None = None, **facts: object
    ) -> None:
        super().__init__(
            message, rule="request", facts={"case": case or field or "entry", "field": field or "", **facts}
        )
        self.field = field
        """The body's key at fault, when there is one."""


def whole(value: object, what: str) -> int:
    """``value`` as a whole number (never a bool), or :class:`BadEntryError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        field = what.strip("'")
        shown = "nothing" if value is None else quoted(value)
        raise BadEntryError(f"{what} must be a whole number, not {shown}", field=field)
    return value


def wholes(value: object, what: str, *, nulls: bool = False) -> list[Any]:
    """``value`` as a list of whole numbers (``None`` allowed with ``nulls``)."""
    field = what.strip("'")
    if not isinstance(value, list):
        raise BadEntryError(f"{what} must be a list of whole numbers", field=field)
    if not all((nulls and v is None) or (isinstance(v, int) and not isinstance(v, bool)) for v in value):
        raise BadEntryError(f"{what} must be a list of whole numbers", field=field)
    return list(value)


def _suit(value: object) -> Suit | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise BadEntryError("'suit' must be C, D, H, S or null", field="suit")
    try:
        return Suit.parse(value)
    except NotationError:
        raise BadEntryError(f"'suit' must be C, D, H, S or null, not {quoted(value)}", field="suit") from None


SHEET_FIELDS = ("players", "dealer", "first_jack", "title", "version")
"""The keys of a new sheet's request that are not rule options."""


def rules_from(body: Mapping[str, Any], players: int) -> Rules:
    """The request's rule options (every key but :data:`SHEET_FIELDS`) through
    :meth:`Rules.from_options`, a blank field (``""``) meaning not given, as the lobby reads them.

    :raises RulesError: as the engine refuses the combination (or a key that is no rule
        option, :data:`~upriver.rules.OPTION_NAMES`), naming the option at fault.
    """
    options = {key: None if value == "" else value for key, value in body.items() if key not in SHEET_FIELDS}
    return Rules.from_options(options, player_count=players)


def new_sheet(body: Mapping[str, Any]) -> KeptSheet:
    """A new sheet from a request's body (see the module's contract).

    :raises BadEntryError: for a field that is not what it should be (the names list, the title).
    :raises PlayerNameError: (a ``ValueError``) for the first name that may not be used.
    :raises RulesError: as the engine refuses the rule options.
    :raises ValueError: when ``dealer`` is not a seat, or is given with ``first_jack``.
    """
    names = body.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise BadEntryError("'players' must be a list of names in seating order", field="players")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:  # before the names: a long list is refused now
        raise BadEntryError(
            f"a sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names):,}",
            field="players",
            case="player count",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=len(names),
        )
    names = list(check_names(names))
    title = body.get("title") or ""
    if not isinstance(title, str):
        raise BadEntryError("'title' must be text", field="title")
    if len(title) > 80:
        raise BadEntryError(
            f"'title' has at most 80 characters, not {len(title):,}",
            field="title",
            case="title long",
            limit=80,
            length=len(title),
        )
    dealer = body.get("dealer")
    rules = rules_from(body, len(names))
    return KeptSheet.start(
        names,
        rules,
        dealer=None if dealer is None else whole(dealer, "'dealer'"),
        first_jack=bool(body["first_jack"]) if "first_jack" in body else None,
        title=title.strip(),
    )


Action = Callable[[KeptSheet, Mapping[str, Any]], str]


def _jack(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.first_jack(whole(body.get("seat"), "'seat'"))
    return "first jack"


def _bid(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    seat = body.get("seat")
    sheet.enter_bid(None if seat is None else whole(seat, "'seat'"), whole(body.get("bid"), "'bid'"))
    return "bid"


def _bids(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.enter_bids(wholes(body.get("bids"), "'bids'", nulls=True))
    return "bids"


def _tricks(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.enter_tricks(wholes(body.get("tricks"), "'tricks'", nulls=True))
    return "tricks"


def _trump(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    number = body.get("round")
    sheet.note_trump(_suit(body.get("suit")), None if number is None else whole(number, "'round'"))
    return "trump"


def _edit(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    number = whole(body.get("round"), "'round'")
    bids, tricks = body.get("bids"), body.get("tricks")
    sheet.edit_round(
        number,
        bids=None if bids is None else wholes(bids, "'bids'", nulls=True),
        tricks=None if tricks is None else wholes(tricks, "'tricks'", nulls=True),
    )
    return f"edit {number}"


def _dealer(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.set_first_dealer(whole(body.get("seat"), "'seat'"))
    return "first dealer"


def _undo(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.undo()
    return "undo"


def _text(value: object, field: str, longest: int | None = None) -> str:
    """``value`` as text (``None``: none), at most ``longest`` characters when given."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadEntryError(f"'{field}' must be text", field=field)
    if longest is not None and len(value) > longest:
        raise BadEntryError(
            f"'{field}' has at most {longest} characters, not {len(value):,}",
            field=field,
            case=f"{field} long",
            limit=longest,
            length=len(value),
        )
    return value


def _join(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    start = body.get("start", Start.ZERO.value)
    if not isinstance(start, str) or start not in {s.value for s in Start}:
        raise BadEntryError(
            f"'start' must be one of {', '.join(s.value for s in Start)}, not {quoted(start)}", field="start"
        )
    sheet.join(_text(body.get("name"), "name", 200), Start(start))
    return "join"


def _leave(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.leave(whole(body.get("seat"), "'seat'"))
    return "leave"


def _sit_out(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    number = body.get("round")
    sheet.sit_out(whole(body.get("seat"), "'seat'"), None if number is None else whole(number, "'round'"))
    return "sit out"


def _adjust(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sheet.adjust(
        whole(body.get("seat"), "'seat'"),
        whole(body.get("points"), "'points'"),
        _text(body.get("note"), "note"),  # read as any typed line is, by the sheet
    )
    return "adjust"


def _schedule(sheet: KeptSheet, body: Mapping[str, Any]) -> str:
    sizes = body.get("sizes")
    if isinstance(sizes, list) and len(sizes) > MOST_ROUNDS:  # counted before each is read
        raise BadEntryError(
            f"at most {MOST_ROUNDS} rounds may be left to play, not {len(sizes):,}",
            field="sizes",
            case="sizes long",
            most=MOST_ROUNDS,
            count=len(sizes),
        )
    sheet.set_schedule(wholes(sizes, "'sizes'"))
    return "schedule"


ACTIONS: dict[str, Action] = {
    "jack": _jack,
    "bid": _bid,
    "bids": _bids,
    "tricks": _tricks,
    "trump": _trump,
    "edit": _edit,
    "dealer": _dealer,
    "undo": _undo,
    "join": _join,
    "leave": _leave,
    "sit-out": _sit_out,
    "adjust": _adjust,
    "schedule": _schedule,
}
"""Every entry a keeper can make, by the name :func:`apply` takes."""


def apply(sheet: KeptSheet, action: str, body: Mapping[str, Any]) -> tuple[KeptSheet, str]:
    """Make the entry ``action`` with ``body`` on ``sheet`` (in place); the sheet and a label for it.

    :raises BadEntryError: for an unknown action or a body that is not what it takes.
    :raises IllegalActionError: as the engine (or the sheet) refuses the entry; nothing changes.
    """
    handler = ACTIONS.get(action)
    if handler is None:
        raise BadEntryError(
            f"unknown action {quoted(action)}: expected one of {', '.join(ACTIONS)}", field="action"
        )
    if not isinstance(body, Mapping):
        raise BadEntryError("the request must be a JSON object", case="object")
    return sheet, handler(sheet, body)


def sheet_view(sheet: KeptSheet, *, read_only: bool = False) -> dict[str, object]:
    """Everything a page needs: the entry state, and under ``"sheet"`` the one score sheet shape
    (:meth:`upriver.sheet.ScoreSheet.to_json`, the web table's shape too).

    ``current.restriction`` is the engine's :class:`~upriver.legality.BidRestriction` on the
    next bid as data (``null``: none). A ``read_only`` view shows the round's bids as the
    table does: under closed fists none until all are in, and no undo.
    """
    flag = sheet.flag
    trump = sheet.trump
    scored = sheet.score_sheet
    bids = list(sheet.bids)
    restriction = sheet.bid_restriction()
    if read_only:
        # A reader sees the round's bids as the table does: closed fists stay closed until all have bid.
        live = [row for row in scored.rows if row.number == sheet.current and row.status is RowStatus.BIDDING]
        bids = [cell.bid for cell in live[0].cells] if live else bids
    return {
        "read_only": read_only,
        "title": sheet.title,
        "players": list(sheet.players),
        "rules": rules_json(sheet.rules),
        "phase": sheet.phase.value,
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
            "restriction": None if restriction is None else restriction.to_json(),
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
        "entered": [] if read_only else entered(sheet),  # a reader sees no closed fist
        "evening": evening_view(sheet),
        "stats": statistics(scored),
    }


def entered(sheet: KeptSheet) -> list[dict[str, object]]:
    """Each round entered, its bids and tricks in seat order (``null``: none, or not playing): what
    an entry for a round is made against (:mod:`upriver.keeper.conflicts`)."""
    seats = range(len(sheet.players))
    return [
        {
            "bids": [kept.bid(s) for s in seats],
            "tricks": None if kept.tricks is None else [kept.trick(s) for s in seats],
        }
        for kept in sheet.entries.rounds
    ]


def evening_view(sheet: KeptSheet) -> dict[str, object]:
    """Who plays which round, the arrivals, departures, sit-outs and adjustments, and the schedule:
    ``absent`` lists, per round of the schedule, the seats not playing it."""
    entries = sheet.entries
    starters = len(sheet.starters)
    schedule = sheet.schedule
    return {
        "schedule": list(schedule),
        "edited": entries.sizes is not None,
        "absent": [
            [seat for seat in range(len(sheet.players)) if seat not in sheet.playing(number)]
            for number in range(1, len(schedule) + 1)
        ],
        "joins": [
            {"seat": starters + i, "name": j.name, "round": j.round, "start": j.start.value}
            for i, j in enumerate(entries.joins)
        ],
        "leaves": [{"seat": x.seat, "round": x.round} for x in entries.leaves],
        "sit_outs": [{"seat": x.seat, "round": x.round} for x in entries.sit_outs],
        "adjustments": [
            {"seat": a.seat, "after": a.after, "points": a.points, "note": a.note}
            for a in entries.adjustments
        ],
        # What an arrival or a departure would make of the rounds not yet begun, shown before it is made.
        "changes": None if (preview := sheet.preview()) is None else preview.to_json(),
    }


def statistics(sheet: ScoreSheet) -> list[dict[str, object]]:
    """Per seat, over the scored rounds they played: how many, how many bids exact, over (more
    tricks than bid) and under, the exact rate (``null`` before any round) and the longest run
    of exact bids in a row (a round sat out neither breaks nor extends it)."""
    stats: list[dict[str, object]] = []
    for seat in range(len(sheet.players)):
        played = exact = over = under = run = longest = 0
        for row in sheet.rows:
            cell = row.cells[seat]
            if not row.finished or cell.bid is None or cell.tricks is None:
                continue
            played += 1
            if cell.tricks == cell.bid:
                exact, run = exact + 1, run + 1
                longest = max(longest, run)
            else:
                over, under, run = over + (cell.tricks > cell.bid), under + (cell.tricks < cell.bid), 0
        stats.append(
            {
                "played": played,
                "exact": exact,
                "over": over,
                "under": under,
                "rate": None if not played else round(exact / played, 3),
                "longest_run": longest,
            }
        )
    return stats
