"""RolldownBeta's rules, each on a hand-worked position (rule text: shared/rules/rolldown-beta.txt).

Expected positions are written in the notation and worked out from the rule text; a test applies
moves by name and compares the resulting state with the parsed expectation.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from dicetree.solver.game import CHANCE, TERMINAL, GameError, PositionError, TooManyOutcomes
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, HAND_SIZE, JOKER, KING, QUEEN, UNKNOWN
from dicetree.solver.games.rolldown.state import DECIDE, QUEEN_SECOND, ROUND_OVER

GAME = Rolldown()
PRINTED = Rolldown(ace="printed")

# A's faces are low, B's high; nobody is on a first turn; A to move.
LOW = "d4:1,d6:2,d8:3,d10:4,d12:5,d20:6"
HIGH = "d4:4,d6:6,d8:8,d10:10,d12:12,d20:20"
FULL = f"{LOW}/{HIGH}"
ALL_DICE = [f"{side}.d{sides}" for side in "ab" for sides in DIE_SIDES]
FULL_DECK = "AA2233445566778899TTJJQQKKX"


def names(game, state):
    return [game.action_name(state, action) for action in game.legal_actions(state)]


def card_names(game, state, letter):
    return {name for name in names(game, state) if name.split()[0] == letter}


def play(game, state, *moves):
    """Apply moves (decisions or chance outcomes) given by their names."""
    for move in moves:
        state = game.apply(state, game.parse_action(state, move))
    return state


def assert_distribution(game, state, expected_count):
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == expected_count == game.chance_outcome_count(state)
    assert len({outcome for outcome, _ in outcomes}) == expected_count
    assert all(p == pytest.approx(1 / expected_count) for _, p in outcomes)
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)


# ----- number cards ---------------------------------------------------------------------------------
@pytest.mark.parametrize("number", range(2, 11))
def test_a_number_card_goes_on_any_die_that_can_show_it(number):
    letter = "T" if number == 10 else str(number)
    state = GAME.parse(f"{FULL} a {letter}/-")
    expected = {f"{letter} {side}.d{sides}" for side in "ab" for sides in DIE_SIDES if sides >= number}
    assert card_names(GAME, state, letter) == expected


def test_ten_is_not_legal_on_d4_d6_d8_and_five_not_on_d4():
    state = GAME.parse(f"{FULL} a T5/-")
    legal = set(names(GAME, state))
    for die in ("a.d4", "a.d6", "a.d8", "b.d4", "b.d6", "b.d8"):
        assert f"T {die}" not in legal
    assert {"T a.d10", "T b.d12", "T a.d20"} <= legal
    assert "5 a.d4" not in legal and "5 b.d4" not in legal
    assert "5 a.d6" in legal and "4 a.d4" in card_names(GAME, GAME.parse(f"{FULL} a 4/-"), "4")


def test_number_card_sets_the_die_and_goes_to_its_owners_discards():
    state = GAME.parse(f"{FULL} a 7K/J")
    after = play(GAME, state, "7 b.d8")
    assert after == GAME.parse(
        f"{LOW}/d4:4,d6:6,d8:7,d10:10,d12:12,d20:20 b K/J - single 0-0 1 7/-"
    )


def test_card_played_by_b_goes_to_bs_discard_pile_sorted_with_the_others():
    state = GAME.parse(f"{HIGH}/{LOW} b 3/9K - nine 8-0 2 2/QA")
    after = play(GAME, state, "9 b.d20")
    assert after == GAME.parse(f"{HIGH}/d4:1,d6:2,d8:3,d10:4,d12:5,d20:9 a 3/K - nine 8-0 2 2/A9Q")


# ----- Jack, King, Ace --------------------------------------------------------------------------------
def test_jack_sets_any_die_to_one():
    state = GAME.parse(f"{FULL} a J/-")
    assert card_names(GAME, state, "J") == {f"J {die}" for die in ALL_DICE}
    after = play(GAME, state, "J b.d20")
    assert after == GAME.parse(f"{LOW}/d4:4,d6:6,d8:8,d10:10,d12:12,d20:1 b -/- - single 0-0 1 J/-")


def test_king_sets_any_die_to_its_top_face():
    state = GAME.parse(f"{FULL} a K/-")
    assert card_names(GAME, state, "K") == {f"K {die}" for die in ALL_DICE}
    after = play(GAME, state, "K a.d12")
    assert after == GAME.parse(f"d4:1,d6:2,d8:3,d10:4,d12:12,d20:6/{HIGH} b -/- - single 0-0 1 K/-")


def test_online_ace_own_die_to_top_or_opponents_die_to_one():
    state = GAME.parse(f"{FULL} a A/-")
    expected = {f"A+ a.d{s}" for s in DIE_SIDES} | {f"A- b.d{s}" for s in DIE_SIDES}
    assert card_names(GAME, state, "A+") | card_names(GAME, state, "A-") == expected
    assert play(GAME, state, "A+ a.d20") == GAME.parse(
        f"d4:1,d6:2,d8:3,d10:4,d12:5,d20:20/{HIGH} b -/- - single 0-0 1 A/-"
    )
    assert play(GAME, state, "A- b.d10") == GAME.parse(
        f"{LOW}/d4:4,d6:6,d8:8,d10:1,d12:12,d20:20 b -/- - single 0-0 1 A/-"
    )


def test_online_ace_for_b_is_seen_from_b():
    state = GAME.parse(f"{FULL} b -/A")
    expected = {f"A+ b.d{s}" for s in DIE_SIDES} | {f"A- a.d{s}" for s in DIE_SIDES}
    assert card_names(GAME, state, "A+") | card_names(GAME, state, "A-") == expected


def test_printed_ace_either_end_on_any_die():
    state = PRINTED.parse(f"{FULL} a A/-")
    expected = {f"A{end} {die}" for end in "+-" for die in ALL_DICE}
    assert card_names(PRINTED, state, "A+") | card_names(PRINTED, state, "A-") == expected
    assert play(PRINTED, state, "A- a.d20") == PRINTED.parse(
        f"d4:1,d6:2,d8:3,d10:4,d12:5,d20:1/{HIGH} b -/- - single 0-0 1 A/-"
    )
    assert play(PRINTED, state, "A+ b.d4") == PRINTED.parse(f"{FULL} b -/- - single 0-0 1 A/-")


# ----- Queen ---------------------------------------------------------------------------------------------
def test_queen_is_chance_then_the_same_players_second_choice_then_chance():
    start = GAME.parse(f"{FULL} a Q/-")
    assert card_names(GAME, start, "Q") == {f"Q {die}" for die in ALL_DICE}

    first = play(GAME, start, "Q a.d8")
    assert first == GAME.parse(f"{FULL} a -/- - single 0-0 1 Q/- a queen:a.d8")
    assert GAME.current_player(first) == CHANCE
    assert_distribution(GAME, first, 8)
    assert [GAME.action_name(first, o) for o, _ in GAME.chance_outcomes(first)] == [f"a.d8={f}" for f in range(1, 9)]

    second = play(GAME, first, "a.d8=7")
    assert second == GAME.parse(f"d4:1,d6:2,d8:7,d10:4,d12:5,d20:6/{HIGH} a -/- - single 0-0 1 Q/- a q2")
    assert second.phase == QUEEN_SECOND and GAME.current_player(second) == 0  # the same player
    # any die in play, the one just rerolled included; nothing else (no capture, no card)
    assert sorted(names(GAME, second)) == sorted(f"Q2 {die}" for die in ALL_DICE)

    again = play(GAME, second, "Q2 a.d8")
    assert again == GAME.parse(f"d4:1,d6:2,d8:7,d10:4,d12:5,d20:6/{HIGH} a -/- - single 0-0 1 Q/- a roll:a.d8")
    assert_distribution(GAME, again, 8)

    done = play(GAME, again, "a.d8=2")
    assert done == GAME.parse(f"{LOW.replace('d8:3', 'd8:2')}/{HIGH} b -/- - single 0-0 1 Q/-")
    assert GAME.current_player(done) == 1


def test_queen_second_reroll_on_the_opponents_die():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 b -/Q")
    state = play(GAME, state, "Q a.d8", "a.d8=1", "Q2 b.d4")
    assert GAME.current_player(state) == CHANCE
    assert_distribution(GAME, state, 4)
    assert play(GAME, state, "b.d4=4") == GAME.parse("d6:2,d8:1/d4:4,d6:6 a -/- - single 0-0 1 -/Q")


def test_queen_on_a_first_turn_clears_the_flag_only_after_the_second_reroll():
    start = GAME.parse(f"{HIGH}/{LOW} a QKJ/789 ab")  # A could capture, but not on a first turn
    assert not [n for n in names(GAME, start) if "x" in n]
    mid = play(GAME, start, "Q a.d8", "a.d8=5")
    assert mid.first_turn == (True, True) and GAME.current_player(mid) == 0
    mid = play(GAME, mid, "Q2 b.d20")
    assert mid.first_turn == (True, True)
    done = play(GAME, mid, "b.d20=1")
    assert done.first_turn == (False, True)
    assert done == GAME.parse(
        "d4:4,d6:6,d8:5,d10:10,d12:12,d20:20/d4:1,d6:2,d8:3,d10:4,d12:5,d20:1 b JK/789 b single 0-0 1 Q/-"
    )
    assert done.starter == 0


# ----- Joker ------------------------------------------------------------------------------------------
def test_joker_rerolls_every_die_in_play():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a X/-")
    assert "X" in names(GAME, state)
    rolled = play(GAME, state, "X")
    assert rolled == GAME.parse("d6:2,d8:5/d4:3,d6:6 a -/- - single 0-0 1 X/- a joker")
    assert GAME.current_player(rolled) == CHANCE
    assert_distribution(GAME, rolled, 6 * 8 * 4 * 6)
    after = play(GAME, rolled, "a:1,8 b:4,2")  # A's d6, d8 then B's d4, d6
    assert after == GAME.parse("d6:1,d8:8/d4:4,d6:2 b -/- - single 0-0 1 X/-")


def test_joker_leaves_captured_dice_out_of_play():
    state = play(GAME, GAME.parse("d20:3/d12:9 b -/X"), "X")
    assert_distribution(GAME, state, 20 * 12)
    assert play(GAME, state, "a:20 b:1") == GAME.parse("d20:20/d12:1 a -/- - single 0-0 1 -/X")


def test_joker_over_the_limit_can_only_be_sampled():
    small_limit = Rolldown(exact_chance_limit=1000)
    state = play(small_limit, small_limit.parse("d6:2,d8:5/d4:3,d6:6 a X/-"), "X")
    assert small_limit.chance_outcome_count(state) == 1152
    with pytest.raises(TooManyOutcomes):
        small_limit.chance_outcomes(state)
    rng = random.Random(7)
    for _ in range(50):
        faces = small_limit.sample_chance(state, rng)
        assert len(faces) == 4
        assert all(1 <= f <= s for f, s in zip(faces, (6, 8, 4, 6)))
        after = small_limit.apply(state, faces)
        assert after.mover == 1 and after.phase == DECIDE


def test_joker_on_all_twelve_dice_has_the_product_of_sides_outcomes():
    state = play(GAME, GAME.parse(f"{FULL} a X/-"), "X")
    assert GAME.chance_outcome_count(state) == math.prod(DIE_SIDES) ** 2 == 212_336_640_000
    with pytest.raises(TooManyOutcomes):
        GAME.chance_outcomes(state)
    faces = GAME.sample_chance(state, random.Random(1))
    assert len(faces) == 12 and all(1 <= f <= s for f, s in zip(faces, DIE_SIDES * 2))


def test_joker_sample_frequencies_are_uniform():
    state = play(GAME, GAME.parse("d4:1/d4:1 a X/-"), "X")
    rng = random.Random(3)
    counts = Counter(GAME.sample_chance(state, rng) for _ in range(3200))
    assert set(counts) == {(a, b) for a in range(1, 5) for b in range(1, 5)}
    assert all(150 < c < 250 for c in counts.values())  # 200 expected each


# ----- cards in general ------------------------------------------------------------------------------
def test_a_card_that_changes_nothing_is_legal_and_uses_the_turn():
    state = GAME.parse("d6:1/d4:4 a JK/-")
    assert {"J a.d6", "K b.d4"} <= set(names(GAME, state))
    assert play(GAME, state, "J a.d6") == GAME.parse("d6:1/d4:4 b K/- - single 0-0 1 J/-")
    assert play(GAME, state, "K b.d4") == GAME.parse("d6:1/d4:4 b J/- - single 0-0 1 K/-")


def test_duplicate_cards_give_one_set_of_actions():
    one = GAME.parse("d6:1,d8:2/d4:4,d6:3 a K/-")
    two = GAME.parse("d6:1,d8:2/d4:4,d6:3 a KK/-")
    assert GAME.legal_actions(two) == GAME.legal_actions(one)
    assert len(set(GAME.legal_actions(two))) == len(GAME.legal_actions(two))
    assert play(GAME, two, "K a.d8") == GAME.parse("d6:1,d8:8/d4:4,d6:3 b K/- - single 0-0 1 K/-")


def test_all_actions_of_a_worked_position():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    assert names(GAME, state) == [
        "d8xd4",
        "Q a.d6", "Q a.d8", "Q b.d4", "Q b.d6",
        "K a.d6", "K a.d8", "K b.d4", "K b.d6",
        "roll a.d6", "roll a.d8", "roll b.d4", "roll b.d6",
    ]


def test_unknown_cards_in_the_movers_hand_cannot_be_searched():
    with pytest.raises(PositionError, match="A is to move but A's own hand is unknown"):
        GAME.parse("d6:2/d4:3 a K?/-")  # refused at once, not after searching every hand
    built = GAME.parse("d6:2/d4:3 a K/-")._replace(hands=((KING, UNKNOWN), ()))
    with pytest.raises(GameError, match="not known"):
        GAME.legal_actions(built)
    assert names(GAME, GAME.parse("d6:2/d4:3 a K/??"))  # the opponent's unknown cards are fine


# ----- captures ---------------------------------------------------------------------------------------------
def captures(state):
    return {n for n in names(GAME, state) if "x" in n}


def test_capture_only_an_opponents_die_showing_the_same_or_less():
    assert captures(GAME.parse("d6:2,d8:5/d4:3,d6:6 a -/-")) == {"d8xd4"}
    assert captures(GAME.parse("d6:3/d4:3 a -/-")) == {"d6xd4"}  # the same number
    assert captures(GAME.parse("d6:3/d4:3 b -/-")) == {"d4xd6"}  # seen from B
    assert captures(GAME.parse("d4:2/d6:3 a -/-")) == set()
    assert captures(GAME.parse("d4:2,d20:5/d6:3,d12:5 a -/-")) == {"d20xd6", "d20xd12"}
    assert captures(GAME.parse(f"{FULL} b -/-")) == {
        f"d{mine}xd{theirs}" for mine, mf in zip(DIE_SIDES, (4, 6, 8, 10, 12, 20))
        for theirs, tf in zip(DIE_SIDES, (1, 2, 3, 4, 5, 6)) if tf <= mf
    }


def test_a_capture_removes_both_dice_and_passes_the_turn():
    state = GAME.parse("d4:2,d20:5/d6:3,d12:5 a K/-")
    assert play(GAME, state, "d20xd12") == GAME.parse("d4:2/d6:3 b K/-")


def test_no_capture_on_either_players_first_turn():
    start = GAME.parse(f"{HIGH}/{HIGH} a 234/567 ab")
    assert captures(start) == set()
    after_a = play(GAME, start, "roll b.d4", "b.d4=1")
    assert after_a.first_turn == (False, True) and after_a.mover == 1
    assert captures(after_a) == set()  # B is still on its first turn
    after_b = play(GAME, after_a, "roll a.d4", "a.d4=4")
    assert after_b.first_turn == (False, False)
    assert "d20xd4" in captures(after_b)
    assert after_b == GAME.parse(f"{HIGH}/d4:1,d6:6,d8:8,d10:10,d12:12,d20:20 a 234/567 - single 0-0 1 -/- a")


def test_a_card_ends_a_first_turn_too():
    state = play(GAME, GAME.parse(f"{LOW}/{LOW} b 234/K56 ab"), "K a.d4")
    assert state.first_turn == (True, False) and state.mover == 0 and state.starter == 1


def test_the_sixth_capture_ends_the_round_and_scores_the_final_pair():
    state = GAME.parse("d20:14/d4:3 a QK/5 - first50 10-20 3 -/- b")
    over = play(GAME, state, "d20xd4")
    # A wins 20 + 4 = 24; the leftover Q, K and 5 go to their owners' discard piles
    assert over == GAME.parse("-/- a -/- - first50 34-20 3 QK/5 b won:a:24")
    assert over.phase == ROUND_OVER and over.round_winner == 0 and over.round_points == 24
    assert GAME.current_player(over) == TERMINAL
    assert GAME.returns(over) == (1.0, 0.0)


def test_the_last_capture_by_b_wins_for_b():
    over = play(GAME, GAME.parse("d8:6/d6:6 b -/J"), "d6xd8")
    assert over == GAME.parse("-/- b -/- - single 0-0 1 -/J a won:b:14")
    assert GAME.returns(over) == (0.0, 1.0)


def test_a_capture_that_is_not_the_last_does_not_end_the_round():
    state = play(GAME, GAME.parse("d4:4,d8:1/d4:4,d6:6 a -/-"), "d4xd4")
    assert state == GAME.parse("d8:1/d6:6 b -/-") and GAME.current_player(state) == 1


# ----- rerolls and passing -------------------------------------------------------------------------------
def test_reroll_any_one_die_own_or_opponents():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a -/-")
    assert {n for n in names(GAME, state) if n.startswith("roll")} == {
        "roll a.d6", "roll a.d8", "roll b.d4", "roll b.d6"
    }
    rolling = play(GAME, state, "roll b.d4")
    assert rolling == GAME.parse("d6:2,d8:5/d4:3,d6:6 a -/- - single 0-0 1 -/- a roll:b.d4")
    assert_distribution(GAME, rolling, 4)
    assert [o for o, _ in GAME.chance_outcomes(rolling)] == [1, 2, 3, 4]
    assert play(GAME, rolling, "b.d4=4") == GAME.parse("d6:2,d8:5/d4:4,d6:6 b -/-")


@pytest.mark.parametrize("slot", range(6))
def test_reroll_chance_is_uniform_over_the_dies_faces(slot):
    sides = DIE_SIDES[slot]
    state = play(GAME, GAME.parse(f"{FULL} b -/-"), f"roll a.d{sides}")
    assert_distribution(GAME, state, sides)


def test_there_is_always_a_legal_action_while_dice_are_in_play():
    rng = random.Random(11)
    for game in (GAME, PRINTED):
        for _ in range(4):
            state = game.new_match("single", rng)
            while not game.is_terminal(state):
                if game.is_chance(state):
                    state = game.apply(state, game.sample_chance(state, rng))
                    continue
                actions = game.legal_actions(state)
                dice = sum(1 for row in state.dice for face in row if face)
                rerolls = [a for a in actions if game.action_name(state, a).split()[0] in ("roll", "Q2")]
                assert len(rerolls) == dice > 0
                state = game.apply(state, rng.choice(actions))


# ----- objectives -------------------------------------------------------------------------------------------
def test_round_objective_returns_one_and_zero():
    assert GAME.returns(GAME.parse("-/- b -/- - single 0-0 1 -/- a won:a:24")) == (1.0, 0.0)
    assert GAME.returns(GAME.parse("-/- b -/- - single 0-0 1 -/- a won:b:8")) == (0.0, 1.0)
    assert GAME.value_bounds().low == 0.0 and GAME.value_bounds().high == 1.0


def test_points_objective_returns_signed_points():
    points = Rolldown(objective="points")
    a_wins = play(points, points.parse("d20:14/d4:3 a -/- - first50 10-20 3"), "d20xd4")
    assert points.is_terminal(a_wins) and points.returns(a_wins) == (24, -24)
    b_wins = play(points, points.parse("d4:2/d4:2 b -/- - nine 0-0 1"), "d4xd4")
    assert points.returns(b_wins) == (-8, 8)
    assert (points.value_bounds().low, points.value_bounds().high) == (-40, 40)


def test_match_first_to_50_ends_when_a_score_reaches_50():
    match = Rolldown(objective="match", horizon="match")
    reaching = play(match, match.parse("d12:7/d10:3 a -/- - first50 28-40 6"), "d12xd10")
    assert reaching == match.parse("-/- b -/- - first50 50-40 6 -/- a won:a:22")  # exactly 50
    assert match.current_player(reaching) == TERMINAL and match.returns(reaching) == (1.0, 0.0)
    over = match.parse("-/- a -/- - first50 20-54 5 -/- b won:b:24")
    assert match.is_terminal(over) and match.returns(over) == (0.0, 1.0)
    not_yet = match.parse("-/- a -/- - first50 34-20 3 QK/5 b won:a:24")
    assert match.current_player(not_yet) == CHANCE


def test_match_nine_rounds_ends_after_round_nine_and_a_tie_is_a_draw():
    match = Rolldown(objective="match", horizon="match")
    tie = match.parse("-/- b -/- - nine 100-100 9 -/- a won:b:24")
    assert match.is_terminal(tie) and match.returns(tie) == (0.5, 0.5)
    assert match.returns(match.parse("-/- b -/- - nine 124-100 9 -/- a won:a:24")) == (1.0, 0.0)
    # the round's winner can still lose the match on totals
    assert match.returns(match.parse("-/- b -/- - nine 98-130 9 -/- a won:a:8")) == (0.0, 1.0)
    assert match.current_player(match.parse("-/- b -/- - nine 100-100 8 -/- a won:b:24")) == CHANCE


def test_match_of_a_single_round_ends_with_the_round():
    match = Rolldown(objective="match", horizon="match")
    over = play(match, match.parse("d8:6/d6:6 b -/-"), "d6xd8")
    assert match.is_terminal(over) and match.returns(over) == (0.0, 1.0)


def test_round_and_points_objectives_end_with_the_round_in_every_mode():
    for objective in ("round", "points"):
        game = Rolldown(objective=objective)
        assert game.is_terminal(game.parse("-/- a -/- - first50 34-20 3 QK/5 b won:a:24"))
        assert game.is_terminal(game.parse("-/- b -/- - nine 100-100 8 -/- a won:b:24"))
        with pytest.raises(GameError):
            game.apply(game.parse("-/- b -/- - nine 100-100 8 -/- a won:b:24"), None)


def deck_ok(hand, discards):
    counts = Counter(hand) + Counter(discards)
    return all(counts[card] <= DECK_COPIES[card] for card in counts)


def test_the_deal_starts_the_next_round_with_the_other_first_player():
    match = Rolldown(objective="match", horizon="match")
    state = match.parse("-/- a -/- - first50 34-20 3 QK/5 b won:a:24")  # B went first in round 3
    with pytest.raises(TooManyOutcomes):
        match.chance_outcomes(state)
    assert match.chance_outcome_count(state) > match.exact_chance_limit
    rng = random.Random(5)
    for _ in range(20):
        dealt = match.apply(state, match.sample_chance(state, rng))
        assert dealt.round == 4 and dealt.scores == (34, 20) and dealt.mode == "first50"
        assert dealt.starter == 0 and dealt.mover == 0 and dealt.first_turn == (True, True)
        assert dealt.phase == DECIDE and match.current_player(dealt) == 0
        assert all(1 <= face <= sides for row in dealt.dice for face, sides in zip(row, DIE_SIDES))
        assert dealt.discards == state.discards  # the decks are not empty: no reshuffle
        for side in (0, 1):
            assert len(dealt.hands[side]) == HAND_SIZE
            assert deck_ok(dealt.hands[side], dealt.discards[side])
        assert match.parse(match.format(dealt)) == dealt


def test_a_deck_is_not_reshuffled_while_it_has_cards():
    match = Rolldown(objective="match", horizon="match")
    # A's deck is exactly A, A, X; B's has every card but both Kings and both Queens
    state = match.parse("-/- b -/- - first50 40-40 8 2233445566778899TTJJQQKK/KKQQ a won:a:8")
    rng = random.Random(2)
    for _ in range(20):
        dealt = match.apply(state, match.sample_chance(state, rng))
        assert dealt.round == 9 and dealt.starter == 1
        assert dealt.hands[0] == (1, 1, JOKER) and dealt.discards == state.discards
        assert not {KING, QUEEN} & set(dealt.hands[1])


def test_an_empty_deck_is_reshuffled_from_its_own_discards_in_round_ten():
    match = Rolldown(objective="match", horizon="match")
    # the end of round 9 of First to 50: all 27 cards of each deck are on its discard pile
    state = match.parse(f"-/- b -/- - first50 40-40 9 {FULL_DECK}/{FULL_DECK} a won:a:8")
    assert match.current_player(state) == CHANCE
    seen = set()
    rng = random.Random(4)
    for _ in range(30):
        dealt = match.apply(state, match.sample_chance(state, rng))
        assert dealt.round == 10 and dealt.starter == 1 and dealt.mover == 1
        assert dealt.discards == ((), ())  # the whole pile became the new deck
        for side in (0, 1):
            assert len(dealt.hands[side]) == HAND_SIZE and deck_ok(dealt.hands[side], ())
            seen.update(dealt.hands[side])
        assert match.parse(match.format(dealt)) == dealt
    assert len(seen) > 8


def test_a_deck_that_runs_out_mid_draw_is_reshuffled_then():
    match = Rolldown(objective="match", horizon="match")
    # A's deck holds only the Joker and one King: both are drawn, then the discards are reshuffled
    state = match.parse("-/- b -/- - first50 40-40 9 AA2233445566778899TTJJQQK/- a won:a:8")
    rng = random.Random(9)
    for _ in range(20):
        dealt = match.apply(state, match.sample_chance(state, rng))
        assert KING in dealt.hands[0] and JOKER in dealt.hands[0]
        assert dealt.discards[0] == ()
        assert deck_ok(dealt.hands[0], ())
        assert dealt.discards[1] == () and len(dealt.hands[1]) == 3


# ----- new matches ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize("mode", ["single", "first50", "nine"])
def test_new_match_with_a_given_first_player(first, mode):
    state = GAME.new_match(mode, random.Random(first), first=first)
    assert state.mover == first and state.starter == first and state.first_turn == (True, True)
    assert state.round == 1 and state.scores == (0, 0) and state.mode == mode
    assert state.phase == DECIDE and state.discards == ((), ())
    assert all(len(hand) == HAND_SIZE for hand in state.hands)
    assert all(1 <= face <= sides for row in state.dice for face, sides in zip(row, DIE_SIDES))
    assert GAME.parse(GAME.format(state)) == state


def test_play_again_the_other_player_goes_first():
    first = GAME.new_match("nine", random.Random(1))
    again = GAME.new_match("nine", random.Random(2), first=1 - first.starter)
    assert again.starter == 1 - first.starter and again.mover == again.starter


def test_the_roll_off_picks_either_player_evenly():
    starters = Counter(GAME.new_match("single", random.Random(seed)).starter for seed in range(400))
    assert set(starters) == {0, 1} and 150 < starters[0] < 250


def test_new_match_rejects_bad_options():
    with pytest.raises(GameError, match="unknown mode"):
        GAME.new_match("double")
    with pytest.raises(GameError, match="first must be"):
        GAME.new_match("single", first=2)
    with pytest.raises(GameError, match="Ace variant"):
        Rolldown(ace="both")
    with pytest.raises(GameError, match="objective"):
        Rolldown(objective="rounds")


# ----- whole matches ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, seed", [("first50", 1), ("first50", 2), ("nine", 3)])
def test_random_matches_keep_every_invariant_and_end_by_the_mode(mode, seed):
    match = Rolldown(objective="match", horizon="match", ace="printed" if seed % 2 else "online")
    rng = random.Random(seed)
    state = match.new_match(mode, rng)
    starters = [state.starter]
    rounds_won = []
    while not match.is_terminal(state):
        assert match.parse(match.format(state)) == state
        counts = [sum(1 for face in row if face) for row in state.dice]
        assert counts[0] == counts[1]
        for side in (0, 1):
            assert len(state.hands[side]) <= HAND_SIZE and deck_ok(state.hands[side], state.discards[side])
        if state.phase == ROUND_OVER:
            rounds_won.append((state.round_winner, state.round_points))
            state = match.apply(state, match.sample_chance(state, rng))
            starters.append(state.starter)
        elif match.is_chance(state):
            state = match.apply(state, match.sample_chance(state, rng))
        else:
            state = match.apply(state, rng.choice(match.legal_actions(state)))
    rounds_won.append((state.round_winner, state.round_points))
    totals = [sum(p for w, p in rounds_won if w == side) for side in (0, 1)]
    assert tuple(totals) == state.scores
    assert all(starters[i] != starters[i + 1] for i in range(len(starters) - 1))  # alternates
    winner, points = rounds_won[-1]
    before = list(state.scores)
    before[winner] -= points
    if mode == "first50":
        assert max(before) < 50 <= state.scores[winner]  # the first total to reach 50 ends it
        assert match.returns(state)[winner] == 1.0
    else:
        assert state.round == 9 and len(rounds_won) == 9
        a, b = state.scores
        assert match.returns(state) == ((1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5))


def test_cache_key_merges_only_faces_about_to_be_rerolled():
    roll_a = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/- - single 0-0 1 -/- a roll:b.d6")
    roll_b = GAME.parse("d6:2,d8:5/d4:3,d6:1 a QK/- - single 0-0 1 -/- a roll:b.d6")
    assert roll_a != roll_b and GAME.key(roll_a) == GAME.key(roll_b)
    other_die = GAME.parse("d6:3,d8:5/d4:3,d6:6 a QK/- - single 0-0 1 -/- a roll:b.d6")
    assert GAME.key(other_die) != GAME.key(roll_a)
    joker_a = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/- - single 0-0 1 X/- a joker")
    joker_b = GAME.parse("d6:1,d8:1/d4:1,d6:1 a QK/- - single 0-0 1 X/- a joker")
    assert GAME.key(joker_a) == GAME.key(joker_b)
    deciding = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    assert GAME.key(deciding) == deciding and GAME.key(deciding) != GAME.key(roll_a)
    # Positions that differ in anything else keep different keys.
    assert GAME.key(GAME.parse("d6:2,d8:5/d4:3,d6:6 b QK/-")) != GAME.key(deciding)
    assert GAME.key(GAME.parse("d6:2,d8:5/d4:3,d6:6 a Q/-")) != GAME.key(deciding)
