"""One import root: the project installs and imports as ``dicetree``, and each module exists once.

The package folders sit at the top of the repository and pyproject.toml maps them under the root
(``dicetree.solver`` from ``solver/``, ...; no links). A module imported under its folders' names as
well (a top-level ``solver`` package beside ``dicetree.solver``) would be a second copy with classes of its own: a ``GameError`` raised by
one copy is not caught as the other's, and pickles name one of them. Nothing may use the old names.
"""

from __future__ import annotations

import ast
import doctest
import json
import os
import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import dicetree
from dicetree.solver.game import GameError, PositionError
from dicetree.solver.search import Searcher

ROOT = Path(__file__).resolve().parents[1]
OLD_ROOTS = ("solver", "cli", "cache")
SOURCE_FOLDERS = (*OLD_ROOTS, "dicetree", "tests", "benchmarks", "research", "scripts")
MODULE_PATH = re.compile(rf"(?<![\w./-])(?:{'|'.join(OLD_ROOTS)})(?:\.[A-Za-z_]\w*)+")


def _folder_modules() -> dict[str, Path]:
    """Every module of the package folders by its folders' names (``solver/game.py``: solver, game)."""
    found = {}
    for root in OLD_ROOTS:
        for path in (ROOT / root).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


FOLDER_MODULES = _folder_modules()


def _sources() -> list[Path]:
    """The project's Python files, each once."""
    return sorted(path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def _notebooks() -> list[Path]:
    """The project's notebooks (their code imports the packages as the library's users do)."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):  # not into .venv, .git, build
        subfolders[:] = [name for name in subfolders if not name.startswith(".") and name != "build"]
        found += [Path(folder) / name for name in files if name.endswith(".ipynb")]
    return sorted(found)


def _notebook_code(path: Path) -> str:
    """A notebook's code cells as one module, shell and magic lines left out."""
    cells = json.loads(path.read_text())["cells"]
    lines = [line for cell in cells if cell["cell_type"] == "code" for line in "".join(cell["source"]).splitlines()]
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))


def _old_names_in(path: Path, source: str | None = None) -> list[str]:
    """Imports of an old top-level name, and module paths under one in strings (a registry entry,
    an ``import_module`` argument, a doctest's import or traceback)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text() if source is None else source, str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [m for m in MODULE_PATH.findall(node.value) if ".".join(m.split(".")[:2]) in FOLDER_MODULES]
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                  if name.split(".")[0] in OLD_ROOTS]
    return found


def test_no_module_names_the_old_top_level_packages():
    offenders = [line for path in _sources() for line in _old_names_in(path)]
    offenders += [line for path in _notebooks() for line in _old_names_in(path, _notebook_code(path))]
    assert not offenders, "write dicetree.solver... (one copy of each module):\n" + "\n".join(offenders)


def _declared_packages() -> tuple[dict[str, str], list[str]]:
    """pyproject.toml's package mapping and its list of packages."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return setuptools["package-dir"], setuptools["packages"]


def test_the_import_root_maps_the_top_level_folders_without_links():
    package_dir, packages = _declared_packages()
    assert package_dir == {"dicetree": "dicetree", **{f"dicetree.{root}": root for root in OLD_ROOTS}}
    assert not [path for path in (ROOT / "dicetree").iterdir() if path.is_symlink()]
    on_disk = ["dicetree"] + [f"dicetree.{'.'.join(init.parent.relative_to(ROOT).parts)}"
                              for root in OLD_ROOTS for init in (ROOT / root).rglob("__init__.py")]
    assert sorted(packages) == sorted(on_disk), "list every package in pyproject.toml's [tool.setuptools]"
    for root in OLD_ROOTS:  # this checkout, installed editable
        assert Path(import_module(f"dicetree.{root}").__file__).resolve() == ROOT / root / "__init__.py"


def test_the_root_serves_a_small_public_api():
    assert set(dicetree.__all__) <= set(dir(dicetree))
    assert dicetree.GameError is GameError and dicetree.PositionError is PositionError
    assert dicetree.solver.search.Searcher is Searcher
    assert "rolldown" in dicetree.game_names()
    analysis = dicetree.analyse("rolldown", "d8:5/d6:3 a -/-", depth=1)
    assert isinstance(analysis, dicetree.Analysis) and analysis.best == "d8xd6"
    with pytest.raises(PositionError, match="leading zero"):
        dicetree.analyse(dicetree.load_game("rolldown"), "d6:02/d4:1 a -/-")
    with pytest.raises(GameError, match="stores no exact values"):
        dicetree.probe("dicefights", "anything")
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        dicetree.nothing  # noqa: B018


def _python(code: str, cwd: Path) -> str:
    """``code`` run by a fresh interpreter in ``cwd`` (outside the checkout: the install is used)."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_importing_the_root_loads_no_engine(tmp_path):
    """``dicetree.cli.main`` imports the root first: it must stay light for ``dicetree --help``."""
    loaded = _python("import sys, dicetree; print(sorted(set(sys.modules) & {'numpy', 'scipy', 'networkx', "
                     "'rich', 'dicetree.solver'}))", tmp_path)
    assert loaded.strip() == "[]"


def test_every_module_imports_once_under_dicetree(tmp_path):
    code = ("import pkgutil, sys, dicetree\n"
            "packages = [__import__(f'dicetree.{root}', fromlist=['x']) for root in ('solver', 'cli', 'cache')]\n"
            "names = [p.__name__ for p in packages]\n"
            "names += [m.name for p in packages for m in pkgutil.walk_packages(p.__path__, p.__name__ + '.')]\n"
            "for name in names: __import__(name)\n"
            f"print(len(names)); print(sorted(n for n in sys.modules if n.split('.')[0] in {OLD_ROOTS!r}))")
    count, old = _python(code, tmp_path).splitlines()
    assert int(count) == len(FOLDER_MODULES) and old == "[]"


def test_doctests_are_collected_once_each_from_the_dicetree_modules(pytestconfig):
    """pytest imports a doctest's file under the name its folders give (a second copy
    of ``dicetree.solver.game``): the project's conftest.py collects ``dicetree`` by module names."""
    testpaths = pytestconfig.getini("testpaths")
    assert "dicetree" in testpaths and not set(testpaths) & set(OLD_ROOTS)
    assert "--doctest-modules" in pytestconfig.getini("addopts")
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", "-o",
                                "addopts=", "-q", "--doctest-modules", "dicetree"],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout
    items = [line.split("::", 1)[1] for line in collected.splitlines() if "::" in line]
    finder = doctest.DocTestFinder()
    modules = [dicetree, *(import_module(f"dicetree.{name}") for name in FOLDER_MODULES)]
    expected = [test.name for module in modules for test in finder.find(module) if test.examples]
    assert sorted(items) == sorted(expected) and len(set(items)) == len(items)
    assert all(item.split(".")[0] == "dicetree" for item in items)
