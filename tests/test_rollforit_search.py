"""Roll For It!: the evaluation, the search on the example, the exact solver on a tiny endgame, strategies."""

from __future__ import annotations

import json
import math
import random

import pytest

from dicetree.solver.analysis import solved_exactly
from dicetree.solver.game import GameError
from dicetree.solver.games.rollforit import RollForIt
from dicetree.solver.games.rollforit.deck import load_deck_text
from dicetree.solver.games.rollforit.evaluation import expected_rolls, win_chances
from dicetree.solver.games.rollforit.state import TurnChoice
from dicetree.solver.games.rollforit.strategies import HumanStrategy, RaceStrategy
from dicetree.solver.match import Match
from dicetree.solver.search import Searcher, expectimax

ONE_IMAGE = {"cards": [{"id": f"T{i}", "deck": "gold", "points": 2, "dice": [i]} for i in range(1, 5)]}


def test_expected_rolls_of_a_lone_chase_by_hand():
    assert expected_rolls((), 3) == 0 and expected_rolls((1, 2), 1) == math.inf
    assert expected_rolls((6,), 1) == pytest.approx(6.0)
    # two 1s with two dice: (1 + 10/36 * 6) / (11/36) = 96/11
    assert expected_rolls((1, 1), 2) == pytest.approx(96 / 11)
    # more free dice never hurt
    assert expected_rolls((1, 2, 3), 6) < expected_rolls((1, 2, 3), 4) < expected_rolls((1, 2, 3), 3)


def test_the_evaluation_is_a_win_chance_that_knows_the_race():
    game = RollForIt()
    assert win_chances([5.0, 5.0]) == (0.5, 0.5)
    ahead = game.parse("G15:A35,G24,G29 31-0 B:turn deck:G04-G14,G16-G19,G21-G23,G25-G26,G28,G30")
    values = [game.evaluate(ahead, p) for p in range(2)]
    assert math.fsum(values) == pytest.approx(1.0) and values[0] > 0.8
    # the mover's rolled dice count: 4 now finishes G15 for A
    text = "G15:A35,G24,G29 33-10 A:place:{} deck:G05-G14,G16-G18,G21-G23,G25-G26,G28,G30"
    assert game.evaluate(game.parse(text.format("4")), 0) > game.evaluate(game.parse(text.format("6")), 0)


def test_best_ranks_take_back_and_every_placement():
    game = RollForIt()
    example = game.parse(game.example_position())
    result = Searcher(game, cache_slots=2**16).search(example, depth=1)
    assert [m.name for m in result.moves] == ["take back", "roll"]
    assert 0 < result.moves[1].value < result.moves[0].value < 1
    # the search's value of a move is the reference expectimax's (depth 0 below: the roll, then evaluations)
    rolled = game.apply(example, TurnChoice(False))
    assert result.moves[1].value == pytest.approx(expectimax(game, rolled, 0))
    placing = game.parse(game.notation_examples()[1][0])  # A took back and rolled 3,4,5,5,6,6
    ranked = Searcher(game, cache_slots=2**16).search(placing, depth=1)
    assert len(ranked.moves) == len(game.legal_actions(placing)) == 175
    assert all(0 < m.value < 1 for m in ranked.moves) and ranked.moves[-1].name == "none"  # placing nothing is worst


def test_more_than_two_players_are_searched_by_the_paranoid_reduction():
    game = RollForIt(players=3)
    result = Searcher(game, cache_slots=2**16).search(game.parse(game.example_position()), depth=2)
    assert "paranoid reduction (3 players)" in result.method and result.best.name == "take back"


def test_the_exact_solver_on_a_tiny_endgame():
    """One-image cards T2 and T3 left, 2-2, deck empty (play_on: the most points win when no card is
    left). B rolls six dice: both faces win, one face leads 4-2 with one card left, none passes."""
    game = RollForIt(deck=load_deck_text(json.dumps(ONE_IMAGE), "tiny.json"))
    result = solved_exactly(game, game.parse("T2,T3 2-2 B:turn deck:-"), max_states=10_000)
    p = 1 - (5 / 6) ** 6  # a given face among six dice
    both, none = 1 - 2 * (5 / 6) ** 6 + (4 / 6) ** 6, (4 / 6) ** 6
    one = 1 - both - none
    a = (1.5 - p) / (2 - p)  # B's value at 4-2, one card left, A to roll (A's face: a tie)
    value = (both + one * a + none * one * (1 - a)) / (1 - none**2)
    assert result.exact and result.moves[0].name == "roll"
    assert result.value == pytest.approx(value, abs=1e-9)
    with pytest.raises(GameError, match="more than 10 states are reachable"):
        solved_exactly(game, game.parse("T1,T2,T3 0-0 A:turn deck:T4"), max_states=10)


def test_human_places_what_matches_and_takes_back_only_when_stuck():
    game = RollForIt()
    human, rng = HumanStrategy(), random.Random(0)
    state = game.parse("G15:A35:B4,G24:B12,G29:A445 31-27 A:turn deck:G05-G14,G16-G18,G21-G23,G25-G26,G30")
    assert human.choose(game, state, 0, game.legal_actions(state), rng) == TurnChoice(False)
    stuck = game.parse("G15:A35,G24:A123,G29:A4 0-0 A:turn deck:G01-G14,G16-G23,G25-G28,G30")
    assert human.choose(game, stuck, 0, game.legal_actions(stuck), rng) == TurnChoice(True)
    placing = game.parse("G07,G13,G24 0-0 A:place:1234 deck:G01-G06,G08-G12,G14-G23,G25-G30")
    pick = human.choose(game, placing, 0, game.legal_actions(placing), rng)
    assert game.action_name(placing, pick) == "score G24"


def test_a_three_player_match_of_the_game_strategies_is_played_through():
    game = RollForIt(players=3)
    result = Match(game, ("human", "race", "greedy"), games=3, seed=1).run()
    assert result.games == 3 and math.fsum(sum(r.returns) for r in result.records) == pytest.approx(3.0)
    assert isinstance(RaceStrategy().choose(game, game.new_game(random.Random(2)), 0, [TurnChoice(False)], None),
                      TurnChoice)
