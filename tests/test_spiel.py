"""upriver as OpenSpiel's ``python_upriver``: OpenSpiel's own checks, its algorithms, and fair resampling."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr, ismcts

import upriver.spiel
from upriver import preset
from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.fair import RandomRollout
from upriver.cards import Card
from upriver.spiel import GAME_NAME, SpielParameterError, move_of, state_from_view

SMALL = {"players": 3, "preset": "", "hand_sizes": "2"}
TABLES: dict[str, dict[str, object]] = {
    "three seats, one round of 2": SMALL,
    "classic, rounds of 1 2 3": {"players": 4, "hand_sizes": "1,2,3"},
    "closed fists": {"players": 4, "preset": "closed-fists", "hand_sizes": "2 1"},
    "blind one-card round, rotating trump": {
        "players": 3,
        "preset": "overbid",
        "rules": "blind_one_card=true,trump=rotate",
        "hand_sizes": "1,2",
    },
    "small deck, zero-sum": {
        "players": 3,
        "preset": "",
        "hand_sizes": "1",
        "deck": "AS,KS,QS,JS,AH",
        "utility": "differences",
        "rules": '{"scoring": "anderson", "trump_lead": "broken"}',
    },
}


def load(params: dict[str, object]) -> Any:
    return pyspiel.load_game(GAME_NAME, params)


def play_randomly(state: Any, rng: random.Random, stop: float = 1.0) -> Any:
    """Play on with chance's odds and uniform moves; stop at a player's turn with probability ``stop``."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
        elif rng.random() < stop:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    "params",
    [
        pytest.param(params, id=name, marks=pytest.mark.slow if name.startswith("classic") else ())
        for name, params in TABLES.items()
    ],
)
def test_openspiel_random_simulation_checks_pass(params: dict[str, object]) -> None:
    # Clones, serialization, legal-action masks, tensor sizes, returns within the utility bounds.
    pyspiel.random_sim_test(load(params), num_sims=3, serialize=True, verbose=False)


def test_a_game_string_loads_the_same_game() -> None:
    game = load(TABLES["blind one-card round, rotating trump"])
    again = pyspiel.load_game(str(game))
    assert again.config == game.config


def test_actions_are_bids_then_cards_and_are_the_engines_legal_moves() -> None:
    game = load({"players": 4, "preset": "classic-hook", "hand_sizes": "3,2"})
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    while not play_randomly(state, rng).is_terminal():
        engine = state.upriver_game
        view = engine.view(engine.to_act)
        moves = {move_of(action, 3) for action in state.legal_actions()}
        assert moves == set(view.legal_bids or view.legal_cards)
        assert all(a <= 3 for a in state.legal_actions()) == bool(view.legal_bids)
        state.apply_action(rng.choice(state.legal_actions()))
        checked += 1
    assert checked == (4 + 4 * 3) + (4 + 4 * 2)  # every bid and every card of both rounds
    assert move_of(4, 3) == Card.parse("2C")
    assert move_of(55, 3) == Card.parse("AS")
    assert state.returns() == [float(t) for t in state.upriver_game.totals]


def test_a_seats_observation_shows_its_own_hand_and_no_other() -> None:
    game = load({"players": 4, "hand_sizes": "3"})
    state = play_randomly(game.new_initial_state(), random.Random(1), stop=0.3)
    engine = state.upriver_game
    for seat in range(4):
        lines = state.observation_string(seat).splitlines()
        assert "hand " + " ".join(map(str, engine.hand(seat))) in lines
        assert isinstance(state.seat_view(seat).hand, tuple)


def resamples(state: Any, seat: int, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    return [state.resample_from_infostate(seat, rng.random) for _ in range(count)]


@pytest.mark.parametrize(
    "name", ["classic, rounds of 1 2 3", "closed fists", "blind one-card round, rotating trump"]
)
def test_a_resampled_state_is_in_the_seats_information_set_with_a_true_history(name: str) -> None:
    game = load(TABLES[name])
    rng = random.Random(2)
    varied = 0
    for _ in range(12):
        state = play_randomly(game.new_initial_state(), rng, stop=0.25)
        if state.is_terminal():
            continue
        for seat in range(game.num_players()):
            for sampled in resamples(state, seat, 3, rng.randrange(1000)):
                assert sampled.information_state_string(seat) == state.information_state_string(seat)
                assert sampled.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert sampled.observation_tensor(seat) == state.observation_tensor(seat)
                assert sampled.current_player() == state.current_player()
                replayed = game.new_initial_state()
                for action in sampled.history():
                    replayed.apply_action(action)
                assert str(replayed) == str(sampled)
                varied += str(sampled) != str(state)
    assert varied > 0  # the hidden cards really were dealt anew


def test_resampling_deals_the_stock_like_any_hidden_card() -> None:
    # OpenSpiel's oh_hell resampler shuffles only the cards really dealt to the others; here a card
    # the others really hold is no likelier in their sampled hands than a card left in the stock.
    game = load({"players": 4, "preset": "", "hand_sizes": "2", "dealer": 3})
    state = play_randomly(game.new_initial_state(), random.Random(4))
    engine = state.upriver_game
    held = {card for seat in (1, 2, 3) for card in engine.hand(seat)}
    unseen = 52 - 2 - 1
    hits = Counter[bool]()
    for sampled in resamples(state, 0, 400, 9):
        for seat in (1, 2, 3):
            hits.update(card in held for card in sampled.upriver_game.hand(seat))
    rate = hits[True] / (hits[True] + hits[False])
    assert abs(rate - len(held) / unseen) < 0.05  # 6 of 49; a leaky resampler would give 1


def test_resampling_gives_no_seat_a_suit_it_has_shown_it_lacks() -> None:
    game = load({"players": 3, "preset": "", "hand_sizes": "8", "dealer": 2})
    rng = random.Random(11)
    found = 0
    for _ in range(30):
        state = play_randomly(game.new_initial_state(), rng, stop=0.08)
        if state.is_terminal():
            continue
        seat = state.current_player()
        view = state.seat_view(seat)
        void = {
            (s, trick.plays[0][1].suit)
            for trick in view.tricks
            for s, card in trick.plays
            if card.suit is not trick.plays[0][1].suit
        }
        found += bool(void)
        for sampled in resamples(state, seat, 5, rng.randrange(1000)):
            for s, suit in void:
                assert all(card.suit is not suit for card in sampled.upriver_game.hand(s))
    assert found > 0


def test_openspiel_ismcts_plays_whole_games_from_resampled_states() -> None:
    game = load(TABLES["closed fists"])
    bot = ismcts.ISMCTSBot(game, RandomRollout(3), 2.0, 25, random_state=np.random.RandomState(3))
    rng = random.Random(3)
    for _ in range(2):
        state = play_randomly(game.new_initial_state(), rng)
        while not state.is_terminal():
            if state.current_player() == 0:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            play_randomly(state, rng)
        assert len(state.upriver_game.results) == 2


@pytest.mark.slow
def test_cfr_on_a_small_deck_lowers_nash_conv() -> None:
    # Three cards, one to each seat, trump rotating (hearts in round 1): six deals, small enough
    # for CFR's and NashConv's walks of the whole tree.
    params = {"players": 3, "preset": "", "hand_sizes": "1", "deck": "AS KS QH", "dealer": 0}
    game = load({**params, "rules": "trump=rotate"})
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(2):
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < 0.5 * first


@pytest.mark.slow
def test_external_sampling_mccfr_runs_on_the_full_deck() -> None:
    game = load({"players": 3, "preset": "", "hand_sizes": "1"})
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    np.random.seed(0)
    for _ in range(30):
        solver.iteration()
    state = play_randomly(game.new_initial_state(), random.Random(0))
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)


@pytest.mark.slow
def test_the_arena_seats_openspiel_ismcts_on_upriver_rules() -> None:
    rules = preset("closed-fists", 4, max_cards=2)  # rounds of 2, 1, 2: no oh_hell rule set
    result = run_arena(ArenaConfig(bots=("spiel-ismcts:20", "random"), rules=rules, games=2, seed=3, jobs=1))
    assert len(result.results) == 2
    assert all(game.hands == 3 for game in result.results)


def test_the_arena_seat_searches_from_the_views_information_set() -> None:
    game = load({"players": 4, "hand_sizes": "3"})
    true = play_randomly(game.new_initial_state(), random.Random(6), stop=0.4)
    seat = true.current_player()
    made = state_from_view(game, true.upriver_game.view(seat), random.Random(1))
    assert made.information_state_string(seat) == true.information_state_string(seat)


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"players": 9}, "players"),
        ({"players": 3}, "players"),  # classic seats 4 to 7
        ({"rules": "dealer_bid"}, "rules"),
        ({"rules": "dealer_bid=sometimes"}, "rules"),
        ({"hand_sizes": "1,x"}, "hand_sizes"),
        ({"deck": "AS,AS"}, "deck"),
        ({"hand_sizes": "2", "deck": "AS KS QS AH KH QH JH TH"}, "deck"),
        ({"dealer": 4}, "dealer"),
        ({"utility": "wins"}, "utility"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(params: dict[str, object], parameter: str) -> None:
    with pytest.raises(SpielParameterError) as refused:
        upriver.spiel.UpriverGame(params)
    assert refused.value.parameter == parameter


@pytest.mark.slow
def test_the_example_in_the_rl_docs_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    section = page.split("## OpenSpiel: `python_upriver`", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/rl.md", "exec"), {})
    returns = ast.literal_eval(capsys.readouterr().out.strip())
    assert len(returns) == 4
