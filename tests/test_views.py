"""Seat views: a seat sees its own hand and the table, never another seat's cards; views are frozen copies."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import card, dealt_game, one_round_rules, preset_and_players, random_action
from upriver import (
    Bidding,
    Card,
    Game,
    Phase,
    RoundResult,
    SeatView,
    preset,
)


def walk(obj: object, depth: int = 0) -> Iterator[object]:
    """Every object reachable from ``obj`` through dataclass fields, tuples, lists and dicts."""
    assert depth < 20, "views are shallow records"
    yield obj
    if isinstance(obj, Card | str | int | float | bool) or obj is None:
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for field in dataclasses.fields(obj):
            yield from walk(getattr(obj, field.name), depth + 1)
    elif isinstance(obj, tuple | list | set | frozenset):
        for item in obj:
            yield from walk(item, depth + 1)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from walk(key, depth + 1)
            yield from walk(value, depth + 1)


def cards_in_view(view: SeatView, *, skip: tuple[str, ...] = ()) -> set[Card]:
    """Every card anywhere in the view's fields, except the named fields."""
    found: set[Card] = set()
    for field in dataclasses.fields(view):
        if field.name in skip:
            continue
        found.update(o for o in walk(getattr(view, field.name)) if isinstance(o, Card))
    return found


def check_views(game: Game) -> None:
    """Each seat's view holds its own hand and no card still in another seat's hand."""
    n = game.rules.player_count
    for seat in range(n):
        view = game.view(seat)
        assert view.seat == seat
        assert view.hand == game.hand(seat)
        others = {c for other in range(n) if other != seat for c in game.hand(other)}
        # Finished rounds are public: every card in them was played face up at the table,
        # and so is the last trick, which may be the previous round's (its cards dealt again).
        leaked = cards_in_view(view, skip=("history", "last_trick")) & others
        assert not leaked, f"seat {seat} sees {sorted(leaked)} from other hands"
        assert view.history == game.results
        for result in view.history:
            assert_round_was_shown(result)
        assert not any(isinstance(o, Game) for o in walk(view)), "a view must not reach the game"


def assert_round_was_shown(result: RoundResult) -> None:
    assert result.hands is not None
    assert result.plays is not None
    assert sorted(result.plays) == sorted(c for hand in result.hands for c in hand)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(choice=preset_and_players(), seed=st.integers(0, 2**32 - 1))
def test_a_seat_view_contains_only_its_own_hand(choice: tuple[str, int], seed: int) -> None:
    name, players = choice
    rules = preset(name, player_count=players, max_cards=3)
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        check_views(game)
        random_action(game, rng)
    check_views(game)


def test_view_shows_own_hand_turned_card_and_the_table() -> None:
    game = dealt_game(one_round_rules(4, 2), ["2H 3C", "4H 5C", "6H 7C", "AH 8C"], "2D")
    view = game.view(2)
    assert view.hand == (card("7C"), card("6H"))
    assert view.turned is card("2D")
    assert view.trump is card("2D").suit
    assert view.players == ("P1", "P2", "P3", "P4")
    assert view.dealer == 0
    assert view.bidding_order == (1, 2, 3, 0)
    for seat in game.bidding_order:
        game.bid(0, seat)
    game.play(card("4H"))
    view = game.view(2)
    assert view.trick == ((1, card("4H")),)
    assert view.played == ((1, card("4H")),)
    assert view.leader == 1
    assert cards_in_view(view) == {card("7C"), card("6H"), card("2D"), card("4H")}


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 8), seed=st.integers(0, 2**32 - 1))
def test_simultaneous_bids_are_hidden_until_all_are_in(players: int, seed: int) -> None:
    rules = preset("closed-fists", player_count=players, max_cards=3)
    assert rules.bidding is Bidding.SIMULTANEOUS
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        bids = game.bids
        for seat in range(players):
            shown = game.view(seat).bids
            if game.phase is Phase.BIDDING:
                expected = tuple(b if s == seat else None for s, b in enumerate(bids))
            else:
                expected = bids
            assert shown == expected
            assert game.view(seat).bids_made == sum(b is not None for b in bids)
        random_action(game, rng)


def test_sequential_bids_are_shown_as_they_are_made() -> None:
    game = Game(preset("countdown", player_count=5, max_cards=3), seed=4)
    while game.phase is Phase.BIDDING:
        for seat in range(5):
            assert game.view(seat).bids == game.bids
        game.bid(game.legal_bids()[0])


@settings(max_examples=25, deadline=None)
@given(choice=preset_and_players(), seed=st.integers(0, 2**32 - 1))
def test_legal_choices_are_in_a_view_only_on_the_seats_turn(choice: tuple[str, int], seed: int) -> None:
    name, players = choice
    game = Game(preset(name, player_count=players, max_cards=3), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        for seat in range(players):
            view = game.view(seat)
            bidding = game.phase is Phase.BIDDING and seat in game.awaiting
            playing = game.phase is Phase.PLAYING and seat == game.to_act
            assert bool(view.legal_bids) == bidding
            assert bool(view.legal_cards) == playing
            assert view.my_turn == (bidding or playing)
            if bidding:
                assert view.legal_bids == game.legal_bids(seat)
            if playing:
                assert view.legal_cards == game.legal_cards()
                assert set(view.legal_cards) <= set(view.hand)
        random_action(game, rng)
    for seat in range(players):
        view = game.view(seat)
        assert view.phase is Phase.OVER
        assert view.to_act is None
        assert not view.my_turn


def test_view_is_frozen() -> None:
    game = Game(preset("classic", player_count=4), seed=1)
    view = game.view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.bids = (1, 1, 1, 1)  # type: ignore[misc]
    assert isinstance(view.hand, tuple)
    assert isinstance(view.bids, tuple)
    assert isinstance(view.totals, tuple)


def test_view_is_a_copy_that_later_moves_do_not_change() -> None:
    game = Game(one_round_rules(4, 2), seed=5, dealer=0)
    before = game.view(1)
    saved = dataclasses.replace(before)
    for seat in game.bidding_order:
        game.bid(1, seat)
    game.play(game.legal_cards()[0])
    assert before == saved
    assert before.phase is Phase.BIDDING
    assert len(before.hand) == 2
    assert len(game.view(1).hand) == 1


def test_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    game = Game(preset("classic", player_count=4), seed=1)
    for seat in (-1, 4):
        with pytest.raises(ValueError, match=f"seat {seat} does not exist: seats are 0 to 3"):
            game.view(seat)


def test_a_view_ranks_the_table_as_the_game_does_with_ties_sharing_a_place() -> None:
    game = Game(preset("overbid", player_count=3), seed=5)
    while not game.is_over:
        game.move(game.legal_bids()[0] if game.phase is Phase.BIDDING else game.legal_cards()[0])
        assert game.view(None).standings() == game.standings() == game.view(1).standings()
    places = [place for place, _, _ in game.standings()]
    totals = [total for _, _, total in game.standings()]
    assert places[0] == 1
    assert all(
        p2 == p1 if t2 == t1 else p2 == i + 2
        for i, (p1, p2, t1, t2) in enumerate(zip(places, places[1:], totals, totals[1:], strict=False))
    )
