"""run.py installs Debian's PostgreSQL for the tests that start a private server, and only for them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import run  # noqa: E402 - run.py lives at the checkout's root, beside no package

POSTGRES_FIXTURES = frozenset({"db", "postgres_server"})
"""The fixtures of ``tests/pg.py`` that put a test on the private PostgreSQL server."""


def is_test_or_fixture(node: ast.FunctionDef) -> bool:
    return node.name.startswith("test_") or any("fixture" in ast.unparse(d) for d in node.decorator_list)


def is_fixture(node: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(d) for d in node.decorator_list)


def functions(path: Path) -> list[ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


SHARED_FIXTURES = {
    node.name: {argument.arg for argument in node.args.args}
    for node in functions(ROOT / "tests" / "conftest.py")
    if is_fixture(node)
}
"""The fixtures every test module may take (``tests/conftest.py``), each with the fixtures it takes."""


def uses_postgres(path: Path) -> bool:
    """Whether a test or a fixture of the module takes one of :data:`POSTGRES_FIXTURES`, or a fixture
    that takes one, directly or through others: the module's own, or those of ``tests/conftest.py``
    that it does not define itself."""
    own = [node for node in functions(path) if is_test_or_fixture(node)]
    takes = {
        **SHARED_FIXTURES,
        **{node.name: {a.arg for a in node.args.args} for node in own if is_fixture(node)},
    }
    postgres = set(POSTGRES_FIXTURES)
    while grown := {name for name, needs in takes.items() if needs & postgres} - postgres:
        postgres |= grown
    return any(argument.arg in postgres for node in own for argument in node.args.args)


def test_a_module_taking_a_shared_fixture_that_takes_db_is_seen_to_use_postgresql(tmp_path: Path) -> None:
    shared = tmp_path / "test_shared.py"
    shared.write_text("def test_a(client):\n    pass\n")
    assert SHARED_FIXTURES["client"] == {"db"}
    assert uses_postgres(shared)
    shared.write_text(
        "import pytest\n@pytest.fixture\ndef client(tmp_path):\n    pass\ndef test_a(client):\n    pass\n"
    )
    assert not uses_postgres(shared)  # its own client, on no database


def test_run_py_lists_exactly_the_test_files_that_use_the_postgresql_server() -> None:
    found = sorted(path.name for path in (ROOT / "tests").glob("test_*.py") if uses_postgres(path))
    assert found == sorted(run.POSTGRES_TESTS)


@pytest.mark.parametrize(
    ("args", "needs_postgres"),
    [
        ([], True),
        (["-m", "not browser and not postgres"], False),
        (["-mnot postgres"], False),
        (["-m", "not browser and not slow"], True),
        (["tests/test_names.py", "-k", "quoted"], False),
        (["tests/test_web_api.py::test_x"], True),
        (["tests/test_store.py", "tests/test_names.py"], True),
        (["tests"], True),
    ],
)
def test_the_test_command_needs_postgresql_unless_its_arguments_leave_the_postgresql_tests_out(
    args: list[str], needs_postgres: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert run.selects_marked_tests(args, "postgres", run.POSTGRES_TESTS) is needs_postgres


def test_without_postgresql_or_the_right_to_install_it_the_test_command_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(run, "postgres_installed", lambda: False)
    monkeypatch.setattr(run, "apt_get_prefix", lambda: None)
    with pytest.raises(run.SetupError) as refused:
        run.postgresql("python3 run.py test", [])
    message = str(refused.value)
    assert "The PostgreSQL tests need Debian's PostgreSQL server" in message
    assert (
        "install it with `sudo apt-get install postgresql`, then run `python3 run.py test` again." in message
    )
    run.postgresql("python3 run.py test", ["-m", "not postgres"])  # nothing to install: no refusal
    assert run.postgresql in run.COMMANDS["test"].prerequisites


def test_postgresql_is_found_where_debian_installs_it() -> None:
    assert run.postgres_installed() is any(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
