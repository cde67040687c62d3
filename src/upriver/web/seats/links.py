"""The manager's requests that change who holds a seat's secret: signing one's other devices out,
the host's new invite for a seat whose person is away, and a lost join recovered by its own page
(the rules of each are in :mod:`upriver.web.seats.keys`)."""

from __future__ import annotations

from collections.abc import Callable

from upriver.web.play import protocol
from upriver.web.play.table import HUMAN, Table, TableRefusalError
from upriver.web.seats.holders import Connection, derived_token
from upriver.web.seats.keys import JOIN_RECOVERY_SECONDS
from upriver.web.seats.standins import Accept
from upriver.web.store import Event, TableStore

__all__ = ["SeatLinks", "apply_key_event", "check_key_event", "dead_link_message"]


def dead_link_message(table: Table, token: str | None) -> str:
    """The ``error`` message (rule ``token``) for a connection whose token opens no seat: why, with
    the facts ``reason``, ``seat`` and ``name`` when the token once opened one here."""
    dead = table.keys.why_dead(token)
    if dead is None:
        return protocol.error_message(
            table.version,
            "token",
            "this link's token opens no seat at this table: check that the whole link was copied",
            facts={"reason": "unknown"},
        )
    return protocol.error_message(table.version, "token", dead.sentence(), seat=dead.seat, facts=dead.facts())


def _who(table: Table, seat: int) -> str:
    return table.names[seat] or f"seat {seat}"


def check_key_event(table: Table, event: Event) -> None:
    """Raise unless ``rekey`` or ``reinvite`` may be applied (the version is checked already).

    :raises TableRefusalError: (rule ``rekey`` or ``reinvite``) no person holds the seat, the
        table is older than derived tokens, or (``reinvite``) the host's own seat.
    """
    seat = event.seat
    if not 0 <= seat < table.seats:
        raise TableRefusalError(f"there is no seat {seat} at this table", rule=event.kind, seat=seat)
    if table.seat_key is None:
        raise TableRefusalError(
            "this table is older than seats that change hands", rule=event.kind, seat=seat
        )
    if table.kinds[seat] != HUMAN or table.names[seat] is None:
        raise TableRefusalError(
            f"{_who(table, seat)} is no person's seat: nobody holds it to sign out or re-invite",
            rule=event.kind,
            seat=seat,
        )
    if event.kind == "reinvite" and str(seat) == event.value:
        raise TableRefusalError("the host cannot re-invite their own seat", rule="reinvite", seat=seat)


def apply_key_event(table: Table, event: Event) -> None:
    """Apply a checked ``rekey`` or ``reinvite``: the old token opens nothing from now on."""
    seat = event.seat
    assert table.seat_key is not None
    if event.kind == "rekey":
        table.keys.retire(table.tokens[seat], "moved", seat, table.names[seat])
        table.tokens[seat] = derived_token(table.seat_key, "seat", seat, event.version)
    else:
        table.keys.retire(table.tokens[seat], "reinvited", seat, table.names[seat])
        table.tokens[seat] = derived_token(table.seat_key, "invite", seat, event.version)
        table.keys.reinvited.add(seat)
        table.keys.tenure[seat] = 0  # nobody holds it until the new invite is opened
    table.keys.pending.pop(seat, None)


class SeatLinks:
    """The manager's requests about a seat's secret (``manager.links`` of the manager)."""

    def __init__(self, accept: Accept, store: TableStore, now: Callable[[], float]) -> None:
        """``accept``: the manager's one path of every event; ``now``: the time joins are recovered by."""
        self._accept = accept
        self.store = store
        self.now = now

    def rekey(self, table: Table, seat: int, conn: Connection) -> None:
        """The person at ``seat`` signs their other devices out: ``conn`` gets the seat's new token (a
        ``seat`` message), every other connection of the seat is closed (reason ``moved``).

        :raises TableRefusalError: (rule ``rekey``) not a person's seat.
        """
        self._accept(table, lambda: Event(table.version + 1, "rekey", seat, "", None), joiner=conn)

    def reinvite(self, table: Table, by: int, seat: int) -> None:
        """The host (``by``) gives ``seat`` a new invite, its old token revoked at once: only while
        its person has no connection anywhere. The table's chat says so.

        :raises TableRefusalError: (rule ``reinvite``) not the host, the person is connected, or no
            person holds the seat.
        """
        if by != table.host:
            raise TableRefusalError("only the table's host can re-invite a seat", rule="reinvite", seat=by)

        def event() -> Event:
            if table.presence.online(seat):
                raise TableRefusalError(
                    f"{_who(table, seat)} is connected: a seat is re-invited only while its person is "
                    "away (they can open it on another device themselves)",
                    rule="reinvite",
                    seat=seat,
                )
            return Event(table.version + 1, "reinvite", seat, str(by), None)

        self._accept(table, event)
        table.chat.notice(self.store, "reinvited", {"seat": seat, "by": by})

    def recover(self, table: Table, invite: str, secret: str) -> tuple[int, str]:
        """The seat and token of the join sent with ``invite`` by the page holding ``secret``, while
        it is not confirmed and :data:`~upriver.web.seats.keys.JOIN_RECOVERY_SECONDS` have not passed.
        Changes nothing (the page then opens the seat and confirms).

        :raises TableRefusalError: (rule ``recover``) no such join, the window passed, or this
            page did not send it.
        """
        seat = table.keys.recover(invite, secret, self.now())
        token = None if seat is None else table.tokens[seat]
        if seat is None or token is None:
            dead = table.keys.why_dead(invite)
            raise TableRefusalError(
                "this join cannot be recovered here: only the page that sent it can, until it is "
                f"confirmed or {JOIN_RECOVERY_SECONDS / 60:.0f} minutes have passed"
                + ("" if dead is None else f" ({dead.sentence()})"),
                rule="recover",
                seat=None if dead is None else dead.seat,
            )
        return seat, token
