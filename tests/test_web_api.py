"""The web API and WebSocket protocol: every message type, every refusal, and no leaked hand.

Most tables here are all-human so the test alone moves the game; every message a client
receives passes through :meth:`Client.receive`, which checks that it carries a version
that never goes down and shows no card outside the seat's own dealt hands.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.conftest import manager_of
from tests.webclient import Client, Room, create
from upriver.actions import Phase
from upriver.errors import IllegalActionError
from upriver.record import loads
from upriver.rules import DEFAULT_PRESET
from upriver.web.app import create_app
from upriver.web.play.messages import Bid
from upriver.web.play.tables import TableRefusalError

# ------------------------------------------------------------------ HTTP


def test_options_list_the_presets_the_default_one_the_rule_values_and_the_bots(client: TestClient) -> None:
    from upriver.bots import BOT_KINDS

    body = client.get("/api/options").json()
    assert {p["name"] for p in body["presets"]} >= {"classic", "countdown", "closed-fists"}
    assert body["default_preset"] == DEFAULT_PRESET == "classic"  # the one the pages' forms start from
    assert body["bots"] == list(BOT_KINDS)
    assert "hook" in body["rules"]["dealer_bid"]


def test_pages_are_served_and_an_unknown_table_is_404(client: TestClient) -> None:
    assert "<html" in client.get("/").text.lower()
    table = create(client)["table"]
    assert client.get(f"/t/{table}").status_code == 200
    assert client.get("/t/nope").status_code == 404
    assert client.get("/static/app.js").status_code == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/tables/nope"),
        ("POST", "/api/tables/nope/seats/1/bot"),
        ("GET", "/api/tables/nope/record"),
        ("POST", "/api/tables/nope/rematch"),
        ("GET", "/api/tables/nope/rematch"),
        ("GET", "/api/tables/nope/rules"),
        ("GET", "/api/tables/nope/review"),
    ],
)
def test_every_route_of_a_table_that_is_not_there_refuses_in_the_same_words(
    client: TestClient, method: str, path: str
) -> None:
    body = {"token": "x", "kind": "basic"} if method == "POST" else None
    response = client.request(method, path, params={"token": "x"}, json=body)
    assert response.status_code == 404
    assert response.json() == {"error": "no such table (or it was archived)"}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": ["human"] * 8, "max_cards": 10}, "8 players × 10 cards"),
        ({"preset": "nonsense"}, "unknown preset"),
        ({"preset": "closed-fists", "dealer_bid": "hook"}, "simultaneous bidding"),
        ({"seats": ["human", "basic"]}, "3 to 8 seats"),
        ({"seats": ["human", "wizard", "basic"]}, "unknown seat"),
        ({"creator": 1, "seats": ["human", "basic", "basic"]}, "human seats"),
        ({"name": ""}, "at least one letter"),
        ({"name": "x" * 25}, "at most 24 characters"),
        ({"scoring": "lots"}, "scoring must be one of"),
        ({"record": "{not json"}, "not a record"),
    ],
)
def test_creating_a_table_refuses_impossible_requests_with_a_reason(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/tables", json={"name": "Ann", **body})
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_a_create_request_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"})
    assert response.status_code == 400


# ------------------------------------------------------------------ a whole game


def test_one_person_plays_a_whole_game_against_three_bots(client: TestClient) -> None:
    body = create(client, ["human", "basic", "random", "basic"], schedule=[1, 2, 1])
    table = manager_of(client).tables[body["table"]]
    with client.websocket_connect(f"/ws/{body['table']}?token={body['token']}") as ws:
        me = Client(ws, table, 0)
        while True:
            state = me.state()["game"]
            if state is None:
                continue
            if state["over"]:
                break
            if state["my_turn"]:
                if state["bid_options"]:
                    me.act("bid", next(o["bid"] for o in state["bid_options"] if o["legal"]))
                else:
                    me.act("play", next(h["card"] for h in state["hand"] if h["legal"]))
    assert state["standings"]
    assert len(state["sheet"]["rows"]) == 3
    assert all(row["status"] == "scored" for row in state["sheet"]["rows"])
    assert not [m for m in me.received if m["type"] == "error"]


def test_the_table_starts_when_the_last_person_joins_and_a_seat_is_taken_once(
    client: TestClient, stack: Any
) -> None:
    body = create(client, ["human", "human", "basic"], schedule=[1])
    table = manager_of(client).tables[body["table"]]
    guest = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={table.tokens[1]}")), table, 1
    )
    lobby = guest.state()
    assert lobby["game"] is None
    assert not lobby["lobby"]["seats"][1]["joined"]
    guest.send(type="join", name="  Bea   Q ")
    started = guest.state()
    assert started["lobby"]["started"]
    assert started["game"]["players"][1] == "Bea   Q"  # trimmed, as upriver.names decides
    guest.send(type="join", name="Again")
    assert guest.error()["rule"] == "join"
    host = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{table.id}?token={body['token']}")), table, 0
    )
    assert host.state()["lobby"]["invites"] == [], "a taken seat's invite is no longer listed"


# ------------------------------------------------------------------ refusals


def test_malformed_json_unknown_types_and_bad_fields_are_refused_and_change_nothing(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[2])
    seat = room.game.awaiting[0]
    member = room.clients[seat]
    before = room.table.version
    for raw, rule in [
        ("{nope", "json"),
        ("[1, 2]", "json"),
        (json.dumps({"type": "dance"}), "type"),
        (json.dumps({"type": "bid", "bid": 1, "v": before}), "field"),
        (json.dumps({"type": "bid", "bid": "one", "v": before, "id": "x1"}), "field"),
        (json.dumps({"type": "play", "card": 12, "v": before, "id": "x2"}), "field"),
        (json.dumps({"type": "join", "name": ""}), "name"),
        ("x" * 5000, "size"),
    ]:
        member.ws.send_text(raw)
        assert member.error()["rule"] == rule
    member.ws.send_bytes(b"\xff\xfe")
    assert member.error()["rule"] == "json"
    assert room.table.version == before
    assert len(room.game.log) == 1


def test_acting_out_of_turn_is_refused_with_the_turn_order_rule(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    idle = next(s for s in range(4) if s not in room.game.awaiting)
    room.clients[idle].act("bid", 0)
    error = room.clients[idle].error()
    assert error["rule"] == "turn order"
    assert "turn to bid" in error["message"]
    assert room.game.bids == (None,) * 4


def test_a_bid_beyond_the_hand_is_refused_with_the_bid_range_rule(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    seat = room.game.awaiting[0]
    for bid in (3, -1):
        room.clients[seat].act("bid", bid)
        error = room.clients[seat].error()
        assert error["rule"] == "bid range"
        assert "from 0 to 2" in error["message"]
    assert room.game.bids == (None,) * 4


def test_an_illegal_card_is_refused_with_the_rule_it_breaks(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[6])
    while True:
        game = room.game
        if game.phase is Phase.PLAYING:
            seat = game.to_act
            assert seat is not None
            illegal = [c for c in game.hand(seat) if c not in game.legal_cards(seat)]
            if illegal:
                break
        room.move()
    log = room.game.log
    room.clients[seat].act("play", str(illegal[0]))
    error = room.clients[seat].error()
    assert error["rule"] in ("follow suit", "trump broken")
    assert room.game.log == log


def test_a_refused_card_off_the_suit_led_carries_the_rule_seat_and_facts(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[6])
    while True:
        game = room.game
        seat = game.to_act
        if seat is not None and game.phase is Phase.PLAYING and game.trick:
            led = game.trick[0][1].suit
            held = [c for c in game.hand(seat) if c.suit is led]
            off = [c for c in game.hand(seat) if c.suit is not led]
            if held and off:
                break
        room.move()
    room.clients[seat].act("play", str(off[0]))
    error = room.clients[seat].error()
    assert error["rule"] == "follow suit"
    assert error["seat"] == seat
    assert error["facts"] == {"led": led.value, "held": [str(c) for c in held]}
    assert " ".join(error["facts"]["held"]) in error["message"]


def test_a_card_not_in_hand_and_text_that_is_no_card_are_refused_by_the_engine(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[1])
    while room.game.phase is Phase.BIDDING:
        room.move()
    seat = room.game.to_act
    assert seat is not None
    other = room.game.hand((seat + 1) % 4)[0]
    room.clients[seat].act("play", str(other))
    assert room.clients[seat].error()["rule"] == "card in hand"
    room.clients[seat].act("play", "ZZ")
    error = room.clients[seat].error()
    assert error["rule"] == "card"
    assert "'ZZ'" in error["message"]
    log = room.game.log
    room.clients[seat].act("play", str(room.game.hand(seat)[0]).lower())  # the engine reads card text
    room.settle_all()
    assert len(room.game.log) == len(log) + 1


def test_the_dealers_hooked_bid_is_refused_and_its_reason_is_shown_beforehand(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[2], dealer_bid="hook")
    while room.game.awaiting[0] != room.game.dealer:
        room.move()
    dealer = room.game.dealer
    shown = room.clients[dealer].received[-1]["game"]
    forbidden = [o["bid"] for o in shown["bid_options"] if not o["legal"]]
    restriction = shown["bid_restriction"]
    others = sum(bid for bid in room.game.bids if bid is not None)
    assert forbidden == restriction["forbidden"] == [2 - others]
    assert restriction["rule"] == "hook"
    assert restriction["tricks"] == 2
    assert restriction["others"] == others
    assert restriction["allowed"] == [o["bid"] for o in shown["bid_options"] if o["legal"]]
    assert "hook" in restriction["reason"]
    # Only the dealer's state carries the restriction.
    assert all(
        room.clients[s].received[-1]["game"]["bid_restriction"] is None for s in range(4) if s != dealer
    )
    room.clients[dealer].act("bid", forbidden[0])
    error = room.clients[dealer].error()
    assert error["rule"] == restriction["rule"]
    assert restriction["reason"] in error["message"]
    assert room.game.bids[dealer] is None


def test_cards_that_may_not_be_played_carry_the_engines_reason(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[6])
    while True:
        game = room.game
        seat = game.to_act
        legal = game.legal_cards(seat) if seat is not None else ()
        if seat is not None and game.phase is Phase.PLAYING and any(c not in legal for c in game.hand(seat)):
            break
        room.move()
    hand = room.clients[seat].received[-1]["game"]["hand"]
    refused = [entry for entry in hand if not entry["legal"]]
    assert refused
    assert all("must" in entry["reason"] or "trump" in entry["reason"] for entry in refused)
    assert all(entry["label"].split(" of ")[1] in ("clubs", "diamonds", "hearts", "spades") for entry in hand)


def test_a_message_for_another_seat_is_refused(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    seat = room.game.awaiting[0]
    other = (seat + 1) % 4
    room.clients[other].send(type="bid", bid=0, v=room.table.version, id="steal", seat=seat)
    error = room.clients[other].error()
    assert (error["rule"], error["seat"]) == ("seat", other)
    assert room.game.bids == (None,) * 4


def test_a_bad_token_gets_an_error_and_the_socket_closes(client: TestClient) -> None:
    table = create(client)["table"]
    with client.websocket_connect(f"/ws/{table}?token=not-a-token") as ws:
        message = ws.receive_json()
        assert message["type"] == "error"
        assert message["rule"] == "token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_an_unknown_table_gets_an_error_and_the_socket_closes(client: TestClient) -> None:
    with client.websocket_connect("/ws/missing") as ws:
        assert ws.receive_json()["rule"] == "table"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_a_stale_or_future_version_is_refused_and_changes_nothing(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    first = room.game.awaiting[0]
    old = room.table.version
    room.move()
    seat = room.game.awaiting[0]
    member = room.clients[seat]
    for v in (old, room.table.version + 5):
        member.act("bid", room.game.legal_bids(seat)[0], v=v)
        assert member.error()["rule"] == "stale"
        # A stale refusal also resends the state, so the client can look again and choose.
        assert member.state()["v"] == room.table.version
    assert room.game.bids[seat] is None
    assert room.game.bids[first] is not None


def test_a_replayed_message_id_is_refused_and_changes_nothing(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    seat = room.game.awaiting[0]
    member = room.clients[seat]
    used = member.act("bid", 0)
    room.settle_all()
    while room.game.awaiting[0] != seat:
        room.move()
    log = room.game.log
    member.act("bid", 0, id=used)
    error = member.error()
    assert error["rule"] == "duplicate"
    assert error["id"] == used
    assert room.game.log == log


def test_the_tables_own_refusals_are_table_refusals_and_the_engines_stay_illegal_actions(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[2])
    manager = manager_of(client)
    seat = room.game.awaiting[0]
    stale = Bid(id="x1", v=room.table.version + 5, bid=0)
    with pytest.raises(TableRefusalError) as refused:
        manager.act(room.table, seat, stale)
    assert (refused.value.rule, refused.value.seat) == ("stale", seat)
    assert not isinstance(refused.value, IllegalActionError)
    with pytest.raises(TableRefusalError) as refused:
        manager.join(room.table, seat, "Zed")
    assert refused.value.rule == "join"
    too_many = Bid(id="x2", v=room.table.version, bid=3)
    with pytest.raises(IllegalActionError) as illegal:
        manager.act(room.table, seat, too_many)
    assert illegal.value.rule == "bid range"
    assert room.game.bids == (None,) * 4


def test_a_spectator_sees_the_table_but_no_hand_and_cannot_act(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    watcher = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None)
    state = watcher.state()
    assert state["role"] == "spectator"
    assert state["seat"] is None
    assert state["game"]["hand"] == []
    assert state["game"]["bid_options"] == []
    assert "invites" not in state["lobby"]
    watcher.send(type="bid", bid=0, v=state["v"], id="w1")
    assert watcher.error()["rule"] == "spectator"
    room.move()
    assert watcher.state()["v"] == room.table.version


def test_simultaneous_bids_stay_hidden_from_other_seats_and_spectators(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, preset="closed-fists", schedule=[2])
    watcher = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None)
    watcher.state()
    room.settle_all()  # (each seat is sent a state at the same version: one more watches)
    order = room.game.bidding_order
    for seat in order[:3]:
        room.clients[seat].act("bid", 1)
        room.settle_all()
    last = order[3]
    for seat in range(4):
        bids = room.clients[seat].received[-1]["game"]["bids"]
        assert [b for s, b in enumerate(bids) if s != seat] == [None, None, None]
        assert bids[seat] == (1 if seat != last else None)
    spectator = watcher.state()
    while spectator["v"] != room.table.version:
        spectator = watcher.state()
    assert spectator["game"]["bids"] == [None] * 4
    # A spectator arriving now gets the whole sheet, with no bid of the round in it.
    late = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None).state()
    assert all(cell["bid"] is None for cell in late["game"]["sheet"]["rows"][-1]["cells"])
    for seat in order[:3]:
        url = f"/ws/{room.id}?token={room.table.tokens[seat]}"
        fresh = Client(stack.enter_context(client.websocket_connect(url)), room.table, seat).state()
        cells = fresh["game"]["sheet"]["rows"][-1]["cells"]
        assert [cell["bid"] for cell in cells] == [1 if s == seat else None for s in range(4)]
    # The others' bids did not make the last bidder's screen stale: it bids against its first state.
    room.settle_all()  # (each seat was sent a state at the same version: a spectator came)
    room.clients[last].act("bid", 0, v=room.table.turn_version[last])
    revealed = room.settle(room.clients[order[0]])["game"]["bids"]
    assert revealed == [0 if s == last else 1 for s in range(4)]


# ------------------------------------------------------------------ records


def test_export_while_playing_needs_a_seat_token_and_holds_only_finished_rounds(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[1, 1])
    while not room.game.results:
        room.move()
    room.move()  # a bid of round 2, so the round in progress is not empty
    assert client.get(f"/api/tables/{room.id}/record").status_code == 403
    token = room.table.tokens[0]
    text = client.get(f"/api/tables/{room.id}/record?token={token}").text
    record = loads(text)
    assert len(record.rounds) == 1
    assert "seed" not in record.extras
    while not room.game.is_over:
        room.move()
    whole = loads(client.get(f"/api/tables/{room.id}/record").text)
    assert len(whole.rounds) == 2
    assert "seed" not in whole.extras


def test_an_imported_record_continues_where_it_stopped(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[1, 2, 1])
    while room.game.round_number < 2:
        room.move()
    text = client.get(f"/api/tables/{room.id}/record?token={room.table.tokens[0]}").text
    body = create(client, ["human", "basic", "basic", "basic"], record=text)
    imported = manager_of(client).tables[body["table"]]
    assert imported.game is not None
    assert imported.game.round_number == 2
    assert imported.game.totals == room.game.totals
    assert imported.game.players[0] == "Ann"
    assert imported.game.players[1].endswith("(basic)")


def test_a_finished_game_cannot_be_imported(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[1])
    while not room.game.is_over:
        room.move()
    text = client.get(f"/api/tables/{room.id}/record").text
    response = client.post("/api/tables", json={"name": "Ann", "record": text})
    assert response.status_code == 400
    assert "over" in response.json()["error"]


def test_a_new_app_on_the_same_database_resumes_every_table(db: str, stack: Any) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as first:
        room = Room(first, stack, schedule=[2, 2])
        for _ in range(7):
            room.move()
        version, seen = room.table.version, dict(room.table.seen[0])
        token = room.table.tokens[0]
        record = first.get(f"/api/tables/{room.id}/record", params={"token": token}).text
        stack.close()
    with TestClient(create_app(db, bot_delay=0.0)) as second:
        assert second.get(f"/api/tables/{room.id}/record", params={"token": token}).text == record
        with second.websocket_connect(f"/ws/{room.id}") as watcher:
            assert watcher.receive_json()["v"] == version
        # What each seat was last sent is the server's own: no message says it.
        assert dict(manager_of(second).tables[room.id].seen[0]) == seen
