"""Dicegeddon on the game contract: its declared rule options read the one way, its hooks, the
winners of a finished game, and the audit's defects (issue 10, item 6), each refused in one line."""

from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.game import GameError, PositionError
from dicetree.solver.games import load_game
from dicetree.solver.games.dicegeddon import Dicegeddon, DicegeddonState
from dicetree.solver.games.dicegeddon.armies import DicegeddonStudy
from dicetree.solver.games.dicegeddon.state import OVER, SETUP, Attack
from dicetree.solver.rule_options import MAX_ECHO, TRUE_WORDS, FALSE_WORDS

GAME = Dicegeddon()
BOOLEANS = [o.name for o in Dicegeddon.rule_options if o.kind == "bool"]


# ----- rule options: the declarations are the constructor's rules --------------------------------------
def test_the_declared_defaults_are_the_constructors():
    declared = {o.name: o.parse(o.default) for o in Dicegeddon.rule_options if o.default is not None}
    built = GAME.options()
    assert built["dice"] == (4, 6, 8, 10, 12, 20) and declared.pop("dice") == "d4,d6,d8,d10,d12,d20"
    assert {name: built[name] for name in declared} == declared
    assert built["armies"] == ((4, 6, 10), (4, 6, 10))


@pytest.mark.parametrize("name", BOOLEANS)
def test_every_boolean_option_reads_the_same_words(name):
    for word in TRUE_WORDS:
        assert getattr(load_game("dicegeddon", **{name: word.upper()}), name) is True
        assert getattr(Dicegeddon(**{name: word}), name) is True  # the constructor reads them alike
    for word in FALSE_WORDS:
        assert getattr(load_game("dicegeddon", **{name: word}), name) is False
    for read in (lambda: load_game("dicegeddon", **{name: "maybe"}), lambda: Dicegeddon(**{name: "maybe"})):
        with pytest.raises(GameError, match=f"^rule option {name} must be true or false, not 'maybe'$"):
            read()


def test_a_bad_dice_option_names_the_dice_option():
    for value in ("abc", "d4,,d6", "d04", "d4;d6"):
        with pytest.raises(GameError) as error:
            load_game("dicegeddon", dice=value)
        assert str(error.value).startswith("rule option dice must be a comma-separated list of dice")
        assert "army" not in str(error.value)
    with pytest.raises(GameError, match="rule option dice needs dice of 2 to 9999 sides"):
        Dicegeddon(dice=(1, 6))


def test_an_army_size_too_small_says_what_is_wrong_with_army_size():
    with pytest.raises(GameError, match=r"^rule option army_size must be at least 4 .* not 3$"):
        load_game("dicegeddon", army_size="3")
    with pytest.raises(GameError, match="rule option army_size must be a whole number 2..1,000, not 'x'"):
        load_game("dicegeddon", army_size="x")
    # default armies always fit: d4,d6,d10 where it does, else the smallest die
    assert load_game("dicegeddon", army_size="4").armies == ((4,), (4,))
    assert load_game("dicegeddon", army_size="19").armies == ((4,), (4,))
    assert load_game("dicegeddon", dice="d4,d8").armies == ((4,), (4,))  # no d6 to build d4,d6,d10 from
    assert load_game("dicegeddon", army_size="8", dice="d6,d8").armies == ((6,), (6,))


def test_bad_armies_say_it_is_the_armies_option():
    with pytest.raises(GameError, match="^rule option armies must be two armies as A/B"):
        load_game("dicegeddon", armies="d4,d6")
    with pytest.raises(GameError, match="^rule option armies must be two armies as A/B.*: each army must be"):
        load_game("dicegeddon", armies="d4,x/d6")
    with pytest.raises(GameError, match="^rule option armies: the army d20,d6 has 26 sides"):
        load_game("dicegeddon", armies="d20,d6/d6")


def test_bad_options_on_the_command_line_are_one_line():
    for rule, message in (("dice=abc", "rule option dice must be"), ("army_size=3", "rule option army_size must be"),
                          ("chains=maybe", "rule option chains must be true or false"),
                          ("mulligan=perhaps", "rule option mulligan must be true or false")):
        result = CliRunner().invoke(main, ["best", "dicegeddon", "--example", "--depth", "1", "--rule", rule])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and message in lines[0], result.output
    accepted = CliRunner().invoke(main, ["best", "dicegeddon", "d4:3a/d4:3a a 20", "--depth", "1",
                                         "--rule", "mulligan=yes"])
    assert accepted.exit_code == 0, accepted.output


# ----- positions ---------------------------------------------------------------------------------------
def test_a_position_must_have_the_games_army_size():
    with pytest.raises(PositionError, match=re.escape("the position's army size 30 is not the game's (20): "
                                                      "write 20, or play with the rule option army_size=30")):
        GAME.parse("d4:3a/d6:6a a 30")
    big = Dicegeddon(army_size=30)
    assert big.format(big.parse("d4:3a/d6:6a a 30")) == "d4:3a/d6:6a a 30"
    with pytest.raises(PositionError, match="army size 20 is not the game's"):
        big.parse("d4:3a/d6:6a a 20")


@pytest.mark.parametrize("text, message", [
    ("d4:03a/d6:6a a 20", "A's die 1 is written 'd4:03a': the canonical form is d4:3a"),
    ("d04:3a/d6:6a a 20", "A's die 1 is written 'd04:3a': the canonical form is d4:3a"),
    ("d4:3a/d6:6a,d06:? a 20", "B's die 2 is written 'd06:?'"),
    ("d6:3a*,d4:3a*>01/d6:6a b 20", "A's die 2 is written 'd4:3a*>01': the canonical form is d4:3a*>1"),
    ("d6:3a*,d4:3a*>0/d6:6a b 20", "A's die 2 defends die 0: dice are numbered from 1"),
    ("d4:3a/d6:6a a 020", "army size '020' has a leading zero: write 20"),
    ("d4:3a/d6:6a a 20 attack:01>1", "phase 'attack:01>1' has a leading zero: write attack:1>1"),
    ("d4:3a/d6:6a a 20 defend:01", "phase 'defend:01' has a leading zero: write defend:1"),
])
def test_only_the_canonical_form_is_read(text, message):
    with pytest.raises(PositionError, match="^" + re.escape(message)):
        GAME.parse(text)


def test_the_player_not_on_move_cannot_show_used_and_unused_dice_together():
    # Interpretation 1: a turn uses every active die, and they become unused only when their
    # owner's next turn starts; before a player's first turn none is used.
    with pytest.raises(PositionError, match="^B is not on move but shows used and unused active dice"):
        GAME.parse("d4:3a/d6:6a*,d8:7a a 20")
    with pytest.raises(PositionError, match="^A is not on move but shows used and unused active dice"):
        GAME.parse("d4:3a*,d6:5a/d8:7a b 20 defend:1")
    for text in ("d4:3a/d6:6a*,d8:7a* a 20", "d4:3a/d6:6a,d8:7a a 20", "d4:3a/d6:6a*,d8:7r a 20",
                 "d4:3a*,d6:5a/d8:7a* a 20"):  # all used, none used (the first turn), reserve dice aside
        assert GAME.format(GAME.parse(text)) == text


def test_errors_do_not_echo_a_very_long_input():
    long_die = "d4:" + "3" * 5000 + "a"
    for text in (long_die + "/d6:6a a 20", "d4:3a/d6:6a a 20 " + "x" * 5000, "d4:3a/d6:6a " + "y" * 5000 + " 20",
                 "d4:3a/d6:6a a " + "9" * 5000, "x" * 5000, "d4:3a/d6:6a a 20 - " + "z" * 5000,
                 "d4:3a/" + "d6:6a" * 1000 + " a 20"):
        with pytest.raises(PositionError) as error:
            GAME.parse(text)
        assert len(str(error.value)) < 250, str(error.value)  # the input is cut to MAX_ECHO characters
    with pytest.raises(GameError) as error:
        load_game("dicegeddon", dice="q" * 5000)
    assert len(str(error.value)) < MAX_ECHO + 100 and str(error.value).endswith("…'")


# ----- the state and the hooks ---------------------------------------------------------------------------
def test_winners_of_a_finished_game():
    won, draw = GAME.parse("d6:5a/d6:3r - 20 won:a"), GAME.parse("d6:2r/d6:3r - 20 draw")
    assert isinstance(won, DicegeddonState) and won.phase == draw.phase == OVER
    assert (won.winners, GAME.returns(won)) == ((0,), (1.0, 0.0))
    assert (draw.winners, GAME.returns(draw)) == ((0, 1), (0.5, 0.5))
    assert GAME.parse("d6:5a/d6:6a a 20").winners == ()
    assert [GAME.evaluate(won, p) for p in (0, 1)] == [1.0, 0.0]
    assert [GAME.evaluate(draw, p) for p in (0, 1)] == [0.5, 0.5]


def test_hooks_names_progress_observation_new_game_and_study():
    assert [GAME.player_name(p) for p in (0, 1)] == ["A", "B"]  # as the notation names them
    state = GAME.parse("d4:3a,d6:5a,d10:7r/d6:6a a 20")
    progress = {GAME.action_name(state, a): GAME.is_progress(state, a) for a in GAME.legal_actions(state)}
    assert progress == {"A1>1": True, "R1>3": False, "D1": False, "A2>1": True, "R2>3": False, "D2": False}
    assert all(isinstance(a, Attack) == GAME.is_progress(state, a) for a in GAME.legal_actions(state))
    assert GAME.observe(state, 1) == state  # perfect information
    start = load_game("dicegeddon", armies="d4,d8/d6,d6", army_size="12").new_game(random.Random(5))
    assert start.phase == SETUP and [d.sides for side in start.dice for d in side] == [4, 8, 6, 6]
    study = GAME.study()
    assert isinstance(study, DicegeddonStudy) and study.game_class is Dicegeddon
    assert GAME.game_type.study and GAME.game_type.constant_sum == 1.0


def test_the_canonical_game_keeps_the_options():
    game = Dicegeddon(army_size=12, mulligan=True, chains=False, armies="d4,d8/d6,d6")
    merged = game.canonical()
    assert merged.options() == game.options() and type(merged).__name__ == "CanonicalDicegeddon"
