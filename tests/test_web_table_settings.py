"""A table's own settings (:mod:`upriver.web.play.settings`): one object owns their names, defaults
and checks; a table keeps them in its stored configuration as it always did, so a table stored
before a setting existed still loads, with that setting at its default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from upriver.web.play.settings import SettingError, TableSettings
from upriver.web.play.tables import Manager
from upriver.web.seats.holders import Connection
from upriver.web.store import SqliteTableStore

NAMES = ("clock", "level", "hints", "spectator_chat", "pace")


def test_the_settings_are_named_as_the_create_request_and_the_stored_configuration_spell_them() -> None:
    assert TableSettings.names() == NAMES
    assert TableSettings().config() == {
        "clock": 0,
        "level": "normal",
        "hints": False,
        "spectator_chat": False,
        "pace": "normal",
    }


def test_a_table_keeps_its_settings_in_its_stored_configuration_each_under_its_own_name(
    tmp_path: Path,
) -> None:
    store = SqliteTableStore(tmp_path / "tables.db")
    manager = Manager(store, bot_delay=0.0)
    try:
        settings = TableSettings(clock=30, level=" Easy ", hints=True, spectator_chat=True, pace="fast")
        table, _token = manager.create(
            name="Ann", seats=["human", "basic", "basic"], options={}, settings=settings
        )
        row = store.table(table.id)
        assert row is not None
        stored = {name: row.config[name] for name in NAMES}
        assert stored == {"clock": 30, "level": "easy", "hints": True, "spectator_chat": True, "pace": "fast"}
    finally:
        manager.close()


def test_a_table_stored_before_its_settings_existed_loads_with_each_at_its_default(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = SqliteTableStore(path)
    manager = Manager(store, bot_delay=0.0)
    try:
        made, _token = manager.create(
            name="Ann",
            seats=["human", "basic", "basic"],
            options={},
            settings=TableSettings(clock=45, level="easy", hints=True, pace="slow"),
        )
        row = store.table(made.id)
        assert row is not None
        # As the earliest tables were written: no clock, level, hints, spectators' chat or pace.
        store.add_table("old", {key: value for key, value in row.config.items() if key not in NAMES})
        # As written before the pace and the spectators' chat were settings.
        store.add_table("older", {k: v for k, v in row.config.items() if k not in ("pace", "spectator_chat")})
    finally:
        manager.close()
    restarted = Manager(SqliteTableStore(path), bot_delay=0.0)
    try:
        assert restarted.tables[made.id].settings == TableSettings(
            clock=45, level="easy", hints=True, pace="slow"
        )
        assert restarted.tables["old"].settings == TableSettings()
        assert restarted.tables["older"].settings == TableSettings(clock=45, level="easy", hints=True)
        state = json.loads(restarted.tables["old"].state(Connection(None), ""))
        assert state["options"] == {"clock": 0, "level": "normal", "hints": False, "spectator_chat": False}
        assert state["pace"] == "normal"
        assert restarted.tables["older"].pace.name == "normal"
    finally:
        restarted.close()


@pytest.mark.parametrize(
    ("given", "setting", "words"),
    [
        ({"clock": 5}, "clock", "from 10 to 300"),
        ({"clock": True}, "clock", "whole number"),
        ({"level": "grandmaster"}, "level", "normal"),
        ({"hints": "yes"}, "hints", "true or false"),
        ({"pace": "brisk"}, "pace", "'fast'"),
        ({"colour": "red"}, "colour", "expected one of clock, level, hints, spectator_chat, pace"),
    ],
)
def test_a_setting_it_cannot_have_is_refused_naming_the_setting_and_what_would_do(
    given: dict[str, object], setting: str, words: str
) -> None:
    with pytest.raises(SettingError, match=words) as refused:
        TableSettings.of(given)
    assert refused.value.setting == setting


values = (
    st.none() | st.booleans() | st.integers(-5, 400) | st.sampled_from(["easy", "Normal ", "fast", "x", ""])
)


def made(given: dict[str, object]) -> TableSettings | SettingError:
    """The settings ``given`` make, or the refusal they get."""
    try:
        return TableSettings.of(given)
    except SettingError as error:
        return error


@given(st.dictionaries(st.sampled_from([*NAMES, "colour"]), values, max_size=6))
def test_any_settings_are_either_kept_as_given_through_the_store_or_refused_naming_one_given(
    given: dict[str, object],
) -> None:
    settings = made(given)
    if isinstance(settings, SettingError):
        assert settings.setting in given
        assert settings.setting in str(settings)
        return
    stored = json.loads(json.dumps(settings.config()))  # the configuration is kept as JSON
    assert TableSettings.from_config(stored) == settings
    for name, value in given.items():
        kept = getattr(settings, name)
        assert kept == (value.strip().lower() if isinstance(value, str) and name == "level" else value)
