"""Three or more players taking turns: the search's paranoid reduction against a plain recursion."""

from __future__ import annotations

import pytest

from dicetree.solver.game import CHANCE, TERMINAL
from dicetree.solver.games import load_game
from dicetree.solver.paranoid import ParanoidView
from dicetree.solver.search import Searcher, expectimax
from tests.toy_games import RandomTree


def paranoid_value(game, state, focus: int, depth: int) -> float:
    """The focus player's value when every other player minimizes it: the definition, written out."""
    player = game.current_player(state)
    if player == TERMINAL:
        return game.returns(state)[focus]
    if player == CHANCE:
        return sum(p * paranoid_value(game, game.apply(state, o), focus, depth) for o, p in game.chance_outcomes(state))
    if depth == 0:
        return game.evaluate(state, focus)
    values = [paranoid_value(game, game.apply(state, a), focus, depth - 1) for a in game.legal_actions(state)]
    return max(values) if player == focus else min(values)


def decision_roots(game, players: int):
    """The first decision node of each player (the root and below), as search roots."""
    found: dict[int, int] = {}
    for node in range(len(game.nodes)):
        kind = game.current_player(node)
        if kind >= 0 and kind not in found and game.legal_actions(node):
            found[kind] = node
    return [found[p] for p in range(players) if p in found]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_every_move_value_is_the_paranoid_recursions(seed, depth):
    game = RandomTree(seed, players=3, levels=6, shared=seed % 2 == 1)
    for root in decision_roots(game, 3):
        mover = game.current_player(root)
        for star2, cache in ((True, True), (False, False)):
            result = Searcher(game, star2=star2, use_cache=cache, cache_slots=2**12).search(root, depth=depth)
            by_name = {m.name: m.value for m in result.moves}
            for action in game.legal_actions(root):
                child = game.apply(root, action)
                expected = paranoid_value(game, child, mover, depth - 1)
                assert by_name[game.action_name(root, action)] == pytest.approx(expected, abs=1e-9)
            assert "paranoid reduction (3 players)" in result.method
        assert expectimax(game, root, depth) == pytest.approx(paranoid_value(game, root, mover, depth), abs=1e-9)


def test_the_view_makes_the_mover_player_zero_and_the_rest_player_one():
    game = RandomTree(3, players=3)
    view = ParanoidView(game, focus=2)
    for node in range(len(game.nodes)):
        kind = game.current_player(node)
        assert view.current_player(node) == (kind if kind < 0 else 0 if kind == 2 else 1)
        if kind == TERMINAL:
            assert view.returns(node)[0] == game.returns(node)[2]
    assert view.evaluate(0, 0) == game.evaluate(0, 2) and view.value_bounds() == game.value_bounds()


def test_roll_for_it_for_three_and_eight_players_is_searched_and_says_how():
    for players in (3, 8):
        game = load_game("rollforit", players=players)
        state = game.parse(game.example_position())
        result = Searcher(game, cache_slots=2**16).search(state, depth=1)
        assert f"paranoid reduction ({players} players)" in result.method
        mover = game.current_player(state)
        for move in result.moves:
            child = game.apply(state, move.action)
            assert move.value == pytest.approx(paranoid_value(game, child, mover, 0), abs=1e-12)
        assert all(0.0 <= m.value <= 1.0 for m in result.moves)
