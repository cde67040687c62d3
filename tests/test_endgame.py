"""The exact endgame solver: its value is max^n over the engine's own game, its line plays legally
through the engine and scores what it says, and a search bot using it never plays an illegal card."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules, random_action
from upriver import DECK, Bidding, DealerBid, Game, Phase, Rules, Schedule, Scoring, TrumpLead
from upriver.actions import round_score
from upriver.bots import BasicBot, ExpertBot, PimcBot, act
from upriver.bots.pimc import SearchConfig
from upriver.fast import position_from_game, solve_endgame, world_of

SETTINGS = settings(max_examples=30, deadline=None)


@st.composite
def endgames(draw: st.DrawFn) -> Game:
    """A one-round game of 3–6 players under any scoring, trump lead and bidding rule, its bids
    made and a random way into its play, with few enough cards left to search in Python."""
    players = draw(st.integers(3, 6))
    size = draw(st.integers(1, 3 if players <= 4 else 2))
    bidding = draw(st.sampled_from(Bidding))
    rules = Rules(
        player_count=players,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(size,),
        bidding=bidding,
        dealer_bid=DealerBid.FREE if bidding is Bidding.SIMULTANEOUS else draw(st.sampled_from(DealerBid)),
        trump_lead=draw(st.sampled_from(TrumpLead)),
        scoring=draw(st.sampled_from(Scoring)),
    )
    game = Game(rules, seed=draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    while game.phase is Phase.BIDDING:
        random_action(game, rng)
    for _ in range(draw(st.integers(0, players * size - 1))):
        random_action(game, rng)
    return game


def max_n(game: Game) -> tuple[int, ...]:
    """Tricks each seat ends the round with when every seat, all hands open, plays the card that
    gives it its best round score (the engine's), knowing the others do too; ties go to the rule of
    thumb's card, else to the lowest card. Plain recursion over copies of the engine's game."""
    if game.phase is not Phase.PLAYING:
        return game.results[-1].tricks_won
    seat = game.to_act
    assert seat is not None
    legal = sorted(game.legal_cards(), key=lambda c: c.index)
    prefer = BasicBot().choose_card(game.view(seat)) if len(legal) > 1 else legal[0]
    bid = game.bids[seat]
    assert bid is not None
    best: tuple[int, ...] | None = None
    for card in sorted(legal, key=lambda c: (c != prefer, c.index)):
        after = game.copy()
        after.play(card)
        tricks = max_n(after)
        mine = round_score(game.rules.scoring, bid, tricks[seat])
        if best is None or mine > round_score(game.rules.scoring, bid, best[seat]):
            best = tricks
    assert best is not None
    return best


@pytest.mark.slow
@SETTINGS
@given(game=endgames())
def test_solver_value_is_max_n_over_the_engines_game(game: Game) -> None:
    out = solve_endgame(position_from_game(game), world_of(game))
    assert out.status[0] == 0
    assert tuple(int(t) for t in out.tricks[0]) == max_n(game)


@SETTINGS
@given(game=endgames())
def test_solver_line_replays_legally_through_the_engine_and_scores_what_it_says(game: Game) -> None:
    out = solve_endgame(position_from_game(game), world_of(game), record=True)
    assert out.cards is not None
    for index in out.cards[0].tolist():
        game.play(DECK[index])  # raises if the engine finds the card illegal
    result = game.results[-1]
    assert tuple(int(t) for t in out.tricks[0]) == result.tricks_won
    assert tuple(int(s) for s in out.scores[0]) == result.scores
    expected = tuple(
        round_score(game.rules.scoring, b, t) for b, t in zip(result.bids, result.tricks_won, strict=True)
    )
    assert result.scores == expected


@SETTINGS
@given(game=endgames())
def test_solver_line_is_the_line_it_solves_from_every_point_of_it(game: Game) -> None:
    first = solve_endgame(position_from_game(game), world_of(game), record=True)
    assert first.cards is not None
    for index in first.cards[0].tolist():
        if game.phase is not Phase.PLAYING:
            break
        again = solve_endgame(position_from_game(game), world_of(game), record=True)
        assert again.cards is not None
        assert tuple(again.tricks[0]) == tuple(first.tricks[0])
        assert int(again.cards[0][0]) == index
        game.play(DECK[index])


def test_solver_reports_an_illegal_scripted_card() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(3,))
    game = Game(rules, seed=3)
    while game.phase is Phase.BIDDING:
        seat = game.awaiting[0]
        game.bid(game.legal_bids(seat)[0], seat)
    mover = game.to_act
    assert mover is not None
    foreign = next(c for s in range(4) if s != mover for c in game.hand(s))
    out = solve_endgame(position_from_game(game), world_of(game), script=(foreign,))
    assert out.status[0] == 1


def test_solver_refuses_a_position_too_large_to_search() -> None:
    game = Game(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13,)), seed=1)
    while game.phase is Phase.BIDDING:
        seat = game.awaiting[0]
        game.bid(0, seat)
    with pytest.raises(ValueError, match="at most 32 cards"):
        solve_endgame(position_from_game(game), world_of(game))


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(rules=custom_rules(max_size=4), seed=st.integers(0, 2**32 - 1))
def test_search_bot_with_the_endgame_solver_plays_only_legal_cards(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    bots = [
        PimcBot(seed + seat, config=SearchConfig(endgame=3), budget=8) for seat in range(rules.player_count)
    ]
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])  # the engine raises on an illegal move
    assert len(game.results) == len(rules.hand_sizes)


def test_the_expert_takes_the_endgame_option_and_plays_a_hand_with_it() -> None:
    game = Game(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(4,)), seed=8)
    config = dataclasses.replace(ExpertBot.defaults, endgame=3)
    bots = [ExpertBot(seat, config=config, budget=32) for seat in range(4)]
    assert {bot.config.endgame for bot in bots} == {3}
    assert {bot.config.bid_model for bot in bots} == {True}  # the rest of the expert's configuration stays
    while not game.is_over:
        seat = game.awaiting[0]
        act(game, seat, bots[seat])
    assert sum(game.results[0].tricks_won) == 4
