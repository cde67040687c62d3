"""A table's presence, counted from connections on this process and news of the others.

Whatever the order of opens, closes, news and expiries, a seat is online exactly when some
process holds a connection of it, its ``away_since`` is the moment its last one went, the
number watching is every process's spectators, and a change is reported exactly when one of
those shows differently. The roster's notifications carry a process's counts to another.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from upriver.web.seats.presence import EXPIRY, Presence, Roster

SEATS = 3
PROCESSES = ("a", "b")

steps = st.lists(
    st.one_of(
        st.tuples(st.just("open"), st.sampled_from([None, 0, 1, 2])),
        st.tuples(st.just("close"), st.sampled_from([None, 0, 1, 2])),
        st.tuples(
            st.just("news"),
            st.sampled_from(PROCESSES),
            st.lists(st.integers(0, 2), min_size=SEATS, max_size=SEATS),
            st.integers(0, 2),
        ),
        st.tuples(st.just("forget"), st.sampled_from(PROCESSES)),
        st.tuples(st.just("wait"), st.floats(0.1, 5.0)),
    ),
    max_size=40,
)


@given(steps)
def test_a_seat_is_online_exactly_while_some_process_holds_a_connection_of_it(script: list[Any]) -> None:
    presence = Presence(SEATS, since=100.0)
    now = 100.0
    local = [0] * SEATS
    spectators = 0
    remote: dict[str, tuple[list[int], int, float]] = {}
    shown = ([True] * SEATS, 0)  # away everywhere, nobody watching
    away: list[float | None] = [100.0] * SEATS
    for step in script:
        kind = step[0]
        if kind == "open":
            seat = step[1]
            if seat is None:
                spectators += 1
            else:
                local[seat] += 1
            changed = presence.connect(seat, now)
        elif kind == "close":
            seat = step[1]
            if seat is None:
                spectators = max(0, spectators - 1)
            else:
                local[seat] = max(0, local[seat] - 1)
            changed = presence.disconnect(seat, now)
        elif kind == "news":
            _, process, seats, watching = step
            if any(seats) or watching:
                remote[process] = (seats, watching, now)
            else:
                remote.pop(process, None)
            changed = presence.heard(process, seats, watching, now)
        elif kind == "forget":
            remote.pop(step[1], None)
            changed = presence.forget(step[1], now)
        else:
            now += step[1]
            expired = {p: heard for p, (_, _, heard) in remote.items() if heard < now - EXPIRY}
            for process in expired:
                del remote[process]
            changed = presence.expire(now - EXPIRY, now)
        # A seat goes away when its last connection went: now, or when an expired process was last heard.
        when = max(expired.values()) if kind == "wait" and expired else now
        online = [local[s] > 0 or any(seats[s] > 0 for seats, _, _ in remote.values()) for s in range(SEATS)]
        watching_now = spectators + sum(w for _, w, _ in remote.values())
        for seat in range(SEATS):
            if online[seat]:
                away[seat] = None
            elif away[seat] is None:
                away[seat] = when
        now_shown = ([not on for on in online], watching_now)
        assert changed == (now_shown != shown)
        shown = now_shown
        assert [presence.online(s) for s in range(SEATS)] == online
        assert [presence.away_since(s) for s in range(SEATS)] == away
        assert presence.watching() == watching_now
        assert presence.local() == (tuple(local), spectators)


class _Table:
    """A live table as the roster sees it: its presence, and how often it was announced."""

    def __init__(self) -> None:
        self.presence = Presence(SEATS, since=0.0)
        self.announced = 0

    def announce(self) -> None:
        self.announced += 1


def test_one_processs_notifications_bring_its_connections_to_another_until_they_expire() -> None:
    clock = [10.0]
    sent: list[str] = []
    here, there = {"t1": _Table()}, {"t1": _Table(), "t2": _Table()}
    mine = Roster(here, sent.append, now=lambda: clock[0])
    theirs = Roster(there, None, now=lambda: clock[0])
    mine.connected("t1", 1)
    mine.connected("t1", None)
    mine.connected("t1", 1)  # a second tab
    for payload in sent:
        theirs.heard(payload)
    mine.heard(sent[0])  # its own news, come back, changes nothing
    assert here["t1"].presence.local() == ((0, 2, 0), 1)
    seen = there["t1"].presence
    assert seen.online(1)
    assert seen.watching() == 1
    assert seen.local() == ((0, 0, 0), 0), "what another process holds is not this one's"
    assert there["t1"].announced == 2  # once for the seat, once for the spectator
    [beat] = mine.beat()
    assert json.loads(beat) == ["h", mine.process, [["t1", [0, 2, 0], 1]]]
    clock[0] += EXPIRY - 0.5
    theirs.heard(beat)
    heard = clock[0]
    clock[0] += EXPIRY - 0.5
    assert theirs.beat() == []  # it holds no connection itself
    assert seen.online(1), "the heartbeat kept them"
    clock[0] += 1.0
    theirs.beat()
    assert not seen.online(1)
    assert seen.away_since(1) == heard, "away since the process was last heard of"
    assert seen.watching() == 0
    theirs.heard(beat)
    theirs.heard(mine.goodbye())
    assert not seen.online(1)
    theirs.heard("not json")  # an unreadable notification is ignored
    theirs.heard('["n", "x", "t1", "three", 0]')
    assert not seen.online(1)
