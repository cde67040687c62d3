"""The vector environment: the same observations, masks and rewards as the engine's, same-step
autoreset, and a seat's observation written from its own view only."""

from __future__ import annotations

import dataclasses
import inspect
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules
from upriver import Game, Phase, Rules, preset
from upriver.fast.vector import write_view
from upriver.rl.common import RewardMode, rewards_since
from upriver.rl.encoding import ACTION_COUNT, action_mask, decode_action, encode, offset
from upriver.rl.vector import VectorSingleSeatEnv, VectorTables

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def engine_game(tables: VectorTables, table: int) -> Game:
    """The engine's game for the round ``table`` is dealt now, waiting for its bids."""
    dealer, _, _ = tables.dealt(table)
    game = Game(tables.rules, dealer=dealer, auto_deal=False)
    deal_like(game, tables, table)
    return game


def deal_like(game: Game, tables: VectorTables, table: int) -> None:
    dealer, hands, turned = tables.dealt(table)
    assert game.dealer == dealer
    game.deal(hands, turned)


def replay(rules: Rules, seed: int, steps: int, reward: RewardMode = "round") -> int:
    """Play random legal actions at two vector tables and, move for move, in the engine from the
    same deals; every observation, mask, reward and ended game must agree. Returns games ended."""
    tables = VectorTables(2, rules=rules, reward=reward, threads=1)
    step = tables.reset(seed=seed)
    games = [engine_game(tables, t) for t in range(2)]
    rng = random.Random(seed)
    ended = 0
    for _ in range(steps):
        actions = []
        for t, game in enumerate(games):
            seat = int(step.seat[t])
            assert seat == game.to_act
            view = game.view(seat)
            np.testing.assert_array_equal(step.obs[t], encode(view))
            np.testing.assert_array_equal(step.mask[t], action_mask(view))
            actions.append(rng.choice(np.flatnonzero(step.mask[t]).tolist()))
        befores = [len(game.results) for game in games]
        step = tables.step(actions)
        for t, game in enumerate(games):
            game.move(decode_action(actions[t]), game.to_act)
            expected = rewards_since(reward, game, befores[t])
            np.testing.assert_allclose(step.rewards[t], expected, rtol=1e-6)
            assert not step.illegal[t]
            assert bool(step.terminated[t]) == game.is_over
            if game.is_over:
                ended += 1
                assert tuple(step.final_totals[t]) == game.totals
                games[t] = engine_game(tables, t)
            elif game.phase is Phase.DEALING:
                deal_like(game, tables, t)
    return ended


@pytest.mark.slow
@FAST
@given(rules=custom_rules(), seed=st.integers(0, 2**63 - 1))
def test_observations_masks_and_rewards_equal_the_engines_on_random_games_under_any_rules(
    rules: Rules, seed: int
) -> None:
    replay(dataclasses.replace(rules, blind_one_card=False), seed, steps=60)


@pytest.mark.parametrize("reward", ["round", "game"])
def test_whole_games_replay_in_the_engine_through_the_autoreset(reward: RewardMode) -> None:
    rules = Rules.from_options({"preset": "classic", "max_cards": 3}, player_count=4)
    assert replay(rules, seed=7, steps=400, reward=reward) >= 4


def test_an_illegal_action_ends_that_tables_game_with_the_illegal_reward_and_starts_another() -> None:
    tables = VectorTables(3, preset="classic", players=4, max_cards=2, threads=1)
    step = tables.reset(seed=3)
    legal = [int(np.flatnonzero(row)[0]) for row in step.mask]
    wrong = int(np.flatnonzero(step.mask[1] == 0)[0])
    seat = int(step.seat[1])
    step = tables.step([legal[0], wrong, legal[2]])
    assert step.illegal.tolist() == [False, True, False]
    assert step.terminated.tolist() == [False, True, False]
    assert step.rewards[1, seat] == -1.0
    assert step.obs[1, offset("progress")] == 0.0  # a new game: no round finished
    assert step.obs[1, offset("my_turn")] == 1.0


def test_the_observation_writer_is_given_the_seats_own_hand_and_no_other() -> None:
    parameters = list(inspect.signature(write_view.py_func).parameters)  # type: ignore[attr-defined]
    assert parameters == [
        "obs", "mask", "me", "hand", "st", "bids", "tricks", "totals", "trick", "played", "setup",
    ]  # fmt: skip


def test_one_learner_against_kernel_bots_always_observes_its_own_turn_and_scores_its_total() -> None:
    env = VectorSingleSeatEnv(
        4, preset="classic", players=4, seat=None, opponents="basic", max_cards=3, threads=1
    )
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    earned = np.zeros(4)
    ended = 0
    for _ in range(300):
        assert (obs["observation"][:, offset("my_turn")] == 1.0).all()
        assert (obs["action_mask"].sum(axis=1) > 0).all()
        seats = info["seat"].copy()
        actions = (obs["action_mask"] * rng.random((4, ACTION_COUNT))).argmax(axis=1)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        earned += rewards
        for t in np.flatnonzero(terminated):
            ended += 1
            final = info["final_obs"]["observation"][t]
            assert final[offset("phase") + 2] == 1.0  # the ended game's last view: game over
            assert earned[t] == info["totals"][t, seats[t]]
            earned[t] = 0
    assert ended >= 4


def test_the_same_seed_replays_the_same_games_whatever_the_threads() -> None:
    runs = []
    for threads in (1, 2):
        tables = VectorTables(200, preset="classic", players=5, max_cards=3, threads=threads)
        step = tables.reset(seed=9)
        rng = np.random.default_rng(9)
        seen = []
        for _ in range(40):
            step = tables.step((step.mask * rng.random(step.mask.shape)).argmax(axis=1))
            seen.append(step.obs.sum(axis=1))
        runs.append(np.array(seen))
    np.testing.assert_array_equal(runs[0], runs[1])


def test_blind_one_card_rounds_are_refused_with_a_sentence_naming_the_alternative() -> None:
    with pytest.raises(ValueError, match=r"blind one-card rounds.*upriver\.rl\.aec"):
        VectorTables(2, rules=dataclasses.replace(preset("classic", player_count=4), blind_one_card=True))
