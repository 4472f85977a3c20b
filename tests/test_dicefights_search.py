"""Dice Fights searched: matrix games at the re-roll and purchase nodes, the leaf evaluation, the
paranoid reduction for three players, and the fixed policies."""

from __future__ import annotations

import math
import random

import pytest

from dicetree.solver.games.dicefights import DiceFights
from dicetree.solver.games.dicefights.evaluation import config, evaluate, temper, win_table
from dicetree.solver.games.dicefights.policies import POLICIES, Policy, play_game
from dicetree.solver.games.dicefights.state import NOTHING, REROLLING, Reroll
from dicetree.solver.matrix_game import solve_matrix_game
from dicetree.solver.simultaneous import SimultaneousSearcher

GAME = DiceFights()
EXAMPLE = GAME.parse(GAME.example_position())
ENDGAME = GAME.parse("3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll")


def assert_optimal(answer, tolerance: float = 1e-9) -> None:
    """Probabilities form a distribution; what the player mixes all scores the value; nothing beats it."""
    assert math.fsum(c.probability for c in answer.choices) == pytest.approx(1)
    for choice in answer.choices:
        assert choice.value <= answer.value + tolerance
        if choice.probability > 0:
            assert choice.value == pytest.approx(answer.value, abs=tolerance)


def test_a_reroll_node_is_a_matrix_game_with_both_strategies():
    result = SimultaneousSearcher(GAME).search(EXAMPLE, depth=1)
    p1, p2 = result.players
    assert result.node == "simultaneous" and (p1.player, p2.player) == (0, 1)
    assert len(p1.choices) == 27 and len(p2.choices) == 16
    assert p1.value + p2.value == pytest.approx(1)
    assert_optimal(p1)
    assert_optimal(p2)


def test_the_search_value_is_the_lp_value_of_the_evaluated_children():
    options = GAME.joint_actions(ENDGAME)
    matrix = [[evaluate(GAME.apply(ENDGAME, (a, b)), 0, GAME) for b in options[1]] for a in options[0]]
    result = SimultaneousSearcher(GAME).search(ENDGAME, depth=1)
    assert result.players[0].value == pytest.approx(solve_matrix_game(matrix).value)


def test_an_endgame_reroll_is_a_guessing_game_with_mixed_strategies():
    result = SimultaneousSearcher(GAME).search(ENDGAME, depth=1)
    for answer in result.players:
        played = [c for c in answer.choices if c.probability > 0]
        assert len(played) >= 2  # no pure strategy is optimal
        assert_optimal(answer)


def test_a_purchase_node_names_bundles_and_depth_two_sees_the_purchases():
    state = GAME.parse("12:14:6:111=2a2d2g 9:10:5:121=1a3d1g reroll")
    shallow = SimultaneousSearcher(GAME).search(state, depth=1)
    deeper = SimultaneousSearcher(GAME).search(state, depth=2)
    assert deeper.depth == 2 and deeper.players[0].value != pytest.approx(shallow.players[0].value)
    buy = GAME.parse("20:12:5:111 20:3:5:111 buy")
    answer = SimultaneousSearcher(GAME).search(buy, depth=1)
    assert len(answer.players) == 2
    assert {c.name for c in answer.players[0].choices} == {"nothing", "4c", "a", "1c+a", "d", "1c+d", "g"}
    assert_optimal(answer.players[0])


def test_three_players_are_searched_with_the_paranoid_reduction():
    game = DiceFights(players=3)
    state = game.parse("20:12:5:111 20:3:5:111 15:7:5:111 buy")
    result = SimultaneousSearcher(game).search(state, depth=1)
    assert result.approximation == "paranoid" and "paranoid" in result.method
    assert [a.player for a in result.players] == [0, 1, 2]
    for answer in result.players:
        assert 0 <= answer.value <= 1
        assert_optimal(answer)


def test_a_time_limit_keeps_the_last_completed_depth():
    result = SimultaneousSearcher(GAME).search(EXAMPLE, time_limit=0.3)
    assert result.depth >= 1 and ("time limit" in result.method or result.exact)


# ----- the evaluation ------------------------------------------------------------------------------------
def test_the_symmetric_start_is_even_and_advantages_count():
    assert evaluate(GAME.new_game(), 0, GAME) == pytest.approx(0.5)
    assert evaluate(GAME.parse("20:0:6:111 20:0:5:111 roll"), 0, GAME) > 0.6
    assert evaluate(GAME.parse("20:0:5:111 12:0:5:111 roll"), 0, GAME) > 0.6
    assert evaluate(GAME.parse("20:0:5:111 20:0:5:211 roll"), 0, GAME) < 0.4
    # At a purchase node the Bank buys dice now; elsewhere savings count half.
    assert config(GAME.parse("20:9:5:111 20:0:5:111 buy"), 0)[0] == 8
    assert config(GAME.parse("20:9:5:111 20:0:5:111 roll"), 0)[0] == 6


@pytest.mark.parametrize("seed", range(4))
def test_two_player_evaluations_are_complementary_and_bounded(seed):
    rng = random.Random(seed)
    state = GAME.new_game()
    for _ in range(60):
        if GAME.is_terminal(state):
            break
        a, b = evaluate(state, 0, GAME), evaluate(state, 1, GAME)
        assert 0 <= a <= 1 and a + b == pytest.approx(1)
        if GAME.is_chance(state):
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, tuple(rng.choice(list(o)) if o else None for o in GAME.joint_actions(state)))


def test_a_reroll_in_progress_is_evaluated_as_the_exact_average():
    rolling = GAME.apply(ENDGAME, (Reroll(swords=2), Reroll(gold=2)))
    assert rolling.phase == REROLLING
    expected = sum(p * evaluate(GAME.apply(rolling, o), 0, GAME) for o, p in GAME.chance_outcomes(rolling))
    assert evaluate(rolling, 0, GAME) == pytest.approx(expected)


def test_the_frozen_fight_table_matches_frozen_fights_played_out():
    never = Policy("never", lambda game, state, player, options, rng: NOTHING)
    start = GAME.parse("6:0:5:111 4:0:5:111 roll")
    games = 3000
    rng = random.Random(7)
    wins = sum(play_game(GAME, [never, never], rng, state=start).returns[0] for _ in range(games))
    table = win_table((2, 2, 2), (2, 2, 2), config(start, 0), config(start, 1))
    assert wins / games == pytest.approx(float(table[6, 4]), abs=3.5 * math.sqrt(0.25 / games))


def test_tempering_keeps_the_ends_and_the_middle():
    assert (temper(0.0), temper(0.5), temper(1.0)) == (0.0, 0.5, 1.0)
    assert 0.5 < temper(0.9) < 0.9 and temper(0.1) == pytest.approx(1 - temper(0.9))


def test_three_player_heuristic_shares_add_up_to_one():
    game = DiceFights(players=3)
    for text in ["20:0:5:111 14:0:6:211 9:8:5:121 roll", "20:0:5:111=2a2d1g 14:0:6:211=3a3d0g 9:8:5:121=0a5d0g reroll"]:
        state = game.parse(text)
        assert sum(evaluate(state, p, game) for p in range(3)) == pytest.approx(1)


# ----- policies ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["dice", "attack", "defense", "gold", "box", "random"])
def test_every_purchase_policy_plays_legal_games(name):
    outcome = play_game(GAME, [POLICIES[name], POLICIES["dice"]], random.Random(3))
    assert math.fsum(outcome.returns) == pytest.approx(1) and outcome.turns > 1


def test_the_solver_policy_buys_from_its_mixed_strategy():
    state = GAME.parse("20:12:5:111 20:3:5:111 buy")
    choice = POLICIES["solver"].choose(GAME, state, 0, GAME.joint_actions(state)[0], random.Random(1))
    assert choice in GAME.bundle_options(state, 0)


def test_four_player_games_finish():
    game = DiceFights(players=4)
    outcome = play_game(game, [POLICIES[n] for n in ("dice", "attack", "random", "gold")], random.Random(2))
    assert math.fsum(outcome.returns) == pytest.approx(1)
