"""Which Dicegeddon army to pick: exact win probabilities of every legal army against every other
from the opening roll, and the optimal mixed choice (a Nash equilibrium of the matrix game).

Usage (no ``dicetree study dicegeddon`` subcommand yet: ``cli/study.py`` is RolldownBeta's)::

    python -m solver.games.dicegeddon.armies --army-size 10 -o results/dicegeddon/army-10

Every cell is :func:`solver.exact.solve` of ``game.start(row army, column army)``: the row army
is player A, and the value is A's win probability (a draw counts 1/2). The opening is symmetric
(the lower active total moves first whoever is A; ties are a fair roll-off), so the matrix
satisfies ``M[j][i] = 1 - M[i][j]``; only the upper triangle is solved (a test checks the
symmetry on solved pairs). The solves use :class:`CanonicalDicegeddon` (dice kept in a sorted
order, so armies with identical dice have fewer states; the same values).

>>> legal_armies(10, (4, 6, 8, 10, 12, 20))
[(4,), (4, 4), (4, 6), (6,), (8,), (10,)]
"""

from __future__ import annotations

import argparse
import itertools
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.exact import solve
from solver.games.dicegeddon.rules import CanonicalDicegeddon, Dicegeddon
from solver.matrix_game import solve_matrix_game


def legal_armies(army_size: int, dice) -> list[tuple[int, ...]]:
    """Every non-empty multiset of ``dice`` (sides) with at most ``army_size`` sides, sorted."""
    dice = sorted(dice)
    out = []

    def extend(army: list[int], start: int, total: int) -> None:
        if army:
            out.append(tuple(army))
        for k in range(start, len(dice)):
            if total + dice[k] <= army_size:
                extend(army + [dice[k]], k, total + dice[k])

    extend([], 0, 0)
    return sorted(out)


def army_name(army) -> str:
    return ",".join(f"d{s}" for s in army)


@dataclass
class ArmyStudy:
    armies: list[tuple[int, ...]]
    matrix: np.ndarray  # row army's win probability as A against the column army
    states: np.ndarray  # states solved per cell (0: by symmetry)
    residual: float  # largest Bellman residual over all solves
    certified: bool
    row_strategy: tuple[float, ...]
    value: float
    seconds: float


def run_army_study(game: Dicegeddon, armies=None, max_states: int = 2_000_000, on_cell=None) -> ArmyStudy:
    started = time.perf_counter()
    armies = armies or legal_armies(game.army_size, game.dice)
    n = len(armies)
    matrix = np.full((n, n), 0.5)
    states = np.zeros((n, n), dtype=np.int64)
    residual = 0.0
    certified = True
    solver_game = CanonicalDicegeddon(army_size=game.army_size, dice=game.dice, mulligan=game.mulligan,
                                      several_defenders=game.several_defenders, armies=game.armies)
    for i, j in itertools.combinations_with_replacement(range(n), 2):
        solution = solve(solver_game, solver_game.start(armies[i], armies[j]), max_states=max_states)
        value = solution.value(solution.root)
        matrix[i, j] = value
        matrix[j, i] = 1.0 - value
        states[i, j] = solution.num_states
        residual = max(residual, solution.residual)
        certified = certified and solution.certified
        if on_cell is not None:
            on_cell(armies[i], armies[j], value, solution)
    nash = solve_matrix_game(matrix - 0.5)
    return ArmyStudy(armies, matrix, states, residual, certified, nash.row_strategy, nash.value + 0.5,
                     time.perf_counter() - started)


def write_army_study(stem: Path | str, study: ArmyStudy, title: str) -> list[Path]:
    from solver.study import heatmap, write_csv

    stem = Path(stem)
    names = [army_name(a) for a in study.armies]
    written = [write_csv(stem.with_suffix(".csv"), study.matrix.tolist(), names, names, "A army \\ B army")]
    heatmap(stem.with_suffix(".png"), study.matrix, names, names, title=title, xlabel="B's army",
            ylabel="A's army", cbar_label="A's win probability")
    written.append(stem.with_suffix(".png"))
    nash_path = stem.parent / f"{stem.name}-nash.csv"
    write_csv(nash_path, [[p] for p in study.row_strategy], names, ["probability"], "army")
    written.append(nash_path)
    return written


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--army-size", type=int, required=True)
    parser.add_argument("--mulligan", action="store_true")
    parser.add_argument("--several-defenders", action="store_true")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args(argv)
    game = Dicegeddon(army_size=args.army_size, mulligan=args.mulligan, several_defenders=args.several_defenders)

    def show(a, b, value, solution):
        print(f"{army_name(a):>14} vs {army_name(b):<14} {value:.9f}  {solution.num_states:>9,} states  "
              f"residual {solution.residual:.1e}", flush=True)

    study = run_army_study(game, on_cell=show)
    variant = " (mulligan)" if args.mulligan else ""
    for path in write_army_study(args.output, study, f"Dicegeddon, army size {args.army_size}{variant}: A's win probability"):
        print(f"wrote {path}")
    print("Nash equilibrium (value 1/2, symmetric game):")
    for army, p in zip(study.armies, study.row_strategy):
        if p > 0:
            print(f"  {army_name(army)}: {p:.6f}")
    print(f"largest residual {study.residual:.1e}; certified: {study.certified}; {study.seconds:.1f} s")


if __name__ == "__main__":
    main()
