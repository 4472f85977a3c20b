"""One vocabulary for players (issue 27): every game names its players A, B, C, ... in output, and
every notation that writes a player reads it in either case (and as P1, P2, ...)."""

from __future__ import annotations

import pytest

from dicetree.solver.game import GameError, PositionError
from dicetree.solver.games import game_names, load_game
from dicetree.solver.players import LETTERS
from dicetree.solver.render import to_graphviz
from dicetree.solver.tree import TreeOptions, build_tree

SIX_DICE = "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3"
# Positions whose player tokens are written in the game's canonical case, and the same positions
# with every player token in the other cases (the position must read as the same state).
OTHER_SPELLINGS = {
    "rolldown": (f"{SIX_DICE} b ???/5QK b single 0-0 1 -/- a", [f"{SIX_DICE} B ???/5QK B single 0-0 1 -/- A",
                                                            f"{SIX_DICE} P2 ???/5QK b single 0-0 1 -/- p1"]),
    "dicegeddon": ("d4:3a/d4:3a b 20", ["d4:3a/d4:3a B 20", "d4:3a/d4:3a P2 20"]),
    "rollforit": (None, ["lower"]),  # the example position with its player letters in lower case
}


@pytest.mark.parametrize("name", game_names())
def test_every_game_names_its_players_by_capital_letters(name):
    game = load_game(name)
    assert [game.player_name(p) for p in range(game.num_players)] == list(LETTERS[:game.num_players])


@pytest.mark.parametrize("name", sorted(OTHER_SPELLINGS))
def test_a_player_is_read_in_either_case_and_as_a_seat_number(name):
    game = load_game(name)
    canonical, others = OTHER_SPELLINGS[name]
    if canonical is None:
        canonical = game.example_position()
        others = [canonical.replace(":A", ":a").replace(":B", ":b").replace(" A:", " a:")]
    state = game.parse(canonical)
    for other in others:
        assert game.parse(other) == state, other


@pytest.mark.parametrize("name, position", [("rolldown", "d8:5/d6:3 c -/-"), ("dicegeddon", "d4:3a/d4:3a c 20")])
def test_a_token_naming_no_player_says_every_form_read(name, position):
    with pytest.raises(PositionError, match=r"mover must be A or B \(a or b, P1 or P2 also read\), got 'c'"):
        load_game(name).parse(position)


def test_dice_cards_names_the_next_recorder_by_letter_and_still_reads_the_seat_number():
    game = load_game("dicecards", players=2)
    state = game.parse("HOP=1,2 DBL=4-4 t0 | HOP=1 BB=4,9 t0 3/50 B4R4 P2")
    assert game.format(state).endswith(" B4R4 B")
    assert game.parse("HOP=1,2 DBL=4-4 t0 | HOP=1 BB=4,9 t0 3/50 B4R4 b") == state


def test_a_one_player_tree_names_no_opponent():
    game = load_game("dicecards")
    tree = build_tree(game, game.parse("HOP=1,2,3 t0 3/50 B4R5"), TreeOptions(depth=1))
    source = to_graphviz(tree).source
    assert "better for B" not in source and "B wins" not in source
    assert "A to move" in source and "lower" in source
    two = load_game("rolldown")
    assert "better for B" in to_graphviz(build_tree(two, two.parse("d8:5/d6:3 a -/-"), TreeOptions(depth=1))).source


def test_play_seats_a_player_named_in_any_form():
    from dicetree.cli.play import seat_of

    game = load_game("dicefights")
    assert [seat_of(game, text) for text in ("B", "b", "P2", "2")] == [1, 1, 1, 1]
    with pytest.raises(GameError, match="names no player"):
        seat_of(game, "Z")
