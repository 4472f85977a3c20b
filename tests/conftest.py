"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """A fresh endgame-table folder for the test, as ``$DICETREE_TABLES`` (what the CLI reads)."""
    monkeypatch.setenv("DICETREE_TABLES", str(tmp_path / "tables"))
    return tmp_path / "tables"


@pytest.fixture(scope="session")
def small_rolldown_tables(tmp_path_factory) -> Callable[[str], Path]:
    """``build(position)``: a new table folder holding every 1-die RolldownBeta table and the tables of
    ``position``'s closure (seconds for 2 dice a side)."""
    from dicetree.cache.store import TableStore
    from dicetree.solver.games.rolldown import Rolldown
    from dicetree.solver.games.rolldown.tablebase import Tablebase
    from dicetree.solver.games.rolldown.tables import Signature

    def build(position: str) -> Path:
        root = tmp_path_factory.mktemp("tables")
        base = Tablebase(TableStore(root))
        base.build(max_dice=1)
        base.build(roots=[Signature.of_state(Rolldown().parse(position))])
        return root

    return build
