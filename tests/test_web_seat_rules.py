"""What a seat may know and do at a web table with its clock, stand-ins and claims, proved on the
manager itself (no server): the states each seat and a spectator are sent, and the requests a seat
may make for itself only."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import until
from upriver.web.play import hints
from upriver.web.play.messages import Bid, Claim, Hint, ProtocolError, parse_client
from upriver.web.play.settings import TableSettings
from upriver.web.play.table import Table, TableRefusalError
from upriver.web.play.tables import Manager
from upriver.web.seats.holders import Connection
from upriver.web.store import Event, SqliteTableStore


@pytest.fixture
def manager(tmp_path: Path) -> Iterator[Manager]:
    store = SqliteTableStore(tmp_path / "tables.db")
    try:
        yield Manager(store, bot_delay=0.0)
    finally:
        store.close()


@pytest.fixture
def ace_of_trumps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables created in this test are dealt from a seed that gives seat 0 the ace of trumps in a
    first round of one card each (three seats): Ann can see that she takes the trick, so may claim."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: 12)


def seated(manager: Manager, options: dict[str, object], **settings: object) -> Table:
    """A table of three people, every seat joined."""
    table, _token = manager.create(
        name="Ann", seats=["human", "human", "human"], options=options, settings=TableSettings.of(settings)
    )
    manager.join(table, 1, "Bea")
    manager.join(table, 2, "Cid")
    assert table.game is not None
    return table


def state_of(table: Table, seat: int | None) -> dict[str, Any]:
    text, _rounds = table.states.message(table, seat, -1, "")
    message: dict[str, Any] = json.loads(text)
    return message


def test_an_automatic_bid_stays_hidden_from_the_others_until_every_seat_has_bid(manager: Manager) -> None:
    table = seated(manager, {"schedule": [2, 2], "bidding": "simultaneous", "dealer_bid": "free"}, clock=30)
    game = table.game
    assert game is not None
    bid = game.legal_bids(0)[-1]
    assert manager.standins.automatic_move(table, 0, bid, table.version)
    for viewer in (1, 2, None):
        (entry,) = state_of(table, viewer)["automatic"]
        assert entry["seat"] == 0
        assert "bid" not in entry, f"seat {viewer} was told seat 0's hidden bid"
    (own,) = state_of(table, 0)["automatic"]
    assert own["bid"] == bid
    manager.standins.automatic_move(table, 1, game.legal_bids(1)[0], table.version)
    manager.standins.automatic_move(table, 2, game.legal_bids(2)[0], table.version)
    assert game.phase.name == "PLAYING"
    for viewer in (1, 2, None):  # every bid is shown now, so is the automatic one
        assert [entry.get("bid") for entry in state_of(table, viewer)["automatic"]] == [
            bid,
            game.bids[1],
            game.bids[2],
        ]


def bid_all(manager: Manager, table: Table) -> None:
    """Every seat makes its first legal bid, as the person at it."""
    game = table.game
    assert game is not None
    while game.phase.name == "BIDDING":
        seat = game.awaiting[0]
        manager.act(table, seat, Bid(id=f"b{seat}", v=table.version, bid=game.legal_bids(seat)[0]))


@pytest.mark.usefixtures("ace_of_trumps")
def test_a_person_a_bot_plays_for_may_not_claim_until_they_are_back(manager: Manager) -> None:
    table = seated(manager, {"schedule": [1, 1]})
    bid_all(manager, table)
    game = table.game
    assert game is not None
    assert game.can_claim(0), "Ann holds the ace of trumps: her claim holds"
    manager.standins.leave(table, 0)
    version = table.version
    with pytest.raises(TableRefusalError) as refused:
        manager.claims.claim(table, 0, Claim(id="c1", v=version))
    assert refused.value.rule == "back"
    assert "back" in str(refused.value)
    assert table.version == version
    manager.standins.back(table, 0)
    manager.claims.claim(table, 0, Claim(id="c2", v=table.version))
    assert table.claim is not None


def test_a_claim_may_not_use_the_servers_own_move_ids(manager: Manager) -> None:
    table = seated(manager, {"schedule": [1, 1]})
    bid_all(manager, table)
    version = table.version
    for server_id in ("clock", "standin"):
        with pytest.raises(TableRefusalError) as refused:
            manager.claims.claim(table, 1, Claim(id=server_id, v=version))
        assert refused.value.rule == "duplicate"
        assert "server" in str(refused.value)
    assert table.version == version


def test_a_confirm_another_server_process_stored_first_is_no_error_and_keeps_the_confirming_page(
    manager: Manager,
) -> None:
    table, _token = manager.create(name="Ann", seats=["human", "human", "random"], options={"schedule": [2]})
    manager.join(table, 1, "Bea")
    assert table.joined_pending(1)
    page = Connection(1, token=table.tokens[1])  # a tab holding the seat's own token
    table.connections.add(page)
    # Bea's other tab, on another server process, confirms first.
    manager.store.append(table.id, Event(table.version + 1, "confirm", 1, "", None))
    manager.standins.confirm(table, 1)  # never an error: the join is confirmed either way
    assert not table.joined_pending(1)
    assert page.closing is None
    assert page.token == table.tokens[1]


def test_a_handover_without_a_seat_is_refused_naming_its_message_id() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client('{"type": "handover", "id": "h-1"}')
    assert refused.value.client_id == "h-1"
    assert refused.value.facts == {"field": "seat"}


def test_a_person_who_left_may_not_hand_another_seat_to_a_bot(tmp_path: Path) -> None:
    clock = [1_000_000.0]
    store = SqliteTableStore(tmp_path / "left.db")
    try:
        manager = Manager(store, bot_delay=0.0, now=lambda: clock[0])
        table = seated(manager, {"schedule": [2, 2]})
        clock[0] += 61  # nobody has connected: every seat has been away a minute
        manager.standins.leave(table, 1)
        version = table.version
        with pytest.raises(TableRefusalError) as refused:
            manager.standins.handover(table, 1, 2)
        assert refused.value.rule == "handover"
        assert "you left the table" in str(refused.value)
        assert table.version == version
        assert table.standin_reason(2) is None
        manager.standins.handover(table, 0, 2)  # a person still at the table may
        assert table.standin_reason(2) == "handover:0"
    finally:
        store.close()


@pytest.mark.usefixtures("ace_of_trumps")
def test_a_claim_is_the_persons_own_move_and_ends_their_automatic_moves_in_a_row(manager: Manager) -> None:
    table = seated(manager, {"schedule": [1, 1]}, clock=30)
    game = table.game
    assert game is not None
    while game.phase.name == "BIDDING":
        seat = game.awaiting[0]
        bid = game.legal_bids(seat)[0]
        if seat == 0:
            assert manager.standins.automatic_move(table, 0, bid, table.version)
        else:
            manager.act(table, seat, Bid(id=f"b{seat}", v=table.version, bid=bid))
    assert table.auto_moves(0) == 1
    manager.claims.claim(table, 0, Claim(id="c", v=table.version))
    assert table.auto_moves(0) == 0


def test_hints_take_at_most_two_of_the_bots_threads_at_once(
    manager: Manager, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated(manager, {"schedule": [2], "bidding": "simultaneous", "dealer_bid": "free"}, hints=True)
    busy = 0
    most = 0
    lock = threading.Lock()

    def slow(view: Any, *, deals: int, seed: int) -> Any:
        nonlocal busy, most
        with lock:
            busy += 1
            most = max(most, busy)
        time.sleep(0.2)
        with lock:
            busy -= 1
        raise RuntimeError("no evaluation in this test")

    monkeypatch.setattr(hints, "evaluate", slow)

    async def ask_all() -> list[Connection]:
        pages = [Connection(seat, address=f"10.0.0.{seat}") for seat in range(3) for _tab in range(2)]
        for page in pages:
            hints.ask_hint(table, page, Hint())
        await until(lambda: not hints.queue().jobs, "every hint asked worked out")
        return pages

    pages = asyncio.run(ask_all())
    assert most == hints.HINTS_AT_ONCE == 2
    for page in pages:  # each was answered (here: that it failed), none forgotten
        assert any('"case": "failed"' in message for message in page.outbox)
