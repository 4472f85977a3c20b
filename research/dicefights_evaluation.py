"""How well does Dice Fights' evaluation predict who wins? The choice of its two constants.

The two-player evaluation (:mod:`dicetree.solver.games.dicefights.evaluation`) is the probability of winning
a *frozen fight* (nobody buys or re-rolls again), with saved Gold counted as Core Dice at
``gold_per_die`` Gold each and the probability tempered (log-odds times ``k``). This script plays
``--games`` games between the fixed purchase policies (``dice``, ``random``, ``attack``, ``gold``,
random pairings, seeded), takes every third round start, and reports the Brier score (mean squared
error against the result: 1 win, 0 loss, 1/2 draw) of each combination, plus the calibration
table of the chosen one. The module's TEMPER (k = 0.4) is the best k at its Gold rate. Its
SAVED_GOLD_PER_DIE (6) is deliberately not the best-scoring rate: Gold counted as worthless scores
a little better (0.1468 against 0.1548, `results/dicefights/evaluation.txt`), because in these games a big Bank mostly belongs to the
weak saving policies; counting savings as nothing would make a searching player never save.

Usage::

    .venv/bin/python research/dicefights_evaluation.py               # ~1 minute
    .venv/bin/python research/dicefights_evaluation.py --games 100   # a quick look
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from dicetree.solver.game import CHANCE, TERMINAL
from dicetree.solver.games.dicefights import DiceFights
from dicetree.solver.games.dicefights.evaluation import SAVED_GOLD_PER_DIE, TEMPER, config, win_table
from dicetree.solver.games.dicefights.policies import MAX_ROUNDS, POLICIES
from dicetree.solver.games.dicefights.state import ROLL

POLICY_NAMES = ["dice", "random", "attack", "gold"]


def round_starts(game: DiceFights, games: int, seed: int) -> tuple[list, np.ndarray]:
    """Every third round start of ``games`` seeded games, with player 0's result in each game."""
    rng = random.Random(seed)
    states, results = [], []
    for _ in range(games):
        policies = [POLICIES[rng.choice(POLICY_NAMES)] for _ in range(2)]
        state, seen, result = game.new_game(), [], 0.5
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                result = game.returns(state)[0]
                break
            if player == CHANCE:
                if state.phase == ROLL:
                    seen.append(state)
                    if len(seen) > MAX_ROUNDS:
                        break
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            options = game.joint_actions(state)
            state = game.apply(state, tuple(policies[p].choose(game, state, p, o, rng) if o else None
                                            for p, o in enumerate(options)))
        states += seen[::3]
        results += [result] * len(seen[::3])
    return states, np.array(results)


def frozen(game: DiceFights, states: list, gold_per_die: int) -> np.ndarray:
    """Player 0's untempered frozen-fight probability at each state."""
    core, box = game.layout.core_weights, game.layout.box_weights
    return np.array([
        float(win_table(core, box, config(s, 0, gold_per_die), config(s, 1, gold_per_die))[s.life[0], s.life[1]])
        for s in states
    ])


def tempered(values: np.ndarray, k: float) -> np.ndarray:
    values = np.clip(values, 0.0, 1.0)
    up, down = values**k, (1.0 - values) ** k
    return up / (up + down)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = DiceFights()
    states, results = round_starts(game, args.games, args.seed)
    print(f"{len(states)} round starts from {args.games} games; constant 1/2 scores "
          f"{np.mean((0.5 - results) ** 2):.4f}")
    ks = [0.2, 0.3, 0.4, 0.5, 0.7, 1.0]
    print("Brier score by Gold per die counted (rows) and temper k (columns):")
    print("          " + "".join(f"k={k:<6}" for k in ks))
    for gold_per_die in (3, 6, 9, 12, 10**9):
        values = frozen(game, states, gold_per_die)
        label = "never" if gold_per_die == 10**9 else str(gold_per_die)
        print(f"  {label:>6}  " + "".join(f"{np.mean((tempered(values, k) - results) ** 2):<8.4f}" for k in ks))
    chosen = tempered(frozen(game, states, SAVED_GOLD_PER_DIE), TEMPER)
    print(f"\nThe module's choice (Gold per die {SAVED_GOLD_PER_DIE}, k {TEMPER}): "
          f"{np.mean((chosen - results) ** 2):.4f}; calibration:")
    edges = np.linspace(0, 1, 11)
    for low, high in zip(edges[:-1], edges[1:]):
        inside = (chosen >= low) & ((chosen < high) | (high == 1))
        if inside.any():
            print(f"  {low:.1f}-{high:.1f}: {inside.sum():5d} positions, mean evaluation {chosen[inside].mean():.3f}, "
                  f"mean result {results[inside].mean():.3f}")


if __name__ == "__main__":
    main()
