"""Dicegeddon's fitted leaf evaluation: sound at the edges, and much closer to exact values than 1/2."""

from __future__ import annotations

import numpy as np
import pytest

from dicetree.solver.exact import solve
from dicetree.solver.games.dicegeddon.evaluation import CLIP, FEATURE_NAMES, features, hit_probability, mean_attack
from dicetree.solver.games.dicegeddon import CanonicalDicegeddon, Dicegeddon
from dicetree.solver.games.dicegeddon.state import KEEP, PLACE, RESERVE, STEP, Die

GAME = Dicegeddon()


def test_hit_probability_and_mean_attack_by_hand():
    assert hit_probability(6, 5) == pytest.approx(1 / 6)  # a 6 (then anything) beats a 5
    assert hit_probability(6, 8) == pytest.approx(1 / 6 * 4 / 6)  # a 6, then the re-roll 3..6 (6 explodes on)
    assert hit_probability(4, 0) == pytest.approx(1.0)
    assert mean_attack(6) == pytest.approx(4.2)  # 21/5: 3.5 plus 1/6 of a re-roll's mean


def test_features_by_hand():
    # A (to move) has a d8 showing 7, unused; B a d6 showing 5 and a d4 in reserve at 2.
    state = GAME.battle([(8, 7)], [(6, 5)])
    state = state._replace(dice=(state.dice[0], state.dice[1] + (Die(4, 2, RESERVE, False, -1),)))
    x = dict(zip(FEATURE_NAMES, features(state)))
    assert x["active dice (mine - theirs)"] == 0
    assert x["mean attack of active dice (mine - theirs)"] == pytest.approx(mean_attack(8) - mean_attack(6))
    assert x["attackable dice safe from their best attacker (mine - theirs)"] == pytest.approx(
        (1 - hit_probability(6, 7)) - (1 - hit_probability(8, 5)))
    assert x["reserve dice, by how far they have climbed (mine - theirs)"] == pytest.approx(-2 / 4)
    assert x["unused dice of the mover"] == 1
    assert x["expected kills of the mover's unused dice now"] == pytest.approx(hit_probability(8, 5))


def test_values_sum_to_one_and_stay_inside_the_clip():
    for state in (GAME.battle([(20, 19), (12, 11)], [(4, 3)]), GAME.battle([(4, 3)], [(20, 19), (12, 11)]),
                  GAME.battle([(6, 5)], [(6, 5)])):
        a, b = GAME.evaluate(state, 0), GAME.evaluate(state, 1)
        assert a + b == pytest.approx(1.0) and CLIP <= a <= 1 - CLIP
    assert GAME.evaluate(GAME.start((4,), (6,)), 0) == 0.5  # before the opening roll


def test_far_closer_to_exact_values_than_a_coin_on_an_unseen_battle():
    # two dice a side: not among the battles the weights were fitted to (at most three dice in all)
    game = CanonicalDicegeddon(army_size=20)
    solution = solve(game, game.battle([(4, 4), (4, 3)], [(6, 5), (4, 3)]))
    decisions = [s for s in solution.graph.states if s.phase in (STEP, KEEP, PLACE)]
    exact = np.array([solution.value_for(s, s.mover) for s in decisions])
    guess = np.array([game.evaluate(s, s.mover) for s in decisions])
    brier, coin = np.mean((guess - exact) ** 2), np.mean((0.5 - exact) ** 2)
    assert brier < 0.4 * coin  # measured 0.29
    assert np.corrcoef(guess, exact)[0, 1] > 0.8  # measured 0.88
