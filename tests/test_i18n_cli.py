"""`upriver play` in another language, driven through the command: every word from the catalogue,
refusals worded from the engine's facts, the language from ``--lang`` or from ``$LANG``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import upriver.cli.play
from tests.pagetext import english_fragments
from upriver.cli import app
from upriver.i18n import catalogue, translate
from upriver.record import load, replay

assert upriver.cli.play  # registers the command
runner = CliRunner()
BASE = ["play", "--delay", "0", "--seed", "3", "--players", "4", "--schedule", "1,2,1"]
# Seed 3, schedule 1,2,1: a bid of 7 (out of range), a card not held (2♥), then bids of 0 and the
# first legal card of every trick, as in tests/test_play.py.
SCRIPT = "7\n0\n2h\n1\n0\n1\n1\n0\n1\n"


def run(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None, script: str = SCRIPT
) -> tuple[int, str]:
    result = runner.invoke(app, [*BASE, "--save", str(tmp_path / "game.json"), *args], input=script, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_a_whole_game_in_czech_says_every_word_in_czech(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--lang", "cs", env={"LANG": "en_US.UTF-8"})
    assert code == 0, out
    cs = catalogue("cs")
    assert "Kolo 1/3" in out
    assert "Kolo 3/3" in out
    assert str(cs["tui.choosing_dealer"]) in out
    assert "Hlášení: " in out
    assert str(cs["tui.final"]) in out
    assert "každý hráč: hlášení/štychy, body za kolo, průběžný součet" in out  # the score sheet's caption
    # The refusals come from the engine's rule and facts, worded in Czech, with the rule's name.
    assert "Hlášení je celé číslo od 0 do 1, počtu karet v ruce. (pravidlo: bid range)" in out
    assert "Kartu 2♥ nemáte. (pravidlo: card in hand)" in out
    left = [fragment for fragment in english_fragments("cs") if fragment in out]
    assert left == []
    game = replay(load(tmp_path / "game.json"))
    assert game.is_over
    assert game.players[0] == "Vy"


def test_the_language_comes_from_lang_when_not_given(tmp_path: Path) -> None:
    code, out = run(tmp_path, env={"LANG": "sv_SE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""})
    assert code == 0, out
    assert "Runda 1/3" in out
    assert str(catalogue("sv")["tui.final"]) in out
    assert translate("sv", "play.saved", path=tmp_path / "game.json") in out


def test_an_unknown_language_is_refused_naming_the_ones_there_are(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--lang", "klingon", env={"LANG": "C.UTF-8"}, script="")
    assert code == 2
    assert "unknown language 'klingon': expected one of en, fr, cs, it, sv" in out
    assert not (tmp_path / "game.json").exists()


def test_english_keeps_the_engines_own_sentences(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--lang", "en")
    assert code == 0, out
    assert "You may not bid 7: a bid is a whole number from 0 to 1" in out
    assert "Final standings" in out


def test_the_score_keeper_speaks_italian(tmp_path: Path) -> None:
    import upriver.cli.keep

    assert upriver.cli.keep  # registers the command
    args = [
        "keep",
        "--players",
        "Ann,Bob,Cid,Dee",
        "--preset",
        "countdown",  # the hook, whose refusal is checked below
        "--schedule",
        "1,2,1",
        "--db",
        str(tmp_path / "k.sqlite3"),
    ]
    result = runner.invoke(app, [*args, "--lang", "it"], input="0\n0\n0\n1\n0\n1 0 0 0\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Smazzata 1 di 3: 1 carta" in out
    # The hook, from the sheet's restriction and from the engine's refusal, in Italian.
    assert (
        "Ann non può dichiarare 1: la somma delle dichiarazioni non può essere uguale al numero di prese"
        in out
    )
    assert "(regola: hook)" in out
    assert "ogni giocatore: dichiarazione/prese, punti della smazzata, totale progressivo" in out
    assert "Bob, Cid e Dee sono in testa con 10" in out
    assert [fragment for fragment in english_fragments("it") if fragment in out] == []
