"""What the server sends a page is enough to word every refusal and explanation in each language:
the rule and facts of an error reply, of an unplayable card (`why`) and of a forbidden bid."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.webclient import Room
from upriver import Phase
from upriver.i18n import LANGUAGES, reason, translate


def worded(refusal: dict[str, Any]) -> dict[str, str]:
    """A refusal ({rule, facts}) in every language, each checked to be whole: no placeholder left
    and a known rule."""
    said = {lang: reason(lang, refusal["rule"], refusal["facts"]) for lang in LANGUAGES}
    for lang, text in said.items():
        assert "{" not in text, (lang, text)
        assert "?" not in text, (lang, text)
        assert text != translate(lang, "reason.unknown", rule=refusal["rule"]), (lang, refusal)
    return said


def test_a_forbidden_bid_carries_the_refusal_it_would_get(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2], dealer_bid="hook")
    while room.game.awaiting[0] != room.game.dealer:
        room.move()
    dealer = room.game.dealer
    options = room.clients[dealer].received[-1]["game"]["bid_options"]
    forbidden = [option for option in options if not option["legal"]]
    assert len(forbidden) == 1
    assert all("why" not in option for option in options if option["legal"])
    why = forbidden[0]["why"]
    assert why["rule"] == "hook"
    assert why["seat"] == dealer
    said = worded(why)
    assert said["fr"].startswith(f"Vous ne pouvez pas annoncer {forbidden[0]['bid']}\u00a0:")
    # Trying it gets the same rule and facts, so the page says the same thing before and after.
    room.clients[dealer].act("bid", forbidden[0]["bid"])
    error = room.clients[dealer].error()
    assert {lang: reason(lang, error["rule"], error["facts"]) for lang in LANGUAGES} == said


def test_every_unplayable_card_carries_its_reason_as_rule_and_facts(client: TestClient, stack: Any) -> None:
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
    for entry in refused:
        assert entry["why"]["rule"] in ("follow suit", "trump broken")
        worded(entry["why"])
    assert all(entry["why"] is None for entry in hand if entry["legal"])
    waiting = room.clients[(seat + 1) % 4].received[-1]["game"]["hand"]
    assert {json.dumps(entry["why"]) for entry in waiting} == {
        json.dumps({"rule": "turn order", "seat": (seat + 1) % 4, "facts": {"case": "playing"}})
    }
    assert worded(waiting[0]["why"])["cs"] == "Nejste na tahu: počkejte, až zahrají ostatní."


def test_a_malformed_message_is_refused_with_the_field_it_got_wrong(client: TestClient, stack: Any) -> None:
    room = Room(client, stack, schedule=[2])
    member = room.clients[room.game.awaiting[0]]
    member.ws.send_text(json.dumps({"type": "bid", "bid": "one", "v": room.table.version, "id": "x1"}))
    error = member.error()
    assert (error["rule"], error["facts"]) == ("field", {"field": "bid"})
    assert worded(error)["it"] == "Il messaggio ha un campo errato o mancante (bid)."
    member.ws.send_text("x" * 5000)
    assert worded(member.error())["sv"] == "Meddelandet är för långt."
