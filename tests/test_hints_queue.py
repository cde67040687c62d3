"""Hints under a flood (:mod:`upriver.web.play.hints`), on the manager itself: one evaluation per position
whoever asks, bounded queues per seat, table and client address refused in words with the rule as
data, and tables served in turn."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import until
from upriver.review import evaluate
from upriver.web.play import hints
from upriver.web.play.messages import Bid, Hint
from upriver.web.play.settings import TableSettings
from upriver.web.play.table import Table
from upriver.web.play.tables import Manager
from upriver.web.seats.holders import Connection
from upriver.web.store import SqliteTableStore

SIMULTANEOUS: dict[str, object] = {"schedule": [2, 2], "bidding": "simultaneous", "dealer_bid": "free"}
"""Every seat has a bid to choose at once: as many positions as seats."""


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[Manager]:
    store = SqliteTableStore(tmp_path / "tables.db")
    try:
        yield Manager(store, bot_delay=0.0)
    finally:
        store.close()


def practice(manager: Manager, seats: int = 3) -> Table:
    """A table with hints of ``seats`` people, every seat joined, all bidding at once."""
    table, _token = manager.create(
        name="Ann", seats=["human"] * seats, options=SIMULTANEOUS, settings=TableSettings(hints=True)
    )
    for seat in range(1, seats):
        manager.join(table, seat, f"P{seat}")
    assert table.game is not None
    return table


class Gate:
    """An evaluation that waits until opened, and the positions evaluated, in order."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.order: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def __call__(self, view: Any, *, deals: int, seed: int) -> Any:
        with self.lock:
            self.order.append((len(view.players), view.seat))
        assert self.open.wait(10)
        return evaluate(view, deals=8, seed=seed)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    held = Gate()
    monkeypatch.setattr(hints, "evaluate", held)
    return held


def ask(table: Table, conn: Connection, id: str = "h") -> None:
    hints.ask_hint(table, conn, Hint(id=id))


async def settled() -> None:
    """Until every hint asked was worked out."""
    await until(lambda: not hints.queue().jobs, "every hint asked worked out")


def answers(conn: Connection) -> list[dict[str, Any]]:
    return [json.loads(text) for text in conn.outbox]


def test_every_connection_asking_for_one_position_gets_the_same_answer_from_one_evaluation(
    manager: Manager, gate: Gate
) -> None:
    table = practice(manager)

    async def scenario() -> tuple[list[Connection], int, int]:
        tabs = [Connection(0, address=f"10.0.0.{n}") for n in range(8)]  # one seat, eight tabs
        for tab in tabs:
            ask(table, tab)
        gate.open.set()
        await settled()
        started = hints.queue().evaluations
        again = Connection(0)
        ask(table, again)  # asked later: answered at once
        tabs.append(again)
        return tabs, started, hints.queue().evaluations

    tabs, started, after = asyncio.run(scenario())
    assert len(gate.order) == 1
    assert started == after == 1
    texts = {conn.outbox[-1] for conn in tabs}
    assert len(texts) == 1
    assert json.loads(texts.pop())["type"] == "hint"


def test_a_seat_a_table_and_an_address_each_have_a_bounded_queue_refused_in_words(
    manager: Manager, gate: Gate
) -> None:
    big = practice(manager, seats=6)
    others = [practice(manager) for _ in range(2)]

    async def scenario() -> dict[str, dict[str, Any]]:
        refused: dict[str, dict[str, Any]] = {}
        # A table: four positions wait at most (each seat from an address of its own).
        for seat in range(6):
            conn = Connection(seat, address=f"10.1.0.{seat}")
            ask(big, conn)
            if seat == 4:
                refused["table"] = answers(conn)[-1]
        # An address: four positions at most, whatever the tables.
        flood = [Connection(seat, address="10.9.9.9") for seat in range(3)]
        flood += [Connection(seat, address="10.9.9.9") for seat in range(3)]
        for n, conn in enumerate(flood):
            ask(others[n // 3], conn)
        refused["address"] = answers(flood[4])[-1]
        assert answers(flood[3]) == []  # the fourth was queued
        gate.open.set()
        await settled()
        return refused

    refused = asyncio.run(scenario())
    table, address = refused["table"], refused["address"]
    assert (table["type"], table["rule"]) == ("error", "hint")
    assert table["facts"] == {"case": "queue", "scope": "table", "limit": hints.QUEUED_PER_TABLE}
    assert "4 hints are being worked out for this table" in table["message"]
    assert address["facts"] == {"case": "queue", "scope": "address", "limit": hints.QUEUED_PER_ADDRESS}
    assert "for your connections" in address["message"]
    assert len(gate.order) == hints.QUEUED_PER_TABLE + hints.QUEUED_PER_ADDRESS


def test_a_seats_queue_holds_two_positions_then_refuses_a_third(manager: Manager, gate: Gate) -> None:
    table = practice(manager)

    async def scenario() -> dict[str, Any]:
        ask(table, Connection(0, address="a"))
        for seat in (1, 2):  # the others bid while seat 0's hint waits: it has a new position each time
            manager.act(table, seat, Bid(id=f"b{seat}", v=table.version, bid=0))
            tab = Connection(0, address=f"t{seat}")
            ask(table, tab)
        refused = answers(tab)[-1]
        gate.open.set()
        await settled()
        return refused

    refused = asyncio.run(scenario())
    assert refused["facts"] == {"case": "queue", "scope": "seat", "limit": hints.QUEUED_PER_SEAT}
    assert "for this seat" in refused["message"]


def test_tables_take_turns_so_a_flooding_table_does_not_hold_up_another(manager: Manager, gate: Gate) -> None:
    flooding = practice(manager, seats=4)
    quiet = practice(manager, seats=3)

    async def scenario() -> None:
        hints._queues[asyncio.get_running_loop()] = hints.HintQueue(at_once=1)
        for seat in range(4):
            ask(flooding, Connection(seat, address=f"f{seat}"))
        ask(quiet, Connection(0, address="q"))
        gate.open.set()
        await settled()

    asyncio.run(scenario())
    # The flooding table's first was under way; the quiet table's came next, before its three others.
    assert gate.order[:2] == [(4, 0), (3, 0)]
    assert sorted(gate.order[2:]) == [(4, 1), (4, 2), (4, 3)]


def test_a_hint_still_waiting_when_its_table_moved_on_is_not_worked_out(manager: Manager, gate: Gate) -> None:
    table = practice(manager)

    async def scenario() -> Connection:
        hints._queues[asyncio.get_running_loop()] = hints.HintQueue(at_once=1)
        ask(table, Connection(0, address="a"))
        late = Connection(1, address="b")
        ask(table, late)
        assert table.game is not None
        manager.act(table, 2, Bid(id="b", v=table.version, bid=0))  # the table moves on
        gate.open.set()
        await settled()
        return late

    late = asyncio.run(scenario())
    assert gate.order == [(3, 0)]
    assert answers(late) == []


def test_one_address_has_one_hint_worked_out_at_a_time_so_anothers_starts_when_it_comes(
    manager: Manager, gate: Gate
) -> None:
    flooding = [practice(manager, seats=4), practice(manager, seats=5)]
    quiet = practice(manager)

    async def scenario() -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        for table in flooding:
            for seat in range(2):
                ask(table, Connection(seat, address="10.6.6.6"))
        await until(lambda: gate.order, "the flood's first hint under way")
        alone = list(gate.order)
        ask(quiet, Connection(0, address="10.0.0.1"))
        # the flood's other three wait behind its first, so the next to start is the quiet table's
        await until(lambda: len(gate.order) >= 2, "a second hint under way")
        started = list(gate.order)
        gate.open.set()
        await settled()
        return alone, started

    alone, started = asyncio.run(scenario())
    assert alone == [(4, 0)]
    assert started == [(4, 0), (3, 0)]  # the quiet table's hint started at once
    assert len(gate.order) == 5
