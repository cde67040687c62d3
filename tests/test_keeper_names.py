"""The score keeper takes only names its store can read back, and says why a stored sheet cannot open.

Names go through :func:`upriver.names.check_names`, as at a web table and in a record;
a sheet stored before that (two names differing only in case) is listed with its problem
and refused with :class:`~upriver.keeper.store.UnreadableSheetError`, never a crash.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import upriver.cli.keep
from upriver import FirstDealer, Rules, RulesError, preset
from upriver.cli import app
from upriver.keeper import KeptSheet
from upriver.keeper.store import SqliteSheetStore, UnreadableSheetError
from upriver.names import PlayerNameError
from upriver.rules import MAX_PLAYERS, MIN_PLAYERS

assert upriver.cli.keep  # registers `keep` on the app

runner = CliRunner()


def countdown(player_count: int = 4) -> Rules:
    return preset("countdown", player_count, max_cards=2)


@pytest.mark.parametrize(
    ("names", "reason", "seat"),
    [
        (["Ann", "ann", "Bob", "Cid"], "taken", 1),
        (["Ann", "Bob", " BOB ", "Cid"], "taken", 2),
        (["Ann", "Bob", "Cid", "De\x1be"], "control", 3),
        (["Ann", "   ", "Cid", "Dee"], "empty", 1),
        (["Ann", "Bob", "Cid", "D" * 25], "too long", 3),
    ],
)
def test_a_sheet_refuses_names_the_record_reader_would_refuse(
    names: list[str], reason: str, seat: int
) -> None:
    with pytest.raises(PlayerNameError) as refused:
        KeptSheet.start(names, countdown(), dealer=0)
    assert (refused.value.reason, refused.value.seat) == (reason, seat)


def test_a_sheet_stores_names_trimmed_and_its_store_reads_them_back(tmp_path: Path) -> None:
    sheet = KeptSheet.start([" Ann ", "Bob", "Cid", "Åsa"], countdown(), dealer=0)
    assert sheet.players == ("Ann", "Bob", "Cid", "Åsa")
    store = SqliteSheetStore(tmp_path / "db.sqlite3")
    try:
        stored = store.create(sheet)
        loaded = store.load(stored.id)
        assert loaded is not None
        assert loaded.sheet.players == sheet.players
    finally:
        store.close()


def test_the_wrong_number_of_names_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="the rules are for 4 players but 3 names were given") as refused:
        KeptSheet.start(["Ann", "Bob", "Cid"], countdown())
    assert refused.value.option is None


def test_a_dealer_that_is_not_a_seat_or_comes_with_the_first_jack_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="seat 4 does not exist: seats are 0 to 3"):
        KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], countdown(), dealer=4)
    with pytest.raises(ValueError, match="give a first dealer or follow the first-Jack procedure, not both"):
        KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], countdown(), dealer=1, first_jack=True)
    jack_rules = countdown().replace(first_dealer=FirstDealer.FIRST_JACK)
    assert KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], jack_rules).awaiting_jack


def _store_with_names_written_before_they_were_checked(path: Path, names: list[str]) -> str:
    """A stored sheet whose names are then rewritten in place, as an older upriver's database holds them."""
    store = SqliteSheetStore(path)
    try:
        sheet_id = store.create(KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], countdown(), dealer=0)).id
    finally:
        store.close()
    db = sqlite3.connect(path)
    try:
        (config_text,) = db.execute("SELECT config FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        config = json.loads(config_text)
        config["record"]["players"] = names
        with db:
            db.execute("UPDATE sheets SET config = ? WHERE id = ?", (json.dumps(config), sheet_id))
    finally:
        db.close()
    return sheet_id


def test_a_stored_sheet_with_names_the_reader_refuses_is_listed_and_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    sheet_id = _store_with_names_written_before_they_were_checked(path, ["Ann", "ann", "Bob", "Cid"])
    store = SqliteSheetStore(path)
    try:
        (summary,) = store.sheets()
        assert summary.players == ("Ann", "ann", "Bob", "Cid")
        assert summary.problem is not None
        assert "names must differ" in summary.problem
        with pytest.raises(UnreadableSheetError) as refused:
            store.load(sheet_id)
        assert refused.value.sheet_id == sheet_id
        assert str(refused.value).startswith(f"sheet {sheet_id} cannot be opened: players[1]: 'ann'")
        assert "\n" not in str(refused.value)
        with pytest.raises(UnreadableSheetError):  # the read-only link too
            store.load_shared(_share_of(path, sheet_id))
    finally:
        store.close()


def _share_of(path: Path, sheet_id: str) -> str:
    db = sqlite3.connect(path)
    try:
        (share,) = db.execute("SELECT share FROM sheets WHERE id = ?", (sheet_id,)).fetchone()
        return str(share)
    finally:
        db.close()


def test_a_readable_sheet_lists_with_no_problem(tmp_path: Path) -> None:
    store = SqliteSheetStore(tmp_path / "db.sqlite3")
    try:
        store.create(KeptSheet.start(["Ann", "Bob", "Cid", "Dee"], countdown(), dealer=0))
        (summary,) = store.sheets()
        assert summary.problem is None
    finally:
        store.close()


# ------------------------------------------------------------------ upriver keep


def keep(tmp_path: Path, *args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(app, ["keep", *args, "--db", str(tmp_path / "db.sqlite3")], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_keep_refuses_names_alike_in_one_line_and_stores_nothing(tmp_path: Path) -> None:
    code, out = keep(tmp_path, "--players", "Ann,ann,Bob,Cid", "--dealer", "1")
    assert code == 2
    assert out.strip().splitlines() == [
        "Error: 'ann' is already at the table as 'Ann' (seat 0); "
        "names must differ in more than case and spaces"
    ]
    store = SqliteSheetStore(tmp_path / "db.sqlite3")
    try:
        assert store.sheets() == []
    finally:
        store.close()


def test_keep_takes_the_player_count_bounds_from_the_rules(tmp_path: Path) -> None:
    too_few = ",".join(f"P{i}" for i in range(MIN_PLAYERS - 1))
    too_many = ",".join(f"P{i}" for i in range(MAX_PLAYERS + 1))
    for names, count in ((too_few, MIN_PLAYERS - 1), (too_many, MAX_PLAYERS + 1)):
        code, out = keep(tmp_path, "--players", names)
        assert code == 2
        assert f"a sheet is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}" in out
    # Wide enough that rich does not wrap the option's help inside its panel.
    help_text = runner.invoke(app, ["keep", "--help"], env={"COLUMNS": "400"}).output
    assert f"({MIN_PLAYERS} to {MAX_PLAYERS})" in help_text


def test_keep_lists_and_refuses_to_resume_a_sheet_it_cannot_read(tmp_path: Path) -> None:
    sheet_id = _store_with_names_written_before_they_were_checked(
        tmp_path / "db.sqlite3", ["Ann", "ann", "Bob", "Cid"]
    )
    code, out = keep(tmp_path, "--list")
    assert code == 0, out
    assert sheet_id in out
    assert "cannot be opened" in out
    code, out = keep(tmp_path, "--resume", sheet_id)
    assert code == 2
    assert out.strip().splitlines() == [
        f"Error: sheet {sheet_id} cannot be opened: players[1]: 'ann' is already at the table as "
        "'Ann' (seat 0); names must differ in more than case and spaces"
    ]


def test_the_web_answers_a_sheet_it_cannot_read_with_409_and_the_reason(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from upriver.web.app import create_app

    path = tmp_path / "db.sqlite3"
    sheet_id = _store_with_names_written_before_they_were_checked(path, ["Ann", "ann", "Bob", "Cid"])
    with TestClient(create_app(path)) as client:
        for url in (f"/api/sheets/{sheet_id}", f"/api/sheets/shared/{_share_of(path, sheet_id)}"):
            answer = client.get(url)
            assert answer.status_code == 409
            assert answer.json()["rule"] == "unreadable sheet"
            assert "names must differ" in answer.json()["error"]
