"""research/rolldown_fivedice.py's arithmetic on hand-made values: errors, biases and the paired difference
against a reference, rows without a reference left out, and the positions it samples."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

RESEARCH = Path(__file__).resolve().parent.parent / "research"


@pytest.fixture
def fivedice(monkeypatch):
    monkeypatch.syspath_prepend(str(RESEARCH))
    monkeypatch.syspath_prepend(str(RESEARCH.parent / "benchmarks"))
    return importlib.import_module("rolldown_fivedice")


ROWS = [
    {"values": {"network 0": 0.60, "fitted 0": 0.50, "fitted 4": 0.55, "network 4": 0.58}, "cpu_seconds": {}},
    {"values": {"network 0": 0.30, "fitted 0": 0.45, "fitted 4": 0.40}, "cpu_seconds": {}},
]


def test_error_and_bias_against_a_reference(fivedice):
    found = fivedice.compare(ROWS, "network 0", "fitted 4")
    assert found["abs"]["mean"] == pytest.approx((0.05 + 0.10) / 2)
    assert found["bias"]["mean"] == pytest.approx((0.05 - 0.10) / 2)
    assert found["abs"]["low"] < found["abs"]["mean"] < found["abs"]["high"]


def test_rows_without_the_reference_are_left_out(fivedice):
    found = fivedice.compare(ROWS, "fitted 0", "network 4")
    assert found["abs"]["n"] == 1 and found["bias"]["mean"] == pytest.approx(-0.08)
    assert found["abs"]["high"] == float("inf")  # one position: no spread, no interval


def test_paired_difference_of_absolute_errors(fivedice):
    found = fivedice.paired_abs(ROWS, "network 0", "fitted 0", "fitted 4")
    assert found["mean"] == pytest.approx(((0.05 - 0.05) + (0.10 - 0.05)) / 2)


def test_sampled_positions_have_five_dice_a_side_and_the_cards_asked_for(fivedice):
    states = fivedice.positions(seed=3, count=5, mover_cards=1)
    assert states == fivedice.positions(seed=3, count=5, mover_cards=1)  # seeded
    for state in states:
        assert [sum(1 for face in side if face) for side in state.dice] == [5, 5]
        assert len(state.hands[state.mover]) == 1 and not state.hands[1 - state.mover]
    assert all(not any(s.hands) for s in fivedice.positions(seed=3, count=5, mover_cards=0))
