"""A move committed off the event loop (as over PostgreSQL) takes the same path as one committed at
once: the same refusals, the same bound on retries when other server processes keep storing first,
the same events stored and states announced."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.waiting import until
from upriver.web.play.messages import Bid
from upriver.web.play.tables import CommitError, Manager, Table
from upriver.web.seats.holders import Connection
from upriver.web.store import Event, VersionConflictError
from upriver.web.store.sqlite import SqliteTableStore


class RacedStore(SqliteTableStore):
    """A store where, once ``raced`` is set, another process seems to store every version first
    (and yet none can be read back: the retries never catch up)."""

    raced = False

    def append(self, table_id: str, event: Event) -> None:
        if self.raced:
            raise VersionConflictError(table_id, event.version, event.version)
        super().append(table_id, event)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RacedStore]:
    store = RacedStore(tmp_path / "tables.db")
    try:
        yield store
    finally:
        store.close()


def _seated(manager: Manager) -> Table:
    table, _ = manager.create(name="Ann", seats=["human"] * 3, options={})
    manager.join(table, 1, "Bob")
    manager.join(table, 2, "Cid")
    assert table.game is not None
    return table


def _first_bid(table: Table) -> tuple[int, str]:
    assert table.game is not None
    seat = table.game.awaiting[0]
    return seat, f'{{"type":"bid","bid":{table.game.legal_bids(seat)[0]},"id":"m1","v":{table.version}}}'


def test_a_background_commit_gives_up_after_the_same_retries_as_one_made_at_once(store: RacedStore) -> None:
    async def play() -> Exception:
        manager = Manager(store, bot_delay=0.0, background=True)
        try:
            table = _seated(manager)
            seat, text = _first_bid(table)
            store.raced = True
            told: asyncio.Future[Exception] = asyncio.get_running_loop().create_future()
            manager.act(table, seat, Bid.model_validate_json(text), refused=told.set_result)
            return await asyncio.wait_for(told, 5)
        finally:
            manager.close()

    error = asyncio.run(play())
    assert isinstance(error, CommitError)
    assert "nothing changed" in str(error)


@pytest.mark.parametrize("background", [False, True])
def test_a_move_is_stored_applied_and_announced_alike_whether_committed_at_once_or_in_the_background(
    store: RacedStore, background: bool
) -> None:
    async def play() -> tuple[list[Event], int, bool]:
        manager = Manager(store, bot_delay=0.0, background=background)
        try:
            table = _seated(manager)
            watcher = Connection(None)
            table.connections.add(watcher)
            watcher.dirty = False
            seat, text = _first_bid(table)
            before = table.version
            told: list[Exception] = []
            manager.act(table, seat, Bid.model_validate_json(text), refused=told.append)
            await until(lambda: table.version > before, "the bid committed in the background and applied")
            assert told == []
            return store.events(table.id), table.version, watcher.dirty
        finally:
            manager.close()

    events, version, told_watcher = asyncio.run(play())
    assert events[-1].kind == "bid"
    assert events[-1].client_id == "m1"
    assert version == events[-1].version
    assert told_watcher
