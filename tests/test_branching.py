"""Branching for search: ``Game.copy`` plays on independently, and ``game_from_view`` rebuilds a game
from one seat's view and a deal of the hidden cards, refusing a deal that does not fit the view.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules
from tests.helpers import hidden_bids, other_deal, random_move
from upriver import DECK, Bidding, Card, Game, Phase, Rules, Schedule, preset
from upriver.branch import InconsistentDealError, game_from_view
from upriver.state import GameState
from upriver.view import SeatView

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def advance(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.is_over:
            return
        random_move(game, rng)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a game shows: every seat's view, the spectator's, each hand and the log."""
    n = game.rules.player_count
    return (
        tuple(game.view(seat) for seat in range(n)),
        game.view(None),
        tuple(game.hand(seat) for seat in range(n)),
        game.log,
        game.results,
        game.phase,
    )


# ------------------------------------------------------------------ copy


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, before=st.integers(0, 60), after=st.integers(1, 40))
def test_a_copy_and_its_original_play_on_without_changing_each_other(
    rules: Rules, seed: int, before: int, after: int
) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    advance(game, rng, before)
    twin = game.copy()
    assert snapshot(twin) == snapshot(game)
    kept = snapshot(game)
    advance(twin, rng, after)
    assert snapshot(game) == kept
    kept_twin = snapshot(twin)
    advance(game, rng, after)
    assert snapshot(twin) == kept_twin


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, before=st.integers(0, 60))
def test_a_copy_played_with_the_same_moves_ends_like_its_original(
    rules: Rules, seed: int, before: int
) -> None:
    game = Game(rules, seed=seed)
    advance(game, random.Random(seed), before)
    twin = game.copy()
    advance(game, random.Random(seed + 1), 10_000)
    advance(twin, random.Random(seed + 1), 10_000)
    assert snapshot(twin) == snapshot(game)
    assert twin.is_over


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, before=st.integers(0, 60))
def test_a_copy_holds_every_field_of_the_state_and_its_own_lists(
    rules: Rules, seed: int, before: int
) -> None:
    # The state's fields are its slots; a field added later and forgotten by copy() fails here.
    game = Game(rules, seed=seed)
    advance(game, random.Random(seed), before)
    twin = game.copy()
    for name in GameState.__slots__:
        mine, theirs = getattr(game, name), getattr(twin, name)
        assert theirs == mine, name
        assert (theirs is mine) != isinstance(mine, list), name


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, before=st.integers(0, 60), after=st.integers(1, 40))
def test_a_copy_without_its_log_plays_on_like_the_original_with_only_the_new_actions_logged(
    rules: Rules, seed: int, before: int, after: int
) -> None:
    game = Game(rules, seed=seed)
    advance(game, random.Random(seed), before)
    twin = game.copy(log=False)
    assert twin.log == ()
    kept = len(game.log)
    advance(game, random.Random(seed + 1), after)
    advance(twin, random.Random(seed + 1), after)
    everything_but_the_log = snapshot(game)[:3] + snapshot(game)[4:]
    assert snapshot(twin)[:3] + snapshot(twin)[4:] == everything_but_the_log
    assert twin.log == game.log[kept:]


# ------------------------------------------------------- game_from_view


def random_view(rules: Rules, seed: int, moves: int, seat: int) -> tuple[Game, SeatView]:
    """A game stopped by random legal play before its end (a round is bid or played), and a seat's view."""
    whole = Game(rules, seed=seed)
    rng = random.Random(seed)
    total = 0
    while not whole.is_over:
        random_move(whole, rng)
        total += 1
    game = Game(rules, seed=seed)
    advance(game, random.Random(seed), moves % total)
    return game, game.view(seat % rules.player_count)


def lockstep_to_round_end(original: Game, rebuilt: Game, rng: random.Random) -> None:
    """Play the same random legal moves on both games to the end of the round, comparing each step."""
    number = original.round_number
    while not original.is_over and original.round_number == number:
        assert rebuilt.awaiting == original.awaiting
        for seat in range(original.rules.player_count):
            assert rebuilt.legal_bids(seat) == original.legal_bids(seat)
            assert rebuilt.legal_cards(seat) == original.legal_cards(seat)
            assert rebuilt.view(seat) == original.view(seat)
        state = rng.getstate()
        random_move(original, rng)
        rng.setstate(state)
        random_move(rebuilt, rng)
    assert rebuilt.results == original.results
    assert rebuilt.totals == original.totals
    assert rebuilt.last_trick == original.last_trick


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, moves=st.integers(0, 80), seat=st.integers(0, 7))
def test_a_game_rebuilt_with_the_true_hidden_hands_plays_on_exactly_like_the_original(
    rules: Rules, seed: int, moves: int, seat: int
) -> None:
    game, view = random_view(rules, seed, moves, seat)
    n = rules.player_count
    rebuilt = game_from_view(
        view, [game.hand(s) for s in range(n)], seed=seed ^ 1, bids=hidden_bids(game, view.seat)
    )
    assert rebuilt.view(view.seat) == view
    assert rebuilt.view(None) == game.view(None)
    lockstep_to_round_end(game, rebuilt, random.Random(seed))
    advance(rebuilt, random.Random(seed), 10_000)
    assert rebuilt.is_over


@FAST
@given(rules=custom_rules(max_size=6), seed=seeds, moves=st.integers(0, 80), seat=st.integers(0, 7))
def test_a_game_rebuilt_with_another_fitting_deal_shows_its_seat_the_same_view(
    rules: Rules, seed: int, moves: int, seat: int
) -> None:
    game, view = random_view(rules, seed, moves, seat)
    hands = other_deal(view, random.Random(seed)) or [game.hand(s) for s in range(rules.player_count)]
    rebuilt = game_from_view(view, hands, seed=seed, bids=hidden_bids(game, view.seat))
    assert rebuilt.view(view.seat) == view
    assert tuple(rebuilt.hand(s) for s in range(rules.player_count)) == tuple(tuple(sorted(h)) for h in hands)
    advance(rebuilt, random.Random(seed), 10_000)
    assert rebuilt.is_over


def test_later_rounds_are_dealt_from_the_new_seed() -> None:
    rules = preset("classic", player_count=4)
    game = Game(rules, seed=3)
    view = game.view(0)
    hands = [game.hand(s) for s in range(4)]
    first = game_from_view(view, hands, seed=11)
    again = game_from_view(view, hands, seed=11)
    other = game_from_view(view, hands, seed=12)
    for built in (first, again, other):
        advance(built, random.Random(0), 8)  # round 1 (one card each), then into round 2
        assert built.round_number == 2
    assert first.log == again.log
    assert [first.hand(s) for s in range(4)] != [other.hand(s) for s in range(4)]


# --------------------------------------------------------------- refusals


def find_view(rules: Rules, wanted: Callable[[Game], bool], seat: int = 0) -> tuple[Game, SeatView]:
    """The first game state, over seeds and random play, where ``wanted`` holds."""
    for seed in range(2000):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if wanted(game):
                return game, game.view(seat)
            random_move(game, rng)
    raise AssertionError("no such state found")


THREE = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(5,))


def true_hands(game: Game) -> list[list[Card]]:
    return [list(game.hand(s)) for s in range(game.rules.player_count)]


def refusal(view: SeatView, hands: list[list[Card]], **options: object) -> InconsistentDealError:
    with pytest.raises(InconsistentDealError) as caught:
        game_from_view(view, hands, **options)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    return caught.value


def mid_round(game: Game) -> bool:
    return game.phase is Phase.PLAYING and len(game.tricks) >= 1 and len(game.trick) == 1


def test_a_hand_of_the_wrong_size_is_refused_with_the_cards_that_seat_holds_now() -> None:
    game, view = find_view(THREE, mid_round)
    hands = true_hands(game)
    other = next(s for s in range(3) if s != 0)
    seen = {card for _, card in view.played} | {view.turned}
    stock = [card for card in DECK if not any(card in h for h in hands) and card not in seen]
    hands[other].append(stock[0])
    error = refusal(view, hands)
    assert error.rule == "hand size"
    assert error.seat == other
    assert error.facts == {"holds": len(game.hand(other)), "given": len(game.hand(other)) + 1}
    assert f"{game.players[other]} holds {len(game.hand(other))} cards now" in str(error)


@pytest.mark.parametrize("where", ["own hand", "turned", "played"])
def test_a_card_already_seen_dealt_to_another_seat_is_refused(where: str) -> None:
    game, view = find_view(THREE, mid_round)
    hands = true_hands(game)
    other = 1
    seen = {"own hand": view.hand[0], "turned": view.turned, "played": view.played[0][1]}[where]
    assert seen is not None
    hands[other][0] = seen
    error = refusal(view, hands)
    assert error.rule == "seen card"
    assert error.seat == other
    assert error.facts == {"card": seen}
    assert f"{seen} is dealt to {game.players[other]}, but it was already seen" in str(error)


def test_a_card_dealt_to_two_seats_is_refused() -> None:
    game, view = find_view(THREE, mid_round)
    hands = true_hands(game)
    hands[2][0] = hands[1][0]
    error = refusal(view, hands)
    assert error.rule == "dealt twice"
    assert error.facts == {"card": hands[1][0]}
    assert f"{hands[1][0]} is dealt twice" in str(error)


def test_a_card_dealt_twice_to_one_seat_is_refused() -> None:
    game, view = find_view(THREE, mid_round)
    hands = true_hands(game)
    hands[1][1] = hands[1][0]
    error = refusal(view, hands)
    assert (error.rule, error.seat) == ("dealt twice", 1)


def test_a_suit_a_seat_showed_it_lacks_is_refused() -> None:
    def void_shown(game: Game) -> bool:
        if game.phase is not Phase.PLAYING or not game.tricks:
            return False
        trick = game.tricks[-1]
        led = trick.plays[0][1].suit
        return any(seat != 0 and card.suit is not led for seat, card in trick.plays)

    game, view = find_view(THREE, void_shown)
    trick = view.tricks[-1]
    led = trick.plays[0][1].suit
    void = next(seat for seat, card in trick.plays if seat != 0 and card.suit is not led)
    seen = {card for _, card in view.played} | set(view.hand) | {view.turned}
    unseen = [card for card in DECK if card.suit is led and card not in seen]
    unseen = [card for card in unseen if not any(card in game.hand(s) for s in range(3))]
    hands = true_hands(game)
    if unseen:
        hands[void][0] = unseen[0]
        given = unseen[0]
    else:  # every card of the suit is out: trade one with the third seat
        third = 3 - void
        given = next(card for card in hands[third] if card.suit is led)
        hands[third][hands[third].index(given)], hands[void][0] = hands[void][0], given
    error = refusal(view, hands)
    assert (error.rule, error.seat) == ("void", void)
    assert error.facts == {"suit": led, "cards": (given,)}
    assert f"{game.players[void]} did not follow {led.name.lower()}, so holds none" in str(error)


def test_an_own_hand_other_than_the_views_is_refused() -> None:
    game, view = find_view(THREE, mid_round)
    hands = true_hands(game)
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    error = refusal(view, hands)
    assert (error.rule, error.seat) == ("own hand", 0)
    assert "but the view's hand is" in str(error)


def test_a_hand_for_each_seat_is_required() -> None:
    game, view = find_view(THREE, mid_round)
    error = refusal(view, true_hands(game)[:2])
    assert error.rule == "seats"
    assert str(error) == "the table has 3 seats but 2 hands were given"


def test_something_other_than_a_card_is_refused() -> None:
    game, view = find_view(THREE, mid_round)
    hands: list[list[object]] = [list(h) for h in true_hands(game)]
    hands[1][0] = "AS"
    error = refusal(view, hands)  # type: ignore[arg-type]
    assert (error.rule, error.seat) == ("card", 1)
    assert "which is not a Card" in str(error)


def test_a_view_of_a_finished_game_is_refused() -> None:
    game = Game(THREE, seed=1)
    advance(game, random.Random(1), 10_000)
    error = refusal(game.view(0), [[], [], []])
    assert error.rule == "phase"
    assert error.facts == {"phase": Phase.OVER}


SIMULTANEOUS = Rules(
    player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(3, 3), bidding=Bidding.SIMULTANEOUS
)


def two_bids_made(game: Game) -> bool:
    return game.phase is Phase.BIDDING and game.view(None).bids_made == 2 and game.bids[0] is not None


def test_hidden_bids_under_simultaneous_bidding_are_taken_as_given() -> None:
    game, view = find_view(SIMULTANEOUS, two_bids_made)
    bids = hidden_bids(game, 0)
    assert bids is not None
    assert len(bids) == 1
    rebuilt = game_from_view(view, true_hands(game), seed=5, bids=bids)
    assert rebuilt.bids == game.bids
    assert rebuilt.view(0) == view


def test_without_the_hidden_bids_the_other_seats_have_not_bid() -> None:
    game, view = find_view(SIMULTANEOUS, two_bids_made)
    rebuilt = game_from_view(view, true_hands(game), seed=5)
    assert rebuilt.view(None).bids_made == 1
    assert rebuilt.bids == tuple(bid if seat == 0 else None for seat, bid in enumerate(game.bids))


def test_hidden_bids_that_are_not_the_views_are_refused() -> None:
    game, view = find_view(SIMULTANEOUS, two_bids_made)
    hands = true_hands(game)
    others = [s for s in range(1, 4) if game.bids[s] is None]
    too_many = refusal(view, hands, bids=dict.fromkeys(others, 0) | (hidden_bids(game, 0) or {}))
    assert too_many.rule == "bids"
    assert str(too_many) == "2 seats have bid, but 4 bids were given with the view's"
    own = refusal(view, hands, bids={0: 1})
    assert (own.rule, own.seat) == ("bids", 0)


def test_bids_given_where_every_bid_is_public_are_refused() -> None:
    game, view = find_view(THREE, mid_round)
    error = refusal(view, true_hands(game), bids={1: 0})
    assert error.rule == "bids"


@FAST
@given(rules=custom_rules(), seed=seeds, moves=st.integers(0, 60))
def test_a_game_after_a_games_rounds_waits_for_the_next_deal_with_its_totals(
    rules: Rules, seed: int, moves: int
) -> None:
    """``Game.after_rounds`` takes finished rounds as played: their results, totals and last trick."""
    game = Game(rules, seed=seed)
    advance(game, random.Random(seed), moves)
    done = game.results
    if game.is_over or not done:
        return
    dealer = (done[-1].dealer + 1) % rules.player_count
    resumed = Game.after_rounds(rules, game.players, done, dealer=dealer, last_trick=game.last_trick, seed=1)
    assert resumed.phase is Phase.DEALING
    assert (resumed.round_number, resumed.dealer) == (len(done) + 1, dealer)
    assert (resumed.results, resumed.totals, resumed.last_trick) == (done, game.totals, game.last_trick)
    assert resumed.first_dealer == game.first_dealer
    assert resumed.log == ()


def test_a_game_after_rounds_refuses_a_dealer_who_is_not_a_seat() -> None:
    with pytest.raises(ValueError, match="seat 4 does not exist: seats are 0 to 3"):
        Game.after_rounds(preset("classic", player_count=4), ["A", "B", "C", "D"], (), dealer=4)
