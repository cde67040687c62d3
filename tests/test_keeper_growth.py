"""A score sheet's storage stays bounded however long it is kept: only its newest entries are stored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from upriver import preset
from upriver.errors import IllegalActionError
from upriver.keeper import KeptSheet
from upriver.keeper.store import SheetStore, StoredSheet, open_sheet_store

NAMES = ["Ann", "Bob", "Cid", "Dee"]


@pytest.fixture
def sheets(db: str) -> Iterator[SheetStore]:
    opened = open_sheet_store(db)
    opened.kept_entries = 5
    yield opened
    opened.close()


def _one_entry(sheets: SheetStore, stored: StoredSheet) -> StoredSheet:
    """The next bid, or the tricks once every bid is in (the dealer's side takes them all)."""
    sheet = stored.sheet
    if sheet.to_bid:
        sheet.enter_bid(sheet.to_bid[0], 0)
    else:
        sheet.enter_tricks([sheet.hand_size if seat == 0 else 0 for seat in range(4)])
    return sheets.save(stored, sheet, "entry")


def _rows(sheets: SheetStore, sheet_id: str) -> int:
    ((count,),) = sheets.db.fetch("SELECT COUNT(*) FROM sheet_entries WHERE sheet_id = ?", (sheet_id,))
    return int(count)


def test_a_sheet_keeps_only_its_newest_entries_and_undo_goes_back_through_them(sheets: SheetStore) -> None:
    stored = sheets.create(KeptSheet.start(NAMES, preset("classic", 4), dealer=0))
    for _ in range(12):
        loaded = sheets.load(stored.id)
        assert loaded is not None
        stored = _one_entry(sheets, loaded)
    assert stored.version == 13
    assert _rows(sheets, stored.id) == 5
    loaded = sheets.load(stored.id)
    assert loaded is not None
    assert loaded.version == 13
    assert loaded.sheet.entries == stored.sheet.entries
    for expected in (12, 11, 10, 9):
        loaded.sheet.undo()
        loaded = sheets.save(loaded, loaded.sheet, "undo")
        assert loaded.version == expected
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        loaded.sheet.undo()
    again = sheets.load(stored.id)
    assert again is not None
    assert again.version == 9
    assert again.sheet.entries == loaded.sheet.entries
    # A writer holding the sheet in memory (the terminal keeper) stays within the bound too.
    for _ in range(7):
        again = _one_entry(sheets, again)
        assert len(again.sheet.history) <= 4
    assert again.version == 16
    assert _rows(sheets, stored.id) == 5


def test_an_imported_sheet_keeps_only_its_newest_entries(sheets: SheetStore) -> None:
    sheet = KeptSheet.start(NAMES, preset("classic", 4), dealer=0)
    for _ in range(9):
        sheet.enter_bid(sheet.to_bid[0], 0) if sheet.to_bid else sheet.enter_tricks(
            [sheet.hand_size, 0, 0, 0]
        )
    stored = sheets.create(sheet)
    assert stored.version == 10
    assert _rows(sheets, stored.id) == 5
    loaded = sheets.load(stored.id)
    assert loaded is not None
    assert loaded.version == 10
    assert len(loaded.sheet.history) == 4
