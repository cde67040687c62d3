"""Table talk: a chat beside the table, quick reactions on a seat, and the table's own notices.

A line is text only, never markup: it is checked as a name is (:func:`upriver.names.text_line`:
valid Unicode, no control or bidirectional characters, trimmed, something visible in it, without the
invisible characters that show nothing), at most :data:`MAX_LINE` characters (a longer one is refused,
never cut), then stored verbatim and sent as a JSON string, so ``<b>`` reaches a page as those
three characters, for the page to show as text. A person seated writes under their seat's name;
a spectator reads always, and writes only at a table whose ``spectator_chat`` option is on,
under a name they give, checked as a player's and unlike every seated one's. Senders are
rate-limited (:data:`LINES`: per seat, per connection, and the spectators together; with several
server processes the seat's and the spectators' counts are the cluster's, :mod:`upriver.web.social.talk`).
A refusal is an ``error`` message with rule ``chat`` and facts (``{"case": "too long", "limit": 200}``);
it changes nothing.

Lines are kept with the table in the store's ``chat`` table (:mod:`upriver.web.store.chat`),
never in the game record. A connection gets the last :data:`HISTORY` lines when it opens
(``{"type": "chat", "lines": […], "full": true}``, only if there are any), then each new line
(``full: false``). Over PostgreSQL a trigger announces every stored line to every server process
(:data:`upriver.web.cluster.news.CHAT_CHANNEL`), whose rooms send it to their connections in order of
``n`` (a gap is read from the store).

A reaction (one of :data:`REACTIONS`) is shown on the sender's seat for a few seconds and is
not stored: ``{"type": "reaction", "seat", "reaction", "at"}`` to every connection (over
PostgreSQL to every process, on :data:`upriver.web.cluster.news.REACTIONS_CHANNEL`).

The table's notices — a person left, came back, had their seat handed to a bot — are ``system``
lines (``event`` and ``facts``, for each page to word in its language), written by the process
that committed the event (:meth:`ChatRoom.notice`).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import logging
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from upriver.bots import BOT_KINDS
from upriver.database import StoreError
from upriver.names import PlayerNameError, TextError, text_line
from upriver.web.play.settings import TableSettings
from upriver.web.play.states import encode
from upriver.web.seats.holders import Connection, seat_name
from upriver.web.store import TableStore
from upriver.web.store.chat import ChatLine, add_line, lines

__all__ = [
    "EVENTS",
    "HISTORY",
    "LINES",
    "MAX_LINE",
    "REACTIONS",
    "REACTIONS_LIMIT",
    "SPECTATOR_LINES",
    "ChatPlace",
    "ChatRefusalError",
    "ChatRoom",
    "Draft",
    "Window",
    "too_fast",
]

log = logging.getLogger("upriver.web")

MAX_LINE = 200
"""The most characters a line may have."""
HISTORY = 100
"""How many of the last lines a connection gets when it opens."""
LINES = (5, 10.0)
"""At most this many lines in any so many seconds, per seat and per connection."""
SPECTATOR_LINES = (10, 10.0)
"""At most this many lines in any so many seconds from all of a table's spectators together."""
REACTIONS_LIMIT = (5, 10.0)
"""At most this many reactions in any so many seconds, per seat and per connection."""
REACTIONS = ("well-played", "good-luck", "oops", "thanks", "👍", "😂", "😮", "🎉")
"""The reactions a seat may show (a page translates the words)."""
EVENTS = ("left", "back", "handover", "away-bot", "clock-bot", "reinvited")
"""The table's notices: the ``event`` of a ``system`` line."""


class ChatRefusalError(Exception):
    """A line or reaction the table will not take; nothing changed. ``facts`` say why as data
    (``case`` and its numbers), ``seat`` is the sender's (``None``: a spectator)."""

    rule = "chat"

    def __init__(self, message: str, *, case: str, seat: int | None, **facts: object) -> None:
        super().__init__(message)
        self.seat = seat
        self.facts: dict[str, object] = {"case": case, **facts}


class Window:
    """At most ``count`` events in any ``seconds`` (a sliding window over the chat room's clock)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._times: collections.deque[float] = collections.deque()

    def full(self, now: float) -> bool:
        """Whether one more event now would be over the limit."""
        while self._times and self._times[0] <= now - self.seconds:
            self._times.popleft()
        return len(self._times) >= self.count

    def add(self, now: float) -> None:
        """Count one event now."""
        self._times.append(now)


@dataclasses.dataclass(frozen=True, slots=True)
class Draft:
    """A line accepted to be stored: its sender's seat (``None``: a spectator), name, and text."""

    seat: int | None
    name: str
    text: str


class ChatPlace(Protocol):
    """What a chat room is part of (:class:`upriver.web.play.table.Table`)."""

    id: str
    settings: TableSettings
    """The table's settings: its ``spectator_chat`` says whether spectators may write."""
    version: int
    names: list[str | None]
    connections: set[Connection]

    def invited(self, seat: int) -> bool:
        """Whether ``seat`` waits for its person to take it (its link only offers it until then)."""


def too_fast(limit: tuple[int, float], seat: int | None, what: str) -> ChatRefusalError:
    """The refusal of one more line or reaction (``what``) past ``limit`` (count, seconds)."""
    count, seconds = limit
    return ChatRefusalError(
        f"at most {count} {what} in {seconds:g} seconds: wait a moment and send it again",
        case="too fast",
        seat=seat,
        limit=count,
        seconds=seconds,
    )


class ChatRoom:
    """One table's chat: its last lines as sent, the senders' rate limits, and the sending of lines
    and reactions to the table's connections (see the module).

    ``clock`` is the rate limits' time (unix seconds, which every server process shares; tests may
    drive it).
    """

    def __init__(self, place: ChatPlace, *, clock: Callable[[], float] = time.time) -> None:
        self.place = place
        self.clock = clock
        self.loaded = False
        """Whether :attr:`recent` holds the stored lines (read when a first connection opens here)."""
        self.recent: collections.deque[ChatLine] = collections.deque(maxlen=HISTORY)
        self.last = 0
        """The number of the last line sent to this process's connections."""
        self._seats: dict[tuple[str, int], Window] = {}
        self._conns: weakref.WeakKeyDictionary[Connection, dict[str, Window]] = weakref.WeakKeyDictionary()
        self._spectators = Window(*SPECTATOR_LINES)

    # ------------------------------------------------------------ reading

    def load(self, store: TableStore) -> None:
        """Read the last lines from the store, unless they are here already.

        :raises StoreError: the database failed.
        """
        if self.loaded:
            return
        stored = lines(store.db, self.place.id, last=HISTORY)
        self.recent.extend(stored)
        self.last = stored[-1].n if stored else 0
        self.loaded = True

    def history(self, store: TableStore) -> str | None:
        """The ``chat`` message a new connection gets (the last lines, ``full``), or ``None`` if the
        table has no line; a store failure is logged and gives ``None`` (the chat is not the game)."""
        try:
            self.load(store)
        except StoreError as error:
            log.warning("table %s: its chat could not be read: %s", self.place.id, error)
            return None
        if not self.recent:
            return None
        return self._message(list(self.recent), full=True)

    def _message(self, sent: Sequence[ChatLine], *, full: bool) -> str:
        return encode(
            {"type": "chat", "v": self.place.version, "lines": [line.json() for line in sent], "full": full}
        )

    # ------------------------------------------------------------ writing

    def say(self, store: TableStore, conn: Connection, text: object, name: object = None) -> ChatLine:
        """Store and send a line ``conn`` wrote (a spectator under ``name``): :meth:`draft`, then
        :func:`~upriver.web.store.chat.add_line` and :meth:`heard` (which a caller committing off the
        event loop runs itself).

        :raises ChatRefusalError: the line may not be written (why, in its facts); nothing changed.
        :raises StoreError: the database failed; nothing changed.
        """
        draft = self.draft(conn, text, name)
        stored = add_line(
            store.db, self.place.id, seat=draft.seat, name=draft.name, kind="text", text=draft.text
        )
        self.heard(store, stored)
        return stored

    def draft(self, conn: Connection, text: object, name: object = None) -> Draft:
        """The line ``conn`` may write (a spectator under ``name``), counted against its limits.

        :raises ChatRefusalError: the line may not be written (why, in its facts); nothing changed.
        """
        seat = conn.seat
        now = self.clock()
        if seat is None:
            if not self.place.settings.spectator_chat:
                raise ChatRefusalError(
                    "spectators read this table's chat but may not write in it (the table's choice)",
                    case="spectator",
                    seat=None,
                )
            try:
                sender = seat_name(name, -1, self.place.names, list(BOT_KINDS))
            except PlayerNameError as error:
                raise ChatRefusalError(
                    f"your name: {error}", case="name", seat=None, reason=error.reason
                ) from None
        else:
            known = self.place.names[seat]
            if known is None or self.place.invited(seat):
                raise ChatRefusalError("take your seat first (join), then write", case="join", seat=seat)
            sender = known
        try:
            line = text_line(text, MAX_LINE)
        except TextError as error:
            facts: dict[str, object] = {"limit": MAX_LINE} if error.reason == "too long" else {}
            raise ChatRefusalError(str(error), case=error.reason, seat=seat, **facts) from None
        windows = self._windows(conn, "line", seat, LINES)
        if seat is None:
            windows.append(self._spectators)
        for window in windows:
            if window.full(now):
                limit = SPECTATOR_LINES if window is self._spectators else LINES
                raise too_fast(
                    limit, seat, "lines" if window is not self._spectators else "lines from spectators"
                )
        for window in windows:
            window.add(now)
        return Draft(seat, sender, line)

    def notice(self, store: TableStore, event: str, facts: Mapping[str, object]) -> bool:
        """Store and send the table's notice of ``event`` (one of :data:`EVENTS`) with its ``facts``
        (JSON data: ``{"seat": 2, "by": 0}``). Call it once, in the process that committed the event.
        ``store``: the manager's :class:`~upriver.web.store.TableStore`.

        Never raises: a notice the store cannot keep is logged, and ``False`` is returned.
        """
        if event not in EVENTS:
            raise ValueError(f"unknown chat notice {event!r}: expected one of {', '.join(EVENTS)}")
        seat = facts.get("seat")
        try:
            stored = add_line(
                store.db,
                self.place.id,
                seat=seat if isinstance(seat, int) else None,
                name="",
                kind="system",
                text="",
                event=event,
                facts=json.loads(json.dumps(dict(facts))),
            )
            self.heard(store, stored)
        except StoreError as error:
            log.warning("table %s: its notice %s could not be stored: %s", self.place.id, event, error)
            return False
        return True

    def missed(self, store: TableStore) -> list[ChatLine]:
        """The stored lines after the last one sent here (those a lost notification did not bring).

        :raises StoreError: the database failed.
        """
        return lines(store.db, self.place.id, after=self.last)

    def heard(self, store: TableStore, line: ChatLine) -> None:
        """A line was stored (here, or by another process): send it to this process's connections
        in order, after any line before it not sent yet (read from the store; if it cannot be read,
        the line alone). Until a connection opened here, nothing is kept: the lines are read when
        one does.
        """
        if not self.loaded or line.n <= self.last:
            return
        fresh = [line]
        if line.n > self.last + 1:
            try:
                fresh = lines(store.db, self.place.id, after=self.last) or fresh
            except StoreError as error:
                log.warning(
                    "table %s: the chat lines before line %d could not be read: %s",
                    self.place.id,
                    line.n,
                    error,
                )
        fresh = [known for known in fresh if known.n > self.last]
        if not fresh:
            return
        self.recent.extend(fresh)
        self.last = fresh[-1].n
        message = self._message(fresh, full=False)
        for conn in self.place.connections:
            conn.push(message)

    # ------------------------------------------------------------ reactions

    def react(self, conn: Connection, reaction: object) -> str:
        """The ``reaction`` message of ``conn``'s seat (:meth:`counted`, then :meth:`show`), sent to this
        process's connections; the caller tells the other processes.

        :raises ChatRefusalError: as :meth:`counted`.
        """
        seat, shown = self.counted(conn, reaction)
        return self.show(seat, shown, time.time())

    def counted(self, conn: Connection, reaction: object) -> tuple[int, str]:
        """The seat and reaction ``conn`` may show, counted against its limits (nothing sent yet).

        :raises ChatRefusalError: a spectator, a seat not taken yet (as a line is), a reaction not in
            :data:`REACTIONS`, or too many.
        """
        seat = conn.seat
        if seat is None:
            raise ChatRefusalError(
                "a reaction shows on a seat: spectators have none", case="spectator", seat=None
            )
        if self.place.names[seat] is None or self.place.invited(seat):
            raise ChatRefusalError("take your seat first (join), then react", case="join", seat=seat)
        if reaction not in REACTIONS:
            raise ChatRefusalError(
                f"a reaction is one of {', '.join(REACTIONS)}",
                case="reaction",
                seat=seat,
                reactions=list(REACTIONS),
            )
        now = self.clock()
        windows = self._windows(conn, "reaction", seat, REACTIONS_LIMIT)
        if any(window.full(now) for window in windows):
            raise too_fast(REACTIONS_LIMIT, seat, "reactions")
        for window in windows:
            window.add(now)
        return seat, str(reaction)

    def show(self, seat: int, reaction: str, at: float) -> str:
        """Send ``seat``'s ``reaction`` (at ``at``, unix seconds) to this process's connections; the
        message sent."""
        message = self.reaction_message(seat, reaction, at)
        for other in self.place.connections:
            other.push(message)
        return message

    def reaction_message(self, seat: int, reaction: str, at: float) -> str:
        """The ``reaction`` message of ``seat``."""
        return encode(
            {"type": "reaction", "v": self.place.version, "seat": seat, "reaction": reaction, "at": at}
        )

    def reaction_heard(self, seat: int, reaction: str, at: float) -> None:
        """Another process's connection reacted: show it to this process's connections."""
        if reaction in REACTIONS and 0 <= seat < len(self.place.names):
            message = self.reaction_message(seat, reaction, at)
            for conn in self.place.connections:
                conn.push(message)

    def _windows(
        self, conn: Connection, what: str, seat: int | None, limit: tuple[int, float]
    ) -> list[Window]:
        """The rate limits a line or reaction of ``conn`` counts against: its connection's and its seat's."""
        own = self._conns.setdefault(conn, {})
        windows = [own.setdefault(what, Window(*limit))]
        if seat is not None:
            windows.append(self._seats.setdefault((what, seat), Window(*limit)))
        return windows
