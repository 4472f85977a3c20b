"""Dicegeddon's leaf evaluation: a logistic model of the mover's winning chance, fitted to exact values.

A depth-limited search stops in the middle of battles that are far too large to solve, so it needs
a guess of who wins. The guess here is ``sigmoid(WEIGHTS . features + BIAS)`` from the mover's
view, where the features (:func:`features`) describe combat in the game's own terms:

* how many active dice each side has, and how much they hit (the mean exploding roll),
* how exposed each side's attackable dice are: the chance that the opponent's best attacker rolls
  more than a die's face (a high face is a good defence),
* what the mover can still do this turn (unused dice: the chance of a kill right now),
* how close the reserve dice are to becoming active.

The weights are not hand-tuned: ``research/dicegeddon_evaluation.py`` fits them (soft-label
logistic regression, scipy) to the exact values of every decision state of many small battles
solved by :func:`dicetree.solver.exact.solve`, checks them on battles it did not fit, and writes the figures
to ``results/dicegeddon/evaluation.md``; the constants below are its output.

>>> from dicetree.solver.games.dicegeddon import Dicegeddon
>>> game = Dicegeddon()
>>> strong = game.battle([(20, 19), (12, 11)], [(4, 3)])
>>> game.evaluate(strong, 0) > 0.9 > 0.1 > game.evaluate(strong, 1)
True
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from dicetree.solver.games.dicegeddon.rules import attack_outcomes, attackable
from dicetree.solver.games.dicegeddon.state import ACTIVE, OVER, ROLLOFF, SETUP, DicegeddonState
from dicetree.solver.pov import PointOfView

FEATURE_NAMES = (
    "active dice (mine - theirs)",
    "mean attack of active dice (mine - theirs)",
    "attackable dice safe from their best attacker (mine - theirs)",
    "reserve dice, by how far they have climbed (mine - theirs)",
    "unused dice of the mover",
    "expected kills of the mover's unused dice now",
    "mover's active dice share of all active dice",
)

# Fitted by research/dicegeddon_evaluation.py (see results/dicegeddon/evaluation.md).
WEIGHTS = np.array([0.236562, 0.205093, 0.837788, 0.452715, 0.118881, 0.380693, 1.41272])
BIAS = -1.17225
CLIP = 1e-3  # never certain: a leaf is not a result


@cache
def hit_probability(sides: int, face: int) -> float:
    """P(an exploding d``sides`` totals more than ``face``)."""
    return float(sum(p for (hit, _), p in attack_outcomes(sides, face) if hit))


def mean_attack(sides: int) -> float:
    """The mean exploding roll of a d``sides``: s(s+1) / (2(s-1))."""
    return sides * (sides + 1) / (2 * (sides - 1))


def _side_features(dice, enemy) -> tuple[float, float, float, float]:
    enemy_active = [d.sides for d in enemy if d.zone == ACTIVE]
    active = [d for d in dice if d.zone == ACTIVE]
    attack = sum(mean_attack(d.sides) for d in active)
    safe = 0.0
    for j in attackable(dice):
        face = dice[j].face
        threat = max((hit_probability(s, face) for s in enemy_active), default=0.0)
        safe += 1.0 - threat
    reserve = sum(d.face / d.sides for d in dice if d.zone != ACTIVE and d.face > 0)
    return len(active), attack, safe, reserve


def features(state: DicegeddonState) -> np.ndarray:
    """The evaluation's features of a battle position, from the mover's view (see FEATURE_NAMES)."""
    me = state.mover
    mine, theirs = state.dice[me], state.dice[1 - me]
    own = _side_features(mine, theirs)
    other = _side_features(theirs, mine)
    unused = [d for d in mine if d.zone == ACTIVE and not d.used]
    targets = [theirs[j][1] for j in attackable(theirs)]
    kills = sum(max((hit_probability(d.sides, face) for face in targets), default=0.0) for d in unused)
    total_active = own[0] + other[0]
    return np.array([
        own[0] - other[0], own[1] - other[1], own[2] - other[2], own[3] - other[3],
        len(unused), kills, own[0] / total_active if total_active else 0.5,
    ])


def mover_win_probability(state: DicegeddonState, weights=WEIGHTS, bias=BIAS) -> float:
    """The model's chance that the player to move wins, clipped away from 0 and 1."""
    z = float(np.dot(weights, features(state))) + bias
    p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
    return min(1.0 - CLIP, max(CLIP, p))


def evaluate(state: DicegeddonState, player: int, game) -> float:
    """``player``'s share of the win in ``game``: exact at the end, 1/2 before the opening roll,
    else the model (the mover's chance, seen from ``player``)."""
    if state.phase == OVER:
        return game.returns(state)[player]
    if state.phase in (SETUP, ROLLOFF):
        return 0.5
    return PointOfView.of(game).view(mover_win_probability(state), seen_by=state.mover, player=player)
