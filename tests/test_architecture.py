"""The layout's promises: generic modules know no game, and imports go one way (no cycles).

Every import counts, those inside functions too: a cycle hidden in a function body is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import dicetree.solver.games as registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "cli", "cache")
REGISTRY = registry.__name__
# The package folders sit at the top of the repository and install under one import root
# (``dicetree.solver``); module names here are the names the code imports, so they take the root
# the registry itself was imported under.
IMPORT_ROOT = REGISTRY.rpartition(".")[0].rpartition(".")[0]


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = parts[:-1] if parts[-1] == "__init__" else parts
            name = ".".join((IMPORT_ROOT, *module) if IMPORT_ROOT else module)
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports (anywhere in the file), resolved to module names."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    return {t for t in targets if t in MODULES and t != name}


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for target in _imports(name, path):
            graph.add_edge(name, target)
    return graph


def _is_game_module(name: str) -> bool:
    return name.startswith(REGISTRY + ".") and name != REGISTRY


def _game_of(name: str) -> str:
    """The game package a game module belongs to (``rolldown`` for ``...games.rolldown.rules``)."""
    return name.removeprefix(REGISTRY + ".").split(".")[0]


def test_no_import_cycles_among_project_modules():
    graph = _graph()
    assert graph.number_of_edges() > len(MODULES), "imports were not resolved to the modules' names"
    # A package's __init__ re-exporting its own modules is not a cycle of the design.
    for name in list(graph):
        for target in list(graph.successors(name)):
            if MODULES[name].name == "__init__.py" and target.startswith(name + "."):
                graph.remove_edge(name, target)
    cycles = sorted(sorted(component) for component in nx.strongly_connected_components(graph) if len(component) > 1)
    assert not cycles, f"import cycles: {cycles}"


def test_generic_modules_import_no_game_package():
    offenders = sorted(
        f"{name} imports {target}"
        for name, path in MODULES.items() if not _is_game_module(name) and name != REGISTRY
        for target in _imports(name, path) if _is_game_module(target)
    )
    assert not offenders, offenders


def test_generic_modules_compare_with_no_game_name():
    """No string literal in a generic module is a registered game's name (the registry aside)."""
    names = set(registry.GAMES)
    offenders = []
    for name, path in MODULES.items():
        if _is_game_module(name) or name == REGISTRY:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                offenders.append(f"{name}:{node.lineno} '{node.value}'")
    assert not offenders, offenders


def test_games_do_not_import_each_other():
    offenders = []
    for name, path in MODULES.items():
        if not _is_game_module(name):
            continue
        offenders += [f"{name} imports {t}" for t in _imports(name, path)
                      if _is_game_module(t) and _game_of(t) != _game_of(name)]
    assert not offenders, offenders
