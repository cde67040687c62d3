"""A PostgreSQL outage mid-game: the server it stores in stops (as if it crashed) under a live table.

Every move sent meanwhile is refused as a failed commit (the ``store`` error reply), nothing is
applied or announced, HTTP writes answer 503 with a sentence, never a 500; when the database is
back the same move goes through and the game goes on from exactly where it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.pg import PostgresServer, query
from tests.waiting import wait_until
from tests.webclient import Room
from upriver.web.app import create_app

HOOK = {"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic-hook", "schedule": [1, 2, 1], "dealer": 0}


@pytest.fixture
def own_server(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    """A private server of this test alone (the session's keeps running), stopped at will."""
    server = PostgresServer()
    server.start()
    yield server
    server.close()


@pytest.mark.slow
def test_moves_during_an_outage_are_refused_unapplied_and_unannounced_and_go_through_once_it_is_back(
    own_server: PostgresServer,
) -> None:
    db = own_server.url(own_server.create_database())
    with TestClient(create_app(db, bot_delay=0.0)) as client, contextlib.ExitStack() as stack:
        room = Room(client, stack, schedule=[2])
        room.move()
        sheet = client.post("/api/sheets", json=HOOK).json()
        log, version = room.game.log, room.table.version
        seat = room.game.awaiting[0]
        bid = room.game.legal_bids(seat)[0]
        seen = [member.received[-1] for member in room.clients]

        own_server.stop("immediate")  # no shutdown: the connections just break
        for attempt in range(2):  # the broken pooled connection, then no connection at all
            sent = room.clients[seat].act("bid", bid, id=f"outage-{attempt}")
            error = room.clients[seat].error()
            assert error["rule"] == "store", error
            assert error["id"] == sent
            assert "could not save this bid; nothing changed" in error["message"]
            assert room.game.log == log
            assert room.table.version == version
            assert sent not in room.table.seen[seat]
        for member, before in zip(room.clients, seen, strict=True):
            member.send(type="sync")
            assert member.state()["v"] == before["v"] == version
        created = client.post("/api/tables", json={"name": "Eve", "seats": ["human", "basic", "basic"]})
        assert created.status_code == 503, created.text
        assert created.json()["rule"] == "store"
        assert "nothing changed: try again" in created.json()["error"]
        read = client.get(f"/api/sheets/{sheet['id']}")
        assert read.status_code == 503, read.text
        entered = client.post(f"/api/sheets/{sheet['id']}/bid", json={"seat": 1, "bid": 0})
        assert entered.status_code == 503, entered.text

        own_server.start()

        def bid_taken() -> bool:
            """Send the bid again; whether it was taken (else it was refused for the store)."""
            room.clients[seat].act("bid", bid)
            reply = room.clients[seat].receive()
            while reply["type"] == "state" and reply["v"] == version:  # a fresh copy, not the answer
                reply = room.clients[seat].receive()
            if reply["type"] == "state":
                assert reply["v"] == version + 1
                return True
            assert reply["rule"] == "store", reply
            return False

        wait_until(bid_taken, "the store to come back and take the bid", timeout=60, every=0.5)
        for member in room.clients:
            if member is not room.clients[seat]:  # the mover has just read it
                room.settle(member)
        assert room.table.version == version + 1
        assert room.game.bids[seat] == bid
        # The sheets' store has a pool of its own, which reconnects on its own schedule (backing off).

        def sheet_read() -> httpx.Response | None:
            answer = client.get(f"/api/sheets/{sheet['id']}")
            return None if answer.status_code == 503 else answer

        read = wait_until(sheet_read, "the sheets' store to come back", timeout=60, every=0.5)
        assert read.status_code == 200, read.text
        assert read.json()["version"] == sheet["version"], "the refused entry was not kept"
        rows = query(
            db, "SELECT version, kind, value FROM events WHERE table_id = ? ORDER BY version", (room.id,)
        )
        assert [int(str(v)) for v, _, _ in rows] == list(range(1, version + 2))
        assert rows[-1][1:] == ("bid", str(bid))
        room.move()  # and the game goes on
        assert room.table.version == version + 2
