"""The search bots: legal moves only, blind to hidden cards, reproducible, and fed deals that respect
everything the seat knows; the expert's hint is a legal move with a sane estimate."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import games, play_bots
from upriver import (
    DECK,
    Card,
    DealerBid,
    Game,
    Rules,
    Schedule,
    preset,
)
from upriver.bots import BOT_KINDS, IpimcBot, PimcBot, make_bot
from upriver.bots.hint import hint
from upriver.bots.knowledge import knowledge_of
from upriver.bots.pimc import SearchBot, SearchConfig, batches
from upriver.bots.sampling import sample_worlds, weigh_by_bids
from upriver.cards import SUIT_MASKS, cards_in, mask_of
from upriver.fast import position_from_view
from upriver.fast.infer import deal_constrained

SEARCH = ("pimc", "ipimc", "normal", "hard", "expert")
SMALL = 8
"""Deals per decision in the property tests: enough to exercise the search, fast to run."""


@settings(max_examples=25, deadline=None)
@given(game=games(), kinds=st.lists(st.sampled_from(SEARCH), min_size=8, max_size=8), seed=st.integers(0, 99))
def test_search_bots_only_make_legal_moves(game: Game, kinds: list[str], seed: int) -> None:
    play_bots(game, [make_bot(kinds[s], seed + s, budget=SMALL) for s in range(len(game.players))])
    assert len(game.results) == game.rules.rounds


def test_every_search_kind_and_level_is_registered_and_takes_a_budget() -> None:
    for kind in (*SEARCH, "pimc:50", "expert:0.2s", "hard:200ms"):
        bot = make_bot(kind, seed=1)
        assert isinstance(bot, PimcBot | IpimcBot)
        assert kind.partition(":")[0] in BOT_KINDS
    pimc, expert = make_bot("pimc:50", 1), make_bot("expert", 1, budget=0.2)
    assert isinstance(pimc, SearchBot)
    assert isinstance(expert, SearchBot)
    assert pimc.config.iterations == 50
    assert (expert.config.time_budget, expert.config.iterations) == (0.2, None)
    with pytest.raises(ValueError, match="takes no budget"):
        make_bot("basic", 1, budget=10)


def _deal(players: int, size: int, seed: int) -> tuple[list[list[Card]], Card]:
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return [cards[s * size : (s + 1) * size] for s in range(players)], cards[players * size]


@pytest.mark.parametrize("kind", ["pimc", "ipimc"])
def test_a_decision_does_not_depend_on_the_other_seats_hidden_cards(kind: str) -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(8,), dealer_bid=DealerBid.HOOK)
    hands, turned = _deal(4, 8, seed=5)
    # The same deal with seats 2 and 3 holding each other's cards: seat 1 (first to bid) cannot tell.
    swapped = [hands[0], hands[1], hands[3], hands[2]]
    decisions = []
    for deal in (hands, swapped):
        game = Game(rules, seed=1, dealer=0, auto_deal=False)
        game.deal(deal, turned)
        decisions.append(make_bot(kind, seed=7, budget=200).act(game.view(1)))
    assert decisions[0] == decisions[1]


def _cards_reachable(obj: object, seen: set[int] | None = None) -> set[Card]:
    """Every card reachable from ``obj`` through fields and containers, and fail on any Game."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return set()
    seen.add(id(obj))
    assert not isinstance(obj, Game), "a view must not reach the game"
    if isinstance(obj, Card):
        return {obj}
    found: set[Card] = set()
    if isinstance(obj, tuple | list | set | frozenset):
        for item in obj:
            found |= _cards_reachable(item, seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for field in dataclasses.fields(obj):
            found |= _cards_reachable(getattr(obj, field.name), seen)
    return found


@settings(max_examples=20, deadline=None)
@given(game=games(), moves=st.integers(0, 40), seed=st.integers(0, 99))
def test_what_a_bot_is_given_reaches_no_hidden_card(game: Game, moves: int, seed: int) -> None:
    play_bots(game, [make_bot("random", seed + s) for s in range(len(game.players))], stop=moves)
    if game.is_over:
        return
    seat = game.awaiting[0]
    view = game.view(seat)
    visible = set(view.hand) | {card for _, card in view.played} | {view.turned} - {None}
    for result in view.history:  # finished rounds were shown to the whole table
        visible |= {card for hand in result.hands or () for card in hand} | {result.turned} - {None}
    assert _cards_reachable(view) <= visible


@pytest.mark.parametrize("kind", SEARCH)
def test_a_fixed_seed_and_iteration_budget_replay_the_same_game(kind: str) -> None:
    def one_game() -> Game:
        game = Game(preset("countdown", 4, max_cards=4), seed=11)
        play_bots(game, [make_bot(kind, seed=seat, budget=32) for seat in range(4)])
        return game

    assert one_game().log == one_game().log


def _true_voids_hold(game: Game, seat: int) -> None:
    """Everything the seat infers about the others agrees with the cards they really hold."""
    know = knowledge_of(game.view(seat))
    for other in range(len(game.players)):
        held = mask_of(game.hand(other))
        assert know.counts[other] == len(game.hand(other))
        if other != seat:
            assert held & know.voids[other] == 0
            assert held & ~know.unknown == 0


@settings(max_examples=40, deadline=None)
@given(game=games(), moves=st.integers(0, 60), seed=st.integers(0, 2**20))
def test_sampled_worlds_respect_the_hand_the_played_cards_and_revealed_voids(
    game: Game, moves: int, seed: int
) -> None:
    play_bots(game, [make_bot("random", seed + s) for s in range(len(game.players))], stop=moves)
    if game.is_over:
        return
    seat = game.awaiting[0]
    view = game.view(seat)
    _true_voids_hold(game, seat)
    know, position = knowledge_of(view), position_from_view(view)
    worlds = sample_worlds(know, position, 50, seed)
    assert worlds.shape == (50, len(game.players))
    assert worlds.dtype == np.uint64
    gone = mask_of(card for _, card in view.played) | (0 if view.turned is None else view.turned.mask)
    for world in worlds:
        hands = [int(h) for h in world]
        assert hands[seat] == mask_of(view.hand)
        assert [h.bit_count() for h in hands] == [len(game.hand(s)) for s in range(len(hands))]
        assert sum(h.bit_count() for h in hands) == (np.bitwise_or.reduce(world).bit_count())  # no card twice
        for s, h in enumerate(hands):
            assert h & gone == 0
            # Recomputed here from the tricks: a seat that did not follow holds none of the led suit.
            for trick in [t.plays for t in view.tricks] + [view.trick]:
                led = trick[0][1].suit if trick else None
                for who, card in trick:
                    if who == s and s != seat and led is not None and card.suit is not led:
                        assert h & SUIT_MASKS[led] == 0


def test_the_constrained_dealer_fills_every_hand_when_voids_leave_one_way() -> None:
    # Seat 0 holds all 13 clubs; seat 1 has shown no diamonds, seat 2 no hearts: rejection would
    # rarely succeed, the constrained dealer must still find deals that fit, and vary them.
    known = np.zeros(4, np.uint64)
    known[0] = np.uint64(SUIT_MASKS[Card.parse("2C").suit])
    unknown = ((1 << 52) - 1) & ~int(known[0])
    need = np.array([0, 12, 13, 13])
    voids = np.array([0, SUIT_MASKS[Card.parse("2D").suit], SUIT_MASKS[Card.parse("2H").suit], 0], np.uint64)
    worlds = deal_constrained(known, unknown, need, voids, 300, seed=3)
    assert not np.any(worlds & voids)
    assert (np.bitwise_count(worlds) == [13, 12, 13, 13]).all()
    assert (np.bitwise_or.reduce(worlds, axis=1) | np.uint64(0)).tolist().count(int(known[0])) == 0
    assert len({tuple(w) for w in worlds.tolist()}) > 250


def test_deals_weighted_by_bids_give_a_high_bidder_more_trumps() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(8,))
    hands, turned = _deal(4, 8, seed=9)
    game = Game(rules, seed=1, dealer=0, auto_deal=False)
    game.deal(hands, turned)
    game.bid(6, seat=1)  # a big bid, whatever seat 1 really holds
    view = game.view(2)
    know, position = knowledge_of(view), position_from_view(view)
    pool = sample_worlds(know, position, 4000, seed=1)
    kept = weigh_by_bids(know, position, pool, 500, seed=1)
    trumps = np.uint64(SUIT_MASKS[turned.suit])
    assert np.bitwise_count(kept[:, 1] & trumps).mean() > np.bitwise_count(pool[:, 1] & trumps).mean() + 0.5


def test_a_search_bot_that_bid_nothing_sheds_its_king_under_the_ace() -> None:
    # Seat 1 bid 0 and holds K♠ 2♠ under the led A♠: kept, the king could win a later spade; the two cannot.
    rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(2,))
    hands = [cards_in(mask_of(Card.parse(c) for c in h.split())) for h in ("AS 3S", "KS 2S", "4H 5H")]
    game = Game(rules, seed=1, dealer=2, auto_deal=False)
    game.deal(hands, Card.parse("9C"))
    for seat, bid in ((0, 1), (1, 0), (2, 0)):
        game.bid(bid, seat=seat)
    game.play(Card.parse("AS"), seat=0)
    for kind in SEARCH:
        assert make_bot(kind, seed=1, budget=50).act(game.view(1)) == Card.parse("KS")


@settings(max_examples=15, deadline=None)
@given(game=games(), moves=st.integers(0, 40), seed=st.integers(0, 99))
def test_the_hint_is_a_legal_move_with_a_sane_estimate(game: Game, moves: int, seed: int) -> None:
    play_bots(game, [make_bot("random", seed + s) for s in range(len(game.players))], stop=moves)
    if game.is_over:
        return
    view = game.view(game.awaiting[0])
    advice = hint(view, seed=seed, iterations=SMALL * 4)
    if view.legal_bids:
        assert advice.kind == "bid"
        assert advice.choice in view.legal_bids
        assert 0 <= advice.estimate <= view.hand_size
    else:
        assert advice.kind == "card"
        assert advice.choice in view.legal_cards
        assert 0 <= advice.estimate <= 1
    assert advice == hint(view, seed=seed, iterations=SMALL * 4)  # the same view gets the same advice


@given(iterations=st.integers(1, 20000), first=st.integers(1, 300), most=st.integers(1, 9000))
def test_a_search_s_batches_add_up_to_its_iterations_and_double_up_to_the_cap(
    iterations: int, first: int, most: int
) -> None:
    config = SearchConfig(iterations=iterations, time_budget=None, first_batch=first)
    rounds = list(batches(config, most, time.perf_counter()))
    sizes = [size for _, size in rounds]
    assert [number for number, _ in rounds] == list(range(len(rounds)))
    assert sum(sizes) == iterations
    assert sizes[0] == min(first, iterations)
    for before, after in itertools.pairwise(sizes[:-1]):
        assert after == min(2 * before, most)


def test_a_search_on_a_time_budget_stops_before_a_batch_that_would_overrun_it() -> None:
    config = SearchConfig(iterations=None, time_budget=1.0, first_batch=64)
    # Ten seconds already spent on the first batch: the next would end far past the deadline.
    assert list(batches(config, 4096, time.perf_counter() - 10.0)) == [(0, 64)]
    # Without a clock's verdict the batches go on doubling until the budget is spent.
    patient = SearchConfig(iterations=None, time_budget=3600.0, first_batch=64)
    assert [size for _, size in itertools.islice(batches(patient, 256, time.perf_counter()), 4)] == [
        64,
        128,
        256,
        256,
    ]
