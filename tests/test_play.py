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
    assert "The engine advises" in out and "  1. d8xd6" in out  # the ranked list
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
    assert "loss 0.4581 (best d8xd6 1.0000)" in out  # the default evaluation's (the network's) depth-2 value


def test_the_engine_thinks_as_long_as_best_by_default():
    out = CliRunner().invoke(main, ["play", "rolldown", ENDGAME], input="quit\n").output
    assert "the engine the rest (5 s a move)" in out
    out = CliRunner().invoke(main, ["play", "dicecards", "--example"], input="quit\n").output
    assert "(depth 1)" in out  # Dice Cards declares its own depth


def test_undo_takes_back_the_move_and_what_followed():
    out = play("rolldown", ENDGAME, typed="roll b.d6\nroll\nundo\nd8xd6\n")
    assert "undone: back before your move roll b.d6" in out
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


HIDDEN = "d4:1,d6:3,d8:2/d4:4,d6:2,d8:2 a 35X/589"
"""A holds 3, 5 and the Joker; the engine (B) 5, 8 and 9, hidden from A."""


def test_the_engines_hidden_hand_never_reaches_the_persons_screen():
    out = play("rolldown", HIDDEN, "--depth", "1", typed="?\nhint\n3 a.d4\nroll\nroll\nroll\nundo\nmoves\nquit\n")
    assert "undone: back before your move 3 a.d4" in out and "The engine advises" in out
    assert "589" not in out and "/58" not in out and "/59" not in out and "/89" not in out
    assert "position: d4:1,d6:3,d8:2/d4:4,d6:2,d8:2 a 35X/???" in out  # the notation as A sees it
    assert "[??]×3" in out  # B's hand drawn face down


def test_the_board_is_drawn_and_many_moves_are_counted_until_listed():
    out = play("rollforit", "--seed", "1", "--depth", "1", typed="roll\nroll\nmoves\nquit\n")
    assert "╭─ table" in out and "[d6 " in out  # the cards on the table, the rolled dice with their faces
    counted = next(line for line in out.splitlines() if line.startswith("A to move: ") and " moves, e.g. " in line)
    count = int(counted.split("A to move: ")[1].split()[0])
    assert count > 40 and "`moves` to list them all" in counted
    assert len(out.splitlines()) < 120  # the placements are not printed at every prompt
    assert f"{count} moves: " in out  # listed on request


def test_advice_losses_are_never_negative():
    out = play("rolldown", "--example", "--depth", "1", typed="?\nquit\n")
    ranked = [line for line in out.splitlines() if line.strip()[:3].rstrip(".").isdigit() and "loss " in line]
    assert ranked and all(float(line.split("loss ")[1].split()[0]) >= 0 for line in ranked)
    assert "-0.0" not in out
