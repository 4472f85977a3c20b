"""max^n for three or more players: the search against a plain recursion, the tie rule, the choice
between max^n and paranoid (``best --search``, a strategy's ``search=``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main as cli
from dicetree.solver.game import CHANCE, TERMINAL, GameError
from dicetree.solver.games import load_game
from dicetree.solver.maxn import MaxnSearcher, choose, maxn_value
from dicetree.solver.multiplayer import DEFAULT_SEARCH, turn_searcher
from dicetree.solver.search import Searcher
from dicetree.solver.strategies import make_strategy, parse_strategy
from tests.toy_games import RandomTree


def own_best_vector(game, state, depth: int) -> tuple[float, ...]:
    """max^n written out: each player takes the child best for them (ties: the leading other player
    lowest, then the first), chance averages, a cut-off evaluates every player."""
    player = game.current_player(state)
    players = range(game.num_players)
    if player == TERMINAL:
        return tuple(game.returns(state))
    if player == CHANCE:
        children = [(p, own_best_vector(game, game.apply(state, o), depth)) for o, p in game.chance_outcomes(state)]
        return tuple(sum(p * v[i] for p, v in children) for i in players)
    if depth == 0:
        return tuple(game.evaluate(state, i) for i in players)
    vectors = [own_best_vector(game, game.apply(state, a), depth - 1) for a in game.legal_actions(state)]
    top = max(v[player] for v in vectors)
    tied = [v for v in vectors if v[player] > top - 1e-12]
    return min(tied, key=lambda v: max(x for i, x in enumerate(v) if i != player))  # min keeps the first


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_every_move_value_is_the_max_n_recursions(seed, depth):
    game = RandomTree(seed, players=3, levels=6, shared=seed % 2 == 1)
    for root in range(len(game.nodes)):
        mover = game.current_player(root)
        if mover < 0 or not game.legal_actions(root):
            continue
        for use_cache in (True, False):
            result = MaxnSearcher(game, use_cache=use_cache).search(root, depth=depth)
            by_name = {m.name: m.value for m in result.moves}
            for action in game.legal_actions(root):
                expected = own_best_vector(game, game.apply(root, action), depth - 1)[mover]
                assert by_name[game.action_name(root, action)] == pytest.approx(expected, abs=1e-9)
            assert "max^n (3 players)" in result.method and result.moves[0].loss == 0
        assert maxn_value(game, root, depth) == pytest.approx(own_best_vector(game, root, depth), abs=1e-9)
        break  # the first decision node is the root of the tree


def test_ties_go_to_the_move_that_leaves_the_leading_opponent_lowest_then_the_first():
    assert choose([(0.4, 0.4, 0.2), (0.4, 0.2, 0.4), (0.4, 0.3, 0.3)], 0) == 2
    assert choose([(0.4, 0.3, 0.3), (0.4, 0.3, 0.3)], 0) == 0  # a full tie: the game's order
    assert choose([(0.4, 0.3, 0.3), (0.4 + 1e-13, 0.35, 0.25)], 0) == 0  # within the tie tolerance
    assert choose([(0.4, 0.3, 0.3), (0.5, 0.5, 0.0)], 0) == 1  # the mover's own value comes first


@pytest.mark.parametrize("players", [3, 4])
def test_roll_for_it_by_max_n_values_add_up_to_one_and_paranoid_is_the_default(players):
    game = load_game("rollforit", players=players)
    state = game.parse(game.example_position())
    assert isinstance(turn_searcher(game), Searcher) and DEFAULT_SEARCH == "paranoid"  # measured: see multiplayer
    searcher = turn_searcher(game, "maxn")
    assert isinstance(searcher, MaxnSearcher)
    result = searcher.search(state, depth=2)
    mover = game.current_player(state)
    for move in result.moves:
        vector = maxn_value(game, game.apply(state, move.action), 1)
        assert move.value == pytest.approx(vector[mover], abs=1e-12)
        assert sum(vector) == pytest.approx(1.0)
    assert isinstance(turn_searcher(game, "paranoid"), Searcher)
    # the paranoid value is what the mover can count on: never more than max^n's
    paranoid = turn_searcher(game, "paranoid", cache_slots=2**16).search(state, depth=2)
    assert paranoid.value <= result.value + 1e-12


def test_max_n_and_paranoid_agree_with_two_players():
    game = load_game("rollforit")
    state = game.parse(game.example_position())
    maxn = MaxnSearcher(game).search(state, depth=2)
    plain = Searcher(game, cache_slots=2**16).search(state, depth=2)
    assert [(m.name, pytest.approx(m.value, abs=1e-12)) for m in maxn.moves] == \
        [(m.name, m.value) for m in plain.moves]
    assert isinstance(turn_searcher(game, "maxn"), Searcher)  # two players: the one expectiminimax search


def test_best_says_which_search_and_takes_either(tmp_path):
    runner = CliRunner()
    base = ["best", "rollforit", "--example", "--rule", "players=3", "--depth", "2"]
    maxn = runner.invoke(cli, base + ["--search", "maxn"])
    assert maxn.exit_code == 0, maxn.output
    assert "max^n (3 players)" in maxn.output and "every player plays for their own chance" in maxn.output
    for paranoid in (runner.invoke(cli, base), runner.invoke(cli, base + ["--search", "paranoid"])):
        assert paranoid.exit_code == 0 and "paranoid reduction (3 players)" in paranoid.output
    wrong = runner.invoke(cli, base + ["--search", "minimax"])
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output


def test_a_strategy_chooses_its_search_with_three_or_more_players_only():
    three = load_game("rollforit", players=3)
    assert str(parse_strategy("solver:depth=1", three)) == "solver:depth=1,search=paranoid"
    strategy = make_strategy(three, "solver:depth=1,search=maxn")
    assert isinstance(strategy.searcher, MaxnSearcher)
    assert isinstance(make_strategy(three, "solver:depth=1").searcher, Searcher)
    with pytest.raises(GameError, match="search must be maxn or paranoid, not 'best'"):
        parse_strategy("solver:search=best", three)
    with pytest.raises(GameError, match="unknown option 'search=maxn'"):  # two players: nothing to choose
        parse_strategy("solver:search=maxn", load_game("rollforit"))


def test_dice_fights_simultaneous_choices_of_three_players_stay_paranoid():
    """max^n needs players taking turns: at simultaneous choices of 3+ players there is no one value to
    back up (general-sum games have many equilibria), so `--search maxn` is refused in one line."""
    runner = CliRunner()
    position = ["best", "dicefights", "20:12:5:111 20:3:5:111 15:7:5:111 buy", "--depth", "1", "--rule", "players=3"]
    refused = runner.invoke(cli, position + ["--search", "maxn"])
    assert refused.exit_code == 2 and "players choose at once: max^n is for games whose players take turns" in \
        refused.output and "Traceback" not in refused.output
    paranoid = runner.invoke(cli, position + ["--search", "paranoid"])
    assert paranoid.exit_code == 0 and "paranoid reduction" in paranoid.output
