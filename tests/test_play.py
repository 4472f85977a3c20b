"""``dicetree play``: the prompt loop driven through standard input, for every registered game."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.games import game_names, load_game
from dicetree.solver.session import Line, node_of

ENDGAME = "d8:5/d6:3 a -/-"


def play(*args: str, typed: str) -> str:
    if "--depth" not in args and "--time" not in args:
        args += ("--depth", "2")  # a fixed depth: the default (5 s a move) reaches a depth that depends on the machine
    result = CliRunner().invoke(main, ["play", *args], input=typed)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_a_won_move_is_reviewed_as_best():
    out = play("rolldown", ENDGAME, typed="?\nd8xd6\n")
    assert "1  d8xd6" in out  # the ranked list
    assert "Game over: A 1, B 0" in out
    assert "1. A d8xd6" in out and "best" in out and "Total loss 0.0000 over 1 moves" in out


def test_bad_input_is_one_line_and_the_game_goes_on():
    out = play("rolldown", ENDGAME, typed="zz\nd8xd6\n")
    errors = [line for line in out.splitlines() if "error:" in line]
    assert len(errors) == 1 and "'zz' is not legal here" in errors[0]
    assert "Game over: A 1, B 0" in out


def test_roll_a_given_outcome_the_engine_replies_and_the_review_shows_the_loss():
    out = play("rolldown", ENDGAME, typed="roll a.d8\na.d8=1\n")
    assert "a.d8=1" in out and "B plays d6xd8" in out
    assert "loss 0.4576 (best d8xd6 1.0000)" in out  # the fitted evaluation's depth-2 value


def test_the_engine_thinks_as_long_as_best_by_default():
    out = CliRunner().invoke(main, ["play", "rolldown", ENDGAME], input="quit\n").output
    assert "the engine the rest (5 s a move)" in out
    out = CliRunner().invoke(main, ["play", "dicecards", "--example"], input="quit\n").output
    assert "(depth 1)" in out  # Dice Cards declares its own depth


def test_undo_takes_back_the_move_and_what_followed():
    out = play("rolldown", ENDGAME, typed="roll b.d6\nroll\nundo\nd8xd6\n")
    assert "undone: back at d8:5/d6:3 a -/-" in out
    assert "Total loss 0.0000 over 1 moves" in out  # the undone move is not reviewed


def test_quit_and_the_end_of_input_stop_cleanly():
    assert "stopped." in play("rolldown", ENDGAME, typed="quit\n")
    assert "Review: you made no move." in play("rolldown", ENDGAME, typed="")


def test_a_seat_that_names_no_player_is_one_line_exit_2():
    result = CliRunner().invoke(main, ["play", "rolldown", ENDGAME, "--seat", "Z"])
    assert result.exit_code == 2 and "--seat 'Z' names no player" in result.output


def test_simultaneous_choices_are_asked_of_your_seat_and_reviewed():
    out = play("dicefights", "3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll", "--depth", "1", typed="keep\nquit\n")
    assert "A chooses from: keep" in out and "A keep | B" in out
    assert "1. A keep" in out


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_from_its_example_with_the_engine(name):
    """A question, the first legal move, a roll or an empty line, then quit: no game breaks."""
    game = load_game(name)
    node = node_of(game, game.parse(game.example_position()))
    first = node.moves[0] if node.moves else node.choices[0][0]  # you play the first seat
    out = play(name, "--example", "--depth", "1", typed=f"?\n{first}\n\nquit\n")
    assert "error:" not in out
    assert "Review of your moves" in out


def test_the_line_goes_back_and_forward():
    game = load_game("rolldown")
    line = Line.from_position(game, ENDGAME).play("roll b.d6").play("b.d6=2")
    assert line.back().back().forward().position == game.format(game.apply(game.parse(ENDGAME), game.legal_actions(game.parse(ENDGAME))[2]))
    replaced = line.back().back().play("d8xd6")
    assert replaced.moves == ("d8xd6",) and replaced.cursor == 1


def test_the_engine_plays_exact_values():
    out = play("dicegeddon", "d4:3a/d4:3a b 20", "--seat", "A", "--exact", typed="\n\n\n\nquit\n")
    assert "(exact values)" in out and "B plays A1>1 (value 0.512" in out
