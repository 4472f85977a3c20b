"""The `dicetree` command as a user meets it: answers, JSON, notation help and one-line errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_best_ranks_every_move_with_values_and_losses():
    result = run("best", "rolldown", "d6:2,d8:5/d4:3,d6:6 a QK/-", "--depth", "2")
    assert result.exit_code == 0, result.output
    assert "d8xd4" in result.output and "Principal line" in result.output
    assert "depth 2" in result.output


def test_best_json_has_the_documented_fields():
    result = run("best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "2", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert {"moves", "best", "value", "depth", "nodes"} <= set(answer)
    assert answer["best"] == "d8xd6" and answer["value"] == 1.0
    assert answer["moves"][0] == {"move": "d8xd6", "value": 1.0, "loss": 0.0, "tied": True}
    assert all(m["loss"] >= 0 for m in answer["moves"])
    values = [m["value"] for m in answer["moves"]]
    assert values == sorted(values, reverse=True)


def test_best_on_the_full_round_start_answers_within_its_time():
    result = run("best", "rolldown", "--example", "--time", "1", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["depth"] >= 1 and len(answer["moves"]) > 50


def test_hidden_hand_is_averaged_and_said_so():
    result = run("best", "rolldown", "d8:3/d6:5 a K/?", "--depth", "1", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert "all 14 possible hands" in answer["hidden_information"]


def test_sampled_hidden_hands_say_how_many():
    result = run("best", "rolldown", "d8:3/d6:5 a K/???", "--depth", "1", "--hands-exact", "10",
                 "--hand-samples", "5", "--json")
    assert result.exit_code == 0, result.output
    assert "5 sampled hands (seed 0)" in json.loads(result.stdout)["hidden_information"]


def test_notation_help_has_examples():
    result = run("notation", "rolldown")
    assert result.exit_code == 0
    assert "Examples:" in result.output and "d6:2,d8:5/d4:3,d6:6 a QK/-" in result.output


@pytest.mark.parametrize(
    "position, phrase",
    [
        ("d6:7/d4:3 a -/-", "cannot show 7"),
        ("d6:2,d8:5/d4:3 a -/-", "must be equal"),
        ("d6:2,d6:5/d4:3,d8:1 a -/-", "listed twice"),
        ("d6:2/d4:3 a KKK/- - single 0-0 1 K/-", "4 x King"),
        ("d6:2/d4:3 a -/- - single 0-0 1 -/- a - extra", "unknown field 'extra'"),
        ("d6:2/d4:3 c -/-", "mover must be"),
        ("d6:2/d4:3", "at least 3 fields"),
    ],
)
def test_bad_positions_get_one_line_and_exit_2(position, phrase):
    result = run("best", "rolldown", position, "--depth", "1")
    assert result.exit_code == 2
    assert phrase in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_points_objective_refused_for_a_single_round():
    result = run("best", "rolldown", "d8:5/d6:3 a -/-", "--rule", "objective=points", "--depth", "1")
    assert result.exit_code == 2 and "keeps no points" in result.output


def test_unknown_game_is_a_usage_error():
    result = run("best", "chess", "whatever")
    assert result.exit_code == 2
