"""Train RolldownBeta's value network by fitted value iteration from the exact tables of the size below, and
measure it against exact values (``results/rolldown-network/``).

For ``--dice N`` the network learns positions of N dice a side (no cards, nobody on a first turn) from one
decision of lookahead (:class:`dicetree.solver.games.rolldown.network_training.LookaheadProblem`): a capture's
value read exactly from the tables of N - 1 dice, a reroll's averaged from the network itself; it is never
shown an exact value of N dice. Beside them it is fitted to exact values of every smaller size (*anchors*,
sampled from the tables), so one network answers for 1 to N dice. Sweeps go on until the targets' mean change
in a sweep is below ``--tolerance``. Then it is checked on positions drawn afresh (another seed): against the
exact values of N dice where those tables are stored, and of each smaller size.

Each sweep is kept in ``benchmarks/.cells/rolldown_network/<name>.npz``: a stopped run started again with the
same arguments resumes after the last finished sweep. ``--start PATH`` starts from another network's data
file (e.g. the 3-dice network when learning 4 dice); with wider ``--hidden`` layers it is widened first, its
output kept. ``--fresh`` fits new positions every sweep (the shipped network's third stage: see
``results/rolldown-network/README.md``), ``--fresh-anchors`` new anchors every sweep too.

Usage::

    nice -n 5 .venv/bin/python research/rolldown_network_train.py --dice 3 --tables /work/tables \\
        --out results/rolldown-network/value_network_3dice.json

Writes the network's data file (``--out``) and ``results/rolldown-network/train-<N>dice.{md,json}``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices on shared cores: threads only contend
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import CELLS, error_figures, write_report

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.network import load_network, network_payload
from dicetree.solver.games.rolldown.network_kernel import INPUT_LENGTH
from dicetree.solver.games.rolldown.network_training import LookaheadProblem, sample_rows, table_values
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.mlp import Perceptron
from dicetree.solver.value_iteration import Sweep, value_iteration

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-network"
CHECK_SEED_OFFSET = 1000  # the check's positions come from another stream than the training's


def exact_sample(rng: np.random.Generator, tablebase: Tablebase, dice: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` positions of ``dice`` dice a side whose tables are stored, with their exact values."""
    rows = sample_rows(rng, dice, count)
    values = table_values(tablebase, rows)
    kept = ~np.isnan(values)
    return rows[kept], values[kept]


def without_unseen_inputs(net: Perceptron, unseen: np.ndarray) -> Perceptron:
    """``net`` with zero weights from the inputs that no training position had (cards, first turns): those
    weights kept their random start, and would otherwise move the estimate of a position with cards at random.
    The trained positions' values do not change."""
    params = net.params.copy()
    Perceptron(net.sizes, params).layers[0][0][unseen, :] = 0.0  # the layers are views of params
    return Perceptron(net.sizes, params)


def print_sweep(sweep: Sweep) -> None:
    """A sweep's figures, one line (the training's progress)."""
    print(f"sweep {sweep.sweep:3d}: targets moved {sweep.mean_change:.5f} (max {sweep.max_change:.3f}), "
          f"residual {sweep.residual:.5f}, anchors' error {sweep.anchor_error:.5f}, {sweep.seconds:.1f}s", flush=True)


def sweep_table(sweeps: list[Sweep]) -> list[str]:
    """The sweeps' figures as the lines of a Markdown table."""
    return ["| sweep | targets' mean change | largest change | residual (mean abs) | anchors' error | seconds |",
            "|---:|---:|---:|---:|---:|---:|"] + [
        f"| {s.sweep} | {s.mean_change:.5f} | {s.max_change:.4f} | {s.residual:.5f} | {s.anchor_error:.5f} | "
        f"{s.seconds:.1f} |" for s in sweeps]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dice", type=int, default=3, help="the size learned (dice a side)")
    parser.add_argument("--tables", required=True, help="the tables folder (N - 1 dice a side at least)")
    parser.add_argument("--positions", type=int, default=40000, help="positions of N dice valued by lookahead")
    parser.add_argument("--anchors", type=int, default=150000, help="exact positions of N - 1 dice")
    parser.add_argument("--small-anchors", type=int, default=10000, help="exact positions of each size below N - 1")
    parser.add_argument("--hidden", default=None, help="hidden layers' sizes (default 64,32, or --start's; with "
                        "--start, wider layers widen its network, its output kept: new units start silent)")
    parser.add_argument("--sweeps", type=int, default=30)
    parser.add_argument("--epochs", type=int, default=2, help="epochs of training a sweep")
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--decay", type=float, default=0.95, help="the rate's factor a sweep")
    parser.add_argument("--tolerance", type=float, default=1e-3, help="stop when the targets move less on average")
    parser.add_argument("--check", type=int, default=20000, help="fresh positions of each size to check against")
    parser.add_argument("--start", help="start from this network data file")
    parser.add_argument("--batch", type=int, default=256, help="rows a training step")
    parser.add_argument("--fresh", action="store_true", help="draw --positions new positions every sweep (more "
                        "positions seen for the same memory; a sweep's change is then measured on the new ones)")
    parser.add_argument("--fresh-anchors", action="store_true", help="draw new anchors every sweep too (as many as "
                        "--anchors and --small-anchors; fixed ones are learned by heart over many sweeps); the anchors' "
                        "error is then measured on each sweep's new anchors before fitting them")
    parser.add_argument("--minutes", type=float, default=None, help="start no sweep that would end after this many "
                        "minutes (from this start, a resumed run's too; not part of the checkpoint's key, so a stopped "
                        "run started again with --minutes 0 writes the network of its last finished sweep)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="the network's data file to write")
    parser.add_argument("--results-name", default=None, help="results file stem (default train-<N>dice)")
    args = parser.parse_args(argv)
    start = load_network(args.start).net if args.start else None
    hidden = ([int(h) for h in args.hidden.split(",") if h] if args.hidden
              else start.sizes[1:-1].tolist() if start is not None else [64, 32])
    tablebase = Tablebase(TableStore(args.tables))
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()

    def below(raw: np.ndarray) -> np.ndarray:
        values = table_values(tablebase, raw)
        if np.isnan(values).any():
            raise SystemExit(f"the tables of {args.dice - 1} dice a side are not all in {args.tables}: build them first")
        return values

    def draw_anchors(r: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        drawn = [exact_sample(r, tablebase, size, args.anchors if size == args.dice - 1 else args.small_anchors)
                 for size in range(1, args.dice)]
        return np.concatenate([rows for rows, _ in drawn]), np.concatenate([values for _, values in drawn])

    anchors = draw_anchors(rng)
    rows = sample_rows(rng, args.dice, args.positions)
    sizes = [INPUT_LENGTH, *hidden, 1]
    net = (Perceptron.initial(sizes, rng) if start is None
           else start if start.sizes.tolist() == sizes else start.widened(sizes, rng))
    # the checkpoint's key: the arguments as the script had them before --batch and the fresh options (so an older
    # command resumes)
    keyed = {k: v for k, v in vars(args).items()
             if not (k == "batch" and v == 256) and not (k in ("fresh", "fresh_anchors") and not v) and k != "minutes"}
    keyed["hidden"] = args.hidden or "64,32"
    key = hashlib.sha256(repr(sorted(keyed.items())).encode()).hexdigest()[:12]
    checkpoint = CELLS / "rolldown_network" / f"train-{args.dice}dice-{key}.npz"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)

    problem = LookaheadProblem(args.dice, below)
    result = value_iteration(problem, rows, net, rng, anchors=anchors, sweeps=args.sweeps, epochs=args.epochs,
                             rate=args.rate, decay=args.decay, batch=args.batch, tolerance=args.tolerance,
                             checkpoint=checkpoint, progress=print_sweep,
                             fresh=(lambda r: sample_rows(r, args.dice, args.positions)) if args.fresh else None,
                             fresh_anchors=draw_anchors if args.fresh_anchors else None,
                             time_limit=None if args.minutes is None else 60 * args.minutes)
    seconds = time.perf_counter() - started
    training = {
        "dice": args.dice, "positions": int(len(rows)), "anchors": int(len(anchors[0])), "hidden": hidden,
        "sweeps": len(result.sweeps), "converged": result.converged, "seed": args.seed, "fresh": args.fresh,
        "fresh_anchors": args.fresh_anchors,
        "last_sweep": vars(result.sweeps[-1]) if result.sweeps else None,
        "command": "research/rolldown_network_train.py " + " ".join(sys.argv[1:] if argv is None else argv),
    }
    unseen = ~(problem.encode(rows).any(axis=0) | problem.encode(anchors[0]).any(axis=0))
    payload = network_payload(without_unseen_inputs(result.net, unseen), 1e-3, training)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload) + "\n")
    model = load_network(out)

    check_rng = np.random.default_rng(args.seed + CHECK_SEED_OFFSET)
    checks = {}
    for size in range(1, args.dice + 1):
        rows_c, exact = exact_sample(check_rng, tablebase, size, args.check)
        checks[size] = error_figures(model.estimate_rows(rows_c), exact)
    lines = [f"# The value network for {args.dice} dice a side, by fitted value iteration", "",
             f"`{training['command']}`", "",
             f"Network {INPUT_LENGTH}-{'-'.join(map(str, hidden))}-1; {len(rows):,} positions of {args.dice} dice "
             f"valued by one decision of lookahead, {len(anchors[0]):,} exact anchors of 1 to {args.dice - 1} dice; "
             f"{len(result.sweeps)} sweeps ({'converged' if result.converged else 'not converged'}: the criterion is a "
             f"mean change of the targets under {args.tolerance} in a sweep"
             f"{'; stopped by --minutes' if len(result.sweeps) < args.sweeps and not result.converged else ''}), "
             f"{seconds:.0f} s.", "",
             *sweep_table(result.sweeps)]
    lines += ["", "Checked on positions drawn afresh (no cards, nobody on a first turn), against exact values:", "",
              "| dice a side | positions | mean abs error | bias | 95th percentile | largest |", "|---:|---:|---:|---:|---:|---:|"]
    for size, c in checks.items():
        if c["positions"]:
            lines.append(f"| {size} | {c['positions']:,} | {c['mean_abs_error']:.4f} | {c['bias']:+.4f} | "
                         f"{c['p95_abs_error']:.4f} | {c['max_abs_error']:.4f} |")
        else:
            lines.append(f"| {size} | 0 | (tables not stored) | | | |")
    data = {"training": training, "sweeps": [vars(s) for s in result.sweeps], "checks": checks, "seconds": seconds}
    write_report(RESULTS / (args.results_name or f"train-{args.dice}dice"), "\n".join(lines) + "\n", data)


if __name__ == "__main__":
    main()
