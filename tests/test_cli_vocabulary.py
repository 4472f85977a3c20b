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


def test_a_shallow_answer_within_a_time_limit_says_so_and_what_goes_deeper():
    from dicetree.solver.analysis import analyse

    game = load_game("rolldown")
    hidden = game.parse("d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 b ???/5QK")
    answer = analyse(game, hidden, depth=1, time_limit=30, hands_exact=4, hand_samples=4)
    assert any(note.startswith("30 s reached depth 1 only for each of 4 hidden hands: a shallow answer; "
                               "`--depth 2` or a longer `--time` goes deeper") for note in answer.notes)
    deeper = analyse(game, hidden, depth=2, hands_exact=4, hand_samples=4)
    assert not any("shallow" in note for note in deeper.notes)


def test_a_depth_limited_answer_suggests_exact_where_the_game_can_solve_it():
    result = run("best", "dicegeddon", "--example", "--depth", "1")
    assert "`--exact` may solve the whole state graph" in result.output
    small = run("best", "dicegeddon", "d4:3a/d4:3a a 20", "--depth", "1")
    assert "the whole state graph has 213 states: `--exact` solves it" in small.output


def test_estimated_values_show_only_the_digits_they_can_tell():
    result = run("best", "dicecards", "--example")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if re.match(r"\s+\d+\s+\S+:\S+\s", line)]
    assert rows and all(re.fullmatch(r"\d+\.\d", row[2]) for row in rows)  # one decimal: ±1.32 points
    assert "the values are estimates within about ±1.32 of the truth" in result.output
    exact = run("best", "dicecards", "HOP=1,2,3 t0 3/50 B4R5")  # one card: exact, four decimals
    assert re.search(r"HOP:4-5\s+\d+\.\d{4}\b", exact.output) and "estimates" not in exact.output


def study_games() -> list[str]:
    from dicetree.solver.games import game_class

    return [name for name in game_names() if game_class(name).game_type.study]


@pytest.mark.parametrize("name", study_games())
def test_o_names_a_folder_for_every_study_and_a_file_for_tree(name, tmp_path):
    shown = run("study", name, "--help").output
    assert re.search(r"-o, --output FOLDER", shown), shown
    assert re.search(r"-o, --output FILE", run("tree", "--help").output)
    taken = tmp_path / "taken"
    taken.write_text("")
    refused = run("study", name, "-o", str(taken))
    assert refused.exit_code == 2 and "is a file" in refused.output


def test_a_study_writes_its_files_into_the_folder_o_names(tmp_path, tables):
    folder = tmp_path / "d4-d4"
    result = run("study", "rolldown", "--mine", "d4", "--theirs", "d4", "-o", str(folder))
    assert result.exit_code == 0, result.output
    assert (folder / "d4-d4.csv").exists() and (folder / "d4-d4-moves.csv").exists()
    again = run("study", "rolldown", "--mine", "d4", "--theirs", "d4", "-o", str(folder))  # an existing folder: run again
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("args", [["rolldown", "--a", "random", "--b", "random", "--games", "2"],
                                  ["dicefights", "--rule", "players=3", "--a", "random", "--b", "random", "--c",
                                   "random", "--games", "3"]])
def test_duel_reports_name_seats_as_players_are_named(args):
    result = run("duel", *args, "--seed", "1")
    assert result.exit_code == 0, result.output
    assert not re.search(r"\bP\d\b|player [ab]\b", result.output), result.output
    assert "seat A" in result.output or "seats A..C" in result.output


def test_a_refused_study_leaves_no_folder_behind(tmp_path):
    folder = tmp_path / "never"
    result = run("study", "rolldown", "--mine", "d4", "-o", str(folder))  # --theirs is missing
    assert result.exit_code == 2 and not folder.exists()
