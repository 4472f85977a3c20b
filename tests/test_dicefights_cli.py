"""`dicetree best dicefights` and `dicetree notation dicefights` as a user meets them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main

ENDGAME = "3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_best_shows_each_choice_and_the_optimal_mixed_strategy():
    result = run("best", "dicefights", ENDGAME, "--depth", "1")
    assert result.exit_code == 0, result.output
    assert "A, B choose at once" in result.output
    assert "A  value" in result.output and "B  value" in result.output
    assert "optimal mixed strategy: roll 2a 70.2%, roll 1d+2g 29.8%" in result.output
    assert "probability" in result.output and "exact zero-sum equilibrium" in result.output


def test_best_json_has_strategies_that_add_up():
    result = run("best", "dicefights", ENDGAME, "--depth", "1", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["node"] == "simultaneous" and answer["depth"] == 1
    for player in answer["players"]:
        assert sum(player["strategy"].values()) == pytest.approx(1)
        assert {"move", "value", "loss", "tied", "probability"} == set(player["moves"][0])
    assert answer["players"][0]["value"] + answer["players"][1]["value"] == pytest.approx(1)


def test_best_on_the_example_within_its_time():
    result = run("best", "dicefights", "--example", "--time", "1", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["depth"] >= 1


def test_rule_options_reach_the_game():
    result = run("best", "dicefights", "20:12:5:111 20:3:5:111 15:7:5:111 buy", "--depth", "1",
                 "--rule", "players=3", "--rule", "race=split")
    assert result.exit_code == 0, result.output
    assert "paranoid reduction" in result.output and "C  value" in result.output


@pytest.mark.parametrize(
    "args, phrase",
    [
        (["20:0:5:111 20:0:5:111 20:0:5:111 roll"], "chance acts next"),  # read as three players
        (["21:0:5:111 20:0:5:111 roll"], "Life is 21"),
        (["20:0:5:111 20:0:5:111 roll"], "chance acts next"),
        (["--example", "--rule", "players"], "NAME=VALUE"),
        (["--example", "--rule", "colour=red"], "dicefights has no rule option 'colour'"),
        (["--example", "--rule", "faces=/no/such/file.json"], "cannot read the face-layout file"),
        (["--example", "--rule", "ace=printed"], "dicefights has no rule option 'ace'"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args, phrase):
    result = run("best", "dicefights", *args, "--depth", "1")
    assert result.exit_code == 2
    assert phrase in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_notation_help_states_the_assumption_and_has_examples():
    result = run("notation", "dicefights")
    assert result.exit_code == 0
    assert "ASSUMPTION" in result.output and "Examples:" in result.output
    assert "20:0:5:111 20:0:5:111 roll" in result.output


def test_rolldown_is_still_answered_by_expectiminimax():
    result = run("best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "1")
    assert result.exit_code == 0 and "Principal line" in result.output
    assert run("best", "rolldown", "d8:5/d6:3 a -/-", "--rule", "x=1").exit_code == 2


def test_a_position_beginning_with_a_dash_gets_the_games_own_message():
    """Audit (issue 10): this used to be click's "No such option". Life -3 is refused because only a
    finished game keeps a Life below 0, and the same Life in a finished game is a position."""
    result = run("best", "dicefights", "-3:0:5:111 20:0:5:111 roll", "--depth", "1")
    assert result.exit_code == 2 and "No such option" not in result.output
    assert result.output.strip() == ("error: A's Life is -3: 1 to 20 while in the game, 0 once out "
                                     "(only a finished game, phase over, keeps a Life below 0)")
    finished = run("best", "dicefights", "-3:0:5:111 20:0:5:111 over:2", "--depth", "1")
    assert "No such option" not in finished.output and "Life is -3" not in finished.output
    assert "Traceback" not in finished.output


def test_a_wrong_winner_gets_one_line_naming_the_right_one():
    result = run("best", "dicefights", "0:0:5:111 -2:0:5:111 over:2", "--depth", "1")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "less dead than B (Life -2)" in result.output and result.output.strip().endswith("write over:1")
