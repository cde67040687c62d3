"""``master``: legal moves under any rules, blind to the cards it cannot see, reproducible from its
seed, and a tree search whose root statistics add up."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import games, play_bots
from upriver import DECK, Card, DealerBid, Game, Rules, Schedule, preset
from upriver.bots import BOT_KINDS, MasterBot, make_bot
from upriver.bots.knowledge import knowledge_of
from upriver.bots.master import MasterConfig
from upriver.bots.sampling import sample_worlds
from upriver.fast import position_from_view
from upriver.fast.ismcts import new_tree, search_tree

SMALL = 24
"""Simulations a card decision in the property tests (bids roll out as many deals)."""


def small_master(seed: int, opponents: str = "search") -> MasterBot:
    config = MasterConfig(iterations=SMALL, bid_iterations=SMALL, first_batch=8, opponents=opponents)
    return MasterBot(seed, config=config)


@settings(max_examples=25, deadline=None)
@given(game=games(), seed=st.integers(0, 99), opponents=st.sampled_from(["search", "policy"]))
def test_master_only_makes_legal_moves_under_any_rules(game: Game, seed: int, opponents: str) -> None:
    play_bots(game, [small_master(seed + s, opponents) for s in range(len(game.players))])
    assert len(game.results) == game.rules.rounds


def test_master_is_registered_and_takes_a_budget_of_simulations_or_seconds() -> None:
    assert BOT_KINDS["master"] is MasterBot
    by_count, by_time = make_bot("master:300", 1), make_bot("master:0.1s", 1)
    assert isinstance(by_count, MasterBot)
    assert isinstance(by_time, MasterBot)
    assert (by_count.config.iterations, by_count.config.time_budget) == (300, None)
    assert (by_time.config.iterations, by_time.config.time_budget) == (None, 0.1)
    with pytest.raises(ValueError, match="exploration is UCB1's constant"):
        MasterConfig(exploration=-1.0)
    with pytest.raises(ValueError, match="deals must be at least 1"):
        MasterConfig(deals=0)
    with pytest.raises(ValueError, match="by search or policy, not 'random'"):
        MasterConfig(opponents="random")


def _deal(players: int, size: int, seed: int) -> tuple[list[list[Card]], Card]:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return [cards[s * size : (s + 1) * size] for s in range(players)], cards[players * size]


@pytest.mark.parametrize("deal_seed", [5, 6])
def test_a_card_does_not_depend_on_the_other_seats_hidden_cards(deal_seed: int) -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(8,), dealer_bid=DealerBid.HOOK)
    hands, turned = _deal(4, 8, seed=deal_seed)
    # The same deal with seats 2 and 3 holding each other's cards: seat 1, to lead, cannot tell.
    swapped = [hands[0], hands[1], hands[3], hands[2]]
    cards, visits = [], []
    for deal in (hands, swapped):
        game = Game(rules, seed=1, dealer=0, auto_deal=False)
        game.deal(deal, turned)
        for seat, bid in ((1, 2), (2, 1), (3, 3), (0, 0)):
            game.move(bid, seat=seat)
        bot = MasterBot(7, config=MasterConfig(iterations=400, first_batch=64))
        cards.append(bot.act(game.view(1)))
        visits.append(bot.last_visits)
    assert cards[0] == cards[1]
    assert visits[0] == visits[1]


def test_a_fixed_seed_and_simulation_budget_replay_the_same_game() -> None:
    def one_game() -> Game:
        game = Game(preset("countdown", 4, max_cards=4), seed=11)
        play_bots(game, [small_master(seat) for seat in range(4)])
        return game

    assert one_game().log == one_game().log


def test_the_root_visits_add_up_to_the_simulations_and_cover_every_legal_card() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(6,), dealer_bid=DealerBid.HOOK)
    game = Game(rules, seed=3, dealer=0)
    for seat, bid in ((1, 1), (2, 2), (3, 0), (0, 2)):
        game.move(bid, seat=seat)
    view = game.view(1)
    position = position_from_view(view)
    worlds = sample_worlds(knowledge_of(view), position, 300, seed=2)
    tree = search_tree(new_tree(8), position, worlds[:100], seed=1)
    tree = search_tree(tree, position, worlds[100:], seed=2)  # grows the same tree, in bigger arrays
    children = tree.root_children
    assert int(tree.visits[0]) == 300
    assert sum(int(tree.visits[node]) for node in children) == 300
    assert {Card.from_index(int(tree.card[node])) for node in children} == set(view.legal_cards)
    # Each simulation adds one node at most: the root, its children and what grew below them.
    assert int(tree.size[0]) <= 301
    # A node's mean is a share of the round's score range, and children never outnumber parents.
    used = int(tree.size[0])
    assert np.all(tree.reward[1:used] <= tree.visits[1:used])
    for node in range(1, used):
        assert tree.visits[node] <= tree.visits[int(tree.parent[node])]
