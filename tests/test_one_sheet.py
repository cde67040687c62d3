"""One score sheet, one options payload: the table page and the score keeper say the same thing.

A game played with cards and the same game kept at a real table give the same sheet JSON; a
spectator's sheet never shows a bid that closed fists still hide; both options endpoints return
the rules catalogue; the keeper accepts and refuses exactly the rule options the engine does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import play_out
from upriver import Game, Phase, Rules, RulesError, Schedule, preset
from upriver.keeper import KeptSheet
from upriver.rules import rules_catalogue
from upriver.sheet import ScoreSheet

NAMES = ("Ann", "Bob", "Cid", "Dee")


def kept_like(game: Game) -> KeptSheet:
    """The game's finished rounds entered on a keeper's sheet: the trump noted, bids in turn, tricks."""
    first = game.results[0].dealer if game.results else game.first_dealer
    sheet = KeptSheet.start(NAMES, game.rules, dealer=first)
    for result in game.results:
        sheet.note_trump(result.trump)
        for seat in sheet.bidding_order:
            sheet.enter_bid(seat, result.bids[seat])
        sheet.enter_tricks(result.tricks_won)
    return sheet


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), name=st.sampled_from(["classic", "classic-hook", "countdown", "overbid"]))
def test_a_played_game_and_the_same_game_kept_at_a_table_have_the_same_sheet(seed: int, name: str) -> None:
    rules = preset(name, 4, schedule=Schedule.EXPLICIT, explicit_sizes=(2, 3, 1), max_cards=None)
    game = Game(rules, NAMES, seed=seed)
    play_out(game, random.Random(seed))
    kept = kept_like(game)
    played = ScoreSheet.from_view(game.view(None)).to_json()
    assert kept.score_sheet.to_json() == played
    assert played["complete"] is True
    rows: list[dict[str, object]] = played["rows"]  # type: ignore[assignment]
    assert [row["status"] for row in rows] == ["scored"] * 3


def test_a_game_half_played_and_its_kept_sheet_agree_on_every_scored_round() -> None:
    game = Game(preset("countdown", 4, max_cards=3), NAMES, seed=11)
    rng = random.Random(11)
    while len(game.results) < 2:
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    kept = kept_like(game).score_sheet.to_json()
    played = ScoreSheet.from_view(game.view(None)).to_json()
    assert kept.keys() == played.keys()
    assert kept["rows"] == played["rows"][:2]  # type: ignore[index]
    assert (kept["totals"], kept["standings"], kept["headline"]) == (
        played["totals"],
        played["standings"],
        played["headline"],
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_a_spectators_sheet_never_shows_a_hidden_bid_under_closed_fists(seed: int, steps: int) -> None:
    game = Game(preset("closed-fists", 4, max_cards=3), NAMES, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids(seat := rng.choice(game.awaiting))), seat=seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    sheet = ScoreSheet.from_view(game.view(None)).to_json()
    rows: list[dict[str, Any]] = sheet["rows"]  # type: ignore[assignment]
    if game.phase is Phase.BIDDING:
        assert all(cell["bid"] is None for cell in rows[-1]["cells"])
        for seat in range(4):
            own = ScoreSheet.from_view(game.view(seat)).rows[-1]
            assert [cell.bid for cell in own.cells] == [game.bids[s] if s == seat else None for s in range(4)]
    else:
        assert all(cell["bid"] is not None for row in rows for cell in row["cells"])


def test_both_options_endpoints_return_the_rules_catalogue(client: TestClient) -> None:
    lobby = client.get("/api/options").json()
    keeper = client.get("/api/sheets/options").json()
    assert keeper == rules_catalogue()
    lobby_only = ("bots", "paces", "pace", "pace_seconds", "lengths")
    assert {key: value for key, value in lobby.items() if key not in lobby_only} == keeper
    assert lobby["bots"]
    countdown = next(p for p in keeper["presets"] if p["name"] == "countdown")
    assert countdown["options"] == {
        "schedule": "down-up",
        "max_cards": 10,
        "first_dealer": "left-of-keeper",
        "bidding": "sequential",
        "dealer_bid": "hook",
        "trump_lead": "any",
        "scoring": "tricks-plus-ten",
    }


OPTION_CASES: list[dict[str, Any]] = [
    {"preset": "countdown", "bidding": "simultaneous"},
    {"preset": "countdown", "bidding": "simultaneous", "dealer_bid": "free"},
    {"bidding": "simultaneous", "dealer_bid": "hook"},
    {"preset": "classic", "bidding": "simultaneous", "dealer_bid": "overbid"},
    {"preset": "closed-fists"},
    {"preset": "overbid", "max_cards": 13},
    {"preset": "classic", "schedule": "down-up", "max_cards": 3},
    {"preset": "classic", "schedule": [1, 2, 1]},
    {"preset": "countdown", "schedule": "explicit"},
    {"preset": "nope"},
    {"preset": "countdown", "scoring": "ten-plus"},
    {"preset": "countdown", "trump": "H"},
]


@pytest.mark.parametrize(
    "options", OPTION_CASES, ids=lambda options: ",".join(f"{k}={v}" for k, v in options.items())
)
def test_the_keeper_accepts_and_refuses_rule_options_exactly_as_the_engine(
    client: TestClient, options: dict[str, Any]
) -> None:
    try:
        engine: Rules | RulesError = Rules.from_options({"preset": "countdown", **options}, player_count=4)
    except RulesError as error:
        engine = error
    response = client.post("/api/sheets", json={"players": list(NAMES), "dealer": 0, **options})
    if isinstance(engine, RulesError):
        assert response.status_code == 400, response.text
        assert response.json() == {"error": str(engine), "rule": "rules", "option": engine.option}
    else:
        assert response.status_code == 201, response.text
        assert response.json()["rules"]["dealer_bid"] == engine.dealer_bid.value
        assert response.json()["rules"]["hand_sizes"] == list(engine.hand_sizes)


def test_the_keeper_refuses_a_forbidden_dealer_bid_with_the_rule_and_facts_as_data(
    client: TestClient,
) -> None:
    sheet = client.post(
        "/api/sheets", json={"players": list(NAMES), "preset": "overbid", "schedule": [2], "dealer": 0}
    ).json()
    for seat in (1, 2, 3):
        sheet = client.post(f"/api/sheets/{sheet['id']}/bid", json={"seat": seat, "bid": 0}).json()
    restriction = sheet["current"]["restriction"]
    assert (restriction["rule"], restriction["forbidden"], restriction["allowed"]) == ("overbid", [0, 1], [2])
    refused = client.post(f"/api/sheets/{sheet['id']}/bid", json={"seat": 0, "bid": 1})
    assert refused.status_code == 400
    assert refused.json() == {
        "error": f"Ann may not bid 1: {restriction['reason']}; Ann may bid 2",
        "rule": "overbid",
        "seat": 0,
        "facts": {"bid": 1, "tricks": 2, "others": 0, "allowed": [2]},
    }
