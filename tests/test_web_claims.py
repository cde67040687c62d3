"""Claims and hints at a web table, through the WebSocket API.

A claim the engine allows (the claimer's cards take every trick left however the cards it cannot
see lie: the tables here are dealt so that seat 0 holds round 1's top trumps) finishes the round
at once as ordinary plays (the record replays as ``upriver check`` replays it, and a restarted
server replays the stored ``claim``), shows the claimer's cards to everyone until the next round's
first bid, and one it refuses changes nothing, its facts only what the seat may know.
A hint, at a table with hints on, is the review's verdict on the seat's own decision.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import manager_of
from tests.webclient import Client, Room, create
from upriver.actions import Phase
from upriver.cards import Card
from upriver.record import loads, replay
from upriver.review import Evaluation
from upriver.view import SeatView
from upriver.web.app import create_app
from upriver.web.play import hints

TOP_TRUMPS = 226
"""A table seed that deals seat 0 the three highest trumps in a first round of three cards."""


@pytest.fixture
def top_trumps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables created in this test are dealt from :data:`TOP_TRUMPS`."""
    monkeypatch.setattr(secrets, "randbits", lambda bits: TOP_TRUMPS)


def to_a_claim(room: Room) -> int:
    """Play first legal moves until some seat may claim, and return that seat."""
    while True:
        game = room.game
        if game.phase is Phase.PLAYING:
            for seat in range(4):
                if game.can_claim(seat):
                    return seat
        room.move()


def last_state(member: Client) -> dict[str, Any]:
    """The last state message ``member`` received (every client has caught up after a move)."""
    return next(message for message in reversed(member.received) if message["type"] == "state")


def next_of(member: Client, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (states at the version already seen may come before it)."""
    while True:
        message = member.receive()
        if message["type"] == kind:
            return message
        assert message["type"] == "state", message


# ------------------------------------------------------------------ claims


@pytest.mark.usefixtures("top_trumps")
def test_an_allowed_claim_finishes_the_round_shows_the_cards_and_the_record_replays(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[3, 2])
    watcher = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None)
    watcher.state()
    seat = to_a_claim(room)
    assert room.game.round_number == 1
    assert last_state(room.clients[seat])["game"]["can_claim"] is True
    held = [str(card) for card in room.game.hand(seat)]
    expected = room.game.copy()
    expected.claim(seat)
    version = room.table.version

    room.clients[seat].send(type="claim", v=room.clients[seat].v, id="claim-1")
    states = room.settle_all()
    assert room.table.version == version + 1  # one stored event
    assert room.game.results[0] == expected.results[0]
    assert room.game.round_number == 2
    notice = {"seat": seat, "round": 1, "cards": held}
    assert all(state["claim"] == notice for state in states)
    while watcher.v < room.table.version:
        watcher.state()
    assert watcher.received[-1]["claim"] == notice
    assert watcher.received[-1]["game"]["can_claim"] is False

    token = room.table.tokens[0]
    record = loads(client.get(f"/api/tables/{room.id}/record?token={token}").text)
    replayed = replay(record)  # as `upriver check` reads it: every play checked again by the engine
    assert replayed.results == room.game.results

    room.move()  # the next round's first bid: the claim is no longer shown
    assert all(last_state(member)["claim"] is None for member in room.clients)


def test_a_claim_that_does_not_hold_is_refused_with_the_claim_rule_and_changes_nothing(
    client: TestClient, stack: Any
) -> None:
    room = Room(client, stack, schedule=[3])
    while room.game.phase is Phase.BIDDING:
        room.move()
    seat = next(s for s in range(4) if not room.game.can_claim(s))
    assert last_state(room.clients[seat])["game"]["can_claim"] is False
    log, version = room.game.log, room.table.version
    member = room.clients[seat]
    member.send(type="claim", v=member.v, id="claim-1")
    error = member.error()
    assert error["rule"] == "claim"
    assert error["seat"] == seat
    assert error["facts"] == {"case": "unseen", "remaining": 3}  # only what the seat may know
    assert "cannot claim the rest of the round" in error["message"]
    assert (room.game.log, room.table.version) == (log, version)
    assert room.game.phase is Phase.PLAYING


@pytest.mark.usefixtures("top_trumps")
def test_after_a_claim_at_a_table_with_bots_the_bots_play_on_into_the_next_round(
    client: TestClient, stack: Any
) -> None:
    body = create(client, ["human", "basic", "basic", "basic"], schedule=[3, 1])
    table = manager_of(client).tables[body["table"]]
    me = Client(
        stack.enter_context(client.websocket_connect(f"/ws/{body['table']}?token={body['token']}")), table, 0
    )
    state = me.state()
    while not (
        state["game"]["round"] == 1 and state["game"]["phase"] == "playing" and state["game"]["my_turn"]
    ):
        if state["game"]["my_turn"]:
            me.act("bid", next(option["bid"] for option in state["game"]["bid_options"] if option["legal"]))
        state = me.state()
    while not state["game"]["can_claim"]:  # play on until the claim holds (at once: the top trumps)
        me.act("play", next(card["card"] for card in state["game"]["hand"] if card["legal"]))
        state = me.state()
        while not (state["game"]["my_turn"] and state["game"]["phase"] == "playing"):
            state = me.state()
    me.send(type="claim", v=me.v, id="claim-1")
    while not (state["game"]["round"] == 2 and state["game"]["my_turn"]):
        state = me.state()
    game = table.game
    assert game is not None
    assert len(game.results) == 1
    assert sum(game.results[0].tricks_won) == 3
    assert game.phase is Phase.BIDDING  # the bots bid on in round 2, and wait for the person


def test_a_spectator_cannot_claim(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[1])
    while room.game.phase is Phase.BIDDING:
        room.move()
    assert room.game.phase is Phase.PLAYING
    watcher = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None)
    watcher.state()
    version = room.table.version
    watcher.send(type="claim", v=version, id="claim-1")
    assert watcher.error()["rule"] == "spectator"
    assert room.table.version == version
    assert not room.game.is_over


@pytest.mark.usefixtures("top_trumps")
def test_a_restarted_server_replays_the_stored_claim_into_the_same_game(db: str, stack: Any) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as first:
        room = Room(first, stack, schedule=[3, 1])
        seat = to_a_claim(room)
        room.clients[seat].send(type="claim", v=room.clients[seat].v, id="claim-1")
        room.settle_all()
        version, token = room.table.version, room.table.tokens[0]
        record = first.get(f"/api/tables/{room.id}/record", params={"token": token}).text
        stack.close()
    with TestClient(create_app(db, bot_delay=0.0)) as second:
        assert second.get(f"/api/tables/{room.id}/record", params={"token": token}).text == record
        with second.websocket_connect(f"/ws/{room.id}") as watcher:
            state = watcher.receive_json()
        assert state["v"] == version
        assert state["lobby"]["damaged"] is None
        assert state["claim"]["seat"] == seat


# ------------------------------------------------------------------ hints


@pytest.fixture
def views(monkeypatch: pytest.MonkeyPatch) -> list[SeatView]:
    """Every view a hint is worked out from (the review's evaluation, with few deals to be quick)."""
    seen: list[SeatView] = []
    from upriver.review import evaluate

    def spy(view: SeatView, *, deals: int, seed: int) -> Evaluation:
        seen.append(view)
        return evaluate(view, deals=64, seed=seed)

    monkeypatch.setattr(hints, "evaluate", spy)
    return seen


@pytest.mark.slow
def test_a_hint_names_a_legal_choice_and_the_points_of_every_legal_choice_from_the_seats_view(
    client: TestClient, stack: Any, views: list[SeatView]
) -> None:
    room = Room(client, stack, schedule=[2], hints=True)
    assert last_state(room.clients[0])["options"]["hints"] is True
    for phase in (Phase.BIDDING, Phase.PLAYING):
        while room.game.phase is not phase:
            room.move()
        seat = room.game.awaiting[0]
        member = room.clients[seat]
        member.send(type="hint")
        answer = next_of(member, "hint")
        legal: list[object] = (
            list(room.game.legal_bids(seat))
            if phase is Phase.BIDDING
            else [str(card) for card in room.game.legal_cards(seat)]
        )
        assert answer["v"] == room.table.version
        assert answer["choice"] in legal
        assert [option["move"] for option in answer["options"]] == legal
        assert all(isinstance(option["points"], float) for option in answer["options"])
        assert views[-1] == room.game.view(seat)  # the seat's own view, and nothing else
        assert {Card.parse(str(move)) for move in legal if isinstance(move, str)} <= set(views[-1].hand)


def test_a_hint_is_refused_without_hints_for_a_spectator_and_out_of_turn(
    client: TestClient, stack: Any, views: list[SeatView]
) -> None:
    plain = Room(client, stack, schedule=[1])
    seat = plain.game.awaiting[0]
    plain.clients[seat].send(type="hint")
    refused = plain.clients[seat].error()
    assert (refused["rule"], refused["facts"]) == ("hint", {"case": "off"})

    room = Room(client, stack, schedule=[1], hints=True)
    waiting = next(s for s in range(4) if s not in room.game.awaiting)
    room.clients[waiting].send(type="hint")
    refused = room.clients[waiting].error()
    assert (refused["rule"], refused["facts"]) == ("hint", {"case": "turn"})
    assert "when it is your turn" in refused["message"]

    watcher = Client(stack.enter_context(client.websocket_connect(f"/ws/{room.id}")), room.table, None)
    watcher.state()
    watcher.send(type="hint")
    refused = watcher.error()
    assert (refused["rule"], refused["facts"]) == ("hint", {"case": "spectator"})
    assert views == []  # nothing was worked out for any of them
