"""Refit RolldownBeta's logistic leaf evaluation to *choices*: the value differences of sibling moves.

The shipped model (:mod:`dicetree.solver.games.rolldown.fitted`, fitted to values by
``research/rolldown_evaluation_fit.py``) misses the depth-2 search's best move where a few
hundredths of error in comparing a capture with a reroll decide (``results/rolldown-evaluation/``).
This script fits the same logistic model to what a search compares. Parent positions of 2 dice a
side without cards (``--parents`` of each of the 225 tables in ``--tables``, only read), the mover
deciding: each legal move's value one decision later through the model (a reroll: the mean over the
rolled die's faces of the model's value of the position the opponent then decides in; a capture:
the one-die position left, whose value the model takes from its exact pair values) and exactly (the
tables' move values). The loss is

    cross-entropy of the model at the reroll children against their exact values
    + ``--weight`` x mean over parents of the sum over its moves within ``--window`` of the exact best of
      (d_a - mean_a d_a)^2, with d_a = model's value of move a less its exact value

(the second term is zero when the model ranks and spaces the moves like the tables, whatever their
common level), plus ``--decay`` x the squared distance from the shipped weights (standardized).
Minimized by L-BFGS from the shipped weights; the card weights stay the shipped ones (the parents hold
no cards). Tables are split by a seeded third held out; for each ``--weights`` the held-out
parents' depth-1 choices (exact best share, mean loss) and the children's value error are
reported beside the shipped model's, and the weight with the lowest held-out mean loss is written to
``--model-out`` (default ``results/rolldown-evaluation/fitted_evaluation_choices.json``; never the
shipped file). No 3-dice value enters the fit or the choice of weight: check the model with
``benchmarks/rolldown_evaluation.py --model choices=<model-out> --evaluations fitted,choices``.

Usage::

    .venv/bin/python research/rolldown_evaluation_choices.py --tables /work/tables
    .venv/bin/python research/rolldown_evaluation_choices.py --tables /work/tables --parents 20 --weights 0,10 --quick

Writes ``results/rolldown-evaluation/fit-choices.{md,json}`` and the model's data file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import write_report
from rolldown_evaluation_fit import RESULTS, Network, position, sigmoid, table, to_model
from scipy.optimize import minimize

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.fitted import CARD_RANKS, FEATURE_NAMES, FittedModel, design_row, load_model, model_payload
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import all_signatures

TIE = 1e-9


class Choices(NamedTuple):
    """The parents' moves, one decision deep: ``rows`` (design rows of the children the model values)
    belong to move ``row_move`` with probability ``prob``; the parent's mover's value of such a child
    is ``flip + sign * p`` (p: the model's chance for the child's mover); ``label`` is that child's
    exact value for its mover. Per move: ``fixed`` (the part of the model's value that no weight
    moves), ``exact``, ``move_parent``."""

    rows: np.ndarray
    row_move: np.ndarray
    prob: np.ndarray
    sign: np.ndarray
    flip: np.ndarray
    label: np.ndarray
    fixed: np.ndarray
    exact: np.ndarray
    move_parent: np.ndarray
    parents: int


def expand(game: Rolldown, model: FittedModel, tablebase: Tablebase, parents: list[RolldownState]) -> Choices:
    """Every legal move of each of ``parents`` (player 0 to move) valued one decision deep."""
    rows, row_move, prob, sign, flip, label = [], [], [], [], [], []
    fixed, exact, move_parent = [], [], []
    for p, state in enumerate(parents):
        for action, value in tablebase.move_values(state):
            move = len(exact)
            exact.append(value)
            move_parent.append(p)
            constant = 0.0
            child = game.apply(state, action)
            outcomes = game.chance_outcomes(child) if game.is_chance(child) else [(None, 1.0)]
            for outcome, chance in outcomes:
                after = child if outcome is None else game.apply(child, outcome)
                mover = game.current_player(after)
                if mover < 0 or sum(1 for f in after.dice[mover] if f) == 1:
                    constant += chance * game.evaluate(after, 0)  # a result, or the exact pair values
                    continue
                rows.append(design_row(after, mover, model.pair_values))
                row_move.append(move)
                prob.append(chance)
                sign.append(1.0 if mover == 0 else -1.0)
                flip.append(0.0 if mover == 0 else 1.0)
                label.append(tablebase.probe(after))
            fixed.append(constant)
    return Choices(np.array(rows), np.array(row_move), np.array(prob), np.array(sign), np.array(flip),
                   np.array(label), np.array(fixed), np.array(exact), np.array(move_parent), len(parents))


def move_values(choices: Choices, p: np.ndarray) -> np.ndarray:
    """The parents' movers' value of each move, from the children's chances ``p`` (one per row)."""
    c = choices
    return c.fixed + np.bincount(c.row_move, weights=c.prob * (c.flip + c.sign * p), minlength=len(c.exact))


def choice_figures(choices: Choices, q: np.ndarray) -> dict:
    """Depth-1 choices from move values ``q``: exact best share and mean loss over the parents."""
    c = choices
    order = np.lexsort((-q, c.move_parent))  # by parent, the model's best move first
    first = order[np.r_[True, c.move_parent[order][1:] != c.move_parent[order][:-1]]]
    best = np.full(c.parents, -np.inf)
    np.maximum.at(best, c.move_parent, c.exact)
    loss = best[c.move_parent[first]] - c.exact[first]
    return {"parents": int(c.parents), "exact_share": float(np.mean(loss <= TIE)), "mean_loss": float(np.mean(loss))}


class Objective:
    """The loss of standardized logistic weights ``theta`` (bias first) on ``choices``, with its gradient."""

    def __init__(self, choices: Choices, mean: np.ndarray, scale: np.ndarray, start: np.ndarray, weight: float,
                 window: float, decay: float):
        c = choices
        self.choices, self.start, self.weight, self.decay = c, start, weight, decay
        self.x = np.hstack([np.ones((len(c.rows), 1)), (c.rows - mean) / scale])
        best = np.full(c.parents, -np.inf)
        np.maximum.at(best, c.move_parent, c.exact)
        self.near = c.exact >= best[c.move_parent] - window  # the moves the choice term compares
        self.counts = np.bincount(c.move_parent, weights=self.near, minlength=c.parents)

    def __call__(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        c = self.choices
        z = np.clip(self.x @ theta, -30, 30)
        p = sigmoid(z)
        y = c.label
        eps = 1e-12
        value = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
        grad_z = (p - y) / len(y)
        d = (move_values(c, p) - c.exact) * self.near
        centre = np.bincount(c.move_parent, weights=d, minlength=c.parents) / np.maximum(self.counts, 1)
        deviation = (d - centre[c.move_parent]) * self.near
        choice = float(np.sum(deviation**2)) / c.parents
        # d(move value)/dz of a row: prob * sign * p (1 - p); the centring's own derivative sums to 0
        grad_z = grad_z + self.weight * 2.0 / c.parents * deviation[c.row_move] * c.prob * c.sign * p * (1 - p)
        shift = theta - self.start
        loss = value + self.weight * choice + self.decay * float(shift @ shift)
        return loss, self.x.T @ grad_z + 2.0 * self.decay * shift


def standardized(model: FittedModel, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``model``'s bias and linear weights on standardized rows (the card weights included)."""
    raw = np.array(model.weights + model.my_card_weights + model.their_card_weights)
    return np.r_[model.bias + raw @ mean, raw * scale]


def as_model(theta: np.ndarray, mean: np.ndarray, scale: np.ndarray, pairs) -> FittedModel:
    k = len(FEATURE_NAMES)
    empty = np.zeros((k, 0))
    return to_model(Network(theta[:1], theta[1:], empty, np.zeros(0), np.zeros(0)), mean, scale, pairs)


def value_figures(choices: Choices, p: np.ndarray) -> dict:
    error = p - choices.label
    return {"children": int(len(p)), "mean_abs_error": float(np.mean(np.abs(error))), "bias": float(np.mean(error))}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default=None, help="table folder (default: $DICETREE_TABLES, else the cache)")
    parser.add_argument("--parents", type=int, default=120, help="parent positions per 2-dice table")
    parser.add_argument("--weights", default="0,3,10,30,100", help="choice-term weights tried, comma-separated")
    parser.add_argument("--window", type=float, default=0.1, help="moves compared: within this of the exact best")
    parser.add_argument("--decay", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model-out", default=str(RESULTS / "fitted_evaluation_choices.json"))
    parser.add_argument("--quick", action="store_true", help="print only: no data file, no results")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tablebase = Tablebase(TableStore(args.tables), ace="online")
    game = Rolldown()
    shipped = load_model()
    rng = random.Random(args.seed)
    signatures = [s for s in all_signatures(2, 0) if s.dice == 2]
    rng.shuffle(signatures)
    held_out = set(signatures[::3])
    sets = {}
    for part, members in (("fit", [s for s in signatures if s not in held_out]),
                          ("check", [s for s in signatures if s in held_out])):
        parents = []
        for signature in members:
            shape = tablebase.table(signature).shape
            for _ in range(args.parents):
                parents.append(position(signature, tuple(rng.randint(1, n) for n in shape)))
        sets[part] = expand(game, shipped, tablebase, parents)
        print(f"{part}: {len(parents):,} parents, {len(sets[part].exact):,} moves, {len(sets[part].rows):,} "
              f"children valued, {time.perf_counter() - started:.0f} s", flush=True)

    fit = sets["fit"]
    c = len(CARD_RANKS)
    mean = np.r_[fit.rows.mean(axis=0)[:len(FEATURE_NAMES)], np.zeros(2 * c)]
    scale = np.r_[np.maximum(fit.rows.std(axis=0)[:len(FEATURE_NAMES)], 1e-6), np.ones(2 * c)]
    start = standardized(shipped, mean, scale)

    def figures(theta: np.ndarray) -> dict:
        found = {}
        for part, choices in sets.items():
            x = np.hstack([np.ones((len(choices.rows), 1)), (choices.rows - mean) / scale])
            p = sigmoid(np.clip(x @ theta, -30, 30))
            found[part] = {**choice_figures(choices, move_values(choices, p)), **value_figures(choices, p)}
        return found

    results = {"shipped": figures(start)}
    thetas = {}
    for weight in (float(w) for w in args.weights.split(",")):
        objective = Objective(fit, mean, scale, start, weight, args.window, args.decay)
        solved = minimize(objective, start, jac=True, method="L-BFGS-B", options={"maxiter": 300})
        thetas[weight] = solved.x
        results[f"weight {weight:g}"] = found = figures(solved.x)
        print(f"weight {weight:g}: {solved.nit} iterations, held-out choices {found['check']['exact_share']:.1%}, "
              f"loss {found['check']['mean_loss']:.4f}, children's error {found['check']['mean_abs_error']:.4f}, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    chosen = min(thetas, key=lambda w: results[f"weight {w:g}"]["check"]["mean_loss"])
    model = as_model(thetas[chosen], mean, scale, shipped.pair_values)  # card weights: the shipped ones, unmoved

    command = (f"`.venv/bin/python research/rolldown_evaluation_choices.py --parents {args.parents} --weights "
               f"{args.weights} --window {args.window} --decay {args.decay} --seed {args.seed}`")
    lines = ["# RolldownBeta's logistic evaluation refitted to choices (2 dice a side, depth 1)", "",
             f"{command} ({time.perf_counter() - started:.0f} s). Parents: 2-dice positions without cards, a third of "
             f"the tables held out; moves compared within {args.window} of the exact best. Chosen (lowest held-out "
             f"mean loss): weight {chosen:g}, written to `{os.path.relpath(args.model_out, RESULTS.parent.parent)}`.", ""]
    header = ["model", "set", "parents", "exact best move", "mean loss", "children's mean abs error", "bias"]
    rows = [[name, part, f"{f['parents']:,}", f"{f['exact_share']:.1%}", f"{f['mean_loss']:.4f}",
             f"{f['mean_abs_error']:.4f}", f"{f['bias']:+.4f}"]
            for name, found in results.items() for part, f in found.items()]
    lines += table(header, rows)
    report = {"args": vars(args), "chosen_weight": chosen, "results": results}
    if args.quick:
        print("\n".join(lines))
        return
    extra = {"fitted_by": "research/rolldown_evaluation_choices.py", "seed": args.seed, "parents": args.parents,
             "choice_weight": chosen, "window": args.window, "decay": args.decay}
    Path(args.model_out).write_text(json.dumps(model_payload(model, extra), indent=1) + "\n")
    write_report(RESULTS / "fit-choices", "\n".join(lines) + "\n", report)


if __name__ == "__main__":
    main()
