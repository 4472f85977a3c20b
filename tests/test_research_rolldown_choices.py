"""research/rolldown_evaluation_choices.py's arithmetic on a hand-made set of moves: the move values
and depth-1 choices, and the loss's gradient (against finite differences)."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

RESEARCH = Path(__file__).resolve().parent.parent / "research"


@pytest.fixture
def choices(monkeypatch):
    monkeypatch.syspath_prepend(str(RESEARCH))
    return importlib.import_module("rolldown_evaluation_choices")


def two_parents(module):
    """Parent 0: a capture worth 0.6 (fixed) and a reroll of two faces; parent 1: two rerolls."""
    rng = np.random.default_rng(3)
    return module.Choices(
        rows=rng.normal(size=(6, 3)), row_move=np.array([1, 1, 2, 2, 3, 3]), prob=np.full(6, 0.5),
        sign=np.array([-1.0, -1.0, -1.0, -1.0, 1.0, 1.0]), flip=np.array([1.0, 1.0, 1.0, 1.0, 0.0, 0.0]),
        label=rng.uniform(size=6), fixed=np.array([0.6, 0.0, 0.0, 0.0]), exact=np.array([0.62, 0.5, 0.4, 0.45]),
        move_parent=np.array([0, 0, 1, 1]), parents=2)


def test_move_values_and_depth_one_choices(choices):
    c = two_parents(choices)
    p = np.array([0.2, 0.4, 0.5, 0.5, 0.4, 0.8])
    q = choices.move_values(c, p)
    assert q == pytest.approx([0.6, 0.7, 0.5, 0.6])  # reroll: 1 - mean of the opponent's chances
    found = choices.choice_figures(c, q)
    assert found["parents"] == 2 and found["exact_share"] == 0.5  # parent 0 takes the reroll (exact 0.5), 1 its best
    assert found["mean_loss"] == pytest.approx((0.62 - 0.5 + 0.45 - 0.45) / 2)


def test_the_gradient_matches_finite_differences(choices):
    c = two_parents(choices)
    mean, scale = np.zeros(3), np.ones(3)
    start = np.array([0.1, -0.2, 0.3, 0.05])
    objective = choices.Objective(c, mean, scale, start, weight=50.0, window=0.1, decay=0.01)
    theta = np.array([0.3, 0.4, -0.5, 0.2])
    _, grad = objective(theta)
    step = 1e-6
    numeric = [(objective(theta + step * e)[0] - objective(theta - step * e)[0]) / (2 * step) for e in np.eye(4)]
    assert grad == pytest.approx(numeric, rel=1e-5, abs=1e-8)
