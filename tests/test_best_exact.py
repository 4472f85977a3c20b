"""`dicetree best --exact` for games without endgame tables: the whole state graph, solved."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_dicegeddon_exact_ranks_every_step_with_the_certificate():
    result = run("best", "dicegeddon", "d4:3a,d6:5a/d6:6a a 20", "--exact")
    assert result.exit_code == 0, result.output
    assert "exact: the whole state graph (7,051 states" in result.output and "certified" in result.output
    ranked = [line.split()[1] for line in result.output.splitlines() if line[:3].strip().isdigit()]
    assert ranked == ["A2>1", "A1>1", "D1", "D2"]
    answer = json.loads(run("best", "dicegeddon", "d4:3a/d4:3a a 20", "--exact", "--json").output)
    assert answer["value"] == pytest.approx(64 / 125, abs=1e-12)  # worked out by hand in test_dicegeddon_exact


def test_exact_refuses_too_large_positions_and_simultaneous_games_in_one_line():
    too_big = run("best", "dicegeddon", "--example", "--exact", "--max-states", "1000")
    assert too_big.exit_code == 2 and "more than 1,000 states" in too_big.output
    assert len(too_big.output.strip().splitlines()) == 1
    fights = run("best", "dicefights", "--example", "--exact")
    assert fights.exit_code == 2 and "--exact is not available for Dice Fights" in fights.output
