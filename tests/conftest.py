"""Fixtures shared by the test modules, and the guard that keeps every test out of the user's folders.

The whole session runs with ``$DICETREE_TABLES`` and ``$XDG_CACHE_HOME`` pointing into a temporary
folder (set before any test, so commands run in subprocesses inherit them): a test that forgets to
pass ``--tables`` writes there, never into the user's cache. At the end of the session the user's
real cache folder is compared with what it held at the start, and any change fails the run.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

REAL_CACHE = Path(os.environ.get("XDG_CACHE_HOME", "").strip() or Path.home() / ".cache") / "dicetree"
"""The user's cache folder for dicetree, as it was before the session changed the environment."""
SESSION_CACHE = Path(tempfile.mkdtemp(prefix="dicetree-test-cache-"))
"""Where this session's tests keep tables (the environment below points every process here)."""
os.environ["DICETREE_TABLES"] = str(SESSION_CACHE / "dicetree" / "tables")
os.environ["XDG_CACHE_HOME"] = str(SESSION_CACHE)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    # A suite started in the background by a non-interactive shell inherits SIGINT ignored, and so
    # would every command a test starts: the Ctrl-C tests would then interrupt nothing.
    signal.signal(signal.SIGINT, signal.default_int_handler)


def cache_snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time (empty if there is none)."""
    if not folder.is_dir():
        return {}
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in folder.rglob("*") if path.is_file()}


_REAL_CACHE_AT_START = cache_snapshot(REAL_CACHE)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if any test wrote into the user's real cache folder."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checks once for all
        return
    changed = sorted(set(cache_snapshot(REAL_CACHE).items()) ^ set(_REAL_CACHE_AT_START.items()))
    if changed:
        names = sorted({name for name, _ in changed})
        print(f"\nerror: the tests wrote into the user's cache {REAL_CACHE}: {', '.join(names[:10])}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
