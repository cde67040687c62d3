"""Seats that change hands: the join made whole, people leaving and coming back, stand-in bots.

Everything here is an event in the table's log (:mod:`upriver.web.store`), checked and applied on
the manager's one path (:meth:`upriver.web.play.tables.Manager._accept`, handed to :class:`SeatActions`
as ``accept``), so it is durable, replayed
after a restart and reaches every server process with the table's other news:

- ``confirm`` (seat, value ``""``): the joined page saved the seat's new token, so its join can no
  longer be recovered with the page's secret (:mod:`upriver.web.seats.keys`).
- ``standin`` (seat, value: why) — a bot of the table's ``level`` plays for the person: ``left``
  (they left the table), ``clock`` (two automatic moves in a row, :mod:`upriver.web.play.clock`),
  ``away`` (away a whole clock) or ``handover:<by>`` (seat ``by`` handed the seat to a bot: only
  when its person has no connection and has been away :data:`AWAY_BEFORE_HANDOVER` seconds, or,
  at a table without a clock, it has been their turn :data:`TURN_BEFORE_HANDOVER` seconds while
  they are away). The stand-in moves through the table's bot loop (:mod:`upriver.web.play.bots`), its
  moves stored with the client id ``standin``. The person's link still opens the seat.
- ``back`` (seat, value ``""``) — the person plays again.
- ``start`` (seat 0, value ``""``) — a table of bots only (no creator's seat) starts its game.

An automatic move is an ordinary ``bid`` or ``play`` event with the client id ``clock``; the ids
in :data:`SERVER_IDS` are the server's, so a person's move may not use them.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Protocol

from upriver.errors import IllegalActionError
from upriver.game import Game, Move
from upriver.web.play.table import (
    AWAY_BEFORE_HANDOVER,
    HUMAN,
    TURN_BEFORE_HANDOVER,
    AutoMove,
    CommitError,
    Table,
    TableRefusalError,
    event_of,
)
from upriver.web.seats.holders import Connection
from upriver.web.store import Event, TableStore

log = logging.getLogger("upriver.web")

__all__ = [
    "AWAY_BEFORE_HANDOVER",
    "CONTROL_KINDS",
    "SERVER_IDS",
    "TURN_BEFORE_HANDOVER",
    "Accept",
    "SeatActions",
    "apply_control",
    "automatic_extra",
    "check_control",
    "handover_refusal",
    "note_move",
    "own_move_refusal",
]

CONTROL_KINDS = ("confirm", "standin", "back", "start")
"""The stored events of this module (the others are ``join``, ``bot``, ``revoke``, ``bid``, ``play``)."""
SERVER_IDS = frozenset({"clock", "standin"})
"""Client ids of the moves the server makes for a person: the clock's, and a stand-in bot's."""
_REASONS = ("left", "clock", "away")


class Accept(Protocol):
    """The manager's one path of every event (:meth:`upriver.web.play.tables.Manager._accept`)."""

    def __call__(self, table: Table, make: Callable[[], Event], *, joiner: Connection | None = None) -> None:
        """Check, commit, apply and announce ``make``'s event; raises the table's or engine's refusal."""


def _who(table: Table, seat: int) -> str:
    name = table.names[seat]
    return f"seat {seat}" if name is None else name


def _reason_rule(value: str) -> str:
    if value == "left":
        return "leave"
    return "handover" if value.startswith("handover:") else "standin"


def _valid_reason(table: Table, seat: int, value: str) -> bool:
    if value in _REASONS:
        return True
    head, _, by = value.partition(":")
    return head == "handover" and by.isdigit() and int(by) < table.seats and int(by) != seat


def check_control(table: Table, event: Event) -> Game | None:
    """Raise unless the seat-control ``event`` may be applied now (its version is checked already);
    for ``start``, the game it starts.

    :raises TableRefusalError: why not (rule ``start``, ``confirm``, ``leave``, ``handover``,
        ``standin`` or ``back``).
    """
    seat = event.seat
    if event.kind == "start":
        if table.game is not None or not table.full():
            raise TableRefusalError("only a table whose seats are all taken can start", rule="start")
        return table.new_game([name for name in table.names if name is not None])
    if not 0 <= seat < table.seats:
        raise TableRefusalError(f"there is no seat {seat} at this table", rule=event.kind, seat=seat)
    game = table.game
    if event.kind == "confirm":
        if seat not in table.keys.pending:
            raise TableRefusalError(
                f"{_who(table, seat)}'s join is confirmed already: there is nothing to confirm",
                rule="confirm",
                seat=seat,
            )
        return None
    if event.kind == "back":
        if table.standin_reason(seat) is None:
            raise TableRefusalError(
                f"{_who(table, seat)} plays already: no bot plays for this seat", rule="back", seat=seat
            )
        return None
    rule = _reason_rule(event.value)
    if game is None or game.is_over:
        raise TableRefusalError(
            "a bot can take a person's seat only while the game is on", rule=rule, seat=seat
        )
    if table.kinds[seat] != HUMAN:
        raise TableRefusalError(f"{_who(table, seat)} is a bot: no person plays there", rule=rule, seat=seat)
    if not _valid_reason(table, seat, event.value):
        raise TableRefusalError(
            f"{event.value[:30]!r} is no reason for a stand-in: left, clock, away or handover:<seat>",
            rule=rule,
            seat=seat,
        )
    current = table.standin_reason(seat)
    if current is not None and not (event.value == "left" and current != "left"):
        already = "has left" if current == "left" else "has a bot playing for them"
        raise TableRefusalError(f"{_who(table, seat)} {already} already", rule=rule, seat=seat)
    return None


def apply_control(table: Table, event: Event, started: Game | None, at: float) -> None:
    """Apply a checked seat-control event (the manager then moves the version on)."""
    seat = event.seat
    if event.kind == "start":
        table.game = started
    elif event.kind == "confirm":
        table.keys.pending.pop(seat, None)
    elif event.kind == "standin":
        table.seat_standin(seat, event.value)
    elif event.kind == "back":
        table.person_back(seat)
        game = table.game
        if game is not None and seat in game.awaiting:
            table.control.turn_started[seat] = at  # a fresh clock for the turn they take back


def note_move(table: Table, event: Event, round_number: int) -> None:
    """Count a bid or card made in ``round_number``: the clock's (``clock``) are automatic and in a
    row; a stand-in bot's (``standin``) are automatic too, marked as its own, and leave the row as it
    is; a person's own move ends their automatic moves in a row."""
    if event.client_id in SERVER_IDS:
        by = str(event.client_id)
        if by == "clock":
            table.control.auto[event.seat] += 1
        table.control.automatic.append(
            AutoMove(event.seat, event.version, round_number, event.kind, event.value, by=by)
        )
    elif event.client_id != "standin" and table.kinds[event.seat] == HUMAN:
        table.control.auto[event.seat] = 0


def own_move_refusal(table: Table, seat: int, client_id: str | None) -> TableRefusalError | None:
    """Why the person at ``seat`` may not make a move or a claim of their own now, or ``None``: a
    stand-in bot plays for them (they say they are back first), the message uses an id of the
    server's own moves (:data:`SERVER_IDS`, which tell the record's automatic moves apart), or the
    seat's message of that id was received already."""
    if table.standin_reason(seat) is not None:
        return TableRefusalError(
            "a bot plays for this seat now: say you are back to play again", rule="back", seat=seat
        )
    if client_id in SERVER_IDS:
        return TableRefusalError(
            f"the id {client_id!r} is kept for the moves the server makes for a seat: use another",
            rule="duplicate",
            seat=seat,
        )
    if client_id is not None and client_id in table.seen[seat]:
        return TableRefusalError(f"message {client_id!r} was already received", rule="duplicate", seat=seat)
    return None


def handover_refusal(table: Table, by: int, seat: int, now: float) -> TableRefusalError | None:
    """Why seat ``by`` may not hand ``seat`` to a bot now, or ``None``: it may. The refusal (rule
    ``handover``) says it as data: its ``case`` (``off``: the game is not on; ``seat``: no such
    seat; ``own``: their own; ``by``: a bot's seat or one that left asks; ``bot``: a bot plays
    there already; ``here``: its person is connected again; ``wait``: not away long enough, with
    ``seconds`` to go), ``who`` the person's name, and ``away`` their seconds away."""

    def refuse(case: str, sentence: str, **facts: object) -> TableRefusalError:
        return TableRefusalError(sentence, rule="handover", seat=seat, facts={"case": case, **facts})

    game = table.game
    if game is None or game.is_over:
        return refuse("off", "a seat can be handed to a bot only while the game is on")
    if not 0 <= seat < table.seats:
        return refuse("seat", f"there is no seat {seat} at this table")
    if seat == by:
        return refuse("own", "this is your own seat: to let a bot play for you, leave the table")
    if table.kinds[by] != HUMAN:
        return refuse("by", "only a person at the table can hand a seat to a bot")
    if table.standin_reason(by) == "left":
        return refuse("by", "you left the table: say you are back before handing another seat to a bot")
    who = _who(table, seat)
    if table.kinds[seat] != HUMAN:
        return refuse("bot", f"{who} is a bot already", who=who)
    if table.standin_reason(seat) is not None:
        return refuse("bot", f"a bot plays for {who} already", who=who)
    at = table.handover_from(seat)
    if at is None:
        return refuse(
            "here", f"{who} is back: a seat is handed to a bot only while its player is away", who=who
        )
    if now >= at:
        return None
    since = table.presence.away_since(seat)
    away = 0 if since is None else int(max(0.0, now - since))
    seconds = math.ceil(at - now)
    sentence = (
        f"{who} has been away {away} s: their seat can be handed to a bot "
        f"after {int(AWAY_BEFORE_HANDOVER)} s away"
    )
    if not table.settings.clock:
        sentence += f", or after {int(TURN_BEFORE_HANDOVER)} s of their turn while away"
    return refuse("wait", f"{sentence} (in {seconds} s)", who=who, away=away, seconds=seconds)


def automatic_extra(table: Table, rounds: int) -> dict[str, object] | None:
    """The record's ``upriver_automatic`` extra: the clock's moves in the first ``rounds`` rounds,
    each ``{"seat", "round", "kind", "move"}`` (a bid's number or a card), or ``None`` if none."""
    automatic = [
        {
            "seat": move.seat,
            "round": move.round,
            "kind": move.kind,
            "move": int(move.move) if move.kind == "bid" else move.move,
        }
        for move in table.control.automatic
        if move.round <= rounds and move.by == "clock"
    ]
    return {"upriver_automatic": automatic} if automatic else None


class SeatActions:
    """The manager's seat-control requests (``manager.standins`` of
    :class:`upriver.web.play.tables.Manager`)."""

    def __init__(self, accept: Accept, store: TableStore, now: Callable[[], float]) -> None:
        """``accept``: the manager's one path of every event; ``now``: the time hand-overs go by."""
        self._accept = accept
        self.store = store
        self.now = now

    def _notice(self, table: Table, event: str, facts: dict[str, object]) -> None:
        """The table's chat says what happened (a system line;
        :meth:`upriver.web.social.chat.ChatRoom.notice`), once, from the process that committed the event."""
        table.chat.notice(self.store, event, facts)

    def confirm(self, table: Table, seat: int) -> None:
        """The joined page at ``seat`` saved its token: its join can no longer be recovered with the
        page's secret (nothing to do if it was confirmed already, as when two tabs confirm)."""
        if seat not in table.keys.pending:
            return
        try:
            self._accept(table, lambda: Event(table.version + 1, "confirm", seat, "", None))
        except TableRefusalError:
            if seat in table.keys.pending:
                raise  # not the news of another confirm: say why

    def leave(self, table: Table, seat: int) -> None:
        """The person at ``seat`` leaves: a bot of the table's level plays for them at once.

        :raises TableRefusalError: (rule ``leave``) the game is not on, or they left already.
        """
        self._accept(table, lambda: Event(table.version + 1, "standin", seat, "left", None))
        self._notice(table, "left", {"seat": seat})

    def back(self, table: Table, seat: int) -> None:
        """The person at ``seat`` takes their seat back from its stand-in bot.

        :raises TableRefusalError: (rule ``back``) no bot plays for them.
        """
        self._accept(table, lambda: Event(table.version + 1, "back", seat, "", None))
        self._notice(table, "back", {"seat": seat})

    def handover(self, table: Table, by: int, seat: int) -> None:
        """The person at ``by`` hands ``seat``'s person's seat to a bot (see :func:`handover_refusal`).

        :raises TableRefusalError: (rule ``handover``) why not.
        """

        def event() -> Event:
            refusal = handover_refusal(table, by, seat, self.now())
            if refusal is not None:
                raise refusal
            return Event(table.version + 1, "standin", seat, f"handover:{by}", None)

        self._accept(table, event)
        self._notice(table, "handover", {"seat": seat, "by": by})

    def automatic_move(self, table: Table, seat: int, move: Move, version: int) -> bool:
        """The clock's move for ``seat``, whose time ran out at ``version`` (client id ``clock``);
        ``False`` if the table moved on meanwhile, the engine refused it or the store failed."""

        def event() -> Event:
            if table.version != version or not table.plays_for_person(seat):
                raise TableRefusalError("the table moved on before the clock's move", rule="stale", seat=seat)
            return event_of(table.version + 1, seat, move, "clock")

        try:
            self._accept(table, event)
        except (CommitError, IllegalActionError, TableRefusalError) as error:
            log.info("table %s: the clock's move for seat %d was not made: %s", table.id, seat, error)
            return False
        return True

    def stand_in(self, table: Table, seat: int, reason: str) -> None:
        """The clock's decision (``clock`` or ``away``): a stand-in plays for ``seat`` from now on."""
        self._accept(table, lambda: Event(table.version + 1, "standin", seat, reason, None))
        self._notice(table, f"{reason}-bot", {"seat": seat})
