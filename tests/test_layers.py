"""The package's import graph, read from the source with ``ast``, against the architecture page's layers.

The architecture page's table lists the layers from the bottom up (base, cards, rules, game, records,
bots, adapters) and puts every package and module in one; a module imports only its own layer and
the layers listed before it, and no import cycle. The tests read that table, so the page and the
check cannot drift apart.

Every import counts, wherever it is written: at the top of a module, inside a function
(imported when first called) and under ``if TYPE_CHECKING:`` (read by the type checker).
An edge goes to the module named, not to the packages above it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.architecture import architecture_table

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def layers() -> tuple[list[str], dict[str, str]]:
    """The layers in the table's order (first listed, lowest), and each top-level module's layer."""
    order: list[str] = []
    layer_of: dict[str, str] = {}
    for layer, modules in architecture_table():
        if layer not in order:
            order.append(layer)
        for module in modules:
            layer_of[module] = layer
    return order, layer_of


ORDER, LAYER_OF = layers()
ADAPTERS = tuple(module for module, layer in LAYER_OF.items() if layer == "adapters")
"""What translates the engine for people and programs: the command line, the web, RL, OpenSpiel, the
arena, and the words the command line and the pages say in each language."""
CORE = tuple(module for module, layer in LAYER_OF.items() if layer != "adapters")
"""The engine and what stands next to it: every layer before the adapters."""
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


def layer(module: str) -> str:
    """The layer of ``module``: its top-level module's (``upriver.web.app`` → ``upriver.web``)."""
    return LAYER_OF[".".join(module.split(".")[:2])]


def upward(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import of a layer listed after the importer's, as ``a (layer) → b (layer) (line n)``."""
    return [
        f"{module} ({layer(module)}) → {target} ({layer(target)}) (line {line})"
        for module, edges in graph.items()
        if module not in ENTRY
        for target, line in edges.items()
        if target not in ENTRY and ORDER.index(layer(target)) > ORDER.index(layer(module))
    ]


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


def test_the_architecture_page_lists_the_layers_in_order_and_ends_with_the_adapters() -> None:
    assert ORDER[-1] == "adapters"
    assert {"cards", "rules", "game", "bots"} <= set(ORDER)
    # Each layer is one run of rows: a layer named again after another would make the order ambiguous.
    named = [row_layer for row_layer, _ in architecture_table()]
    runs = [row_layer for index, row_layer in enumerate(named) if index == 0 or named[index - 1] != row_layer]
    assert runs == ORDER


def test_no_module_imports_a_layer_listed_after_its_own() -> None:
    wrong = upward(import_graph())
    assert wrong == [], "imports of a later layer: " + "; ".join(wrong)


def test_the_layer_check_finds_an_import_of_a_later_layer() -> None:
    graph = {"upriver.cards": {"upriver.game": 7}, "upriver.game": {"upriver.cards": 3}}
    assert upward(graph) == ["upriver.cards (cards) → upriver.game (game) (line 7)"]


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


def test_every_module_is_in_a_layer_of_the_page_so_none_escapes_the_layer_check() -> None:
    unplaced = [name for name in MODULES if name not in ENTRY and not within(name, CORE + ADAPTERS)]
    assert unplaced == []


def test_the_package_root_imports_only_the_core() -> None:
    assert [target for target in import_graph()["upriver"] if not within(target, CORE)] == []


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph: dict[str, dict[str, int]] = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 2}, "d": {}}
    assert cycles(graph) == [["a", "b", "c"]]
