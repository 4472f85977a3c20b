"""How close RolldownBeta's leaf evaluations come to exact values with cards in the hands, and without.

Per evaluation (``--evaluations``: ``fitted``, ``network`` the shipped network, or a ``--model NAME=PATH``),
the mean absolute error in win probability (with its bias, 95th percentile and largest) against the tables on:

* positions of 1 and of 2 dice a side with **one card in each hand** (each one of a deck's 27, uniformly),
  faces uniform, nobody on a first turn, drawn only from the share that
  ``research/rolldown_network_cards.py`` holds out (``--hold-out``, the same fixed hash): positions that its
  candidate never saw as a training position, an anchor or an exact child;
* positions of 3 and of 4 dice a side **without cards** (the 4-dice ones from the 4-dice tables stored),
  drawn afresh: the no-card accuracy the card training must keep.

Usage (the tables: ``dicetree tablebase build rolldown --dice 2 --cards 1``, ``--dice 3``, and the 4-dice
tables of ``results/rolldown-network/README.md``)::

    nice -n 5 .venv/bin/python benchmarks/rolldown_network_cards.py --tables /work/tables \\
        --model cards=results/rolldown-network/value_network_cards.json --evaluations cards,network,fitted

Writes ``results/rolldown-network/cards-values.{md,json}`` (``--output``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from report import error_figures, write_report
from rolldown_evaluation import model_estimate

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.network import FORMAT as NETWORK_FORMAT
from dicetree.solver.games.rolldown.network import load_network
from dicetree.solver.games.rolldown.network_training import (
    card_table_values,
    held_out,
    row_position,
    sample_card_rows,
    sample_rows,
)
from dicetree.solver.games.rolldown.tablebase import Tablebase

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-network"


def estimator(name: str, models: dict[str, str]):
    """Raw vectors -> the evaluation's estimates for their side 0."""
    if name == "network":
        return load_network().estimate_rows
    if name in models and json.loads(Path(models[name]).read_text()).get("format") == NETWORK_FORMAT:
        return load_network(models[name]).estimate_rows
    single = model_estimate(models[name]) if name in models else load_model().estimate
    return lambda rows: np.array([single(row_position(row), 0) for row in rows])


def position_sets(tablebase: Tablebase, rng: np.random.Generator, count: int, hold_out: float):
    """(label, raw vectors, exact values) of each set measured."""
    sets = []
    for dice in (1, 2):
        rows = sample_card_rows(rng, dice, count * 20, card_share=1.0)
        rows = rows[held_out(rows, hold_out)]
        exact = card_table_values(tablebase, rows)
        kept = np.flatnonzero(~np.isnan(exact))[:count]
        sets.append((f"{dice} {'die' if dice == 1 else 'dice'}, one card in each hand", rows[kept], exact[kept]))
    for dice, draws in ((3, count), (4, count * 40)):
        rows = sample_rows(rng, dice, draws)
        exact = card_table_values(tablebase, rows)
        kept = np.flatnonzero(~np.isnan(exact))[:count]
        sets.append((f"{dice} dice, no cards", rows[kept], exact[kept]))
    return sets


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True, help="the tables folder")
    parser.add_argument("--evaluations", default="network,fitted", help="comma-separated: fitted, network, --model names")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=PATH", help="a network's data file")
    parser.add_argument("--positions", type=int, default=5000, help="positions of each set")
    parser.add_argument("--hold-out", type=float, default=0.1, help="the training's held-out share")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--output", default=str(RESULTS / "cards-values"), help="results file stem")
    args = parser.parse_args(argv)
    models = dict(item.split("=", 1) for item in args.model)
    names = [n for n in args.evaluations.split(",") if n]
    tablebase = Tablebase(TableStore(args.tables))
    sets = position_sets(tablebase, np.random.default_rng(args.seed), args.positions, args.hold_out)
    results: dict[str, dict[str, dict]] = {}
    errors: dict[str, dict[str, np.ndarray]] = {}
    for name in names:
        estimate = estimator(name, models)
        started = time.perf_counter()
        predicted = {label: estimate(rows) for label, rows, _ in sets}
        results[name] = {label: error_figures(predicted[label], exact) for label, _, exact in sets}
        errors[name] = {label: np.abs(predicted[label] - exact) for label, _, exact in sets}
        print(f"{name}: {time.perf_counter() - started:.1f} s", flush=True)
    for name in names[1:]:  # the first evaluation against each other, on the same positions
        for label, _, _ in sets:
            difference = errors[names[0]][label] - errors[name][label]
            if len(difference):
                spread = 1.96 * difference.std(ddof=1) / np.sqrt(len(difference))
                results[name][label]["first_less_this"] = [float(difference.mean() - spread), float(difference.mean()),
                                                           float(difference.mean() + spread)]
    command = "benchmarks/rolldown_network_cards.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = ["# Leaf evaluations against exact values, with cards and without", "", f"`{command}`", "",
             "Mean absolute error in win probability (bias; 95th percentile; largest). Positions with cards are of the "
             f"share held out of the card training ({args.hold_out:.0%}); nobody on a first turn.", "",
             "| set | positions | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    for label, rows, _ in sets:
        cells = []
        for name in names:
            f = results[name][label]
            cells.append(f"**{f['mean_abs_error']:.4f}** ({f['bias']:+.4f}; {f['p95_abs_error']:.3f}; "
                         f"{f['max_abs_error']:.3f})" if f["positions"] else "-")
        lines.append(f"| {label} | {len(rows):,} | " + " | ".join(cells) + " |")
    lines += ["", f"Paired on the same positions: `{names[0]}`'s mean absolute error less each other's (95% interval; "
              "negative: the first is closer to exact).", "", "| set | " + " | ".join(names[1:]) + " |",
              "|---|" + "---:|" * (len(names) - 1)]
    for label, _, _ in sets:
        cells = []
        for name in names[1:]:
            low, mean, high = results[name][label].get("first_less_this", [float("nan")] * 3)
            cells.append(f"{mean:+.4f} ({low:+.4f} to {high:+.4f})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    data = {"command": command, "models": models, "seed": args.seed, "hold_out": args.hold_out, "results": results}
    write_report(args.output, "\n".join(lines) + "\n", data)


if __name__ == "__main__":
    main()
