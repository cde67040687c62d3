"""POST /api/review: a hand pasted from Trickster Cards (PBN), or a game record, reviewed for every
seat, and a text that is neither refused in words with its facts as data."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.waiting import wait_until
from upriver.record import dumps, loads_pbn
from upriver.review import Settings
from upriver.web.app import create_app
from upriver.web.review.api import ReviewService
from upriver.web.review.upload import NEW_PER_MINUTE, review_upload_router

ROOT = Path(__file__).parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "review.schema.json").read_text(encoding="utf-8"))
# The hand a player pasted into TricksterCards/TricksterBots issue #245 (see tests/test_pbn.py).
HAND = (Path(__file__).parent / "data" / "pbn" / "trickster-245.pbn").read_text(encoding="utf-8")


@pytest.fixture
def client() -> Iterator[TestClient]:
    # Room for every round the limit lets in (4 seats a hand), so the reviewer's own bound on
    # rounds under way (503) never answers before the limit of new hands (429) is reached.
    pool = concurrent.futures.ThreadPoolExecutor(2)
    service = ReviewService(Settings(deals=16), executor=pool, most_in_flight=4 * (NEW_PER_MINUTE + 1))
    app = FastAPI()
    app.include_router(review_upload_router(service))
    with TestClient(app) as made:
        yield made
    pool.shutdown(cancel_futures=True)


def review(client: TestClient, text: str, **query: Any) -> dict[str, Any]:
    """Post until the review is ready, as a page polls."""

    def ready() -> dict[str, Any] | None:
        response: httpx.Response = client.post(
            "/api/review", content=text.encode("utf-8"), params=query, headers={"content-type": "text/plain"}
        )
        if response.status_code == 200:
            body: dict[str, Any] = response.json()
            return body
        assert response.status_code == 202, response.text
        progress = response.json()
        assert 0 <= progress["done"] <= progress["total"]
        return None

    return wait_until(ready, "the review to be ready", timeout=60)


def test_a_pasted_trickster_hand_is_reviewed_for_every_seat(client: TestClient) -> None:
    body = review(client, HAND)
    assert body["status"] == "done"
    jsonschema.Draft202012Validator(SCHEMA).validate(body["review"])
    assert body["review"]["players"] == [
        "Rick (2438974)",
        "Fletcher (Auto)",
        "Vanessa (Auto)",
        "Joann (Auto)",
    ]
    assert [seat["seat"] for seat in body["review"]["seats"]] == [0, 1, 2, 3]
    south = body["review"]["seats"][0]
    (round_,) = south["rounds"]
    assert round_["bid"] == 0
    assert round_["tricks"] is None  # the hand stops in the middle of the round: reviewed as far as it goes
    dealt = {"7C", "4D", "9D", "3H", "5S"}
    for decision in round_["decisions"]:
        assert set(decision["position"]["hand"]) <= dealt  # South's own cards only
    assert body["record"]["rounds"][0]["pbn"]["GameScores"] == "S:82 95 98 79"
    # The same hand as a JSON record is the same review, kept: answered at once.
    again = client.post("/api/review", content=dumps(loads_pbn(HAND)))
    assert again.status_code == 200
    assert again.json() == body


def test_one_seat_may_be_asked_for(client: TestClient) -> None:
    body = review(client, HAND, seat=2)
    assert [seat["player"] for seat in body["review"]["seats"]] == ["Vanessa (Auto)"]
    refused = client.post("/api/review", content=HAND, params={"seat": 4})
    assert refused.status_code == 400
    assert refused.json() == {"error": "the hand has seats 0 to 3, not 4", "field": "seat"}


def test_a_bad_hand_is_refused_with_the_tag_the_line_and_what_would_be_right(client: TestClient) -> None:
    bad = HAND.replace(
        '[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]', '[Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.A"]'
    )
    response = client.post("/api/review", content=bad)
    assert response.status_code == 400
    body = response.json()
    assert body["rule"] == "record"
    assert body["tag"] == "Deal"
    assert body["line"] == 14
    assert body["expected"] == "each card once"
    assert body["error"].startswith("line 14, tag Deal: AC is dealt twice, to West and to South")


def test_a_hand_that_breaks_a_rule_is_refused_naming_the_rule(client: TestClient) -> None:
    response = client.post("/api/review", content=HAND.replace("H4 HT H3 CA", "H4 HT D9 CA"))
    assert response.status_code == 400
    body = response.json()
    assert (body["rule"], body["round"], body["seat"], body["broken"]) == ("record rule", 1, 0, "follow suit")
    assert "must follow suit" in body["error"]


def test_text_that_is_no_record_is_refused_in_words(client: TestClient) -> None:
    for text, words in (("hello", "not a game record: record: not JSON"), (b"\xff\xfe", "not UTF-8")):
        response = client.post("/api/review", content=text)
        assert response.status_code == 400
        assert words in response.json()["error"]


def test_new_hands_from_one_address_are_limited_and_asking_again_is_not(client: TestClient) -> None:
    names = [f"P{i}" for i in range(NEW_PER_MINUTE + 1)]
    statuses = []
    for name in names:
        text = HAND.replace("Rick (2438974)", name)
        statuses.append(client.post("/api/review", content=text).status_code)
    assert all(status in (200, 202) for status in statuses[:NEW_PER_MINUTE])
    assert statuses[-1] == 429
    first_again = client.post("/api/review", content=HAND.replace("Rick (2438974)", names[0]))
    assert first_again.status_code in (200, 202)


def test_the_server_offers_the_route(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "tables.db", bot_delay=0.0)) as site:
        response = site.post("/api/review", content=HAND.replace("[Dealer", "[Dealr"))
        assert response.status_code == 400
        assert response.json()["tag"] == "Dealer"
