"""``POST /api/scoring``: a scoring's worked examples for the forms, computed by the engine's scoring
function, and the engine's own refusal of a scoring it cannot play; a table's and a sheet's rules
carry every round's trump when trump rotates."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from upriver.errors import RulesError
from upriver.rules import Rules
from upriver.scoring import Scoring, round_score, scoring_of
from upriver.web.app import create_app
from upriver.web.keeper.scoring import EXAMPLE_MOVES, scoring_router
from upriver.web.play.protocol import rules_json


@pytest.fixture(scope="module")
def bare() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(scoring_router())
    with TestClient(app) as client:
        yield client


def points(answer: dict[str, object]) -> list[tuple[int, int, int, int]]:
    examples = answer["examples"]
    assert isinstance(examples, list)
    return [(e["round"], e["bid"], e["tricks"], e["points"]) for e in examples]


def test_the_app_answers_a_scorings_examples(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "tables.db", bot_delay=0)) as client:
        answer = client.post("/api/scoring", json={"scoring": "balanced"})
    assert answer.status_code == 200
    assert answer.json() == {
        "scoring": "balanced",
        "by_round": False,
        "examples": [
            {"round": 1, "bid": 0, "tricks": 0, "points": 10},
            {"round": 1, "bid": 0, "tricks": 1, "points": -2},
            {"round": 1, "bid": 2, "tricks": 2, "points": 12},
            {"round": 1, "bid": 2, "tricks": 1, "points": -2},
            {"round": 1, "bid": 2, "tricks": 3, "points": -2},
        ],
    }


@pytest.mark.parametrize("scoring", list(Scoring))
def test_every_named_scorings_examples_are_the_engines_points(bare: TestClient, scoring: Scoring) -> None:
    answer = bare.post("/api/scoring", json={"scoring": scoring.value}).json()
    rounds = (1, 3) if scoring is Scoring.ANDERSON else (1,)
    assert answer["by_round"] is (scoring is Scoring.ANDERSON)
    assert points(answer) == [
        (number, bid, tricks, round_score(scoring, bid, tricks, number))
        for number in rounds
        for bid, tricks in EXAMPLE_MOVES
    ]


def test_anderson_is_shown_in_rounds_one_and_three(bare: TestClient) -> None:
    answer = bare.post("/api/scoring", json={"scoring": "anderson"}).json()
    assert (3, 2, 2, 60) in points(answer)
    assert (3, 2, 3, -30) in points(answer)


custom_numbers = st.fixed_dictionaries(
    {},
    optional={
        "exact_bonus": st.integers(-2, 30),
        "per_trick": st.integers(0, 5),
        "per_trick_when": st.sampled_from(["always", "exact", "sometimes"]),
        "per_bid": st.integers(0, 5),
        "miss_per_trick_off": st.integers(0, 12),
    },
)


@settings(max_examples=60, deadline=None)
@given(custom_numbers)
def test_a_custom_scoring_is_shown_by_the_engines_points_or_refused_in_its_words(
    bare: TestClient, numbers: dict[str, object]
) -> None:
    answer = bare.post("/api/scoring", json={"scoring": numbers})
    try:
        scoring = scoring_of(numbers)
    except RulesError as error:
        refusal, facts = str(error), error.facts
    else:
        refusal, facts = "", {}
    if refusal:
        assert answer.status_code == 400
        assert answer.json() == {"error": refusal, "rule": "rules", "option": "scoring", "facts": facts}
        return
    assert answer.status_code == 200
    assert answer.json()["scoring"] == scoring.value
    assert points(answer.json()) == [(1, b, t, round_score(scoring, b, t)) for b, t in EXAMPLE_MOVES]


def test_a_scoring_that_pays_no_exact_bid_more_than_a_miss_is_refused_saying_why(bare: TestClient) -> None:
    answer = bare.post("/api/scoring", json={"scoring": {"exact_bonus": 0}})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("a custom scoring must pay an exact bid more than a miss")
    # As data too, for a page to say it in its own language: bid 0 made scores 0, missed by one 1.
    assert answer.json()["facts"] == {"case": "no_exact_pay", "made": 0, "missed": 1}


@pytest.mark.parametrize("field", ["exact_bonus", "per_trick", "per_bid", "miss_per_trick_off"])
@pytest.mark.parametrize("value", [-1, 1001, 2.5, "ten", True])
def test_a_custom_scorings_number_out_of_range_is_refused_naming_its_field(
    bare: TestClient, field: str, value: object
) -> None:
    answer = bare.post("/api/scoring", json={"scoring": {field: value}})
    assert answer.status_code == 400
    assert answer.json()["facts"] == {"field": field, "case": "range", "most": 1000}


@pytest.mark.parametrize(
    "body",
    [{}, {"scoring": "squares", "round": 3}, {"scoring": 7}, {"scoring": None}, {"scoring": ["squares"]}],
)
def test_a_request_that_names_no_scoring_is_refused_with_a_sentence(bare: TestClient, body: object) -> None:
    answer = bare.post("/api/scoring", json=body)
    assert answer.status_code == 400
    assert "scoring" in answer.json()["error"]


def test_a_body_that_is_not_json_is_refused_not_crashed(bare: TestClient) -> None:
    answer = bare.post("/api/scoring", content=b"{", headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]


def test_the_rules_of_a_table_whose_trump_rotates_carry_every_rounds_trump() -> None:
    rules = Rules.from_options({"trump": "rotate", "schedule": [1, 2, 3, 2, 1, 1, 1]}, player_count=4)
    assert rules_json(rules)["trumps"] == ["H", "D", "C", "S", None, "H", "D"]
    assert "trumps" not in rules_json(Rules.from_options({}, player_count=4))
