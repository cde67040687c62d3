"""One live table: its seats and their tokens, the engine's game once every seat is taken, its
connections and bots, and the errors of a request about tables.

A table changes only through its manager's one path of events (:mod:`upriver.web.tables`); this
module holds what a table is and what it tells its seats (the lobby, and the state messages of
:mod:`upriver.web.states`).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import time
from collections.abc import Callable, Sequence

from upriver.actions import Phase
from upriver.bots import Bot, make_bot
from upriver.game import Game, Move
from upriver.record import loads, replay
from upriver.rules import Rules
from upriver.web import bots
from upriver.web.chat import ChatRoom
from upriver.web.presence import Presence
from upriver.web.seats import Connection, bot_label, same_token
from upriver.web.states import SeatStates
from upriver.web.store import Event

__all__ = [
    "BOT_NAMES",
    "HUMAN",
    "CommitError",
    "Refused",
    "Table",
    "TableError",
    "TableRefusalError",
    "damaged_refusal",
    "event_of",
    "move_of",
]

Refused = Callable[[Exception], None]
"""Told why a move queued for a commit off the event loop was refused (the table's, the engine's
or the store's error), since its sender is no longer waiting for an answer."""

HUMAN = "human"
BOT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")


class TableError(Exception):
    """A request about tables that cannot be met; the message says why."""


class TableRefusalError(TableError):
    """What the table refuses before the engine sees it; nothing changed. ``rule`` as the WebSocket's
    error reply spells it (``damaged``, ``duplicate``, ``stale``, ``order``, ``join``, ``revoke``, ``bot``,
    ``name``, ``event``; ``turn order`` before the start), ``seat`` the seat concerned or ``None``.
    The engine's refusals stay :class:`~upriver.errors.IllegalActionError`."""

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat


class CommitError(TableError):
    """The store could not commit an event: nothing was applied or announced, and the table is as it was."""


class Table:
    """One table: configuration, the game once every seat is taken, connections and bot seats."""

    def __init__(self, table_id: str, config: dict[str, object], *, bot_delay: float = 0.8) -> None:
        """``bot_delay``: the server's bot delay, the ``normal`` pace (:mod:`upriver.web.bots`)."""
        self.id = table_id
        self.config = config
        self.kinds: list[str] = list(config["kinds"])  # type: ignore[call-overload]
        self.tokens: list[str | None] = list(config["tokens"])  # type: ignore[call-overload]
        self.names: list[str | None] = list(config["names"])  # type: ignore[call-overload]
        self.creator: int = config["creator"]  # type: ignore[assignment]
        self.seed: int = config["seed"]  # type: ignore[assignment]
        self.base: str | None = config.get("base")  # type: ignore[assignment]
        self.options: dict[str, object] = config["options"]  # type: ignore[assignment]
        self.seat_key: str | None = config.get("seat_key")  # type: ignore[assignment]
        """The secret the seats' tokens after a join or a revoke derive from (none on older tables)."""
        self.rematch_of: str | None = config.get("rematch_of")  # type: ignore[assignment]
        """The finished table this one is a rematch of, or ``None``."""
        self.last_event = 0.0
        """When the last event was applied (``time.time()``), to archive idle finished tables."""
        self.version = 0
        """The number of events applied: the version every seat's state is at."""
        self.game: Game | None = None
        self.damaged: str | None = None
        """Why the table accepts no moves: a stored event the engine refused on restart (``None``: sound)."""
        self.turn_version = [0] * len(self.kinds)
        """Per seat, the version at which its choices last changed: older actions are stale."""
        self.last_choices: list[tuple[object, ...]] = [() for _ in self.kinds]
        self.seen: list[collections.OrderedDict[str, None]] = [collections.OrderedDict() for _ in self.kinds]
        self.bots: dict[int, Bot] = {
            seat: make_bot(kind, seed=self.seed ^ (seat + 1))
            for seat, kind in enumerate(self.kinds)
            if kind != HUMAN
        }
        self.connections: set[Connection] = set()
        self.presence = Presence(len(self.kinds), since=time.time())
        """Who is connected, on every server process (:mod:`upriver.web.presence`); a seat nobody
        connected to here is away since the table was loaded (made, or restored at start)."""
        self.chat = ChatRoom(self)
        """The table's talk (:mod:`upriver.web.chat`), kept in the store beside its events."""
        self.states = SeatStates()
        self.bot_task: asyncio.Task[None] | None = None
        self.pace = bots.pace_of(str(config.get("pace", bots.DEFAULT_PACE)), bot_delay)
        self.thinking: int | None = None
        """The seat whose bot is choosing its move now (its turn's wait included), or ``None``."""
        self.waiting: collections.deque[tuple[Callable[[], Event], Refused | None]] = collections.deque()
        """Moves received while another of this table's is being committed, each made when its turn comes."""
        self.committing: Event | None = None
        """The move being committed off the event loop (PostgreSQL), until it is applied or refused."""
        self.missed = False
        """Whether news of a later event came while a move was being committed (so it is read again)."""
        self.gathered = -1
        """The version whose event finished a trick: the next bot waits the trick's pause after it."""

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.kinds)

    def announce(self) -> None:
        """Send every connection the newest state (one that changed without a new event)."""
        self.states.invalidate()
        for conn in self.connections:
            conn.refresh()

    def invalidate(self) -> None:
        """Forget the encoded states, so the next state message is built afresh."""
        self.states.invalidate()

    def seat_of(self, token: str | None) -> int | None:
        """The seat this secret token opens, or ``None`` (a non-ASCII token opens none)."""
        if not token:
            return None
        for seat, known in enumerate(self.tokens):
            if same_token(known, token):
                return seat
        return None

    def bot_name(self, seat: int, kind: str) -> str:
        """The name a bot of ``kind`` sits under at ``seat``: the saved game's player, or a bot's name."""
        names = loads(self.base).players if self.base is not None else BOT_NAMES
        return bot_label(names[seat], kind)

    def seat_bot(self, seat: int, kind: str) -> None:
        """Seat a bot of ``kind`` at open ``seat`` (checked by the manager): no token opens it now."""
        self.kinds[seat] = kind
        self.names[seat] = self.bot_name(seat, kind)
        self.tokens[seat] = None
        self.bots[seat] = make_bot(kind, seed=self.seed ^ (seat + 1))

    def full(self) -> bool:
        """Whether every seat has a name, so the game can start."""
        return all(name is not None for name in self.names)

    def new_game(self, names: Sequence[str]) -> Game:
        """The game these seats start (or the imported record continued) once every seat is taken.

        :raises RulesError: the table's stored options are not rules the engine plays.
        :raises RecordError, RecordRuleError: its stored record cannot be continued.
        """
        if self.base is not None:
            record = dataclasses.replace(loads(self.base), players=tuple(names))
            game = replay(record, seed=self.seed)
            if game.phase is Phase.DEALING:  # the record stops between two rounds
                game.deal()
            return game
        return Game(Rules.from_options(self.options, player_count=self.seats), names, seed=self.seed)

    def started_by(self, seat: int, name: str) -> Game | None:
        """The game that ``name`` taking open ``seat`` starts, if it is the last open seat (else ``None``)."""
        names = [name if s == seat else known for s, known in enumerate(self.names)]
        seated = [known for known in names if known is not None]
        return self.new_game(seated) if len(seated) == self.seats else None

    def choices(self, seat: int) -> tuple[object, ...]:
        """What ``seat`` may do now, to notice when its choices change (a new turn)."""
        game = self.game
        if game is None:
            return ("lobby", self.names[seat] is None)
        if seat not in game.awaiting:
            return ()
        # Under simultaneous bidding the others' bids leave this seat's choices as they were.
        return (game.round_number, game.phase, len(game.plays))

    @property
    def host(self) -> int | None:
        """The seat with the host's rights — the open seats' invite links, revoking them, giving an
        open seat to a bot: the creator. A rematch has no host: its seats are kept for the finished
        table's people, each of whom gets only their own link, so the one who pressed Rematch first
        may neither read nor hand out the others'."""
        return None if self.rematch_of is not None else self.creator

    def lobby(self, seat: int | None, base_url: str) -> dict[str, object]:
        """Who sits where; the host (:attr:`host`) also gets the invite links of the seats still open."""
        seats = [
            {"seat": s, "name": self.names[s], "kind": self.kinds[s], "joined": self.names[s] is not None}
            for s in range(self.seats)
        ]
        lobby: dict[str, object] = {"seats": seats, "started": self.game is not None, "damaged": self.damaged}
        if seat is not None and seat == self.host:
            lobby["invites"] = [
                {"seat": s, "url": f"{base_url}/t/{self.id}#token={self.tokens[s]}"}
                for s in range(self.seats)
                if self.kinds[s] == HUMAN and s != self.creator and self.names[s] is None
            ]
            lobby["spectate"] = f"{base_url}/t/{self.id}"
        return lobby

    def state(self, conn: Connection, base_url: str) -> str:
        """The newest state message for this connection's seat, as JSON text (:mod:`upriver.web.states`:
        built once per version and seat; the score sheet only when the connection's is out of date)."""
        text, conn.sheet_sent = self.states.message(self, conn.seat, conn.sheet_sent, base_url)
        return text


def damaged_refusal(table: Table, seat: int | None) -> TableRefusalError:
    """The refusal of any move at a damaged table, saying why it is damaged."""
    return TableRefusalError(
        f"this table is damaged and accepts no moves: {table.damaged}", rule="damaged", seat=seat
    )


def event_of(version: int, seat: int, move: Move, client_id: str | None) -> Event:
    """The stored event of a move: the store keeps a bid's number or a card's text, and which it is."""
    kind = "bid" if isinstance(move, int) else "play"
    return Event(version, kind, seat, str(move), client_id)


def move_of(event: Event) -> Move:
    """The move a stored ``bid`` or ``play`` event holds, for the engine to check and make.

    :raises TableRefusalError: a stored bid that is not a whole number, or an unknown kind.
    """
    if event.kind == "play":
        return event.value
    if event.kind == "bid":
        try:
            return int(event.value)
        except ValueError:
            pass
    raise TableRefusalError(
        f"a stored {event.kind} of {event.value!r} is not a move", rule="event", seat=event.seat
    )
