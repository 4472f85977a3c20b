"""Fit RolldownBeta's leaf evaluation to exact endgame values, and check it where the fit never looked.

The model (:mod:`dicetree.solver.games.rolldown.fitted`) is a logistic model of the mover's chance to win
the round with a hidden layer of ``--hidden`` tanh units added to its logit (0: the plain logistic
model). Labels are exact values from the endgame tables (``--tables``, only read; build them first
with ``dicetree tablebase build rolldown --dice 2``, and ``--dice 3`` for the 3-dice check); the tables
with cards it needs, it builds into ``--card-store`` (default: ``--tables``):

* ``--samples`` positions of each table of 2 dice a side without cards (2,016,400 positions in
  all), and ``--card-samples`` of each of ``--card-tables`` tables drawn (seeded) from the 58,464
  with at most 2 dice a side and at most one card in each hand (built first where missing, with
  what they need), are split by table: a seeded third of the tables is held out as the check,
  the rest is fitted;
* one-die positions the mover wins by taking the last pair are left out (the evaluation says so
  without the model), and so are the tables of one die a side without cards, whose exact values
  the model carries as its pair values (they would be fitted to themselves);
* the 3-dice check (``--check-samples`` positions of each 3-dice table without cards, where
  those tables are stored) is positions with more dice than any the fit saw;
* with ``--fit-dice 3`` the 3-dice tables without cards (``--samples3`` positions each) join the
  tables split into fit and check (those with cards stay at most 2 dice: no 3-dice card tables);
* the 4-dice check (``--check4-samples`` positions of each 4-dice table without cards that is
  stored: a build may still be adding to them, and the sample is of the stored ones only).

Every set is scored for the model fitted, the data file as it was before (``shipped``) and the
heuristic, side by side. ``--model-out`` writes the model elsewhere than the shipped data file
(a model kept as an option), ``--results-name`` the figures under another name.

The fit minimizes the cross-entropy against the exact value (soft labels) over standardized
features with a small weight decay, by Adam on minibatches, keeping the weights that did best on
the held-out tables of at most 2 dice (never on 3 dice). The logistic model (``--hidden 0``) is
fitted the same way in the same run, for comparison. Reported per set: mean absolute error, the
mean error (bias) and the log loss in bits of the fitted model, the logistic one and the hand-made
heuristic. The model is written to ``solver/games/rolldown/fitted_evaluation.json`` (versioned,
checksummed) and the figures to ``results/rolldown-evaluation/fit.{md,json}``. The labelled
positions are kept in ``benchmarks/.cells/rolldown_evaluation_fit/`` (a rerun with the same
sampling reads them instead of computing the features again).

Usage::

    .venv/bin/python research/rolldown_evaluation_fit.py --tables /work/tables --card-store /work/tables-rdeval
    .venv/bin/python research/rolldown_evaluation_fit.py --tables /work/tables --card-store /work/tables-rdeval \
        --hidden 0 --fit-dice 3 --model-out results/rolldown-evaluation/fitted_evaluation_3dice.json --results-name fit-3dice
    .venv/bin/python research/rolldown_evaluation_fit.py --samples 50 --card-tables 20 --card-samples 20 --quick
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
import zlib
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import CELLS, write_report

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import RolldownState
from dicetree.solver.games.rolldown.cards import CARD_LETTERS, DIE_SIDES
from dicetree.solver.games.rolldown.evaluation import round_win_estimate
from dicetree.solver.games.rolldown.fitted import (
    CARD_RANKS,
    DATA_FILE,
    FEATURE_NAMES,
    VERSION,
    FittedModel,
    NO_HIDDEN_LAYER,
    HiddenLayer,
    design_row,
    load_model,
    model_payload,
)
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature, all_signatures

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-evaluation"
SLOT = {sides: slot for slot, sides in enumerate(DIE_SIDES)}
LABELS = "endless-draw"
"""In the kept labels' names: labels from tables that score endless play as a draw (cells kept before
that change, named without it, are not read again)."""


def position(signature: Signature, faces: tuple[int, ...]) -> RolldownState:
    """The position of ``signature`` (mover: player 0) with the dice showing ``faces`` (table axes' order)."""
    n = signature.dice
    rows = []
    for dice, side_faces in ((signature.mine, faces[:n]), (signature.theirs, faces[n:])):
        row = [0] * len(DIE_SIDES)
        for sides, face in zip(dice, side_faces):
            row[SLOT[sides]] = face
        rows.append(tuple(row))
    return RolldownState(dice=tuple(rows), mover=0, hands=(signature.my_hand, signature.their_hand))


def immediate_win(signature: Signature, faces: tuple[int, ...]) -> bool:
    return signature.dice == 1 and faces[0] >= faces[1]


def labelled(tablebase: Tablebase, signatures, samples: int | None, rng: np.random.Generator, pairs):
    """(design rows, exact values, heuristic estimates) of ``samples`` positions of each signature (all: None)."""
    rows, labels, heuristic = [], [], []
    for signature in signatures:
        table = tablebase.table(signature)
        if table is None:
            continue
        # indexed, never read whole: a stored 4-dice table decodes to up to 3 GB of float64
        picks = range(table.size) if samples is None or samples >= table.size else rng.choice(table.size, samples, replace=False)
        for index in picks:
            axes = np.unravel_index(index, table.shape)
            faces = tuple(int(k) + 1 for k in axes)
            if immediate_win(signature, faces):
                continue
            state = position(signature, faces)
            rows.append(design_row(state, 0, pairs))
            labels.append(float(table[axes]))
            heuristic.append(round_win_estimate(state, 0))
    return np.array(rows), np.array(labels), np.array(heuristic)


def one_die_pair_values(tablebase: Tablebase) -> dict[tuple[int, int], list[float]]:
    pairs = {}
    for s in DIE_SIDES:
        for t in DIE_SIDES:
            table = tablebase.table(Signature((s,), (t,)))
            if table is None:
                raise SystemExit("the one-die tables are missing: dicetree tablebase build rolldown --dice 2")
            pairs[(s, t)] = [round(float(v), 9) for v in np.asarray(table).reshape(-1)]
    return pairs


class Network(NamedTuple):
    """Weights on standardized inputs: ``bias + linear . x + out . tanh(x[:k] @ first + first_bias)``."""

    bias: np.ndarray
    linear: np.ndarray
    first: np.ndarray
    first_bias: np.ndarray
    out: np.ndarray

    def forward(self, x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.tanh(x[:, :k] @ self.first + self.first_bias)
        return self.bias + x @ self.linear + hidden @ self.out, hidden


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def mean_cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(x: np.ndarray, y: np.ndarray, x_check: np.ndarray, y_check: np.ndarray, units: int, epochs: int,
          seed: int, k: int, decay: float, batch: int = 4096, rate: float = 3e-3) -> tuple[Network, list[float]]:
    """Adam on the soft-label cross-entropy (inputs already standardized); the epoch's weights that
    did best on the check set, with the check loss of every epoch."""
    rng = np.random.default_rng(seed)
    net = Network(np.zeros(1), np.zeros(x.shape[1]), rng.normal(0, 1 / np.sqrt(k), (k, units)),
                  np.zeros(units), rng.normal(0, 0.1, units))
    params = list(net)
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    best, best_loss, history, step = net, np.inf, [], 0
    for epoch in range(epochs):
        order = rng.permutation(len(y))
        lr = rate * (0.5 ** (epoch // max(1, epochs // 4)))  # halved every quarter of the epochs
        for begin in range(0, len(y), batch):
            picked = order[begin:begin + batch]
            xb, yb = x[picked], y[picked]
            current = Network(*params)
            z, hidden = current.forward(xb, k)
            grad_z = (sigmoid(z) - yb) / len(yb)
            grad_hidden = np.outer(grad_z, current.out) * (1 - hidden**2)
            grads = [np.array([grad_z.sum()]), xb.T @ grad_z + decay * current.linear,
                     xb[:, :k].T @ grad_hidden + decay * current.first, grad_hidden.sum(axis=0),
                     hidden.T @ grad_z + decay * current.out]
            step += 1
            for i, g in enumerate(grads):
                moments[i] = 0.9 * moments[i] + 0.1 * g
                squares[i] = 0.999 * squares[i] + 0.001 * g * g
                params[i] = params[i] - lr * (moments[i] / (1 - 0.9**step)) / (
                    np.sqrt(squares[i] / (1 - 0.999**step)) + 1e-8)
        current = Network(*params)
        loss = mean_cross_entropy(sigmoid(current.forward(x_check, k)[0]), y_check)
        history.append(loss)
        print(f"  {units} hidden units, epoch {epoch + 1}/{epochs}: check cross-entropy {loss:.5f}", flush=True)
        if loss < best_loss:
            best, best_loss = current, loss
    return best, history


def to_model(net: Network, mean: np.ndarray, scale: np.ndarray, pairs) -> FittedModel:
    """The network on raw design rows: the linear part's standardization unfolded, the hidden layer's kept."""
    k, c = len(FEATURE_NAMES), len(CARD_RANKS)
    linear = net.linear / scale
    bias = float(net.bias[0] - np.sum(net.linear * mean / scale))
    hidden = HiddenLayer(tuple(mean[:k]), tuple(scale[:k]), tuple(tuple(column) for column in net.first.T),
                         tuple(net.first_bias), tuple(net.out)) if net.out.size else NO_HIDDEN_LAYER
    return FittedModel(tuple(linear[:k]), bias, tuple(linear[k:k + c]), tuple(linear[k + c:]), pairs, hidden)


def labelled_cached(name: str, compute) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``compute(rng)``'s (rows, labels, heuristic), kept in ``benchmarks/.cells`` under ``name``, with a
    generator seeded by ``name`` (so a set sampled again is the same set, whatever was kept)."""
    path = CELLS / "rolldown_evaluation_fit" / f"{name}.npz"
    if path.exists():
        found = np.load(path)
        return found["rows"], found["labels"], found["heuristic"]
    rows, labels, heuristic = compute(np.random.default_rng(zlib.crc32(name.encode())))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + ".part.npz")
    np.savez(partial, rows=rows, labels=labels, heuristic=heuristic)
    partial.replace(path)
    return rows, labels, heuristic


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = -np.mean(y * np.log2(p) + (1 - y) * np.log2(1 - p))
    return {"mean_abs_error": float(np.mean(np.abs(p - y))), "bias": float(np.mean(p - y)),
            "log_loss_bits": float(log_loss), "within_0.05": float(np.mean(np.abs(p - y) <= 0.05))}


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table (text columns left, figures right) and the blank line after it."""
    align = ["---:" if k and rows and rows[0][k][:1] in "+-0123456789" else "---" for k in range(len(header))]
    return ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"] + ["| " + " | ".join(r) + " |" for r in rows] + [""]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default=None, help="table folder (default: $DICETREE_TABLES, else the cache)")
    parser.add_argument("--card-store", default=None, help="table folder the tables with cards are built in "
                        "(default: --tables)")
    parser.add_argument("--samples", type=int, default=4000, help="positions sampled per table without cards")
    parser.add_argument("--card-tables", type=int, default=3000, help="tables with cards sampled (built if missing)")
    parser.add_argument("--card-samples", type=int, default=300, help="positions sampled per table with cards")
    parser.add_argument("--check-samples", type=int, default=300, help="positions sampled per 3-dice table")
    parser.add_argument("--fit-dice", type=int, default=2, choices=(2, 3), help="fit on tables of at most this "
                        "many dice a side without cards (those with cards: at most 2)")
    parser.add_argument("--samples3", type=int, default=1000, help="positions sampled per 3-dice table fitted")
    parser.add_argument("--check4-samples", type=int, default=300, help="positions sampled per stored 4-dice table")
    parser.add_argument("--model-out", default=None, help="the data file written (default: the shipped one)")
    parser.add_argument("--results-name", default="fit", help="results/rolldown-evaluation/<name>.{md,json}")
    parser.add_argument("--hidden", type=int, default=32, help="hidden tanh units (0: the logistic model alone)")
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--decay", type=float, default=1e-6, help="weight decay (L2) of every weight")
    parser.add_argument("--no-logistic", action="store_true", help="do not fit the logistic model for comparison")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="print only: no data file, no results")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tablebase = Tablebase(TableStore(args.tables), ace="online")
    card_base = Tablebase(TableStore(args.card_store), ace="online") if args.card_store else tablebase
    pairs = one_die_pair_values(tablebase)

    shuffler = random.Random(args.seed)
    card_tables = [s for s in all_signatures(2, 1) if s.cards]
    shuffler.shuffle(card_tables)
    card_tables = card_tables[:args.card_tables]
    card_base.build(roots=card_tables)  # those not stored yet, with what they need
    print(f"card tables ready, {time.perf_counter() - started:.0f} s", flush=True)
    three = [Signature(m, t) for m in itertools.combinations(DIE_SIDES, 3) for t in itertools.combinations(DIE_SIDES, 3)]
    signatures = [s for s in all_signatures(2, 0) if s.dice == 2] + card_tables
    shuffler.shuffle(signatures)
    held_out = set(signatures[::3])
    if args.fit_dice == 3:  # split apart, so the 2-dice split (and the labels kept for it) stays the same
        fitted_three = three[:]
        shuffler.shuffle(fitted_three)
        held_out |= set(fitted_three[::3])
        signatures += fitted_three
    sets = {}
    sampling = f"{LABELS}-s{args.seed}-n{args.samples}-c{args.card_tables}x{args.card_samples}"
    # (set name, its tables, positions per table, where they are, the kept labels' name)
    groups = [("at most 2 dice, no cards", [s for s in signatures if not s.cards and s.dice == 2], args.samples,
               tablebase, "nocards"),
              ("at most 2 dice, cards", [s for s in signatures if s.cards], args.card_samples, card_base, "cards")]
    if args.fit_dice == 3:
        groups.append(("3 dice, no cards", [s for s in signatures if s.dice == 3], args.samples3, tablebase,
                       f"three{args.samples3}"))
    for name, chosen, samples, base, key in groups:
        for part, members in (("fit", [s for s in chosen if s not in held_out]),
                              ("check", [s for s in chosen if s in held_out])):
            found = labelled_cached(f"{sampling}-{part}-{key}", lambda rng, members=members, samples=samples, base=base:
                                    labelled(base, members, samples, rng, pairs))
            print(f"{part}, {name}: {len(found[1]):,} positions, {time.perf_counter() - started:.0f} s", flush=True)
            if len(found[1]):
                sets[f"{part}, {name}"] = found
    carried = []  # the checks on more dice than any fitted
    if args.fit_dice == 2:
        check3 = labelled_cached(f"{LABELS}-s{args.seed}-three{args.check_samples}",
                                 lambda rng: labelled(tablebase, three, args.check_samples, rng, pairs))
        if len(check3[1]):
            sets["check, 3 dice, no cards"] = check3
            carried.append("check, 3 dice, no cards")
    four = [s for s in (Signature(m, t) for m in itertools.combinations(DIE_SIDES, 4)
                        for t in itertools.combinations(DIE_SIDES, 4)) if tablebase.has(s)]
    if args.check4_samples and four:  # the 4-dice tables stored so far (a build may be adding to them)
        check4 = labelled_cached(f"{LABELS}-s{args.seed}-four{args.check4_samples}-of{len(four)}",
                                 lambda rng: labelled(tablebase, four, args.check4_samples, rng, pairs))
        name4 = f"check, 4 dice, no cards ({len(four)} of 225 tables, the stored ones)"
        sets[name4] = check4
        carried.append(name4)
        print(f"{name4}: {len(check4[1]):,} positions, {time.perf_counter() - started:.0f} s", flush=True)

    fit_names = [name for name in sets if name.startswith("fit")]
    check_names = [name for name in sets if name.startswith("check") and name not in carried]
    x_fit = np.vstack([sets[n][0] for n in fit_names])
    y_fit = np.concatenate([sets[n][1] for n in fit_names])
    mean, scale = x_fit.mean(axis=0), np.maximum(x_fit.std(axis=0), 1e-9)
    x_check = (np.vstack([sets[n][0] for n in check_names]) - mean) / scale
    y_check = np.concatenate([sets[n][1] for n in check_names])
    x_fit = (x_fit - mean) / scale
    k = len(FEATURE_NAMES)
    models, histories = {}, {}
    for label, units in (("fitted", args.hidden), ("logistic", 0)):
        if label == "logistic" and (not args.hidden or args.no_logistic):
            continue
        net, histories[label] = train(x_fit, y_fit, x_check, y_check, units, args.epochs, args.seed, k, args.decay)
        models[label] = to_model(net, mean, scale, pairs)
        print(f"{label}: fitted, {time.perf_counter() - started:.0f} s", flush=True)
    model = models["fitted"]
    models["shipped"] = load_model(DATA_FILE)  # the data file as it was before this fit, side by side

    report = {"version": VERSION, "seed": args.seed, "samples": args.samples, "card_tables": args.card_tables,
              "card_samples": args.card_samples, "check_samples": args.check_samples, "hidden": args.hidden,
              "epochs": args.epochs, "fit_dice": args.fit_dice,
              "samples3": args.samples3, "check4_samples": args.check4_samples, "check_cross_entropy_by_epoch": histories, "scores": {},
              "positions": {name: int(len(y)) for name, (_, y, _) in sets.items()}}
    for name, (x, y, heuristic) in sets.items():
        report["scores"][name] = {label: scores(sigmoid(found.logits(x)), y) for label, found in models.items()}
        report["scores"][name]["heuristic"] = scores(heuristic, y)
    report["seconds"] = time.perf_counter() - started
    summary = {name: by_model["fitted"] for name, by_model in report["scores"].items()}

    lines = ["# RolldownBeta: the fitted leaf evaluation against exact values", "",
             f"`.venv/bin/python research/rolldown_evaluation_fit.py --samples {args.samples} "
             f"--card-tables {args.card_tables} --card-samples {args.card_samples} "
             f"--check-samples {args.check_samples} --fit-dice {args.fit_dice} --samples3 {args.samples3} "
             f"--check4-samples {args.check4_samples} --hidden {args.hidden} --epochs {args.epochs} --decay {args.decay:g} --seed {args.seed}` "
             f"({report['seconds']:.0f} s on 2 shared cores). Labels: exact values of the "
             f"endgame tables for the mover; tables split two thirds fit, one third check; the {args.fit_dice + 1}-dice "
             "positions (and any with more) have more dice than any the fit saw; `shipped`: the data file "
             "before this fit. " + (
                 f"`fitted`: {args.hidden} hidden tanh units on top of the logistic model; `logistic`: the same "
                 "fit with none." if args.hidden else "`fitted`: the logistic model (no hidden unit)."), ""]
    lines += table(["set", "positions", "model", "mean abs error", "mean error (bias)", "log loss (bits)", "within 0.05"],
                   [[name, f"{report['positions'][name]:,}", model_name, f"{s['mean_abs_error']:.4f}", f"{s['bias']:+.4f}",
                     f"{s['log_loss_bits']:.4f}", f"{s['within_0.05']:.1%}"]
                    for name, by_model in report["scores"].items() for model_name, s in by_model.items()])
    lines += table(["feature", "linear weight"], [[n, f"{w:+.4f}"] for n, w in zip(FEATURE_NAMES, model.weights)]
                   + [["bias", f"{model.bias:+.4f}"]])
    lines += table(["card", "weight in the mover's hand", "in the opponent's"],
                   [[CARD_LETTERS[r], f"{a:+.4f}", f"{b:+.4f}"]
                    for r, a, b in zip(CARD_RANKS, model.my_card_weights, model.their_card_weights)])
    text = "\n".join(lines) + "\n"
    if args.quick:
        print(text)
        return
    extra = {"fitted_by": "research/rolldown_evaluation_fit.py", "seed": args.seed, "samples": args.samples,
             "card_tables": args.card_tables, "card_samples": args.card_samples, "epochs": args.epochs,
             "fit_dice": args.fit_dice,
             "scores": summary}
    model_out = Path(args.model_out) if args.model_out else DATA_FILE
    model_out.write_text(json.dumps(model_payload(model, extra), indent=1) + "\n")
    print(f"wrote {model_out}")
    write_report(RESULTS / args.results_name, text, report)


if __name__ == "__main__":
    main()
