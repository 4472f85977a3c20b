"""Dice Cards exact values by backward induction: hand-worked cards, and agreement with expectimax."""

from __future__ import annotations

import pytest

from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.induction import solve_hand
from dicetree.solver.games.dicecards.library import CardLibrary, CellsCard, PyramidCard, load_library
from dicetree.solver.search import expectimax

LIBRARY = load_library()


def test_one_box_of_a_black_six_over_n_rolls():
    one = CellsCard("One", "ONE", ["B6"], points=[1])
    solution = solve_hand((one,), (0,), 0, 50)
    for rolls in (0, 1, 2, 10, 50):
        assert solution.value((0,), 0, rolls) == pytest.approx(1 - (5 / 6) ** rolls, abs=1e-12)
    assert solution.value((1,), 0, 7) == pytest.approx(1.0, abs=1e-12)


def test_a_ticket_earned_then_spent_worked_on_paper():
    # In order: a total of 7 (gives a ticket), then a total of 12 (1 point). Two rolls:
    # roll 1 is a 7 with 1/6; roll 2 then fits 12 with the ticket if it is 11 or 12: 3/36.
    # Keeping the ticket is worth 1 // 2 = 0 points. So the value is 1/6 * 1/12 = 1/72.
    card = CellsCard("Seven Twelve", "ST", ["T7", "T12"], points=[0, 1], tickets=[1, 0], in_order=True)
    solution = solve_hand((card,), (0,), 0, 2)
    assert solution.value((0,), 0, 2) == pytest.approx(1 / 72, abs=1e-12)
    assert solution.value((1,), 1, 1) == pytest.approx(3 / 36, abs=1e-12)
    game = DiceCards(rolls=2, cards=CardLibrary([card]))
    assert expectimax(game, game.parse("ST=- t0 0/2 roll"), 2) == pytest.approx(1 / 72, abs=1e-12)
    ranked = solution.record_values((1,), 1, (5, 6), 1)
    assert [(record.label, record.cost, value) for record, value in ranked] == [("T12", 1, 1.0), ("lose", 0, 0.0)]


@pytest.mark.parametrize("position, rolls, objective", [
    ("HOP=- t0 0/2 roll", 2, "score"),
    ("HOP=1,2,3 DBL=5-5 t0 4/6 roll", 6, "score"),
    ("BB=4,9,11,7,3,8 t1 7/9 roll", 9, "score"),
    ("SOL=B6,R5,B4,R6,B5,R4,B3,R2 YY=B1,R6,B2,R5,B3,R4,B4,R3 t0 16/18 roll", 18, "score"),
    ("BB=4,9,11,7,3,8 t1 7/9 roll", 9, "rank"),
    ("PR=221100 t0 7/9 roll", 9, "score"),
])
def test_backward_induction_agrees_with_expectimax(position, rolls, objective):
    game = DiceCards(rolls=rolls, objective=objective, target=14)
    state = game.parse(position)
    hand = game.hand(state)
    solution = solve_hand(hand, state.marks, state.tickets, rolls - state.rolls, objective=objective, target=14)
    exact = solution.value(state.marks, state.tickets, rolls - state.rolls)
    assert exact == pytest.approx(expectimax(game, state, rolls - state.rolls), abs=1e-9)


def test_record_values_rank_the_legal_records():
    game = DiceCards(rolls=6)
    state = game.parse("HOP=1,2,3 DBL=- t0 3/6 B4R5")
    solution = solve_hand(game.hand(state), state.marks, 0, 3)
    assert [record.label for record, _ in solution.record_values(state.marks, 0, (4, 5), 3)] == ["4-5"]
    values = {f"{r.card}:{r.label}": v for r, v in solution.record_values(state.marks, 0, (4, 4), 3)}
    assert set(values) == {"1:4-4"}  # a double 4 fits only Doubles as rolled, so it must go there


def test_passing_is_never_worse_and_sometimes_better():
    pyramid = PyramidCard("Tiny Pyramid", "TP", rows=[1, 2], points=[1, 5])
    forced = solve_hand((pyramid,), (pyramid.start(),), 0, 4)
    free = solve_hand((pyramid,), (pyramid.start(),), 0, 4, may_pass=True)
    assert (free.values >= forced.values - 1e-12).all()
    assert free.value((pyramid.start(),), 0, 4) > forced.value((pyramid.start(),), 0, 4)


def test_every_library_card_but_the_pyramid_solves_quickly_and_scores_at_most_its_maximum():
    for card in LIBRARY.cards:
        if card.code == "RP":
            continue  # 39,096 states: a few seconds (benchmarks/dicecards_exact.py)
        solution = solve_hand((card,), (card.start(),), 0, 50)
        value = solution.value((card.start(),), 0, 50)
        assert 0 <= value <= card.max_points() + card.max_tickets() // 2 + 1e-9
        assert (solution.values[1:] >= solution.values[:-1] - 1e-9).all()  # more rolls are never worse
