"""Exact leaves with an error (solver/games/rolldown/exact_leaves.py) and the benchmark's ``oracle-noise``
and ``oracle-mix`` evaluations: no error gives an exact best move every time, the noise is fixed per
position and seed and stays in the value bounds, the mix's ends are the tables and the model."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from dicetree.cache.store import TableStore
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.exact_leaves import ExactLeaves
from dicetree.solver.games.rolldown.fitted import DATA_FILE, load_model
from dicetree.solver.games.rolldown.state import QUEEN_SECOND
from dicetree.solver.games.rolldown.tablebase import Tablebase

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
POSITION = "d8:4,d20:4/d8:6,d10:5 b -/-"
QUEEN = "d4:3,d12:1/d8:7,d10:7 b -/Q"  # seed 3's positions of 2 dice, one card: the one with a Queen


@pytest.fixture(scope="module")
def tables(small_rolldown_tables) -> Path:
    """Every 1-die table and the 2-dice tables of :data:`POSITION`'s closure (the benchmark adds more)."""
    return small_rolldown_tables(POSITION)


def test_noise_is_fixed_per_position_and_seed_and_bounded(tables):
    state = Rolldown().parse(POSITION)
    base = Tablebase(TableStore(tables))
    one, again, other = (ExactLeaves(base, noise=0.3, seed=seed) for seed in (1, 1, 2))
    assert one.estimate(state, 1) == again.estimate(state, 1) != other.estimate(state, 1)
    assert one.normal(state, 0) != one.normal(state, 1)
    wide = ExactLeaves(base, noise=50.0)
    assert wide.estimate(state, 1) in (0.0, 1.0)  # clipped to the bounds
    exact = ExactLeaves(base).estimate(state, 1)
    assert exact == pytest.approx(base.probe(state))  # b moves: the table's value is b's
    first = one.estimate(state, 1)
    assert one.leaves == 2 and one.mean_abs_error == pytest.approx(abs(first - exact), rel=1e-9)
    one.reset()
    assert (one.leaves, one.mean_abs_error) == (0, 0.0)


def test_mix_runs_from_the_tables_to_the_model(tables):
    state = Rolldown().parse(POSITION)
    base = Tablebase(TableStore(tables))
    model = load_model().estimate(state, 1)
    exact = ExactLeaves(base).estimate(state, 1)
    assert ExactLeaves(base, mix=1.0).estimate(state, 1) == pytest.approx(model, abs=1e-12)
    assert ExactLeaves(base, mix=0.25).estimate(state, 1) == pytest.approx(exact + 0.25 * (model - exact))
    with pytest.raises(GameError, match="noise or a model"):
        ExactLeaves(base, noise=0.1, mix=0.5)


def test_a_queen_decision_is_valued_one_decision_deeper(tables):
    game = Rolldown()
    state = game.parse(QUEEN)
    base = Tablebase(TableStore(tables))
    base.ensure(state)
    leaves = ExactLeaves(base)
    queen = [(a, v) for a, v in base.move_values(state) if "Q" in game.action_name(state, a)]
    assert queen
    for action, value in queen:
        rolled = game.apply(state, action)
        seconds = [(game.apply(rolled, outcome), p) for outcome, p in game.chance_outcomes(rolled)]
        assert all(game.current_player(s) == state.mover and s.phase == QUEEN_SECOND for s, _ in seconds)
        assert sum(p * leaves.estimate(s, 1) for s, p in seconds) == pytest.approx(value, abs=1e-9)


def test_a_leaf_no_table_covers_is_refused(tables):
    leaves = ExactLeaves(Tablebase(TableStore(tables)))
    with pytest.raises(GameError, match="no table covers"):
        leaves.estimate(Rolldown().parse("d4:1,d6:2,d8:3/d4:4,d6:5,d8:6 a -/-"), 0)


def test_the_benchmark_with_exact_leaves_always_chooses_an_exact_best(tables, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    benchmark = importlib.import_module("rolldown_evaluation")
    out = tmp_path / "leaf"
    benchmark.main(["--dice", "2", "--positions", "4", "--depths", "1,2", "--seed", "3", "--tables", str(tables),
                    "--evaluations", "oracle-noise:0,oracle-mix:0,oracle-noise:0.05,fitted,oracle-mix:1:again",
                    "--model", f"again={DATA_FILE}", "--output", str(out)])
    results = json.loads(out.with_suffix(".json").read_text())["results"]
    benchmark.main(["--dice", "2", "--mover-cards", "1", "--positions", "6", "--depths", "1,2", "--seed", "3",
                    "--tables", str(tables), "--evaluations", "oracle-noise:0", "--output", str(tmp_path / "card")])
    with_card = json.loads((tmp_path / "card.json").read_text())["results"]  # one position holds a Queen
    assert all(found["exact_share"] == 1.0 for found in with_card.values())
    for depth in (1, 2):
        for name in ("oracle-noise:0", "oracle-mix:0"):
            found = results[f"{name} depth {depth}"]
            assert found["exact_share"] == 1.0 and found["mean_loss"] == 0.0
            assert found["mean_abs_leaf_error"] == 0.0
        assert results[f"oracle-noise:0.05 depth {depth}"]["mean_abs_leaf_error"] > 0.0
        fitted, again = results[f"fitted depth {depth}"], results[f"oracle-mix:1:again depth {depth}"]
        assert again["exact"] == fitted["exact"] and again["mean_loss"] == pytest.approx(fitted["mean_loss"])
        assert fitted["mean_abs_leaf_error"] is None and again["mean_abs_leaf_error"] > 0.0
