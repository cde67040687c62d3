"""Live tables: seats and their secret tokens, the engine's game, connected clients and bots.

Every table lives in the server's one event loop. Every event — a person's join, bid or
card, and a bot's move alike — takes one path (:meth:`Manager._accept`): the engine checks
it, the store commits it, it is applied to the game, and only then announced: each
connection is marked out of date and its writer task sends the newest state for its seat
(so a slow client gets one fresh state rather than a backlog). So nothing the engine
refuses is ever stored, and nothing uncommitted is ever shown.

Bots move from asyncio tasks after the table's pace (:mod:`upriver.web.bots`). A bot whose
move the engine refuses (or that fails to choose one) is logged and the table goes on with
the first legal move — the lowest legal bid, or the first legal card in the engine's order —
so what is committed is always legal and the same for the same game.

On start-up each stored table is replayed through the same check. A stored event the
engine refuses is logged and marks that table damaged: it keeps its state up to the last
good event, accepts no moves, and says why to its seats; every other table comes up.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import secrets
import time
from collections.abc import Sequence

from upriver.actions import Phase
from upriver.bots import BOT_KINDS, Bot, make_bot
from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.game import Game, Move
from upriver.names import PlayerNameError
from upriver.record import RecordRuleError, dumps, loads, record_of, replay
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from upriver.storage import StoreError
from upriver.web import bots, protocol
from upriver.web.guard import InputError, continuable_record
from upriver.web.seats import (
    CLOSE_BAD_TOKEN,
    Connection,
    bot_label,
    derived_token,
    same_token,
    seat_name,
    unlabelled,
)
from upriver.web.states import SeatStates
from upriver.web.store import Event, TableStore

__all__ = ["CommitError", "Connection", "Manager", "Table", "TableError", "TableRefusalError"]

log = logging.getLogger("upriver.web")

HUMAN = "human"
BOT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
_SEEN_IDS = 512
"""Recent action ids remembered per seat to refuse a replayed message; an older replay is stale anyway."""


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
        self.states = SeatStates()
        self.bot_task: asyncio.Task[None] | None = None
        self.pace = bots.pace_of(str(config.get("pace", bots.DEFAULT_PACE)), bot_delay)
        self.thinking: int | None = None
        """The seat whose bot is choosing its move now (its turn's wait included), or ``None``."""
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

    def lobby(self, seat: int | None, base_url: str) -> dict[str, object]:
        """Who sits where; the creator also gets the invite links of the seats still open (only those)."""
        seats = [
            {"seat": s, "name": self.names[s], "kind": self.kinds[s], "joined": self.names[s] is not None}
            for s in range(self.seats)
        ]
        lobby: dict[str, object] = {"seats": seats, "started": self.game is not None, "damaged": self.damaged}
        if seat == self.creator:
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


def _damaged(table: Table, seat: int | None) -> TableRefusalError:
    return TableRefusalError(
        f"this table is damaged and accepts no moves: {table.damaged}", rule="damaged", seat=seat
    )


def _event(version: int, seat: int, move: Move, client_id: str | None) -> Event:
    """The stored event of a move: the store keeps a bid's number or a card's text, and which it is."""
    kind = "bid" if isinstance(move, int) else "play"
    return Event(version, kind, seat, str(move), client_id)


def _move(event: Event) -> Move:
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


class Manager:
    """Every live table, backed by a :class:`TableStore`; the one place actions are applied."""

    def __init__(
        self,
        store: TableStore,
        *,
        bot_delay: float = 0.8,
        base_url: str = "",
        archive_after: float | None = None,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.archive_after = archive_after
        """Seconds after its last event that a finished table is archived at start-up (``None``: never)."""
        self.base_url = base_url
        self.tables: dict[str, Table] = {}
        self._restore()

    # ------------------------------------------------------------ creating

    def create(
        self,
        *,
        name: str,
        seats: Sequence[str],
        options: dict[str, object],
        creator: int = 0,
        record: str | None = None,
        pace: str = bots.DEFAULT_PACE,
        rematch_of: str | None = None,
    ) -> tuple[Table, str]:
        """A new table and the creator's token; raises :class:`TableError` or :class:`RulesError`.
        ``rematch_of``: the finished table this one is a rematch of (:mod:`upriver.web.rematch`)."""
        count = len(seats)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise TableError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {count}")
        kinds = [str(kind).strip().lower() for kind in seats]
        for kind in kinds:
            if kind != HUMAN and kind not in BOT_KINDS:
                raise TableError(f"unknown seat {kind!r}: 'human' or a bot: {', '.join(BOT_KINDS)}")
        if not 0 <= creator < count or kinds[creator] != HUMAN:
            raise TableError(f"the creator's seat {creator} must be one of the human seats")
        try:
            bots.pace_of(pace, self.bot_delay)
        except ValueError as error:
            raise TableError(str(error)) from None
        seed = secrets.randbits(63)
        base = None
        bot_names = list(BOT_NAMES)
        if record is not None:
            try:
                base = continuable_record(record, count, seed)
            except InputError as error:
                raise TableError(str(error)) from None
            # A saved game keeps its players' names: a bot's once labelled (as its new kind), and the
            # creator's own unless they typed another.
            bot_names = list(loads(base).players)
            if not name.strip():
                name = unlabelled(bot_names[creator])
        else:
            # Refuse impossible rules now, not at the last join.
            Rules.from_options(options, player_count=count)
        # Bots sit down at once; people take their seats by joining (the creator at creation).
        names = [None if kind == HUMAN else bot_label(bot_names[s], kind) for s, kind in enumerate(kinds)]
        name = seat_name(name, creator, names, list(BOT_KINDS))  # raises PlayerNameError
        tokens = [secrets.token_urlsafe(16) if kind == HUMAN else None for kind in kinds]
        config: dict[str, object] = {
            "kinds": kinds,
            "tokens": tokens,
            "names": names,
            "creator": creator,
            "seed": seed,
            "base": base,
            "options": options,
            "seat_key": secrets.token_hex(16),
            "pace": pace,
            **({} if rematch_of is None else {"rematch_of": rematch_of}),
        }
        table_id = secrets.token_urlsafe(9)
        self.store.add_table(table_id, config)
        table = Table(table_id, config, bot_delay=self.bot_delay)
        self.tables[table_id] = table
        self._accept(table, Event(table.version + 1, "join", creator, name, None))
        return table, table.tokens[creator] or ""

    # ------------------------------------------------------------ restoring

    def _restore(self) -> None:
        """Replay every stored table; a table whose events the engine refuses is kept, damaged."""
        for row in self.store.tables():
            try:
                table = Table(row.id, row.config, bot_delay=self.bot_delay)
            except (KeyError, TypeError, ValueError) as error:
                log.error(
                    "table %s cannot be restored: its stored configuration is unreadable (%s)", row.id, error
                )
                continue
            self.tables[row.id] = table
            for event in self.store.events(row.id):
                try:
                    self._apply(table, event, self._check(table, event))
                except (
                    TableRefusalError,
                    IllegalActionError,
                    RulesError,
                    RecordError,
                    RecordRuleError,
                ) as error:
                    self._damage(table, event, error)
                    break
            if self.archive_after is not None and table.game is not None and table.game.is_over:
                last = self.store.last_event_at(row.id)
                if last is not None and last < time.time() - self.archive_after:
                    self.store.archive(row.id)
                    del self.tables[row.id]
                    log.info("table %s finished and idle: archived", row.id)

    def _damage(self, table: Table, event: Event, error: Exception) -> None:
        """Mark ``table`` damaged by ``event``: it keeps its state up to the last good event, and stops."""
        table.damaged = (
            f"stored event {event.version} ({event.kind} {event.value!r} by seat {event.seat}) "
            f"was refused by the engine: {error}"
        )
        log.error(
            "table %s is damaged and accepts no moves; its state after event %d is kept: %s",
            table.id,
            table.version,
            table.damaged,
        )
        table.invalidate()
        for conn in table.connections:
            conn.refresh()

    # ------------------------------------------------------------ actions

    def join(self, table: Table, seat: int, name: str, conn: Connection | None = None) -> None:
        """Take ``seat`` under ``name`` from ``conn``, which then holds the seat's new token; any
        other connection still holding the seat's invite is closed.

        :raises TableRefusalError: the seat cannot be taken, or (rule ``name``) not under this name.
        """
        try:
            name = seat_name(name, seat, table.names, list(BOT_KINDS))
        except PlayerNameError as error:
            raise TableRefusalError(str(error), rule="name", seat=seat) from None
        self._accept(table, Event(table.version + 1, "join", seat, name, None), joiner=conn)

    def give_to_bot(self, table: Table, by: int, seat: int, kind: str) -> None:
        """The creator (``by``) seats a bot of ``kind`` in open ``seat`` before the game starts; the
        seat's invite opens nothing any more. The last open seat so filled starts the game.

        :raises TableRefusalError: (rule ``bot``) not the creator, not an open seat, or no such bot.
        """
        if by != table.creator:
            raise TableRefusalError("only the table's creator can give a seat to a bot", rule="bot", seat=by)
        self._accept(table, Event(table.version + 1, "bot", seat, str(kind).strip().lower(), None))

    def revoke(self, table: Table, by: int, seat: int) -> None:
        """The creator (``by``) gives open ``seat`` a new invite; the old link opens nothing.

        :raises TableRefusalError: (rule ``revoke``) not the creator, or not an open invited seat.
        """
        if by != table.creator:
            raise TableRefusalError("only the table's creator can revoke an invite", rule="revoke", seat=by)
        if table.seat_key is None:
            raise TableRefusalError("this table is older than revocable invites", rule="revoke", seat=by)
        self._accept(table, Event(table.version + 1, "revoke", seat, "", None))

    def act(self, table: Table, seat: int, message: protocol.ClientMessage) -> None:
        """Make a person's bid or card, if the replay guards and the engine accept it; else raise.

        :raises TableRefusalError: the move is stale or replayed, or the game has not started;
            nothing changed.
        :raises IllegalActionError: the engine refuses the move; nothing changed.
        :raises CommitError: the store failed; nothing changed.
        """
        if table.damaged is not None:
            raise _damaged(table, seat)
        if table.game is None:
            raise TableRefusalError(
                "the game has not started: some seats are still open", rule="turn order", seat=seat
            )
        if message.id is not None and message.id in table.seen[seat]:
            raise TableRefusalError(
                f"message {message.id!r} was already received", rule="duplicate", seat=seat
            )
        if message.v is not None and (message.v < table.turn_version[seat] or message.v > table.version):
            raise TableRefusalError(
                f"this {message.type} was made against state {message.v}, but the table is at "
                f"{table.version}: look again and choose",
                rule="stale",
                seat=seat,
            )
        self._accept(table, _event(table.version + 1, seat, message.move, message.id))

    def _accept(self, table: Table, event: Event, *, joiner: Connection | None = None) -> None:
        """The one path of every event, a person's or a bot's: check, commit, apply, announce.

        The engine checks the event first, so nothing it refuses is stored; the store commits
        it before the game changes, so nothing uncommitted is applied or announced.

        :raises TableRefusalError: the table refuses it (the lobby, for a join or a revoke).
        :raises IllegalActionError: the engine refuses it.
        :raises CommitError: the store failed; the game and every client are as before.
        """
        game = self._check(table, event)
        try:
            self.store.append(table.id, event)
        except StoreError as error:
            log.error(
                "table %s: event %d (%s) could not be committed: %s",
                table.id,
                event.version,
                event.kind,
                error,
            )
            raise CommitError(
                f"the table could not save this {event.kind}; nothing changed: try again"
            ) from None
        try:
            self._apply(table, event, game)
        except Exception as error:  # the engine accepted the check but not the move: keep what is stored
            self._damage(table, event, error)
            raise
        if joiner is not None:
            joiner.token = table.tokens[event.seat]
        for conn in table.connections:
            if conn.seat is not None and conn.token is not None and conn.token != table.tokens[conn.seat]:
                conn.close(
                    CLOSE_BAD_TOKEN,
                    protocol.error_message(
                        table.version, "token", "this seat's invite was used or revoked: it opens no seat now"
                    ),
                )
            conn.refresh()
        self._wake_bots(table)

    def _check(self, table: Table, event: Event) -> Game | None:
        """Raise unless ``event`` may be applied now; changes nothing.

        For the join that fills the last seat, returns the game it starts (so a table whose
        stored options the engine refuses fails here, before anything is stored).
        """
        if table.damaged is not None:
            raise _damaged(table, event.seat)
        if event.version != table.version + 1:
            raise TableRefusalError(
                f"event {event.version} does not follow event {table.version}", rule="order", seat=event.seat
            )
        if event.kind in ("revoke", "bot"):
            if (
                table.game is not None
                or not 0 <= event.seat < table.seats
                or event.seat == table.creator
                or table.kinds[event.seat] != HUMAN
                or table.names[event.seat] is not None
            ):
                what = "revoked" if event.kind == "revoke" else "given to a bot"
                raise TableRefusalError(
                    f"only the invite of an open seat can be {what}, before the game starts",
                    rule=event.kind,
                    seat=event.seat,
                )
            if event.kind == "revoke":
                return None
            if event.value not in BOT_KINDS:
                raise TableRefusalError(
                    f"unknown bot {event.value[:20]!r}: expected one of {', '.join(BOT_KINDS)}",
                    rule="bot",
                    seat=event.seat,
                )
            return table.started_by(event.seat, table.bot_name(event.seat, event.value))
        if event.kind == "join":
            if (
                table.game is not None
                or not 0 <= event.seat < table.seats
                or table.names[event.seat] is not None
            ):
                raise TableRefusalError("this seat is already taken", rule="join", seat=event.seat)
            return table.started_by(event.seat, event.value)
        if table.game is None:
            raise TableRefusalError(
                "the game has not started: some seats are still open", rule="turn order", seat=event.seat
            )
        table.game.check_move(_move(event), event.seat)
        return None

    def _apply(self, table: Table, event: Event, started: Game | None) -> None:
        """Apply a checked event to the game, then move the table's version on to it."""
        if event.kind == "join":
            table.names[event.seat] = event.value
            if table.seat_key is not None:
                table.tokens[event.seat] = derived_token(table.seat_key, "seat", event.seat, event.version)
            if started is not None:
                table.game = started
        elif event.kind == "bot":
            table.seat_bot(event.seat, event.value)
            if started is not None:
                table.game = started
        elif event.kind == "revoke":
            if table.seat_key is not None:
                table.tokens[event.seat] = derived_token(table.seat_key, "invite", event.seat, event.version)
        elif table.game is not None:
            table.game.move(_move(event), event.seat)
            if event.kind == "play" and not table.game.trick:
                table.gathered = event.version
        table.version = event.version
        table.last_event = time.time()
        if event.client_id is not None:
            seen = table.seen[event.seat]
            seen[event.client_id] = None
            if len(seen) > _SEEN_IDS:
                seen.popitem(last=False)
        for seat in range(table.seats):
            choices = table.choices(seat)
            if choices != table.last_choices[seat]:
                table.last_choices[seat] = choices
                table.turn_version[seat] = table.version

    # ------------------------------------------------------------ bots

    def _wake_bots(self, table: Table) -> None:
        bots.wake(table, self._bot_move)

    def _bot_move(self, table: bots.BotTable, seat: int, move: Move) -> bool:
        """A bot's move through the one path of every event; ``False`` if the store failed."""
        assert isinstance(table, Table)
        try:
            self._accept(table, _event(table.version + 1, seat, move, None))
        except CommitError:
            return False
        return True

    def wake_all_bots(self) -> None:
        """Start the bots of every table that waits for one (after a restart)."""
        for table in self.tables.values():
            self._wake_bots(table)

    # ------------------------------------------------------------ export

    def export(self, table: Table, *, whole: bool) -> str:
        """The table's game record without its seed; with ``whole`` off, finished rounds only."""
        if table.game is None:
            raise TableError("the game has not started yet")
        record = record_of(table.game)
        if not whole:
            record = dataclasses.replace(record, rounds=record.rounds[: len(table.game.results)])
        return dumps(record)
