"""Shared helpers and Hypothesis strategies for the rules tests.

Everything here works through the public API (``from upriver import ...``) and
recomputes what it checks independently of the engine: the trick winner from
the cards and the trump, the score from the bid and the tricks.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Sequence
from typing import Any

import pytest
import run  # the checkout's run.py: the one list of the browser test files
from hypothesis import strategies as st

from tests.pg import db, postgres_server  # noqa: F401 - the fixtures of the PostgreSQL tests
from upriver import (
    PRESETS,
    Bidding,
    Card,
    CustomScoring,
    DealerBid,
    FirstDealer,
    Game,
    Phase,
    Rules,
    Schedule,
    Scoring,
    Suit,
    Trump,
    TrumpLead,
)
from upriver.record import FORMAT


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
    """A seat's points for one round, from the seeds' wording and the table of docs/rules.md §2.8."""
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
    bidding = draw(st.sampled_from(Bidding))
    dealer_bid = DealerBid.FREE if bidding is Bidding.SIMULTANEOUS else draw(st.sampled_from(DealerBid))
    options: dict[str, Any] = {
        "player_count": players,
        "first_dealer": draw(st.sampled_from(FirstDealer)),
        "bidding": bidding,
        "dealer_bid": dealer_bid,
        "trump_lead": draw(st.sampled_from(TrumpLead)),
        "scoring": draw(st.one_of(st.sampled_from(Scoring), custom_scorings())),
        "trump": draw(st.sampled_from(Trump)),
        "blind_one_card": draw(st.booleans()),
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

STATIC_MODULES = frozenset({"test_static.py"})
"""Modules that run ``mypy --strict`` and ``ruff`` over the code base: marked ``static``."""

SLOW_TESTS = frozenset(
    {
        "test_bidmodel.py::test_retraining_from_the_same_data_and_seed_writes_the_same_model",
        "test_endgame.py::test_solver_value_is_max_n_over_the_engines_game",
        "test_endgame.py::test_search_bot_with_the_endgame_solver_plays_only_legal_cards",
        "test_selfplay.py::test_a_chunk_is_the_same_whenever_it_is_made",
        "test_ray.py::test_an_arena_on_ray_gives_the_same_json_as_worker_processes_and_one_process",
        "test_ray.py::test_selfplay_on_ray_writes_the_same_chunks_as_worker_processes",
        "test_ray.py::test_a_review_on_ray_is_the_review_made_in_one_process",
        "test_ray.py::test_a_stopped_arena_on_ray_keeps_the_games_already_played",
        "test_ray.py::test_a_waiting_call_can_be_cancelled_and_a_started_one_runs_to_its_end",
        "test_ray.py::test_an_error_in_a_task_is_raised_as_itself_not_as_rays_wrapper",
        "test_selfplay.py::test_selfplay_writes_one_file_per_chunk_with_features_and_labels_and_resumes",
        "test_review.py::test_the_same_record_and_settings_give_the_same_review_on_one_core_or_two",
        "test_arena_hands.py::test_a_search_bot_reports_each_candidates_make_rate_when_it_bids",
        "test_arena_hands.py::test_the_command_writes_the_hand_log_and_the_report_command_reads_it",
        "test_bots.py::test_bots_only_make_legal_moves_under_custom_rules",
        "test_standin.py::test_the_standin_plays_openspiels_move_on_most_recorded_positions",
        "test_bots.py::test_bots_only_make_legal_moves_under_presets",
        "test_kernel.py::test_a_seed_gives_the_same_results_on_any_number_of_threads",
        "test_kernel.py::test_sampled_worlds_keep_the_seats_hand_and_deal_only_unseen_cards",
        "test_properties.py::test_every_option_combination_plays_by_the_rules",
        "test_properties.py::test_presets_play_by_the_rules_under_random_legal_play",
        "test_record_fuzz.py::test_the_reader_raises_only_record_errors_and_a_replay_only_rule_breaches",
        "test_record_fuzz.py::test_upriver_check_answers_every_mutated_record_with_exit_0_1_or_2_and_one_bounded_line",
        "test_views.py::test_a_seat_view_contains_only_its_own_hand",
        "test_i18n.py::test_every_refusal_in_random_games_is_worded_in_every_language_from_its_facts",
        "test_web_fuzz.py::test_every_hostile_message_gets_a_reply_and_a_refusal_changes_nothing",
        "test_web_restart.py::test_a_killed_server_resumes_every_table_from_its_last_accepted_action",
        "test_store_outage.py::test_moves_during_an_outage_are_refused_unapplied_and_unannounced_and_go_through_once_it_is_back",
        "test_web_workers.py::test_a_move_made_through_one_server_process_reaches_the_clients_of_another",
        "test_web_social_workers.py::test_a_person_connected_to_one_process_is_online_for_another_and_away_soon_after_closing",
        "test_web_social_workers.py::test_the_connections_of_a_killed_process_turn_away_within_seconds",
        "test_web_social_workers.py::test_lines_and_reactions_written_through_either_process_reach_the_clients_of_both",
        "test_web_social.py::test_over_real_sockets_a_closed_page_is_away_for_the_others_within_two_seconds",
        "test_web_workers.py::test_the_owner_killed_mid_trick_is_taken_over_and_no_acknowledged_move_is_lost",
        "test_web_workers.py::test_two_workers_on_one_port_play_a_table_to_the_end",
        "test_web_workers.py::test_more_than_one_worker_over_sqlite_is_refused_saying_to_use_postgresql",
        "test_web_workers.py::test_a_rematch_made_through_one_process_is_told_to_the_seats_of_another_each_its_own_link",
        "test_web_workers.py::test_two_presses_of_rematch_at_once_in_two_processes_make_one_rematch",
        "test_review_web_failures.py::test_a_review_whose_computation_raises_is_a_503_in_a_sentence_and_a_retry_computes_it",
        "test_web_claims.py::test_a_hint_names_a_legal_choice_and_the_points_of_every_legal_choice_from_the_seats_view",
        "test_claims.py::test_claims_in_whole_games_of_every_preset_agree_with_random_continuations",
    }
)
"""Tests (module::function, or module::function[case]) that take more than about 1.5 s on a 2-core
machine, measured with ``pytest --durations=40``: marked ``slow``."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark tests ``browser``, ``static`` and ``slow`` (see the sets above), and ``postgres`` those that
    use the private PostgreSQL server (``tests/pg.py``: its fixture, or ``db`` on that store), so that
    ``pytest -m "not browser and not slow"`` is the fast subset and plain ``pytest`` runs everything.

    A whole run (no paths given) refuses a name in :data:`SLOW_TESTS` that matches no collected test
    of its module, so a renamed slow test cannot quietly join the fast subset.
    """
    collected: set[str] = set()
    marked: set[str] = set()
    for item in items:
        module = item.path.name
        collected.add(module)
        if module in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
        if module in STATIC_MODULES:
            item.add_marker(pytest.mark.static)
        if "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)
        for name in (f"{module}::{getattr(item, 'originalname', item.name)}", f"{module}::{item.name}"):
            if name in SLOW_TESTS:
                item.add_marker(pytest.mark.slow)
                marked.add(name)
    stale = sorted(name for name in SLOW_TESTS - marked if name.partition("::")[0] in collected)
    if stale and not config.option.file_or_dir:
        raise pytest.UsageError(f"tests/conftest.py marks as slow tests that are gone: {', '.join(stale)}")
