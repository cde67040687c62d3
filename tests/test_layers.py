"""The package's import graph, read from the source with ``ast``: no cycle, and a core importing no adapter.

Every import counts, wherever it is written: at the top of a module, inside a function
(imported when first called) and under ``if TYPE_CHECKING:`` (read by the type checker).
An edge goes to the module named, not to the packages above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
CORE = (
    "upriver.cards",
    "upriver.options",
    "upriver.rules",
    "upriver.scoring",
    "upriver.errors",
    "upriver.actions",
    "upriver.state",
    "upriver.game",
    "upriver.claims",
    "upriver.view",
    "upriver.legality",
    "upriver.deal",
    "upriver.branch",
    "upriver.names",
    "upriver.record",
    "upriver.sheet",
    "upriver.keeper",
    "upriver.database",
    "upriver.bots",
    "upriver.review",
    "upriver.fast",
)
"""The engine and what stands next to it (cards → rules → game → record/sheet → bots → fast), with
the names every entry point accepts and the score keeper (its store and the SQLite or PostgreSQL runner
under it, ``upriver.database``, included: no web import)."""
ADAPTERS = (
    "upriver.cli",
    "upriver.web",
    "upriver.rl",
    "upriver.pettingzoo",
    "upriver.spiel",
    "upriver.arena",
    "upriver.i18n",
)
"""What translates the engine for people and programs: the command line, the web, RL, OpenSpiel, the
arena, and the words the command line and the pages say in each language."""
ENTRY = ("upriver", "upriver.__main__")
"""The package's front door (core names only) and ``python -m upriver`` (the command line)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted((SRC / "upriver").rglob("*.py"))}


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def known(name: str) -> str | None:
    """The most specific module of the package that ``name`` names (``a.b.C`` → ``a.b``), if any."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imported(module: str, tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Every module of the package that ``module`` imports, with the line of the import."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = known(alias.name)
                if target is not None:
                    yield target, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = known(f"{base}.{alias.name}") if f"{base}.{alias.name}" in MODULES else known(base)
                if target is not None:
                    yield target, node.lineno


def import_graph() -> dict[str, dict[str, int]]:
    """Module → {imported module: line of the first such import}, for every module of ``upriver``."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in MODULES.items():
        edges: dict[str, int] = {}
        for target, line in imported(module, ast.parse(path.read_text(encoding="utf-8"))):
            if target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def describe(component: list[str], graph: dict[str, dict[str, int]]) -> str:
    members = set(component)
    edges = [
        f"{source} → {target} (line {line})"
        for source in component
        for target, line in graph[source].items()
        if target in members
    ]
    return "; ".join(edges)


def test_the_graph_counts_imports_inside_functions_and_under_type_checking() -> None:
    graph = import_graph()
    # spec.py imports openspiel inside BotSpec.factory and under TYPE_CHECKING; match.py under TYPE_CHECKING.
    assert "upriver.arena.openspiel" in graph["upriver.arena.spec"]
    assert "upriver.arena.openspiel" in graph["upriver.arena.match"]
    # ``from upriver.arena import openspiel`` is an edge to that module; ``from upriver.rules import Rules``
    # one to the module that holds the name.
    assert "upriver.rules" in graph["upriver.arena.openspiel"]
    assert "upriver.arena" not in graph["upriver.arena.spec"]


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph()
    found = [describe(component, graph) for component in cycles(graph)]
    assert found == [], "import cycles: " + " | ".join(found)


def test_the_core_imports_no_adapter() -> None:
    graph = import_graph()
    wrong = [
        f"{module} → {target} (line {line})"
        for module, edges in graph.items()
        if within(module, CORE)
        for target, line in edges.items()
        if within(target, ADAPTERS)
    ]
    assert wrong == []


def test_every_module_is_core_or_adapter_so_none_escapes_the_layer_check() -> None:
    unplaced = [name for name in MODULES if name not in ENTRY and not within(name, CORE + ADAPTERS)]
    assert unplaced == []


def test_the_package_root_imports_only_the_core() -> None:
    assert [target for target in import_graph()["upriver"] if not within(target, CORE)] == []


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph: dict[str, dict[str, int]] = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 2}, "d": {}}
    assert cycles(graph) == [["a", "b", "c"]]
