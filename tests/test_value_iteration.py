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


class Piles:
    """A position is a pile of 0..3 (one-hot); every one has one move worth 0.5, and anchors give exact values."""

    def encode(self, rows: np.ndarray) -> np.ndarray:
        return np.eye(4)[rows[:, 0]]

    def lookahead(self, rows: np.ndarray) -> Lookahead:
        none = np.empty(0)
        return Lookahead(np.arange(len(rows)), np.full(len(rows), 0.5), none.astype(np.int64), none, none,
                         np.empty((0, 1)))


def test_anchors_drawn_afresh_are_fitted_in_place_of_the_first_ones_and_their_error_is_measured_before_fitting():
    rows = np.zeros((64, 1), dtype=np.int64)
    first = (np.full((64, 1), 1), np.full(64, 0.1))  # only the first sweep sees pile 1
    drawn = []

    def fresh_anchors(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        drawn.append(rng.integers(2, 4, (64, 1)))  # piles 2 and 3, worth 0.9
        return drawn[-1], np.full(64, 0.9)

    net = Perceptron.initial([4, 6, 1], np.random.default_rng(0))
    kept = value_iteration(Piles(), rows, net, np.random.default_rng(1), anchors=first, sweeps=12, epochs=10,
                           rate=3e-2, tolerance=0.0)
    afresh = value_iteration(Piles(), rows, net, np.random.default_rng(1), anchors=first, sweeps=12, epochs=10,
                             rate=3e-2, tolerance=0.0, fresh_anchors=fresh_anchors)
    assert len(drawn) == 11  # every sweep after the first
    piles = Piles().encode(np.arange(4)[:, None])
    assert abs(afresh.net.probabilities(piles)[2] - 0.9) < 0.05
    assert abs(kept.net.probabilities(piles)[2] - 0.9) > 0.2  # fixed anchors never show pile 2
    # the second sweep's anchors are new: its error is the network's before fitting them, far from 0.9 at first
    assert afresh.sweeps[1].anchor_error > 0.2 > afresh.sweeps[-1].anchor_error
