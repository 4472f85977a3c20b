"""RolldownBeta's leaf evaluations: strictly inside the value bounds and zero-sum (both), and the
hand-made heuristic ordered sensibly (the fitted one: ``test_rolldown_evaluation_fitted.py``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, HAND_SIZE
from dicetree.solver.games.rolldown.state import DECIDE, JOKER_ROLL, QUEEN_ROLL, QUEEN_SECOND, ROLL, ROUND_OVER

OBJECTIVES = ("round", "points", "match")
EVALUATIONS = ("heuristic", "fitted")
GAMES = {objective: Rolldown(objective=objective, evaluation="heuristic") for objective in OBJECTIVES}
BOTH = [Rolldown(objective=objective, evaluation=evaluation) for objective in OBJECTIVES for evaluation in EVALUATIONS]
PARSE = GAMES["round"].parse  # the notation is the same under every objective; a game valuing points refuses single rounds
DECK = [card for card, copies in DECK_COPIES.items() for _ in range(copies)]
ROUND_POINTS = sorted({a + b for a in DIE_SIDES for b in DIE_SIDES})


def check_inside_and_zero_sum(game, state):
    bounds = game.value_bounds()
    values = [game.evaluate(state, player) for player in (0, 1)]
    for value in values:
        assert bounds.low < value < bounds.high, (game, game.format(state), value)
    assert values[0] + values[1] == pytest.approx(bounds.low + bounds.high, abs=1e-9)


@st.composite
def positions(draw):
    """Positions in mid-round (every phase) and between rounds of a match."""
    mode = draw(st.sampled_from(["single", "first50", "nine"]))
    phase = draw(st.sampled_from([DECIDE, ROLL, QUEEN_ROLL, QUEEN_SECOND, JOKER_ROLL, ROUND_OVER]))
    mover = draw(st.integers(0, 1))
    hands = tuple(tuple(sorted(draw(st.permutations(DECK))[:draw(st.integers(0, HAND_SIZE))])) for _ in (0, 1))
    if phase == ROUND_OVER:
        winner, points = draw(st.integers(0, 1)), draw(st.sampled_from(ROUND_POINTS))
        scores = [0, 0]
        if mode != "single":
            scores[winner] = points
        return RolldownState(dice=((0,) * 6, (0,) * 6), mover=mover, mode=mode, scores=tuple(scores),
                             phase=ROUND_OVER, round_winner=winner, round_points=points)
    pairs = draw(st.integers(1, 6))
    rows = []
    for _ in (0, 1):
        slots = draw(st.permutations(range(6)))[:pairs]
        rows.append(tuple(draw(st.integers(1, DIE_SIDES[s])) if s in slots else 0 for s in range(6)))
    first_turn = draw(st.sampled_from([(True, True), (mover == 0, mover == 1)])) if pairs == 6 and draw(
        st.booleans()) else (False, False)
    pending = None
    if phase in (ROLL, QUEEN_ROLL):
        pending = (0, next(s for s in range(6) if rows[0][s]))
    return RolldownState(dice=tuple(rows), mover=mover, hands=hands, first_turn=first_turn, mode=mode,
                         phase=phase, pending=pending)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_evaluation_is_strictly_inside_the_bounds_and_zero_sum(state):
    for game in BOTH:
        if not game.is_terminal(state):
            check_inside_and_zero_sum(game, state)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["single", "first50", "nine"]), st.integers(0, 150))
def test_evaluation_along_random_play(seed, mode, steps):
    rng = random.Random(seed)
    game = Rolldown(objective="match", horizon="match", evaluation="heuristic")  # every round of the match
    state = game.new_match(mode, rng)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        for each in BOTH:
            if not each.is_terminal(state):
                check_inside_and_zero_sum(each, state)
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize(
    "can, cannot",
    [
        ("d8:5/d6:3 a -/-", "d8:2/d6:3 a -/-"),
        ("d4:4/d20:4 b -/-", "d4:4/d20:3 b -/-"),  # B's d20 takes A's d4 only when showing 4 or more
        ("d20:9/d20:9 a -/- - first50 12-30 3", "d20:8/d20:9 a -/- - first50 12-30 3"),
        ("d6:1/d12:1 a -/KQJ", "d6:1/d12:2 a KQJ/-"),  # cards do not make up for it
    ],
)
def test_a_mover_who_can_take_the_last_pair_is_valued_higher(objective, can, cannot):
    game = GAMES[objective]
    can, cannot = PARSE(can), PARSE(cannot)
    assert can.mover == cannot.mover
    mover = can.mover
    assert game.evaluate(can, mover) > game.evaluate(cannot, mover)
    assert game.evaluate(can, 1 - mover) < game.evaluate(cannot, 1 - mover)
    middle = (game.value_bounds().low + game.value_bounds().high) / 2
    assert game.evaluate(can, mover) > middle > game.evaluate(cannot, mover)


@pytest.mark.parametrize("objective, even", [("round", 0.5), ("points", 0.0), ("match", 0.5)])
@pytest.mark.parametrize(
    "position",
    [
        "d6:3,d8:5/d6:3,d8:5 a -/-",
        "d6:3,d8:5/d6:3,d8:5 b K/J",
        "d4:2,d6:6,d8:1,d10:9,d12:12,d20:3/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a 5QK/8JX ab",
        "d4:4,d20:20/d4:4,d20:20 b -/- - nine 40-40 4",
        "d10:4,d12:9/d10:4,d12:9 a -/- - single 0-0 1 X/- a joker",
        "d10:4,d12:9/d10:4,d12:9 b -/- - single 0-0 1 -/Q a q2",
    ],
)
def test_symmetric_positions_are_even(objective, even, position):
    game = GAMES[objective]
    state = PARSE(position)
    if objective == "match" and state.mode != "single":  # an even round, but the next one's starter is known
        a_wins, b_wins = game.equity.after_round(state)
        even = (a_wins + b_wins) / 2
    bounds = game.value_bounds()
    assert game.evaluate(state, 0) == pytest.approx(even)
    assert game.evaluate(state, 1) == pytest.approx(bounds.low + bounds.high - even)


def test_after_a_reroll_or_joker_the_opponent_is_the_one_to_move():
    game = GAMES["round"]
    for phase in ("roll:b.d6", "joker"):
        rolling = game.parse(f"d8:5,d4:1/d6:3,d10:2 a -/- - single 0-0 1 X/- a {phase}")
        b_to_move = game.parse("d8:5,d4:1/d6:3,d10:2 b -/-")
        for player in (0, 1):
            assert game.evaluate(rolling, player) == pytest.approx(game.evaluate(b_to_move, player))


def test_a_queen_in_progress_cannot_take_the_last_pair():
    # A has played a Queen: A's one remaining choice is the second reroll, then B moves, so A
    # showing the higher face is not a win in hand (the estimate is B's, as after a reroll)
    game = GAMES["round"]
    b_to_move = game.parse("d8:5/d6:3 b -/-")
    can_capture = game.parse("d8:5/d6:3 a -/-")
    for phase in ("queen:b.d6", "q2"):
        state = game.parse(f"d8:5/d6:3 a -/- - single 0-0 1 Q/- a {phase}")
        assert game.evaluate(state, 0) == pytest.approx(game.evaluate(b_to_move, 0))
        assert game.evaluate(state, 0) < game.evaluate(can_capture, 0)


def test_more_cards_is_better_when_the_dice_are_even():
    game = GAMES["round"]
    richer = game.parse("d6:3,d8:5/d6:3,d8:5 a QK/-")
    assert game.evaluate(richer, 0) > 0.5 > game.evaluate(richer, 1)


def test_between_rounds_of_a_match_the_round_winner_leads():
    game = Rolldown(objective="match", horizon="match", evaluation="heuristic")  # plays on: a chance node
    state = game.parse("-/- b -/- - first50 34-20 3 QK/5 a won:a:24")
    assert game.is_chance(state)
    assert 0.5 < game.evaluate(state, 0) < 1.0 and 0.0 < game.evaluate(state, 1) < 0.5


def test_points_are_scaled_by_the_dice_in_play():
    game = GAMES["points"]
    small = game.parse("d4:4/d4:1 a -/- - nine 0-0 1")
    big = game.parse("d20:4/d20:1 a -/- - nine 0-0 1")
    assert 0 < game.evaluate(small, 0) < 8 and 0 < game.evaluate(big, 0) < 40
    assert game.evaluate(big, 0) > game.evaluate(small, 0)
