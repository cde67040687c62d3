"""Playing to win: deals valued by the chance they win the game, from the totals and the rounds left."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upriver import Game, Rules, Schedule
from upriver.bots import IpimcBot, act, make_bot
from upriver.bots.ipimc import IpimcConfig
from upriver.bots.pimc import SearchConfig
from upriver.bots.rivalry import TIE_BREAK, blend, rounds_after, win_chance
from upriver.view import SeatView


def _view(totals: tuple[int, ...], *, last_round: bool, seat: int = 0) -> SeatView:
    game = Game(Rules(player_count=len(totals)), seed=3)
    view = game.view(seat)
    history = view.history
    if last_round:
        # Pretend every round but the current one is over: only their count matters here.
        history = tuple(None for _ in range(len(view.rules.hand_sizes) - 1))  # type: ignore[misc]
    return dataclasses.replace(view, totals=totals, history=history)


def test_with_no_rounds_left_the_chance_is_the_games_verdict() -> None:
    view = _view((30, 25, 20), last_round=True)
    assert rounds_after(view) == 0
    scores = np.array([[0.0, 4.0, 0.0], [0.0, 5.0, 0.0], [0.0, 6.0, 0.0]])
    assert win_chance(scores, view).tolist() == [1.0, 0.5, 0.0]


def test_a_tie_at_the_top_after_the_last_round_is_a_win_shared_by_the_tied() -> None:
    view = _view((20, 20, 20, 11), last_round=True)
    assert win_chance(np.zeros((1, 4)), view).tolist() == [pytest.approx(1 / 3)]


def test_a_game_decided_whatever_happens_is_played_for_points() -> None:
    view = _view((90, 0, 0, 0), last_round=True)
    scores = np.array([[4.0, 0.0, 0.0, 0.0], [9.0, 0.0, 0.0, 0.0]])
    assert win_chance(scores, view).tolist() == [1.0, 1.0]
    low, high = blend(scores, view, 1.0)
    assert high > low


def test_early_in_the_game_a_lead_is_far_from_a_win() -> None:
    view = _view((10, 0, 0, 0), last_round=False)
    assert rounds_after(view) == len(view.rules.hand_sizes) - 1
    chance = win_chance(np.zeros((1, 4)), view)[0]
    assert 0.25 < chance < 0.6


@given(players=st.integers(3, 7))
def test_level_seats_with_rounds_to_come_each_win_one_game_in_n(players: int) -> None:
    view = _view((7,) * players, last_round=False)
    assert win_chance(np.zeros((1, players)), view)[0] == pytest.approx(1 / players, abs=0.01)


@given(
    totals=st.lists(st.integers(0, 200), min_size=3, max_size=6),
    gain=st.integers(1, 30),
    last=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_the_chance_grows_with_the_seats_score_and_falls_with_a_rivals(
    totals: list[int], gain: int, last: bool
) -> None:
    view = _view(tuple(totals), last_round=last)
    base = np.zeros((1, len(totals)))
    mine, theirs = base.copy(), base.copy()
    mine[0, 0] += gain
    theirs[0, 1] += gain
    low, high, hurt = (float(win_chance(s, view)[0]) for s in (base, mine, theirs))
    assert 0.0 <= hurt <= low <= high <= 1.0


def test_a_rivalry_of_zero_is_the_round_score_and_one_is_the_chance_and_a_tie_break() -> None:
    view = _view((12, 15, 9, 20), last_round=False)
    scores = np.array([[11.0, 0.0, 13.0, 0.0], [0.0, 12.0, 0.0, 10.0]])
    assert blend(scores, view, 0.0).tolist() == [11.0, 0.0]
    chance, full = win_chance(scores, view), blend(scores, view, 1.0)
    tie_break = TIE_BREAK * scores[:, 0]
    assert np.allclose((full - tie_break) / (full - tie_break).max(), chance / chance.max())


def test_the_rival_kind_plays_to_win_and_bids_as_the_expert() -> None:
    rival, expert = make_bot("rival", seed=5, budget=64), make_bot("expert", seed=5, budget=64)
    assert isinstance(rival, IpimcBot)
    assert isinstance(expert, IpimcBot)
    assert (rival.config.rivalry, expert.config.rivalry) == (1.0, 0.0)
    game = Game(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(5,)), seed=2)
    view = game.view(game.awaiting[0])
    assert rival.choose_bid(view) == expert.choose_bid(view)


def test_a_rivalry_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="rivalry is a weight from 0"):
        SearchConfig(rivalry=1.5)


def test_a_bot_playing_to_win_plays_only_legal_moves_to_the_end_of_a_game() -> None:
    game = Game(Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(3, 2, 1)), seed=11)
    bots = [IpimcBot(seat, config=IpimcConfig(rivalry=1.0), budget=16) for seat in range(3)]
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])
    assert len(game.results) == len(game.rules.hand_sizes)
