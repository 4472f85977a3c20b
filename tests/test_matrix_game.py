"""Zero-sum matrix games: known answers (matching pennies, rock-paper-scissors, a 2x2 in closed
form, a dominated strategy, saddle points) and the equilibrium conditions on random games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.game import GameError
from dicetree.solver.matrix_game import solve_matrix_game

EPS = 1e-7


def assert_equilibrium(solution, atol: float = EPS) -> None:
    """Both strategies are distributions; no pure row beats the value against the column strategy
    and no pure column holds the row player below it; every row (column) played scores the value."""
    x, y = np.array(solution.row_strategy), np.array(solution.column_strategy)
    assert np.all(x >= 0) and np.all(y >= 0)
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
    rows, columns = np.array(solution.row_values()), np.array(solution.column_values())
    assert rows.max() <= solution.value + atol
    assert columns.min() >= solution.value - atol
    assert np.all(np.abs(rows[x > 0] - solution.value) <= atol)
    assert np.all(np.abs(columns[y > 0] - solution.value) <= atol)


def test_matching_pennies_is_a_fair_coin_for_both():
    solution = solve_matrix_game([[1, -1], [-1, 1]])
    assert solution.value == pytest.approx(0, abs=EPS)
    assert solution.row_strategy == pytest.approx((0.5, 0.5))
    assert solution.column_strategy == pytest.approx((0.5, 0.5))
    assert solution.method == "linear program"
    assert_equilibrium(solution)


def test_rock_paper_scissors_is_uniform_and_a_constant_shifts_only_the_value():
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    solution = solve_matrix_game(rps)
    assert solution.value == pytest.approx(0, abs=EPS)
    assert solution.row_strategy == pytest.approx((1 / 3,) * 3)
    assert solution.column_strategy == pytest.approx((1 / 3,) * 3)
    shifted = solve_matrix_game(np.array(rps) * 0.5 + 0.5)  # win 1, tie 1/2, loss 0
    assert shifted.value == pytest.approx(0.5)
    assert shifted.row_strategy == pytest.approx((1 / 3,) * 3)


def test_weighted_rock_paper_scissors():
    # Rock beats scissors for 2: the known answer plays rock 1/4, paper 1/2, scissors 1/4.
    solution = solve_matrix_game([[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    assert solution.row_strategy == pytest.approx((0.25, 0.5, 0.25))
    assert solution.column_strategy == pytest.approx((0.25, 0.5, 0.25))
    assert solution.value == pytest.approx(0, abs=EPS)


def test_a_two_by_two_game_matches_the_closed_form():
    # [[a, b], [c, d]] without a saddle point: p = (d - c) / D, q = (d - b) / D, v = (ad - bc) / D
    a, b, c, d = 3.0, -1.0, -2.0, 1.0
    denominator = a - b - c + d
    solution = solve_matrix_game([[a, b], [c, d]])
    assert solution.row_strategy == pytest.approx(((d - c) / denominator, (a - b) / denominator))
    assert solution.column_strategy == pytest.approx(((d - b) / denominator, (a - c) / denominator))
    assert solution.value == pytest.approx((a * d - b * c) / denominator)


def test_a_strictly_dominated_row_gets_no_weight():
    # Row 2 is worse than row 1 against every column; without it: p = 3/5, q = 3/5, v = 11/5.
    solution = solve_matrix_game([[3, 1], [2, 0], [1, 4]])
    assert solution.row_strategy == pytest.approx((0.6, 0.0, 0.4))
    assert solution.column_strategy == pytest.approx((0.6, 0.4))
    assert solution.value == pytest.approx(2.2)
    assert_equilibrium(solution)


def test_a_dominated_column_gets_no_weight():
    solution = solve_matrix_game([[1, -1, 5], [-1, 1, 4]])  # column 3 is worse for the column player
    assert solution.column_strategy[2] == pytest.approx(0)
    assert solution.value == pytest.approx(0, abs=EPS)


def test_a_saddle_point_is_pure_and_needs_no_lp():
    solution = solve_matrix_game([[3, 1, 4], [2, 0, 1]])
    assert (solution.value, solution.row_strategy, solution.column_strategy) == (1.0, (1.0, 0.0), (0.0, 1.0, 0.0))
    assert solution.method == "saddle point"
    assert_equilibrium(solution)


def test_a_single_row_or_column_is_a_min_or_a_max():
    row = solve_matrix_game([[0.4, 0.2, 0.9]])
    assert (row.value, row.column_strategy, row.method) == (0.2, (0.0, 1.0, 0.0), "single row")
    column = solve_matrix_game([[0.4], [0.7], [0.1]])
    assert (column.value, column.row_strategy, column.method) == (0.7, (0.0, 1.0, 0.0), "single column")


@pytest.mark.parametrize("matrix, phrase", [([], "at least one row"), ([[]], "at least one row"),
                                            ([[1.0, float("nan")]], "finite")])
def test_malformed_matrices_are_refused(matrix, phrase):
    with pytest.raises(GameError, match=phrase):
        solve_matrix_game(matrix)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6).flatmap(lambda rows: st.lists(
    st.lists(st.integers(-9, 9), min_size=1, max_size=6).map(tuple), min_size=rows, max_size=rows,
).filter(lambda m: len({len(r) for r in m}) == 1)))
def test_random_games_meet_the_equilibrium_conditions(matrix):
    assert_equilibrium(solve_matrix_game(matrix))


def test_probabilities_are_fractions_of_a_unit_not_lp_noise():
    solution = solve_matrix_game(np.random.default_rng(4).random((12, 15)))
    assert all(p == 0 or p > 1e-9 for p in solution.row_strategy + solution.column_strategy)
    assert_equilibrium(solution)
