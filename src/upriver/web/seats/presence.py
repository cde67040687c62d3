"""Who is at a table: each seat online or away (and since when), and how many watch.

Presence is not an event and nothing of it is stored: it is counted from the WebSocket
connections. Each server process counts its own per table — per seat, so a person with two
tabs is one seat with two connections and online once, and its spectators — in the table's
:class:`Presence`. A seat is ``online`` while any process holds a connection of it; when the
last one goes it is ``away``, since that moment (``away_since``; a seat nobody connected to since
the table was loaded here — made, or read at start-up — is away since then). A change that
shows (a seat's online or away, the number watching) refreshes every connection's state at the
same version
(:meth:`upriver.web.play.table.Table.announce`, which bumps the states' epoch).

With one process (SQLite) that is all. Over PostgreSQL (:mod:`upriver.web.cluster.news`) each process
is a :class:`Roster` too: whenever its counts of a table change it tells the others on the
cluster's presence channel (``["n", process, table, [count per seat], spectators]``), and every
:data:`HEARTBEAT` seconds it repeats the counts of every table it has connections at
(``["h", process, [[table, counts, spectators], …]]``, several notifications if need be), so
each process knows every other's connections. A process's counts of a table not heard for
:data:`EXPIRY` seconds are forgotten: the connections of a process killed without a word
(``kill -9``) turn away a few seconds later. A process that stops cleanly says so (``["b", process]``).

A browser that vanishes without closing its connection (frozen, its network gone) is found by the
server's WebSocket pings (:data:`PING_INTERVAL`, :data:`PING_TIMEOUT`): within nine seconds its
connection is closed and its seat is away.

The state's ``presence`` list (:func:`presence_json`) adds what the seats' control says: a bot's
seat is ``bot``, and a person's seat a stand-in plays for is ``bot`` or ``left``
(:meth:`upriver.web.play.table.Table.standin_status`), with its automatic moves in a row (``auto``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

__all__ = [
    "EXPIRY",
    "HEARTBEAT",
    "PING_INTERVAL",
    "PING_TIMEOUT",
    "STARTED",
    "Presence",
    "PresenceTable",
    "Roster",
    "presence_json",
]

log = logging.getLogger("upriver.web")

HEARTBEAT = 1.0
"""Seconds between a process's repetitions of its counts to the other processes."""
EXPIRY = 3.0
"""Seconds after which another process's counts of a table, not repeated, are forgotten."""
PING_INTERVAL = 4.0
"""Seconds between the server's WebSocket pings of each connection (uvicorn's ``ws_ping_interval``):
a browser gone without a word (frozen, its network lost) answers none, and its connection closes."""
PING_TIMEOUT = 5.0
"""Seconds a connection has to answer a ping (uvicorn's ``ws_ping_timeout``): a browser that answers,
however slow its network, stays online; one that does not is away at most
``PING_INTERVAL + PING_TIMEOUT`` seconds after it went."""
STARTED = time.time()
"""When this process started: a seat nobody connected since is away since then."""
_PAYLOAD = 7000
"""The most bytes of one heartbeat notification (PostgreSQL's limit is 8000)."""
_PERSON = "human"
"""The kind of a person's seat (:data:`upriver.web.play.table.HUMAN`); any other kind is a bot's."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Counts:
    """Another process's connections at one table, and when they were last heard of."""

    seats: tuple[int, ...]
    spectators: int
    heard: float


class Presence:
    """One table's presence (see the module): this process's connections per seat and spectators,
    the other processes' as last heard, and each seat's ``away_since``.

    ``since``: when the seats count as away from before any connection (default :data:`STARTED`).
    """

    def __init__(self, seats: int, *, since: float | None = None) -> None:
        start = STARTED if since is None else since
        self._local = [0] * seats
        self._spectators = 0
        self._remote: dict[str, _Counts] = {}
        self._away: list[float | None] = [start] * seats
        self._watching = 0

    def online(self, seat: int) -> bool:
        """Whether a connection of ``seat`` is open on any server process."""
        return self._away[seat] is None

    def away_since(self, seat: int) -> float | None:
        """When ``seat``'s last connection went (unix seconds), or ``None`` while it is online."""
        return self._away[seat]

    def watching(self) -> int:
        """How many spectator connections the table has, on every server process."""
        return self._watching

    def local(self) -> tuple[tuple[int, ...], int]:
        """This process's connections: per seat, and the spectators'."""
        return tuple(self._local), self._spectators

    def connect(self, seat: int | None, now: float) -> bool:
        """A connection of ``seat`` (``None``: a spectator) opened here; whether what shows changed."""
        if seat is None:
            self._spectators += 1
        else:
            self._local[seat] += 1
        return self._settle(now)

    def disconnect(self, seat: int | None, now: float) -> bool:
        """A connection of ``seat`` closed here; whether what shows changed."""
        if seat is None:
            self._spectators = max(0, self._spectators - 1)
        else:
            self._local[seat] = max(0, self._local[seat] - 1)
        return self._settle(now)

    def heard(self, process: str, seats: Sequence[int], spectators: int, now: float) -> bool:
        """Another process's connections here are now ``seats`` (a count per seat) and ``spectators``;
        whether what shows changed. Counts beyond the table's seats are ignored."""
        counts = tuple(max(0, int(n)) for n in seats[: len(self._local)])
        if any(counts) or spectators > 0:
            self._remote[process] = _Counts(counts, max(0, int(spectators)), now)
        else:
            self._remote.pop(process, None)
        return self._settle(now)

    def forget(self, process: str, now: float) -> bool:
        """Another process's connections here are gone; whether what shows changed."""
        if self._remote.pop(process, None) is None:
            return False
        return self._settle(now)

    def expire(self, before: float, now: float) -> bool:
        """Forget the other processes' counts not heard since ``before``; whether what shows changed.
        A seat they held goes away since they were last heard (not ``now``, a few seconds later)."""
        stale = {process: counts.heard for process, counts in self._remote.items() if counts.heard < before}
        for process in stale:
            del self._remote[process]
        return bool(stale) and self._settle(min(now, max(stale.values())))

    def _settle(self, now: float) -> bool:
        changed = False
        for seat, count in enumerate(self._local):
            online = count > 0 or any(
                seat < len(counts.seats) and counts.seats[seat] > 0 for counts in self._remote.values()
            )
            if online and self._away[seat] is not None:
                self._away[seat] = None
                changed = True
            elif not online and self._away[seat] is None:
                self._away[seat] = now
                changed = True
        watching = self._spectators + sum(counts.spectators for counts in self._remote.values())
        if watching != self._watching:
            self._watching = watching
            changed = True
        return changed


class PresenceTable(Protocol):
    """What a table's presence is shown from (:class:`upriver.web.play.table.Table`; its seats' control,
    ``standin_status(seat)`` and ``auto_moves(seat)``, is read where the table has it)."""

    kinds: list[str]
    presence: Presence


def presence_json(table: PresenceTable) -> list[dict[str, object]]:
    """The state's ``presence``: per seat its ``status`` (``online``, ``away``, ``bot``, ``left``),
    ``away_since`` (the person's, unix seconds, or ``None`` while connected) and ``auto``."""
    presence = table.presence
    standin: Callable[[int], str | None] = getattr(table, "standin_status", lambda seat: None)
    auto: Callable[[int], int] = getattr(table, "auto_moves", lambda seat: 0)
    out: list[dict[str, object]] = []
    for seat, kind in enumerate(table.kinds):
        if kind != _PERSON:
            out.append({"status": "bot", "away_since": None, "auto": 0})
            continue
        status = standin(seat) or ("online" if presence.online(seat) else "away")
        out.append({"status": status, "away_since": presence.away_since(seat), "auto": auto(seat)})
    return out


class RosterTable(Protocol):
    """A table as the roster tells its connections of a change (:class:`upriver.web.play.table.Table`)."""

    presence: Presence

    def announce(self) -> None:
        """Send every connection the newest state (at the same version)."""


class Roster:
    """This process's presence at every table, told to and by the other processes (see the module).

    ``tables``: the live tables by id; ``publish``: sends one notification on the cluster's presence
    channel (``None``: one process, nothing to tell); ``now``: the time (tests may drive it).
    """

    def __init__(
        self,
        tables: Mapping[str, RosterTable],
        publish: Callable[[str], None] | None = None,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.publish = publish
        self.now = now
        self.process = secrets.token_hex(8)
        """This process's id in the notifications (its own are ignored when they come back)."""

    def connected(self, table_id: str, seat: int | None) -> None:
        """A connection of ``seat`` (``None``: a spectator) opened here at ``table_id``."""
        self._changed(table_id, seat, opened=True)

    def disconnected(self, table_id: str, seat: int | None) -> None:
        """A connection of ``seat`` closed here at ``table_id``."""
        self._changed(table_id, seat, opened=False)

    def _changed(self, table_id: str, seat: int | None, *, opened: bool) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        presence = table.presence
        now = self.now()
        shows = presence.connect(seat, now) if opened else presence.disconnect(seat, now)
        if shows:
            table.announce()
        if self.publish is not None:
            seats, spectators = presence.local()
            self.publish(json.dumps(["n", self.process, table_id, list(seats), spectators]))

    def heard(self, payload: str) -> None:
        """Apply another process's notification (an unreadable one is logged and ignored)."""
        try:
            news = json.loads(payload)
            what, process = str(news[0]), str(news[1])
            if process == self.process:
                return
            now = self.now()
            if what == "n":
                self._heard(process, [(str(news[2]), news[3], int(news[4]))], now)
            elif what == "h":
                self._heard(
                    process, [(str(t), seats, int(spectators)) for t, seats, spectators in news[2]], now
                )
            elif what == "b":
                for table in self.tables.values():
                    if table.presence.forget(process, now):
                        table.announce()
        except (ValueError, TypeError, IndexError, KeyError):
            log.warning("an unreadable presence notification was ignored: %.200r", payload)

    def _heard(self, process: str, news: Iterable[tuple[str, Sequence[int], int]], now: float) -> None:
        for table_id, seats, spectators in news:
            table = self.tables.get(table_id)
            if table is not None and table.presence.heard(process, [int(n) for n in seats], spectators, now):
                table.announce()

    def beat(self) -> list[str]:
        """This process's heartbeat notifications (the counts of every table it has connections at),
        after forgetting what other processes have not repeated for :data:`EXPIRY` seconds."""
        now = self.now()
        entries: list[str] = []
        for table_id, table in list(self.tables.items()):
            presence = table.presence
            if presence.expire(now - EXPIRY, now):
                table.announce()
            seats, spectators = presence.local()
            if any(seats) or spectators:
                entries.append(json.dumps([table_id, list(seats), spectators]))
        payloads: list[str] = []
        head = f'["h",{json.dumps(self.process)},['
        batch: list[str] = []
        size = len(head)
        for entry in entries:
            if batch and size + len(entry) + 3 > _PAYLOAD:
                payloads.append(head + ",".join(batch) + "]]")
                batch, size = [], len(head)
            batch.append(entry)
            size += len(entry) + 1
        if batch:
            payloads.append(head + ",".join(batch) + "]]")
        return payloads

    def goodbye(self) -> str:
        """The notification that this process's connections are all gone (it stops)."""
        return json.dumps(["b", self.process])
