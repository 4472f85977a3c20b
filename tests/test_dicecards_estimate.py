"""Dice Cards: the approximation's values corrected by rollouts of its policy estimate what the policy scores."""

from __future__ import annotations

import pytest

from dicetree.solver.games.dicecards import CellsCard, DiceCards, load_library
from dicetree.solver.games.dicecards.approximation import Approximation


def two_cards_one_roll() -> tuple[DiceCards, Approximation]:
    """Two one-box cards that both want a Black 6 (1 point each), one roll to go."""
    library = load_library().with_cards(CellsCard("Six A", "SA", ["B6"], points=[1]),
                                        CellsCard("Six B", "SB", ["B6"], points=[1]))
    game = DiceCards(cards=library, rolls=1)
    return game, game.approximation


def test_the_relaxation_counts_a_shared_roll_twice_and_the_correction_removes_it():
    # By hand: one roll fills one box, so the hand is worth P(Black 6) = 1/6. Each card alone is
    # worth 1/6 too, so the relaxation at price 0 says 1/6 + 1/6; at price 1 a box nets nothing and
    # the roll's price is 1: the relaxation takes the least, 1/3.
    game, model = two_cards_one_roll()
    start = game.parse("SA=- SB=- t0 0/1 roll")
    assert model.value(start) == pytest.approx(1 / 3)
    model.rollouts = 3000
    correction = model.correction(start)
    assert correction.rolls_left == 1 and correction.excess[0] == 0
    assert model.estimate(start) == pytest.approx(1 / 6, abs=3 * correction.error[1])
    assert correction.error[1] == pytest.approx((5 / 36) ** 0.5 / 3000 ** 0.5, rel=0.1)  # a Bernoulli(1/6) mean


def test_the_correction_is_measured_once_per_hand_and_never_changes_the_ranking():
    game = DiceCards()
    model = game.approximation
    model.rollouts = 6
    state = game.parse(game.example_position())
    ranked = model.ranked(state)
    first = model.correction(state)
    later = game.parse("SOL=B6,R5 SUD=16 BB=9,7 BG=- HOP=1,2 DBL=- t0 20/50 roll")
    assert model.correction(later) is first  # fewer rolls to go: the same measurement
    after = [game.apply(state, record) for record, _ in ranked]
    estimates = [model.estimate(s) for s in after]
    assert estimates == sorted(estimates, reverse=True)  # the same order as the relaxation's values
    shift = {round(value - estimate, 9) for (_, value), estimate in zip(ranked, estimates)}
    assert len(shift) == 1 and shift.pop() > 0  # one correction for one number of rolls to go
    assert model.estimate(game.parse("HOP=1,2 t0 8/50 roll")) == model.value(game.parse("HOP=1,2 t0 8/50 roll"))


def test_the_same_position_plays_the_same_rollouts():
    game = DiceCards()
    game.approximation.rollouts = 4
    state = game.parse("SOL=- SUD=- BB=- t0 40/50 roll")
    first = game.approximation.correction(state)
    game.approximation.corrections.clear()
    assert game.approximation.correction(state) == first
