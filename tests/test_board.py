"""Positions drawn (``Game.board`` and :mod:`dicetree.solver.board`): every game draws its positions,
a hidden hand is drawn face down with its count, and the one renderer makes well-formed SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from dicetree.solver.board import Board, Card, Counter, Die, Zone, board_svg
from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL
from dicetree.solver.games import game_names, load_game
from dicetree.solver.session import Line


def _walk(game, state, steps: int = 12, seed: int = 3):
    """States along a line from ``state``: first moves and sampled outcomes (every kind of node drawn)."""
    import random

    rng = random.Random(seed)
    line = Line.start(game, state)
    yield state
    for _ in range(steps):
        player = game.current_player(line.state)
        if player == TERMINAL:
            return
        if player == CHANCE:
            line = line.roll(rng)
        elif player == SIMULTANEOUS:
            line = line.play_action(tuple(own[0] if own else None for own in game.joint_actions(line.state)))
        else:
            line = line.play_action(game.legal_actions(line.state)[-1])
        yield line.state


@pytest.mark.parametrize("name", game_names())
def test_every_game_draws_its_positions(name):
    game = load_game(name)
    example = game.board(game.parse(game.example_position()))
    assert any(isinstance(piece, (Die, Card)) for zone in example.zones for piece in zone.pieces)
    for state in _walk(game, game.parse(game.example_position())):
        board = game.board(state)
        assert isinstance(board, Board) and board.status and board.zones
        assert any(zone.pieces for zone in board.zones)
        root = ElementTree.fromstring(board.svg())  # well-formed
        assert root.tag.endswith("svg") and board.status.split()[0] in board.svg()
        assert board._repr_svg_() == board.svg()


def test_a_hidden_hand_is_drawn_face_down_with_its_count():
    game = load_game("rolldown")
    state = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/5")
    seen = game.board(game.observe(state, 1))  # B looks: A's Queen and King are hidden
    a_hand = next(zone for zone in seen.zones if zone.owner == "A" and zone.title == "hand")
    assert a_hand.pieces == (Card("", face_down=True, count=2),)
    assert "×2" in seen.svg() and "face-down" in seen.svg() and ">Q<" not in seen.svg()
    everything = game.board(state)
    assert [piece.text for zone in everything.zones if zone.owner == "A" and zone.title == "hand"
            for piece in zone.pieces] == ["Q", "K"]


def test_dice_show_their_faces_and_sides():
    game = load_game("dicegeddon")
    board = game.board(game.parse("d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20"))
    dice = [piece for zone in board.zones for piece in zone.pieces]
    assert [(die.sides, die.face) for die in dice] == [(4, 3), (6, 5), (10, 7), (6, 6), (8, 2)]
    svg = board.svg()
    assert svg.count('class="die d6"') == 2 and 'class="die d10"' in svg and "d10 · #3" in svg


def test_the_renderer_wraps_long_rows_and_escapes_text():
    board = Board("<A> to move", (Zone("cards", tuple(Card(f"C{i}") for i in range(30)), "A&B", True),
                                  Zone("score", (Counter("points", "7"),))))
    svg = board_svg(board, width=300)
    ElementTree.fromstring(svg)
    assert "&lt;A&gt; to move" in svg and "A&amp;B" in svg
    assert int(ElementTree.fromstring(svg).get("height")) > 200  # 30 cards need several lines at 300 px


def test_a_game_without_a_drawing_says_so():
    from tests.toy_games import HighRoll

    game = HighRoll()
    assert game.board(game.parse("4 2")) is None


def test_a_roll_for_it_card_shows_its_dice_faces_in_text_too():
    from dicetree.cli.board_text import board_text

    game = load_game("rollforit")
    text = board_text(game.board(game.parse(game.example_position())), colour=False)
    assert "[G15 345] (5 points; A: 35 · B: 4)" in text and "[G29 445566]" in text
