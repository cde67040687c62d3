"""`upriver keep` driven with its input, as a keeper at a table would type it."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import upriver.cli.check
import upriver.cli.keep
from upriver.cli import app
from upriver.keeper.store import SqliteSheetStore

runner = CliRunner()
START = ["keep", "--players", "Ann,Bob,Cid,Dee", "--preset", "classic-hook", "--schedule", "1,2,1"]

assert upriver.cli.check  # both commands registered, as for the console script
assert upriver.cli.keep

# The first Jack to Cid; round 1 (Cid deals): Dee 1, Ann 0, Bob 0, Cid tries 0 (the hook) then 1;
# tricks that do not add up, then Dee's trick; round 2 (Dee deals): hearts, bids, tricks.
WHOLE_GAME = "\n".join(
    [
        "Cid",
        "1",
        "0",
        "0",
        "0",
        "1",
        "1 1 0 0",
        "0 0 0 1",
        "trump h",
        "1",
        "0",
        "0",
        "0",
        "1 0 1 0",
        "edit 1",
        "",
        "0 0 1 0",
        "0",
        "0",
        "0",
        "0",
        "0 1 0 0",
    ]
)


def keep(tmp_path: Path, *args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "db.sqlite3")], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def only_sheet(tmp_path: Path) -> str:
    store = SqliteSheetStore(tmp_path / "db.sqlite3")
    try:
        (summary,) = store.sheets()
        return summary.id
    finally:
        store.close()


def test_a_whole_game_is_kept_with_refusals_an_edit_and_a_checked_export(tmp_path: Path) -> None:
    out_file = tmp_path / "game.json"
    code, out = keep(tmp_path, *START, input=f"{WHOLE_GAME}\nexport record {out_file}\nquit\n")
    assert code == 0, out
    assert "starting with Ann" in out
    assert "Cid deals; Dee bids first" in out
    assert "Cid may not bid 0: with the hook, the bids may not total 1" in out
    assert "(rule: hook)" in out
    assert "the tricks add up to 2, but 1 were played (rule: tricks add up)" in out
    assert "Round 1 changed; the sheet is re-scored." in out
    assert "Game over. Ann wins with 31." in out
    checked = runner.invoke(app, ["check", "--json", str(out_file)])
    assert checked.exit_code == 0, checked.output
    summary = json.loads(checked.output)
    assert summary["totals"] == [31, 20, 21, 20]
    assert [r["scores"] for r in summary["rounds"]] == [[10, 10, 11, 0], [11, 10, 0, 10], [10, 0, 10, 10]]


def test_every_entry_is_saved_so_a_resumed_sheet_carries_on(tmp_path: Path) -> None:
    code, _ = keep(tmp_path, *START, "--dealer", "Cid", input="1\n0\n")  # input ends: like a closed terminal
    assert code == 0
    sheet_id = only_sheet(tmp_path)
    code, out = keep(tmp_path, "keep", "--resume", sheet_id, input="0\n1\n0 0 0 1\nsheet\nquit\n")
    assert code == 0, out
    assert f"Resuming sheet {sheet_id}" in out
    assert "Bob bids (0–1)" in out
    assert "Dee leads with 11" in out
    code, out = keep(tmp_path, "keep", "--list")
    assert sheet_id in out
    assert "1/3" in out


def test_undo_takes_back_the_last_entry(tmp_path: Path) -> None:
    code, out = keep(tmp_path, *START, "--dealer", "Ann", input="1\nundo\n0\nsheet\nquit\n")
    assert code == 0, out
    assert "Undone." in out
    assert "Bob bids 0." in out
    assert "Bob bids 1." in out  # before the undo


def test_simultaneous_bids_are_typed_on_one_line(tmp_path: Path) -> None:
    args = [
        "keep",
        "--players",
        "Ann,Bob,Cid,Dee",
        "--preset",
        "closed-fists",
        "--max-cards",
        "1",
        "--dealer",
        "1",
    ]
    code, out = keep(tmp_path, *args, input="1 0 0 0\n1 0 0 0\nquit\n")
    assert code == 0, out
    assert "Bids shown together (Ann Bob Cid Dee)" in out
    assert "Game over. Ann wins with 11." in out


def test_a_csv_export_writes_the_sheet(tmp_path: Path) -> None:
    target = tmp_path / "sheet.csv"
    code, out = keep(
        tmp_path, *START, "--dealer", "Ann", input=f"0\n0\n0\n0\n1 0 0 0\nexport csv {target}\nquit\n"
    )
    assert code == 0, out
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "1,1,Ann,,0,1,0,0,0,0,10,10,0,0,10,10,0,0,10,10,"


def test_an_imported_record_continues_where_it_stopped(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    keep(tmp_path, *START, "--dealer", "Ann", input=f"0\n0\n0\n0\n1 0 0 0\nexport record {first}\nquit\n")
    code, out = keep(tmp_path, "keep", "--import", str(first), input="quit\n")
    assert code == 0, out
    assert "Round 2 of 3: 2 cards" in out
    assert "Bob deals; Cid bids first" in out


def test_bad_options_are_refused_in_one_line(tmp_path: Path) -> None:
    code, out = keep(tmp_path, "keep", "--players", "Ann,Bob", input="")
    assert code == 2
    assert "a sheet is for 3 to 8 players, not 2" in out
    code, out = keep(tmp_path, "keep", "--players", "Ann,Bob,Cid", "--dealer", "Zed", "--preset", "overbid")
    assert code == 2
    assert "--dealer 'Zed' is none of Ann, Bob, Cid" in out
    code, out = keep(tmp_path, "keep", "--resume", "nope")
    assert code == 2
    assert "no sheet 'nope'" in out
