"""`upriver play` driven as a person would: scripted input lines, Ctrl-C, save and resume."""

from __future__ import annotations

import itertools
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

import upriver.cli.check
import upriver.cli.play
from upriver import PRESETS, Phase
from upriver.cli import app
from upriver.record import load, replay

runner = CliRunner()
BASE = ["play", "--delay", "0", "--seed", "3", "--players", "4"]
SIMPLE_GAME = "0\n1\n0\n1\n1\n0\n1\n"
"""Schedule 1,2,1: per round a bid of 0, then the first legal card ([1]) for each trick."""

# Both commands are registered, so "play" is a subcommand of the app, as for the console script.
assert upriver.cli.check
assert upriver.cli.play


def anything_legal(lines: int = 4000) -> str:
    """Answers that reach a legal move at any prompt: 0, 1, 2 … in turn (a card prompt refuses 0)."""
    return "".join(f"{i % 4}\n" for i in range(lines))


def play(tmp_path: Path, *args: str, input: str = "") -> tuple[int, str, Path]:
    save = tmp_path / "game.json"
    result = runner.invoke(app, [*BASE, "--save", str(save), *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output, save


def test_a_whole_short_game_is_played_to_the_end(tmp_path: Path) -> None:
    code, out, save = play(tmp_path, "--schedule", "1,2,1", input=SIMPLE_GAME)
    assert code == 0, out
    assert "Choosing the dealer" in out  # classic: first Jack deals
    assert "Round 3/3" in out
    assert re.search(r"\w+ wins? the trick with \S+", out)
    assert "bid/tricks, round score, running total" in out  # the score sheet
    assert "Final standings" in out
    game = replay(load(save))
    assert game.is_over
    assert game.players[0] == "You"
    assert all(result.bids[0] == 0 for result in game.results)


def test_every_finished_trick_is_announced_with_its_winner_and_a_card_the_winner_was_dealt(
    tmp_path: Path,
) -> None:
    code, out, save = play(tmp_path, "--schedule", "1,2,1", input=SIMPLE_GAME)
    assert code == 0, out
    game = replay(load(save))
    rounds = re.split(r"Round \d+ is over\.", out)[: len(game.results)]
    for result, text in zip(game.results, rounds, strict=True):
        announced = re.findall(r"(\w+) wins? the trick with (\S+)", text)
        seats = [0 if name == "You" else game.players.index(name) for name, _ in announced]
        assert tuple(seats.count(seat) for seat in range(4)) == result.tricks_won
        assert result.hands is not None
        for seat, (_, card) in zip(seats, announced, strict=True):
            assert card in {c.symbol for c in result.hands[seat]}


def test_a_bid_out_of_range_is_refused_with_the_rule(tmp_path: Path) -> None:
    code, out, _ = play(tmp_path, "--schedule", "1,2,1", input="7\nlots\n" + SIMPLE_GAME)
    assert code == 0
    assert "may not bid 7: a bid is a whole number from 0 to 1" in out
    assert "rule: bid range" in out
    assert "A bid is a whole number from 0 to 1" in out


def test_the_hook_bid_is_refused_and_shown_to_the_dealer(tmp_path: Path) -> None:
    # Countdown: the seat left of the keeper (the last seat) deals first, so seat 1 (you) deals.
    for seed in range(30):
        args = ("--preset", "countdown", "--schedule", "2", "--seed", str(seed))
        _, first, _ = play(tmp_path, *args)
        forbidden = re.search(r"The dealer, You, may not bid (\d)", first)
        if forbidden is None:
            continue
        code, out, _ = play(tmp_path, *args, input=f"{forbidden[1]}\n" + anything_legal())
        assert code == 0
        assert "with the hook, the bids may not total 2" in out
        assert "rule: hook" in out
        return
    pytest.fail("no seed left the dealer a forbidden bid")


def test_a_card_that_breaks_a_rule_is_refused_with_the_rule(tmp_path: Path) -> None:
    # Find a moment where you must follow suit and hold another suit, then type that other card.
    for seed in range(40):
        save = tmp_path / f"g{seed}.json"
        runner.invoke(
            app, ["play", "--delay", "0", "--seed", str(seed), "--schedule", "3", "--save", str(save)]
        )
        game = replay(load(save))
        assert game.phase is Phase.BIDDING
        game.bid(0, seat=0)
        bots_first = game.to_act != 0
        if not bots_first:
            continue
        stopped = runner.invoke(app, ["play", "--delay", "0", "--resume", str(save)], input="0\n")
        game = replay(load(save))
        if game.phase is not Phase.PLAYING or game.to_act != 0 or not game.trick:
            continue
        illegal = [card for card in game.hand(0) if card not in game.legal_cards(0)]
        if not illegal:
            continue
        assert stopped.exit_code == 130
        out = runner.invoke(
            app,
            ["play", "--delay", "0", "--resume", str(save)],
            input=f"{illegal[0]}\nZZ\n99\n" + anything_legal(),
        ).output
        assert "must follow suit" in out
        assert "rule: follow suit" in out
        assert "You must play a card like 'TH', not 'ZZ'" in out
        assert "Choose a number from 1 to" in out
        assert "Final standings" in out
        return
    pytest.fail("no seed gave a follow-suit moment")


def test_save_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    code, out, save = play(
        tmp_path,
        "--schedule",
        "1,2,1",
        "--seat",
        "2",
        "--name",
        "Zoe",
        "--bots",
        "random",
        input=f"0\n1\nsave {first}\nquit\n",
    )
    assert code == 0
    assert f"Game saved to {first}" in out
    assert "Continue with: upriver play --resume" in out
    saved = load(save)
    assert saved.players[1] == "Zoe"
    assert saved.extras["upriver_play"] == {"human_seat": 1, "bots": "random"}
    assert saved.extras["seed"] == 3
    assert load(first).rounds == saved.rounds
    result = runner.invoke(app, ["play", "--delay", "0", "--resume", str(save)], input="0\n1\n1\n0\n1\n")
    assert result.exit_code == 0, result.output
    assert "Resuming" in result.output
    assert "Choosing the dealer" not in result.output
    finished = load(save)
    assert finished.rounds[0] == saved.rounds[0]
    assert finished.rounds[1].hands == saved.rounds[1].hands
    assert finished.players == saved.players
    assert replay(finished).is_over


def test_end_of_input_saves_and_says_where(tmp_path: Path) -> None:
    code, out, save = play(tmp_path, "--schedule", "1,2,1", input="help\n0\n")
    assert code == 130
    assert "save [FILE]" in out  # the help text
    assert f"Game saved to {save}" in out
    assert load(save).rounds[0].bids[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "countdown", "--players", "8", "--max-cards", "10"], "the most for 8 players is 6"),
        (["--players", "8"], "is for 4–7 players, not 8"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--schedule", "1,x"], "--schedule must be up-down, down-up or hand sizes"),
        (["--schedule", "1,2", "--max-cards", "3"], "max_cards applies to 'up-down' and 'down-up'"),
        (["--preset", "classic-hook", "--bidding", "simultaneous", "--dealer-bid", "hook"], "simultaneous"),
        (["--seat", "5"], "--seat must be from 1 to 4"),
        (["--bots", "clever"], "unknown bot kind 'clever'"),
    ],
)
def test_impossible_options_exit_2_with_the_reason(tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, [*BASE, "--save", str(tmp_path / "g.json"), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_to_the_end(tmp_path: Path, name: str) -> None:
    players = PRESETS[name].min_players
    code, out, save = play(
        tmp_path, "--preset", name, "--players", str(players), "--max-cards", "2", input=anything_legal()
    )
    assert code == 0, out[-2000:]
    assert "Final standings" in out
    game = replay(load(save))
    assert game.is_over
    assert game.rules == PRESETS[name].rules(players, max_cards=2)


def test_rule_options_override_the_preset(tmp_path: Path) -> None:
    code, out, save = play(
        tmp_path,
        "--preset",
        "classic",
        "--schedule",
        "down-up",
        "--max-cards",
        "2",
        "--bidding",
        "simultaneous",
        "--trump-lead",
        "any",
        "--scoring",
        "tricks-plus-ten",
        input=anything_legal(),
    )
    assert code == 0, out[-2000:]
    assert "closed fists" in out
    rules = load(save).rules
    assert rules.hand_sizes == (2, 1, 2)
    assert (rules.bidding.value, rules.trump_lead.value, rules.scoring.value) == (
        "simultaneous",
        "any",
        "tricks-plus-ten",
    )


def test_legal_cards_are_numbered_in_the_order_shown(tmp_path: Path) -> None:
    # One round of seven cards: every one of the seven hand panels shown at a card prompt is checked.
    code, out, save = play(tmp_path, "--schedule", "7", "--preset", "overbid", input=anything_legal())
    assert code == 0, out[-2000:]
    game = replay(load(save))
    checked = 0
    for panel in re.findall(r"Your hand \(You\).*?╰", out, flags=re.DOTALL):
        shown = re.findall(r"(?:\[(\d)\])?([2-9TJQKA][♣♦♥♠])", panel)
        numbered = [(int(n), text) for n, text in shown if n]
        if not numbered:
            continue
        assert [n for n, _ in numbered] == list(range(1, len(numbered) + 1))
        checked += 1
    assert checked == 7
    assert game.is_over


def test_ctrl_c_saves_a_record_that_check_accepts(tmp_path: Path) -> None:
    save = tmp_path / "interrupted.json"
    env = {**os.environ, "COLUMNS": "100"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "upriver", "play", "--seed", "5", "--delay", "0", "--save", str(save)],
        env=env,
        encoding="utf-8",
        timeout=20,
    )
    child.expect("Your bid")
    child.sendline("1")
    child.expect(r"Your (bid|card)")
    child.sendintr()
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")
    checked = subprocess.run(
        [sys.executable, "-m", "upriver", "check", str(save)], capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stderr
    assert load(save).rounds[0].bids[0] == 1


def test_sigint_while_bots_think_saves_too(tmp_path: Path) -> None:
    save = tmp_path / "sigint.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "upriver", "play", "--seed", "5", "--delay", "5", "--save", str(save)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    for line in itertools.islice(process.stdout, 200):
        if "bids" in line or "has bid" in line or "Your bid" in line:
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert "Game saved to" in out
    assert "Traceback" not in err
    assert load(save).players[0] == "You"


def test_question_mark_shows_the_experts_bid_and_card_with_their_estimates(tmp_path: Path) -> None:
    # "?" at the first bid prompt, then at the first card prompt; the game then goes on as usual.
    code, out, save = play(tmp_path, "--schedule", "1,2,1", input="?\n0\n?\n1\n0\n1\n1\n0\n1\n")
    assert code == 0, out
    bid = re.search(r"Hint: Bid (\d): your hand is worth about (\d\.\d) tricks", out)
    assert bid is not None, out
    assert 0 <= float(bid[2]) <= 1  # one card: at most one trick
    card = re.search(r"Hint: \[1\] Play \S+: about (\d+)% to make your bid of 0", out)
    assert card is not None, out
    assert 0 <= int(card[1]) <= 100
    assert "Final standings" in out
    assert replay(load(save)).is_over
