"""Claiming the rest of a round: the engine allows a claim only when every legal continuation of the
real hands gives the same round, with the claimer taking every remaining trick or none of them.

The exact cases are dealt by hand; the properties play random games under every rule option and
compare each allowed claim with the played-out lines (all of them when few cards remain, a random
sample otherwise), and each refusal with what the continuations really give.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import custom_rules, preset_and_players
from upriver import Card, Game, IllegalActionError, Phase, PlayAction, Rules, Schedule, preset
from upriver.cards import parse_cards
from upriver.claims import ClaimKind

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
    assert claim.takes is ClaimKind.ALL
    assert claim.tricks == 3
    assert claim.cards == parse_cards(["QS", "KS", "AS"])
    assert claim.round == 1
    assert game.results[-1].tricks_won == (3, 0, 0)
    assert game.is_over
    new = game.log[logged:]
    assert len(new) == 9
    assert all(isinstance(action, PlayAction) for action in new)
    assert tuple(new) == claim.plays


def test_a_seat_that_takes_none_whatever_is_played_may_claim_none_when_another_takes_them_all() -> None:
    game = dealt(["AS KS QS", "2H 3H 4H", "5H 6H 7H"], "2S", dealer=2)
    assert game.can_claim(1)
    claim = game.claim(1)
    assert claim.takes is ClaimKind.NONE
    assert claim.tricks == 0
    assert game.results[-1].tricks_won == (3, 0, 0)


def test_a_claim_must_hold_on_the_claimers_own_lines_too_so_leading_the_wrong_card_refuses_it() -> None:
    # P1 takes both tricks only by cashing the ace of hearts first: leading the 2 loses both tricks.
    game = dealt(["AH 2H", "KH 3C", "4C 5C"], "2S", dealer=2)
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert refused.value.rule == "claim"
    assert refused.value.seat == 0
    assert refused.value.facts["case"] == "open"
    assert refused.value.facts["could_take"] == (0, 2)
    assert "P1 could take 0 or 2" in str(refused.value)
    assert not game.can_claim(0)
    game.play("AH")  # now the 2 of hearts is the only heart left: every line gives Ann both tricks
    assert game.can_claim(0)


def test_a_claim_of_none_is_refused_while_the_others_tricks_still_depend_on_the_play() -> None:
    game = dealt(["6C 2D", "JC 9D", "TD 7H"], "TS", dealer=2)
    assert endings(game) == {(0, 0, 2), (0, 1, 1), (0, 2, 0)}
    with pytest.raises(IllegalActionError) as refused:
        game.check_claim(0)
    assert refused.value.facts == {"case": "unsettled", "remaining": 2}
    assert "how the 2 tricks left are shared still depends on the play" in str(refused.value)


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


def test_the_last_trick_is_settled_so_every_seat_may_claim_it() -> None:
    game = dealt(["6C 2D", "JC 9D", "TD 7H"], "TS", dealer=2)
    for card in ("6C", "JC", "TD"):
        game.play(card)
    assert all(game.can_claim(seat) for seat in range(3))
    claim = game.claim(2)
    assert claim.takes is ClaimKind.NONE
    assert claim.cards == parse_cards(["7H"])
    assert game.results[-1].tricks_won == (0, 2, 0)


# ------------------------------------------------------------------ properties


@PROPERTY
@given(rules=custom_rules(max_size=4), seed=seeds, cut=st.integers(0, 40))
def test_with_few_cards_left_a_claim_is_allowed_exactly_when_every_continuation_agrees(
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
        assert game.can_claim(seat) == holds
        if holds:
            continue
        with pytest.raises(IllegalActionError) as refused:
            game.check_claim(seat)
        facts = refused.value.facts
        assert refused.value.rule == "claim"
        assert refused.value.seat == seat
        assert game.players[seat] in str(refused.value)
        if facts["case"] == "open":
            could = facts["could_take"]
            assert isinstance(could, tuple)
            assert set(could) <= takes  # every count it names is a real continuation's
            assert set(could) - {0, left} or len(could) > 1
        else:
            assert facts["case"] == "unsettled"
            assert len(found) > 1


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
                assert len({played_out(game, rng) for _ in range(20)}) == 1
        game.play(rng.choice(game.legal_cards()))
