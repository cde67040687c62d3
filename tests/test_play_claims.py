"""`upriver play` offers the claim when the engine says it holds, and a claim ends the round at once."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import upriver.cli.play
from upriver import Card, Game, Phase, Rules, Schedule
from upriver.cards import parse_cards
from upriver.cli import app
from upriver.record import dump, load, record_of, replay

runner = CliRunner()
assert upriver.cli.play  # registers the command


def saved_game(tmp_path: Path, hands: list[str]) -> Path:
    """A saved one-round game of these hands, every bid made (0 each) and the person (seat 0) to lead."""
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(3,))
    game = Game(rules, ["You", "Bob", "Cid", "Dee"], auto_deal=False, dealer=3, seed=5)
    game.deal([parse_cards(hand.split()) for hand in hands], Card.parse("2S"))
    while game.phase is Phase.BIDDING:
        game.bid(0)
    path = tmp_path / "game.json"
    dump(record_of(game, extras={"seed": 5, "upriver_play": {"human_seat": 0, "bots": "basic"}}), path)
    return path


def resume(path: Path, lines: str) -> str:
    result = runner.invoke(app, ["play", "--delay", "0", "--resume", str(path)], input=lines)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_top_trumps_are_offered_the_claim_and_claiming_shows_them_and_ends_the_round(
    tmp_path: Path,
) -> None:
    path = saved_game(tmp_path, ["AS KS QS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"])
    out = resume(path, "claim\n")
    assert "Your cards settle the rest of the round whatever anyone plays: type claim" in out
    assert "You claim the rest of the round, showing A♠ K♠ Q♠" in out
    assert "You take all 3 tricks left." in out
    assert "Round 1 is over." in out
    game = replay(load(path))
    assert game.is_over
    assert game.results[0].tricks_won == (3, 0, 0, 0)
    assert len(game.results[0].plays or ()) == 12  # the round in the record: ordinary plays


def test_a_claim_that_does_not_hold_is_not_offered_and_typing_it_shows_the_engines_reason(
    tmp_path: Path,
) -> None:
    path = saved_game(tmp_path, ["AH 2H 3C", "KH 4C 5C", "6C 7C 8C", "9C TC JC"])
    out = resume(path, "claim\n" + "1\n" * 40)
    assert "type claim" not in out.split("Your card", 1)[0]  # not offered at the first card
    assert "You cannot claim the rest of the round" in out
    assert "rule: claim" in out
    game = replay(load(path))
    assert game.is_over  # the game went on, card by card
