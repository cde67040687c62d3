"""Seats kept by an account, and **My tables**: the games on, the tables hosted, the games finished.

A seat is bound to an account with the secret token a browser holds for it, and kept with the
seat's *tenure* (the version of the join that seated its person). While the tenure is the same,
the account's owner is the person in that seat, and My tables gives them the seat's link; when
the host re-invites the seat and someone else takes it, the tenure changes and the binding opens
nothing (it is not listed). The link is built from the seat's current token each time
(:meth:`~upriver.web.play.table.Table.holder_token`), never stored in the account.

A table that is archived or gone (the server keeps a finished table for a week, then archives
it) is listed by its id alone, without links.
"""

from __future__ import annotations

import hmac
import re

from upriver.web.accounts.errors import AccountError
from upriver.web.accounts.store import SeatBinding
from upriver.web.play.table import Table
from upriver.web.play.tables import Manager

__all__ = ["TABLE_ID", "bindable_seat", "my_tables", "seat_entry"]

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id looks like (the server makes them URL-safe)."""


def _same(a: str, b: str) -> bool:
    return a.isascii() and b.isascii() and hmac.compare_digest(a, b)


def bindable_seat(manager: Manager, table_id: str, token: str) -> tuple[Table, int, int]:
    """The table, seat and tenure that ``token`` holds at ``table_id``: a person's own seat, joined.

    :raises AccountError: 400 a malformed id, 404 no such table (or archived), 403 the token holds
        no seat there (an invitation not taken yet, a link that opens nothing any more).
    """
    if not TABLE_ID.fullmatch(table_id):
        raise AccountError(
            "'table': a table's id is 1 to 64 letters, digits, '-' or '_' (the part of its link after /t/)",
            400,
            field="table",
        )
    table = manager.find(table_id)
    if table is None:
        raise AccountError("no such table (or it was archived)", 404, rule="table")
    seat = table.seat_of(token)
    tenure = table.keys.tenure[seat] if seat is not None else 0
    holder = table.holder_token(seat, tenure) if seat is not None else None
    if seat is None or holder is None or not _same(holder, token):
        raise AccountError(
            "this token holds no seat at that table: only the link of a seat you have taken can be "
            "kept in your account (an invitation is kept once you join with it)",
            403,
            rule="token",
        )
    return table, seat, tenure


def _players(table: Table) -> list[str | None]:
    return list(table.names)


def seat_entry(table: Table, binding: SeatBinding) -> dict[str, object] | None:
    """One kept seat as My tables lists it, or ``None`` when its person is someone else now."""
    token = table.holder_token(binding.seat, binding.tenure)
    if token is None:
        return None
    game = table.game
    over = game is not None and game.is_over
    entry: dict[str, object] = {
        "table": table.id,
        "seat": binding.seat,
        "name": table.names[binding.seat],
        "players": _players(table),
        "host": table.host == binding.seat,
        "started": game is not None,
        "over": over,
        "round": 0 if game is None else min(game.round_number, game.rules.rounds),
        "rounds": None if game is None else game.rules.rounds,
        "damaged": table.damaged is not None,
        "link": f"/t/{table.id}#token={token}",
    }
    if over:
        entry["record"] = f"/api/tables/{table.id}/record?token={token}"
        entry["review"] = f"/api/tables/{table.id}/review?token={token}"
    return entry


def my_tables(manager: Manager, bindings: list[SeatBinding]) -> dict[str, list[dict[str, object]]]:
    """My tables of an account with ``bindings``, each table once: ``playing`` (games not over at
    others' tables, its seats' links), ``hosting`` (tables not over whose host's seat it holds),
    ``finished`` (with the record's and the review's links) and ``archived`` (kept seats at tables
    no longer loaded: their ids)."""
    playing: list[dict[str, object]] = []
    hosting: list[dict[str, object]] = []
    finished: list[dict[str, object]] = []
    archived: list[dict[str, object]] = []
    for binding in bindings:
        table = manager.find(binding.table_id)
        if table is None:
            archived.append({"table": binding.table_id, "seat": binding.seat, "bound": binding.bound})
            continue
        entry = seat_entry(table, binding)
        if entry is None:
            continue
        if entry["over"]:
            finished.append(entry)
        else:  # each table once: under the tables hosted when the account holds the host's seat
            (hosting if entry["host"] else playing).append(entry)
    return {"playing": playing, "hosting": hosting, "finished": finished, "archived": archived}
