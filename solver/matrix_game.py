"""Zero-sum matrix games solved exactly by linear programming.

A matrix game: the row player picks a row, the column player a column, at the same time; the row
player receives ``payoff[row][column]`` and the column player loses it (any constant-sum game is
one after subtracting the constant). :func:`solve_matrix_game` returns both players' optimal mixed
strategies and the value (von Neumann's minimax theorem: the row player can guarantee the value,
the column player can hold the row player to it)::

    >>> pennies = solve_matrix_game([[1, -1], [-1, 1]])        # matching pennies
    >>> abs(pennies.value) < 1e-9, pennies.row_strategy, pennies.column_strategy
    (True, (0.5, 0.5), (0.5, 0.5))
    >>> saddle = solve_matrix_game([[3, 1, 4], [2, 0, 1]])      # a pure saddle point at (0, 1)
    >>> saddle.value, saddle.row_strategy, saddle.column_strategy, saddle.method
    (1.0, (1.0, 0.0), (0.0, 1.0, 0.0), 'saddle point')

How it is solved:

* a single row or a single column is a plain min or max (``method`` ``'single row'`` / ``'single
  column'``); a pure saddle point (the best row minimum equals the best column maximum) needs no
  LP (``'saddle point'``);
* otherwise one linear program (``scipy.optimize.linprog``, HiGHS): maximize ``v`` subject to
  ``sum_i x_i A[i, j] >= v`` for every column ``j``, ``sum_i x_i = 1``, ``x >= 0``. The column
  player's optimal strategy is the LP's dual solution (the marginals of the column constraints),
  so one LP gives both sides (``'linear program'``). Should the duals be unusable, the column
  player's own LP is solved too.

Strategies are cleaned of the solver's rounding (entries below :data:`PROBABILITY_EPSILON` become
0) and sum to 1. :meth:`MatrixSolution.row_values` gives each pure row's payoff against the column
strategy: every row the row strategy uses scores the value, the others no more (the equilibrium
conditions, which the tests check).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dicetree.solver.game import GameError

PROBABILITY_EPSILON = 1e-9
"""Strategy entries below this are rounding noise of the LP and set to 0."""
SADDLE_TOLERANCE = 1e-12
"""A row minimum and a column maximum closer than this are a saddle point."""


@dataclass(frozen=True)
class MatrixSolution:
    """The solution of a zero-sum matrix game: the row player's value and both optimal strategies.

    ``payoff`` is the matrix (rows x columns) as solved; ``method`` says how it was solved.
    """

    value: float
    row_strategy: tuple[float, ...]
    column_strategy: tuple[float, ...]
    payoff: np.ndarray
    method: str

    def row_values(self) -> tuple[float, ...]:
        """Each pure row's expected payoff against the optimal column strategy (row player's view)."""
        return tuple(float(v) for v in self.payoff @ np.asarray(self.column_strategy))

    def column_values(self) -> tuple[float, ...]:
        """Each pure column's expected payoff against the optimal row strategy (row player's view:
        the column player prefers low values)."""
        return tuple(float(v) for v in np.asarray(self.row_strategy) @ self.payoff)


def solve_matrix_game(payoff: Sequence[Sequence[float]] | np.ndarray) -> MatrixSolution:
    """Solve the zero-sum matrix game ``payoff`` (the row player maximizes, the column player minimizes).

    >>> rps = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])   # rock, paper, scissors
    >>> [round(p, 6) for p in rps.row_strategy], abs(rps.value) < 1e-9, rps.method
    ([0.333333, 0.333333, 0.333333], True, 'linear program')
    """
    matrix = np.asarray(payoff, dtype=float)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise GameError(f"a matrix game needs at least one row and one column, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise GameError("a matrix game's payoffs must be finite numbers")
    rows, columns = matrix.shape
    if rows == 1:
        j = int(np.argmin(matrix[0]))
        return MatrixSolution(float(matrix[0, j]), (1.0,), _pure(columns, j), matrix, "single row")
    if columns == 1:
        i = int(np.argmax(matrix[:, 0]))
        return MatrixSolution(float(matrix[i, 0]), _pure(rows, i), (1.0,), matrix, "single column")
    row_minima = matrix.min(axis=1)
    column_maxima = matrix.max(axis=0)
    i, j = int(np.argmax(row_minima)), int(np.argmin(column_maxima))
    if column_maxima[j] - row_minima[i] <= SADDLE_TOLERANCE:
        return MatrixSolution(float(matrix[i, j]), _pure(rows, i), _pure(columns, j), matrix, "saddle point")
    return _solve_by_lp(matrix)


def _solve_by_lp(matrix: np.ndarray) -> MatrixSolution:
    """The row player's LP; the column strategy from its duals (or from the column player's LP)."""
    rows, columns = matrix.shape
    x, value, duals = _maximin_lp(matrix)
    y = None
    if duals is not None:
        y = _clean(-duals)
        # The duals are the column player's optimal strategy when they hold the row player to the value.
        if y is not None and float(np.max(matrix @ y)) > value + 1e-7 * (1 + abs(value)):
            y = None
    if y is None:
        y, _, _ = _maximin_lp(-matrix.T)  # the column player maximizes the negated, transposed game
    return MatrixSolution(value, tuple(float(p) for p in x), tuple(float(p) for p in y), matrix, "linear program")


def _maximin_lp(matrix: np.ndarray) -> tuple[np.ndarray, float, np.ndarray | None]:
    """The row player's optimal strategy and value, and the duals of the column constraints."""
    rows, columns = matrix.shape
    # Variables (x_1 .. x_rows, v); minimize -v.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-matrix.T, np.ones((columns, 1))])  # v - sum_i x_i A[i, j] <= 0
    b_ub = np.zeros(columns)
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    from scipy.optimize import linprog  # 0.5 s to import: loaded by the first matrix game that needs an LP

    result = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0 or result.x is None:  # x is set exactly when it succeeded
        raise GameError(f"the matrix game's linear program failed: {result.message}")
    x = _clean(result.x[:rows])
    if x is None:
        raise GameError("the matrix game's linear program returned no strategy")
    duals = getattr(getattr(result, "ineqlin", None), "marginals", None)
    value = float(np.min(x @ matrix))  # what the cleaned strategy guarantees
    return x, value, None if duals is None else np.asarray(duals, dtype=float)


def _clean(strategy: np.ndarray) -> np.ndarray | None:
    """Rounding noise removed and renormalized; None if nothing is left."""
    cleaned = np.where(strategy < PROBABILITY_EPSILON, 0.0, strategy)
    total = float(cleaned.sum())
    if total <= 0 or abs(total - 1.0) > 1e-6:
        return None
    return cleaned / total


def _pure(size: int, index: int) -> tuple[float, ...]:
    return tuple(1.0 if k == index else 0.0 for k in range(size))


__all__ = ["MatrixSolution", "solve_matrix_game"]
