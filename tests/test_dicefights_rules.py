"""Dice Fights rules: a test for every phase and rule, and invariants along random games."""

from __future__ import annotations

import inspect
import itertools
import math
import random
from collections import Counter

import pytest

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, GameError
from dicetree.solver.games.dicefights import DiceFights
from dicetree.solver.games.dicefights.faces import GOLD, SHIELD, SWORD, roll_distribution
from dicetree.solver.games.dicefights.policies import POLICIES, play_game
from dicetree.solver.games.dicefights.rules import RULE_OPTIONS, damage_taken
from dicetree.solver.games.dicefights.state import (
    BUY,
    KEEP,
    MAX_MULTIPLIER,
    NO_OWNER,
    NOTHING,
    OVER,
    RACE,
    REROLL,
    REROLLING,
    ROLL,
    TARGET,
    TOTAL_CORE_DICE,
    Bundle,
    Reroll,
    Roll,
    Target,
)

GAME = DiceFights()


def game_for(players: int, **options) -> DiceFights:
    return DiceFights(players=players, **options)


# ----- setting up ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_a_new_game_gives_everyone_life_20_five_dice_and_multipliers_1(players):
    game = game_for(players)
    state = game.new_game()
    assert state.life == (20,) * players and state.bank == (0,) * players and state.dice == (5,) * players
    assert state.mults == ((1, 1, 1),) * players and state.box == NO_OWNER
    assert state.cache() == TOTAL_CORE_DICE - 5 * players  # 30 minus five a player
    assert game.current_player(state) == CHANCE and state.phase == ROLL


@pytest.mark.parametrize("players", [1, 7, "x", "07", True])
def test_two_to_six_players(players):
    with pytest.raises(GameError, match="rule option players must be a whole number 2..6"):
        DiceFights(players=players)


@pytest.mark.parametrize("option, value", [("race", "first"), ("shields", "twice"), ("bundles", "some")])
def test_unknown_rule_options_are_refused(option, value):
    with pytest.raises(GameError, match=f"rule option {option} must be one of"):
        DiceFights(**{option: value})


def test_the_constructor_takes_typed_values_and_text_alike():
    typed = DiceFights(players=3, race="split", exact_chance_limit=100)
    text = DiceFights(players="3", race="split", exact_chance_limit="100")
    assert repr(typed) == repr(text) and typed.num_players == text.num_players == 3
    assert typed.exact_chance_limit == text.exact_chance_limit == 100


def test_the_constructor_defaults_are_the_declared_ones():
    """The signature repeats the declared defaults for Python callers: they must not drift apart."""
    defaults = {name: p.default for name, p in inspect.signature(DiceFights).parameters.items()}
    assert defaults == {option.name: option.default for option in RULE_OPTIONS}
    assert DiceFights.rule_options == RULE_OPTIONS


# ----- phase 1: roll ------------------------------------------------------------------------------
def test_identical_dice_roll_as_multinomial_counts():
    brute = Counter()
    for faces in itertools.product(range(6), repeat=3):  # two Shields, two Swords, two Gold
        counts = [0, 0, 0]
        for face in faces:
            counts[(SHIELD, SHIELD, SWORD, SWORD, GOLD, GOLD)[face]] += 1
        brute[tuple(counts)] += 1 / 6**3
    assert dict(roll_distribution(3, (2, 2, 2))) == pytest.approx(dict(brute))


def test_the_roll_lists_every_joint_count_with_its_probability():
    outcomes = GAME.chance_outcomes(GAME.new_game())
    assert len(outcomes) == 21 * 21 == GAME.chance_outcome_count(GAME.new_game())
    assert math.fsum(p for _, p in outcomes) == pytest.approx(1)
    state = GAME.apply(GAME.new_game(), (Roll(2, 2, 1), Roll(0, 1, 4)))
    assert state.phase == REROLL and state.rolled == ((2, 2, 1), (0, 1, 4))
    assert GAME.current_player(state) == SIMULTANEOUS


def test_the_box_rolls_with_its_owner():
    state = GAME.parse("20:0:5+:111 20:0:5:111 roll")
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == 21 * 3 * 21
    assert {o[0].box for o, _ in outcomes} == {SWORD, SHIELD, GOLD} and {o[1].box for o, _ in outcomes} == {-1}


def test_a_huge_roll_is_sampled_not_listed():
    game = game_for(4)
    state = game.new_game()
    assert game.chance_outcome_count(state) == 21**4 > game.exact_chance_limit
    with pytest.raises(GameError, match="sample it"):
        game.chance_outcomes(state)
    outcome = game.sample_chance(state, random.Random(3))
    assert all(sum(r[:3]) == 5 for r in outcome)


def test_players_who_are_out_do_not_roll():
    game = game_for(3)
    state = game.parse("20:0:5:111 0:0:5:111 20:0:5:111 roll")
    outcome = game.sample_chance(state, random.Random(1))
    assert outcome[1] is None and game.chance_outcome_count(state) == 21 * 21


# ----- phase 1: the optional re-roll --------------------------------------------------------------
def test_rerolls_are_grouped_by_symbol():
    state = GAME.parse("20:0:5:111=2a2d1g 20:0:5+:111=1a0d4g/d reroll")
    mine, theirs = GAME.joint_actions(state)
    assert len(mine) == 3 * 3 * 2 and mine[0] == KEEP and GAME.action_name(state, mine[0]) == "keep"
    assert len(theirs) == 2 * 1 * 5 * 2  # the Box owner may re-roll the Box too
    assert GAME.action_name(state, Reroll(1, 0, 2, 1)) == "roll 1a+2g+B"


def test_rerolled_dice_are_set_aside_then_rolled_and_kept():
    state = GAME.parse("20:0:5:111=2a2d1g 20:0:5+:111=1a0d4g/d reroll")
    rolling = GAME.apply(state, (Reroll(0, 0, 1), Reroll(0, 0, 2, 1)))
    assert rolling.phase == REROLLING and rolling.pending == (1, 2) and rolling.box_pending
    assert rolling.rolled == ((2, 2, 0), (1, 0, 2))
    assert GAME.format(rolling) == "20:0:5:111=2a2d0g?1 20:0:5+:111=1a0d2g?2/? rerolling"
    assert GAME.chance_outcome_count(rolling) == 3 * 6 * 3
    after = GAME.apply(rolling, (Roll(1, 0, 0), Roll(0, 2, 0, SWORD)))
    # A 3 Swords against B's 2 Shields; B's Box Sword (10) + 1 Sword against 2 Shields.
    assert after.phase == BUY and after.life == (20 - 9, 20 - 1)
    assert after.bank == (0, 2)


def test_nobody_rerolling_skips_the_reroll_roll():
    state = GAME.parse("20:0:5:111=2a2d1g 20:0:5:111=1a1d3g reroll")
    after = GAME.apply(state, (KEEP, KEEP))
    assert after.phase == BUY and after.life == (20, 19) and after.bank == (1, 3)


# ----- phase 2: attack and defense ------------------------------------------------------------------
def test_the_rule_texts_damage_example():
    # Player One attacks Player Two with 3 Swords; Player Two has 1 Shield: 2 damage.
    after = GAME.apply(GAME.parse("20:0:5:111=3a0d2g 20:0:5:111=0a1d4g reroll"), (KEEP, KEEP))
    assert after.life == (20, 18)
    assert damage_taken([3, 0], [0, 1], [1, 0], "every") == [0, 2]


def test_upgrades_multiply_as_the_wording_says_not_as_the_printed_example():
    # 2 Swords, 3 Shields, 2 Gold with Attack 3, Defense 4, Gold 2: attack 6, defense 12, Gold 4
    # (the printed example says 8 Gold: it contradicts "multiply their effect by the number shown").
    state = GAME.parse("20:0:7:342=2a3d2g 20:0:12:111=10a0d2g reroll")
    assert [GAME.symbol_value(state, 0, s) for s in (SWORD, SHIELD, GOLD)] == [6, 12, 4]
    after = GAME.apply(state, (KEEP, KEEP))
    assert after.bank[0] == 4 and after.life == (20, 20 - 6)  # B's 10 Swords against 12: nothing


def test_the_game_box_counts_ten_of_its_symbol_times_the_multiplier():
    state = GAME.parse("20:0:5+:211=1a1d3g/a 20:0:5:131=0a2d3g reroll")
    assert GAME.symbol_value(state, 0, SWORD) == (1 + 10) * 2
    assert GAME.apply(state, (KEEP, KEEP)).life == (20, 20 - (22 - 2 * 3))


@pytest.mark.parametrize("shields, expected", [("every", (20, 20, 20 - 2 - 1)), ("once", (20, 20, 20 - (3 + 2 - 1)))])
def test_shields_count_against_every_attacker_or_once(shields, expected):
    game = game_for(3, shields=shields)
    state = game.parse("20:0:5:111=3a0d2g 20:0:5:111=2a0d3g 20:0:5:111=0a1d4g reroll")
    after = game.apply(state, (KEEP, KEEP, KEEP))
    if after.phase == TARGET:  # both can hurt both others: they choose; both attack C here
        after = game.apply(after, (Target(2), Target(2), None))
    assert after.life == expected


def test_with_three_players_only_useful_targets_are_choices():
    game = game_for(3)
    state = game.parse("20:0:5:111=4a1d0g 20:0:5:111=0a5d0g 20:0:5:111=1a2d2g reroll")
    # A's 4 Swords hurt C (2 Shields) but not B (5): a forced target, no target node.
    assert game.target_options(state, 0) == [Target(2)] and game.target_options(state, 1) == []
    after = game.apply(state, (KEEP, KEEP, KEEP))
    assert after.phase == BUY and after.life == (20, 20, 18)
    choosing = game.parse("20:0:5:111=4a1d0g 20:0:5:111=0a1d4g 20:0:5:111=1a2d2g reroll")
    node = game.apply(choosing, (KEEP, KEEP, KEEP))
    assert node.phase == TARGET
    options = game.joint_actions(node)
    assert options == ((Target(1), Target(2)), (), ())
    assert game.apply(node, (Target(1), None, None)).life == (20, 17, 20)  # C's 1 Sword hurts nobody


def test_two_players_never_choose_a_target():
    state = GAME.parse("20:0:5:111=5a0d0g 20:0:5:111=5a0d0g reroll")
    assert GAME.apply(state, (KEEP, KEEP)).life == (15, 15)


# ----- gold, death and the end ------------------------------------------------------------------------
def test_gold_is_banked_after_damage_without_limit():
    after = GAME.apply(GAME.parse("20:95:5:114=0a0d5g 20:0:5:111=0a0d5g reroll"), (KEEP, KEEP))
    assert after.bank == (95 + 20, 5)


def test_the_last_player_standing_wins():
    end = GAME.apply(GAME.parse("3:0:5:111=0a0d5g 20:0:5:111=4a1d0g reroll"), (KEEP, KEEP))
    assert GAME.current_player(end) == TERMINAL and end.phase == OVER and end.life == (-1, 20)
    assert end.winners == (1,) and GAME.returns(end) == (0.0, 1.0)


def test_the_less_dead_wins_a_simultaneous_fall():
    # The rule text's example: 5 and 3 Life, both take 8: -3 beats -5.
    end = GAME.apply(GAME.parse("5:0:8:111=8a0d0g 3:0:8:111=8a0d0g reroll"), (KEEP, KEEP))
    assert end.life == (-3, -5) and end.winners == (0,) and GAME.returns(end) == (1.0, 0.0)
    assert GAME.format(end) == "-3:0:8:111 -5:0:8:111 over:1"


def test_an_exactly_equal_fall_is_a_draw():
    end = GAME.apply(GAME.parse("4:0:8:111=8a0d0g 4:0:8:111=8a0d0g reroll"), (KEEP, KEEP))
    assert end.winners == (0, 1) and GAME.returns(end) == (0.5, 0.5)


def test_a_fallen_player_collects_no_gold_and_leaves_with_life_zero():
    game = game_for(3)
    state = game.parse("2:0:5:111=0a0d5g 20:0:5:111=5a0d0g 20:0:5:111=0a5d0g reroll")
    after = game.apply(state, (KEEP, KEEP, KEEP))
    assert after.life == (0, 20, 20) and after.bank == (0, 0, 0) and after.phase == BUY
    assert game.joint_actions(after)[0] == ()


def test_two_falling_at_once_leave_the_third_the_winner():
    game = game_for(3)
    state = game.parse("1:0:5:111=5a0d0g 1:0:5:111=5a0d0g 20:0:5:111=0a5d0g reroll")
    end = game.apply(state, (KEEP, KEEP, KEEP))  # each can hurt only the other: no target node
    assert end.phase == OVER and end.winners == (2,) and end.life == (-4, -4, 20)


# ----- phase 3: purchases ------------------------------------------------------------------------------
def test_prices_and_the_multiplier_cap():
    assert Bundle(dice=1).cost == 3 and Bundle(defense=1).cost == 7 and Bundle(attack=1).cost == 9
    assert Bundle(gold=1).cost == 12 and Bundle(box=1).cost == 30
    state = GAME.parse("20:100:5:441 20:0:5:111 buy")
    options = GAME.bundle_options(state, 0)
    assert all(b.attack == 0 and b.defense == 0 and b.gold <= 3 for b in options)
    assert Bundle(0, 0, 0, 3, 1) in options  # three Gold upgrades and the Box: 66 of the 100


def test_sensible_bundles_spend_the_rest_on_dice_or_save_it():
    state = GAME.parse("20:12:5:111 20:3:5:111 buy")
    names = [GAME.action_name(state, b) for b in GAME.joint_actions(state)[0]]
    assert names == ["nothing", "4c", "a", "1c+a", "d", "1c+d", "g"]
    every = DiceFights(bundles="all")
    assert [b.dice for b in every.bundle_options(state, 0) if sum(b[1:]) == 0] == [0, 1, 2, 3, 4]


def test_dice_come_from_the_cache():
    game = game_for(6)
    state = game.parse(" ".join(["20:9:5:111"] * 6) + " buy")
    assert state.cache() == 0 and all(b.dice == 0 for b in game.bundle_options(state, 0))


def test_the_purchase_node_is_held_even_when_nobody_can_buy():
    after = GAME.apply(GAME.parse("20:0:5:111=1a3d1g 20:0:5:111=2a2d1g reroll"), (KEEP, KEEP))
    assert after.phase == BUY and GAME.joint_actions(after) == ((), ())
    assert GAME.apply(after, (None, None)).phase == ROLL


def test_purchases_are_paid_and_join_the_stockpile():
    state = GAME.parse("20:40:5:111 20:20:5:111 buy")
    after = GAME.apply(state, (Bundle(dice=1, attack=1, box=1), Bundle(dice=1, defense=1, gold=1)))
    assert after.phase == ROLL and after.box == 0
    assert after.bank == (40 - 42, 20 - 22) or after.bank == (40 - 3 - 9 - 30, 20 - 3 - 7 - 12)
    assert after.dice == (6, 6) and after.mults == ((2, 1, 1), (1, 2, 2))


def test_a_race_for_the_box_is_decided_by_chance():
    state = GAME.parse("20:30:5:111 20:33:5:111 buy")
    race = GAME.apply(state, (Bundle(box=1), Bundle(dice=1, box=1)))
    assert race.phase == RACE and GAME.current_player(race) == CHANCE
    assert GAME.format(race) == "20:30:5:111>B 20:33:5:111>1c+B race"
    outcomes = GAME.chance_outcomes(race)
    assert [(o, p) for o, p in outcomes] == [((0, 1), 0.5), ((1, 0), 0.5)]
    first = GAME.apply(race, (0, 1))
    assert first.box == 0 and first.bank == (0, 30) and first.dice == (5, 6)  # the loser keeps the Gold
    second = GAME.apply(race, (1, 0))
    assert second.box == 1 and second.bank == (30, 0)


def test_a_race_for_the_last_dice_serves_in_the_drawn_order():
    game = game_for(5)
    state = game.parse("20:9:6:111 20:9:7:111 20:0:5:111 20:0:5:111 20:0:5:111 buy")  # 2 dice left
    race = game.apply(state, (Bundle(dice=2), Bundle(dice=2), None, None, None))
    assert race.phase == RACE and game.contenders(race, race.orders) == (0, 1)
    after = game.apply(race, (1, 0))
    assert after.dice[:2] == (6, 9) and after.bank[:2] == (9, 3)


def test_the_split_rule_shares_contested_dice_and_withholds_a_contested_box():
    game = game_for(5, race="split")
    state = game.parse("20:40:6:111 20:40:6:111 20:0:5:111 20:0:5:111 20:0:5:111 buy")  # 2 dice left
    after = game.apply(state, (Bundle(dice=2, box=1), Bundle(dice=2, box=1), None, None, None))
    assert after.phase == ROLL and after.dice[:2] == (7, 7) and after.box == NO_OWNER
    assert after.bank[:2] == (37, 37)
    odd = game.parse("20:40:5:111 20:40:5:111 20:0:5:111 20:0:5:111 20:0:5:111 buy")  # 5 dice left
    shared = game.apply(odd, (Bundle(dice=4), Bundle(dice=4), None, None, None))
    assert shared.dice[:2] == (7, 7) and shared.cache() == 1  # the odd die stays in the Cache


def test_returns_always_add_up_to_one_and_a_game_ends():
    for seed in range(6):
        outcome = play_game(GAME, [POLICIES["random"], POLICIES["dice"]], random.Random(seed))
        assert math.fsum(outcome.returns) == pytest.approx(1) and not outcome.stopped


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_random_games_keep_every_invariant(players, seed):
    game = game_for(players)
    rng = random.Random(seed)
    state = game.new_game()
    for _ in range(3000):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        assert all(0 <= life <= 20 for life in state.life) and all(bank >= 0 for bank in state.bank)
        assert sum(state.dice) <= TOTAL_CORE_DICE and all(1 <= m <= MAX_MULTIPLIER for ms in state.mults for m in ms)
        assert len(state.alive()) >= 2
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            options = game.joint_actions(state)
            state = game.apply(state, tuple(rng.choice(list(o)) if o else None for o in options))
    assert game.is_terminal(state)
    assert math.fsum(game.returns(state)) == pytest.approx(1)


def test_a_joint_action_names_every_chooser():
    state = GAME.parse("20:0:5:111=2a2d1g 20:0:5:111=1a1d3g reroll")
    assert GAME.action_name(state, (Reroll(1), KEEP)) == "A roll 1a | B keep"
    assert GAME.action_name(GAME.new_game(), (Roll(2, 2, 1), Roll(0, 1, 4))) == "A 2a2d1g, B 0a1d4g"
    assert GAME.legal_actions(state) == [] and NOTHING == Bundle()
