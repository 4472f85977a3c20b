"""One tool, not five (issue 27): the same words, options and messages in every game and command."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.cli.play import format_ranking
from dicetree.solver.advice import advise, choices_of
from dicetree.solver.games import game_names, load_game


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_help_reaches_subcommands():
    assert run("help", "tablebase", "build").exit_code == 0
    shown = run("help", "tablebase", "build", "rolldown")
    assert shown.exit_code == 0 and "--dice" in shown.output
    unknown = run("help", "tablebase", "nope")
    assert unknown.exit_code == 2 and "no command 'nope' in `dicetree tablebase`" in unknown.output


def test_building_tables_of_a_game_without_them_says_so():
    result = run("tablebase", "build", "dicegeddon")
    assert result.exit_code == 2
    assert "Dicegeddon has no stored exact values to build: the games with them are dicecards, rolldown" in result.output


def test_the_probes_suggested_build_keeps_the_tables_folder(tmp_path):
    result = run("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-", "--tables", str(tmp_path))
    assert result.exit_code == 2
    assert f"`dicetree tablebase build rolldown --dice 1 --cards 0 --tables {tmp_path}`" in result.output


def test_tree_draws_the_games_example(tmp_path):
    result = run("tree", "rolldown", "--example", "--depth", "1", "-o", str(tmp_path / "example.svg"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "example.dot").exists()
    assert "give a POSITION" in run("tree", "rolldown", "-o", str(tmp_path / "x.svg")).output


@pytest.mark.parametrize("spelling", ["Rolldown", "ROLLDOWN", "rolldown"])
def test_game_names_are_read_in_any_case(spelling):
    assert run("check", spelling, "d8:5/d6:3 a -/-").exit_code == 0
    assert run("rules", spelling).exit_code == 0


def test_the_number_of_players_is_read_from_the_position():
    three = "G01,G02,G03 0-0-0 A:turn deck:G04-G30"
    result = run("check", "rollforit", three)
    assert result.exit_code == 0, result.output
    fights = run("check", "dicefights", "20:0:5:111 20:0:5:111 20:0:5:111 roll")
    assert fights.exit_code == 0, fights.output
    said = run("check", "rollforit", three, "--rule", "players=2")  # an explicit rule still wins
    assert said.exit_code == 2 and "3 scores but the game is for 2 players" in said.output


@pytest.mark.parametrize("name", game_names())
def test_play_ranks_moves_with_losses_never_negative(name):
    game = load_game(name)
    state = game.parse(game.example_position())
    answer = advise(game, state, depth=1)
    player = answer.mover if hasattr(answer, "mover") else answer.players[0].player
    text = format_ranking(choices_of(answer, player))
    assert not re.search(r"-\d", text.replace(game.format(state), "")), text


def test_exact_refuses_an_oversized_build_before_listing_the_tables_it_needs(tables, monkeypatch):
    from dicetree.solver.games.rolldown.tablebase import Tablebase

    def listing(*_):
        raise AssertionError("the closure was listed before refusing")

    monkeypatch.setattr(Tablebase, "missing", listing)
    result = run("best", "rolldown", "--example", "--exact")
    assert result.exit_code == 2
    assert "exact values here need the table d4d6d8d10d12d20-d4d6d8d10d12d20.5QK-8JX of 212,336,640,000 positions" \
        in result.output and "search instead" in result.output
