"""benchmarks/rolldown_tables_effect.py on 2-dice positions against 1-dice tables built here: its
cells count a changed best move, a rerun reads them, and partial tables are refused unless allowed."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
# Seed 15's second position of 2 dice a side, 'd8:4,d20:4/d8:6,d10:5 b -/-', changes its best move
# with 1-die tables (between two moves the table-backed search values alike): at 2 dice a change is
# rare (1 of seed 1's first 40 positions), so the test searches just those two positions.
SEED, POSITIONS = "15", "2"


@pytest.fixture
def effect(tmp_path, monkeypatch):
    """The benchmark's module, its cells kept under ``tmp_path``."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    report = importlib.import_module("report")
    monkeypatch.setattr(report, "CELLS", tmp_path / "cells")
    return importlib.import_module("rolldown_tables_effect")


CHANGED = "d8:4,d20:4/d8:6,d10:5 b -/-"


@pytest.fixture(scope="module")
def one_die_tables(small_rolldown_tables) -> Path:
    """Every 1-die table, and the 2-dice tables of ``CHANGED`` (its exact check; never probed)."""
    return small_rolldown_tables(CHANGED)


def run(effect, tables: Path, out: Path, *extra: str) -> int:
    # The fitted evaluation: CHANGED is the position whose move the tables change under it.
    return effect.main(["--dice", "2", "--positions", POSITIONS, "--seed", SEED, "--tables", str(tables),
                        "--evaluation", "fitted", "--output", str(out), *extra])


def test_cells_count_a_changed_move_and_resume(effect, one_die_tables, tmp_path, capsys):
    assert run(effect, one_die_tables, tmp_path / "first") == 0
    data = json.loads((tmp_path / "first.json").read_text())
    figures = data["summary"]
    rows = [dict(zip(data["columns"], row)) for row in data["positions"]]
    changed = [row for row in rows if row["move with tables"] != row["move without"]]
    assert not data["partial"] and data["tables_stored"] == data["tables_wanted"] == 36
    assert figures["positions"] == int(POSITIONS) and figures["changed"] == len(changed) == 1
    assert figures["changed_ties"] == 1 and changed[0]["position"] == CHANGED
    low, high = figures["changed_interval"]
    assert low <= figures["changed_share"] <= high
    # complete tables answer every 1-die probe; the 2-dice tables stored are not probed
    assert figures["reachable_probes"] == figures["table_hits"] > 0
    assert figures["table_probes"] >= figures["reachable_probes"]
    assert all(row["worth of the change"] >= 0 for row in changed)  # as the table-backed search values them
    example = data["example"]
    ranking = dict(example["tables"]["ranking"])
    assert example["tables"]["move"] != example["plain"]["move"]
    assert ranking[example["tables"]["move"]] >= ranking[example["plain"]["move"]]
    assert "Example, the first position whose best move changed" in (tmp_path / "first.md").read_text()
    exact = data["exact_check"]  # only CHANGED has its own tables: both choices are exact best (a tie)
    assert exact["positions"] == exact["changed"] == 1 and exact["changed_better"] == exact["changed_worse"] == 0
    assert exact["exact_best_with_tables"] == exact["exact_best_without"] == 1

    capsys.readouterr()
    assert run(effect, one_die_tables, tmp_path / "again") == 0
    assert capsys.readouterr().out.count("kept from an earlier run") == int(POSITIONS)
    assert json.loads((tmp_path / "again.json").read_text())["positions"] == data["positions"]


def test_summary_counts_a_changed_move(effect):
    def searched(move: str, ranking: tuple) -> object:
        return effect.Searched(move, ranking[0][1], ranking, False, 0.1, 10, 5, 2, 2)

    same = effect.Effect("p1", searched("a", (("a", 0.6), ("b", 0.5))), searched("a", (("a", 0.55), ("b", 0.5))), 1.0)
    moved = effect.Effect("p2", searched("a", (("a", 0.7), ("b", 0.6))), searched("b", (("b", 0.65), ("a", 0.6))),
                          1.0)
    figures = effect.summary([same, moved])
    assert figures["changed"] == 1 and figures["changed_share"] == 0.5 and figures["changed_ties"] == 0
    assert figures["largest_worth_of_change"] == pytest.approx(0.1)
    assert figures["largest_abs_value_change"] == pytest.approx(0.05)
    assert figures["table_probes"] == 10 and figures["table_hits"] == 4


def test_partial_tables_are_refused_unless_allowed(effect, tmp_path, capsys):
    root = tmp_path / "some"
    Tablebase(TableStore(root)).build(roots=[Signature((4,), (6,))])  # two of the 36 one-die tables
    assert run(effect, root, tmp_path / "refused") == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "not all stored (34 of 36 missing" in error and "--allow-partial" in error
    assert not (tmp_path / "refused.json").exists()

    assert run(effect, root, tmp_path / "partial", "--allow-partial") == 0
    data = json.loads((tmp_path / "partial.json").read_text())
    assert data["partial"] and data["tables_stored"] == 2
    assert (tmp_path / "partial.md").read_text().startswith("# ") and "(partial tables)" in (
        tmp_path / "partial.md").read_text().splitlines()[0]
    assert data["summary"]["table_hits"] <= data["summary"]["reachable_probes"]


def test_two_processes_give_the_serial_run_s_choices(effect, one_die_tables, tmp_path, monkeypatch):
    """--jobs 2 searches the positions in worker processes; each position's choices and values are the
    ones a serial run finds (the seconds differ)."""
    assert run(effect, one_die_tables, tmp_path / "serial") == 0
    monkeypatch.setattr(importlib.import_module("report"), "CELLS", tmp_path / "other-cells")
    assert run(effect, one_die_tables, tmp_path / "parallel", "--jobs", "2") == 0

    def choices(name: str) -> list:
        data = json.loads((tmp_path / f"{name}.json").read_text())
        return [row[:6] for row in data["positions"]]

    assert choices("parallel") == choices("serial")
    assert len(list((tmp_path / "other-cells").rglob("*.json"))) == int(POSITIONS)
