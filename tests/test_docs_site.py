"""The documentation site: it builds in strict mode, its pages are all reachable, its map of the code is
the code's, and the README stays a short page that leads into it."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.core
import typer.main
from mkdocs.config import load_config

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "hooks"))
import griffe_rest  # noqa: E402 - the site's griffe extension lives beside the docs, not in the package

from tests.architecture import ARCHITECTURE, architecture_table  # noqa: E402 - the one reading of the layout table


def nav_pages(node: object) -> set[str]:
    """Every page file named in ``mkdocs.yml``'s navigation."""
    if isinstance(node, str):
        return {node}
    if isinstance(node, list):
        return set().union(*(nav_pages(item) for item in node))
    if isinstance(node, dict):
        return set().union(*(nav_pages(item) for item in node.values()))
    return set()


@pytest.mark.slow
def test_the_site_builds_in_strict_mode_with_the_api_reference_and_the_benchmark_tables(
    tmp_path: Path,
) -> None:
    # --strict turns every warning into a failure: a broken link, a missing image, an API object
    # mkdocstrings cannot find, a malformed bench result file.
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert built.returncode == 0, built.stderr
    engine_api = (tmp_path / "site" / "api" / "engine" / "index.html").read_text("utf-8")
    assert "check_bid" in engine_api
    assert "&gt;&gt;&gt;" in engine_api  # doctests drawn as code, never as nested quotations
    api_pages = (tmp_path / "site" / "api").rglob("index.html")
    assert [page.parent.name for page in api_pages if "<blockquote>" in page.read_text("utf-8")] == []
    benchmarks = (tmp_path / "site" / "benchmarks" / "index.html").read_text("utf-8")
    assert "1,619,565" in benchmarks  # a figure of bench/results/kernel.json
    assert "bench-results" not in benchmarks


def test_every_page_of_the_docs_folder_is_in_the_navigation() -> None:
    config = load_config(str(ROOT / "mkdocs.yml"))
    pages = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md") if "hooks" not in path.parts}
    assert pages == nav_pages(config["nav"])


def architecture_modules() -> set[str]:
    return {module for _, modules in architecture_table() for module in modules}


def test_the_architecture_table_names_every_package_and_module_of_the_code_and_nothing_else() -> None:
    source = ROOT / "src" / "upriver"
    present = {
        f"upriver.{path.stem}"
        for path in source.iterdir()
        if (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert architecture_modules() == present


def test_the_architecture_table_lists_every_command_of_the_command_line_and_nothing_else() -> None:
    import upriver.cli

    for module in pkgutil.iter_modules(upriver.cli.__path__):  # each command module registers its command
        importlib.import_module(f"upriver.cli.{module.name}")
    group = typer.main.get_command(upriver.cli.app)
    assert isinstance(group, typer.core.TyperGroup)
    commands = set(group.commands)
    (row,) = [
        line
        for line in ARCHITECTURE.read_text("utf-8").splitlines()
        if line.startswith("| adapters | `upriver.cli` |")
    ]
    after_colon = row.split("|")[3].split(":", 1)[1]  # the commands follow "the `upriver` command:"
    listed = set(re.findall(r"`([a-z][a-z-]*)`", after_colon))
    assert "backup" in commands
    assert listed == commands


def test_the_readme_is_a_short_page_with_the_two_commands_near_the_top() -> None:
    readme = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(readme) <= 150
    top = "\n".join(readme[:25])
    assert "python3 run.py serve" in top
    assert "python3 run.py test" in top


def test_every_link_of_the_readme_into_the_checkout_names_a_file_that_exists() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    links = [target for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme) if "://" not in target]
    assert links
    assert [target for target in links if not (ROOT / target).exists()] == []


def test_docstring_doctests_and_literal_blocks_become_fenced_code_and_roles_links_to_the_reference() -> None:
    docstring = (
        "Set up with :func:`~run.main`::\n\n    python3 run.py docs\n\n"
        "It raises :class:`upriver.errors.RulesError`, see :meth:`Game.move`.\n\n>>> 1 + 1\n2\n"
    )
    assert griffe_rest.to_markdown(docstring, "upriver.game").splitlines() == [
        'Set up with <autoref identifier="upriver.game.run.main" optional><code>main</code></autoref>:',
        "",
        "```",
        "python3 run.py docs",
        "```",
        "",
        "",
        'It raises <autoref identifier="upriver.errors.RulesError" optional>'
        "<code>upriver.errors.RulesError</code></autoref>, see "
        '<autoref identifier="upriver.game.Game.move" optional><code>Game.move</code></autoref>.',
        "",
        "```pycon",
        ">>> 1 + 1",
        "2",
        "```",
    ]


def test_a_docstring_rewritten_twice_is_rewritten_once() -> None:
    once = griffe_rest.to_markdown("A game, :class:`~upriver.game.Game`.\n\n>>> 1\n1\n", "upriver")
    assert griffe_rest.to_markdown(once, "upriver") == once
