"""Every refusal the score keeper can give is worded for a family, in all five languages.

Random sheets take random entries, good and bad (Hypothesis), through the keeper's one entry point
(:func:`upriver.keeper.commands.apply`, which the server's API and the engine on the phone both call)
and through the HTTP API. Each refusal carries its rule and its facts as data, and its own catalogue
sentence (the rule's ``case``) in English, French, Czech, Italian and Swedish: worded as the page words
it (``keep-words.js``: a dealer's struck bid names the player, any other refusal is its rule's reason),
with every placeholder filled, players by name, and none of a programmer's words ("seat 2", ``None``,
``'points'``). A refusal changes nothing. An adjustment's note is read as any typed line is
(:func:`upriver.names.text_line`): text-direction and control characters are refused, on the phone too.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from upriver.errors import RefusalError
from upriver.i18n import LANGUAGES, catalogue, placeholders, reason, reason_key, restriction_reason, translate
from upriver.keeper import browser
from upriver.keeper.commands import ACTIONS, apply, new_sheet
from upriver.keeper.sheet import KeptSheet
from upriver.names import TextError, text_line
from upriver.record import dumps
from upriver.web.app import create_app

NAMES = ["Ann", "Bob", "Cid", "Dee"]
WHOLE_RULES = frozenset({"tricks add up", "game over", "fix first", "undo", "first jack", "round order"})
"""Refusals whose rule alone says why (keep-words.js's WHOLE_RULES): no case needed."""
PROGRAMMER = re.compile(r"\bseats? \d|\bNone\b|\bnull\b|'[a-z_]+'|\{|\}|\[|\]|\?")
"""What a family should never read: a seat number, Python's or JSON's nothing, a quoted field name,
a placeholder left, a list's brackets, a fact said "?" for want of it."""

NUMBER = st.one_of(st.integers(-3, 12), st.sampled_from([-1001, 1001, 0]))
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    NUMBER,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.sampled_from(["x", "H", ""]),
)
VALUES = st.one_of(
    st.lists(st.one_of(st.none(), st.integers(-1, 4)), min_size=3, max_size=5),
    st.lists(ANYTHING, max_size=3),
)
TEXT = st.one_of(
    st.sampled_from(["Eve", "ann", "Bob", "  ", "\u202eEve", "Eve (basic)", "x" * 30]), st.text(max_size=30)
)
BODIES: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "jack": st.fixed_dictionaries({"seat": st.one_of(NUMBER, ANYTHING)}),
    "bid": st.fixed_dictionaries(
        {"seat": st.one_of(st.none(), NUMBER, ANYTHING), "bid": st.one_of(NUMBER, ANYTHING)}
    ),
    "bids": st.fixed_dictionaries({"bids": st.one_of(VALUES, ANYTHING)}),
    "tricks": st.fixed_dictionaries({"tricks": st.one_of(VALUES, ANYTHING)}),
    "trump": st.fixed_dictionaries({"suit": ANYTHING}, optional={"round": st.one_of(NUMBER, ANYTHING)}),
    "edit": st.fixed_dictionaries(
        {"round": st.one_of(NUMBER, ANYTHING)}, optional={"bids": VALUES, "tricks": VALUES}
    ),
    "dealer": st.fixed_dictionaries({"seat": st.one_of(NUMBER, ANYTHING)}),
    "undo": st.just({}),
    "join": st.fixed_dictionaries(
        {"name": st.one_of(TEXT, ANYTHING)},
        optional={"start": st.sampled_from(["zero", "lowest", "half", 1])},
    ),
    "leave": st.fixed_dictionaries({"seat": st.one_of(NUMBER, ANYTHING)}),
    "sit-out": st.fixed_dictionaries({"seat": NUMBER}, optional={"round": st.one_of(NUMBER, ANYTHING)}),
    "adjust": st.fixed_dictionaries(
        {"seat": st.one_of(NUMBER, ANYTHING), "points": st.one_of(NUMBER, ANYTHING)},
        optional={"note": st.one_of(TEXT, ANYTHING)},
    ),
    "schedule": st.fixed_dictionaries(
        {
            "sizes": st.one_of(
                st.lists(st.integers(-1, 14), max_size=6), st.just(list(range(1, 103))), ANYTHING
            )
        }
    ),
}
ENTRY = st.one_of(
    *(st.tuples(st.just(action), body) for action, body in BODIES.items()),
    st.tuples(st.sampled_from(["nope", "export"]), st.just({})),
)
START = st.fixed_dictionaries(
    {
        "players": st.just(NAMES),
        "preset": st.sampled_from(["classic-hook", "classic", "countdown"]),
        "schedule": st.lists(st.integers(1, 3), min_size=1, max_size=4),
    },
    optional={"dealer": st.integers(0, 3), "first_jack": st.just(True)},
)


def page_words(lang: str, error: RefusalError, players: tuple[str, ...]) -> str:
    """The refusal as the keeper's page words it in ``lang`` (keep-words.js ``refusal``)."""
    facts = error.facts_json()
    if error.rule in ("hook", "overbid") and error.seat is not None:
        why = restriction_reason(lang, {"rule": error.rule, **facts})
        return translate(
            lang, "keeper.mayNotBid", who=players[error.seat], bids=str(facts.get("bid")), reason=why
        )
    return reason(lang, error.rule, facts)


def sentence_key(error: RefusalError) -> str:
    """The catalogue key of the refusal's own sentence; fails if it has none (a generic fallback)."""
    if error.rule in ("hook", "overbid"):
        assert error.seat is not None, error
        return "keeper.mayNotBid"
    case = error.facts.get("case")
    key = reason_key(error.rule)
    if isinstance(case, str):
        key = f"{key}.{reason_key(case)[7:]}"
        assert key in catalogue("en"), f"{error.rule!r} case {case!r} has no sentence ({error})"
        return key
    assert error.rule in WHOLE_RULES, f"{error.rule!r} refusal without a case of its own: {error}"
    return key


def assert_worded(error: RefusalError, players: tuple[str, ...]) -> None:
    """The refusal is its own sentence in every language, every fact filled, no programmer's words."""
    key = sentence_key(error)
    facts = error.facts_json()
    english_template = catalogue("en")[key]
    if key.startswith("reason."):
        template = (
            english_template if isinstance(english_template, str) else " ".join(english_template.values())
        )
        missing = placeholders(template) - facts.keys()
        assert not missing, f"{key} needs {sorted(missing)}, not given by {error!r} {facts}"
    english = page_words("en", error, players)
    for lang in LANGUAGES:
        assert key in catalogue(lang), f"{key} is not in the {lang} catalogue"
        said = page_words(lang, error, players)
        assert said.strip(), key
        assert not PROGRAMMER.search(said), f"{lang}: {said!r} ({key}, {facts})"
        if lang != "en":
            assert said != english, f"{key} is English in {lang}: {said!r}"
        for name in ("player", "next"):
            if isinstance(facts.get(name), str) and "{" + name + "}" in str(catalogue(lang)[key]):
                assert str(facts[name]) in said, (lang, said, facts)


def fresh(body: dict[str, Any]) -> KeptSheet | None:
    try:
        return new_sheet(body)
    except (RefusalError, ValueError):
        return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=START, entries=st.lists(ENTRY, max_size=12))
def test_every_refusal_of_the_keeper_is_its_own_sentence_in_five_languages_and_changes_nothing(
    start: dict[str, Any], entries: list[tuple[str, dict[str, Any]]]
) -> None:
    sheet = fresh(start)
    if sheet is None:
        return
    for action, body in entries:
        before = dumps(sheet.to_record())
        try:
            apply(sheet, action, body)
        except RefusalError as error:
            assert_worded(error, sheet.players)
            assert dumps(sheet.to_record()) == before, (action, body)


@settings(max_examples=300, deadline=None)
@given(
    entries=st.lists(
        st.sampled_from(
            [
                ("bid", {"seat": 1, "bid": 1}),
                ("bid", {"seat": 2, "bid": 0}),
                ("bid", {"seat": 3, "bid": 0}),
                ("bid", {"seat": 0, "bid": 0}),
                ("bid", {"seat": 0, "bid": 3}),
                ("bids", {"bids": [0, 1, 0, 0]}),
                ("tricks", {"tricks": [0, 1, 0, 0]}),
                ("tricks", {"tricks": [1, 1, 0, 0]}),
                ("tricks", {"tricks": [0, 0, 0, 0]}),
                ("edit", {"round": 1, "tricks": [1, 0, 0, 0]}),
                ("edit", {"round": 1, "bids": [None, None, None, 1]}),
                ("dealer", {"seat": 3}),
                ("join", {"name": "Eve"}),
                ("join", {"name": "Fay", "start": "average"}),
                ("leave", {"seat": 0}),
                ("leave", {"seat": 4}),
                ("sit-out", {"seat": 1}),
                ("sit-out", {"seat": 2, "round": 9}),
                ("adjust", {"seat": 2, "points": 10, "note": "nice"}),
                ("schedule", {"sizes": [13]}),
                ("schedule", {"sizes": []}),
                ("schedule", {"sizes": [2, 1]}),
                ("undo", {}),
            ]
        ),
        max_size=25,
    ),
    preset=st.sampled_from(["classic-hook", "countdown", "classic"]),
)
def test_refusals_met_along_a_real_evening_are_their_own_sentences_too(
    entries: list[tuple[str, dict[str, Any]]], preset: str
) -> None:
    """Plausible entries in any order: the refusals a keeper actually meets (the hook, a round begun,
    a departure below three, a schedule the deck cannot deal) are worded as the others are."""
    sheet = new_sheet({"players": NAMES, "preset": preset, "schedule": [1, 2, 3, 2], "dealer": 0})
    for action, body in entries:
        before = dumps(sheet.to_record())
        try:
            apply(sheet, action, body)
        except RefusalError as error:
            assert_worded(error, sheet.players)
            assert dumps(sheet.to_record()) == before, (action, body)


def sheet_of(players: int, schedule: list[int], entries: list[tuple[str, dict[str, Any]]]) -> KeptSheet:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"][:players]
    sheet = new_sheet({"players": names, "schedule": schedule, "dealer": 0, "dealer_bid": "hook"})
    for action, body in entries:
        apply(sheet, action, body)
    return sheet


SCORED = [("bids", {"bids": [0, 0, 0, 0]}), ("tricks", {"tricks": [1, 0, 0, 0]})]
SITUATIONS = [
    # (players, schedule, entries made, the refused entry, its rule and case)
    (4, [1], SCORED, ("bid", {"seat": 1, "bid": 0}), ("game over", None)),
    (4, [1], SCORED, ("join", {"name": "Eve"}), ("roster", "over")),
    (8, [1, 1], [], ("join", {"name": "Ivy"}), ("roster", "full")),
    (3, [1, 1], [], ("leave", {"seat": 1}), ("roster", "fewest")),
    (3, [1, 1], [], ("sit-out", {"seat": 1}), ("roster", "sit fewest")),
    (4, [1, 1], [], ("leave", {"seat": 4}), ("seat", "no player")),
    (4, [2, 2], [], ("tricks", {"tricks": [1, 1, 0, 0]}), ("turn order", "tricks first")),
    (
        4,
        [2, 2],
        [("bids", {"bids": [0, 0, 0, 1]})],
        ("tricks", {"tricks": [3, 0, 0, 0]}),
        ("tricks", "keeper"),
    ),
    (
        4,
        [2, 2],
        [("bids", {"bids": [0, 0, 0, 1]})],
        ("tricks", {"tricks": [None, 1, 1, 0]}),
        ("trick counts", "missing"),
    ),
    (4, [2, 2], [], ("bids", {"bids": [0, None, 0, 0]}), ("bids", "missing")),
    (4, [2, 2], [], ("adjust", {"seat": 1, "points": 0}), ("adjustment", "points")),
    (4, [2, 2], [], ("adjust", {"seat": 1, "points": 5, "note": "x" * 81}), ("adjustment", "note too long")),
    (4, [2, 2], [], ("adjust", {"seat": 1, "points": 5, "note": "\u200b"}), ("adjustment", "note empty")),
    (4, [1, 2], SCORED, ("edit", {"round": 2, "tricks": [1, 0, 0, 0]}), ("edit", "not entered")),
    (4, [1, 2], SCORED, ("schedule", {"sizes": [0]}), ("schedule", "no cards")),
    (4, [2, 2], [], ("schedule", {"sizes": [14]}), ("schedule", "deck")),
    (4, [1, 1], [], ("jack", {"seat": 1}), ("first jack", "chosen")),
]


@pytest.mark.parametrize(("players", "schedule", "made", "entry", "refusal"), SITUATIONS)
def test_each_refusal_a_keeper_meets_is_worded_with_its_own_sentence(
    players: int,
    schedule: list[int],
    made: list[tuple[str, dict[str, Any]]],
    entry: tuple[str, dict[str, Any]],
    refusal: tuple[str, str | None],
) -> None:
    sheet = sheet_of(players, schedule, made)
    with pytest.raises(RefusalError) as refused:
        apply(sheet, *entry)
    assert (refused.value.rule, refused.value.facts.get("case")) == refusal
    assert_worded(refused.value, sheet.players)


BIDI = st.sampled_from(list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
CONTROL = st.sampled_from(["\x00", "\x07", "\n", "\r", "\x1b", "\x7f", "\x85", "\u2028", "\u2029"])
NOTE = st.one_of(
    st.text(max_size=120),
    st.lists(st.one_of(st.text(max_size=10), BIDI, CONTROL, st.just("renege")), max_size=12).map("".join),
    st.integers(70, 100).map(lambda n: "x" * n),
)


@settings(max_examples=300, deadline=None)
@given(note=NOTE)
def test_an_adjustments_note_follows_the_rules_of_a_typed_line(note: str) -> None:
    sheet = new_sheet({"players": NAMES, "preset": "classic-hook", "schedule": [1, 2], "dealer": 0})
    before = dumps(sheet.to_record())
    try:
        expected: str | TextError = text_line(note, 80) if note.strip() else ""
    except TextError as line_refused:
        expected = line_refused
    if isinstance(expected, TextError):
        with pytest.raises(RefusalError) as refused:
            apply(sheet, "adjust", {"seat": 2, "points": -5, "note": note})
        error = refused.value
        assert (error.rule, error.facts["case"]) == ("adjustment", f"note {expected.reason}")
        assert_worded(error, sheet.players)
        assert dumps(sheet.to_record()) == before
    else:
        apply(sheet, "adjust", {"seat": 2, "points": -5, "note": note})
        (made,) = sheet.entries.adjustments
        assert made.note == expected


def test_the_phone_refuses_a_text_direction_note_with_the_same_case_and_facts() -> None:
    """The engine on the phone (keeper/browser.py, in Pyodide) answers the API's refusal, facts and all."""
    answer = json.loads(
        browser.start("p", json.dumps({"players": NAMES, "preset": "classic-hook", "dealer": 0}))
    )
    assert "view" in answer
    refused = json.loads(
        browser.act("p", "adjust", json.dumps({"seat": 2, "points": -5, "note": "\u202eegener"}))
    )
    assert refused["rule"] == "adjustment"
    assert refused["facts"] == {"case": "note control", "limit": 80, "player": "Cid"}
    empty = json.loads(browser.act("p", "adjust", json.dumps({"seat": 2, "points": None})))
    assert (empty["rule"], empty["facts"]["case"]) == ("request", "points")


@pytest.fixture
def sheet_api(tmp_path: Any) -> tuple[TestClient, str]:
    """The web app and one sheet on it, which the examples of a test walk through."""
    client = TestClient(create_app(tmp_path / "upriver.sqlite3"))
    made = client.post("/api/sheets", json={"players": NAMES, "preset": "classic-hook", "dealer": 0})
    assert made.status_code == 201, made.text
    return client, made.json()["id"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=ENTRY)
def test_the_http_api_answers_every_bad_entry_with_its_rule_and_facts_worded_in_five_languages(
    sheet_api: tuple[TestClient, str], entry: tuple[str, dict[str, Any]]
) -> None:
    api, sheet = sheet_api
    action, body = entry
    sizes = body.get("sizes")
    if isinstance(sizes, list) and len(sizes) > 99:
        return  # the server's own longest game (web.hosting.guard.rounds_within), not the keeper's rule
    if action == "edit":  # the round is in the path: a number, as the page makes it
        body = {**body, "round": body["round"] if type(body["round"]) is int else 1}
    path = f"/api/sheets/{sheet}/" + (f"rounds/{body['round']}" if action == "edit" else action)
    answer = api.post(path, json=body)
    assert answer.status_code in ((200, 400) if action in ACTIONS else (404,)), answer.text
    if answer.status_code != 400:  # applied, or an action no page makes
        return
    data = answer.json()
    error = RefusalError(
        data["error"], rule=data["rule"], seat=data.get("seat"), facts=data.get("facts") or {}
    )
    assert_worded(error, tuple(NAMES))


@pytest.mark.parametrize(
    ("players", "refusal"),
    [
        (["Ann", "ann", "Cid", "Dee"], ("name", "taken")),
        (["Ann", "Bob", "\u202eCid", "Dee"], ("name", "control")),
        (["Ann", "Bob", "x" * 30, "Dee"], ("name", "too long")),
        (["Ann", "Bob"], ("request", "player count")),
    ],
)
def test_a_new_sheet_refused_is_worded_in_five_languages_by_the_server_and_the_phone(
    players: list[str], refusal: tuple[str, str], tmp_path: Any
) -> None:
    start = {"players": players, "preset": "classic", "dealer": 0}
    answer = TestClient(create_app(tmp_path / "upriver.sqlite3")).post("/api/sheets", json=start)
    on_phone = json.loads(browser.start("new", json.dumps(start)))
    for data in (answer.json(), on_phone):
        error = RefusalError(
            data["error"], rule=data["rule"], seat=data.get("seat"), facts=data.get("facts") or {}
        )
        assert (error.rule, error.facts.get("case")) == refusal
        assert_worded(error, tuple(players))
