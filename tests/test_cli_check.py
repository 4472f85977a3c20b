"""``dicetree check``: a position read without searching, or its specific error on one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.games import game_names, load_game


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_check_gives_the_canonical_form_the_turn_and_the_moves():
    result = run("check", "rolldown", "d8:5/d6:3  a -/-")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Position  d8:5/d6:3 a -/-", "Turn      A to move", "A has 3 legal moves: d8xd6, roll a.d8, roll b.d6"]


@pytest.mark.parametrize("game", game_names())
def test_check_reads_every_games_example(game):
    result = run("check", game, load_game(game).example_position(), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["game"] == game and answer["turn"] in ("decision", "simultaneous")
    assert all(answer["moves"].values())


def test_check_reads_hidden_hands_as_best_does():
    answer = json.loads(run("check", "rolldown", "d8:3/d6:5 a K/?", "--json").stdout)
    assert "all 14 possible hands" in answer["hidden_information"]


@pytest.mark.parametrize("position, phrase", [
    ("d8:3/d6:5 a ?/K", "A's own hand is unknown"),
    ("d6:7/d4:3 a -/-", "cannot show 7"),
])
def test_check_refuses_a_bad_position_in_one_line(position, phrase):
    result = run("check", "rolldown", position)
    assert result.exit_code == 2 and phrase in result.output
    assert len(result.output.strip().splitlines()) == 1
