"""Game.move: one entry point for a bid or a card, and the sentences of the moves it refuses."""

from __future__ import annotations

import pytest

from upriver import Game, IllegalActionError, Phase, PlayAction, preset


def test_an_int_is_a_bid_and_card_text_is_a_play() -> None:
    game = Game(preset("classic", player_count=4), seed=3)
    while game.phase is Phase.BIDDING:
        assert game.can_move(game.legal_bids()[0])
        game.move(game.legal_bids()[0])
    card = game.legal_cards()[0]
    assert game.can_move(str(card).lower())
    action = game.move(str(card).lower())
    assert isinstance(action, PlayAction)
    assert action.card is card


def test_a_card_during_the_bidding_is_refused_naming_the_seat_to_act() -> None:
    game = Game(preset("classic", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=3)
    name = game.players[game.to_act or 0]
    with pytest.raises(IllegalActionError) as info:
        game.move("TH")
    assert str(info.value) == f"{name} may not play a card now: the game is bidding"
    assert info.value.rule == "turn order"


def test_a_move_after_the_game_is_over_is_refused_without_naming_anyone() -> None:
    game = Game(preset("classic", player_count=4), seed=3)
    while not game.is_over:
        game.move(game.legal_bids()[0] if game.phase is Phase.BIDDING else game.legal_cards()[0])
    with pytest.raises(IllegalActionError, match=r"^no one may bid now: the game is over$"):
        game.move(0)
    assert not game.can_move(0)
    assert not game.can_move("TH")


@pytest.mark.parametrize("move", [True, 2.0, None, "XX"])
def test_what_is_neither_a_bid_nor_a_card_is_refused_and_changes_nothing(move: object) -> None:
    game = Game(preset("classic", player_count=4), seed=3)
    before = game.log
    assert not game.can_move(move)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        game.move(move)  # type: ignore[arg-type]
    assert game.log == before
