"""docs/record.schema.json: every record the project writes or keeps validates; wrong ones do not.

The schema describes the canonical spelling that writers produce (docs/record.md §6); the
reader's lenient spellings are checked here to be refused by the schema and accepted again
once upriver has rewritten them.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import upriver.cli.play
from tests.conftest import record_doc
from tests.helpers import HOUSE_RULES
from tests.webclient import Room
from upriver import PRESETS, Game, Phase, Rules, Schedule, Suit, preset
from upriver.cli import app
from upriver.record import FORMAT, dumps, loads, record_of, to_json
from upriver.rules import most_cards
from upriver.web.app import create_app

ROOT = Path(__file__).parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
NAMES = ["Ann", "Bob", "Cid", "Dee"]
runner = CliRunner()

assert upriver.cli.play  # registers `upriver play` on the app


def problems(document: object) -> list[str]:
    """Every way ``document`` fails the schema, as ``path: message`` lines (empty: it is valid)."""
    return [
        f"{'/'.join(str(part) for part in error.absolute_path)}: {error.message}"
        for error in VALIDATOR.iter_errors(document)
    ]


def assert_valid_text(text: str) -> None:
    """A record's text validates against the schema, and upriver reads it too."""
    assert problems(json.loads(text)) == []
    loads(text)


def random_game(rules: Rules, seed: int, moves: int | None = None, names: list[str] | None = None) -> Game:
    """A seeded game of uniformly random legal moves, to the end or for ``moves`` moves."""
    game = Game(rules, names, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.is_over and (moves is None or made < moves):
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat=seat)
        else:
            game.play(rng.choice(game.legal_cards()))
        made += 1
    return game


# ------------------------------------------------------------------ the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


# ------------------------------------------------------------------ golden records


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_every_golden_record_validates(path: Path) -> None:
    assert_valid_text(path.read_text(encoding="utf-8"))


def test_there_is_a_golden_record_for_every_preset_and_every_house_rule() -> None:
    assert sorted(path.stem for path in GOLDEN) == sorted([*PRESETS, *HOUSE_RULES])


# ------------------------------------------------------------------ upriver.record's writer


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_whole_games_written_by_the_record_writer_validate_for_every_preset_and_count(name: str) -> None:
    found = PRESETS[name]
    for count in range(found.min_players, found.max_players + 1):
        game = random_game(preset(name, count, max_cards=min(3, most_cards(count))), seed=count)
        assert game.is_over
        assert_valid_text(dumps(game))


@pytest.mark.parametrize("moves", [0, 1, 5, 13, 30])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_games_in_progress_written_by_the_record_writer_validate(name: str, moves: int) -> None:
    game = random_game(preset(name, 4), seed=moves, moves=moves, names=NAMES)
    assert_valid_text(dumps(record_of(game, extras={"seed": game.seed, "event": "club night"})))


def test_a_game_waiting_for_its_first_deal_validates() -> None:
    game = Game(preset("countdown", 4), NAMES, auto_deal=False)
    assert to_json(record_of(game))["rounds"] == []
    assert_valid_text(dumps(game))


def test_a_round_dealing_the_whole_deck_writes_a_null_turned_card_that_validates() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13, 2))
    text = dumps(random_game(rules, seed=5))
    assert json.loads(text)["rounds"][0]["turned"] is None
    assert_valid_text(text)


def test_score_keeping_rounds_written_by_the_record_writer_validate() -> None:
    game = Game(
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2, 1)), NAMES, auto_deal=False
    )
    game.deal_at_table(Suit.SPADES)
    for bid in (1, 0, 0, 0):
        game.bid(bid)
    game.record_tricks((0, 1, 1, 0))
    game.deal_at_table()
    game.bid(0)
    written = to_json(record_of(game))
    assert written["rounds"] == [
        {"dealer": 0, "bids": [0, 1, 0, 0], "tricks": [0, 1, 1, 0], "trump": "S"},
        {"dealer": 1, "bids": [None, None, 0, None]},
    ]
    assert_valid_text(dumps(game))


# ------------------------------------------------------------------ the terminal game's save


def anything_legal(lines: int = 4000) -> str:
    """Answers that reach a legal move at any prompt: 0, 1, 2 … in turn (a card prompt refuses 0)."""
    return "".join(f"{i % 4}\n" for i in range(lines))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_terminal_games_save_validates_for_every_preset(name: str, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    base = ["play", "--delay", "0", "--seed", "3", "--preset", name, "--max-cards", "2", "--save", str(save)]
    players = str(PRESETS[name].min_players)
    finished = runner.invoke(app, [*base, "--players", players], input=anything_legal())
    assert finished.exit_code == 0, finished.output[-2000:]
    assert_valid_text(save.read_text(encoding="utf-8"))
    stopped = runner.invoke(app, [*base, "--players", "4"], input="0\n")  # end of input saves mid-game
    assert f"Game saved to {save}" in stopped.output
    assert json.loads(save.read_text(encoding="utf-8"))["rounds"]
    assert_valid_text(save.read_text(encoding="utf-8"))


# ------------------------------------------------------------------ the web table's export


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_web_tables_export_validates_during_and_after_the_game_for_every_preset(
    name: str, tmp_path: Path, stack: contextlib.ExitStack
) -> None:
    with TestClient(create_app(tmp_path / "tables.db", bot_delay=0.0)) as client:
        room = Room(client, stack, preset=name, max_cards=2)
        url = f"/api/tables/{room.id}/record"
        token = room.table.tokens[0]
        exported = 0
        while not room.game.is_over:
            room.move()
            if room.game.phase is Phase.PLAYING and not room.game.trick:
                assert_valid_text(client.get(f"{url}?token={token}").text)
                exported += 1
        assert exported > 0
        whole = client.get(url).text
        assert len(json.loads(whole)["rounds"]) == len(room.game.rules.hand_sizes)
        assert_valid_text(whole)
        stack.close()


# ------------------------------------------------------------------ the score keeper's export


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_score_keepers_record_export_validates_for_every_preset(name: str, tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "keep.sqlite3", bot_delay=0)) as client:
        body = {"players": NAMES, "preset": name, "schedule": [1, 2, 1], "dealer": 0, "title": "Friday"}
        sheet = post(client, "/api/sheets", body, 201)
        base = f"/api/sheets/{sheet['id']}"
        assert_valid_text(client.get(f"{base}/record").text)  # no round entered yet
        sheet = post(client, f"{base}/trump", {"suit": "H"})
        while sheet["phase"] != "over":
            current = sheet["current"]
            if sheet["phase"] == "bidding":
                seat = current["to_bid"][0]
                sheet = post(
                    client, f"{base}/bid", {"seat": seat, "bid": current["legal_bids"][str(seat)][0]}
                )
            else:
                assert sheet["phase"] == "tricks"
                sheet = post(client, f"{base}/tricks", {"tricks": [current["hand_size"], 0, 0, 0]})
            assert_valid_text(client.get(f"{base}/record").text)
        written = json.loads(client.get(f"{base}/record").text)
        assert [entry["tricks"] for entry in written["rounds"]] == [[1, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0]]
        assert written["rounds"][0]["trump"] == "H"


def test_a_keepers_sheet_waiting_for_the_first_jack_exports_a_record_that_validates(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "keep.sqlite3", bot_delay=0)) as client:
        sheet = post(client, "/api/sheets", {"players": NAMES, "preset": "classic", "max_cards": 2}, 201)
        assert sheet["phase"] == "jack"
        assert_valid_text(client.get(f"/api/sheets/{sheet['id']}/record").text)


# ------------------------------------------------------------------ a property over random games


@st.composite
def random_rules(draw: st.DrawFn) -> Rules:
    """A preset for a player count it allows, sometimes with a smaller peak or a list of hand sizes."""
    found = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    count = draw(st.integers(found.min_players, found.max_players))
    shape = draw(st.sampled_from(["preset", "peak", "list"]))
    if shape == "peak":
        return found.rules(count, max_cards=draw(st.integers(1, min(4, most_cards(count)))))
    if shape == "list":
        sizes = draw(st.lists(st.integers(1, 52 // count), min_size=1, max_size=3))
        return found.rules(count, schedule=Schedule.EXPLICIT, explicit_sizes=tuple(sizes))
    return found.rules(count)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=random_rules(), seed=st.integers(0, 2**32), moves=st.none() | st.integers(0, 120))
def test_random_legal_games_under_random_presets_written_by_the_record_writer_all_validate(
    rules: Rules, seed: int, moves: int | None
) -> None:
    game = random_game(rules, seed=seed, moves=moves)
    assert problems(to_json(record_of(game, extras={"seed": seed}))) == []
    assert_valid_text(dumps(game))


# ------------------------------------------------------------------ what the schema refuses


def changed(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """The :func:`record_doc` record with the value at ``path`` replaced (or removed, for ``...``)."""
    document = copy.deepcopy(record_doc())
    here: Any = document
    for key in path[:-1]:
        here = here[key]
    if value is ...:
        del here[path[-1]]
    else:
        here[path[-1]] = value
    return document


WRONG: list[tuple[str, dict[str, Any]]] = [
    ("missing format", changed(("format",), ...)),
    ("another format", changed(("format",), "upriver-record/2")),
    ("missing players", changed(("players",), ...)),
    ("missing rounds", changed(("rounds",), ...)),
    ("two players", changed(("players",), ["Ann", "Bob"])),
    ("a name twice", changed(("players",), ["Ann", "Bob", "Ann", "Dee"])),
    ("an empty name", changed(("players", 1), " ")),
    ("a name with a newline", changed(("players", 1), "Bob\nBea")),
    ("a name with spaces around it", changed(("players", 1), " Bob")),
    ("a name of 25 characters", changed(("players", 1), "B" * 25)),
    ("a name with a bidi override", changed(("players", 1), "\u202ebob")),
    ("card XX", changed(("rounds", 0, "hands", 1, 0), "XX")),
    ("card not text", changed(("rounds", 0, "plays", 1), 7)),
    ("unknown rule value", changed(("rules", "scoring"), "golf")),
    ("unknown preset", changed(("rules", "preset"), "bridge")),
    (
        "a preset for other player counts",
        {"format": FORMAT, "rules": {"preset": "classic"}, "players": ["Ann", "Bob", "Cid"], "rounds": []},
    ),
    ("max_cards with a list schedule", changed(("rules", "max_cards"), 1)),
    ("a peak the deck cannot deal", changed(("rules",), {"max_cards": 13})),
    (
        "simultaneous bids with the hook",
        changed(("rules",), {"bidding": "simultaneous", "dealer_bid": "hook"}),
    ),
    ("closed fists with overbid", changed(("rules",), {"preset": "closed-fists", "dealer_bid": "overbid"})),
    (
        "simultaneous bids over countdown's hook",
        changed(("rules",), {"preset": "countdown", "bidding": "simultaneous"}),
    ),
    ("missing bids", changed(("rounds", 0, "bids"), ...)),
    ("missing dealer", changed(("rounds", 0, "dealer"), ...)),
    ("dealer seat beyond the table", changed(("rounds", 0, "dealer"), 4)),
    ("three bids for four players", changed(("rounds", 0, "bids"), [0, 1, 0])),
    ("a negative bid", changed(("rounds", 0, "bids", 0), -1)),
    ("a bid as text", changed(("rounds", 0, "bids", 0), "1")),
    ("hands without a turned key", changed(("rounds", 0, "turned"), ...)),
    ("a card played twice", changed(("rounds", 0, "plays"), ["7H", "7H", "KD", "AS"])),
    ("a card twice in one hand", changed(("rounds", 0, "hands", 0), ["AS", "AS"])),
    ("plays without hands", changed(("rounds", 0, "hands"), ...)),
    ("trump beside a turned card", changed(("rounds", 0, "trump"), "H")),
    ("a trump suit that is not a suit", changed(("rounds", 0), {"dealer": 0, "bids": [0] * 4, "trump": "X"})),
]


@pytest.mark.parametrize("document", [case[1] for case in WRONG], ids=[case[0] for case in WRONG])
def test_the_schema_refuses_a_document_that_is_clearly_not_a_record(document: dict[str, Any]) -> None:
    assert problems(document) != []


def test_the_story_record_the_refusals_start_from_is_valid() -> None:
    assert problems(record_doc()) == []
    loads(json.dumps(record_doc()))


def test_lenient_spellings_are_read_by_upriver_but_refused_by_the_canonical_schema_until_rewritten() -> None:
    lenient = record_doc()
    lenient["format"] = " UPRIVER-RECORD/1 "
    lenient["rules"] = {"preset": "classic", "schedule": [1], "dealer_bid": "HOOK", "scoring": "ten_plus_bid"}
    lenient["rounds"][0].update(
        hands=[["as"], ["7h"], ["10c"], ["K♦"]], turned="qd", plays=["7h", "10C", "k♦", "AS"]
    )
    lenient["rounds"][0]["bids"] = [1, 1, 0, 1]
    lenient["players"][0] = "  Ann "
    text = json.dumps(lenient)
    assert len(problems(lenient)) >= 6
    assert any(problem.startswith("players/0: ") for problem in problems(lenient))
    rewritten = dumps(loads(text))
    assert_valid_text(rewritten)
    assert json.loads(rewritten)["rounds"][0]["plays"] == ["7H", "TC", "KD", "AS"]
    assert json.loads(rewritten)["players"][0] == "Ann"
