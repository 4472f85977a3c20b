"""The value error of leaf evaluations against exact values, side by side on the same positions: RolldownBeta
positions of 1 to ``--dice`` dice a side (no cards, nobody on a first turn; each side's kinds and faces
uniform, kept where the table is stored, as ``research/rolldown_network_train.py`` checks), drawn from a seed
no training run uses, valued by each ``--model`` (a value network's data file) and by ``fitted``. Each mean error
has its 95% interval; paired on the same positions, every other evaluation's error less the last ``--model``'s.
``--worst N`` lists, for each evaluation and size, the N distinct positions it errs on most (a mean can hide one
position valued 0.35 off that a search then walks into).

Usage::

    nice -n 5 .venv/bin/python research/rolldown_network_check.py --dice 4 --tables /work/tables \\
        --model shipped=solver/games/rolldown/value_network.json --model wide=PATH --output results/rolldown-network/value-error

Writes ``<output>.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices on shared cores: threads only contend
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import error_figures, mean_half_width, write_report
from rolldown_network_train import exact_sample

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.network import load_network
from dicetree.solver.games.rolldown.network_training import row_position
from dicetree.solver.games.rolldown.tablebase import Tablebase

GAME = Rolldown()
SEED = 25_000  # a stream apart from the training's and the training checks' (seeds 1 to 1,003)


def fitted_values(rows: np.ndarray) -> np.ndarray:
    """The shipped fitted model's estimate of raw vectors, for their side 0."""
    model = load_model()
    return np.array([model.estimate(row_position(row), 0) for row in rows])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dice", type=int, default=4, help="sizes 1 to this many dice a side")
    parser.add_argument("--tables", required=True)
    parser.add_argument("--model", action="append", default=[], metavar="NAME=PATH", help="a value network's data file")
    parser.add_argument("--draws", type=int, default=20000, help="positions drawn a size (those stored are kept)")
    parser.add_argument("--worst", type=int, default=0, help="list each evaluation's N worst positions a size")
    parser.add_argument("--output", required=True, help="results file stem")
    args = parser.parse_args(argv)
    tablebase = Tablebase(TableStore(args.tables))
    models = dict(item.split("=", 1) for item in args.model)
    rng = np.random.default_rng(SEED)
    results: dict[str, dict[int, dict]] = {name: {} for name in [*models, "fitted"]}
    errors: dict[str, dict[int, np.ndarray]] = {name: {} for name in results}  # absolute, position by position
    worst: dict[str, dict[int, list[dict]]] = {name: {} for name in results}
    for size in range(1, args.dice + 1):
        rows, exact = exact_sample(rng, tablebase, size, args.draws)
        estimates = {name: load_network(path).estimate_rows(rows) for name, path in models.items()}
        for name, values in {**estimates, "fitted": fitted_values(rows)}.items():
            results[name][size], errors[name][size] = error_figures(values, exact), np.abs(values - exact)
            worst[name][size] = worst_positions(rows, values, exact, args.worst)
    base = list(models)[-1] if models else None  # the paired rows' reference: the last network given
    paired = {name: {size: {"difference": float(diff.mean()) if len(diff) else None, "half_width": mean_half_width(diff)}
                     for size, diff in ((n, errors[name][n] - errors[base][n]) for n in errors[name])}
              for name in results if base is not None and name != base}
    sizes = range(1, args.dice + 1)
    lines = ["# Value error against exact values, side by side on the same positions", "",
             "`research/rolldown_network_check.py " + " ".join(sys.argv[1:] if argv is None else argv) + "`", "",
             "Mean absolute error in win probability (± its 95% interval's half-width; in brackets: bias, 95th percentile), positions without cards "
             f"drawn afresh (seed {SEED}), kept where the table is stored.", "",
             "| evaluation | " + " | ".join(f"{n} dice" for n in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for name, found in results.items():
        cells = [f"{found[n]['mean_abs_error']:.4f} ±{found[n]['mean_abs_error_half_width']:.4f} ({found[n]['bias']:+.4f}, "
                 f"{found[n]['p95_abs_error']:.3f})"
                 if found[n]["positions"] else "–" for n in sizes]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| positions | " + " | ".join(f"{results['fitted'][n]['positions']:,}" for n in sizes) + " |")
    if paired:
        lines += ["", f"Paired on the same positions: each evaluation's mean absolute error less `{base}`'s (± the 95% "
                  "interval's half-width).", "", "| evaluation | " + " | ".join(f"{n} dice" for n in sizes) + " |",
                  "|---|" + "---:|" * len(sizes)]
        for name, found in paired.items():
            cells = [f"{found[n]['difference']:+.5f} ±{found[n]['half_width']:.5f}" if found[n]["difference"] is not None
                     else "–" for n in sizes]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if args.worst:
        lines += ["", f"The {args.worst} distinct positions each evaluation errs on most, a size (the value is the chance "
                  "that the side to move wins the round).", "", "| evaluation | dice | position | estimate | exact | error |",
                  "|---|---:|---|---:|---:|---:|"]
        lines += [f"| {name} | {size} | `{item['position']}` | {item['estimate']:.3f} | {item['exact']:.3f} | "
                  f"{item['estimate'] - item['exact']:+.3f} |"
                  for name, sizes_found in worst.items() for size, items in sizes_found.items() for item in items]
    write_report(args.output, "\n".join(lines) + "\n", {"models": models, "seed": SEED, "results": results,
                                                        "paired_against": base, "paired": paired,
                                                        "worst": worst if args.worst else None})


def worst_positions(rows: np.ndarray, values: np.ndarray, exact: np.ndarray, count: int) -> list[dict]:
    """The ``count`` distinct positions of ``rows`` whose estimate is furthest from exact (side 0 to move)."""
    found: list[dict] = []
    seen: set[str] = set()
    for index in np.argsort(-np.abs(values - exact)):
        if len(found) >= count:
            break
        text = GAME.format(row_position(rows[index]))
        if text not in seen:
            seen.add(text)
            found.append({"position": text, "estimate": float(values[index]), "exact": float(exact[index])})
    return found


if __name__ == "__main__":
    main()
