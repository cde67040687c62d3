"""The score sheet: rows, running totals, the round in progress, the headline, and 80 columns."""

from __future__ import annotations

import random
import subprocess
import sys

from rich.console import Console

from upriver import Card, Game, Phase, Rules, Schedule, Suit, preset
from upriver.cli.tui import sheet_table
from upriver.sheet import ScoreSheet, SheetCell, spoken_names

NAMES = ("Ann", "Bob", "Cid", "Dee")


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def two_round_game() -> Game:
    """Ann deals 1 card a round; hearts then spades are trump; Cid takes round 1, Dee takes round 2."""
    game = Game(
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(1, 1)), NAMES, auto_deal=False
    )
    game.deal([cards("2C"), cards("3C"), cards("AH"), cards("4C")], Card.parse("5H"))
    for bid in (0, 1, 0, 0):  # Bob, Cid, Dee, Ann
        game.bid(bid)
    for card in ("3C", "AH", "4C", "2C"):
        game.play(Card.parse(card))
    return game


def test_finished_round_shows_bids_tricks_scores_and_running_totals() -> None:
    sheet = ScoreSheet.of(two_round_game())
    (row,) = sheet.rows
    assert (row.number, row.hand_size, row.trump, row.dealer, row.finished) == (1, 1, Suit.HEARTS, 0, True)
    assert row.cells[2] == SheetCell(bid=1, tricks=1, score=11, total=11)
    assert row.cells[1] == SheetCell(bid=0, tricks=0, score=10, total=10)
    assert sheet.totals == (10, 10, 11, 10)
    assert sheet.headline == "Cid leads with 11"


def test_round_in_progress_shows_what_is_known_and_no_scores() -> None:
    game = two_round_game()
    game.deal([cards("2S"), cards("3S"), cards("4S"), cards("AS")], Card.parse("5S"))
    game.bid(0)
    row = ScoreSheet.of(game).rows[-1]
    assert not row.finished
    assert row.cells[2] == SheetCell(bid=0, tricks=0, score=None, total=None)
    assert row.cells[3] == SheetCell(bid=None, tricks=0, score=None, total=None)


def test_winners_share_a_tie_once_the_game_is_over() -> None:
    game = two_round_game()
    game.deal([cards("2S"), cards("3S"), cards("4S"), cards("AS")], Card.parse("5S"))
    for bid in (0, 1, 0, 0):  # Cid, Dee, Ann, Bob
        game.bid(bid)
    for card in ("4S", "AS", "2S", "3S"):
        game.play(Card.parse(card))
    sheet = ScoreSheet.of(game)
    assert sheet.complete
    assert sheet.totals == (20, 20, 21, 21)
    assert sheet.winners == (2, 3)
    assert sheet.headline == "Cid and Dee win with 21"


def test_headline_before_any_round_is_scored() -> None:
    assert ScoreSheet.of(Game(preset("classic", 4), NAMES, seed=1)).headline == "No round has been scored yet"


def test_score_keeping_round_without_trump_shows_a_dash() -> None:
    game = Game(
        Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2,)), NAMES, auto_deal=False
    )
    game.deal_at_table()
    console = Console(width=80, record=True)
    console.print(sheet_table(ScoreSheet.of(game)))
    assert ScoreSheet.of(game).rows[0].cells[0].tricks is None
    assert " – " in console.export_text().splitlines()[1]


def test_a_spectators_sheet_shows_no_closed_fist_bid_until_everyone_has_bid() -> None:
    game = Game(preset("closed-fists", 4), NAMES, seed=3)
    game.bid(1, seat=2)
    game.bid(0, seat=0)
    hidden = ScoreSheet.from_view(game.view(0)).rows[-1]
    assert [cell.bid for cell in hidden.cells] == [0, None, None, None]
    spectator = ScoreSheet.from_view(game.view(None))
    assert [cell.bid for cell in spectator.rows[-1].cells] == [None, None, None, None]
    assert all(cell["bid"] is None for cell in spectator.to_json()["rows"][-1]["cells"])  # type: ignore[index]
    game.bid(0, seat=1)
    game.bid(2, seat=3)
    revealed = ScoreSheet.from_view(game.view(None)).rows[-1]
    assert [cell.bid for cell in revealed.cells] == [0, 0, 1, 2]


def test_sheet_of_five_players_with_long_names_fits_80_columns() -> None:
    names = ("Annabelle-Marie", "Bartholomew", "Cid", "Dee", "Evangeline")
    game = Game(preset("classic", 5), names, seed=4)
    rng = random.Random(4)
    while not game.is_over:
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    console = Console(width=80, record=True)
    console.print(sheet_table(ScoreSheet.of(game)))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "Annabelle-M…" in lines[0]
    assert len(lines) == 1 + 20 + 1  # header, one row per round, legend


def test_spoken_names_join_like_a_sentence() -> None:
    assert spoken_names(["Ann"]) == "Ann"
    assert spoken_names(["Ann", "Bob"]) == "Ann and Bob"
    assert spoken_names(["Ann", "Bob", "Cid"]) == "Ann, Bob and Cid"


def test_the_score_sheet_is_data_the_terminal_draws_so_the_core_never_imports_rich() -> None:
    code = (
        "import sys\nimport upriver, upriver.sheet, upriver.keeper.commands\n"
        "assert 'rich' not in sys.modules, 'rich was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
