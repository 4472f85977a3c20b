"""Endgame-table builds that resume and run on dask: a build killed by SIGKILL at any moment and
started again ends with the tables of a build that ran through, and a 2-worker LocalCluster builds
the same tables as this process."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dicetree.cache.packs import PackStore
from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import all_signatures, plan_batches

REPO = Path(__file__).resolve().parent.parent
GAME = "rolldown-online"


def stored_tables(root: Path) -> dict[str, str]:
    """Every stored table's name and checksum, after checking every value against it."""
    packs = PackStore(root)
    assert packs.check(GAME) == []
    return {name: entry.sha256 for info in packs.packs(GAME) for name, entry in info.entries.items()}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """Every table up to 2 dice a side, built through in this process."""
    root = tmp_path_factory.mktemp("reference")
    stats = Tablebase(TableStore(root)).build(max_dice=2)
    assert stats.converged and len(stats.batches) == sum(len(level) for level in plan_batches(all_signatures(2)))
    tables = stored_tables(root)
    assert len(tables) == len(all_signatures(2)) == 261
    return tables


BUILD = "from dicetree.cache.store import TableStore; from dicetree.solver.games.rolldown.tablebase import Tablebase; " \
        "import sys; Tablebase(TableStore(sys.argv[1])).build(max_dice=2)"


def test_a_build_killed_at_any_moment_resumes_to_the_same_tables(tmp_path, reference):
    root = tmp_path / "tables"
    for wanted in (5, 60):  # killed twice, once early and once well into the two-dice tables
        proc = subprocess.Popen([sys.executable, "-c", BUILD, str(root)], cwd=REPO)
        deadline = time.monotonic() + 120
        while len(list(root.rglob("*.dtp"))) < wanted and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        partial = stored_tables(root)
        assert 0 < len(partial) < len(reference)
        assert all(reference[name] == checksum for name, checksum in partial.items())
    stats = Tablebase(TableStore(root)).build(max_dice=2)
    assert 0 < len(stats.batches) < 141  # only what was missing
    assert stored_tables(root) == reference
    assert not list(root.rglob(".*.tmp"))  # the build removed what a killed writer left


def test_a_local_cluster_builds_the_same_tables(tmp_path, reference):
    root = tmp_path / "tables"
    seen = []
    stats = Tablebase(TableStore(root)).build(max_dice=2, workers=2,
                                               progress=lambda done, total, batch: seen.append((done, total)))
    assert stats.converged and seen[-1][0] == seen[-1][1] == stats.positions == 2_020_000
    assert stored_tables(root) == reference
    again = Tablebase(TableStore(root)).build(max_dice=2, workers=2)
    assert again.batches == [] and again.positions == 0  # nothing left to do: no task run


def test_an_unreachable_scheduler_is_one_line(tables):
    from click.testing import CliRunner

    from dicetree.cli.main import main

    result = CliRunner().invoke(main, ["tablebase", "build", "rolldown", "--dice", "1", "--scheduler", "nonsense:::"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    plan, error = result.output.splitlines()  # the plan is said before the work starts, then the one error line
    assert plan.startswith("Building 36 tables") and error.startswith("error: cannot reach the dask cluster nonsense:::")


def test_tables_stored_before_endless_play_was_scored_are_solved_again_from_their_values(tmp_path, monkeypatch):
    import numpy as np

    root = tmp_path / "tables"
    first = Tablebase(TableStore(root))
    first.build(max_dice=2)
    before = {sig: np.array(first.tables()[sig]) for sig in all_signatures(2)}
    assert len(Tablebase(TableStore(root)).build(max_dice=2).batches) == 0  # settled: nothing to do
    # a folder built before the check: its packs' metadata lacks "endless"
    real = PackStore.metadata
    monkeypatch.setattr(PackStore, "metadata", lambda self, *a: {k: v for k, v in (real(self, *a) or {}).items()
                                                                 if k != "endless"})
    again = Tablebase(TableStore(root)).build(max_dice=2)
    assert len(again.batches) == 141 and again.converged
    assert max(b.updates32 for b in again.batches) == 0  # started from the stored values, in float64
    monkeypatch.setattr(PackStore, "metadata", real)
    after = Tablebase(TableStore(root))
    assert max(float(np.abs(np.array(after.tables()[sig]) - before[sig]).max()) for sig in before) < 1e-9
