"""What every test module shares: helpers and Hypothesis strategies for the rules tests, the markers,
and the fixtures that several modules take.

The rules helpers work through the public API (``from upriver import ...``) and recompute what they
check independently of the engine: the trick winner from the cards and the trump, the score from the
bid and the tricks.

Markers: ``browser``, ``static`` and ``postgres`` are set here from the module or the fixtures a test
takes (:func:`pytest_collection_modifyitems`); ``slow`` is one decorator, ``@pytest.mark.slow``, on
the test itself, so the mark moves with the test and no list of names can go stale.

A fixture that more than one module takes is defined here, never imported from another test
module; plain helpers are in ``tests/helpers.py``, ``tests/webclient.py``, ``tests/browsing.py``,
``tests/pagetext.py``, ``tests/reviewing.py`` and ``tests/live.py``. The one way a test reaches
inside the web server is :func:`manager_of`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import run  # the checkout's run.py: the one list of the browser test files
from fastapi.testclient import TestClient
from hypothesis import strategies as st

from tests import pg
from tests.helpers import rule_choices
from upriver import (
    PRESETS,
    Card,
    CustomScoring,
    Game,
    Phase,
    Rules,
    Schedule,
    Scoring,
    Suit,
)
from upriver.record import FORMAT

if TYPE_CHECKING:
    from fastapi import FastAPI
    from playwright.sync_api import Browser

    from tests.browsing import LiveServer, Shifted
    from tests.pg import PostgresServer
    from tests.reviewing import Setup
    from upriver.web.play.tables import Manager


def card(text: str) -> Card:
    """One card from its notation, e.g. ``card("TH")``."""
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated notation, e.g. ``cards("AS KS 2H")``."""
    return tuple(Card.parse(word) for word in text.split())


def dealt_game(
    rules: Rules,
    hands: Sequence[str],
    turned: str | None,
    *,
    dealer: int = 0,
) -> Game:
    """A game whose first round is dealt exactly these hands (notation strings) and turn-up."""
    game = Game(rules, auto_deal=False, dealer=dealer)
    game.deal([cards(hand) for hand in hands], None if turned is None else card(turned))
    return game


def one_round_rules(players: int, size: int, **options: Any) -> Rules:
    """Rules for a single round of ``size`` cards (explicit schedule)."""
    return Rules(player_count=players, schedule=Schedule.EXPLICIT, explicit_sizes=(size,), **options)


def expected_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    """The seat that wins ``trick`` by the core rules, computed without the engine.

    The highest trump wins; if no trump was played, the highest card of the led suit.
    """
    led = trick[0][1].suit
    trumps = [(c.rank, seat) for seat, c in trick if trump is not None and c.suit is trump]
    if trumps:
        return max(trumps)[1]
    return max((c.rank, seat) for seat, c in trick if c.suit is led)[1]


def expected_score(scoring: Scoring | CustomScoring, bid: int, took: int, round_number: int = 1) -> int:
    """A seat's points for one round, from the sources' wording and the table of docs/rules.md §2.8."""
    d = abs(took - bid)
    if isinstance(scoring, CustomScoring):
        if d == 0:
            return scoring.exact_bonus + scoring.per_bid * bid + scoring.per_trick * took
        return (
            scoring.per_trick * took if scoring.per_trick_when == "always" else 0
        ) - scoring.miss_per_trick_off * d
    v = 10 * round_number
    exact, miss = {
        Scoring.TEN_PLUS_BID: (10 + bid, 0),
        Scoring.TRICKS_PLUS_TEN: (10 + took, took),
        Scoring.NEGATIVE: (10, -10 * d),
        Scoring.BALANCED: (10 + bid, -2 * d),
        Scoring.HYBRID: (10 + bid, took if took < bid else 0),
        Scoring.DOUBLES: (10 + 2 * bid, -2 * d),
        Scoring.TRIPLES: (10 + 3 * bid, -3 * d),
        Scoring.SQUARES: (10 + bid * bid, -d * d),
        Scoring.ANDERSON: (v * bid, -v * d),
    }[scoring]
    return exact if d == 0 else miss


def snapshot(game: Game) -> dict[str, object]:
    """Everything observable about a game, to compare before and after a refused action."""
    n = game.rules.player_count
    return {
        "log": game.log,
        "hands": tuple(game.hand(seat) for seat in range(n)),
        "dealt": tuple(game.dealt_hand(seat) for seat in range(n)),
        "bids": game.bids,
        "trick": game.trick,
        "tricks": game.tricks,
        "tricks_won": game.tricks_won,
        "to_act": game.to_act,
        "awaiting": game.awaiting,
        "phase": game.phase,
        "leader": game.leader,
        "dealer": game.dealer,
        "round": game.round_number,
        "turned": game.turned,
        "trump": game.trump,
        "trump_broken": game.trump_broken,
        "plays": game.plays,
        "totals": tuple(game.totals),
        "results": game.results,
        "views": tuple(game.view(seat) for seat in range(n)),
        "legal_bids": game.legal_bids(),
        "legal_cards": game.legal_cards(),
    }


def random_action(game: Game, rng: random.Random) -> None:
    """Make one uniformly random legal bid or play for the seat to act."""
    if game.phase is Phase.BIDDING:
        seat = rng.choice(game.awaiting)
        game.bid(rng.choice(game.legal_bids(seat)), seat)
    elif game.phase is Phase.PLAYING:
        game.play(rng.choice(game.legal_cards()))
    else:  # pragma: no cover - a dealt game never waits for anything else
        raise AssertionError(f"unexpected phase {game.phase}")


def play_out(game: Game, rng: random.Random) -> None:
    """Play uniformly random legal moves until the game is over."""
    while not game.is_over:
        random_action(game, rng)


# ------------------------------------------------------------------ strategies

PRESET_NAMES = sorted(PRESETS)


@st.composite
def preset_and_players(draw: st.DrawFn) -> tuple[str, int]:
    """A preset name and a player count that preset is written for."""
    name = draw(st.sampled_from(PRESET_NAMES))
    found = PRESETS[name]
    return name, draw(st.integers(found.min_players, found.max_players))


@st.composite
def custom_scorings(draw: st.DrawFn) -> CustomScoring:
    """A custom scoring the engine accepts: its bonus beats a trick's point, so an exact 0 pays."""
    per_trick = draw(st.integers(0, 3))
    return CustomScoring(
        exact_bonus=draw(st.integers(per_trick + 1, 30)),
        per_trick=per_trick,
        per_trick_when=draw(st.sampled_from(["always", "exact"])),
        per_bid=draw(st.integers(0, 5)),
        miss_per_trick_off=draw(st.integers(0, 10)),
    )


@st.composite
def custom_rules(draw: st.DrawFn, max_size: int = 4) -> Rules:
    """Any combination of rule options for 3–8 players, with a short schedule."""
    players = draw(st.integers(3, 8))
    options: dict[str, Any] = {
        "player_count": players,
        **draw(rule_choices(scoring=st.one_of(st.sampled_from(Scoring), custom_scorings()))),
    }
    schedule = draw(st.sampled_from(Schedule))
    if schedule is Schedule.EXPLICIT:
        limit = 52 // players
        sizes = draw(
            st.lists(
                st.one_of(st.integers(1, min(limit, max_size)), st.just(limit)),
                min_size=1,
                max_size=4,
            )
        )
        return Rules(schedule=schedule, explicit_sizes=tuple(sizes), **options)
    peak = draw(st.integers(1, min(max_size, 51 // players)))
    return Rules(schedule=schedule, max_cards=peak, **options)


def record_doc(**changes: Any) -> dict[str, Any]:
    """A valid one-round record as decoded JSON, in canonical spelling (classic rules, schedule [1],
    Ann Bob Cid Dee), with the top-level keys in ``changes`` replaced."""
    base: dict[str, Any] = {
        "format": FORMAT,
        "rules": {"preset": "classic", "schedule": [1]},
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "rounds": [
            {
                "dealer": 0,
                "hands": [["AS"], ["7H"], ["2C"], ["KD"]],
                "turned": "QD",
                "bids": [0, 1, 0, 1],
                "plays": ["7H", "2C", "KD", "AS"],
            }
        ],
    }
    base.update(changes)
    return base


def round_doc(**changes: Any) -> dict[str, Any]:
    """:func:`record_doc` with the keys in ``changes`` replaced in its one round."""
    return record_doc(rounds=[{**record_doc()["rounds"][0], **changes}])


def fields_of(obj: object) -> dict[str, object]:
    """A frozen dataclass's fields by name."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # type: ignore[arg-type]


# Tests run in English whatever the developer's locale: `upriver play` and `keep` follow $LANG, and
# Chromium (started by a module's fixture, before any test's) takes its pages' language from it. A
# test of another language asks for it (--lang, its own env, a browser context's locale).
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


# ------------------------------------------------------------------ markers

BROWSER_MODULES = frozenset(run.BROWSER_TESTS)
"""Modules whose tests drive Debian's Chromium: marked ``browser``. Their list is run.py's, which
installs Chromium when the tests asked for include one of them."""

STATIC_MODULES = frozenset({"test_static.py", "test_javascript.py"})
"""Modules that run ``mypy --strict`` and ``ruff`` over the code base, and ESLint and TypeScript's checker
over the pages' JavaScript: marked ``static``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests ``browser`` and ``static`` (see the sets above), and ``postgres`` those that use the
    private PostgreSQL server (``tests/pg.py``: its fixture, or ``db`` on that store), so that
    ``pytest -m "not browser and not slow"`` is the fast subset and plain ``pytest`` runs everything.

    ``slow`` is not set here: a test that takes more than about 1.5 s on a 2-core machine (measured
    with ``pytest --durations=40``) carries ``@pytest.mark.slow`` itself (a module of slow tests,
    ``pytestmark``), the one way tests are marked slow. The mark moves with the test when it is
    renamed or moved, so no list can name a test that is gone.
    """
    for item in items:
        module = item.path.name
        if module in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
        if module in STATIC_MODULES:
            item.add_marker(pytest.mark.static)
        if "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


# ------------------------------------------------------------------ fixtures shared by several modules
# Defined here, never imported from another test module: importing a fixture from a test module
# hides which modules depend on which (and from the check that keeps run.py's lists in step).

postgres_server = pg.postgres_server
db = pg.db


@pytest.fixture
def stack() -> Iterator[contextlib.ExitStack]:
    """What a test opens (sockets, servers) and wants closed at its end, in reverse order."""
    with contextlib.ExitStack() as exits:
        yield exits


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """A test client of the web app over a fresh database (SQLite, then PostgreSQL: ``tests/pg.py``);
    bots don't wait."""
    from upriver.web.app import create_app

    with TestClient(create_app(db, bot_delay=0.0)) as test_client:
        yield test_client


@pytest.fixture
def database(postgres_server: PostgresServer) -> str:
    """A fresh database on the tests' private PostgreSQL server, for servers run as processes."""
    return postgres_server.url(postgres_server.create_database())


@pytest.fixture(scope="module")
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The web app under uvicorn on a free port, shared by a module's browser tests; bots wait the
    module's ``BOT_DELAY`` seconds (50 ms if it sets none)."""
    from tests.browsing import LiveServer

    delay = float(getattr(request.module, "BOT_DELAY", 0.05))
    server = LiveServer(tmp_path_factory.mktemp("web") / "tables.db", bot_delay=delay)
    yield server
    server.stop()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The whole web app (tables and keeper) on a fresh database for one test; its address."""
    from tests.browsing import LiveServer

    started = LiveServer(tmp_path / "upriver.sqlite3", bot_delay=0)
    yield started.url
    started.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium through Playwright, shared by a module's tests."""
    from playwright.sync_api import sync_playwright

    from tests.live import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shifted() -> Shifted:
    """The clock of the :func:`night` server, which a test moves on (and puts back after it)."""
    from tests.browsing import Shifted

    return Shifted()


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory, shifted: Shifted) -> Iterator[LiveServer]:
    """A live server for a game night in browsers: bots wait 20 ms, turn clocks go by :func:`shifted`."""
    from tests.browsing import LiveServer
    from upriver.web.app import create_app

    db = tmp_path_factory.mktemp("night") / "tables.db"
    server = LiveServer(db, bot_delay=0.02, app=create_app(db, bot_delay=0.02, now=shifted))
    yield server
    server.stop()


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[Setup]:
    """A web app and, beside it, an app serving only its review (``tests/reviewing.py``)."""
    from tests.reviewing import Setup

    made = Setup(tmp_path / "tables.db")
    with made.site:
        yield made
    made.pool.shutdown()


# ------------------------------------------------------------------ past the public API


def manager_of(client: TestClient | FastAPI) -> Manager:
    """The web app's table manager: the server's own tables, past its HTTP and WebSocket API.

    The one way a test reaches inside the server, for what no message or page shows and no client
    may know: the whole deal (to check that a seat is shown no card but its own), whether a commit is
    still in flight (to read a settled state), the store under a table (to break it), a rematch's or
    a time-out's effect on every seat at once. What the public API shows, a test reads there.
    """
    app = client.app if isinstance(client, TestClient) else client
    manager: Manager = app.state.manager  # type: ignore[union-attr]
    return manager
