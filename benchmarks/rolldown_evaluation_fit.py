"""Fit RolldownBeta's leaf evaluation to exact endgame values, and check it where the fit never looked.

The model (:mod:`dicetree.solver.games.rolldown.fitted`) is a logistic model of the mover's chance to win
the round. Labels are exact values from the endgame tables (``--tables``; build them first with
``dicetree tablebase build rolldown --dice 2``, and ``--dice 3`` for the 3-dice check; the tables with
cards it needs, it builds):

* ``--samples`` positions of each table of 2 dice a side without cards (2,016,400 positions in
  all), and ``--card-samples`` of each of ``--card-tables`` tables drawn (seeded) from the 58,464
  with at most 2 dice a side and at most one card in each hand (built first where missing, with
  what they need), are split by table: a seeded third of the tables is held out as the check,
  the rest is fitted;
* one-die positions the mover wins by taking the last pair are left out (the evaluation says so
  without the model), and so are the tables of one die a side without cards, whose exact values
  the model carries as its pair values (they would be fitted to themselves);
* the 3-dice check (``--check-samples`` positions of each 3-dice table without cards, where
  those tables are stored) is positions with more dice than any the fit saw.

The fit is soft-label logistic regression (cross-entropy against the exact value, standardized
features, a small ridge, scipy's L-BFGS). Reported per set: mean absolute error, the mean error
(bias) and the log loss in bits of the fitted model and of the hand-made heuristic. The model is
written to ``solver/games/rolldown/fitted_evaluation.json`` (versioned, checksummed) and the
figures to ``results/rolldown-evaluation/fit.{md,json}``.

Usage::

    .venv/bin/python benchmarks/rolldown_evaluation_fit.py                      # ~5 minutes
    .venv/bin/python benchmarks/rolldown_evaluation_fit.py --card-samples 2 --quick   # smoke test, no files
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from pathlib import Path

import numpy as np
from report import write_report
from scipy.optimize import minimize

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
    design_row,
    model_payload,
)
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature, all_signatures

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-evaluation"
SLOT = {sides: slot for slot, sides in enumerate(DIE_SIDES)}
RIDGE = 1e-5


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
        flat = np.asarray(table).reshape(-1)
        picks = range(flat.size) if samples is None or samples >= flat.size else rng.choice(flat.size, samples, replace=False)
        for index in picks:
            faces = tuple(int(k) + 1 for k in np.unravel_index(index, table.shape))
            if immediate_win(signature, faces):
                continue
            state = position(signature, faces)
            rows.append(design_row(state, 0, pairs))
            labels.append(float(flat[index]))
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


def cross_entropy(params: np.ndarray, x: np.ndarray, y: np.ndarray):
    z = x @ params[:-1] + params[-1]
    p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    eps = 1e-12
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + RIDGE * np.sum(params[:-1] ** 2)
    grad_z = (p - y) / len(y)
    return loss, np.append(x.T @ grad_z + 2 * RIDGE * params[:-1], grad_z.sum())


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
    parser.add_argument("--samples", type=int, default=1500, help="positions sampled per table without cards")
    parser.add_argument("--card-tables", type=int, default=600, help="tables with cards sampled (built if missing)")
    parser.add_argument("--card-samples", type=int, default=200, help="positions sampled per table with cards")
    parser.add_argument("--check-samples", type=int, default=300, help="positions sampled per 3-dice table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="print only: no data file, no results")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    tablebase = Tablebase(TableStore(args.tables), ace="online")
    pairs = one_die_pair_values(tablebase)

    shuffler = random.Random(args.seed)
    card_tables = [s for s in all_signatures(2, 1) if s.cards]
    shuffler.shuffle(card_tables)
    card_tables = card_tables[:args.card_tables]
    tablebase.build(roots=card_tables)  # those not stored yet, with what they need
    print(f"card tables ready, {time.perf_counter() - started:.0f} s", flush=True)
    signatures = [s for s in all_signatures(2, 0) if s.dice == 2] + card_tables
    shuffler.shuffle(signatures)
    held_out = set(signatures[::3])
    sets = {}
    for name, with_cards in (("no cards", False), ("cards", True)):
        chosen = [s for s in signatures if bool(s.cards) == with_cards]
        samples = args.card_samples if with_cards else args.samples
        for part, members in (("fit", [s for s in chosen if s not in held_out]),
                              ("check", [s for s in chosen if s in held_out])):
            found = labelled(tablebase, members, samples, rng, pairs)
            print(f"{part}, {name}: {len(found[1]):,} positions, {time.perf_counter() - started:.0f} s", flush=True)
            if len(found[1]):
                sets[f"{part}, at most 2 dice, {name}"] = found
    three = [Signature(m, t) for m in itertools.combinations(DIE_SIDES, 3) for t in itertools.combinations(DIE_SIDES, 3)]
    check3 = labelled(tablebase, three, args.check_samples, rng, pairs)
    if len(check3[1]):
        sets["check, 3 dice, no cards"] = check3

    fit_names = [name for name in sets if name.startswith("fit")]
    x_fit = np.vstack([sets[n][0] for n in fit_names])
    y_fit = np.concatenate([sets[n][1] for n in fit_names])
    scale = np.maximum(x_fit.std(axis=0), 1e-9)
    result = minimize(cross_entropy, np.zeros(x_fit.shape[1] + 1), args=(x_fit / scale, y_fit), jac=True,
                      method="L-BFGS-B", options={"maxiter": 2000})
    coefficients = result.x[:-1] / scale
    bias = float(result.x[-1])
    k, c = len(FEATURE_NAMES), len(CARD_RANKS)
    model = FittedModel(tuple(coefficients[:k]), bias, tuple(coefficients[k:k + c]), tuple(coefficients[k + c:]), pairs)

    report = {"version": VERSION, "seed": args.seed, "card_samples": args.card_samples,
              "check_samples": args.check_samples, "converged": bool(result.success), "scores": {},
              "positions": {name: int(len(y)) for name, (_, y, _) in sets.items()}}
    for name, (x, y, heuristic) in sets.items():
        fitted = 1.0 / (1.0 + np.exp(-np.clip(x @ coefficients + bias, -30, 30)))
        report["scores"][name] = {"fitted": scores(fitted, y), "heuristic": scores(heuristic, y)}
    report["seconds"] = time.perf_counter() - started
    summary = {name: by_model["fitted"] for name, by_model in report["scores"].items()}

    lines = ["# RolldownBeta: the fitted leaf evaluation against exact values", "",
             f"`.venv/bin/python benchmarks/rolldown_evaluation_fit.py --samples {args.samples} "
             f"--card-tables {args.card_tables} --card-samples {args.card_samples} "
             f"--check-samples {args.check_samples} --seed {args.seed}` ({report['seconds']:.0f} s; "
             f"L-BFGS {'converged' if result.success else 'did NOT converge'}). Labels: exact values of the "
             "endgame tables for the mover; tables split two thirds fit, one third check; the 3-dice "
             "positions have more dice than any the fit saw.", ""]
    lines += table(["set", "positions", "model", "mean abs error", "mean error (bias)", "log loss (bits)", "within 0.05"],
                   [[name, f"{report['positions'][name]:,}", model_name, f"{s['mean_abs_error']:.4f}", f"{s['bias']:+.4f}",
                     f"{s['log_loss_bits']:.4f}", f"{s['within_0.05']:.1%}"]
                    for name, by_model in report["scores"].items() for model_name, s in by_model.items()])
    lines += table(["feature", "weight"], [[n, f"{w:+.4f}"] for n, w in zip(FEATURE_NAMES, model.weights)]
                   + [["bias", f"{bias:+.4f}"]])
    lines += table(["card", "weight in the mover's hand", "in the opponent's"],
                   [[CARD_LETTERS[r], f"{a:+.4f}", f"{b:+.4f}"]
                    for r, a, b in zip(CARD_RANKS, model.my_card_weights, model.their_card_weights)])
    text = "\n".join(lines) + "\n"
    if args.quick:
        print(text)
        return
    extra = {"fitted_by": "benchmarks/rolldown_evaluation_fit.py", "seed": args.seed,
             "card_tables": args.card_tables, "card_samples": args.card_samples, "scores": summary}
    DATA_FILE.write_text(json.dumps(model_payload(model, extra), indent=1) + "\n")
    print(f"wrote {DATA_FILE}")
    write_report(RESULTS / "fit", text, report)


if __name__ == "__main__":
    main()
