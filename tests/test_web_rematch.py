"""A rematch through the HTTP API and the WebSocket: the same seats, bots, rules and pace on a new
deal, started by any person seated at a finished table, each seat told only its own link; on both
stores (SQLite, then PostgreSQL: ``tests/pg.py``), which keep one rematch per finished table."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.pg import PostgresServer, query, write
from tests.webclient import Client, create, tables_loaded
from upriver.actions import Phase
from upriver.database import DuplicateKeyError
from upriver.rules import Rules
from upriver.web.app import create_app
from upriver.web.play.protocol import rules_json
from upriver.web.play.tables import Table
from upriver.web.store import open_table_store

SEATS = ["human", "human", "basic", "random"]


def token_of(url: str) -> str | None:
    """The seat token in a link's fragment (``#token=…``), or ``None``."""
    return url.partition("#token=")[2] or None


def summary(client: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    """The table as the start page lists it for ``token``'s seat (``GET /api/tables/{id}``)."""
    response = client.get(f"/api/tables/{table}", params={} if token is None else {"token": token})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def seat_opened(client: TestClient, table: str, url: str) -> int | None:
    """The seat the link ``url`` opens at ``table``, as the table's summary says."""
    seat: int | None = summary(client, table, token_of(url))["seat"]
    return seat


class Finished:
    """A table of two people and two bots at the fast pace, played to its end over the WebSocket; the
    two people's and a spectator's connections stay open."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack, **options: Any) -> None:
        body = create(client, seats=SEATS, schedule=[1, 2], pace="fast", dealer_bid="hook", **options)
        self.id: str = body["table"]
        self.table: Table = manager_of(client).tables[self.id]
        invite = self.table.tokens[1]
        self.clients: list[Client] = []
        for seat, token in ((0, body["token"]), (1, invite)):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{self.id}?token={token}"))
            member = Client(ws, self.table, seat)
            member.state()
            self.clients.append(member)
        self.clients[1].send(type="join", name="Bea")
        spectator_ws = stack.enter_context(client.websocket_connect(f"/ws/{self.id}"))
        self.spectator = Client(spectator_ws, self.table, None)
        self.spectator.state()
        self.tokens = list(self.table.tokens)  # each person's seat token once joined
        while True:
            states = [self.settle(member) for member in self.clients]
            game = self.table.game
            assert game is not None
            if game.is_over:
                break
            seat = game.awaiting[0]
            assert seat in (0, 1), "the bots move on their own"
            state = states[seat]["game"]
            if game.phase is Phase.BIDDING:
                bid = next(option["bid"] for option in state["bid_options"] if option["legal"])
                self.clients[seat].act("bid", bid)
            else:
                self.clients[seat].act(
                    "play", next(entry["card"] for entry in state["hand"] if entry["legal"])
                )

    def settle(self, member: Client) -> dict[str, Any]:
        """Read states until this client has seen the table's current version with nobody to wait for."""
        while True:
            message = member.state()
            game = self.table.game
            if (
                message["v"] == self.table.version
                and self.table.committing is None  # (a state at the same version may come first)
                and not self.table.waiting
                and (game is None or game.is_over or set(game.awaiting) & {0, 1})
            ):
                return message


def rematch_message(member: Client) -> dict[str, Any]:
    """The next ``rematch`` message this client receives (states before it are read and kept)."""
    while True:
        message = member.receive()
        if message["type"] == "rematch":
            return message


def test_a_rematch_seats_the_same_people_and_bots_under_the_same_rules_and_pace_on_a_new_deal(
    client: TestClient,
) -> None:
    with contextlib.ExitStack() as stack:
        old = Finished(client, stack)
        answer = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[0]})
        assert answer.status_code == 201, answer.text
        body = answer.json()
        assert body["created"] is True
        assert body["by"] == "Ann"
        assert body["table"] != old.id
        seats, before = summary(client, body["table"])["seats"], summary(client, old.id)["seats"]
        assert [seat["kind"] for seat in seats] == [seat["kind"] for seat in before]
        assert [seat["name"] for seat in seats[2:]] == [seat["name"] for seat in before[2:]]  # the same bots
        assert summary(client, body["table"])["pace"] == "fast"
        rules = client.get(f"/api/tables/{body['table']}/rules").json()
        assert rules == client.get(f"/api/tables/{old.id}/rules").json()
        # Which table it replays and its deal's seed are the server's own: no page is shown them.
        new = manager_of(client).tables[body["table"]]
        assert new.rematch_of == old.id
        assert new.seed != old.table.seed  # a new deal
        # The one who started it sits in their old seat under their name; Bea's seat waits for her.
        assert [seat["name"] for seat in seats[:2]] == ["Ann", None]
        assert seat_opened(client, body["table"], body["url"]) == 0


def test_each_seat_gets_only_its_own_link_and_pressing_again_starts_nothing_new(client: TestClient) -> None:
    with contextlib.ExitStack() as stack:
        old = Finished(client, stack)
        first = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[1]}).json()
        assert first["by"] == "Bea"
        again = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[0]})
        assert again.status_code == 200
        second = again.json()
        assert second["created"] is False
        assert second["table"] == first["table"]
        new = manager_of(client).tables[first["table"]]  # for the Client, which checks what a seat is shown
        assert tables_loaded(client) == 2  # the finished table and one rematch
        assert seat_opened(client, new.id, first["url"]) == 1
        assert seat_opened(client, new.id, second["url"]) == 0  # Ann's invite, not Bea's seat
        assert token_of(first["url"]) != token_of(second["url"])
        # Every connection was told, each with its own seat's link; the spectator with no token.
        told = [rematch_message(member) for member in old.clients]
        for seat, message in enumerate(told):
            assert message["table"] == new.id
            assert message["by"] == "Bea"
            assert seat_opened(client, new.id, message["url"]) == seat
        watching = rematch_message(old.spectator)
        assert watching["url"].endswith(f"/t/{new.id}")
        assert token_of(watching["url"]) is None
        # Ann, who was told, takes her seat: the rematch starts.
        ws = stack.enter_context(client.websocket_connect(f"/ws/{new.id}?token={token_of(told[0]['url'])}"))
        ann = Client(ws, new, 0)
        ann.state()
        ann.send(type="join", name="Ann")
        state = ann.state()
        while state["game"] is None:
            state = ann.state()
        assert state["game"]["players"][:2] == ["Ann", "Bea"]


def test_the_one_who_pressed_rematch_gets_no_other_seats_link_and_may_not_give_their_seats_away(
    client: TestClient,
) -> None:
    with contextlib.ExitStack() as stack:
        old = Finished(client, stack)
        body = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[1]}).json()
        new = manager_of(client).tables[body["table"]]
        bea_token = token_of(body["url"])
        assert bea_token is not None
        assert seat_opened(client, new.id, body["url"]) == 1
        ann_token = new.tokens[0]  # Ann's link, which only Ann is told: the server's own, to look for
        assert ann_token is not None
        ws = stack.enter_context(client.websocket_connect(f"/ws/{new.id}?token={bea_token}"))
        state = Client(ws, new, 1).state()
        assert ann_token not in json.dumps(state)
        assert "invites" not in state["lobby"]
        listed = client.get(f"/api/tables/{new.id}", params={"token": bea_token})
        assert listed.status_code == 200
        assert ann_token not in listed.text
        assert listed.json()["host"] is False
        given = client.post(f"/api/tables/{new.id}/seats/0/bot", json={"token": bea_token, "kind": "basic"})
        assert given.status_code == 403
        assert "creator" in given.json()["error"]
        assert summary(client, new.id)["seats"][0] == {
            "seat": 0,
            "name": None,
            "kind": "human",
            "joined": False,
        }


def test_a_rematch_is_refused_while_the_game_is_on_and_to_a_spectator_or_a_wrong_token(
    client: TestClient,
) -> None:
    body = create(client, seats=SEATS, schedule=[3])
    table_id = body["table"]
    before = tables_loaded(client)
    on = client.post(f"/api/tables/{table_id}/rematch", json={"token": body["token"]})
    assert on.status_code == 409
    assert "once the game is over" in on.json()["error"]
    wrong = client.post(f"/api/tables/{table_id}/rematch", json={"token": "not-a-token"})
    assert wrong.status_code == 403
    assert "opens no seat" in wrong.json()["error"]
    empty = client.post(f"/api/tables/{table_id}/rematch", json={"token": ""})
    assert empty.status_code == 403
    missing = client.post(f"/api/tables/{table_id}/rematch", json={})
    assert missing.status_code == 400
    assert "token" in missing.json()["error"]
    assert client.post("/api/tables/none/rematch", json={"token": body["token"]}).status_code == 404
    assert tables_loaded(client) == before  # nothing was made


def test_a_person_who_was_away_gets_their_own_link_later_even_after_a_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as client, contextlib.ExitStack() as stack:
        old = Finished(client, stack)
        assert client.get(f"/api/tables/{old.id}/rematch?token={old.tokens[1]}").json()["table"] is None
        made = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[0]}).json()
        tokens = old.tokens
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        later = client.get(f"/api/tables/{old.id}/rematch?token={tokens[1]}")
        assert later.status_code == 200
        body = later.json()
        assert body["table"] == made["table"]
        assert seat_opened(client, made["table"], body["url"]) == 1
        spectator = client.get(f"/api/tables/{old.id}/rematch").json()
        assert token_of(spectator["url"]) is None
        assert client.get(f"/api/tables/{old.id}/rematch?token=nope").status_code == 403


def test_the_join_page_gets_the_tables_rules_before_the_game_starts(client: TestClient) -> None:
    body = create(client, seats=SEATS, preset="classic-hook")
    assert not summary(client, body["table"])["started"]  # Bea's seat is open
    rules = client.get(f"/api/tables/{body['table']}/rules")
    assert rules.status_code == 200
    assert rules.json() == rules_json(Rules.from_options({"preset": "classic-hook"}, player_count=4))
    assert client.get("/api/tables/none/rules").status_code == 404


def test_the_store_keeps_one_rematch_per_finished_table_and_refuses_a_second_writing_nothing(db: str) -> None:
    store = open_table_store(db)
    try:
        config = {"kinds": ["human"] * 3, "tokens": [None] * 3, "names": [None] * 3, "creator": 0, "seed": 1}
        store.add_table("old", {**config, "options": {}})
        assert store.rematch("old") is None
        store.add_table("first", {**config, "options": {}, "rematch_of": "old"})
        with pytest.raises(DuplicateKeyError):  # another process's rematch of the same table
            store.add_table("second", {**config, "options": {}, "rematch_of": "old"})
        assert store.rematch("old") == "first"
        assert [row.id for row in store.tables()] == ["old", "first"]  # nothing of the second was kept
        assert store.table("second") is None
        store.add_table("other", {**config, "options": {}, "rematch_of": "first"})  # a rematch of a rematch
        assert store.rematch("first") == "other"
    finally:
        store.close()


def test_of_two_presses_racing_in_two_processes_the_later_one_answers_the_rematch_made_first(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres_server.url(postgres_server.create_database())
    with TestClient(create_app(url, bot_delay=0.0)) as first, contextlib.ExitStack() as stack:
        old = Finished(first, stack)
        with TestClient(create_app(url, bot_delay=0.0)) as second:
            other = manager_of(second)
            asked = iter((None,))
            stored = other.store.rematch
            # Bea's process looked before Ann's committed hers (so it found none), and stores after.
            monkeypatch.setattr(other.store, "rematch", lambda table_id: next(asked, stored(table_id)))
            made = first.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[0]})
            assert made.status_code == 201
            answer = second.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[1]})
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["created"] is False
            assert body["table"] == made.json()["table"]
            new = other.tables[body["table"]]
            assert new.seat_of(token_of(body["url"])) == 1  # Bea's own invite
            rows = query(url, "SELECT id FROM tables WHERE config LIKE ?", (f'%"rematch_of": "{old.id}"%',))
            assert len(rows) == 1  # one rematch was stored
            assert list(asked) == []  # the look before storing found none, as in the race


def test_a_rematch_stored_before_the_store_kept_rematches_apart_is_still_found_and_not_made_again(
    db: str,
) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as client, contextlib.ExitStack() as stack:
        old = Finished(client, stack)
        made = client.post(f"/api/tables/{old.id}/rematch", json={"token": old.tokens[0]}).json()
        tokens = old.tokens
    assert write(db, "DELETE FROM rematches") == 1  # as a database from before kept it: in its config only
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        later = client.get(f"/api/tables/{old.id}/rematch?token={tokens[1]}").json()
        assert later["table"] == made["table"]
        again = client.post(f"/api/tables/{old.id}/rematch", json={"token": tokens[1]})
        assert again.status_code == 200
        assert again.json()["table"] == made["table"]
