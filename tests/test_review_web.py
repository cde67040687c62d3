"""GET /api/tables/{id}/review: a seat's finished rounds reviewed in the background, and who may see what."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from tests.reviewing import Setup
from upriver import Game, Rules
from upriver.actions import Phase
from upriver.record import dumps, record_of

ROOT = Path(__file__).parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "review.schema.json").read_text(encoding="utf-8"))


def test_a_seat_gets_its_finished_rounds_review_from_what_it_saw(setup: Setup) -> None:
    table = setup.table([1, 2])
    setup.play(table, 4 + 4)  # round 1: four bids, four cards
    game = table.game
    assert game is not None
    body = setup.review(table, 2, round=1)
    assert body["status"] == "done"
    assert body["seat"] == 2
    assert body["others"] is False
    jsonschema.Draft202012Validator(SCHEMA).validate(body["review"])
    seat = body["review"]["seats"][0]
    assert seat["player"] == "Cid"
    (round_,) = seat["rounds"]
    dealt = {str(card) for card in game.results[0].hands[2]}  # type: ignore[index]
    for decision in round_["decisions"]:
        assert set(decision["position"]["hand"]) <= dealt  # its own cards, no other seat's
    # Asked again, the kept review comes at once.
    again = setup.ask(table, 2, round=1)
    assert again.status_code == 200
    assert again.json() == body


def test_the_round_being_played_is_not_reviewed(setup: Setup) -> None:
    table = setup.table([1, 2])
    setup.play(table, 4 + 4 + 2)
    response = setup.ask(table, 0, round=2)
    assert response.status_code == 409
    assert (
        response.json()["error"] == "round 2 is not over yet: its review opens when its last trick is taken"
    )
    assert setup.ask(table, 0, round=3).status_code == 400


def test_nothing_is_reviewed_before_a_round_ends(setup: Setup) -> None:
    table = setup.table([1, 2])
    response = setup.ask(table, 0)
    assert response.status_code == 409
    assert "no round has finished yet" in response.json()["error"]


def test_a_spectator_or_a_stranger_gets_no_review(setup: Setup) -> None:
    table = setup.table([1])
    setup.play(table)
    spectator = setup.client.get(f"/api/tables/{table.id}/review")
    assert spectator.status_code == 403
    assert "for the players at this table" in spectator.json()["error"]
    stranger = setup.client.get(f"/api/tables/{table.id}/review", params={"token": "not-a-token"})
    assert stranger.status_code == 403
    assert setup.client.get("/api/tables/nope/review", params={"token": "x"}).status_code == 404


def test_another_seats_review_waits_for_the_game_to_end(setup: Setup) -> None:
    table = setup.table([1, 2])
    setup.play(table, 8)
    during = setup.ask(table, 0, round=1, seat=1)
    assert during.status_code == 403
    assert "only after the game" in during.json()["error"]
    setup.play(table)
    after = setup.review(table, 0, seat=1)
    assert after["seat"] == 1
    assert after["others"] is True
    assert [r["round"] for r in after["review"]["seats"][0]["rounds"]] == [1, 2]
    assert setup.ask(table, 0, seat=4).status_code == 400


def test_a_table_may_keep_each_review_to_its_own_seat(setup: Setup) -> None:
    table = setup.table([1])
    setup.play(table)
    table.config["review_others"] = False
    refused = setup.ask(table, 0, seat=1)
    assert refused.status_code == 403
    assert refused.json()["error"] == "this table keeps each player's review to themselves"
    own = setup.review(table, 0)
    assert own["others"] is False


def test_a_saved_game_whose_first_rounds_were_kept_on_paper_is_refused_in_a_sentence(setup: Setup) -> None:
    rules = Rules.from_options({"preset": "classic", "schedule": [1, 2, 1]}, player_count=4)
    game = Game(rules, ["Ann", "Bob", "Cid", "Dee"], seed=3, dealer=0, auto_deal=False)
    game.deal_at_table()
    for seat in game.bidding_order:
        game.bid(game.legal_bids(seat)[0], seat)
    game.record_tricks((1, 0, 0, 0))
    game.deal()
    while game.phase is not Phase.DEALING:
        seat = game.awaiting[0]
        game.move(
            game.legal_bids(seat)[0] if game.phase is Phase.BIDDING else game.legal_cards()[0], seat=seat
        )
    body = setup.site.post(
        "/api/tables", json={"name": "Ann", "seats": ["human"] * 4, "record": dumps(record_of(game))}
    )
    assert body.status_code == 201, body.text
    table = setup.manager.tables[body.json()["table"]]
    for seat, name in ((1, "Bob"), (2, "Cid"), (3, "Dee")):
        setup.manager.join(table, seat, name)
    setup.play(table)
    refused = setup.ask(table, 0, round=3)
    assert refused.status_code == 409
    assert "round 1 was kept without its cards" in refused.json()["error"]
