"""One live table: its seats and their tokens, the engine's game once every seat is taken, its
connections and bots, and the errors of a request about tables.

A table changes only through its manager's one path of events (:mod:`upriver.web.play.tables`); this
module holds what a table is and what it tells its seats (the lobby, and the state messages of
:mod:`upriver.web.play.states`).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import math
import time
from collections.abc import Callable, Sequence

from upriver.actions import Phase
from upriver.bots import BOT_KINDS, Bot, make_bot
from upriver.game import Game, Move
from upriver.record import loads, replay
from upriver.rules import Bidding, Rules
from upriver.web.play import bots
from upriver.web.play.claim_notice import ClaimNotice
from upriver.web.play.settings import TableSettings
from upriver.web.play.states import SeatStates, encode
from upriver.web.seats.holders import Connection, bot_label, same_token
from upriver.web.seats.keys import SeatKeys
from upriver.web.seats.presence import Presence
from upriver.web.social.chat import ChatRoom
from upriver.web.store import Event

__all__ = [
    "AWAY_BEFORE_HANDOVER",
    "BOT_NAMES",
    "HUMAN",
    "SEATING_KINDS",
    "TURN_BEFORE_HANDOVER",
    "AutoMove",
    "CommitError",
    "Refused",
    "SeatControl",
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
SEATING_KINDS = ("join", "revoke", "bot")
"""The lobby's events: a person takes a seat, the host revokes an open seat's invite or gives it to a bot."""
BOT_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
AWAY_BEFORE_HANDOVER = 60.0
"""Seconds a person must have been away before another may hand their seat to a bot."""
TURN_BEFORE_HANDOVER = 120.0
"""At a table without a clock, seconds of a person's turn (while away) before it may be handed over."""


class TableError(Exception):
    """A request about tables that cannot be met; the message says why."""


class TableRefusalError(TableError):
    """What the table refuses before the engine sees it; nothing changed. ``rule`` as the WebSocket's
    error reply spells it (``damaged``, ``duplicate``, ``stale``, ``order``, ``join``, ``revoke``, ``bot``,
    ``name``, ``event``; ``turn order`` before the start), ``seat`` the seat concerned or ``None``.
    The engine's refusals stay :class:`~upriver.errors.IllegalActionError`."""

    def __init__(
        self, message: str, *, rule: str, seat: int | None = None, facts: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat
        self.facts: dict[str, object] = dict(facts or {})
        """What the refusal is made of, as JSON data (a page words it again from ``rule`` and these)."""


class CommitError(TableError):
    """The store could not commit an event: nothing was applied or announced, and the table is as it was."""


@dataclasses.dataclass(frozen=True, slots=True)
class AutoMove:
    """A move the server made for a person (event ``version``, ``kind`` ``bid`` or ``play``, in
    ``round``), ``by`` the clock (``clock``: their time ran out) or a stand-in bot (``standin``)."""

    seat: int
    version: int
    round: int
    kind: str
    move: str
    by: str = "clock"

    def json(self) -> dict[str, object]:
        """As the state's ``automatic`` lists it, with the move: ``bid`` (a number) or ``card``."""
        move: dict[str, object] = {"bid": int(self.move)} if self.kind == "bid" else {"card": self.move}
        return {
            "seat": self.seat,
            "v": self.version,
            "round": self.round,
            "kind": self.kind,
            "by": self.by,
            **move,
        }


@dataclasses.dataclass(slots=True)
class SeatControl:
    """Who plays for each seat besides its cards (:mod:`upriver.web.seats.standins`), all derived from the
    table's stored events, so a restarted server knows it as it was."""

    standins: dict[int, str]
    """Person-seats a stand-in bot plays for, and why: ``left``, ``clock``, ``away``, ``handover:<by>``."""
    auto: list[int]
    """Per seat, the automatic moves the clock made for it in a row."""
    turn_started: list[float]
    """Per seat, when its choices last changed (its turn's start, for the clock and hand-overs)."""
    automatic: list[AutoMove]
    """Every automatic move of the game, in order (the state shows the current round's)."""

    @classmethod
    def of(cls, seats: int) -> SeatControl:
        """No stand-in, no automatic move."""
        return cls({}, [0] * seats, [0.0] * seats, [])


class Table:
    """One table: configuration, the game once every seat is taken, connections and bot seats."""

    def __init__(
        self,
        table_id: str,
        config: dict[str, object],
        *,
        bot_delay: float = 0.8,
        now: Callable[[], float] = time.time,
        rules: Rules | None = None,
    ) -> None:
        """``bot_delay``: the server's bot delay, the ``normal`` pace (:mod:`upriver.web.play.bots`);
        ``now``: the clock's time (the manager's, which tests may drive); ``rules``: the rules its
        options make, when the caller has read them already (a new table; a restored one reads them
        when first needed, see :attr:`rules`)."""
        self._rules = rules
        self.id = table_id
        self.now = now
        self.config = config
        self.kinds: list[str] = list(config["kinds"])  # type: ignore[call-overload]
        self.tokens: list[str | None] = list(config["tokens"])  # type: ignore[call-overload]
        self.names: list[str | None] = list(config["names"])  # type: ignore[call-overload]
        self.creator: int | None = config["creator"]  # type: ignore[assignment]
        """The creator's seat; ``None`` at a table of bots only, made to be watched."""
        self.seed: int = config["seed"]  # type: ignore[assignment]
        self.base: str | None = config.get("base")  # type: ignore[assignment]
        self.options: dict[str, object] = config["options"]  # type: ignore[assignment]
        self.seat_key: str | None = config.get("seat_key")  # type: ignore[assignment]
        """The secret the seats' tokens after a join or a revoke derive from (none on older tables)."""
        self.rematch_of: str | None = config.get("rematch_of")  # type: ignore[assignment]
        """The finished table this one is a rematch of, or ``None``."""
        self.settings = TableSettings.from_config(config)
        """The table's own settings: its clock, the level of the bot that plays for a person, hints,
        spectators' chat and pace (:mod:`upriver.web.play.settings`)."""
        self.confirms_joins: bool = bool(config.get("confirm_joins", False))
        """Whether a join's invite keeps opening the seat until the joined page confirms it (every
        table made since; an older table's invite stops at the join itself)."""
        self.control = SeatControl.of(len(self.kinds))
        self.keys = SeatKeys(len(self.kinds))
        """Joins not confirmed yet, the links that open nothing any more, each seat's tenure
        (:mod:`upriver.web.seats.keys`)."""
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
        self.presence = Presence(len(self.kinds), since=now())
        """Who is connected, on every server process (:mod:`upriver.web.seats.presence`); a seat nobody
        connected to here is away since the table was loaded (made, or restored at start)."""
        self.chat = ChatRoom(self)
        """The table's talk (:mod:`upriver.web.social.chat`), kept in the store beside its events."""
        self.states = SeatStates()
        self.bot_task: asyncio.Task[None] | None = None
        self.pace = bots.pace_of(self.settings.pace, bot_delay)
        self.thinking: int | None = None
        """The seat whose bot is choosing its move now (its turn's wait included), or ``None``."""
        self.waiting: collections.deque[tuple[Callable[[], Event], Refused | None, float]] = (
            collections.deque()
        )
        """Moves received while another of this table's is being committed, each made when its turn comes
        (with when it arrived, ``time.perf_counter()``)."""
        self.committing: Event | None = None
        """The move being committed off the event loop (PostgreSQL), until it is applied or refused."""
        self.missed = False
        """Whether news of a later event came while a move was being committed (so it is read again)."""
        self.gathered = -1
        """The version whose event finished a trick: the next bot waits the trick's pause after it."""
        self.claim: ClaimNotice | None = None
        """The last claim, whose cards every state shows until the next round's first bid."""

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
        """The seat this secret token opens (an open seat's invite, or a seat's own token), or ``None``
        (a non-ASCII token opens none; :meth:`SeatKeys.why_dead` says why a former one opens nothing)."""
        if not token:
            return None
        for seat, known in enumerate(self.tokens):
            if same_token(known, token):
                return seat
        return None

    def holder_token(self, seat: int, tenure: int) -> str | None:
        """``seat``'s token, if the person seated by the join of version ``tenure`` still holds it
        (``None``: someone else holds it now, or it is no seat of a person's)."""
        if not 0 <= seat < self.seats or tenure <= 0 or self.keys.tenure[seat] != tenure:
            return None
        return self.tokens[seat]

    def standin_reason(self, seat: int) -> str | None:
        """Why a stand-in bot plays for the person at ``seat`` (``left``, ``clock``, ``away``,
        ``handover:<by>``), or ``None``: the person plays (or it is a bot's seat)."""
        return self.control.standins.get(seat)

    def standin_status(self, seat: int) -> str | None:
        """What the seat's presence shows instead of online or away: ``left`` (the person left) or
        ``bot`` (a stand-in plays for them), or ``None``."""
        reason = self.standin_reason(seat)
        if reason is None:
            return None
        return "left" if reason == "left" else "bot"

    def joined_pending(self, seat: int) -> bool:
        """Whether ``seat``'s join is not confirmed yet (the state says so, for the joined page to
        send ``confirm`` once it saved its new token)."""
        return seat in self.keys.pending

    def invited(self, seat: int) -> bool:
        """Whether ``seat`` waits for its person to take it with a ``join``: an open seat, or one the
        host re-invited (the state says so, for the page to offer the seat)."""
        return self.kinds[seat] == HUMAN and (self.names[seat] is None or seat in self.keys.reinvited)

    def auto_moves(self, seat: int) -> int:
        """How many automatic moves the clock made for ``seat`` in a row."""
        return self.control.auto[seat]

    def plays_for_person(self, seat: int) -> bool:
        """Whether a person (not a bot, not a stand-in) decides ``seat``'s moves."""
        return self.kinds[seat] == HUMAN and seat not in self.control.standins

    def handover_from(self, seat: int) -> float | None:
        """When (unix seconds) another person may hand ``seat`` to a bot, its person being away: a
        minute (:data:`AWAY_BEFORE_HANDOVER`) after they went, or, at a table without a clock, two
        (:data:`TURN_BEFORE_HANDOVER`) after their turn began while they are away; ``None`` while it
        cannot be (the game is not on, the seat is a bot's, a stand-in plays it, its person is here).
        The one rule the refusal (:func:`upriver.web.seats.standins.handover_refusal`) and the state's
        ``handover`` follow."""
        game = self.game
        if game is None or game.is_over or not self.plays_for_person(seat):
            return None
        since = self.presence.away_since(seat)
        if since is None:
            return None
        at = since + AWAY_BEFORE_HANDOVER
        if not self.settings.clock and seat in game.awaiting:
            at = min(at, self.control.turn_started[seat] + TURN_BEFORE_HANDOVER)
        return at

    def handover_left(self) -> dict[str, int]:
        """Per away person-seat that may be handed to a bot, the milliseconds until it may (0: now)."""
        now = self.now()
        left: dict[str, int] = {}
        for seat in range(self.seats):
            at = self.handover_from(seat)
            if at is not None:
                left[str(seat)] = max(0, math.ceil((at - now) * 1000))
        return left

    def clock_left(self) -> dict[str, int]:
        """Per person-seat whose turn it is, the milliseconds its clock has left (never below 0)."""
        game = self.game
        if game is None or game.is_over or not self.settings.clock:
            return {}
        now = self.now()
        return {
            str(seat): max(0, round((self.control.turn_started[seat] + self.settings.clock - now) * 1000))
            for seat in game.awaiting
            if self.plays_for_person(seat)
        }

    def seat_standin(self, seat: int, reason: str) -> None:
        """A bot of the table's level plays for the person at ``seat`` now (the bot loop moves it)."""
        self.control.standins[seat] = reason
        if seat not in self.bots:
            self.bots[seat] = make_bot(self.settings.level, seed=self.seed ^ (seat + 1) ^ 0x5EA7)

    def person_back(self, seat: int) -> None:
        """The person at ``seat`` plays again; their stand-in bot stops."""
        self.control.standins.pop(seat, None)
        if self.kinds[seat] == HUMAN:
            self.bots.pop(seat, None)
        self.control.auto[seat] = 0

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

    def check_seating(self, event: Event) -> Game | None:
        """Raise unless the lobby's ``event`` (``join``, ``revoke`` or ``bot``) may be applied now (its
        version is checked already); changes nothing. For the ``join`` or ``bot`` that fills the last
        open seat, the game it starts (so stored options the engine refuses fail before anything is
        stored).

        :raises TableRefusalError: (rule ``join``, ``revoke`` or ``bot``) the seat is taken, not open
            or not a person's, the game has started, or there is no such bot.
        :raises RulesError: the table's stored options are not rules the engine plays.
        """
        if event.kind in ("revoke", "bot"):
            if (
                self.game is not None
                or not 0 <= event.seat < self.seats
                or event.seat == self.creator
                or self.kinds[event.seat] != HUMAN
                or self.names[event.seat] is not None
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
            return self.started_by(event.seat, self.bot_name(event.seat, event.value))
        if event.seat in self.keys.reinvited:
            return None  # its person takes it back with the host's new invite, under the same name
        if self.game is not None or not 0 <= event.seat < self.seats or self.names[event.seat] is not None:
            raise TableRefusalError("this seat is already taken", rule="join", seat=event.seat)
        return self.started_by(event.seat, event.value)  # a join

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
        return Game(self.rules, names, seed=self.seed)

    @property
    def rules(self) -> Rules:
        """The rules the table's rule options make (not those of an imported record), read once:
        at creation, or the first time a restored table needs them.

        :raises RulesError: the table's stored options are not rules the engine plays (a stored
            table may have drifted from the engine; it is refused again each time it is asked).
        """
        if self._rules is None:
            self._rules = Rules.from_options(self.options, player_count=self.seats)
        return self._rules

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
                if self.kinds[s] == HUMAN
                and s != self.creator
                and (self.names[s] is None or s in self.keys.reinvited)
            ]
            lobby["spectate"] = f"{base_url}/t/{self.id}"
        return lobby

    def state(self, conn: Connection, base_url: str) -> str:
        """The newest state message for this connection's seat, as JSON text (:mod:`upriver.web.play.states`:
        built once per version and seat; the score sheet only when the connection's is out of date),
        with the clock's time left as of this send (``clock``: never cached, never a timestamp) and
        the time until each away seat may be handed to a bot (``handover``: :meth:`handover_left`)."""
        text, conn.sheet_sent = self.states.message(self, conn.seat, conn.sheet_sent, base_url)
        clock = (
            None
            if not self.settings.clock
            else {"seconds": self.settings.clock, "left_ms": self.clock_left()}
        )
        return f'{text[:-1]},"clock":{encode(clock)},"handover":{encode(self.handover_left())}}}'

    def automatic_json(self, seat: int | None) -> list[dict[str, object]]:
        """The automatic moves of the current round and the one before (a page shows the last trick of
        a finished round a while): ``seat``, ``v``, ``round``, ``kind``, ``by`` (``clock`` or
        ``standin``) and the move, as ``seat``
        (``None``: a spectator) may know it. Under simultaneous bidding the others' bids are hidden
        until every seat has bid, so until then an automatic bid not its own has no ``bid``."""
        game = self.game
        if game is None:
            return []
        since = game.round_number - 1
        hidden = game.phase is Phase.BIDDING and game.rules.bidding is Bidding.SIMULTANEOUS
        listed = []
        for move in self.control.automatic:
            if move.round < since:
                continue
            entry = move.json()
            if hidden and move.kind == "bid" and move.round == game.round_number and move.seat != seat:
                del entry["bid"]
            listed.append(entry)
        return listed


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
