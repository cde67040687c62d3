"""Live tables: seats and their secret tokens, the engine's game, connected clients and bots.

Every table lives in the server's one event loop. Every event — a person's join, bid or
card, and a bot's move alike — takes one path (:meth:`Manager._path`): the engine checks
it, the store commits it (at once, or over PostgreSQL a person's move by a thread while the
loop serves the others), it is applied to the game, and only then announced: each
connection is marked out of date and its writer task sends the newest state for its seat
(so a slow client gets one fresh state rather than a backlog). So nothing the engine
refuses is ever stored, and nothing uncommitted is ever shown.

Bots move from asyncio tasks after the table's pace (:mod:`upriver.web.play.bots`). A bot whose
move the engine refuses (or that fails to choose one) is logged and the table goes on with
the first legal move — the lowest legal bid, or the first legal card in the engine's order —
so what is committed is always legal and the same for the same game.

On start-up each stored table is replayed through the same check. A stored event the
engine refuses is logged and marks that table damaged: it keeps its state up to the last
good event, accepts no moves, and says why to its seats; every other table comes up.

Over PostgreSQL several server processes serve the same tables (:mod:`upriver.web.cluster.news`):
an event another process committed is applied here through the same check and announced the
same way (``manager.following``, :meth:`upriver.web.cluster.following.Following.received`); a commit
refused because another process stored that version first reads what it missed and checks the
event again; only a table's owner runs its bots.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Sequence

from upriver.bots import BOT_KINDS
from upriver.database import StoreError
from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.game import Game, Move
from upriver.names import PlayerNameError
from upriver.record import RecordRuleError, dumps, loads, record_of
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from upriver.web.cluster.following import Following
from upriver.web.cluster.news import Cluster, Solo
from upriver.web.hosting import eventlog, instruments
from upriver.web.hosting.guard import InputError, continuable_record
from upriver.web.play import bots, protocol
from upriver.web.play.claims import CLAIM, ClaimActions, apply_claim, check_claim
from upriver.web.play.clock import Clock
from upriver.web.play.commits import BackgroundCommits, Steps
from upriver.web.play.messages import MoveMessage
from upriver.web.play.settings import TableSettings
from upriver.web.play.table import (
    BOT_NAMES,
    HUMAN,
    SEATING_KINDS,
    CommitError,
    Refused,
    Table,
    TableError,
    TableRefusalError,
    damaged_refusal,
    event_of,
    move_of,
)
from upriver.web.seats.holders import (
    CLOSE_BAD_TOKEN,
    Connection,
    bot_label,
    derived_token,
    seat_name,
    unlabelled,
)
from upriver.web.seats.keys import KEY_KINDS, proof_id
from upriver.web.seats.links import SeatLinks, apply_key_event, check_key_event, dead_link_message
from upriver.web.seats.standins import (
    CONTROL_KINDS,
    SeatActions,
    apply_control,
    automatic_extra,
    check_control,
    note_move,
    own_move_refusal,
)
from upriver.web.store import Event, TableStore, VersionConflictError

__all__ = ["HUMAN", "CommitError", "Connection", "Manager", "Table", "TableError", "TableRefusalError"]

log = logging.getLogger("upriver.web")

_DEFAULT_SETTINGS = TableSettings()
_SEEN_IDS = 512
"""Recent action ids remembered per seat to refuse a replayed message; an older replay is stale anyway."""
_ATTEMPTS = 5
"""How many times an event is checked and committed again when other processes stored versions first."""


class Manager:
    """Every live table, backed by a :class:`TableStore`; the one place actions are applied.

    Its parts, each handed the manager's one path of events (:meth:`_accept`) or what else it needs:
    :attr:`standins` (seats that change hands, :mod:`upriver.web.seats.standins`), :attr:`links` (a seat's
    secret, :mod:`upriver.web.seats.links`), :attr:`claims` (:mod:`upriver.web.play.claims`),
    :attr:`following` (what the cluster tells, :mod:`upriver.web.cluster.following`) and :attr:`commits`
    (moves committed by threads, :mod:`upriver.web.play.commits`)."""

    def __init__(
        self,
        store: TableStore,
        *,
        bot_delay: float = 0.8,
        base_url: str = "",
        archive_after: float | None = None,
        cluster: Cluster | None = None,
        background: bool = False,
        now: Callable[[], float] = time.time,
    ) -> None:
        """``cluster``: the other server processes over the same store (default: none, :class:`Solo`).
        ``background``: commit moves off the event loop (a PostgreSQL store; see :meth:`act`).
        ``now``: the time the turn clocks and hand-overs go by (:mod:`upriver.web.play.clock`)."""
        self.store = store
        self.now = now
        self.cluster: Cluster = cluster or Solo()
        self.bot_delay = bot_delay
        self.archive_after = archive_after
        """Seconds after its last event that a finished table is archived at start-up (``None``: never)."""
        self.base_url = base_url
        self.tables: dict[str, Table] = {}
        self.standins = SeatActions(self._accept, store, now)
        """Seats that change hands: confirm, leave, back, hand over, the clock's moves and stand-ins."""
        self.links = SeatLinks(self._accept, store, now)
        """A seat's secret: sign other devices out, re-invite, recover a join."""
        self.claims = ClaimActions(self._accept)
        """A player's claim of the rest of the round."""
        self.following = Following(
            self.tables,
            store,
            self.cluster,
            bot_delay=bot_delay,
            base_url=base_url,
            now=now,
            replay=self._replay,
            wake_bots=self._wake_bots,
        )
        """The live tables as the cluster sees them (what other server processes committed)."""
        self.commits = BackgroundCommits(
            background=background, path=self._path, commit=self._commit, catch_up=self.following.catch_up
        )
        """Moves committed by threads while the event loop serves the other tables."""
        self.clock = Clock(self)
        """The turn clocks of the tables this process owns; :meth:`Clock.run` runs them."""
        self._restore()

    def find(self, table_id: str) -> Table | None:
        """The live table ``table_id``, or ``None``; with other server processes, one created there a
        moment ago whose news has not come yet is read from the store."""
        table = self.tables.get(table_id)
        if table is None and not isinstance(self.cluster, Solo):
            table = self.following.load(table_id)
        return table

    def close(self) -> None:
        """Let the moves being committed finish (unannounced, as after a crash) and stop the threads."""
        self.commits.close()

    # ------------------------------------------------------------ creating

    def create(
        self,
        *,
        name: str,
        seats: Sequence[str],
        options: dict[str, object],
        creator: int | None = 0,
        record: str | None = None,
        rematch_of: str | None = None,
        settings: TableSettings = _DEFAULT_SETTINGS,
        group: str | None = None,
    ) -> tuple[Table, str | None]:
        """A new table and the creator's token; raises :class:`TableError` or :class:`RulesError`.
        ``rematch_of``: the finished table this one is a rematch of (:mod:`upriver.web.play.rematch`).
        ``settings``: its own settings (its clock, pace, …: :class:`TableSettings`). ``group``: the
        group it is played for (:mod:`upriver.web.groups`), kept in its configuration. ``creator`` ``None``: a
        table of bots only, to watch; it starts at once, and there is no token."""
        count = len(seats)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise TableError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {count}")
        kinds = [str(kind).strip().lower() for kind in seats]
        for kind in kinds:
            if kind != HUMAN and kind not in BOT_KINDS:
                raise TableError(f"unknown seat {kind!r}: 'human' or a bot: {', '.join(BOT_KINDS)}")
        if creator is None:
            if HUMAN in kinds:
                raise TableError(
                    "a table without a creator's seat is watched, so every seat must be a bot's: "
                    "give the creator a human seat, or make every seat a bot"
                )
        elif not 0 <= creator < count or kinds[creator] != HUMAN:
            raise TableError(f"the creator's seat {creator} must be one of the human seats")
        seed = secrets.randbits(63)
        base = None
        rules = None
        bot_names = list(BOT_NAMES)
        if record is not None:
            try:
                base = continuable_record(record, count, seed)
            except InputError as error:
                raise TableError(str(error)) from None
            # A saved game keeps its players' names: a bot's once labelled (as its new kind), and the
            # creator's own unless they typed another.
            bot_names = list(loads(base).players)
            if not name.strip() and creator is not None:
                name = unlabelled(bot_names[creator])
        else:
            # The one reading of the request's rule options: impossible rules are refused now, not at
            # the last join, and the table keeps what was read.
            rules = Rules.from_options(options, player_count=count)
        # Bots sit down at once; people take their seats by joining (the creator at creation).
        names = [None if kind == HUMAN else bot_label(bot_names[s], kind) for s, kind in enumerate(kinds)]
        if creator is not None:
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
            **({} if rematch_of is None else {"rematch_of": rematch_of}),
            **({} if group is None else {"group": group}),
            **settings.config(),
            "confirm_joins": True,
        }
        table_id = secrets.token_urlsafe(9)
        self.store.add_table(table_id, config)
        eventlog.note("created", table=table_id, kinds=kinds)
        self.cluster.claim(table_id)  # its creator's process runs its bots, unless it dies
        table = Table(table_id, config, bot_delay=self.bot_delay, now=self.now, rules=rules)
        self.tables[table_id] = table
        if creator is None:
            self._accept(table, lambda: Event(table.version + 1, "start", 0, "", None))
            return table, None
        self._accept(table, lambda: Event(table.version + 1, "join", creator, name, None))
        return table, table.tokens[creator] or ""

    # ------------------------------------------------------------ restoring

    def _restore(self) -> None:
        """Replay every stored table; a table whose events the engine refuses is kept, damaged."""
        for row in self.store.tables():
            try:
                table = Table(row.id, row.config, bot_delay=self.bot_delay, now=self.now)
            except (KeyError, TypeError, ValueError) as error:
                log.error(
                    "table %s cannot be restored: its stored configuration is unreadable (%s)", row.id, error
                )
                continue
            self.tables[row.id] = table
            self._replay(table, self.store.events(row.id))
            if self.archive_after is not None and table.game is not None and table.game.is_over:
                last = self.store.last_event_at(row.id)
                if last is not None and last < time.time() - self.archive_after:
                    self.store.archive(row.id)
                    del self.tables[row.id]
                    log.info("table %s finished and idle: archived", row.id)

    def _replay(self, table: Table, events: Sequence[Event]) -> None:
        """Apply stored events through the engine's check, announcing each; the first it refuses
        marks the table damaged (and the events after it are not applied)."""
        for event in events:
            if event.version <= table.version:
                continue  # applied already (news of it came first)
            try:
                self._apply(table, event, self._check(table, event))
            except (TableRefusalError, IllegalActionError, RulesError, RecordError, RecordRuleError) as error:
                self._damage(table, event, error)
                return
            self._announce(table)

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

    def join(
        self, table: Table, seat: int, name: str, conn: Connection | None = None, proof: str | None = None
    ) -> None:
        """Take ``seat`` under ``name`` from ``conn``, which alone is sent the seat's new token; every
        other connection holding the seat's invite is closed. ``proof``: the SHA-256 of a secret
        the joining page keeps, so that page alone may recover a join whose answer it lost
        (:mod:`upriver.web.seats.keys`). A seat the host re-invited is taken back under its name.

        :raises TableRefusalError: the seat cannot be taken, or (rule ``name``) not under this name.
        """
        try:
            client_id = proof_id(proof)
        except ValueError as error:
            raise TableRefusalError(str(error), rule="join", seat=seat) from None

        def event() -> Event:
            if seat in table.keys.reinvited:
                return Event(table.version + 1, "join", seat, table.names[seat] or "", client_id)
            try:
                taken = seat_name(name, seat, table.names, list(BOT_KINDS))
            except PlayerNameError as error:
                raise TableRefusalError(str(error), rule="name", seat=seat) from None
            return Event(table.version + 1, "join", seat, taken, client_id)

        self._accept(table, event, joiner=conn)

    def give_to_bot(self, table: Table, by: int, seat: int, kind: str) -> None:
        """The creator (``by``) seats a bot of ``kind`` in open ``seat`` before the game starts; the
        seat's invite opens nothing any more. The last open seat so filled starts the game.

        :raises TableRefusalError: (rule ``bot``) not the creator, not an open seat, or no such bot.
        """
        if by != table.host:
            raise TableRefusalError("only the table's creator can give a seat to a bot", rule="bot", seat=by)
        kind = str(kind).strip().lower()
        self._accept(table, lambda: Event(table.version + 1, "bot", seat, kind, None))

    def revoke(self, table: Table, by: int, seat: int) -> None:
        """The creator (``by``) gives open ``seat`` a new invite; the old link opens nothing.

        :raises TableRefusalError: (rule ``revoke``) not the creator, or not an open invited seat.
        """
        if by != table.host:
            raise TableRefusalError("only the table's creator can revoke an invite", rule="revoke", seat=by)
        if table.seat_key is None:
            raise TableRefusalError("this table is older than revocable invites", rule="revoke", seat=by)
        self._accept(table, lambda: Event(table.version + 1, "revoke", seat, "", None))

    def act(self, table: Table, seat: int, message: MoveMessage, *, refused: Refused | None = None) -> None:
        """Make a person's bid or card, if the replay guards and the engine accept it; else raise.

        With background commits (inside the event loop), the move is checked, committed by a thread
        while the loop serves the others, then applied and announced; the table's later moves wait
        their turn. A refusal then goes to ``refused`` (logged if ``None``) instead of being raised.

        :raises TableRefusalError: the move is stale or replayed, or the game has not started;
            nothing changed.
        :raises IllegalActionError: the engine refuses the move; nothing changed.
        :raises CommitError: the store failed; nothing changed.
        """

        def event() -> Event:  # the guards run again if another process committed first
            if table.damaged is not None:
                raise damaged_refusal(table, seat)
            if table.game is None:
                raise TableRefusalError(
                    "the game has not started: some seats are still open", rule="turn order", seat=seat
                )
            refusal = own_move_refusal(table, seat, message.id)  # a stand-in plays, or a known id
            if refusal is not None:
                raise refusal
            if message.v < table.turn_version[seat] or message.v > table.version:
                raise TableRefusalError(
                    f"this {message.type} was made against state {message.v}, but the table is at "
                    f"{table.version}: look again and choose",
                    rule="stale",
                    seat=seat,
                )
            return event_of(table.version + 1, seat, message.move, message.id)

        if not self.commits.enabled:
            self._accept(table, event)
            return
        table.waiting.append((event, refused, time.perf_counter()))
        self.commits.take(table)

    def _path(
        self, table: Table, make: Callable[[], Event], joiner: Connection | None, arrived: float
    ) -> Steps:
        """The one path of every event, a person's or a bot's: check, commit, apply, announce.

        The engine checks the event first, so nothing it refuses is stored; the store commits
        it before the game changes, so nothing uncommitted is applied or announced. ``make``
        gives the event as the next version (raising the table's refusals); if another server
        process stored that version first, what it stored is applied and ``make`` is asked again,
        :data:`_ATTEMPTS` times at most.

        The path yields each event to be committed and is sent what the commit raised (``None``:
        committed), so the same steps serve a commit made at once (:meth:`_accept`) and one made
        by a thread while the event loop serves the others (:mod:`upriver.web.play.commits`).
        ``arrived``: when the event came (``time.perf_counter()``), for the move→update latency
        (:mod:`upriver.web.hosting.instruments`).

        :raises TableRefusalError: the table refuses it (the lobby, for a join or a revoke).
        :raises IllegalActionError: the engine refuses it.
        :raises CommitError: the store failed; the game and every client are as before.
        """
        for _ in range(_ATTEMPTS):
            event = dataclasses.replace(make(), at=self.now())
            game = self._check(table, event)
            failure = yield event
            if isinstance(failure, VersionConflictError):  # another process was first: read it, check again
                try:
                    self.following.catch_up(table)
                except StoreError as error:
                    raise self._commit_error(table, event, error) from None
                continue
            if failure is not None:
                raise self._commit_error(table, event, failure) from None
            if table.version < event.version:  # (news of a background commit may come before its thread ends)
                try:
                    self._apply(table, event, game)
                except Exception as error:  # the check passed, the move did not: keep what is stored
                    self._damage(table, event, error)
                    raise
                if joiner is not None:
                    token = joiner.token = table.tokens[event.seat]
                    if token is not None and event.kind in ("join", "rekey"):  # to this connection only
                        joiner.push(protocol.seat_message(table.version, event.seat, token))
                self._announce(table)
                instruments.applied(table.id, event, arrived, table.game)
            return
        raise self._commit_error(table, event, "other server processes kept storing moves first")

    def _accept(self, table: Table, make: Callable[[], Event], *, joiner: Connection | None = None) -> None:
        """Take ``make``'s event along :meth:`_path`, committing it at once; raises as the path does."""
        steps = self._path(table, make, joiner, time.perf_counter())
        event = next(steps)
        while True:
            try:
                self._commit(table.id, event)
            except StoreError as error:
                failure: StoreError | None = error
            else:
                failure = None
            try:
                event = steps.send(failure)
            except StopIteration:
                return

    def _commit(self, table_id: str, event: Event) -> None:
        """Commit ``event`` (:meth:`TableStore.append`), timed (:mod:`upriver.web.hosting.instruments`)."""
        start = time.perf_counter()
        try:
            self.store.append(table_id, event)
        finally:
            instruments.COMMIT_SECONDS.labels(instruments.worker()).observe(time.perf_counter() - start)

    @staticmethod
    def _commit_error(table: Table, event: Event, error: object) -> CommitError:
        log.error(
            "table %s: event %d (%s) could not be committed: %s", table.id, event.version, event.kind, error
        )
        return CommitError(f"the table could not save this {event.kind}; nothing changed: try again")

    def _announce(self, table: Table) -> None:
        """Tell every connection of the table's newest state, closing those whose token opens no seat
        any more; start its bots if one is due (or, its game over, give up owning it)."""
        for conn in table.connections:
            if conn.seat is not None and conn.token is not None and table.seat_of(conn.token) != conn.seat:
                conn.close(CLOSE_BAD_TOKEN, dead_link_message(table, conn.token))
            conn.refresh()
        if table.game is not None and table.game.is_over:
            self.cluster.release(table.id)
        else:
            self._wake_bots(table)

    def _check(self, table: Table, event: Event) -> Game | None:
        """Raise unless ``event`` may be applied now; changes nothing.

        For the join that fills the last seat, returns the game it starts (so a table whose
        stored options the engine refuses fails here, before anything is stored).
        """
        if table.damaged is not None:
            raise damaged_refusal(table, event.seat)
        if event.version != table.version + 1:
            raise TableRefusalError(
                f"event {event.version} does not follow event {table.version}", rule="order", seat=event.seat
            )
        if event.kind in CONTROL_KINDS:
            return check_control(table, event)
        if event.kind in KEY_KINDS:
            check_key_event(table, event)
            return None
        if event.kind in SEATING_KINDS:
            return table.check_seating(event)
        if event.kind == CLAIM:
            check_claim(table, event)
            return None
        if table.game is None:
            raise TableRefusalError(
                "the game has not started: some seats are still open", rule="turn order", seat=event.seat
            )
        table.game.check_move(move_of(event), event.seat)
        return None

    def _apply(self, table: Table, event: Event, started: Game | None) -> None:
        """Apply a checked event to the game, then move the table's version on to it."""
        at = self.now() if event.at is None else event.at
        if event.kind in CONTROL_KINDS:
            apply_control(table, event, started, at)
        elif event.kind in KEY_KINDS:
            apply_key_event(table, event)
        elif event.kind == "join":
            invite = table.tokens[event.seat]
            if event.seat not in table.keys.reinvited:
                table.names[event.seat] = event.value
            table.keys.retire(invite, "taken", event.seat, table.names[event.seat])
            if table.seat_key is not None:
                table.tokens[event.seat] = derived_token(table.seat_key, "seat", event.seat, event.version)
            pending = table.confirms_joins and event.seat != table.creator
            table.keys.joined(event.seat, event.version, invite if pending else None, event.client_id, at)
            if started is not None:
                table.game = started
        elif event.kind == "bot":
            table.keys.retire(table.tokens[event.seat], "bot", event.seat, None)
            table.seat_bot(event.seat, event.value)
            if started is not None:
                table.game = started
        elif event.kind == "revoke":
            if table.seat_key is not None:
                table.keys.retire(table.tokens[event.seat], "revoked", event.seat, None)
                table.tokens[event.seat] = derived_token(table.seat_key, "invite", event.seat, event.version)
        elif event.kind == CLAIM:
            apply_claim(table, event)
        elif table.game is not None:
            note_move(table, event, table.game.round_number)
            table.game.move(move_of(event), event.seat)
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
                table.control.turn_started[seat] = at

    # ------------------------------------------------------------ bots

    def _wake_bots(self, table: Table) -> None:
        if self.cluster.owns(table.id):
            bots.wake(table, self._bot_move)

    def _bot_move(self, table: bots.BotTable, seat: int, move: Move) -> bool:
        """A bot's move through the one path of every event; ``False`` if the store failed."""
        assert isinstance(table, Table)
        if seat not in table.bots:
            return True  # its person took the seat back meanwhile
        stand_in = table.kinds[seat] == HUMAN
        try:
            # At once even with background commits: the bot's loop goes on from the move's own state.
            self._accept(
                table, lambda: event_of(table.version + 1, seat, move, "standin" if stand_in else None)
            )
        except CommitError:
            return False
        except (IllegalActionError, TableRefusalError):
            pass  # another server process moved first and the move is no longer legal: look again
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
        extras = automatic_extra(table, len(table.game.results) + (1 if whole else 0))
        record = record_of(table.game, extras=extras)
        if not whole:
            record = dataclasses.replace(record, rounds=record.rounds[: len(table.game.results)])
        return dumps(record)
