"""upriver.review: each decision judged from its seat's view alone; bad choices flagged, forced ones never.

The constructed positions are ones whose outcome no deal of the hidden cards can change, so
the points a choice costs are known exactly without the search: the review must find them.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import card, custom_rules, dealt_game, one_round_rules
from tests.helpers import hidden_bids, other_deal, random_move
from upriver import Game, Rules, Scoring
from upriver.branch import game_from_view
from upriver.record import load, loads, record_of
from upriver.review import (
    NoCardsError,
    RoundTask,
    Settings,
    evaluate,
    review_record,
    review_round,
    round_tasks,
    worker_pool,
)
from upriver.view import SeatView

GOLDEN = Path(__file__).parent / "golden"
SMALL = Settings(deals=24)
PROPERTY = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def trumped_trick() -> Game:
    """Two cards each, hearts trump (KH turned). Seat 1 leads AC, seat 2 trumps with QH, seat 3
    follows with 3C; the dealer, seat 0, bid 1 and holds AH and JH, and must choose.

    JH loses this trick to QH, then AH takes the last: exactly one trick, 11 points. AH takes this
    trick, then JH leads the last and wins it too (AH, KH and QH are gone): two tricks, 0 points.
    """
    rules = one_round_rules(4, 2, scoring=Scoring.TEN_PLUS_BID)
    game = dealt_game(rules, ["AH JH", "AC 5D", "QH 7S", "3C 9D"], "KH")
    for seat, bid in ((1, 1), (2, 1), (3, 0), (0, 1)):
        game.bid(bid, seat)
    for text in ("AC", "QH", "3C"):
        game.play(card(text))
    return game


def ace_of_trumps() -> Game:
    """One card each, hearts trump: the dealer (seat 0, bidding last) holds AH, a sure trick."""
    rules = one_round_rules(4, 1, scoring=Scoring.TEN_PLUS_BID)
    game = dealt_game(rules, ["AH", "AC", "7S", "3C"], "2H")
    for seat in (1, 2, 3):
        game.bid(0, seat)
    return game


def test_a_card_that_surely_loses_the_bid_costs_its_whole_value_and_is_flagged() -> None:
    game = trumped_trick()
    evaluation = evaluate(game.view(0), deals=64, seed=1)
    assert evaluation.best == card("JH")
    assert evaluation.best_make == card("JH")
    ace = evaluation.of(card("AH"))
    assert ace.make == 0.0
    assert 10.5 <= ace.loss <= 11.5
    game.play(card("AH"))  # the mistake
    game.play(card("JH"))
    for _ in range(3):
        game.play(game.legal_cards()[0])
    review = review_record(record_of(game), seats=(0,), settings=SMALL).seat(0)
    decision = review.rounds[0].decisions[1]
    assert (decision.kind, decision.chosen, decision.flagged) == ("card", card("AH"), True)
    assert 10.5 <= decision.cost <= 11.5
    assert decision in review.mistakes
    assert 10.5 <= review.play <= 11.5


def test_the_best_card_costs_nothing_and_is_not_flagged() -> None:
    game = trumped_trick()
    game.play(card("JH"))
    while not game.is_over:
        game.play(game.legal_cards()[0])
    review = review_record(record_of(game), seats=(0,), settings=SMALL).seat(0)
    decision = review.rounds[0].decisions[1]
    assert decision.cost == 0.0
    assert not decision.flagged
    assert review.rounds[0].score == 11


def test_a_bid_that_surely_fails_is_flagged_with_the_points_of_the_bid_it_passed_over() -> None:
    game = ace_of_trumps()
    game.bid(0, 0)
    game.play(game.legal_cards()[0])
    while not game.is_over:
        game.play(game.legal_cards()[0])
    review = review_record(record_of(game), seats=(0,), settings=SMALL).seat(0)
    bid = review.rounds[0].decisions[0]
    assert bid.kind == "bid"
    assert bid.evaluation is not None
    assert bid.evaluation.best == 1
    assert bid.flagged
    assert 10.5 <= bid.cost <= 11.5
    # Luck is what the expert expects from these cards: the sure trick's 11 points.
    assert review.rounds[0].luck == pytest.approx(11.0, abs=0.5)
    assert 10.5 <= review.bidding <= 11.5


def test_the_threshold_decides_what_is_flagged() -> None:
    game = ace_of_trumps()
    game.bid(0, 0)
    while not game.is_over:
        game.play(game.legal_cards()[0])
    lenient = review_record(record_of(game), seats=(0,), settings=Settings(deals=24, threshold=12.0))
    assert not lenient.seat(0).rounds[0].decisions[0].flagged
    assert lenient.seat(0).mistakes == ()


@PROPERTY
@given(rules=custom_rules(max_size=3), seed=st.integers(0, 2**31 - 1))
def test_a_move_that_was_the_only_legal_one_is_never_flagged(rules: Rules, seed: int) -> None:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        random_move(game, rng)
    # Threshold 0 flags every choice that was a choice; a forced one still never is.
    review = review_record(record_of(game), settings=Settings(deals=2, threshold=0.0))
    forced = 0
    for seat_review in review.seats:
        for round_review in seat_review.rounds:
            for decision in round_review.decisions:
                legal = decision.view.legal_bids or decision.view.legal_cards
                assert decision.forced == (len(legal) == 1)
                assert decision.flagged == (not decision.forced)
                forced += decision.forced
                if decision.forced:
                    assert decision.cost == 0.0
    every_round_blind = rules.blind_one_card and set(rules.hand_sizes) == {1}  # no card is chosen there
    assert forced > 0 or every_round_blind  # every round's last trick is forced


def test_the_reviewer_is_handed_the_seats_views_and_nothing_else() -> None:
    game = trumped_trick()
    game.play(card("AH"))
    while not game.is_over:
        game.play(game.legal_cards()[0])
    tasks = round_tasks(record_of(game), (0,))
    assert [type(moment.view) for moment in tasks[0].moments] == [SeatView] * 3  # its bid, two cards
    assert all(moment.view.seat == 0 for moment in tasks[0].moments)
    # What the reviewer sees at the card is exactly the seat's view at that moment.
    before = trumped_trick()
    assert tasks[0].moments[1].view == before.view(0)


@PROPERTY
@given(
    rules=custom_rules(max_size=4),
    seed=st.integers(0, 2**31 - 1),
    cut=st.integers(0, 10**6),
    seat=st.integers(0, 7),
)
def test_other_seats_hidden_cards_leave_a_seats_review_unchanged(
    rules: Rules, seed: int, cut: int, seat: int
) -> None:
    """Two games that agree on everything a seat has seen, but deal the others' unseen cards
    differently, give the seat the same review of every decision it made up to there."""
    options = {**rules.options(), "schedule": [rules.hand_sizes[0]]}
    options.pop("max_cards", None)
    one_round = Rules.from_options(options, player_count=rules.player_count)
    seat %= one_round.player_count
    cut %= one_round.player_count * (1 + one_round.hand_sizes[0])  # a moment before the round's end
    rng = random.Random(seed)
    game = Game(one_round, seed=seed)
    for _ in range(cut):
        if game.is_over:
            return  # a blind round ends with its bids: no moment is left to branch from
        random_move(game, rng)
    if game.is_over:
        return
    view = game.view(seat)
    decided = (game.bids[seat] is not None) + sum(s == seat for s, _ in view.played)  # before the cut
    hands = other_deal(view, rng) or [game.hand(s) for s in range(one_round.player_count)]
    other = game_from_view(view, hands, seed=seed, bids=hidden_bids(game, seat))
    for branch in (game, other):
        while not branch.is_over:
            random_move(branch, rng)
    settings_ = Settings(deals=8, seed=seed % 1000)
    first = review_record(record_of(game), seats=(seat,), settings=settings_).seat(seat).rounds[0]
    second = review_record(record_of(other), seats=(seat,), settings=settings_).seat(seat).rounds[0]
    assert len(first.decisions) >= decided
    assert first.decisions[:decided] == second.decisions[:decided]


@pytest.mark.slow
def test_the_same_record_and_settings_give_the_same_review_on_one_core_or_two() -> None:
    record = load(GOLDEN / "classic.json")
    record = dataclasses.replace(record, rounds=record.rounds[:4])  # rounds of 1 to 4 cards
    inline = review_record(record, settings=Settings(deals=16, seed=3))
    assert review_record(record, settings=Settings(deals=16, seed=3)) == inline
    with worker_pool(2) as pool:  # two worker processes, the rounds spread over them
        assert review_record(record, settings=Settings(deals=16, seed=3), executor=pool) == inline
    assert review_record(record, settings=Settings(deals=16, seed=4)) != inline


def test_a_record_without_cards_is_refused_naming_the_round() -> None:
    record = loads(
        '{"format": "upriver-record/1", "rules": {"preset": "classic", "schedule": [1, 2]},'
        ' "players": ["Ann", "Bob", "Cid", "Dee"], "rounds": [{"dealer": 0, "bids": [0, 1, 0, 0],'
        ' "tricks": [0, 1, 0, 0]}]}'
    )
    with pytest.raises(NoCardsError, match="round 1 was kept without its cards") as caught:
        review_record(record)
    assert caught.value.round_number == 1


def test_a_seat_the_table_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="seats 0 to 3, not 4"):
        round_tasks(record_of(ace_of_trumps()), (4,))


def test_a_budget_below_one_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="from 1 to"):
        Settings(deals=0)


def test_a_round_is_reviewed_as_a_pure_function_of_its_task() -> None:
    game = trumped_trick()
    game.play(card("AH"))
    while not game.is_over:
        game.play(game.legal_cards()[0])
    task: RoundTask = round_tasks(record_of(game), (0,))[0]
    assert review_round(task, SMALL) == review_round(task, SMALL)
