"""Doctests collected from the import root: every module once, imported as ``dicetree.solver.game``.

``dicetree/`` holds only the root's ``__init__.py``; pyproject.toml maps ``dicetree.solver`` (``cli``,
``cache``) to the top-level folders. pytest would import a doctest's file under the name its folders
give (``solver.game``), a second copy of the module with classes of its own, so the ``dicetree``
test path is collected here instead: the root and each module of its subpackages, imported by
their ``dicetree`` names (``tests/test_packaging.py`` checks that each is collected once).

The tests' numba cache (RolldownBeta's compiled search) is a temporary folder, never the user's cache:
one shared by test runs, so that only the first run compiles. The suite searches in Python unless a test
asks for the compiled search (``Searcher(compiled=True)``: tests/test_rolldown_compiled.py).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from _pytest.doctest import DoctestModule

IMPORT_ROOT = Path(__file__).resolve().parent / "dicetree"

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "dicetree-tests-numba"))
os.environ.setdefault("DICETREE_SEARCH", "python")


def import_root_modules() -> Iterator[ModuleType]:
    """The root and every module below it, each imported by its ``dicetree...`` name."""
    root = importlib.import_module("dicetree")
    yield root
    for name in ("solver", "cli", "cache"):
        package = importlib.import_module(f"dicetree.{name}")
        yield package
        for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            yield importlib.import_module(found.name)


class ImportedDoctestModule(DoctestModule):
    """A module's doctests, the module imported by name rather than from its file's folders."""

    module_name: str

    def _getobj(self) -> ModuleType:
        return importlib.import_module(self.module_name)


class ImportRootDoctests(pytest.Directory):
    """``dicetree/`` as a test path: the doctests of every module under the import root."""

    def collect(self) -> Iterator[ImportedDoctestModule]:
        for module in import_root_modules():
            item = ImportedDoctestModule.from_parent(self, path=Path(module.__file__ or ""))
            item.module_name = module.__name__
            yield item


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Directory | None:
    if path == IMPORT_ROOT and parent.config.option.doctestmodules:
        return ImportRootDoctests.from_parent(parent, path=path)
    return None
