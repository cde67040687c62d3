"""The keeper's commands module is the keeper's whole API without HTTP: it runs where only the core
does (a browser's Python), and refuses what it cannot take in a sentence, as data."""

from __future__ import annotations

import subprocess
import sys

import pytest

from upriver.keeper.commands import BadEntryError, apply, new_sheet, sheet_view


def test_the_commands_module_loads_without_any_web_terminal_or_numeric_library() -> None:
    script = (
        "import sys, upriver.keeper.commands as c\n"
        "heavy = ('fastapi', 'starlette', 'pydantic', 'rich', 'numpy', 'numba', 'psycopg')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(heavy)))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_an_unknown_action_or_a_body_of_the_wrong_kind_is_refused_naming_the_field() -> None:
    sheet = new_sheet({"players": ["Ann", "Bob", "Cid", "Dee"], "preset": "countdown", "dealer": 0})
    with pytest.raises(BadEntryError, match="unknown action 'deal': expected one of jack, bid") as refused:
        apply(sheet, "deal", {})
    assert refused.value.field == "action"
    with pytest.raises(BadEntryError, match=r"'bids' must be a list of whole numbers") as refused:
        apply(sheet, "bids", {"bids": "0 1 0"})
    assert refused.value.field == "bids"
    assert sheet_view(sheet)["can_undo"] is False  # nothing changed
