"""The one store interface, on SQLite and on a real PostgreSQL server: the same promises, word for word.

Every test takes ``db`` (``tests/pg.py``): it runs on a fresh SQLite file and on a fresh
PostgreSQL database. An event is committed atomically and only when it follows the table's
last by one; a refusal writes nothing; events read back in version order; an archived table
stays stored but is no longer listed; a score sheet's write from an old version is refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.pg import query
from upriver import preset
from upriver.database import DuplicateKeyError, PostgresTarget, SqliteTarget, TargetError, parse_target
from upriver.keeper import KeptSheet
from upriver.keeper.store import SheetStore, StaleSheetError, open_sheet_store
from upriver.web.store import Event, TableStore, VersionConflictError, open_table_store

NAMES = ["Ann", "Bob", "Cid", "Dee"]
CONFIG: dict[str, object] = {"kinds": ["human"] * 4, "seed": 7}


@pytest.fixture
def store(db: str) -> Iterator[TableStore]:
    opened = open_table_store(db)
    yield opened
    opened.close()


def join(version: int, seat: int = 0) -> Event:
    return Event(version, "join", seat, f"P{seat}", None)


def bid(version: int, seat: int, value: int, client_id: str | None = None) -> Event:
    return Event(version, "bid", seat, str(value), client_id)


# ------------------------------------------------------------------ tables and events


def test_events_are_committed_and_read_back_in_version_order(store: TableStore) -> None:
    store.add_table("t1", CONFIG)
    events = [join(1), join(2, 1), bid(3, 1, 2, "m1"), Event(4, "play", 1, "QH", "m2")]
    for event in events:
        store.append("t1", event)
    assert store.events("t1") == events
    assert store.events("t1", after=2) == events[2:]
    assert store.version("t1") == 4
    assert store.table("t1") is not None
    assert [row.config for row in store.tables()] == [CONFIG]


def test_an_event_that_does_not_follow_the_last_by_one_is_refused_and_nothing_is_written(
    store: TableStore,
) -> None:
    store.add_table("t1", CONFIG)
    store.append("t1", join(1))
    for wrong in (1, 3, 0, -1):
        with pytest.raises(VersionConflictError) as refused:
            store.append("t1", bid(wrong, 0, 1))
        assert refused.value.stored == 1
        assert refused.value.version == wrong
        assert "table t1 is at version 1 in the store" in str(refused.value)
    assert store.events("t1") == [join(1)]


def test_an_event_of_a_table_that_was_never_stored_is_refused(store: TableStore) -> None:
    with pytest.raises(VersionConflictError, match="table ghost is at version 0"):
        store.append("ghost", join(1))
    assert store.events("ghost") == []


def test_two_stores_on_one_database_refuse_the_second_writer_of_a_version(db: str) -> None:
    first, second = open_table_store(db), open_table_store(db)
    try:
        first.add_table("t1", CONFIG)
        first.append("t1", join(1))
        second.append("t1", bid(2, 0, 1, "mine"))
        with pytest.raises(VersionConflictError, match="another writer stored that version first"):
            first.append("t1", bid(2, 0, 0, "theirs"))
        assert first.events("t1") == second.events("t1") == [join(1), bid(2, 0, 1, "mine")]
    finally:
        first.close()
        second.close()


def test_a_second_table_with_the_same_id_is_refused(store: TableStore) -> None:
    store.add_table("t1", CONFIG)
    with pytest.raises(DuplicateKeyError):
        store.add_table("t1", {"other": True})
    assert [row.config for row in store.tables()] == [CONFIG]


def test_an_archived_table_keeps_its_rows_but_is_no_longer_listed(store: TableStore, db: str) -> None:
    for table_id in ("b", "a", "c"):  # listed in the order made, not by id
        store.add_table(table_id, {"name": table_id})
        store.append(table_id, join(1))
    assert [row.id for row in store.tables()] == ["b", "a", "c"]
    before = store.last_event_at("a")
    assert before is not None
    assert store.last_event_at("nobody") is None
    store.archive("a")
    assert [row.id for row in store.tables()] == ["b", "c"]
    assert store.table("a") is None
    assert store.table("b") is not None
    assert query(db, "SELECT config FROM tables WHERE id = 'a'") == [('{"name": "a"}',)]
    assert store.events("a") == [join(1)]
    assert store.last_event_at("a") == before


def test_what_is_stored_is_there_after_the_store_is_closed_and_opened_again(db: str) -> None:
    first = open_table_store(db)
    first.add_table("t1", CONFIG)
    first.append("t1", join(1))
    first.close()
    again = open_table_store(db)
    try:
        assert [row.id for row in again.tables()] == ["t1"]
        assert again.events("t1") == [join(1)]
        again.append("t1", join(2, 1))
        assert again.version("t1") == 2
    finally:
        again.close()


_tables = itertools.count()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(versions=st.lists(st.integers(-1, 8), max_size=12))
def test_whatever_versions_are_sent_the_store_holds_exactly_the_unbroken_run_from_1(
    store: TableStore, versions: list[int]
) -> None:
    table_id = f"h{next(_tables)}"
    store.add_table(table_id, CONFIG)
    kept: list[Event] = []
    for n, version in enumerate(versions):
        event = bid(version, n % 4, n)
        if version == len(kept) + 1:
            store.append(table_id, event)
            kept.append(event)
        else:
            with pytest.raises(VersionConflictError):
                store.append(table_id, event)
    assert store.events(table_id) == kept


# ------------------------------------------------------------------ score sheets


@pytest.fixture
def sheets(db: str) -> Iterator[SheetStore]:
    opened = open_sheet_store(db)
    yield opened
    opened.close()


def test_a_sheet_is_stored_read_back_and_undone_on_either_store(sheets: SheetStore) -> None:
    stored = sheets.create(KeptSheet.start(NAMES, preset("countdown", 4, max_cards=2), dealer=0))
    loaded = sheets.load(stored.id)
    assert loaded is not None
    loaded.sheet.enter_bid(1, 0)
    saved = sheets.save(loaded, loaded.sheet, "bid")
    assert saved.version == stored.version + 1
    shared = sheets.load_shared(stored.share)
    assert shared is not None
    assert shared.sheet.bids[1] == 0
    shared.sheet.undo()
    undone = sheets.save(shared, shared.sheet, "undo")
    assert undone.version == stored.version
    again = sheets.load(stored.id)
    assert again is not None
    assert again.sheet.bids[1] is None
    assert [summary.id for summary in sheets.sheets()] == [stored.id]
    assert sheets.load("nothing") is None


def test_a_sheet_write_from_a_version_another_store_moved_on_is_refused(db: str) -> None:
    one, two = open_sheet_store(db), open_sheet_store(db)
    try:
        stored = one.create(KeptSheet.start(NAMES, preset("countdown", 4, max_cards=2), dealer=0))
        mine, theirs = one.load(stored.id), two.load(stored.id)
        assert mine is not None
        assert theirs is not None
        mine.sheet.enter_bid(1, 0)
        one.save(mine, mine.sheet, "bid")
        theirs.sheet.enter_bid(1, 1)
        with pytest.raises(StaleSheetError, match="the sheet changed"):
            two.save(theirs, theirs.sheet, "bid")
        reread = two.load(stored.id)
        assert reread is not None
        assert reread.sheet.bids[1] == 0
        assert reread.version == stored.version + 1
    finally:
        one.close()
        two.close()


# ------------------------------------------------------------------ naming the database


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tables.db", SqliteTarget(Path("tables.db"))),
        ("sqlite:///tables.db", SqliteTarget(Path("tables.db"))),
        ("sqlite:////srv/upriver/tables.db", SqliteTarget(Path("/srv/upriver/tables.db"))),
        ("postgresql://ann@db.example:5433/cards", PostgresTarget("postgresql://ann@db.example:5433/cards")),
        ("postgres:///cards?host=/run/postgresql", PostgresTarget("postgres:///cards?host=/run/postgresql")),
    ],
)
def test_a_path_or_a_sqlite_url_is_a_sqlite_file_and_a_postgresql_url_a_database(
    text: str, expected: object
) -> None:
    assert parse_target(text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("mysql://ann@db/cards", "uses the scheme 'mysql', which upriver cannot store in"),
        ("sqlite://host/tables.db", "write sqlite:///PATH (three slashes"),
        ("sqlite:///", "write sqlite:///PATH"),
        ("postgresql://db.example:abc/cards", "its port 'abc' is not a number from 1 to 65535"),
        ("postgresql://[db/cards", "is not a PostgreSQL URL: end of string reached"),
        ("postgresql://db/cards?colour=red", 'invalid URI query parameter: "colour"'),
        ("  ", "the database is empty"),
    ],
)
def test_a_malformed_database_is_refused_with_a_sentence_saying_what_would_do(text: str, words: str) -> None:
    with pytest.raises(TargetError) as refused:
        parse_target(text)
    message = str(refused.value)
    assert words in message
    assert "\n" not in message


def test_a_postgresql_password_is_never_shown() -> None:
    target = parse_target("postgresql://ann:s3cret@db.example/cards")
    assert isinstance(target, PostgresTarget)
    assert target.display == "postgresql://ann:***@db.example/cards"
    assert "s3cret" not in target.display
