"""One test per clause of docs/rules.md: the game (§1), every rule option (§2), the engine's decisions (§4).

Exact situations are set up with explicit deals (``Game(rules, auto_deal=False, dealer=...)``
then ``game.deal(hands, turned)``); whole games use seeded shuffles and random legal play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from tests.conftest import (
    card,
    cards,
    dealt_game,
    one_round_rules,
    play_out,
    snapshot,
)
from upriver import (
    DECK,
    PRESETS,
    BidAction,
    Bidding,
    Card,
    DealAction,
    DealerBid,
    FirstDealer,
    Game,
    IllegalActionError,
    Phase,
    PlayAction,
    Rank,
    Rules,
    RulesError,
    Schedule,
    Scoring,
    Suit,
    TrumpLead,
    preset,
    round_score,
)


def bid_all(game: Game, bids: Sequence[int]) -> None:
    """Bid ``bids[seat]`` for every seat, in bidding order."""
    for seat in game.bidding_order:
        game.bid(bids[seat], seat)


def play_all(game: Game, texts: str) -> None:
    """Play these cards one after another, each by the seat to act."""
    for text in texts.split():
        game.play(card(text))


# ------------------------------------------------------------------ the game (docs/rules.md §1)


def test_one_standard_deck_of_52_cards_without_jokers() -> None:
    game = Game(one_round_rules(4, 13), seed=3)
    dealt = [c for seat in range(4) for c in game.hand(seat)]
    assert sorted(dealt) == list(DECK)
    assert len(DECK) == 52


LOW_HIGH = [(Rank(r), Rank(r + 1)) for r in range(2, 14)]


@pytest.mark.parametrize(("low", "high"), LOW_HIGH, ids=lambda r: r.letter)
def test_ace_is_high_then_king_down_to_two(low: Rank, high: Rank) -> None:
    lo, hi = Card.of(low, Suit.HEARTS), Card.of(high, Suit.HEARTS)
    rules = one_round_rules(3, 1)
    # Led low, followed high: the higher card wins; and the other way round.
    game = dealt_game(rules, ["2C", str(lo), str(hi)], "3D")
    bid_all(game, [0, 0, 0])
    play_all(game, f"{lo} {hi} 2C")
    assert game.results[0].tricks_won == (0, 0, 1)
    game = dealt_game(rules, ["2C", str(hi), str(lo)], "3D")
    bid_all(game, [0, 0, 0])
    play_all(game, f"{hi} {lo} 2C")
    assert game.results[0].tricks_won == (0, 1, 0)


def test_every_player_gets_the_schedule_hand_size() -> None:
    rules = preset("countdown", player_count=5)
    game = Game(rules, seed=11)
    seen: list[int] = []
    rng = random.Random(11)
    while not game.is_over:
        if game.phase is Phase.BIDDING and not any(b is not None for b in game.bids):
            assert {len(game.hand(seat)) for seat in range(5)} == {rules.hand_sizes[len(seen)]}
            seen.append(game.hand_size)
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    assert tuple(seen) == rules.hand_sizes == (10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    for result in game.results:
        assert result.hands is not None
        assert {len(hand) for hand in result.hands} == {result.hand_size}


@pytest.mark.parametrize("seed", range(8))
def test_turned_card_sets_trump_and_is_in_no_hand(seed: int) -> None:
    game = Game(preset("classic", player_count=4), seed=seed)
    for _ in range(6):
        turned = game.turned
        assert turned is not None
        assert game.trump is turned.suit
        assert all(turned not in game.hand(seat) for seat in range(4))
        play_out_round(game, random.Random(seed))
    # An explicit deal: the trump is the turned card's suit, and the turned card may not be in a hand.
    game = dealt_game(one_round_rules(3, 1), ["2C", "3C", "4C"], "9H")
    assert game.trump is Suit.HEARTS
    assert game.turned is card("9H")
    game = Game(one_round_rules(3, 1), auto_deal=False)
    with pytest.raises(IllegalActionError) as info:
        game.deal([cards("2C"), cards("3C"), cards("4C")], card("3C"))
    assert info.value.rule == "one deck"
    assert game.phase is Phase.DEALING


def play_out_round(game: Game, rng: random.Random) -> None:
    """Random legal moves until the current round is scored."""
    rounds = len(game.results)
    while len(game.results) == rounds:
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            game.play(rng.choice(game.legal_cards()))


@pytest.mark.parametrize("dealer", range(4))
def test_bidding_starts_left_of_dealer_and_ends_with_dealer(dealer: int) -> None:
    game = Game(one_round_rules(4, 3), seed=1, dealer=dealer)
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    assert game.bidding_order == tuple(order)
    for position, seat in enumerate(order):
        assert game.to_act == seat
        for other in set(range(4)) - {seat}:
            assert not game.can_bid(0, other)
            with pytest.raises(IllegalActionError) as info:
                game.bid(0, other)
            assert info.value.rule == "turn order"
        game.bid(0)
        assert game.log[-1] == BidAction(round=1, seat=seat, bid=0)
        assert sum(b is not None for b in game.bids) == position + 1
    assert game.phase is Phase.PLAYING
    assert game.results == ()


@pytest.mark.parametrize("size", [1, 3, 7])
def test_bid_is_zero_to_hand_size(size: int) -> None:
    game = Game(one_round_rules(4, size), seed=2)
    assert game.legal_bids() == tuple(range(size + 1))
    for bad in (-1, size + 1, 52):
        assert not game.can_bid(bad)
        with pytest.raises(IllegalActionError) as info:
            game.bid(bad)
        assert info.value.rule == "bid range"
        assert f"from 0 to {size}" in str(info.value)
    for bid in range(size + 1):
        assert game.can_bid(bid)
    game.bid(size)
    assert game.bids[1] == size


def test_bid_must_be_a_whole_number() -> None:
    game = Game(one_round_rules(4, 3), seed=2)
    for bad in (1.0, "1", True, None):
        with pytest.raises(IllegalActionError) as info:
            game.bid(bad)  # type: ignore[arg-type]
        assert info.value.rule == "bid range"
    assert game.bids == (None, None, None, None)


@pytest.mark.parametrize("dealer", range(5))
def test_player_left_of_dealer_leads_first_trick(dealer: int) -> None:
    game = Game(one_round_rules(5, 4), seed=dealer, dealer=dealer)
    bid_all(game, [1] * 5)
    assert game.phase is Phase.PLAYING
    assert game.to_act == game.leader == (dealer + 1) % 5
    first = game.legal_cards()[0]
    game.play(first)
    assert game.log[-1] == PlayAction(round=1, seat=(dealer + 1) % 5, card=first)


FOLLOW_DEAL = ["QD 2S 3S", "AH 3C 4S", "5H KC 9S", "6C 7D 8S"]
"""Trump diamonds (turned 2D); seat 1 leads, seat 2 holds one heart, seat 3 none."""


def test_must_follow_led_suit_when_able() -> None:
    game = dealt_game(one_round_rules(4, 3), FOLLOW_DEAL, "2D")
    bid_all(game, [0, 1, 1, 1])
    game.play(card("AH"))
    assert game.legal_cards() == cards("5H")
    for other in ("KC", "9S"):
        assert not game.can_play(card(other))
        with pytest.raises(IllegalActionError) as info:
            game.play(card(other))
        assert info.value.rule == "follow suit"
        assert info.value.seat == 2
        assert "P3" in str(info.value)
    game.play(card("5H"))
    assert game.trick == ((1, card("AH")), (2, card("5H")))


def test_player_void_in_led_suit_may_play_any_card() -> None:
    for choice in ("6C", "7D", "8S"):
        game = dealt_game(one_round_rules(4, 3), FOLLOW_DEAL, "2D")
        bid_all(game, [0, 1, 1, 1])
        play_all(game, "AH 5H")
        assert game.legal_cards() == cards("6C 7D 8S")
        assert game.can_play(card(choice))
        game.play(card(choice))
        assert game.trick[-1] == (3, card(choice))


def test_void_player_may_trump_even_when_trump_must_be_broken() -> None:
    rules = one_round_rules(4, 3, trump_lead=TrumpLead.BROKEN)
    game = dealt_game(rules, FOLLOW_DEAL, "2D")
    bid_all(game, [0, 1, 1, 1])
    play_all(game, "AH 5H")
    assert not game.trump_broken
    assert card("7D") in game.legal_cards()
    game.play(card("7D"))
    assert game.trump_broken


def test_highest_trump_wins_trick() -> None:
    rules = one_round_rules(4, 1)
    # Spades are trump; the ace of the led suit loses to any trump, the higher trump wins.
    game = dealt_game(rules, ["5S", "AH", "3S", "KH"], "2S")
    bid_all(game, [0, 0, 0, 0])
    play_all(game, "AH 3S KH 5S")
    assert game.results[0].tricks_won == (1, 0, 0, 0)
    game = dealt_game(rules, ["QH", "AH", "3S", "KH"], "2S")
    bid_all(game, [0, 0, 0, 0])
    play_all(game, "AH 3S KH QH")
    assert game.results[0].tricks_won == (0, 0, 1, 0)


def test_highest_card_of_led_suit_wins_without_trump() -> None:
    rules = one_round_rules(4, 1)
    # Spades are trump but none is played; higher cards of other suits do not count.
    game = dealt_game(rules, ["8H", "7H", "AC", "9H"], "2S")
    bid_all(game, [0, 0, 0, 0])
    play_all(game, "7H AC 9H 8H")
    assert game.results[0].tricks_won == (0, 0, 0, 1)
    assert game.results[0].plays == cards("7H AC 9H 8H")


def test_trick_winner_leads_next() -> None:
    rules = one_round_rules(4, 2)
    game = dealt_game(rules, ["2H 3C", "4H 5C", "6H 7C", "AH 8C"], "2D")
    bid_all(game, [0, 0, 0, 0])
    play_all(game, "4H 6H AH 2H")
    assert game.tricks[0].winner == 3
    assert game.to_act == game.leader == 3
    with pytest.raises(IllegalActionError) as info:
        game.play(card("3C"), seat=0)
    assert info.value.rule == "turn order"
    play_all(game, "8C 3C 5C 7C")
    assert game.results[0].tricks_won == (0, 0, 0, 2)


def test_last_trick_is_kept_after_the_round_it_ended() -> None:
    rules = one_round_rules(4, 2)
    game = dealt_game(rules, ["2H 3C", "4H 5C", "6H 7C", "AH 8C"], "2D")
    bid_all(game, [0, 0, 0, 0])
    assert game.last_trick is None
    play_all(game, "4H 6H AH 2H")
    assert game.last_trick == game.tricks[0]
    play_all(game, "8C 3C 5C 7C")
    assert game.is_over
    last = game.last_trick
    assert last is not None
    assert (last.leader, last.winner) == (3, 3)
    assert last.plays == ((3, card("8C")), (0, card("3C")), (1, card("5C")), (2, card("7C")))


def test_deal_passes_left_each_round() -> None:
    rules = preset("classic", player_count=5)
    game = Game(rules, seed=4, dealer=3)
    play_out(game, random.Random(4))
    dealers = [r.dealer for r in game.results]
    assert dealers == [(3 + i) % 5 for i in range(rules.rounds)]
    deals = [a for a in game.log if isinstance(a, DealAction)]
    assert [d.dealer for d in deals] == dealers
    assert [d.round for d in deals] == list(range(1, rules.rounds + 1))


def test_round_is_scored_then_next_round_dealt_with_next_hand_size() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2, 5, 1))
    game = Game(rules, seed=9)
    sizes = []
    rng = random.Random(9)
    for _ in range(3):
        sizes.append(game.hand_size)
        play_out_round(game, rng)
        assert len(game.results) == len(sizes)  # the round just played is scored
    assert sizes == [2, 5, 1]
    assert game.is_over


def test_bids_are_written_on_the_score_sheet() -> None:
    game = dealt_game(one_round_rules(4, 2), ["2H 3C", "4H 5C", "6H 7C", "AH 8C"], "2D")
    bid_all(game, [0, 1, 2, 1])
    assert game.bids == (0, 1, 2, 1)
    play_all(game, "4H 6H AH 2H 8C 3C 5C 7C")
    assert game.results[0].bids == (0, 1, 2, 1)


def test_most_points_wins_and_ties_share() -> None:
    rules = one_round_rules(3, 1, scoring=Scoring.TEN_PLUS_BID)
    # Everyone bids 0; seat 1's ace takes the trick: seats 0 and 2 score 10 and share the win.
    game = dealt_game(rules, ["3H", "AH", "2H"], "4C")
    unfinished = game.winners
    assert unfinished == ()
    bid_all(game, [0, 0, 0])
    play_all(game, "AH 2H 3H")
    assert game.is_over
    assert game.totals == (10, 0, 10)
    assert game.winners == (0, 2)
    assert game.standings() == ((1, 0, 10), (1, 2, 10), (3, 1, 0))
    # Seat 1 bids the trick it takes: 11 beats 10 and 10.
    game = dealt_game(rules, ["3H", "AH", "2H"], "4C")
    bid_all(game, [0, 1, 0])
    play_all(game, "AH 2H 3H")
    assert game.totals == (10, 11, 10)
    assert game.winners == (1,)


# ---------------------------------------------------- schedule (§2.2, §2.3)


@pytest.mark.parametrize(("players", "peak", "rounds"), [(4, 11, 22), (5, 10, 20), (6, 8, 16), (7, 7, 14)])
def test_up_down_schedule_of_classic_has_source_000_round_counts(
    players: int, peak: int, rounds: int
) -> None:
    rules = preset("000", player_count=players)
    assert rules.schedule is Schedule.UP_DOWN
    up = tuple(range(1, peak + 1))
    assert rules.hand_sizes == up + up[::-1]
    assert rules.rounds == rounds
    # The peak is played twice.
    assert rules.hand_sizes[peak - 1] == rules.hand_sizes[peak] == peak


def test_up_down_schedule_is_played_in_order() -> None:
    rules = preset("classic", player_count=7)
    game = Game(rules, seed=5)
    rng = random.Random(5)
    played = []
    while not game.is_over:
        played.append(game.hand_size)
        play_out_round(game, rng)
    assert tuple(played) == (1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1)
    assert [r.hand_size for r in game.results] == played


@pytest.mark.parametrize(("players", "start"), [(4, 10), (5, 8), (6, 3), (8, 1), (8, 6)])
def test_down_up_schedule_from_a_start(players: int, start: int) -> None:
    rules = Rules(player_count=players, schedule=Schedule.DOWN_UP, max_cards=start)
    down = tuple(range(start, 0, -1))
    assert rules.hand_sizes == down + tuple(range(2, start + 1))
    assert rules.rounds == 2 * start - 1
    # One card is played once; the start is played first and last.
    assert rules.hand_sizes.count(1) == 1
    assert rules.hand_sizes[0] == rules.hand_sizes[-1] == start


@pytest.mark.parametrize(("players", "start"), [(4, 10), (5, 10), (6, 8), (7, 7), (8, 6)])
def test_countdown_preset_starts_with_ten_where_the_deck_allows(players: int, start: int) -> None:
    rules = preset("001", player_count=players)
    assert rules.schedule is Schedule.DOWN_UP
    assert rules.hand_sizes[0] == start
    if start >= 8:
        assert preset("countdown", player_count=players, max_cards=8).hand_sizes[0] == 8
    else:
        with pytest.raises(RulesError, match=f"the most for {players} players is {start}"):
            preset("countdown", player_count=players, max_cards=8)


@pytest.mark.parametrize(
    ("players", "cards_", "most"), [(8, 10, 6), (4, 13, 12), (3, 17 + 1, 17), (5, 11, 10), (7, 8, 7)]
)
def test_start_too_large_is_a_clear_rules_error(players: int, cards_: int, most: int) -> None:
    expected = (
        f"{players} players × {cards_} cards + 1 turn-up needs {players * cards_ + 1} cards; "
        f"the most for {players} players is {most}"
    )
    for schedule in (Schedule.UP_DOWN, Schedule.DOWN_UP):
        with pytest.raises(RulesError) as info:
            Rules(player_count=players, schedule=schedule, max_cards=cards_)
        assert str(info.value) == expected
    assert Rules(player_count=players, max_cards=most).hand_sizes[most - 1] == most


def test_start_too_large_message_for_8_players_and_10_cards() -> None:
    with pytest.raises(RulesError) as info:
        Rules(player_count=8, schedule=Schedule.DOWN_UP, max_cards=10)
    assert str(info.value) == "8 players × 10 cards + 1 turn-up needs 81 cards; the most for 8 players is 6"


# ---------------------------------------------------- first dealer (§2.4, §4.5)


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_first_jack_deals_first(players: int) -> None:
    dealers = set()
    for seed in range(40):
        game = Game(preset("classic", player_count=players), seed=seed)
        draw = game.dealer_draw
        assert draw, "the first-Jack rule must record the face-up draw"
        # Dealt face up one at a time, clockwise from seat 0, stopping at the first Jack.
        assert [seat for seat, _ in draw] == [i % players for i in range(len(draw))]
        assert [c.rank is Rank.JACK for _, c in draw] == [False] * (len(draw) - 1) + [True]
        assert len({c for _, c in draw}) == len(draw)
        assert game.first_dealer == game.dealer == draw[-1][0]
        assert game.bidding_order[-1] == draw[-1][0]
        assert Game(preset("classic", player_count=players), seed=seed).dealer_draw == draw
        dealers.add(game.dealer)
    assert len(dealers) > 1


def test_first_jack_draw_is_absent_for_other_first_dealer_rules() -> None:
    assert Game(preset("countdown", player_count=4), seed=1).dealer_draw == ()
    assert Game(preset("overbid", player_count=4), seed=1).dealer_draw == ()


@pytest.mark.parametrize(("players", "keeper"), [(4, 0), (4, 3), (5, 2), (8, 7)])
def test_left_of_keeper_deals_first(players: int, keeper: int) -> None:
    rules = preset("countdown", player_count=players)
    assert rules.first_dealer is FirstDealer.LEFT_OF_KEEPER
    game = Game(rules, seed=1, keeper=keeper)
    assert game.dealer == game.first_dealer == (keeper + 1) % players
    # Default keeper: the last seat, so seat 0 deals.
    assert Game(rules, seed=1).dealer == 0


def test_chosen_first_dealer_is_the_given_seat() -> None:
    rules = preset("overbid", player_count=5)
    assert rules.first_dealer is FirstDealer.CHOSEN
    assert Game(rules, seed=1, dealer=3).dealer == 3
    assert Game(rules, seed=1).dealer == 0


# ---------------------------------------------------- bidding (§2.5)


def test_sequential_bidding_is_in_turn_and_bids_are_public() -> None:
    game = Game(preset("countdown", player_count=4), seed=3)
    assert game.rules.bidding is Bidding.SEQUENTIAL
    first = game.to_act
    assert first is not None
    game.bid(1)
    for seat in range(4):
        assert game.view(seat).bids[first] == 1


def test_simultaneous_bidding_hides_bids_until_all_have_bid() -> None:
    rules = preset("closed-fists", player_count=4)
    assert rules.bidding is Bidding.SIMULTANEOUS
    assert rules.dealer_bid is DealerBid.FREE
    game = Game(rules, seed=3)
    size = game.hand_size
    # Any seat may bid in any order, the dealer first if it likes.
    assert set(game.awaiting) == {0, 1, 2, 3}
    order = [game.dealer, 2, 1, 3] if game.dealer == 0 else [game.dealer, 0, 1, 2, 3]
    order = list(dict.fromkeys(order))
    placed: dict[int, int] = {}
    for seat in order:
        assert game.legal_bids(seat) == tuple(range(size + 1))
        placed[seat] = 1 + seat % 2
        game.bid(placed[seat], seat)
        if len(placed) < 4:
            assert game.phase is Phase.BIDDING
            for viewer in range(4):
                shown = game.view(viewer).bids
                for other in range(4):
                    expected = placed.get(other) if other == viewer else None
                    assert shown[other] == expected, (viewer, other)
            with pytest.raises(IllegalActionError) as info:
                game.bid(0, seat)
            assert info.value.rule == "one bid"
    assert game.phase is Phase.PLAYING
    for viewer in range(4):
        assert game.view(viewer).bids == tuple(placed[s] for s in range(4))


def test_simultaneous_bidding_has_no_dealer_restriction() -> None:
    rules = one_round_rules(4, 5, bidding=Bidding.SIMULTANEOUS)
    game = Game(rules, seed=6, dealer=0)
    for seat in (1, 2, 3):
        game.bid(1 if seat != 3 else 2, seat)
    # The others bid 4 of 5 tricks: the dealer may still bid 1, making the total equal.
    assert game.legal_bids(0) == (0, 1, 2, 3, 4, 5)
    game.bid(1, 0)
    assert sum(b for b in game.bids if b is not None) == 5
    assert game.phase is Phase.PLAYING


def test_simultaneous_bidding_refuses_a_dealer_restriction() -> None:
    for restriction in (DealerBid.HOOK, DealerBid.OVERBID):
        with pytest.raises(RulesError, match="simultaneous"):
            Rules(player_count=4, bidding=Bidding.SIMULTANEOUS, dealer_bid=restriction)


# ---------------------------------------------------- the dealer's bid (§2.6, §4.3)


def test_no_dealer_restriction_lets_the_bids_total_the_tricks() -> None:
    rules = preset("classic", player_count=4, max_cards=5)
    assert rules.dealer_bid is DealerBid.FREE
    game = Game(one_round_rules(4, 5), seed=1, dealer=0)
    bid_all_but_dealer(game, [None, 1, 1, 2])
    assert game.legal_bids() == (0, 1, 2, 3, 4, 5)
    game.bid(1)
    assert game.phase is Phase.PLAYING


def bid_all_but_dealer(game: Game, bids: Sequence[int | None]) -> None:
    for seat in game.bidding_order[:-1]:
        value = bids[seat]
        assert value is not None
        game.bid(value, seat)
    assert game.to_act == game.dealer


def test_hook_example_from_the_sources_dealer_may_not_bid_one_of_five() -> None:
    rules = one_round_rules(4, 5, dealer_bid=DealerBid.HOOK)
    game = Game(rules, seed=1, dealer=0)
    bid_all_but_dealer(game, [None, 1, 1, 2])
    assert game.legal_bids() == (0, 2, 3, 4, 5)
    assert not game.can_bid(1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.bid(1)
    assert info.value.rule == "hook"
    assert info.value.seat == 0
    assert "P1 may not bid 1" in str(info.value)
    assert "0, 2, 3, 4 or 5" in str(info.value)
    assert snapshot(game) == before
    for legal in (0, 2, 3, 4, 5):
        assert game.can_bid(legal)
    game.bid(0)
    assert game.bids == (0, 1, 1, 2)


def test_hook_binds_only_the_dealer() -> None:
    game = Game(one_round_rules(4, 2, dealer_bid=DealerBid.HOOK), seed=1, dealer=0)
    # Seat 1 may bid the whole hand, seat 2 may bring the total to the tricks.
    assert game.legal_bids() == (0, 1, 2)
    game.bid(1)
    assert game.legal_bids() == (0, 1, 2)
    game.bid(1)
    assert game.legal_bids() == (0, 1, 2)
    game.bid(0)
    assert game.legal_bids() == (1, 2)


@pytest.mark.parametrize("name", ["classic-hook", "countdown", "001", "003", "004"])
def test_hook_is_the_rule_of_its_presets(name: str) -> None:
    rules = preset(name, player_count=4)
    assert rules.dealer_bid is DealerBid.HOOK
    game = Game(rules, seed=2)
    while game.to_act != game.dealer:
        game.bid(0)
    size = game.hand_size
    assert size not in game.legal_bids()
    assert set(game.legal_bids()) == set(range(size + 1)) - {size}


def test_overbid_dealer_must_make_the_total_exceed_the_tricks() -> None:
    rules = one_round_rules(4, 5, dealer_bid=DealerBid.OVERBID)
    game = Game(rules, seed=1, dealer=0)
    bid_all_but_dealer(game, [None, 1, 1, 0])
    assert game.legal_bids() == (4, 5)
    before = snapshot(game)
    for refused in (0, 1, 2, 3):
        with pytest.raises(IllegalActionError) as info:
            game.bid(refused)
        assert info.value.rule == "overbid"
        assert "P1" in str(info.value)
    assert snapshot(game) == before
    game.bid(4)
    assert sum(b for b in game.bids if b is not None) > 5


@pytest.mark.parametrize("size", [1, 3, 5])
def test_overbid_dealer_bids_the_hand_size_when_no_bid_can_exceed(size: int) -> None:
    rules = one_round_rules(4, size, dealer_bid=DealerBid.OVERBID)
    game = Game(rules, seed=1, dealer=0)
    bid_all_but_dealer(game, [None, 0, 0, 0])
    assert game.legal_bids() == (size,)
    for refused in range(size):
        assert not game.can_bid(refused)
    game.bid(size)
    assert game.phase is Phase.PLAYING


def test_overbid_binds_only_the_dealer_and_is_the_rule_of_preset_002() -> None:
    rules = preset("002", player_count=3)
    assert rules.dealer_bid is DealerBid.OVERBID
    game = Game(rules, seed=1)
    assert game.legal_bids() == (0, 1)
    game.bid(0)
    assert game.legal_bids() == (0, 1)
    game.bid(0)
    assert game.to_act == game.dealer
    assert game.legal_bids() == (1,)


# ---------------------------------------------------- leading trump (§2.7, §4.4)


BROKEN_DEAL = ["TH JC QC", "AS 3H 4H", "3S 4S 5C", "7H 8C 9C"]
"""Spades trump (turned 2S). Seat 1 leads holding a trump; seat 2 is void in hearts."""


def test_trump_must_be_broken_before_it_is_led() -> None:
    rules = one_round_rules(4, 3, trump_lead=TrumpLead.BROKEN)
    game = dealt_game(rules, BROKEN_DEAL, "2S")
    bid_all(game, [0, 1, 1, 1])
    assert game.legal_cards() == cards("3H 4H")
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.play(card("AS"))
    assert info.value.rule == "trump broken"
    assert info.value.seat == 1
    assert "P2" in str(info.value)
    assert snapshot(game) == before
    # Seat 2 trumps the heart lead: trump is broken, and seat 2 may lead it next trick.
    play_all(game, "3H 3S 7H TH")
    assert game.trump_broken
    assert game.to_act == 2
    assert game.legal_cards() == cards("5C 4S")
    game.play(card("4S"))


def test_trump_may_be_led_when_holding_only_trumps() -> None:
    rules = one_round_rules(4, 3, trump_lead=TrumpLead.BROKEN)
    game = dealt_game(rules, ["TH JC QC", "AS KS QS", "3H 4H 5C", "7H 8C 9C"], "2S")
    bid_all(game, [0, 3, 0, 0])
    assert not game.trump_broken
    assert game.legal_cards() == cards("QS KS AS")
    game.play(card("AS"))
    assert game.trump_broken


def test_trump_is_not_broken_by_a_trump_played_earlier_in_a_different_round() -> None:
    rules = Rules(
        player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 2), trump_lead=TrumpLead.BROKEN
    )
    game = Game(rules, auto_deal=False, dealer=0)
    game.deal([cards("2C"), cards("AS"), cards("3C"), cards("4C")], card("2S"))
    bid_all(game, [0, 1, 0, 0])
    play_all(game, "AS 3C 4C 2C")
    assert game.dealer == 1
    game.deal([cards("5H 6H"), cards("7H 8H"), cards("5C KD"), cards("3S 4H")], card("2D"))
    bid_all(game, [0, 0, 2, 0])
    # Trump was broken last round; this round seat 2 may not lead its diamond (trump) yet.
    assert game.to_act == 2
    assert not game.trump_broken
    assert game.legal_cards() == cards("5C")


def test_any_card_may_be_led_when_trump_lead_is_any() -> None:
    rules = one_round_rules(4, 3, trump_lead=TrumpLead.ANY)
    game = dealt_game(rules, BROKEN_DEAL, "2S")
    bid_all(game, [0, 1, 1, 1])
    assert game.legal_cards() == cards("3H 4H AS")
    game.play(card("AS"))
    for name in ("countdown", "closed-fists", "overbid"):
        assert preset(name, player_count=5).trump_lead is TrumpLead.ANY
    assert preset("classic", player_count=5).trump_lead is TrumpLead.BROKEN


# ---------------------------------------------------- scoring (§2.8)


@pytest.mark.parametrize(
    ("bid", "took", "points"),
    [(0, 0, 10), (1, 1, 11), (2, 2, 12), (3, 3, 13), (4, 4, 14), (0, 1, 0), (2, 1, 0), (1, 3, 0)],
)
def test_ten_plus_bid_scoring_source_000_examples(bid: int, took: int, points: int) -> None:
    assert round_score(Scoring.TEN_PLUS_BID, bid, took) == points


@pytest.mark.parametrize(
    ("bid", "took", "points"),
    [(0, 0, 10), (1, 1, 11), (3, 3, 13), (0, 2, 2), (3, 1, 1), (2, 0, 0), (5, 4, 4)],
)
def test_one_per_trick_plus_ten_for_exact_bid_no_penalty(bid: int, took: int, points: int) -> None:
    assert round_score(Scoring.TRICKS_PLUS_TEN, bid, took) == points


SCORING_DEAL = ["7H 8H", "AS KS", "3H 4H", "5H 6H"]
"""Spades trump; seat 1 holds the two top trumps and takes both tricks."""


def test_ten_plus_bid_scoring_in_play() -> None:
    rules = one_round_rules(4, 2, scoring=Scoring.TEN_PLUS_BID)
    game = dealt_game(rules, SCORING_DEAL, "2S")
    bid_all(game, [0, 2, 0, 1])
    play_all(game, "AS 3H 5H 7H KS 4H 6H 8H")
    assert game.results[0].tricks_won == (0, 2, 0, 0)
    assert game.results[0].scores == (10, 12, 10, 0)
    assert game.totals == (10, 12, 10, 0)
    game = dealt_game(one_round_rules(4, 1, scoring=Scoring.TEN_PLUS_BID), ["7H", "AS", "3H", "5H"], "2S")
    bid_all(game, [0, 1, 1, 0])
    play_all(game, "AS 3H 5H 7H")
    assert game.results[0].scores == (10, 11, 0, 10)


def test_tricks_plus_ten_scoring_in_play() -> None:
    rules = one_round_rules(4, 2, scoring=Scoring.TRICKS_PLUS_TEN)
    game = dealt_game(rules, SCORING_DEAL, "2S")
    bid_all(game, [1, 1, 0, 0])
    play_all(game, "AS 3H 5H 7H KS 4H 6H 8H")
    assert game.results[0].scores == (0, 2, 10, 10)
    assert preset("classic", player_count=4).scoring is Scoring.TEN_PLUS_BID
    for name in ("countdown", "closed-fists", "overbid"):
        assert preset(name, player_count=4).scoring is Scoring.TRICKS_PLUS_TEN


def test_scores_accumulate_over_rounds() -> None:
    game = Game(preset("classic", player_count=4, max_cards=3), seed=8)
    play_out(game, random.Random(8))
    assert game.totals == tuple(sum(r.scores[s] for r in game.results) for s in range(4))


# ---------------------------------------------------- the engine's decisions (§4)


def test_no_card_to_turn_up_means_a_round_without_trump() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13,))
    game = Game(rules, seed=12)
    assert game.turned is None
    assert game.trump is None
    assert game.log[0] == DealAction(
        round=1, dealer=0, hands=tuple(game.hand(s) for s in range(4)), turned=None, trump=None
    )
    rng = random.Random(12)
    while not game.is_over:
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    tricks = game.results[0].plays
    assert tricks is not None
    assert sorted(tricks) == list(DECK)


def test_no_trump_round_is_won_by_the_led_suit() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13,))
    suits = ["C", "D", "H", "S"]
    ranks = "23456789TJQKA"
    # Seat s holds every card of suit s; seat 1 leads the two of diamonds and wins it.
    hands = [" ".join(r + suits[s] for r in ranks) for s in range(4)]
    game = dealt_game(rules, hands, None)
    assert game.trump is None
    bid_all(game, [0, 0, 0, 0])
    play_all(game, "2D AH AS AC")
    assert game.tricks[0].winner == 1


def test_no_trump_deal_refuses_a_turned_card_and_a_trump_deal_requires_one() -> None:
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(13,))
    game = Game(rules, auto_deal=False)
    full = [tuple(DECK[13 * s : 13 * (s + 1)]) for s in range(4)]
    with pytest.raises(IllegalActionError) as info:
        game.deal(full, card("AS"))
    # Every card is in a hand, so any turned card is refused (it would be dealt twice).
    assert info.value.rule in ("one deck", "turn-up")
    assert game.phase is Phase.DEALING
    assert game.log == ()
    game = Game(one_round_rules(4, 1), auto_deal=False)
    with pytest.raises(IllegalActionError) as info:
        game.deal([cards("2C"), cards("3C"), cards("4C"), cards("5C")], None)
    assert info.value.rule == "turn-up"
    assert game.phase is Phase.DEALING
    assert game.log == ()


def refusals() -> list[tuple[str, Callable[[Game], object], str, int | None]]:
    """(name, attempt, rule, seat) for refused bids in the first round of a 4-player hook game."""
    return [
        ("out of turn", lambda g: g.bid(0, 3), "turn order", 3),
        ("negative", lambda g: g.bid(-1), "bid range", 2),
        ("too many", lambda g: g.bid(4), "bid range", 2),
        ("not a number", lambda g: g.bid("2"), "bid range", 2),
        ("no such seat", lambda g: g.bid(0, 9), "seat", None),
        ("a card while bidding", lambda g: g.play(g.hand(2)[0]), "turn order", None),
    ]


@pytest.mark.parametrize(("name", "attempt", "rule", "seat"), refusals(), ids=[r[0] for r in refusals()])
def test_refused_bid_raises_naming_player_and_rule_and_leaves_state_unchanged(
    name: str, attempt: Callable[[Game], object], rule: str, seat: int | None
) -> None:
    game = Game(one_round_rules(4, 3, dealer_bid=DealerBid.HOOK), seed=21, dealer=1)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        attempt(game)
    assert info.value.rule == rule
    assert info.value.seat == seat
    if seat is not None:
        assert game.players[seat] in str(info.value)
    assert snapshot(game) == before
    game.bid(0)
    assert game.bids[2] == 0


PLAY_DEAL = ["TH JC QC", "AS 3H 4H", "5H KC 9S", "7H 8C 9C"]
"""Spades trump (turned 2S), classic trump-breaking."""


@pytest.mark.parametrize(
    ("name", "attempt", "rule", "seat"),
    [
        ("trump before broken", lambda g: g.play(card("AS")), "trump broken", 1),
        ("card not held", lambda g: g.play(card("2H")), "card in hand", 1),
        ("another seat's card", lambda g: g.play(card("TH")), "card in hand", 1),
        ("out of turn", lambda g: g.play(card("TH"), seat=0), "turn order", 0),
        ("not card text", lambda g: g.play("3X"), "card", 1),
        ("not a card at all", lambda g: g.play(3), "card", 1),
        ("card text not held", lambda g: g.play("2h"), "card in hand", 1),
        ("a bid while playing", lambda g: g.bid(0, 1), "turn order", 1),
        ("a deal while playing", lambda g: g.deal(), "turn order", None),
    ],
)
def test_refused_card_raises_naming_player_and_rule_and_leaves_state_unchanged(
    name: str, attempt: Callable[[Game], object], rule: str, seat: int | None
) -> None:
    game = dealt_game(one_round_rules(4, 3, trump_lead=TrumpLead.BROKEN), PLAY_DEAL, "2S")
    bid_all(game, [0, 1, 1, 1])
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        attempt(game)
    assert info.value.rule == rule
    assert info.value.seat == seat
    if seat is not None and name != "a bid while playing":
        assert game.players[seat] in str(info.value)
    assert snapshot(game) == before
    game.play(card("3H"))


def test_refused_follow_suit_leaves_state_unchanged_mid_trick() -> None:
    game = dealt_game(one_round_rules(4, 3), PLAY_DEAL, "2S")
    bid_all(game, [0, 1, 1, 1])
    game.play(card("3H"))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.play(card("KC"))
    assert (info.value.rule, info.value.seat) == ("follow suit", 2)
    assert "P3 must follow suit" in str(info.value)
    assert snapshot(game) == before


def test_refused_action_after_the_game_is_over() -> None:
    game = dealt_game(one_round_rules(3, 1), ["3H", "AH", "2H"], "4C")
    bid_all(game, [0, 0, 0])
    play_all(game, "AH 2H 3H")
    before = snapshot(game)
    for attempt in (lambda: game.bid(0), lambda: game.play(card("AH")), lambda: game.deal()):
        with pytest.raises(IllegalActionError) as info:
            attempt()
        assert info.value.rule == "turn order"
    assert snapshot(game) == before


def moves_log(rules: Rules, seed: int, moves_seed: int) -> tuple[object, ...]:
    game = Game(rules, seed=seed)
    play_out(game, random.Random(moves_seed))
    return (game.dealer_draw, game.log, game.results, tuple(game.totals))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_same_seed_gives_the_same_deals_and_replays_the_same_game(name: str) -> None:
    rules = preset(name, player_count=5, max_cards=4) if name != "overbid" else preset(name, player_count=5)
    assert moves_log(rules, 31, 7) == moves_log(rules, 31, 7)
    first = Game(rules, seed=31).log[0]
    assert isinstance(first, DealAction)
    assert first == Game(rules, seed=31).log[0]
    assert first != Game(rules, seed=32).log[0]
