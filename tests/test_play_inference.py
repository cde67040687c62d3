"""Inference from card play: deals weighted by how likely the other seats' plays were under a softened
rule of thumb, and the ``ipimc`` / ``expert`` option that uses them."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import games, play_bots
from upriver import Game, Rules, Schedule
from upriver.bots import Bot, ExpertBot, IpimcBot, make_bot
from upriver.bots.ipimc import IpimcConfig
from upriver.bots.knowledge import knowledge_of
from upriver.bots.sampling import (
    bid_log_weights,
    effective_deals,
    play_log_weights,
    resample,
    sample_worlds,
    weigh_by_bids,
)
from upriver.cards import SUIT_MASKS, Card, cards_in, mask_of
from upriver.fast import position_from_view
from upriver.view import SeatView

EPS = 0.2


def _mask(text: str) -> int:
    return mask_of(Card.parse(c) for c in text.split())


def _ducked_king() -> Game:
    """Three seats, two cards, clubs trump. Seat 0 bid 0 and led 2♥; seat 1 bid 0 and played K♥.

    Holding K♥ with a lower heart, the rule of thumb would have ducked with that heart; with
    K♥ A♥ it plays the king, the least card that wins; with K♥ and no other heart it had no choice.
    """
    rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(2,))
    hands = [cards_in(_mask(h)) for h in ("2H 4D", "KH AH", "5S 6S")]
    game = Game(rules, seed=1, dealer=2, auto_deal=False)
    game.deal(hands, Card.parse("9C"))
    for seat in range(3):
        game.bid(0 if seat < 2 else 1, seat=seat)
    game.play(Card.parse("2H"), seat=0)
    game.play(Card.parse("KH"), seat=1)
    return game


def _weights(view: SeatView, deals: list[tuple[str, str, str]], eps: float = EPS) -> list[float]:
    know, position = knowledge_of(view), position_from_view(view)
    worlds = np.array([[_mask(h) for h in deal] for deal in deals], dtype=np.uint64)
    plays = tuple((seat, card.index) for seat, card in view.played)
    return [float(w) for w in play_log_weights(know, position, plays, worlds, eps=eps)]


def test_a_play_the_rule_of_thumb_would_not_make_gets_eps_over_the_legal_cards() -> None:
    view = _ducked_king().view(2)
    agree, contradict, forced, lead_contradicts = _weights(
        view, [("4D", "AH", "5S 6S"), ("4D", "3H", "5S 6S"), ("4D", "7C", "5S 6S"), ("2D", "AH", "5S 6S")]
    )
    hit, miss = math.log(1 - EPS + EPS / 2), math.log(EPS / 2)
    # Seat 0's lead of its lowest card agrees in the first three deals; in the last it held 2♦,
    # which the rule of thumb sheds before 2♥ (equal rank, lower index).
    assert agree == pytest.approx(2 * hit)
    assert contradict == pytest.approx(hit + miss)
    assert forced == pytest.approx(hit)  # K♥ was seat 1's only heart: its play says nothing
    assert lead_contradicts == pytest.approx(miss + hit)
    # The deal where K♥ agrees is (1 - eps/2) / (eps/2) = 9 times as likely as the one where it contradicts.
    assert math.exp(agree - contradict) == pytest.approx(9.0)
    assert forced > agree > contradict


def test_the_deciding_seats_own_plays_are_not_scored_and_an_unsoftened_eps_is_refused() -> None:
    game = _ducked_king()
    game.play(Card.parse("5S"), seat=2)  # seat 1 wins the trick with K♥ and leads next
    view = game.view(1)
    # From seat 1's side only seat 0's lead (2♥ from 2♥ 4D) and seat 2's discard are scored.
    [w] = _weights(view, [("4D", "AH", "6S")])
    assert w == pytest.approx(math.log(1 - EPS + EPS / 2) * 2)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        _weights(view, [("4D", "AH", "6S")], eps=1.0)


def test_weighting_by_play_takes_low_hearts_away_from_the_seat_that_played_the_king() -> None:
    view = _ducked_king().view(2)
    know, position = knowledge_of(view), position_from_view(view)
    pool = sample_worlds(know, position, 6000, seed=3)
    plays = tuple((seat, card.index) for seat, card in view.played)
    log_weights = play_log_weights(know, position, plays, pool, eps=EPS)
    kept = resample(pool, log_weights, 2000, seed=3)
    low_hearts = np.uint64(SUIT_MASKS[Card.parse("2H").suit] & ~_mask("KH AH"))
    before = float(np.mean(pool[:, 1] & low_hearts != 0))
    after = float(np.mean(kept[:, 1] & low_hearts != 0))
    assert before > 0.15
    assert after < before / 3
    assert 1.0 <= effective_deals(log_weights) < len(pool)


def test_without_play_inference_the_bot_draws_the_deals_weighted_by_bids_alone() -> None:
    game = _ducked_king()
    view = game.view(2)
    know, position = knowledge_of(view), position_from_view(view)
    bot = IpimcBot(1, budget=50)
    bot.analyse(view)
    drawn = bot.draw(know, position, 100, seed=4)
    pool = sample_worlds(know, position, bot.config.pool * 100, seed=4)
    assert (drawn == weigh_by_bids(know, position, pool, 100, spread=bot.config.spread, seed=4)).all()
    assert (bid_log_weights(know, position, pool) <= 0).all()


def test_play_inference_is_off_or_an_eps_strictly_between_zero_and_one() -> None:
    assert IpimcBot(1).config.play_inference is None
    assert ExpertBot(1).config.play_inference is None
    assert IpimcBot(1, config=IpimcConfig(play_inference=0.3)).config.play_inference == 0.3
    for bad in (0.0, 1.0, -0.5, 2):
        with pytest.raises(ValueError, match="play_inference is the share of plays left to chance"):
            IpimcConfig(play_inference=bad)


def test_the_effective_sample_size_is_the_count_for_equal_weights_one_for_a_lone_deal_kishs_between() -> None:
    assert effective_deals(np.zeros(7)) == pytest.approx(7.0)
    assert effective_deals(np.full(5, -1000.0)) == pytest.approx(5.0)  # far below exp's range, still 5
    assert effective_deals(np.array([0.0, -math.inf, -math.inf, -math.inf])) == pytest.approx(1.0)
    # Weights 1, 1, 2: (1 + 1 + 2)² / (1 + 1 + 4) = 16 / 6.
    assert effective_deals(np.log([1.0, 1.0, 2.0])) == pytest.approx(8 / 3)
    assert effective_deals(np.log([2.0, 1.0, 1.0]) + 50.0) == pytest.approx(8 / 3)
    assert effective_deals(np.array([], dtype=np.float64)) == 0.0


def test_a_bot_with_play_inference_reports_the_effective_sample_size_of_the_deals_it_weighed() -> None:
    view = _ducked_king().view(2)
    know, position = knowledge_of(view), position_from_view(view)
    bot = IpimcBot(5, config=IpimcConfig(play_inference=EPS), budget=300)
    bot.analyse(view)  # one decision: its search draws once, from a pool of pool × budget deals
    assert bot.last_pool_deals == bot.config.pool * 300
    assert bot.last_effective_deals is not None
    searched = bot.last_effective_deals
    bot.draw(know, position, 100, seed=4)  # a second draw of the same decision adds its own figures
    pool = sample_worlds(know, position, bot.config.pool * 100, seed=4)
    plays = tuple((seat, card.index) for seat, card in view.played)
    by_bids = bid_log_weights(know, position, pool, spread=bot.config.spread)
    log_weights = by_bids + play_log_weights(know, position, plays, pool, eps=EPS)
    assert bot.last_effective_deals - searched == pytest.approx(effective_deals(log_weights))
    assert bot.last_pool_deals == bot.config.pool * 300 + bot.config.pool * 100
    # Seat 1's king contradicts the deals that give it a lower heart: weighing the plays as well as
    # the bids leaves fewer deals that count.
    assert effective_deals(log_weights) < 0.9 * effective_deals(by_bids)


@settings(max_examples=25, deadline=None)
@given(game=games(), moves=st.integers(0, 60), seed=st.integers(0, 2**20), eps=st.floats(0.01, 0.99))
def test_play_weights_are_finite_on_any_view_and_their_sample_size_is_kishs(
    game: Game, moves: int, seed: int, eps: float
) -> None:
    play_bots(game, [make_bot("random", seed + s) for s in range(len(game.players))], stop=moves)
    if game.is_over:
        return
    view = game.view(game.awaiting[0])
    know, position = knowledge_of(view), position_from_view(view)
    pool = sample_worlds(know, position, 64, seed)
    plays = tuple((seat, card.index) for seat, card in view.played)
    log_weights = bid_log_weights(know, position, pool) + play_log_weights(
        know, position, plays, pool, eps=eps
    )
    assert np.isfinite(log_weights).all()
    weights = [math.exp(w - max(log_weights)) for w in log_weights]  # Kish's formula, by hand
    assert effective_deals(log_weights) == pytest.approx(
        math.fsum(weights) ** 2 / math.fsum(w * w for w in weights)
    )


@settings(max_examples=20, deadline=None)
@given(game=games(), seed=st.integers(0, 99), eps=st.floats(0.01, 0.99))
def test_search_bots_with_play_inference_only_make_legal_moves(game: Game, seed: int, eps: float) -> None:
    bots: list[Bot] = []
    for s in range(len(game.players)):
        kind = ExpertBot if s % 2 else IpimcBot
        bots.append(kind(seed + s, config=dataclasses.replace(kind.defaults, play_inference=eps), budget=8))
    play_bots(game, bots)
    assert len(game.results) == game.rules.rounds
