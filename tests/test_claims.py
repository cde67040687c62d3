"""Claiming the rest of a round: a seat may claim only what it can see holds, its cards taking every
remaining trick however the cards it cannot see lie; so the answer never tells it about those cards.

The exact cases are dealt by hand; the properties play random games under every rule option and
check each allowed claim against the real hands' exact analysis (:func:`upriver.claims.settled`) and
the played-out lines (all of them when few cards remain, a random sample otherwise), that analysis
against every continuation, and that moving the cards a seat cannot see never changes its answer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules, preset_and_players
from upriver import Card, Game, IllegalActionError, Phase, PlayAction, Rules, Schedule, preset
from upriver.cards import DECK, parse_cards
from upriver.claims import settled
from upriver.i18n import LANGUAGES, reason, translate

seeds = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dealt(hands: Sequence[str], turned: str, *, dealer: int) -> Game:
    """A one-round game of these hands (``"AS KS"`` a seat), every seat bidding its lowest bid."""
    rules = Rules(
        player_count=len(hands), schedule=Schedule.EXPLICIT, explicit_sizes=(len(hands[0].split()),)
    )
    game = Game(rules, auto_deal=False, dealer=dealer)
    game.deal([parse_cards(hand.split()) for hand in hands], Card.parse(turned))
    while game.phase is Phase.BIDDING:
        game.bid(game.legal_bids()[0])
    return game


def endings(game: Game) -> set[tuple[int, ...]]:
    """The round's final trick counts on every legal continuation (the whole tree: few cards only)."""
    found: set[tuple[int, ...]] = set()

    def walk(position: Game) -> None:
        if position.phase is not Phase.PLAYING:
            found.add(position.results[-1].tricks_won)
            return
        for card in position.legal_cards():
            twin = position.copy()
            twin.play(card)
            walk(twin)

    start = game.copy()
    start.auto_deal = False
    walk(start)
    return found


def played_out(game: Game, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The round's trick counts and scores on one random legal continuation."""
    twin = game.copy()
    twin.auto_deal = False
    while twin.phase is Phase.PLAYING:
        twin.play(rng.choice(twin.legal_cards()))
    result = twin.results[-1]
    return result.tricks_won, result.scores


def to_mid_round(game: Game, rng: random.Random, cards: int) -> bool:
    """Play random legal moves until ``cards`` cards of a round have been played; ``False`` if the
    game ended first."""
    while not game.is_over:
        if game.phase is Phase.PLAYING and len(game.plays) == cards:
            return True
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
        else:
            game.play(rng.choice(game.legal_cards()))
    return False


# ------------------------------------------------------------------ exact cases


def test_the_top_trumps_claim_every_remaining_trick_and_the_round_ends_in_ordinary_plays() -> None:
    game = dealt(["AS KS QS", "2H 3H 4H", "5H 6H 7H"], "2S", dealer=2)
    assert game.can_claim(0)
    logged = len(game.log)
    claim = game.claim(0)
    assert claim.tricks == 3
    assert claim.cards == parse_cards(["QS", "KS", "AS"])
    assert claim.round == 1
    assert game.results[-1].tricks_won == (3, 0, 0)
    assert game.is_over
    new = game.log[logged:]
    assert len(new) == 9
    assert all(isinstance(action, PlayAction) for action in new)
    assert tuple(new) == claim.plays


def test_there_is_no_claim_of_none_even_when_the_real_hands_settle_it() -> None:
    game = dealt(["AS KS QS", "2H 3H 4H", "5H 6H 7H"], "2S", dealer=2)
    assert settled(game, 1)  # on the real hands P2 takes no trick whatever is played
    assert not game.can_claim(1)  # but P2 cannot see that nobody else holds a low heart
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(1)
    assert refused.value.facts == {"case": "unseen", "remaining": 3}


def test_a_king_whose_ace_lies_in_the_undealt_stock_may_not_claim_though_it_wins_every_real_line() -> None:
    game = dealt(["KS QS", "2H 3H", "4H 5H"], "2S", dealer=2)
    assert endings(game) == {(2, 0, 0)}
    assert settled(game, 0)
    assert not game.can_claim(0)
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert refused.value.rule == "claim"
    assert refused.value.seat == 0
    assert refused.value.facts == {"case": "unseen", "remaining": 2}
    assert "the cards P1 cannot see could still take one of the 2 tricks left" in str(refused.value)


def test_the_claimers_own_lines_count_so_leading_the_wrong_card_leaves_nothing_to_claim() -> None:
    # P1 takes both tricks only by cashing the ace of hearts first: leading the 2 loses both tricks.
    game = dealt(["AH 2H", "KH 3C", "4C 5C"], "2S", dealer=2)
    assert not settled(game, 0)
    assert not game.can_claim(0)


def test_a_card_played_is_seen_by_everyone_so_once_the_king_of_trumps_falls_the_queen_claims() -> None:
    game = dealt(["AS QS", "KS 2H", "3H 4H"], "2S", dealer=2)
    assert not game.can_claim(0)  # the king of trumps is out of P1's sight
    for card in ("AS", "KS", "3H"):
        game.play(card)
    assert game.can_claim(0)
    claim = game.claim(0)
    assert claim.tricks == 1
    assert claim.cards == parse_cards(["QS"])
    assert game.results[-1].tricks_won == (2, 0, 0)


def test_the_trick_on_the_table_counts_with_the_seats_still_to_play_to_it_holding_any_unseen_card() -> None:
    game = dealt(["2H AS", "KS 3H", "4H 5H"], "2S", dealer=2)
    game.play("2H")  # P1 led a low heart: the seats still to play to it could win the trick
    assert not game.can_claim(0)
    game = dealt(["3C 4C", "AH KH", "5D 6D"], "2H", dealer=2)
    game.play("3C")  # P2 holds the two top trumps: it takes this trick and the last whoever holds what
    assert game.can_claim(1)
    assert settled(game, 1)
    game.claim(1)
    assert game.results[-1].tricks_won == (0, 2, 0)


def test_a_claim_of_none_is_not_settled_while_the_others_tricks_still_depend_on_the_play() -> None:
    game = dealt(["6C 2D", "JC 9D", "TD 7H"], "TS", dealer=2)
    assert endings(game) == {(0, 0, 2), (0, 1, 1), (0, 2, 0)}
    assert not settled(game, 0)
    assert not game.can_claim(0)


def test_each_refusal_is_worded_in_every_language_from_the_facts_the_seat_may_know() -> None:
    game = dealt(["KS QS", "2H 3H", "4H 5H"], "2S", dealer=2)
    for facts, words in (({"case": "unseen", "remaining": 2}, "2"), ({"case": "blind"}, "")):
        for lang in LANGUAGES:
            text = reason(lang, "claim", facts)
            assert "{" not in text
            assert words in text
            assert text not in (
                translate(lang, "reason.claim"),
                translate(lang, "reason.unknown", rule="claim"),
            )
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert reason("en", "claim", refused.value.facts_json()) == (
        "You cannot claim yet: the cards you cannot see could still take one of the 2 tricks left. "
        "A claim needs your cards to take every one of them, whoever holds the rest."
    )


def test_in_a_blind_one_card_round_nobody_may_claim() -> None:
    rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 2), blind_one_card=True)
    game = Game(rules, seed=1)
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert refused.value.facts == {"case": "blind"}
    assert "blind one-card round" in str(refused.value)
    assert not any(game.can_claim(seat) for seat in range(3))


def test_a_refused_claim_changes_nothing() -> None:
    game = dealt(["6C 2D", "JC 9D", "TD 7H"], "TS", dealer=2)
    before = (game.log, game.hand(0), game.to_act, game.tricks_won)
    with pytest.raises(IllegalActionError):
        game.claim(0)
    assert (game.log, game.hand(0), game.to_act, game.tricks_won) == before


def test_no_claim_while_bidding_or_after_the_game_and_none_for_a_seat_that_does_not_exist() -> None:
    game = Game(preset("classic", player_count=4), seed=3)
    assert game.phase is Phase.BIDDING
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert refused.value.facts == {"case": "phase", "phase": Phase.BIDDING}
    assert "while the cards of a round are played" in str(refused.value)
    for seat in (-1, 4, True):
        assert not game.can_claim(seat)
        with pytest.raises(IllegalActionError) as wrong:
            game.check_claim(seat)
        assert wrong.value.facts["case"] == "seat"


def test_the_last_trick_settled_on_the_real_hands_is_no_claim_for_a_seat_that_cannot_see_it() -> None:
    game = dealt(["6C 2D", "JC 9D", "TD 7H"], "TS", dealer=2)
    for card in ("6C", "JC", "TD"):
        game.play(card)
    assert all(settled(game, seat) for seat in range(3))
    assert not any(game.can_claim(seat) for seat in range(3))  # a higher diamond may be out


# ------------------------------------------------------------------ properties


@PROPERTY
@given(rules=custom_rules(max_size=4), seed=seeds, cut=st.integers(0, 40))
def test_with_few_cards_left_the_real_hand_analysis_is_exact_and_an_allowed_claim_agrees_with_it(
    rules: Rules, seed: int, cut: int
) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    size_cards = rules.player_count * max(rules.hand_sizes)
    if not to_mid_round(game, rng, cut % size_cards):
        return
    if sum(len(game.hand(seat)) for seat in range(rules.player_count)) > 12:
        return
    found = endings(game)
    left = game.hand_size - len(game.tricks)
    for seat in range(rules.player_count):
        takes = {ending[seat] - game.tricks_won[seat] for ending in found}
        holds = len(found) == 1 and takes <= {0, left}
        assert settled(game, seat) == holds
        if game.can_claim(seat):
            assert holds
            assert takes == {left}  # a claim is of every trick left
            continue
        with pytest.raises(IllegalActionError) as refused:
            game.check_claim(seat)
        assert refused.value.rule == "claim"
        assert refused.value.seat == seat
        assert refused.value.facts == {"case": "unseen", "remaining": left}
        assert game.players[seat] in str(refused.value)


def unseen_moved(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` where the cards ``seat`` cannot see (the other hands and the undealt stock)
    lie differently: each other seat holds as many cards as before, drawn at random from them all."""
    twin = game.copy()
    played = {card for trick in game.tricks for card in trick.cards} | {card for _, card in game.trick}
    pool = [card for card in DECK if card not in played and card not in game.hand(seat)]
    rng.shuffle(pool)
    hands = list(twin._hands)
    for other in range(game.rules.player_count):
        if other != seat:
            size = len(game.hand(other))
            hands[other] = sum(card.mask for card in pool[:size])
            del pool[:size]
    twin._hands = hands
    return twin


@PROPERTY
@given(rules=custom_rules(max_size=6), seed=seeds, cut=st.integers(0, 60))
def test_a_seat_gets_the_same_answer_however_the_cards_it_cannot_see_lie(
    rules: Rules, seed: int, cut: int
) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    if not to_mid_round(game, rng, cut % (rules.player_count * max(rules.hand_sizes))):
        return
    for seat in range(rules.player_count):
        for _ in range(3):
            twin = unseen_moved(game, seat, rng)
            assert twin.can_claim(seat) == game.can_claim(seat)
            if not game.can_claim(seat):
                with pytest.raises(IllegalActionError) as first:
                    game.check_claim(seat)
                with pytest.raises(IllegalActionError) as second:
                    twin.check_claim(seat)
                assert (str(first.value), first.value.facts) == (str(second.value), second.value.facts)


@PROPERTY
@given(rules=custom_rules(max_size=6), seed=seeds, cut=st.integers(0, 60))
def test_an_allowed_claim_gives_the_round_scores_of_every_played_out_line(
    rules: Rules, seed: int, cut: int
) -> None:
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    if not to_mid_round(game, rng, cut % (rules.player_count * max(rules.hand_sizes))):
        return
    for seat in range(rules.player_count):
        if not game.can_claim(seat):
            continue
        assert settled(game, seat)
        lines = {played_out(game, rng) for _ in range(30)}
        assert len(lines) == 1
        tricks, scores = lines.pop()
        claimed = game.copy()
        number = claimed.round_number
        claim = claimed.claim(seat)
        result = claimed.results[number - 1]
        assert (result.tricks_won, result.scores) == (tricks, scores)
        assert claim.tricks == tricks[seat] - game.tricks_won[seat]
        assert claim.cards == game.hand(seat)
        assert claimed.log[: len(game.log)] == game.log
        assert all(isinstance(action, PlayAction) for action in claim.plays)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choice=preset_and_players(), seed=seeds)
def test_claims_in_whole_games_of_every_preset_agree_with_random_continuations(
    choice: tuple[str, int], seed: int
) -> None:
    name, players = choice
    game = Game(preset(name, player_count=players), seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over and checked < 20 and len(game.results) < 6:
        if game.phase is Phase.BIDDING:
            seat = rng.choice(game.awaiting)
            game.bid(rng.choice(game.legal_bids(seat)), seat)
            continue
        for seat in range(players):
            if game.can_claim(seat):
                checked += 1
                assert settled(game, seat)
                assert len({played_out(game, rng) for _ in range(20)}) == 1
        game.play(rng.choice(game.legal_cards()))
