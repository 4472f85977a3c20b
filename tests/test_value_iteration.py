"""Fitted value iteration's checkpoints and time limit (``dicetree.solver.value_iteration``)."""

from __future__ import annotations

import numpy as np

from dicetree.solver.mlp import Perceptron
from dicetree.solver.value_iteration import Lookahead, value_iteration


class OneMove:
    """Every position has one move, worth 0.7 exactly (no child to value)."""

    def encode(self, rows: np.ndarray) -> np.ndarray:
        return np.ones((len(rows), 2))

    def lookahead(self, rows: np.ndarray) -> Lookahead:
        none = np.empty(0)
        return Lookahead(np.arange(len(rows)), np.full(len(rows), 0.7), none.astype(np.int64), none, none,
                         np.empty((0, 1)))


def test_a_stopped_run_restarted_with_no_time_left_returns_its_last_saved_sweep(tmp_path):
    rows = np.zeros((8, 1), dtype=np.int64)
    net = Perceptron.initial([2, 3, 1], np.random.default_rng(0))
    checkpoint = tmp_path / "run.npz"
    first = value_iteration(OneMove(), rows, net, np.random.default_rng(0), sweeps=3, epochs=5, rate=1e-2,
                            tolerance=0.0, checkpoint=checkpoint)
    again = value_iteration(OneMove(), rows, net, np.random.default_rng(0), sweeps=10, epochs=5, rate=1e-2,
                            tolerance=0.0, checkpoint=checkpoint, time_limit=0.0)
    assert [s.sweep for s in again.sweeps] == [1, 2, 3]
    assert np.array_equal(again.net.params, first.net.params)
    assert not np.array_equal(again.net.params, net.params)  # the saved network, not the starting one
    assert not again.converged
