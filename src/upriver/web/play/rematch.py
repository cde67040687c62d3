"""A rematch: once a game is over, the same seats play again — the same bots at the same levels, the
same rules and pace — on a new deal (a new table, with a new seed).

Any person seated at the finished table may start it; nobody has to agree first. The first to
press *Rematch* creates the new table and sits down in their old seat under their old name; the
bots sit down at once; every other person's seat waits for them, open, under a new invite. Pressing
*Rematch* again (anyone, any time later) starts nothing new: it answers the rematch already made.
That holds across server processes too: the store keeps one rematch per finished table
(:meth:`upriver.web.store.TableStore.add_table`), so of two presses at the same moment in two
processes one makes the rematch and the other answers it.

Each seat is told only its own way in (seat privacy is structural: a seat's token opens that seat's
link and no other). Every connection of the finished table gets a ``rematch`` message: a seat's
connection its own new seat's link, a spectator's the new table's spectator link
(:mod:`upriver.web.play.rematch_notice`) — on every server process, each telling its own connections
as the new table's news reaches it (:mod:`upriver.web.cluster.following`). A person who was away asks
later with the old link (``GET``) and gets theirs.

HTTP:

- ``POST /api/tables/{id}/rematch`` ``{"token"}`` → ``{"table", "seat", "token", "url", "by",
  "created"}``: the rematch of this finished table, and this seat's link to it (``created``: this
  request made it). 403 for a token that opens no seat, 409 while the game is on.
- ``GET /api/tables/{id}/rematch?token=…`` → the same for a rematch already made, or
  ``{"table": null}``; without a token (a spectator): the new table and its spectator link.

The new table records which table it is a rematch of, so the link survives a server restart.

And for the join page, before the game starts: ``GET /api/tables/{id}/rules`` → the table's rules
as the state's ``game.rules`` carries them (:func:`upriver.web.play.protocol.rules_json`), so the page
words them as the table's Rules panel does.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field

from upriver.database import DuplicateKeyError
from upriver.errors import RulesError
from upriver.record import loads
from upriver.rules import Rules
from upriver.web.hosting.guard import AnyObject, InputError, read_body, refusal
from upriver.web.hosting.limits import Limits
from upriver.web.play import protocol
from upriver.web.play.lookup import TableRoute, table_lookup
from upriver.web.play.rematch_notice import rematch_answer, tell_rematch
from upriver.web.play.tables import HUMAN, CommitError, Manager, Table, TableError

__all__ = ["RematchError", "rematch_of", "rematch_router", "start_rematch", "table_rules"]


class RematchError(TableError):
    """A rematch that cannot be made or shown; ``status`` is the HTTP status that says why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class RematchRequest(AnyObject):
    """``POST /api/tables/{id}/rematch``: the token of the seat asking."""

    model_config = ConfigDict(extra="forbid", strict=True)

    token: str = Field(max_length=200)


def rematch_of(manager: Manager, table: Table) -> Table | None:
    """The rematch already made of ``table`` (by any server process), or ``None``.

    :raises upriver.database.StoreError: the store cannot be read.
    """
    made = manager.store.rematch(table.id)
    if made is not None:
        new = manager.find(made)
        if new is not None and new.version == 0:
            manager.following.catch_up(new)  # made elsewhere a moment ago: its starter's seat, if committed
        return new
    for other in manager.tables.values():  # a rematch stored before the store kept them apart
        if other.rematch_of == table.id:
            return other
    return None


def start_rematch(manager: Manager, table: Table, seat: int) -> tuple[Table, bool]:
    """The rematch of finished ``table`` that ``seat`` (a person's seat) asks for: the one already
    made, or a new table with the same seats, bots, rules and pace, where ``seat`` sits under its name.
    Returns the table and whether this call created it.

    :raises RematchError: the game is not over yet, or the seat is not a person's.
    :raises CommitError: the store could not save the new table; nothing was made.
    :raises upriver.database.StoreError: the store cannot be read or written; nothing was made.
    """
    game = table.game
    if game is None or not game.is_over:
        raise RematchError("a rematch can be started once the game is over", 409)
    if table.kinds[seat] != HUMAN:
        raise RematchError(f"seat {seat + 1} is a bot's", 403)
    existing = rematch_of(manager, table)
    if existing is not None:
        return existing, False
    # A fresh table's own options, or (for a continued saved game) the rules it was played under.
    options = dict(table.options) if table.base is None else game.rules.options()
    try:
        new, _token = manager.create(
            name=game.players[seat],
            seats=list(table.kinds),
            options=options,
            creator=seat,
            rematch_of=table.id,
            settings=table.settings,
        )
    except RulesError as error:  # the engine played these rules; a stored table may have drifted
        raise RematchError(f"these rules cannot be played again: {error}", 409) from None
    except DuplicateKeyError:
        # Another server process stored this table's rematch first: answer that one.
        made = rematch_of(manager, table)
        if made is not None:
            return made, False
        if manager.store.rematch(table.id) is not None:
            raise RematchError("this table's rematch was made and is archived now", 409) from None
        raise CommitError("the rematch could not be made; nothing changed: try again") from None
    tell_rematch(manager.base_url, table, new)
    return new, True


def _answer(
    manager: Manager, table: Table, new: Table, seat: int | None, *, created: bool
) -> dict[str, object]:
    return rematch_answer(manager.base_url, table, new, seat, created=created)


def rematch_router(manager: Manager, limits: Limits | None = None) -> APIRouter:
    """The rematch's HTTP routes, over ``manager``'s tables."""
    router = APIRouter(route_class=TableRoute)
    limits = limits or Limits()
    found = Depends(table_lookup(manager))  # the table the path names, or the one 404 refusal

    def seat_of(table: Table, token: str | None) -> int | None:
        seat = table.seat_of(token)
        if token and seat is None:
            raise RematchError("this token opens no seat at this table (its invite was used or revoked)", 403)
        return seat

    @router.post("/api/tables/{table_id}/rematch")
    async def start(request: Request, table: Table = found) -> JSONResponse:
        try:
            body = await read_body(request, RematchRequest, limits)
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        try:
            seat = seat_of(table, body.token)
            if seat is None:
                raise RematchError("only a seat's token can start a rematch", 403)
            new, created = start_rematch(manager, table, seat)
        except RematchError as error:
            return refusal(str(error), error.status, rule="rematch")
        except CommitError as error:
            return refusal(str(error), 503)
        return JSONResponse(
            _answer(manager, table, new, seat, created=created), status_code=201 if created else 200
        )

    @router.get("/api/tables/{table_id}/rematch")
    async def show(token: str | None = None, table: Table = found) -> JSONResponse:
        try:
            seat = seat_of(table, token)
        except RematchError as error:
            return refusal(str(error), error.status, rule="rematch")
        new = rematch_of(manager, table)
        if new is None:
            return JSONResponse({"table": None, "seat": seat})
        return JSONResponse(_answer(manager, table, new, seat, created=False))

    @router.get("/api/tables/{table_id}/rules")
    async def rules(table: Table = found) -> JSONResponse:
        # The join page's rules in words come from the same data as the table's Rules panel.
        try:
            return JSONResponse(protocol.rules_json(table_rules(table)))
        except RulesError as error:
            return refusal(str(error), 409)

    return router


def table_rules(table: Table) -> Rules:
    """The rules a table plays (or will play, once every seat is taken)."""
    if table.game is not None:
        return table.game.rules
    if table.base is not None:
        return loads(table.base).rules
    return table.rules
