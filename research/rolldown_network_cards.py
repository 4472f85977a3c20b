"""Teach RolldownBeta's value network cards and first turns: fitted value iteration on positions of 1 and 2 dice
a side with hands of 0 or 1 card each (some on a first turn), beside the shipped network's own sizes, from a
starting network (the shipped one by default), written to a candidate file (``results/rolldown-network/``).

The positions are valued by one decision of lookahead with cards
(:class:`dicetree.solver.games.rolldown.network_training.CardLookaheadProblem`): every move by the rules, each
child read exactly from the tables where they hold it (the card tables of ``--dice 2 --cards 1`` and the
no-card tables of at most 3 dice), from the network elsewhere (first turns, positions held out). So that the
no-card accuracy is kept, the same network also learns, as the shipped one did, positions of 4 dice without
cards by lookahead (captures read from the 3-dice tables, rerolls from the network) and is fitted to exact
no-card values of 1 to 3 dice (*anchors*). Tables of 4 dice are never read.

A share of the positions of at most 2 dice a side (``--hold-out``, by a fixed hash of the position:
:func:`~dicetree.solver.games.rolldown.network_training.held_out`) is never used: not as a training position,
nor an anchor, nor an exact child (such a child is valued by the network), so that
``benchmarks/rolldown_network_cards.py`` can measure on them.

Each sweep is kept in ``benchmarks/.cells/rolldown_network/``: a stopped run started again with the same
arguments resumes after the last finished sweep.

Usage (the tables first: ``dicetree tablebase build rolldown --dice 2 --cards 1`` and ``--dice 3``)::

    nice -n 5 .venv/bin/python research/rolldown_network_cards.py --tables /work/tables

Retraining on top of a new shipped network is the same command (``--start`` defaults to the shipped file).
Writes ``--out`` and ``results/rolldown-network/<--results-name>.{md,json}``.
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
from report import CELLS, write_report
from rolldown_network_train import RESULTS, print_sweep, sweep_table

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.network import DATA_FILE, load_network, network_payload
from dicetree.solver.games.rolldown.network_training import (
    CardLookaheadProblem,
    card_table_values,
    held_out,
    sample_card_rows,
    sample_rows,
)
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.value_iteration import value_iteration

EXACT_DICE = 3  # the tables read: at most 3 dice a side (the stored 4-dice tables are the 4-dice check's)
SMALL_DICE = 2  # positions of at most this many dice a side are the ones held out


class TrainingTables:
    """Exact values for training: the tables of at most :data:`EXACT_DICE` dice a side, hands included, except
    the held-out positions (NaN there, as where no table is stored)."""

    def __init__(self, tablebase: Tablebase, hold_out: float):
        self.tablebase = tablebase
        self.hold_out = hold_out

    def kept_out(self, rows: np.ndarray) -> np.ndarray:
        small = (rows[:, :6] > 0).sum(axis=1) <= SMALL_DICE
        return small & held_out(rows, self.hold_out)

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        values = card_table_values(self.tablebase, rows, max_dice=EXACT_DICE)
        values[self.kept_out(rows)] = np.nan
        return values

    def sample(self, rng: np.random.Generator, dice: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """About ``count`` no-card positions of ``dice`` a side with their exact values (held-out ones dropped)."""
        rows = sample_rows(rng, dice, count)
        values = self(rows)
        kept = ~np.isnan(values)
        return rows[kept], values[kept]


def card_positions(rng: np.random.Generator, tables: TrainingTables, count: int, one_die_share: float,
                   first_share: float) -> np.ndarray:
    """``count`` positions of 1 or 2 dice a side, hands of 0 or 1 card, some first turns, none held out."""
    one = int(count * one_die_share)
    rows = np.concatenate([sample_card_rows(rng, 1, one, first_share=first_share),
                           sample_card_rows(rng, 2, count - one, first_share=first_share)])
    return rows[~tables.kept_out(rows)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True, help="the tables folder: 2 dice with 1 card, 3 dice without")
    parser.add_argument("--start", default=str(DATA_FILE), help="the network to start from (default: the shipped one)")
    parser.add_argument("--out", default=str(RESULTS / "value_network_cards.json"), help="the candidate's data file")
    parser.add_argument("--results-name", default="cards-train", help="results file stem")
    parser.add_argument("--card-positions", type=int, default=40000, help="positions of 1-2 dice with cards")
    parser.add_argument("--one-die-share", type=float, default=0.2, help="of them, the share of 1 die a side")
    parser.add_argument("--first-share", type=float, default=0.15, help="of them, the share on a first turn")
    parser.add_argument("--positions4", type=int, default=10000, help="positions of 4 dice without cards")
    parser.add_argument("--anchors", type=int, default=40000, help="exact no-card positions of 3 dice")
    parser.add_argument("--card-anchors", type=int, default=0, help="exact positions of 1-2 dice with a card in each "
                        "hand or one (as --card-positions draws them, nobody on a first turn): cheap, as they need "
                        "no lookahead")
    parser.add_argument("--small-anchors", type=int, default=10000, help="exact no-card positions of 1 and of 2 dice")
    parser.add_argument("--hold-out", type=float, default=0.1, help="share of positions of <= 2 dice never used")
    parser.add_argument("--joker-limit", type=int, default=1024, help="Joker outcomes listed (more: that many drawn)")
    parser.add_argument("--sweeps", type=int, default=12)
    parser.add_argument("--epochs", type=int, default=2, help="epochs of training a sweep")
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=0.9, help="the rate's factor a sweep")
    parser.add_argument("--tolerance", type=float, default=1e-3, help="stop when the targets move less on average")
    parser.add_argument("--hidden", default=None, help="widen the starting network's hidden layers to these sizes "
                        "(e.g. 128,64; the same function at the start: dicetree.solver.mlp.Perceptron.widened)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tables = TrainingTables(Tablebase(TableStore(args.tables)), args.hold_out)
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()

    rows = np.concatenate([card_positions(rng, tables, args.card_positions, args.one_die_share, args.first_share),
                           sample_rows(rng, 4, args.positions4)])
    anchor_parts = [tables.sample(rng, size, args.anchors if size == EXACT_DICE else args.small_anchors)
                    for size in range(1, EXACT_DICE + 1)]
    if args.card_anchors:
        drawn = card_positions(rng, tables, args.card_anchors, args.one_die_share, first_share=0.0)
        values = tables(drawn)
        anchor_parts.append((drawn[~np.isnan(values)], values[~np.isnan(values)]))
    anchors = (np.concatenate([r for r, _ in anchor_parts]), np.concatenate([v for _, v in anchor_parts]))
    problem = CardLookaheadProblem(tables, joker_limit=args.joker_limit, rng=np.random.default_rng(args.seed + 1))
    start = load_network(args.start)
    net = start.net
    if args.hidden:
        net = net.widened([int(net.sizes[0]), *(int(h) for h in args.hidden.split(",")), 1], np.random.default_rng(args.seed + 2))
    key = hashlib.sha256(repr(sorted(vars(args).items())).encode()).hexdigest()[:12]
    checkpoint = CELLS / "rolldown_network" / f"cards-{key}.npz"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)

    result = value_iteration(problem, rows, net, rng, anchors=anchors, sweeps=args.sweeps, epochs=args.epochs,
                             rate=args.rate, decay=args.decay, tolerance=args.tolerance, checkpoint=checkpoint,
                             progress=print_sweep)
    seconds = time.perf_counter() - started
    command = "research/rolldown_network_cards.py " + " ".join(sys.argv[1:] if argv is None else argv)
    training = {
        "cards": "1-2 dice a side, hands of 0-1 card, first turns", "sizes": net.sizes.tolist(), "positions": int(len(rows)),
        "anchors": int(len(anchors[0])), "hold_out": args.hold_out, "start": Path(args.start).name,
        "start_sha256": json.loads(Path(args.start).read_text()).get("sha256"), "sweeps": len(result.sweeps),
        "converged": result.converged, "seed": args.seed,
        "last_sweep": vars(result.sweeps[-1]) if result.sweeps else None, "command": command,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(network_payload(result.net, start.clip, training)) + "\n")
    lines = ["# The value network taught cards and first turns, by fitted value iteration", "", f"`{command}`", "",
             f"Network {'-'.join(map(str, result.net.sizes.tolist()))}, started from `{training['start']}` (sha256 {str(training['start_sha256'])[:12]}...); {len(rows):,} "
             f"positions valued by one decision of lookahead ({args.card_positions:,} drawn of 1-2 dice a side with "
             f"hands of 0-1 card, {args.first_share:.0%} on a first turn, less the held-out ones; {args.positions4:,} "
             f"of 4 dice without cards), {len(anchors[0]):,} exact anchors (of them "
             f"{args.card_anchors:,} drawn of 1-2 dice with cards, the rest without cards, 1 to 3 dice); "
             f"{len(result.sweeps)} sweeps ({'converged' if result.converged else 'not converged'}: the criterion is a "
             f"mean change of the targets under {args.tolerance} in a sweep), {seconds:.0f} s.", "",
             *sweep_table(result.sweeps)]
    data = {"training": training, "sweeps": [vars(s) for s in result.sweeps], "seconds": seconds}
    write_report(RESULTS / args.results_name, "\n".join(lines) + "\n", data)


if __name__ == "__main__":
    main()
