"""research/dicecards_simultaneous.py: recording in turn against recording at once, exactly, on small games."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from dicetree.solver.games.dicecards.game import DiceCards

SCRIPT = Path(__file__).resolve().parent.parent / "research" / "dicecards_simultaneous.py"
LATE_SOLITAIRE = "SOL=R5,B4,B5,R4,B3,R2,B1,R3,B2,R1"


def load_benchmark():
    spec = importlib.util.spec_from_file_location("research_dicecards_simultaneous", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_seeing_the_others_record_is_worth_nothing_where_each_roll_has_a_pure_equilibrium():
    benchmark = load_benchmark()
    game = DiceCards(players=2, objective="win")
    found = benchmark.TwoSeats(game, "HOP=- DBL=- t0", "HOP=- DBL=- t0", 3).solve()
    assert found["in turn"] == pytest.approx(0.5) and found["at once"] == pytest.approx(0.5)
    assert found["reversed"] == pytest.approx(0.5) and found["mixed"] == 0


def test_a_matching_pennies_roll_gives_the_later_seat_an_edge():
    benchmark = load_benchmark()
    game = DiceCards(players=2, objective="win")
    found = benchmark.TwoSeats(game, f"{LATE_SOLITAIRE} HOP=1 t0", f"{LATE_SOLITAIRE} HOP=- t0", 3).solve()
    assert found["in turn"] < found["at once"] - 1e-4 and found["at once"] < found["reversed"] - 1e-4
    assert found["mixed"] > 0


def test_the_in_turn_recursion_is_the_engines_exact_value():
    benchmark = load_benchmark()
    mine, engine = benchmark.engine_check(DiceCards(players=2, objective="win"), "HOP=- t0", "DBL=- t0", 3)
    assert mine == pytest.approx(engine, abs=1e-12)
