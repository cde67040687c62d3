"""RL environments: PettingZoo's and Gymnasium's checkers, exact masks, seat-only observations, rewards."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from tests.conftest import custom_rules
from upriver import (
    BidAction,
    Bidding,
    Card,
    Game,
    IllegalActionError,
    Phase,
    PlayAction,
    Rules,
    Schedule,
    preset,
)
from upriver.bots import BOT_KINDS
from upriver.pettingzoo import env, raw_env
from upriver.rl.common import win_shares
from upriver.rl.encoding import (
    ACTION_COUNT,
    FIELDS,
    OBS_SIZE,
    action_mask,
    bid_action,
    card_action,
    decode_action,
    encode,
    offset,
)
from upriver.rl.gym import ENV_ID, SingleSeatEnv

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Several presets and every player count from 3 to 8, each kept to a few short rounds.
TABLES: list[dict[str, Any]] = [
    {"preset": "classic", "players": 4, "max_cards": 2},
    {"preset": "classic-hook", "players": 7, "max_cards": 2},
    {"preset": "countdown", "players": 8, "max_cards": 2},
    {"preset": "closed-fists", "players": 5, "max_cards": 2},
    {"preset": "overbid", "players": 3, "max_cards": 3},
    {"preset": None, "players": 6, "schedule": "explicit", "explicit_sizes": (1, 8), "trump_lead": "broken"},
]
TABLE_IDS = [f"{t['preset']}-{t['players']}" for t in TABLES]


def legal_actions(game: Game, seat: int) -> set[int]:
    """The engine's legal choices for ``seat``, as actions."""
    return {bid_action(b) for b in game.legal_bids(seat)} | {card_action(c) for c in game.legal_cards(seat)}


def unwrapped_game(table: Any) -> Game:
    game = table.unwrapped.game
    assert isinstance(game, Game)
    return game


# ----------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("options", TABLES, ids=TABLE_IDS)
def test_pettingzoo_api_test_passes(options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # The dict observation {"observation", "action_mask"} is PettingZoo's own format for
        # games with masks, yet api_test warns about it for any env not on its list.
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not a NumPy)")
        api_test(env(**options), num_cycles=1000)


@pytest.mark.parametrize("options", TABLES, ids=TABLE_IDS)
def test_pettingzoo_seed_test_passes(options: dict[str, Any]) -> None:
    seed_test(lambda: env(**options), num_cycles=1000)


def test_reset_with_a_seed_plays_the_engine_game_of_that_seed() -> None:
    table = raw_env(preset="countdown", players=5, max_cards=3)
    table.reset(seed=99)
    names = tuple(f"player_{s}" for s in range(5))
    assert unwrapped_game(table).log == Game(preset("countdown", 5, max_cards=3), names, seed=99).log


def test_resets_without_a_seed_follow_the_last_seed() -> None:
    def deals(table: Any) -> list[object]:
        table.reset(seed=7)
        first: list[object] = [unwrapped_game(table).log[0]]
        for _ in range(3):
            table.reset()
            first.append(unwrapped_game(table).log[0])
        return first

    one, two = deals(raw_env(max_cards=2)), deals(raw_env(max_cards=2))
    assert one == two
    assert len({str(deal) for deal in one}) == 4


# ------------------------------------------------------------------ the masks


@FAST
@given(rules=custom_rules(max_size=3), seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_mask_is_exactly_the_engines_legal_set_at_every_step(
    rules: Rules, seed: int, choices: random.Random
) -> None:
    table = raw_env(rules=rules)
    table.reset(seed=seed)
    game = unwrapped_game(table)
    while not game.is_over:
        agent = table.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == game.to_act
        for other in table.agents:
            mask = table.observe(other)["action_mask"]
            expected = legal_actions(game, seat) if other == agent else set()
            assert set(np.flatnonzero(mask).tolist()) == expected
        table.step(choices.choice(sorted(legal_actions(game, seat))))
    assert all(table.terminations.values())


def test_agents_step_in_bidding_order_under_simultaneous_bids() -> None:
    table = raw_env(preset="closed-fists", players=5, max_cards=2)
    table.reset(seed=3)
    game = unwrapped_game(table)
    order = []
    while game.phase is Phase.BIDDING:
        order.append(int(table.agent_selection.split("_")[1]))
        table.step(bid_action(0))
    assert tuple(order) == game.bidding_order


def test_actions_decode_to_the_cards_and_bids_they_encode() -> None:
    assert ACTION_COUNT == 70
    assert [decode_action(card_action(c)) for c in map(Card.from_index, range(52))] == [
        Card.from_index(i) for i in range(52)
    ]
    assert [decode_action(bid_action(b)) for b in range(18)] == list(range(18))
    with pytest.raises(ValueError, match="outside"):
        decode_action(70)


# ------------------------------------------------ the seat's view, and only it


def swap_hidden_cards(game: Game, seed: int, observer: int) -> tuple[Game, bool]:
    """A twin of ``game`` where two other seats have swapped unplayed cards of one suit.

    Swapping same-suit cards keeps every seat's suit counts, so every move the game saw
    is still legal in the twin and is replayed there. Returns whether a swap was found.
    """
    n = game.rules.player_count
    others = [s for s in range(n) if s != observer]
    rng = random.Random(seed)
    rng.shuffle(others)
    dealt = [list(game.dealt_hand(s) or ()) for s in range(n)]
    swapped = False
    for a in others:
        for b in others:
            pairs = [(x, y) for x in game.hand(a) for y in game.hand(b) if a != b and x.suit is y.suit]
            if pairs and not swapped:
                x, y = rng.choice(pairs)
                dealt[a][dealt[a].index(x)], dealt[b][dealt[b].index(y)] = y, x
                swapped = True
    twin = Game(game.rules, game.players, dealer=game.dealer, auto_deal=False, seed=game.seed)
    twin.deal(dealt, game.turned)
    for action in game.log[1:]:
        if isinstance(action, BidAction):
            twin.bid(action.bid, action.seat)
        elif isinstance(action, PlayAction):
            twin.play(action.card, action.seat)
    return twin, swapped


@FAST
@given(
    rules=custom_rules(max_size=6),
    seed=st.integers(0, 2**32),
    observer=st.integers(0, 7),
    moves=st.integers(0, 60),
)
def test_observation_is_unchanged_when_another_seats_hidden_hand_changes(
    rules: Rules, seed: int, observer: int, moves: int
) -> None:
    explicit = rules.replace(  # a blind round shows the others' cards: tests/test_house_rules.py
        schedule=Schedule.EXPLICIT,
        max_cards=None,
        explicit_sizes=(rules.hand_sizes[-1],),
        blind_one_card=False,
    )
    game = Game(explicit, seed=seed)
    rng = random.Random(seed)
    last_card = explicit.player_count * explicit.hand_sizes[0] - 1
    for _ in range(moves):
        if game.phase is Phase.PLAYING and len(game.plays) == last_card:
            break  # stay inside the round, whose deal the twin changes
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            game.play(rng.choice(game.legal_cards(seat)), seat)
    observer %= explicit.player_count
    twin, swapped = swap_hidden_cards(game, seed, observer)
    assume(swapped)
    assert [game.hand(s) for s in range(explicit.player_count)] != [
        twin.hand(s) for s in range(explicit.player_count)
    ]
    assert np.array_equal(encode(game.view(observer)), encode(twin.view(observer)))
    assert np.array_equal(action_mask(game.view(observer)), action_mask(twin.view(observer)))


def test_a_hidden_simultaneous_bid_does_not_reach_other_observations() -> None:
    rules = preset("closed-fists", 4, max_cards=3)
    games = [Game(rules, seed=11), Game(rules, seed=11)]
    first = games[0].bidding_order[0]
    games[0].bid(0, first)
    games[1].bid(3, first)
    for seat in range(4):
        same = np.array_equal(encode(games[0].view(seat)), encode(games[1].view(seat)))
        assert same is (seat != first)


def test_the_encoding_shows_the_own_hand_and_relative_seats() -> None:
    game = Game(preset("countdown", 5, max_cards=3), seed=4)
    view = game.view(2)
    obs = encode(view)
    hand = obs[offset("hand") : offset("hand") + 52]
    assert set(np.flatnonzero(hand).tolist()) == {c.index for c in view.hand}
    trumps = obs[offset("trumps_held") : offset("trumps_held") + 13]
    assert set(np.flatnonzero(trumps).tolist()) == {c.rank - 2 for c in view.hand if c.suit is view.trump}
    assert sum(f.size for f in FIELDS) == OBS_SIZE == obs.shape[0]
    # Seat 2 sees the dealer (seat 0) two seats to its right: (2 - 0) mod 5.
    dealer = obs[offset("dealer") : offset("dealer") + 8]
    assert np.flatnonzero(dealer).tolist() == [(2 - game.dealer) % 5]
    seats = obs[offset("seats") : offset("seats") + 8]
    assert seats.tolist() == [1, 1, 1, 1, 1, 0, 0, 0]


def test_the_documented_encoding_table_is_the_layout() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    expected = [f"| `{f.name}` | {offset(f.name)} | {f.size} | {f.meaning} |" for f in FIELDS]
    assert [row for row in rows if row in expected] == expected


@FAST
@given(rules=custom_rules(max_size=5), seed=st.integers(0, 2**32))
def test_the_winning_seat_field_names_who_takes_the_trick(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids(seat)), seat)
            continue
        view = game.view(seat)
        for trick in view.tricks:
            # The finished trick as if its cards were still on the table: the field must name its winner.
            obs = encode(dataclasses.replace(view, trick=trick.plays, leader=trick.leader))
            winning = obs[offset("winning") : offset("winning") + 8]
            assert np.flatnonzero(winning).tolist() == [(trick.winner - seat) % rules.player_count]
            checked += 1
        game.play(rng.choice(game.legal_cards(seat)), seat)
    assert checked or max(rules.hand_sizes) == 1


@FAST
@given(rules=custom_rules(max_size=4), seed=st.integers(0, 2**32))
def test_every_observation_lies_in_its_space(rules: Rules, seed: int) -> None:
    table = raw_env(rules=rules)
    table.reset(seed=seed)
    space = table.observation_space("player_0")
    rng = random.Random(seed)
    for _ in table.agent_iter():
        obs, _, done, _, _ = table.last()
        assert space.contains(obs)
        table.step(None if done else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


# --------------------------------------------------------------------- rewards


def play_random(table: Any, seed: int) -> tuple[dict[str, float], list[dict[str, float]]]:
    """Play a game with random legal actions; each agent's summed rewards, and each step's rewards."""
    table.reset(seed=seed)
    rng = random.Random(seed)
    summed: dict[str, float] = defaultdict(float)
    steps: list[dict[str, float]] = []
    for agent in table.agent_iter():
        obs, reward, done, truncated, _ = table.last()
        summed[agent] += reward
        table.step(None if done or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps.append(dict(table.rewards))
    return summed, steps


def test_round_rewards_are_each_rounds_scores_and_add_up_to_the_totals() -> None:
    table = raw_env(preset="classic", players=4, max_cards=3, reward="round")
    summed, steps = play_random(table, seed=5)
    game = unwrapped_game(table)
    assert [summed[f"player_{s}"] for s in range(4)] == list(game.totals)
    paid = [tuple(step[f"player_{s}"] for s in range(4)) for step in steps if any(step.values())]
    assert paid == [r.scores for r in game.results if any(r.scores)]


def test_game_reward_is_the_win_share_at_the_end_only() -> None:
    table = raw_env(preset="countdown", players=4, max_cards=2, reward="game")
    summed, steps = play_random(table, seed=8)
    game = unwrapped_game(table)
    assert [summed[f"player_{s}"] for s in range(4)] == list(win_shares(game))
    assert sum(summed.values()) == pytest.approx(1.0)
    assert not any(any(step.values()) for step in steps[:-5])


def test_tied_winners_share_the_win_equally() -> None:
    rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(1,))
    for seed in range(200):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if game.phase is Phase.BIDDING:
                game.bid(rng.choice(game.legal_bids(seat)), seat)
            else:
                game.play(rng.choice(game.legal_cards(seat)), seat)
        if len(game.winners) > 1:
            k = len(game.winners)
            assert win_shares(game) == tuple(1 / k if s in game.winners else 0.0 for s in range(3))
            return
    raise AssertionError("no tie in 200 one-card games")


def test_an_illegal_action_costs_the_offender_and_ends_the_wrapped_game() -> None:
    table = env(preset="classic", players=4, max_cards=2)
    table.reset(seed=1)
    agent = table.agent_selection
    obs, *_ = table.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.step(illegal)
    assert all(table.terminations.values())
    assert table.rewards[agent] == -1
    assert sum(table.rewards.values()) == -1


def test_the_raw_env_refuses_an_illegal_action_and_changes_nothing() -> None:
    table = raw_env(preset="classic", players=4, max_cards=2)
    table.reset(seed=1)
    game = unwrapped_game(table)
    log, agent = game.log, table.agent_selection
    with pytest.raises(IllegalActionError):
        table.step(bid_action(5))
    assert game.log == log
    assert table.agent_selection == agent


def test_unknown_reward_and_render_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="reward must be"):
        raw_env(reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_ansi_render_returns_the_table_and_human_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env(preset="overbid", players=3, max_cards=2, render_mode="ansi")
    table.reset(seed=2)
    text = table.render()
    assert isinstance(text, str)
    assert text.startswith("round 1/4, 1 card,")
    shown = raw_env(preset="overbid", players=3, max_cards=2, render_mode="human")
    shown.reset(seed=2)
    assert capsys.readouterr().out.strip() == text


# ------------------------------------------------------------ the Gym wrapper


@pytest.mark.parametrize("options", TABLES[:3], ids=TABLE_IDS[:3])
def test_gymnasium_check_env_passes(options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes")
        check_env(SingleSeatEnv(**options, opponents="basic"), skip_render_check=True)


@pytest.mark.parametrize("kind", sorted(BOT_KINDS))
def test_the_single_seat_env_plays_to_the_end_against_every_bot_kind(kind: str) -> None:
    # Two short rounds: the search bots think for a while at every move.
    table = gymnasium.make(
        ENV_ID,
        preset="classic-hook",
        players=4,
        schedule="explicit",
        explicit_sizes=(1, 3),
        opponents=kind,
        seat=None,
    )
    obs, info = table.reset(seed=21)
    seat = info["seat"]
    total, done = 0.0, False
    rng = random.Random(0)
    while not done:
        obs, reward, done, truncated, info = table.step(
            rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        )
        total += float(reward)
        assert not truncated
    assert total == info["totals"][seat]
    assert unwrapped_game(table).is_over


def test_the_single_seat_env_replays_from_its_seed() -> None:
    def trajectory() -> list[bytes]:
        table = SingleSeatEnv(preset="countdown", players=4, max_cards=3, reward="game", seat=None)
        obs, _ = table.reset(seed=13)
        seen, done = [obs["observation"].tobytes()], False
        while not done:
            obs, _, done, _, _ = table.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            seen.append(obs["observation"].tobytes())
        return seen

    assert trajectory() == trajectory()


def test_the_single_seat_env_ends_an_episode_on_an_illegal_action() -> None:
    table = SingleSeatEnv(preset="classic", players=4, max_cards=2, illegal_reward=-5)
    obs, _ = table.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = table.step(illegal)
    assert (reward, done, info) == (-5, True, {"illegal": True})
    assert table.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()


def test_the_single_seat_env_refuses_unknown_bots_and_wrong_counts() -> None:
    with pytest.raises(ValueError, match="unknown bot kind"):
        SingleSeatEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="budget"):
        SingleSeatEnv(opponents="basic:200")
    with pytest.raises(ValueError, match="opponents"):
        SingleSeatEnv(players=4, opponents=["random", "basic"])


def test_the_learner_never_sees_a_hidden_simultaneous_bid() -> None:
    # The learner deals, so it bids last: the three bots have bid when it first observes.
    table = SingleSeatEnv(preset="closed-fists", players=4, max_cards=2, seat=0)
    obs, _ = table.reset(seed=6)
    game = unwrapped_game(table)
    assert game.rules.bidding is Bidding.SIMULTANEOUS
    assert game.bidding_order[-1] == 0
    assert game.phase is Phase.BIDDING
    assert game.bids[1:].count(None) == 0
    bids = obs["observation"][offset("bids") : offset("bids") + 4 * 19].reshape(4, 19)
    assert bids[1:, 18].tolist() == [1, 1, 1]


def test_the_core_package_imports_without_the_rl_extra() -> None:
    code = (
        "import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
        "import upriver, upriver.bots, upriver.rl, upriver.rl.encoding, upriver.rl.common\n"
        "from upriver import Game, preset\n"
        "g = Game(preset('classic', player_count=4), seed=1)\n"
        "print(upriver.rl.encoding.encode(g.view(0)).shape)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "(1695,)"
