"""Dicegeddon rules on hand-worked positions: exploding rolls (exact), the start, every step of a
turn, winning, and the variants (several defenders, mulligan)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from dicetree.solver.game import CHANCE, TERMINAL, GameError, PositionError
from dicetree.solver.games import load_game
from dicetree.solver.games.dicegeddon import Dicegeddon, attack_outcomes, recruit_outcomes
from dicetree.solver.games.dicegeddon.state import ACTIVE, KEEP, PLACE, RESERVE, ROLLOFF, SETUP, STEP

GAME = Dicegeddon(army_size=40)
SEVERAL = Dicegeddon(army_size=40, several_defenders=True)
MULLIGAN = Dicegeddon(army_size=40, mulligan=True)


def names(game, state):
    return [game.action_name(state, a) for a in game.legal_actions(state)]


def outcome(game, state, name):
    """The chance outcome called ``name`` and its exact probability."""
    for o, p in game.exact_outcomes(state):
        if game.action_name(state, o) == name:
            return o, p
    raise AssertionError(f"no outcome {name}: {[game.action_name(state, o) for o, _ in game.exact_outcomes(state)]}")


def play(game, state, *moves):
    for m in moves:
        if game.is_chance(state):
            state = game.apply(state, outcome(game, state, m)[0])
        else:
            state = game.apply(state, game.parse_action(state, m))
    return state


# ----- exploding rolls ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("sides", [2, 4, 6, 8, 10, 12, 20])
def test_exploding_probabilities_sum_to_exactly_one(sides):
    for target in range(0, 45):
        outs = attack_outcomes(sides, target)
        assert sum(p for _, p in outs) == 1
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outs)
        assert all(1 <= face < sides for (_, face), _ in outs)  # never ends on the top face
    for need in range(1, 45):
        outs = recruit_outcomes(sides, need)
        assert sum(p for _, p in outs) == 1
        assert all(1 <= climb <= need for (climb, _), _ in outs)


def test_attack_d6_against_8_needs_a_six_then_three_or_more():
    # the rules' example: 6, then an exploding 3+ : 1/6 * 4/6... the second roll 3,4,5 or 6(+more)
    hit = sum(p for (h, _), p in attack_outcomes(6, 8) if h)
    assert hit == Fraction(1, 6) * Fraction(4, 6)
    # and the face it ends on: 6 then 3, 4, 5 (each 1/36) or 6,6,... (1/36 spread over faces 1-5)
    by_face = {f: p for (h, f), p in attack_outcomes(6, 8) if h}
    assert by_face[1] == Fraction(1, 36) / 5 and by_face[3] == Fraction(1, 36) + Fraction(1, 36) / 5


def test_attack_d6_against_a_d8_showing_4():
    hit = sum(p for (h, _), p in attack_outcomes(6, 4) if h)
    assert hit == Fraction(2, 6)  # a 5, or a 6 (which explodes past 4 anyway)


def test_recruit_climb_and_final_face():
    # d6 recruiting a d10 showing 7 (needs 3): 1 -> +1, 2 -> +2, 3/4/5 -> +3, 6(+more) -> +3
    outs = dict(recruit_outcomes(6, 3))
    assert outs[(1, 1)] == Fraction(1, 6) and outs[(2, 2)] == Fraction(1, 6)
    assert outs[(3, 3)] == Fraction(1, 5)  # 3, or 6,3, or 6,6,3, ...: sum of 6**-(k+1)
    assert sum(p for (c, _), p in outs.items() if c == 3) == Fraction(4, 6)
    # d4 recruiting a d20 showing 3 (needs 17): 4,4,4,4 then r>=1 -> 16 + r
    outs = dict(recruit_outcomes(4, 17))
    assert outs[(13, 1)] == Fraction(1, 4**4)
    assert outs[(17, 1)] == Fraction(1, 4**4 * 3)  # 4,4,4,4 then anything: reaches 17


# ----- the start ------------------------------------------------------------------------------------------------
def test_opening_roll_top_face_or_one_below_is_active():
    # the rules' example: 5d6 and a d10 rolling 2,2,4,5,6 and 7
    state = GAME.start([6, 6, 6, 6, 6, 10], [4])
    assert GAME.current_player(state) == CHANCE and state.phase == SETUP
    assert len(GAME.exact_outcomes(state)) == 6
    state = play(GAME, state, "a1=2", "a2=2", "a3=4", "a4=5", "a5=6", "a6=7")
    zones = [(d[1], d[2]) for d in state.dice[0]]
    assert zones == [(2, RESERVE), (2, RESERVE), (4, RESERVE), (5, ACTIVE), (6, ACTIVE), (7, RESERVE)]
    # B's d4 shows 3 (one below the top): active, total 3 < 11, so B moves first
    state = play(GAME, state, "b1=3")
    assert state.phase == STEP and state.mover == 1
    # a 9 on the d10 would have been active
    s2 = play(GAME, GAME.start([10], [4]), "a1=9")
    assert s2.dice[0][0][2] == ACTIVE


def test_lower_total_first_and_tie_is_a_roll_off():
    state = play(GAME, GAME.start([6], [6, 4]), "a1=6", "b1=5")  # B's d4 still to roll
    state = play(GAME, state, "b2=1")  # 6 against 5: B moves first
    assert state.phase == STEP and state.mover == 1
    state = play(GAME, GAME.start([6], [6]), "a1=5", "b1=5")
    assert state.phase == ROLLOFF and GAME.current_player(state) == CHANCE
    outs = GAME.exact_outcomes(state)
    assert [p for _, p in outs] == [Fraction(1, 2), Fraction(1, 2)]
    assert play(GAME, state, "b first").mover == 1


def test_no_active_dice_loses_both_draw_and_mulligan_rerolls():
    state = play(GAME, GAME.start([6], [6]), "a1=3", "b1=6")
    assert GAME.current_player(state) == TERMINAL and GAME.returns(state) == (0.0, 1.0)
    state = play(GAME, GAME.start([6], [6]), "a1=3", "b1=2")
    assert GAME.returns(state) == (0.5, 0.5) and GAME.format(state).endswith("draw")
    state = play(MULLIGAN, MULLIGAN.start([6], [6]), "a1=3", "b1=6")
    assert state.phase == SETUP and all(d[1] == 0 for side in state.dice for d in side)
    state = play(MULLIGAN, state, "a1=2", "b1=1")
    assert state.phase == SETUP  # both bust: re-rolled too


# ----- a turn -------------------------------------------------------------------------------------------------
def test_every_active_die_used_once_then_the_turn_passes_and_dice_become_unused():
    state = GAME.parse("d4:3a,d6:5a/d8:7a* a 40")
    assert names(GAME, state) == ["A1>1", "D1", "A2>1", "D2"]
    state = play(GAME, state, "A1>1", "miss:2")
    assert names(GAME, state) == ["A2>1", "D2"]  # die 1 is used
    assert GAME.format(state) == "d4:2a*,d6:5a/d8:7a* a 40"
    state = play(GAME, state, "D2", "=4", "keep", "alone")
    assert GAME.format(state) == "d4:2a*,d6:4a*/d8:7a b 40"  # B's turn: B's d8 unused again
    state = play(GAME, state, "D1", "=8", "keep", "alone")
    assert GAME.format(state) == "d4:2a,d6:4a/d8:8a* a 40"


def test_recruit_climbs_and_at_the_top_becomes_active_used():
    # the rules' example: d10 showing 7 in reserve, the d6 rolls 2: the d10 shows 9, still in reserve
    state = GAME.parse("d6:5a,d10:7r/d8:7a a 40")
    assert "R1>2" in names(GAME, state)
    after = play(GAME, state, "R1>2", "+2:2")
    assert GAME.format(after) == "d6:2a*,d10:9r/d8:7a b 40"
    # a 5 reaches the top (excess 2 lost): active, showing 10, used -> the turn passes at once
    state = GAME.parse("d6:5a,d4:4a,d10:7r/d8:7a a 40")
    after = play(GAME, state, "R1>3", "+3:5")
    assert GAME.format(after) == "d6:5a*,d4:4a,d10:10a*/d8:7a a 40"
    assert names(GAME, after) == ["A2>1", "D2"]  # the recruited d10 cannot be used this turn


def test_attack_strictly_more_defeats_reserve_cannot_be_attacked_and_win_at_once():
    state = GAME.parse("d6:1a,d4:2a/d8:4a*,d8:3r a 40")
    assert names(GAME, state) == ["A1>1", "D1", "A2>1", "D2"]  # B's reserve d8 is no target
    hit = sum(p for o, p in GAME.exact_outcomes(play(GAME, state, "A1>1")) if o.hit)
    assert hit == Fraction(1, 3)
    after = play(GAME, state, "A1>1", "hit:5")
    assert GAME.current_player(after) == TERMINAL and GAME.format(after) == "d6:5a*,d4:2a/d8:3r - 40 won:a"
    after = play(GAME, state, "A1>1", "miss:4")  # 4 against 4: nothing happens
    assert after.dice[1] == state.dice[1]


def test_defend_roll_keep_or_reroll_top_face_and_placement():
    state = GAME.parse("d20:5a*,d8:3a,d6:2a/d6:6a* a 40")
    state = play(GAME, state, "D2", "=4")
    assert state.phase == KEEP and names(GAME, state) == ["keep", "reroll"]
    rolled = play(GAME, state, "reroll")
    assert [p for _, p in GAME.exact_outcomes(rolled)] == [Fraction(1, 8)] * 8  # the top face may come
    rolled = play(GAME, rolled, "=8")
    assert rolled.phase == PLACE and names(GAME, rolled) == ["alone", "front1"]  # only die 1 is used
    placed = play(GAME, rolled, "front1")
    assert GAME.format(placed) == "d20:5a*,d8:8a*>1,d6:2a/d6:6a* a 40"
    # the d6 may defend the d8 (a chain) but not the d20, which already has a defender
    chain = play(GAME, placed, "D3", "=2", "keep")
    assert names(GAME, chain) == ["alone", "front2"]
    chain = play(GAME, chain, "front2")
    # B may only attack the front die (A's d6); the d8 and the d20 are behind it
    assert names(GAME, chain) == ["A1>3", "D1"]
    # once the d6 falls, the d8 is next; then the d20
    after = play(GAME, chain, "A1>3", "hit:3")
    assert GAME.format(after) == "d20:5a,d8:8a/d6:3a* a 40"  # d6 gone; A's turn: its defences ended
    b_turn = GAME.parse("d20:5a*,d8:8a*>1/d6:6a b 40")
    assert names(GAME, b_turn) == ["A1>2", "D1"]


def test_several_defenders_variant():
    state = SEVERAL.parse("d20:5a*,d8:8a*>1,d6:2a/d6:6a* a 40")
    state = play(SEVERAL, state, "D3", "=5", "keep")
    assert names(SEVERAL, state) == ["alone", "front1", "front2"]
    state = play(SEVERAL, state, "front1")
    assert names(SEVERAL, state) == ["A1>2", "A1>3", "D1"]  # both defenders, in any order
    b_turn = SEVERAL.parse("d20:5a*,d8:8a*>1,d6:5a*>1/d6:6a,d4:3a b 40")
    assert names(SEVERAL, b_turn)[:2] == ["A1>2", "A1>3"]
    after = play(SEVERAL, b_turn, "A1>3", "hit:2")
    assert names(SEVERAL, after) == ["A2>2", "D2"]  # the d20 stays behind the d8
    with pytest.raises(Exception, match="2 defenders"):
        GAME.parse("d20:5a*,d8:8a*>1,d6:5a*>1/d6:6a b 40")


def test_options_from_strings_and_bad_armies():
    game = load_game("dicegeddon", army_size="12", mulligan="true", several_defenders="no", armies="d4,d8/d6,d6")
    assert game.mulligan and not game.several_defenders and game.armies == ((4, 8), (6, 6))
    with pytest.raises(GameError, match="more than the army size"):
        load_game("dicegeddon", army_size="10", armies="d4,d8/d6")
    with pytest.raises(GameError, match="not in the dice set"):
        load_game("dicegeddon", armies="d5/d6")
    with pytest.raises(GameError, match="has no rule option 'ace'"):
        load_game("dicegeddon", ace="printed")
    start = game.new_game(random.Random(0))
    assert game.format(start) == "d4:?,d8:?/d6:?,d6:? - 12 setup"


def test_chains_rule_decides_whether_a_defender_may_be_defended():
    # A: d6 used (showing 1), d4 used and standing in front of it, d4 about to be placed.
    text = "d6:1a*,d4:3a*>1,d4:2a/d8:7a a 20 place:3"
    with_chains, without = Dicegeddon(), Dicegeddon(chains=False)
    # the d4 may stand alone or in front of the defender (a chain); the d6 already has its defender
    assert [with_chains.action_name(s, a) for s in [with_chains.parse(text)]
            for a in with_chains.legal_actions(s)] == ["alone", "front2"]
    assert [without.action_name(s, a) for s in [without.parse(text)] for a in without.legal_actions(s)] == ["alone"]
    with pytest.raises(PositionError, match="itself a defender: no chains"):
        without.parse("d6:1a*,d4:3a*>1,d4:2a*>2/d8:7a b 20")
    assert with_chains.format(with_chains.parse("d6:1a*,d4:3a*>1,d4:2a*>2/d8:7a b 20")) == "d6:1a*,d4:3a*>1,d4:2a*>2/d8:7a b 20"
    assert "chains=False" in repr(without)
