"""`upriver keep`'s evening, typed as a keeper at a table would: an arrival shown and confirmed, a
sit-out, a penalty with its note, a departure, a schedule changed mid-game; a web evening resumed in the
terminal whole; and `upriver check` reading an exported evening whole."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import upriver.cli.check
import upriver.cli.keep
from upriver.cli import app
from upriver.keeper.commands import apply, new_sheet
from upriver.keeper.store import SqliteSheetStore
from upriver.record import dumps, to_json

runner = CliRunner()

assert upriver.cli.check  # both commands registered, as for the console script
assert upriver.cli.keep

START = ["keep", "--players", "Ann,Bob,Cid,Dee", "--preset", "classic", "--dealer", "Ann"]


def keep(tmp_path: Path, *args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "db.sqlite3")], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def rounds_where_ann_takes_all(sizes: list[int], players: int = 4) -> list[str]:
    """Each round: everyone at the table bids 0 on one line, then Ann takes every trick."""
    lines = []
    for size in sizes:
        lines += [" ".join(["0"] * players), " ".join([str(size)] + ["0"] * (players - 1))]
    return lines


# Four rounds of classic (Ann 0, the others 10 a round: 0, 40, 40, 40); Eve arrives with the average
# (30), Bob sits round 5 out (Ann, Cid, Dee, Eve bid and take it), Cid loses 10 for a renege, Dee leaves;
# the rest is cut to two rounds, which Ann, Bob, Cid and Eve play.
EVENING = [
    *rounds_where_ann_takes_all([1, 2, 3, 4]),
    "join Eve average",
    "y",
    "sitout Bob",
    *rounds_where_ann_takes_all([5]),
    "adjust Cid -10 renege",
    "leave Dee",
    "y",
    "schedule 2 1",
    *rounds_where_ann_takes_all([2, 1]),
]


def test_an_evening_in_the_terminal_arrives_sits_out_adjusts_leaves_and_reschedules(tmp_path: Path) -> None:
    record = tmp_path / "evening.json"
    code, out = keep(
        tmp_path, *START, input="\n".join([*EVENING, "sheet", f"export record {record}", "quit", ""])
    )
    assert code == 0, out
    # Before the yes: the cards of the rounds left, now and with Eve (five players' peak is 10).
    assert "Cards in each round, from round 5" in out
    assert "Now: 5 6 7 8 9 10 11 11 10 9 8 7 6 5 4 3 2 1 (18 rounds)" in out
    assert "With one more player: 5 6 7 8 9 10 10 9 8 7 6 5 4 3 2 1 (16 rounds)" in out
    assert "Eve joined from round 5, starting at 30" in out
    assert "Bob sits out round 5" in out
    # Round 5: four play it, so the prompt names them and four numbers are the round's tricks.
    assert "Tricks taken (Ann Cid Dee Eve" in out
    assert "Cid −10 after round 5: renege" in out
    assert "With one player fewer:" in out
    assert "Dee left after round 5" in out
    assert "Cards in each round, from round 6: 2 1" in out
    assert "Game over. Bob, Cid and Eve win with 60." in out
    # The sheet: Bob's round-5 cell says he sat it out, with his total; the changes under the table.
    assert re.search(
        r"\n\s*5\s+5\s+Eve\s+0/5\s+0\s+0\s+sits out\s+40\s+0/0\s+10\s+50\s+0/0\s+10\s+50\s+0/0\s+10\s+40",
        out,
    ), out
    checked = runner.invoke(app, ["check", "--json", str(record)])
    assert checked.exit_code == 0, checked.output
    summary = json.loads(checked.output)
    assert summary["totals"] == [0, 60, 60, 50, 60]  # Cid: 50, less 10, then 10 and 10
    assert summary["complete"] is True
    assert len(summary["rounds"]) == 7


def test_check_reads_an_exported_evening_whole_and_says_its_result_as_the_sheet_does(tmp_path: Path) -> None:
    # Bob leads the first run of rounds (the record's game) but Ann wins the evening.
    sheet = new_sheet({"players": ["Ann", "Bob", "Cid"], "schedule": [1, 1, 1, 1], "dealer": 0})
    apply(sheet, "bids", {"bids": [0, 1, 0]})
    apply(sheet, "tricks", {"tricks": [0, 1, 0]})
    apply(sheet, "join", {"name": "Dee"})
    for _ in range(3):
        apply(sheet, "bids", {"bids": [1, 0, 0, 0]})
        apply(sheet, "tricks", {"tricks": [1, 0, 0, 0]})
    apply(sheet, "adjust", {"seat": 0, "points": 5, "note": "a fine deal"})
    path = tmp_path / "evening.json"
    path.write_text(dumps(sheet.to_record()), encoding="utf-8")
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == 0, checked.output
    assert sheet.score_sheet.headline in checked.output
    assert "Ann wins with 48" in checked.output  # 10, then 11 three times, and 5
    assert "Bob wins" not in checked.output
    data = json.loads(runner.invoke(app, ["check", "--json", str(path)]).output)
    assert data["totals"] == list(sheet.totals) == [48, 41, 40, 30]
    assert len(data["rounds"]) == 4


def test_check_refuses_an_evening_whose_rounds_break_a_rule_naming_the_round(tmp_path: Path) -> None:
    sheet = new_sheet({"players": ["Ann", "Bob", "Cid"], "schedule": [1, 1, 1], "dealer": 0})
    apply(sheet, "bids", {"bids": [0, 1, 0]})
    apply(sheet, "tricks", {"tricks": [0, 1, 0]})
    apply(sheet, "join", {"name": "Dee"})
    apply(sheet, "bids", {"bids": [1, 0, 0, 0]})
    apply(sheet, "tricks", {"tricks": [1, 0, 0, 0]})
    data: dict[str, Any] = to_json(sheet.to_record())
    data["upriver_keep"]["evening"]["rounds"][1]["tricks"] = [1, 1, 0, 0]  # two tricks of one card
    path = tmp_path / "evening.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    checked = runner.invoke(app, ["check", str(path)])
    assert checked.exit_code == 1, checked.output
    assert "rule broken: the evening's round 2: the tricks add up to 2, but 1 were played" in checked.output


def test_a_web_evening_resumed_in_the_terminal_keeps_its_notes_sit_outs_and_arrivals(tmp_path: Path) -> None:
    sheet = new_sheet({"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "classic", "dealer": 0})
    apply(sheet, "bids", {"bids": [0, 0, 0, 0]})
    apply(sheet, "tricks", {"tricks": [1, 0, 0, 0]})
    apply(sheet, "join", {"name": "Eve", "start": "lowest"})
    apply(sheet, "sit-out", {"seat": 2})
    apply(sheet, "adjust", {"seat": 1, "points": -10, "note": "renege"})
    store = SqliteSheetStore(tmp_path / "db.sqlite3")
    try:
        sheet_id = store.create(sheet).id
    finally:
        store.close()
    # Round 2: Bob deals, Cid sits out; Dee, Eve and Ann bid first, and four type their tricks.
    code, out = keep(tmp_path, "keep", "--resume", sheet_id, input="0 0 0 0\n0 0 2 0\nsheet\nquit\n")
    assert code == 0, out
    assert "Eve joined from round 2, starting at 0" in out
    assert "Cid sits out round 2" in out
    assert "Bob −10 after round 1: renege" in out
    assert "Round 2 of 20: 2 cards" in out  # five players' schedule, 20 rounds
    assert "Tricks taken (Ann Bob Dee Eve" in out
    assert re.search(
        r"\n\s*2\s+2\s+Bob\s+0/0\s+10\s+10\s+0/0\s+10\s+10\s+sits out\s+10\s+0/2\s+0\s+10\s+0/0\s+10\s+10",
        out,
    ), out
