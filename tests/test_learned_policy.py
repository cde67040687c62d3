"""The learned play policy: the kernel plays the card the shipped forest ranks best among the
legal ones, from the features the trainer learns from, and a search can roll out with it."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules
from upriver import DECK, Game, Rules
from upriver.arena.openspiel import openspiel_rules
from upriver.bots import BasicBot, IpimcBot
from upriver.bots.bidmodel import Forest
from upriver.bots.ipimc import IpimcConfig
from upriver.bots.pimc import SearchConfig
from upriver.fast import position_from_view, rollout, world_of
from upriver.fast.api import play_features
from upriver.fast.learned import FEATURES, MODEL_FILE


def shipped_forest() -> Forest:
    data = json.loads(resources.files("upriver.bots.models").joinpath(MODEL_FILE).read_text("utf-8"))
    assert data["features"] == list(FEATURES)
    return Forest.from_dict(data["forest"])


@settings(max_examples=25, deadline=None)
@given(rules=custom_rules(max_size=8), seed=st.integers(0, 2**32 - 1))
def test_learned_policy_plays_the_legal_card_its_forest_ranks_best(rules: Rules, seed: int) -> None:
    forest = shipped_forest()
    game = Game(rules, seed=seed)
    bot = BasicBot(seed=0)
    checked = 0
    while not game.is_over:
        seat = game.awaiting[0]
        view = game.view(seat)
        if view.legal_bids or view.foreheads:
            game.bid(int(bot.act(view)), seat)  # type: ignore[arg-type]
            continue
        position = position_from_view(view)
        cards, features = play_features(position)
        assert cards == tuple(sorted(card.index for card in view.legal_cards))
        assert features.shape == (len(cards), len(FEATURES))
        thumb = features[:, FEATURES.index("is_thumb")]
        assert thumb.sum() == 1  # the rule of thumb's card is one of them
        scores = forest.raw(features)
        best = cards[int(np.argmax(thumb))]
        if scores.max() > scores[int(np.argmax(thumb))]:
            best = cards[int(np.argmax(scores))]
        out = rollout(position, world_of(game), "learned", record=True, check=False)
        assert out.cards is not None
        assert out.cards[0, 0] == best
        checked += 1
        game.play(DECK[best], seat)
    assert checked or all(size == 1 for size in rules.hand_sizes)


def test_a_search_rolls_its_card_decisions_out_with_the_learned_policy() -> None:
    game = Game(openspiel_rules(4, 10), seed=3)
    basic = BasicBot(seed=0)
    while game.view(game.awaiting[0]).legal_bids:
        seat = game.awaiting[0]
        game.move(basic.act(game.view(seat)), seat=seat)
    view = game.view(game.awaiting[0])
    by_thumb = IpimcBot(7, config=IpimcConfig(iterations=256, time_budget=None, prune=False)).analyse(view)
    by_policy = IpimcBot(
        7, config=IpimcConfig(iterations=256, time_budget=None, prune=False, rollout="learned")
    ).analyse(view)
    # The same candidates tried in the same deals, played out by another policy.
    assert by_policy.choices == by_thumb.choices
    assert by_policy.worlds == by_thumb.worlds
    assert by_policy.value != by_thumb.value


def test_a_search_refuses_a_rollout_policy_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="basic or learned, not 'random'"):
        SearchConfig(rollout="random")
