"""Roll For It! position notation: round trips (hypothesis) and one specific line for every bad string."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.game import PositionError
from dicetree.solver.games.rollforit import RollForIt

GAMES = {
    2: RollForIt(),
    3: RollForIt(players=3, ending="end_of_round", stuck="take_back"),
    8: RollForIt(players=8, deck_out="end"),
}
REST = "deck:G05-G14,G16-G18,G21-G23,G25-G26,G30"
"""The deck of the help's first example (A scored G27, G20, G01-G03: 31; B G28, G19, G04: 27)."""
EXAMPLE = f"G15:A35:B4,G24:B12,G29:A445 31-27 A:turn {REST}"


def _visited(game: RollForIt, seed: int, steps: int) -> list:
    rng = random.Random(seed)
    state, seen = game.new_game(rng), []
    for _ in range(steps):
        seen.append(state)
        if game.is_terminal(state):
            break
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    return seen


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6))
def test_every_position_of_a_random_game_round_trips(players, seed):
    game = GAMES[players]
    for state in _visited(game, seed, 120):
        text = game.format(state)
        assert game.parse(text) == state
        assert game.format(game.parse(text)) == text


def test_the_help_examples_parse_and_the_help_states_the_readings():
    for game in GAMES.values():
        for text, _ in game.notation_examples():
            assert game.format(game.parse(text)) == text
        help_text = game.notation_help()
        for option in ("opening=", "stuck=", "deck_out=", "ending="):
            assert option in help_text
        assert "the other players' included" in help_text
    assert GAMES[2].example_position() == EXAMPLE


def test_any_order_is_read_and_written_canonically():
    game = GAMES[2]
    text = "G29:A544,G24:B21,G15:B4:A53 31-27 A:turn deck:G30,G25-G26,G21-G23,G16-G18,G05-G14"
    assert game.format(game.parse(text)) == EXAMPLE


@pytest.mark.parametrize("text, message", [
    # more than six dice of a player on cards (with the rolled faces to place)
    ("G15:A35,G24:A123,G29:A44 31-27 A:turn " + REST, "A has 7 dice on cards: a player has 6"),
    ("G15:A35,G24:A12,G29:A44 31-27 A:place:1 " + REST, "A has 7 dice on cards with the rolled faces: a player has 6"),
    # a die on an image it does not match; every image matched
    ("G15:A36,G24,G29 31-27 A:turn " + REST, "card G15: A's die 6 matches no open image (its images are 345)"),
    ("G15:A355,G24,G29 31-27 A:turn " + REST, "card G15: A's die 5 matches no open image (its images are 345)"),
    ("G15:A345,G24,G29 31-27 A:turn " + REST, "card G15: A's dice match all its images: it would have been scored"),
    # a card shown twice
    ("G15,G15,G29 31-27 A:turn " + REST, "card G15 is shown twice (face up and face up)"),
    ("G15,G24,G29 31-27 A:turn deck:G05-G15", "card G15 is shown twice (face up and in the deck)"),
    ("G15,G24,G29 31-27 A:turn deck:G05-G14,G05", "card G05 is shown twice (in the deck and in the deck)"),
    # a score that no set of cards makes
    ("G15,G24,G29 13-45 A:turn " + REST, "no split of the 8 scored cards (worth 15+15+10+10+2+2+2+2) makes the scores 13-45"),
    ("G15,G24,G29 31-26 A:turn " + REST, "scores 31-26 add up to 57, but the 8 cards neither face up nor in the deck are worth 58"),
    ("G15,G24,G29 31-27-0 A:turn " + REST, "the position gives 3 scores but the game is for 2 players"),
    ("G15,G24,G29 031-27 A:turn " + REST, "scores are whole numbers without leading zeros"),
    # cards that do not exist or are not in play
    ("G15,G24,X99 31-27 A:turn " + REST, "card 'X99' is in no deck of the deck file"),
    ("G15,G24,S01 31-27 A:turn " + REST, "card 'S01' is not in the gold deck (30 cards) in play"),
    ("G15,G24,G29 31-27 A:turn deck:G14-G05", "deck range G14-G05 runs backwards"),
    # turns and phases
    ("G15,G24,G29 31-27 C:turn " + REST, "the turn is <player>:<phase> (player A to B"),
    ("G15,G24,G29 31-27 A:place " + REST, "phase place needs the rolled faces to place"),
    ("G15,G24,G29 31-27 A:roll:12 " + REST, "only place and flip carry rolled faces"),
    ("G15,G24,G29:A4566 31-27 A:place:66 " + REST, "no face of 66 matches an image A has open: the turn would have ended"),
    ("G15:A35,G24:A1234,G29 31-27 A:turn " + REST, "card G24: A's dice match all its images"),
    ("G15:A35,G24:A123,G29:A4 31-27 A:roll " + REST, "A has all six dice on cards: nothing to roll (the phase is turn)"),
    ("G15,G24,G29 31-27 A:flip " + REST, "phase flip replaces one scored card: 2 cards face up, not 3"),
    ("G15,G24 31-27 A:turn " + REST + ",G29", "3 cards lie face up while the deck has cards, not 2"),
    ("G15,G24,G29 31-27 over:A " + REST, "over:A but nobody has 40 points and the deck has not run out"),
    ("G15,G24,G29 31-27 over:A+A " + REST, "over:<winners> names players A to B joined by +, each once"),
    ("G15,G24,G29 31-27 A:turn", "a Roll For It! position has 4 fields"),
    ("G15,G24,G29 31-27 A:turn G05-G14", "the fourth field is the deck, deck:<cards>"),
    ("G15:Z3,G24,G29 31-27 A:turn " + REST, "card G15: dice are written :<player><faces>"),
    ("G15:A3:A5,G24,G29 31-27 A:turn " + REST, "card G15: A's dice are given twice"),
])
def test_a_bad_position_is_one_specific_line(text, message):
    with pytest.raises(PositionError) as error:
        GAMES[2].parse(text)
    assert str(error.value).startswith(message), str(error.value)
    assert "\n" not in str(error.value)


def test_scores_of_forty_while_playing_and_the_winner_of_a_finished_game():
    game = GAMES[2]
    # A scored G27, G28, G20 (40), B G19 (10): over:A, never A still to move, never over:B
    deck = "deck:G01-G14,G16-G18,G21-G23,G25-G26,G29-G30"
    assert game.parse(f"G24,G15 40-10 over:A {deck}").winners == (0,)
    with pytest.raises(PositionError, match="A has 40 points or more: the game is over"):
        game.parse(f"G15,G24,G26 40-10 B:turn {deck.replace('G25-G26', 'G25')}")
    with pytest.raises(PositionError, match="A reached 40: the winner is A, not B"):
        game.parse(f"G24,G15 40-10 over:B {deck}")


def test_the_first_player_field_comes_with_end_of_round_only():
    three = GAMES[3]
    with pytest.raises(PositionError, match="has 5 fields"):
        three.parse("G15,G24,G29 0-0-0 A:turn deck:G01-G14,G16-G23,G25-G28,G30")
    with pytest.raises(PositionError, match="the fifth field is who took the first turn"):
        three.parse("G15,G24,G29 0-0-0 A:turn deck:G01-G14,G16-G23,G25-G28,G30 first:D")
    state = three.parse("G15,G24,G29 0-0-0 B:turn deck:G01-G14,G16-G23,G25-G28,G30 first:C")
    assert state.starter == 2


def test_a_long_input_is_cut_in_the_message():
    with pytest.raises(PositionError) as error:
        GAMES[2].parse("G15 " * 100)
    assert len(str(error.value)) < 200
