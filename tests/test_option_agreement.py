"""Every adapter reads rule options as the engine does: the same combinations accepted, with the same
rules, and the same ones refused, with the engine's sentence (behind the adapter's own prefix).

One table of option combinations, spelled as in the game record; each runs through every adapter
that can express it: the web lobby (``POST /api/tables``), the score keeper (``POST /api/sheets``),
``upriver play`` and ``upriver keep`` (when the command line has flags for every option given and a
preset is named, since both always play a preset), the PettingZoo and Gymnasium environments, and
the record reader. The reference is :meth:`upriver.rules.Rules.from_options` itself.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import upriver.cli.keep
import upriver.cli.play
from upriver.cli import app as cli_app
from upriver.errors import RecordError, RulesError
from upriver.keeper.store import SqliteSheetStore
from upriver.options import OPTIONS
from upriver.pettingzoo import raw_env
from upriver.record import FORMAT, load, loads
from upriver.rl.gym import SingleSeatEnv
from upriver.rules import OPTION_NAMES, Rules
from upriver.web.app import create_app

assert upriver.cli.play  # both commands registered on the app, as for the console script
assert upriver.cli.keep

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
CLI_FLAGS = {
    "preset": "--preset",
    **{option.name: option.flag for option in OPTIONS if option.flag is not None},
}
"""The options ``upriver play`` and ``upriver keep`` have a flag for (not ``first_dealer``)."""


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    players: int
    options: dict[str, object]


CASES = [
    Case(
        "countdown with simultaneous bidding keeps its hook",
        5,
        {"preset": "countdown", "bidding": "simultaneous"},
    ),
    Case(
        "countdown with simultaneous bidding and a free dealer",
        5,
        {"preset": "countdown", "bidding": "simultaneous", "dealer_bid": "free"},
    ),
    Case("closed fists with the hook", 4, {"preset": "closed-fists", "dealer_bid": "hook"}),
    Case(
        "simultaneous bidding with overbid, no preset",
        4,
        {"bidding": "simultaneous", "dealer_bid": "overbid"},
    ),
    Case("classic played down-up", 5, {"preset": "classic", "schedule": "down-up"}),
    Case("countdown played up-down", 6, {"preset": "countdown", "schedule": "up-down"}),
    Case("an explicit schedule over a preset", 4, {"preset": "classic-hook", "schedule": [1, 2, 1]}),
    Case("an explicit schedule alone", 3, {"schedule": [3, 3], "first_dealer": "left-of-keeper"}),
    Case("an explicit schedule with max_cards", 4, {"preset": "classic", "schedule": [2, 3], "max_cards": 3}),
    Case("a peak too large for 8 players", 8, {"preset": "countdown", "max_cards": 7}),
    Case("an explicit hand too large for 8 players", 8, {"preset": "countdown", "schedule": [7]}),
    Case(
        "options in another case and spelling",
        4,
        {"preset": "Overbid", "trump_lead": "BROKEN", "scoring": "ten_plus_bid"},
    ),
    Case("an unknown option", 4, {"preset": "classic", "colour": "red"}),
    Case("an unknown value", 4, {"preset": "classic", "scoring": "golf"}),
    Case("an unknown schedule", 4, {"preset": "classic", "schedule": "sideways"}),
    Case("an unknown preset", 4, {"preset": "bridge"}),
    Case("a preset outside its player range", 3, {"preset": "classic"}),
    Case("no options at all", 7, {}),
    Case("squares with a rotating trump", 4, {"preset": "classic", "scoring": "squares", "trump": "rotate"}),
    Case("anderson, no preset", 3, {"scoring": "anderson"}),
    Case(
        "a custom scoring",
        5,
        {"preset": "countdown", "scoring": {"exact_bonus": 20, "per_trick": 2, "per_trick_when": "exact"}},
    ),
    Case("a custom scoring that pays no exact bid", 4, {"preset": "classic", "scoring": {"exact_bonus": 0}}),
    Case("a custom scoring with an unknown key", 4, {"preset": "classic", "scoring": {"bonus": 5}}),
    Case(
        "trump lead after the first trick in a blind one-card round",
        6,
        {"preset": "overbid", "trump_lead": "after-first-trick", "blind_one_card": True},
    ),
    Case(
        "negative scoring without the blind round",
        4,
        {"preset": "countdown", "scoring": "negative", "blind_one_card": False},
    ),
    Case("an unknown trump rule", 4, {"preset": "classic", "trump": "random"}),
    Case("a blind round said in words", 4, {"preset": "classic", "blind_one_card": "yes"}),
]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What an adapter made of a case: the rules as the record writes them, or its refusal's text."""

    rules: dict[str, object] | None = None
    refusal: str | None = None


def expected(case: Case) -> tuple[dict[str, object] | None, RulesError | None]:
    try:
        rules = Rules.from_options(case.options, player_count=case.players)
    except RulesError as error:
        return None, error
    return written(rules), None


def written(rules: Rules) -> dict[str, object]:
    return {**rules.options(), "player_count": rules.player_count}


# ------------------------------------------------------------------ the adapters


def caught(make: Callable[[], Rules]) -> Outcome:
    try:
        return Outcome(rules=written(make()))
    except RulesError as error:
        return Outcome(refusal=str(error))


def pettingzoo(case: Case, tmp_path: Path) -> Outcome:
    options = dict(case.options)
    preset = options.pop("preset", None)
    return caught(lambda: raw_env(preset=preset, players=case.players, **options).rules)


def gymnasium(case: Case, tmp_path: Path) -> Outcome:
    options = dict(case.options)
    preset = options.pop("preset", None)
    return caught(lambda: SingleSeatEnv(preset, case.players, **options).rules)  # type: ignore[arg-type]


def record_text(case: Case) -> str:
    players = list(NAMES[: case.players])
    return json.dumps({"format": FORMAT, "rules": case.options, "players": players, "rounds": []})


def record(case: Case, tmp_path: Path) -> Outcome:
    try:
        read = loads(record_text(case))
    except RecordError as error:
        return Outcome(refusal=str(error))
    return Outcome(rules=written(read.rules))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("agreement") / "upriver.sqlite3"
    with TestClient(create_app(db, bot_delay=0.0)) as test_client:
        yield test_client


def web_lobby(client: TestClient, case: Case) -> Outcome:
    seats = ["human", *["random"] * (case.players - 1)]
    response = client.post("/api/tables", json={"name": "Ann", "seats": seats, **case.options})
    if response.status_code != 201:
        assert response.status_code == 400, response.text
        return Outcome(refusal=response.json()["error"])
    made = response.json()
    exported = client.get(f"/api/tables/{made['table']}/record?token={made['token']}")
    assert exported.status_code == 200, "a table whose only person is its creator starts at once"
    return Outcome(rules=written(loads(exported.text).rules))


def keeper_api(client: TestClient, case: Case) -> Outcome:
    body = {"players": list(NAMES[: case.players]), "dealer": 0, **case.options}
    response = client.post("/api/sheets", json=body)
    if response.status_code != 201:
        assert response.status_code == 400, response.text
        return Outcome(refusal=response.json()["error"])
    rules = dict(response.json()["rules"])
    rules.pop("hand_sizes", None)
    rules.pop("trumps", None)  # each round's trump when it rotates, for the sheet: not a rule option
    return Outcome(rules=rules)


def cli_args(case: Case) -> list[str] | None:
    """The flags that say the case on the command line, or ``None`` when it cannot be said."""
    if "preset" not in case.options or not set(case.options) <= set(CLI_FLAGS):
        return None
    args: list[str] = []
    for key, value in case.options.items():
        if key == "blind_one_card":
            if not isinstance(value, bool):
                return None  # a switch is on or off: the command line cannot say anything else
            args.append("--blind-one-card" if value else "--no-blind-one-card")
            continue
        if isinstance(value, dict):
            text = json.dumps(value)
        else:
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
        args += [CLI_FLAGS[key], text]
    return args


def cli_play(case: Case, tmp_path: Path, args: list[str]) -> Outcome:
    save = tmp_path / "game.json"
    command = ["play", "--delay", "0", "--seed", "1", "--players", str(case.players), "--save", str(save)]
    result = CliRunner().invoke(cli_app, [*command, *args], input="quit\n")
    if result.exit_code == 2:
        return Outcome(refusal=result.output)
    assert result.exit_code == 0, result.output
    return Outcome(rules=written(load(save).rules))


def cli_keep(case: Case, tmp_path: Path, args: list[str]) -> Outcome:
    db = tmp_path / "keep.sqlite3"
    players = ",".join(NAMES[: case.players])
    command = ["keep", "--players", players, "--dealer", NAMES[0], "--db", str(db)]
    result = CliRunner().invoke(cli_app, [*command, *args], input="quit\n")
    if result.exit_code == 2:
        return Outcome(refusal=result.output)
    assert result.exit_code == 0, result.output
    store = SqliteSheetStore(db)
    try:
        (summary,) = store.sheets()
        stored = store.load(summary.id)
    finally:
        store.close()
    assert stored is not None
    return Outcome(rules=written(stored.sheet.rules))


def outcome(adapter: str, case: Case, tmp_path: Path, client: TestClient) -> Outcome:
    if adapter == "web lobby":
        return web_lobby(client, case)
    if adapter == "keeper API":
        return keeper_api(client, case)
    if adapter == "pettingzoo":
        return pettingzoo(case, tmp_path)
    if adapter == "gymnasium":
        return gymnasium(case, tmp_path)
    if adapter == "record":
        return record(case, tmp_path)
    args = cli_args(case)
    assert args is not None
    return cli_play(case, tmp_path, args) if adapter == "upriver play" else cli_keep(case, tmp_path, args)


ADAPTERS = ("web lobby", "keeper API", "pettingzoo", "gymnasium", "record", "upriver play", "upriver keep")
PAIRS = [
    pytest.param(case, adapter, id=f"{adapter}: {case.name}")
    for case in CASES
    for adapter in ADAPTERS
    if not adapter.startswith("upriver ") or cli_args(case) is not None
]


@pytest.mark.parametrize(("case", "adapter"), PAIRS)
def test_every_adapter_accepts_and_refuses_the_options_the_engine_does_with_its_reason(
    case: Case, adapter: str, tmp_path: Path, client: TestClient
) -> None:
    rules, error = expected(case)
    unknown = {key: value for key, value in case.options.items() if key not in OPTION_NAMES}
    if adapter == "record" and unknown:
        # The record format keeps keys it does not know (rule_extras) and reads the others.
        known = {key: value for key, value in case.options.items() if key in OPTION_NAMES}
        rules, error = expected(Case(case.name, case.players, known))
        assert loads(record_text(case)).rule_extras == unknown
    got = outcome(adapter, case, tmp_path, client)
    if error is None:
        assert got == Outcome(rules=rules)
    else:
        assert got.rules is None, f"accepted what the engine refuses: {error}"
        assert got.refusal is not None
        assert str(error) in got.refusal


def test_the_table_has_cases_each_adapter_accepts_and_cases_it_refuses() -> None:
    outcomes = [expected(case) for case in CASES]
    assert sum(error is None for _, error in outcomes) >= 6
    assert sum(error is not None for _, error in outcomes) >= 10
    assert sum(cli_args(case) is not None for case in CASES) >= 12
