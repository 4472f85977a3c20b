"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """A fresh endgame-table folder for the test, as ``$DICETREE_TABLES`` (what the CLI reads)."""
    monkeypatch.setenv("DICETREE_TABLES", str(tmp_path / "tables"))
    return tmp_path / "tables"
