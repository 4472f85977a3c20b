"""What limits the value network's error: fit networks of several sizes to *exact* values of one size (plain
supervised learning from the tables, no lookahead), and measure them on positions never used in the fit.

Fitted value iteration (``research/rolldown_network_train.py``) cannot come closer to the exact values than a
network of the same size fitted to the exact values themselves, with as many positions and epochs: this
measures that floor per setting (hidden layers, positions, epochs, batch, rate), and the time a fit takes.
The networks made here are diagnostics only (they were shown exact values of the size they are checked on)
and are not kept.

Each setting is ``HIDDEN/POSITIONS/EPOCHS[/BATCH[/RATE]]``, e.g. ``64,32/40000/60`` (hidden sizes
comma-separated; the rate falls by ``--decay`` an epoch). Each finished setting is kept in
``benchmarks/.cells/rolldown_network_capacity/``, so a stopped run resumes.

Usage::

    nice -n 5 .venv/bin/python research/rolldown_network_capacity.py --dice 3 --tables /work/tables \\
        --settings 64,32/40000/60 128,64/40000/60 64,32/150000/30 --output results/rolldown-network/capacity-3dice
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices on shared cores: threads only contend
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import cell, write_report
from rolldown_network_train import error_figures, exact_sample

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.network import encode_rows
from dicetree.solver.games.rolldown.network_kernel import INPUT_LENGTH
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.mlp import AdamTrainer, Perceptron

CHECK_SEED_OFFSET = 1000  # held-out positions from another stream than the fit's


def fit(rows: np.ndarray, values: np.ndarray, check: tuple[np.ndarray, np.ndarray], setting: str, seed: int,
        decay: float) -> dict:
    """One setting's fit to exact values, and its error on the fitted and on the held-out positions."""
    hidden, count, epochs, *rest = setting.split("/")
    batch = int(rest[0]) if rest else 256
    rate = float(rest[1]) if len(rest) > 1 else 2e-3
    sizes = [INPUT_LENGTH, *(int(h) for h in hidden.split(",")), 1]
    rng = np.random.default_rng(seed)
    x, y = encode_rows(rows[: int(count)]), values[: int(count)]
    trainer = AdamTrainer(Perceptron.initial(sizes, rng))
    started = time.process_time()
    for epoch in range(int(epochs)):
        trainer.epoch(x, y, rng, batch=batch, rate=rate * decay**epoch)
    seconds = time.process_time() - started
    parameters = int(trainer.net.params.size)
    return {"setting": setting, "sizes": sizes, "parameters": parameters, "positions": int(len(y)),
            "epochs": int(epochs), "batch": batch, "rate": rate, "cpu_seconds": seconds,
            "fitted": error_figures(trainer.net.probabilities(x), y),
            "held_out": error_figures(trainer.net.probabilities(encode_rows(check[0])), check[1])}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dice", type=int, default=3, help="the size fitted (dice a side)")
    parser.add_argument("--tables", required=True)
    parser.add_argument("--settings", nargs="+", required=True, help="HIDDEN/POSITIONS/EPOCHS[/BATCH[/RATE]]")
    parser.add_argument("--decay", type=float, default=0.95, help="the rate's factor an epoch")
    parser.add_argument("--check", type=int, default=20000, help="held-out positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", required=True, help="results file stem")
    args = parser.parse_args(argv)
    tablebase = Tablebase(TableStore(args.tables))
    most = max(int(s.split("/")[1]) for s in args.settings)
    rows, values = exact_sample(np.random.default_rng(args.seed), tablebase, args.dice, most)
    check = exact_sample(np.random.default_rng(args.seed + CHECK_SEED_OFFSET), tablebase, args.dice, args.check)
    results = []
    for setting in args.settings:
        name = (f"{args.dice}dice-{setting.replace('/', '_').replace(',', '-')}-d{args.decay}-s{args.seed}"
                f"-of{most}-check{args.check}")  # the positions drawn depend on how many
        found = cell("rolldown_network_capacity", name, lambda setting=setting: fit(rows, values, check, setting, args.seed, args.decay))
        print(f"{setting}: held-out error {found['held_out']['mean_abs_error']:.4f}, fitted "
              f"{found['fitted']['mean_abs_error']:.4f}, {found['cpu_seconds']:.0f} CPU s", flush=True)
        results.append(found)
    lines = [f"# The value network fitted to exact {args.dice}-dice values: the floor of its error per setting", "",
             "`research/rolldown_network_capacity.py " + " ".join(sys.argv[1:] if argv is None else argv) + "`", "",
             f"Positions of {args.dice} dice a side (no cards), values from the tables; held out: "
             f"{len(check[1]):,} positions drawn afresh. Rate falls by {args.decay} an epoch.", "",
             "| hidden | parameters | positions | epochs | batch | rate | error on the fitted positions | "
             "held-out error | held-out 95th percentile | CPU s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {'-'.join(map(str, r['sizes'][1:-1]))} | {r['parameters']:,} | {r['positions']:,} | "
                     f"{r['epochs']} | {r['batch']} | {r['rate']:g} | {r['fitted']['mean_abs_error']:.4f} | "
                     f"**{r['held_out']['mean_abs_error']:.4f}** | {r['held_out']['p95_abs_error']:.4f} | "
                     f"{r['cpu_seconds']:.0f} |")
    write_report(args.output, "\n".join(lines) + "\n", {"dice": args.dice, "decay": args.decay, "results": results})


if __name__ == "__main__":
    main()
