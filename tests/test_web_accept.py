"""The web tables' one accept path: check with the engine, commit, apply, then announce.

Through the public HTTP and WebSocket API: bots' moves pass the same engine check as
people's, nothing refused is stored, nothing uncommitted is shown, a damaged store does
not stop the server, spectators get the table's view, and the lobby reads rule options
exactly as the engine does.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.pg import query, write
from tests.webclient import Client, Room, create
from upriver.actions import BidAction, PlayAction
from upriver.bots import Bot, make_bot
from upriver.cards import DECK, Card
from upriver.database import StoreError
from upriver.errors import RulesError
from upriver.game import Game
from upriver.rules import Rules
from upriver.view import SeatView
from upriver.web.app import create_app
from upriver.web.play.protocol import rules_json


def stored_events(db: str, table_id: str) -> list[tuple[int, str, int, str]]:
    """What the database holds of the table's events, read past the store."""
    rows = query(
        db, "SELECT version, kind, seat, value FROM events WHERE table_id = ? ORDER BY version", (table_id,)
    )
    return [(int(str(v)), str(k), int(str(s)), str(value)) for v, k, s, value in rows]


def play_to_the_end(me: Client) -> dict[str, Any]:
    """Seat ``me`` makes its first legal move whenever it is its turn; returns the final game state."""
    while True:
        state = me.state()["game"]
        if state is None:
            continue
        if state["over"]:
            return dict(state)
        if state["my_turn"]:
            if state["bid_options"]:
                me.act("bid", next(o["bid"] for o in state["bid_options"] if o["legal"]))
            else:
                me.act("play", next(h["card"] for h in state["hand"] if h["legal"]))


# ------------------------------------------------------------------ bots


class CheatingBot(Bot):
    """Bids more than its hand and plays a card it does not hold, every time."""

    kind = "cheat"

    def choose_bid(self, view: SeatView) -> int:
        return view.hand_size + 1

    def choose_card(self, view: SeatView) -> Card:
        return next(card for card in DECK if card not in view.hand)


def test_a_bot_that_returns_illegal_moves_is_refused_and_logged_and_the_table_plays_to_the_end(
    client: TestClient, db: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def bots(kind: str, seed: int | None = None) -> Bot:
        return CheatingBot(seed) if kind == "random" else make_bot(kind, seed=seed)

    monkeypatch.setattr("upriver.web.play.table.make_bot", bots)
    caplog.set_level(logging.WARNING, logger="upriver.web")
    body = create(client, ["human", "random", "random", "random"], schedule=[1, 2])
    table = manager_of(client).tables[body["table"]]
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        final = play_to_the_end(Client(ws, table, 0))
    assert final["standings"]
    game = table.game
    assert game is not None
    assert game.is_over
    bot_moves = [a for a in game.log if isinstance(a, BidAction | PlayAction) and a.seat != 0]
    refusals = [r for r in caplog.records if r.name == "upriver.web" and r.levelno == logging.WARNING]
    assert len(refusals) == len(bot_moves) == 3 * (2 + 3)  # a bid and a card a trick, per round
    for record in refusals:
        text = record.getMessage()
        assert table.id in text
        assert "random bot at seat" in text
        assert ("bid range" in text and "a bid is a whole number" in text) or (
            "card in hand" in text and "does not hold" in text
        )
    # What was committed for each bot is the first legal move, the documented fallback.
    again = Game(game.rules, game.players, seed=table.seed)
    for action in game.log:
        if isinstance(action, BidAction):
            if action.seat != 0:
                assert action.bid == again.legal_bids(action.seat)[0]
            again.move(action.bid, action.seat)
        elif isinstance(action, PlayAction):
            if action.seat != 0:
                assert action.card == again.legal_cards(action.seat)[0]
            again.move(action.card, action.seat)
    assert again.log == game.log
    # And it is what the store holds: a restarted server replays it without damage.
    events = stored_events(db, table.id)
    assert len(events) == table.version


# ------------------------------------------------------------------ the store


def test_a_damaged_event_in_the_store_does_not_stop_the_server_and_other_tables_play_on(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as first, contextlib.ExitStack() as stack:
        damaged = Room(first, stack, schedule=[2, 2])
        sound = Room(first, stack, schedule=[2, 2])
        damaged.move()
        sound.move()
        log, version = damaged.game.log, damaged.table.version
        seat = damaged.game.awaiting[0]
    # A bug (or an attacker) writes an impossible bid, and a harmless-looking event after it.
    for offset, value in ((1, "7"), (2, "0")):
        write(
            db,
            "INSERT INTO events (table_id, version, kind, seat, value, client_id, at)"
            " VALUES (?, ?, 'bid', ?, ?, NULL, 0)",
            (damaged.id, version + offset, seat, value),
        )
    caplog.set_level(logging.ERROR, logger="upriver.web")
    with TestClient(create_app(db, bot_delay=0.0)) as second, contextlib.ExitStack() as stack:
        manager = manager_of(second)
        table = manager.tables[damaged.id]
        assert table.game is not None
        assert table.game.log == log, "the state up to the last good event is kept"
        assert table.version == version
        assert table.damaged is not None
        assert f"stored event {version + 1}" in table.damaged
        assert "may not bid 7" in table.damaged  # the engine's own sentence
        logged = [r.getMessage() for r in caplog.records if r.name == "upriver.web"]
        assert any(damaged.id in text and "may not bid 7" in text for text in logged)
        # Its seats and its spectators are told, with the reason, and no move is accepted.
        assert second.get(f"/t/{damaged.id}").status_code == 200
        url = f"/ws/{damaged.id}?token={table.tokens[seat]}"
        member = Client(stack.enter_context(second.websocket_connect(url)), table, seat)
        state = member.state()
        assert state["lobby"]["damaged"] == table.damaged
        assert state["v"] == version
        watcher = Client(stack.enter_context(second.websocket_connect(f"/ws/{damaged.id}")), table, None)
        assert watcher.state()["lobby"]["damaged"] == table.damaged
        member.act("bid", table.game.legal_bids(seat)[0])
        error = member.error()
        assert error["rule"] == "damaged"
        assert "may not bid 7" in error["message"]
        assert table.game.log == log
        # The other table in the same file came up sound and plays on.
        other = manager.tables[sound.id]
        assert other.damaged is None
        assert other.game is not None
        mover = other.game.awaiting[0]
        url = f"/ws/{sound.id}?token={other.tokens[mover]}"
        player = Client(stack.enter_context(second.websocket_connect(url)), other, mover)
        assert player.state()["lobby"]["damaged"] is None
        before = len(other.game.log)
        player.act("bid", other.game.legal_bids(mover)[0])
        while player.state()["v"] != other.version:
            pass
        assert len(other.game.log) == before + 1


def test_a_failed_commit_leaves_the_game_and_every_client_exactly_as_before(
    client: TestClient, db: str, stack: contextlib.ExitStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = Room(client, stack, schedule=[2])
    store = manager_of(client).store
    seen = [member.received[-1] for member in room.clients]
    log, version = room.game.log, room.table.version
    seat = room.game.awaiting[0]
    bid = room.game.legal_bids(seat)[0]

    def broken(table_id: str, event: object) -> None:
        raise StoreError("the SQLite database failed: disk I/O error")

    monkeypatch.setattr(store, "append", broken)
    sent = room.clients[seat].act("bid", bid)
    error = room.clients[seat].error()
    assert error["rule"] == "store"
    assert error["id"] == sent
    assert room.game.log == log
    assert room.table.version == version
    assert sent not in room.table.seen[seat]
    # Every client, asked again, is shown exactly what it was shown before: nothing was announced.
    for member, before in zip(room.clients, seen, strict=True):
        member.send(type="sync")
        now = member.state()
        assert now["v"] == before["v"] == version
        assert {k: v for k, v in now["game"].items() if k != "sheet"} == {
            k: v for k, v in before["game"].items() if k != "sheet"
        }
    monkeypatch.undo()
    assert len(stored_events(db, room.id)) == version
    room.clients[seat].act("bid", bid)  # the same move, once the store works again
    room.settle_all()
    assert room.game.bids[seat] == bid
    assert len(stored_events(db, room.id)) == room.table.version == version + 1


def test_a_refused_move_is_never_stored(client: TestClient, db: str, stack: contextlib.ExitStack) -> None:
    room = Room(client, stack, schedule=[2], dealer_bid="hook")
    idle = next(s for s in range(4) if s not in room.game.awaiting)
    room.clients[idle].act("bid", 0)
    assert room.clients[idle].error()["rule"] == "turn order"
    seat = room.game.awaiting[0]
    room.clients[seat].act("bid", 9)
    assert room.clients[seat].error()["rule"] == "bid range"
    assert len(stored_events(db, room.id)) == room.table.version == 4  # the four joins


# ------------------------------------------------------------------ spectators


def test_a_spectator_is_sent_the_table_view_with_no_hand_and_no_hidden_bid(
    client: TestClient, stack: contextlib.ExitStack
) -> None:
    room = Room(client, stack, preset="closed-fists", schedule=[2, 1])
    order = room.game.bidding_order
    for seat in order[:2]:
        room.clients[seat].act("bid", 1)
        room.settle_all()
    url = f"/ws/{room.id}"
    state = Client(stack.enter_context(client.websocket_connect(url)), room.table, None).state()
    view = room.game.view(None)
    shown = state["game"]
    assert state["role"] == "spectator"
    assert shown["hand"] == []
    assert shown["bid_options"] == []
    assert shown["bid_restriction"] is None
    assert not shown["my_turn"]
    assert shown["bids"] == list(view.bids) == [None] * 4, "bids under closed fists stay hidden"
    assert room.game.bids.count(1) == 2
    assert shown["totals"] == list(view.totals)
    assert shown["tricks_won"] == list(view.tricks_won)
    # Once the fists open and a trick is played, the spectator sees what the table sees.
    for seat in order[2:]:
        room.clients[seat].act("bid", 0)
        room.settle_all()
    for _ in range(4):
        room.move()
    state = Client(stack.enter_context(client.websocket_connect(url)), room.table, None).state()
    view = room.game.view(None)
    assert state["game"]["bids"] == list(view.bids) == list(room.game.bids)
    last = view.last_trick
    assert last is not None
    assert state["game"]["last_trick"] == {
        "plays": [[seat, str(card)] for seat, card in last.plays],
        "winner": last.winner,
    }


# ------------------------------------------------------------------ rule options


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "countdown", "bidding": "simultaneous"},
        {"preset": "countdown", "bidding": "simultaneous", "dealer_bid": "free"},
        {"preset": "closed-fists", "dealer_bid": "hook"},
        {"preset": "classic", "dealer_bid": "overbid", "schedule": [1, 2, 1]},
        {"schedule": "down-up", "max_cards": 5, "scoring": "tricks-plus-ten"},
        {"scoring": "lots"},
        {"colour": "red"},
        {"preset": "nonsense"},
    ],
)
def test_the_lobby_accepts_and_refuses_rule_options_exactly_as_the_engine_does(
    client: TestClient, options: dict[str, object]
) -> None:
    seats = ["human", "basic", "basic", "basic"]
    response = client.post("/api/tables", json={"name": "Ann", "seats": seats, **options})
    rules: Rules | None = None
    refusal: dict[str, object] = {}
    try:
        rules = Rules.from_options(options, player_count=4)
    except RulesError as error:
        refusal = {"error": str(error), "option": error.option, "facts": error.facts}
    if rules is None:
        assert response.status_code == 400
        assert response.json() == refusal
        return
    assert response.status_code == 201, response.text
    body = response.json()
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        state = ws.receive_json()
    assert state["game"]["rules"] == rules_json(rules)


def test_countdown_with_free_closed_fist_bids_is_a_table_whose_dealer_bids_freely(client: TestClient) -> None:
    body = create(
        client,
        ["human", "basic", "basic", "basic"],
        preset="countdown",
        bidding="simultaneous",
        dealer_bid="free",
    )
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        shown = ws.receive_json()["game"]
    assert shown["rules"]["bidding"] == "simultaneous"
    assert shown["rules"]["dealer_bid"] == "free"
    assert shown["rules"]["schedule"] == "down-up"
    assert shown["bid_restriction"] is None
    assert [o["legal"] for o in shown["bid_options"]] == [True] * (shown["hand_size"] + 1)


def test_blank_form_fields_are_rule_options_not_given(client: TestClient) -> None:
    blanks = {"schedule": "", "first_dealer": "", "bidding": "", "dealer_bid": "", "trump_lead": ""}
    body = create(client, ["human", "basic", "basic", "basic"], preset="classic-hook", **blanks)
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        shown = ws.receive_json()["game"]
    assert shown["rules"] == rules_json(Rules.from_options({"preset": "classic-hook"}, player_count=4))
