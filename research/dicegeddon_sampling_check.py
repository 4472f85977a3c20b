"""How far are the army study's sampled cells from the truth? A check against an exact study.

Where a pairing of armies is too large to solve, ``dicetree study dicegeddon`` samples it: both
sides played by the same depth-limited solver strategy. That estimates the win probability under
*that strategy's* play, not under optimal play, so it can be biased as well as noisy. This script
measures both on army size 12, where every cell is known exactly (``results/dicegeddon/army-12.csv``,
from ``dicetree study dicegeddon --army-size 12``): it samples every cell instead (``exact_limit``
0) and reports the mean and largest error against the exact values, the mean signed error, how
many 95% intervals contain the exact value, and whether the optimal mixed army is the same.

Usage::

    .venv/bin/python research/dicegeddon_sampling_check.py                       # ~20 s on 2 cores
    .venv/bin/python research/dicegeddon_sampling_check.py --strategy solver:depth=2 --games 200

Writes ``results/dicegeddon/sampling-check.{md,json}`` (``--output`` to change).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import write_report

from dicetree.solver.strategies import parse_strategy
from dicetree.solver.games.dicegeddon.armies import DEFAULT_STRATEGY, StudyConfig, army_name, run_army_study
from dicetree.solver.games.dicegeddon.game import Dicegeddon
from dicetree.solver.games.dicegeddon.state import DEFAULT_DICE
from dicetree.solver.matrix_game import solve_matrix_game

RESULTS = Path(__file__).resolve().parent.parent / "results" / "dicegeddon"


def read_matrix(path: Path) -> tuple[list[str], np.ndarray]:
    with path.open() as f:
        rows = list(csv.reader(f))
    return [r[0] for r in rows[1:]], np.array([[float(v) for v in r[1:]] for r in rows[1:]])


def parse_army_name(name: str) -> tuple[int, ...]:
    return tuple(int(part[1:]) for part in name.split(","))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exact", default=str(RESULTS / "army-12.csv"), help="an exact study's matrix (CSV)")
    parser.add_argument("--army-size", type=int, default=12)
    parser.add_argument("--strategy", default=DEFAULT_STRATEGY)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", default=str(RESULTS / "sampling-check"))
    args = parser.parse_args(argv)
    names, exact = read_matrix(Path(args.exact))
    armies = tuple(parse_army_name(n) for n in names)
    strategy = str(parse_strategy(args.strategy))
    config = StudyConfig(args.army_size, DEFAULT_DICE, False, False, armies, exact_limit=0, strategy=strategy,
                         games=args.games, seed=args.seed, game_class=Dicegeddon)
    study = run_army_study(config, jobs=args.jobs)

    errors = np.array([c.value - exact[c.row, c.col] for c in study.cells])
    covered = sum(c.low <= exact[c.row, c.col] <= c.high for c in study.cells)
    half_widths = np.array([(c.high - c.low) / 2 for c in study.cells])
    worst = max(study.cells, key=lambda c: abs(c.value - exact[c.row, c.col]))
    exact_mix = solve_matrix_game(exact - 0.5).row_strategy

    def mix(strategy_):
        return ", ".join(f"{army_name(armies[k])} {p:.3f}" for k, p in enumerate(strategy_) if p > 1e-9)

    report = {
        "army_size": args.army_size, "strategy": strategy, "games_per_cell": args.games, "seed": args.seed,
        "cells": len(study.cells), "mean_abs_error": float(np.abs(errors).mean()),
        "max_abs_error": float(np.abs(errors).max()), "mean_signed_error": float(errors.mean()),
        "mean_half_width": float(half_widths.mean()), "intervals_containing_exact": int(covered),
        "worst_cell": {"a": names[worst.row], "b": names[worst.col], "sampled": worst.value,
                       "exact": float(exact[worst.row, worst.col])},
        "exact_equilibrium": mix(exact_mix), "sampled_equilibrium": mix(study.row_strategy),
        "seconds": study.seconds, "jobs": args.jobs,
    }
    lines = [
        f"# Dicegeddon army study: sampled cells against exact ones (army size {args.army_size})", "",
        f"`.venv/bin/python research/dicegeddon_sampling_check.py --strategy {strategy} --games {args.games}` "
        f"({study.seconds:.0f} s with {args.jobs} processes). Every cell of the exact study "
        f"`{Path(args.exact).name}` sampled instead by self-play of `{strategy}`, {args.games} games a cell.", "",
        "| measure | value |", "|---|---|",
        f"| cells | {len(study.cells)} |",
        f"| mean absolute error | {report['mean_abs_error']:.4f} |",
        f"| largest absolute error | {report['max_abs_error']:.4f} ({names[worst.row]} vs {names[worst.col]}: "
        f"sampled {worst.value:.3f}, exact {exact[worst.row, worst.col]:.3f}) |",
        f"| mean signed error (bias) | {report['mean_signed_error']:+.4f} |",
        f"| mean 95% half-width | {report['mean_half_width']:.4f} |",
        f"| 95% intervals containing the exact value | {covered} of {len(study.cells)} |",
        f"| optimal mix, exact matrix | {report['exact_equilibrium']} |",
        f"| optimal mix, sampled matrix | {report['sampled_equilibrium']} |", "",
    ]
    write_report(args.output, "\n".join(lines), report)


if __name__ == "__main__":
    main()
