"""The test suite's own layout: a test module imports no other test module. Fixtures that several
modules share are in ``tests/conftest.py``, their helpers in plain modules (``tests/helpers.py``,
``tests/webclient.py``, ``tests/browsing.py``, …), so which module needs which is written once."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

IMPORTS_A_TEST_MODULE = re.compile(r"^\s*(?:from\s+tests\.test_\w+\s+import|import\s+tests\.test_\w+)", re.M)
"""An import of a test module, at the top of a file or inside a function."""


def importers() -> set[str]:
    return {
        path.name
        for path in TESTS.glob("test_*.py")
        if IMPORTS_A_TEST_MODULE.search(path.read_text(encoding="utf-8"))
    }


def test_no_test_module_imports_another() -> None:
    assert importers() == set()


def test_an_import_of_a_test_module_is_seen_at_the_top_and_inside_a_function() -> None:
    assert IMPORTS_A_TEST_MODULE.search("from tests.test_web_api import Room\n")
    assert IMPORTS_A_TEST_MODULE.search("def f():\n    from tests.test_house_rules import HOUSE_RULES\n")
    assert IMPORTS_A_TEST_MODULE.search("import tests.test_arena\n")
    assert not IMPORTS_A_TEST_MODULE.search("from tests.helpers import SHORT\n")
