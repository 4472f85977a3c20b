"""Fit Dicegeddon's leaf evaluation to exact values, and check it on battles it never saw.

The evaluation (:mod:`dicetree.solver.games.dicegeddon.evaluation`) is a logistic model of the mover's
winning chance over a few combat features. This script solves many small battles exactly (every
pair of armies of one or two dice from the opening roll, :func:`dicetree.solver.exact.solve` with the
canonical dice order), takes every decision state with its exact value from the mover's view, and
fits the weights by soft-label logistic regression (cross-entropy against the exact value,
scipy's L-BFGS). Armies are split by pair: the fit sees about two thirds of the pairs, the other
third plus some three-dice battles are the check. It reports the log loss (bits), the Brier score
and the mean absolute error of the fitted model, of the model before this fit (``WEIGHTS`` in the
module as it stands) and of the constant 1/2, then prints the constants to paste into the module.

Usage::

    .venv/bin/python research/dicegeddon_evaluation.py            # ~2 minutes
    .venv/bin/python research/dicegeddon_evaluation.py --quick    # fewer battles, a smoke test

Writes ``results/dicegeddon/evaluation.{md,json}``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import write_report
from scipy.optimize import minimize

from dicetree.solver.exact import solve
from dicetree.solver.games.dicegeddon import evaluation
from dicetree.solver.games.dicegeddon.armies import army_name, estimated_states
from dicetree.solver.games.dicegeddon.game import CanonicalDicegeddon
from dicetree.solver.games.dicegeddon.state import KEEP, PLACE, STEP

RESULTS = Path(__file__).resolve().parent.parent / "results" / "dicegeddon"
DICE = (4, 6, 8, 10, 12, 20)
DECISION_PHASES = (STEP, KEEP, PLACE)


def small_armies(max_dice: int) -> list[tuple[int, ...]]:
    return [army for n in range(1, max_dice + 1) for army in itertools.combinations_with_replacement(DICE, n)]


def labelled_states(army_a, army_b, per_battle: int, rng: random.Random, max_states: int):
    """(features, exact value for the mover) of up to ``per_battle`` decision states of one battle."""
    game = CanonicalDicegeddon(army_size=sum(army_a) + sum(army_b))
    solution = solve(game, game.start(army_a, army_b), max_states=max_states)
    decisions = [s for s in solution.graph.states if s.phase in DECISION_PHASES]
    if len(decisions) > per_battle:
        decisions = rng.sample(decisions, per_battle)
    x = np.array([evaluation.features(s) for s in decisions])
    y = np.array([solution.value_for(s, s.mover) for s in decisions])
    return x, y, solution


def cross_entropy(params: np.ndarray, x: np.ndarray, y: np.ndarray, ridge: float):
    z = x @ params[:-1] + params[-1]
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-12
    loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)) + ridge * np.sum(params[:-1] ** 2)
    grad_z = (p - y) / len(y)
    grad = np.append(x.T @ grad_z + 2 * ridge * params[:-1], grad_z.sum())
    return loss, grad


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    log_loss = -np.mean(y * np.log2(p) + (1 - y) * np.log2(1 - p))
    entropy = -np.mean(np.where(y > 0, y * np.log2(np.clip(y, 1e-12, 1)), 0)
                       + np.where(y < 1, (1 - y) * np.log2(np.clip(1 - y, 1e-12, 1)), 0))
    return {"log_loss_bits": float(log_loss), "excess_bits": float(log_loss - entropy),
            "brier": float(np.mean((p - y) ** 2)), "mean_abs_error": float(np.mean(np.abs(p - y)))}


def predict(x: np.ndarray, weights, bias) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ np.asarray(weights) + bias)))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer battles (a smoke test)")
    parser.add_argument("--per-battle", type=int, default=3000, help="decision states sampled per battle")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-states", type=int, default=400_000)
    parser.add_argument("--cap", type=int, default=40_000, help="battles with a larger state estimate are left out")
    parser.add_argument("--output", default=str(RESULTS / "evaluation"))
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()

    pairs = [(a, b) for a, b in itertools.combinations_with_replacement(small_armies(2), 2)
             if estimated_states(a, b) <= args.cap]
    rng.shuffle(pairs)
    if args.quick:
        pairs = pairs[:12]
    held_out = set(range(0, len(pairs), 3))
    check_three = [((4, 4, 4), (4,)), ((4, 4, 6), (4,)), ((4, 4, 4), (6,)), ((4, 6), (4, 6))]
    if args.quick:
        check_three = check_three[:1]
    data = {"fit": ([], []), "check": ([], []), "check, bigger battles": ([], [])}
    battles = dict.fromkeys(data, 0)
    skipped = []
    for k, (a, b) in enumerate(pairs + check_three):
        name = ("check, bigger battles" if k >= len(pairs)
                else "check" if k in held_out else "fit")
        try:
            x, y, solution = labelled_states(a, b, args.per_battle, rng, args.max_states)
        except Exception as error:  # noqa: BLE001 - a battle too large to solve is skipped and reported
            skipped.append(f"{army_name(a)} vs {army_name(b)}: {error}")
            continue
        data[name][0].append(x)
        data[name][1].append(y)
        battles[name] += 1
        print(f"{name:>40}: {army_name(a):>10} vs {army_name(b):<10} {solution.num_states:>8,} states, "
              f"{len(y):>5} samples", flush=True)
    stacked = {name: (np.vstack(xs), np.concatenate(ys)) for name, (xs, ys) in data.items() if xs}

    x_fit, y_fit = stacked["fit"]
    scale = np.maximum(x_fit.std(axis=0), 1e-9)  # fit on standardized features, report raw weights
    result = minimize(cross_entropy, np.zeros(x_fit.shape[1] + 1), args=(x_fit / scale, y_fit, 1e-4),
                      jac=True, method="L-BFGS-B")
    weights = result.x[:-1] / scale
    bias = float(result.x[-1])

    report = {"battles": battles, "samples": {n: int(len(y)) for n, (_, y) in stacked.items()},
              "features": list(evaluation.FEATURE_NAMES), "weights": weights.tolist(), "bias": bias,
              "skipped": skipped, "scores": {}}
    for name, (x, y) in stacked.items():
        report["scores"][name] = {
            "fitted": scores(predict(x, weights, bias), y),
            "module before this run": scores(predict(x, evaluation.WEIGHTS, evaluation.BIAS), y),
            "constant 1/2": scores(np.full_like(y, 0.5), y),
        }
    report["seconds"] = time.perf_counter() - started

    lines = ["# Dicegeddon leaf evaluation: fitted to exact values", "",
             "`.venv/bin/python research/dicegeddon_evaluation.py` (seed "
             f"{args.seed}, {args.per_battle} decision states sampled per battle, {report['seconds']:.0f} s). "
             "Battles: every pair of armies of one or two dice (d4..d20) from the opening roll, solved "
             "exactly (those with an estimated state count up to "
             f"{args.cap:,}); pairs split two thirds fit, one third check; plus bigger battles (three dice "
             "against one, d4,d6 against d4,d6) as a check of how the model extends to bigger armies. Target: the exact value for the mover.", "",
             "| set | battles | samples | model | log loss (bits) | excess over the labels' entropy | Brier | mean abs error |",
             "|---|---|---|---|---|---|---|---|"]
    for name, by_model in report["scores"].items():
        for model, s in by_model.items():
            lines.append(f"| {name} | {battles[name]} | {report['samples'][name]:,} | {model} | {s['log_loss_bits']:.4f} | "
                         f"{s['excess_bits']:.4f} | {s['brier']:.4f} | {s['mean_abs_error']:.4f} |")
    lines += ["", "| feature | weight |", "|---|---|"]
    lines += [f"| {n} | {w:+.4f} |" for n, w in zip(evaluation.FEATURE_NAMES, weights)]
    lines += [f"| bias | {bias:+.4f} |", ""]
    if skipped:
        lines += ["Skipped (too large to solve):", ""] + [f"* {s}" for s in skipped] + [""]
    text = "\n".join(lines)
    if args.quick:
        print(text)
    else:
        write_report(args.output, text, report)
    print("constants for solver/games/dicegeddon/evaluation.py:")
    print(f"WEIGHTS = np.array([{', '.join(f'{w:.6g}' for w in weights)}])")
    print(f"BIAS = {bias:.6g}")


if __name__ == "__main__":
    main()
