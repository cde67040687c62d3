"""No level bids what its hand cannot make, and every level plays the known hard spots of other apps'
bots right: the top trump led when every trick is needed, the boss trump kept when it alone makes the bid."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from upriver import DECK, Card, DealerBid, Game, Rules, Schedule, Scoring, SeatView
from upriver.bots import LEVELS, Bot, make_bot
from upriver.bots.sure import best_bid, makeable_bids, sure_tricks
from upriver.cards import Rank, Suit

P = Card.parse
SMALL = 8
"""Deals a decision for the search levels in the property test: ``normal``'s own budget."""


def _level(level: str, seed: int, budget: int | None = None) -> Bot:
    return (
        make_bot(level, seed) if level == "easy" or budget is None else make_bot(level, seed, budget=budget)
    )


def _game(hands: list[list[str]], turned: str, scoring: Scoring = Scoring.TRICKS_PLUS_TEN) -> Game:
    size = len(hands[0])
    rules = Rules(
        player_count=len(hands),
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(size,),
        dealer_bid=DealerBid.HOOK,
        scoring=scoring,
    )
    game = Game(rules, seed=0, dealer=len(hands) - 1, auto_deal=False)
    game.deal([[P(card) for card in hand] for hand in hands], P(turned))
    return game


def _hooked_dealer_with_the_trump_ace(scoring: Scoring) -> SeatView:
    """A 3-card round, spades trump: the others bid 1, 1 and 0, so the hook forbids the dealer's 1,
    and the dealer holds the ace of trump (a sure trick) with two low side cards."""
    game = _game(
        [["KH", "QC", "5S"], ["JD", "9C", "TH"], ["4C", "6H", "8D"], ["AS", "2H", "3D"]], "7S", scoring
    )
    for seat, bid in enumerate((1, 1, 0)):
        game.bid(bid, seat=seat)
    return game.view(3)


@pytest.mark.parametrize("scoring", [Scoring.TEN_PLUS_BID, Scoring.TRICKS_PLUS_TEN, Scoring.NEGATIVE])
@pytest.mark.parametrize("level", list(LEVELS))
def test_a_hooked_dealer_holding_the_trump_ace_never_bids_the_sure_miss_of_zero(
    level: str, scoring: Scoring
) -> None:
    view = _hooked_dealer_with_the_trump_ace(scoring)
    assert view.legal_bids == (0, 2, 3)
    assert sure_tricks(view) == 1
    bids = [make_bot(level, seed).choose_bid(view) for seed in range(30)]
    assert all(bid in (2, 3) for bid in bids), bids


def test_when_estimates_tie_the_bid_nearest_the_sure_tricks_wins() -> None:
    view = _hooked_dealer_with_the_trump_ace(Scoring.TEN_PLUS_BID)
    assert makeable_bids(view) == (2, 3)
    assert best_bid(view, (0, 2, 3), (0.0, 0.0, 0.0)) == 2
    assert best_bid(view, (0, 2, 3), (5.0, 0.0, 1.0)) == 3  # a sure miss is never chosen over a makeable bid
    assert best_bid(view, (0,), (0.0,)) == 0  # nothing else to choose
    with pytest.raises(ValueError, match="one value for each"):
        best_bid(view, (0, 2), (1.0,))


@st.composite
def dealer_bids(draw: st.DrawFn) -> SeatView:
    """The dealer's bid in a round of random size and rules, the dealer holding a random number of
    the top trumps (the turned card left out) and the others having bid at random."""
    players = draw(st.integers(3, 6))
    size = draw(st.integers(1, 6))
    rules = Rules(
        player_count=players,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(size,),
        dealer_bid=draw(st.sampled_from(DealerBid)),
        scoring=draw(st.sampled_from(Scoring)),
    )
    rng = random.Random(draw(st.integers(0, 2**32)))
    trump = draw(st.sampled_from(list(Suit)))
    turned = Card.of(draw(st.sampled_from(list(Rank))), trump)
    tops = [Card.of(rank, trump) for rank in sorted(Rank, reverse=True) if Card.of(rank, trump) != turned]
    held = tops[: draw(st.integers(0, size))]
    rest = [card for card in DECK if card != turned and card not in held]
    rng.shuffle(rest)
    mine = held + rest[: size - len(held)]
    rest = rest[size - len(held) :]
    hands = [rest[s * size : (s + 1) * size] for s in range(players - 1)] + [mine]
    game = Game(rules, seed=0, dealer=players - 1, auto_deal=False)
    game.deal(hands, turned)
    for seat in range(players - 1):
        game.bid(draw(st.integers(0, size)), seat=seat)
    return game.view(players - 1)


@settings(max_examples=40, deadline=None)
@given(view=dealer_bids(), seed=st.integers(0, 999))
def test_no_level_bids_below_its_sure_tricks_when_a_makeable_bid_is_legal(view: SeatView, seed: int) -> None:
    sure = sure_tricks(view)
    makeable = [bid for bid in view.legal_bids if bid >= sure]
    for level in LEVELS:
        bid = _level(level, seed, SMALL).choose_bid(view)
        assert bid in view.legal_bids, (level, bid, view.legal_bids)  # the dealer's rule forbids none chosen
        if makeable:
            assert bid >= sure, (level, bid, sure, view.legal_bids)
        else:
            assert bid == max(view.legal_bids), (level, bid, sure, view.legal_bids)


def _needing_every_trick() -> SeatView:
    """Seat 0 leads a 3-card round with the king of trump (the ace turned), the eight of trump and
    the queen of hearts, having bid all three tricks."""
    game = _game([["KS", "8S", "QH"], ["TS", "4H", "2C"], ["JH", "5C", "3D"], ["7D", "8C", "9H"]], "AS")
    for seat, bid in enumerate((3, 0, 0, 1)):
        game.bid(bid, seat=seat)
    return game.view(0)


def _two_trumps_bid_two() -> SeatView:
    """Seat 0 leads a 2-card round holding the queen and nine of trump, having bid two."""
    game = _game([["QS", "9S"], ["JS", "4H"], ["KH", "5C"], ["7D", "8C"]], "2S")
    for seat, bid in enumerate((2, 0, 0, 1)):
        game.bid(bid, seat=seat)
    return game.view(0)


def _one_more_trick_with_the_boss_trump() -> SeatView:
    """The dealer, last to a club trick it is void in, holds the ace of trump and the ace of hearts
    and needs one trick of the two left: ruffing would leave the heart ace to take a second."""
    game = _game([["KC", "2H"], ["QC", "3H"], ["JC", "4D"], ["AS", "AH"]], "5S")
    for seat, bid in enumerate((0, 0, 0, 1)):
        game.bid(bid, seat=seat)
    for seat, card in enumerate(("KC", "QC", "JC")):
        game.play(P(card), seat=seat)
    return game.view(3)


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_leads_its_top_trump_when_every_remaining_trick_is_needed(level: str) -> None:
    view = _needing_every_trick()
    assert {make_bot(level, seed).choose_card(view) for seed in range(12)} == {P("KS")}


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_with_two_trumps_and_a_bid_of_two_leads_the_higher(level: str) -> None:
    view = _two_trumps_bid_two()
    assert {make_bot(level, seed).choose_card(view) for seed in range(12)} == {P("QS")}


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_keeps_the_boss_trump_and_discards_the_side_card_when_one_more_trick_is_needed(
    level: str,
) -> None:
    view = _one_more_trick_with_the_boss_trump()
    assert set(view.legal_cards) == {P("AS"), P("AH")}
    assert {make_bot(level, seed).choose_card(view) for seed in range(12)} == {P("AH")}
