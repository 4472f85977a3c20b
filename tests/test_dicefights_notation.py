"""Dice Fights position notation: round trips (property tests), the documented examples, the
stated assumption, and one specific PositionError for every malformed or impossible position."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.game import CHANCE, TERMINAL, PositionError
from dicetree.solver.games.dicefights import DiceFights, DiceFightsState
from dicetree.solver.games.dicefights.state import BUY, NO_OWNER, ROLL, TOTAL_CORE_DICE

GAMES = {players: DiceFights(players=players) for players in range(2, 7)}


def playout_state(players: int, seed: int, steps: int) -> DiceFightsState:
    """The position after ``steps`` random steps of a random game (any phase, finished ones too)."""
    game, rng = GAMES[players], random.Random(seed)
    state = game.new_game()
    for _ in range(steps):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, tuple(rng.choice(list(o)) if o else None for o in game.joint_actions(state)))
    return state


@settings(max_examples=250, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**9), st.integers(0, 400))
def test_every_reachable_position_round_trips(players, seed, steps):
    game = GAMES[players]
    state = playout_state(players, seed, steps)
    text = game.format(state)
    assert game.parse(text) == state
    assert game.format(game.parse(text)) == text


@st.composite
def shop_states(draw):
    """Round starts and purchase nodes with any Banks, multipliers, Stockpiles and Box owner."""
    players = draw(st.integers(2, 6))
    extra = draw(st.lists(st.integers(0, 6), min_size=players, max_size=players))
    while sum(extra) > TOTAL_CORE_DICE - 5 * players:
        extra[extra.index(max(extra))] -= 1
    life = draw(st.lists(st.integers(0, 20), min_size=players, max_size=players))
    if sum(1 for x in life if x) < 2:
        life[:2] = [1, 1]
    return DiceFightsState(
        life=tuple(life),
        bank=tuple(draw(st.lists(st.integers(0, 10**6), min_size=players, max_size=players))),
        dice=tuple(5 + e for e in extra),
        mults=tuple(draw(st.lists(st.tuples(*[st.integers(1, 4)] * 3), min_size=players, max_size=players))),
        box=draw(st.integers(NO_OWNER, players - 1)),
        phase=draw(st.sampled_from([ROLL, BUY])),
    )


@settings(max_examples=200, deadline=None)
@given(shop_states())
def test_any_bank_multiplier_and_box_owner_round_trips(state):
    game = GAMES[state.players]
    assert game.parse(game.format(state)) == state


def test_the_phase_defaults_from_the_rolls_and_is_always_written():
    game = GAMES[2]
    assert game.format(game.parse("20:0:5:111 20:0:5:111")) == "20:0:5:111 20:0:5:111 roll"
    assert game.parse("20:0:5:111=2a2d1g 20:0:5:111=1a1d3g").phase == game.parse(
        "20:0:5:111=2a2d1g 20:0:5:111=1a1d3g reroll").phase


def test_the_documented_examples_parse():
    help_text = GAMES[2].notation_help()
    examples = re.findall(r"^  (\S+:\S+(?: \S+)+)$", help_text.split("Examples:")[1], flags=re.M)
    assert len(examples) == 4
    for example in examples:
        players = len(example.split()) - 1
        game = GAMES[players]
        assert game.format(game.parse(example)) == example


def test_the_face_layout_is_called_an_assumption():
    text = GAMES[2].notation_help()
    assert "ASSUMPTION" in text and "2 Swords, 2 Shields, 2 Gold" in text


@pytest.mark.parametrize(
    "position, phrase",
    [
        ("20:0:5:111", "one field per player"),
        ("20:0:5:111 20:0:5:111 20:0:5:111 roll", "set up for 2"),
        ("20:0:5 20:0:5:111 roll", "is not <life>:<bank>:<dice>"),
        ("20:0:5:11 20:0:5:111 roll", "three digits 1-4"),
        ("20:0:5:151 20:0:5:111 roll", "three digits 1-4"),
        ("20:0:1234567890:111 20:0:5:111 roll", "is not <life>"),
        ("21:0:5:111 20:0:5:111 roll", "Life is 21"),
        ("-5:0:5:111 20:0:5:111 roll", "Life is -5"),
        ("20:0:4:111 20:0:5:111 roll", "never shrinks"),
        ("0:0:5:111 20:0:5:111 roll", "fewer than two players"),
        ("20:0:5+:111 20:0:5+:111 roll", "both own the Game Box"),
        ("20:0:20:111 20:0:11:111 roll", "31 Core Dice"),
        ("20:0:5:111 20:0:5:111 fight", "unknown phase 'fight'"),
        ("20:0:5:111=2a2d2g 20:0:5:111=1a1d3g reroll", "accounts for 6 Core Dice"),
        ("20:0:5:111=2a2d1g 20:0:5:111 reroll", "shows no roll"),
        ("20:0:5:111=2a2d1g 20:0:5:111=2a2d1g roll", "shows a roll, but the phase is roll"),
        ("20:0:5:111=x 20:0:5:111=2a2d1g reroll", "is not <n>a<n>d<n>g"),
        ("20:0:5+:111=2a2d1g 20:0:5:111=2a2d1g reroll", "lacks the Box symbol"),
        ("20:0:5:111=2a2d1g/a 20:0:5:111=2a2d1g reroll", "shows a Box symbol"),
        ("20:0:5+:111=2a2d1g/? 20:0:5:111=2a2d1g reroll", "only in rerolling can the Box wait"),
        ("20:0:5:111=2a2d0g?1 20:0:5:111=2a2d1g reroll", "only in rerolling"),
        ("20:0:5:111=2a2d1g 20:0:5:111=2a2d1g rerolling", "no dice wait"),
        ("20:0:5:111=2a2d1g 20:0:5:111=2a2d1g target", "three or more players"),
        ("20:0:5:111>- 20:0:5:111 buy", "only in phase race"),
        ("20:30:5:111>B 20:0:5:111>- race", "do not clash"),
        ("20:3:5:111>B 20:30:5:111>B race", "cannot ask for B"),
        ("20:30:5:111>Q 20:30:5:111>B race", "is not - or items"),
        ("20:30:5:111>B 20:30:5:111 race", "shows no purchase"),
        ("20:0:5:111 -2:0:5:111 over:2", "A is the last one standing"),
        ("20:0:5:111 20:0:5:111 over:1", "still have Life"),
        ("-1:0:5:111 -3:0:5:111 over:12", "winners' Life must be equal"),
        ("-1:0:5:111 -1:0:5:111 over:21", "in order"),
        ("-1:0:5:111 -1:0:5:111 over:3", "beyond B"),
    ],
)
def test_bad_positions_get_a_specific_error(position, phrase):
    with pytest.raises(PositionError, match=re.escape(phrase)):
        GAMES[2].parse(position)


def test_a_target_node_needs_a_real_choice():
    with pytest.raises(PositionError, match="nobody has two opponents"):
        GAMES[3].parse("20:0:5:111=1a2d2g 20:0:5:111=1a2d2g 20:0:5:111=1a2d2g target")


def test_a_race_needs_the_chance_rule():
    with pytest.raises(PositionError, match="race rule 'chance'"):
        DiceFights(race="split").parse("20:30:5:111>B 20:30:5:111>B race")


# ----- the audit of issue 10 -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players, position, phrase",
    [
        # A at 0 and B at -2 fell together: A, the less dead, won.
        (2, "0:0:5:111 -2:0:5:111 over:2", "A (Life 0) fell with B in the last round"),
        (2, "0:0:5:111 -2:0:5:111 over:2", "less dead than B (Life -2): when everyone left falls together the "
                                           "least dead win; write over:1"),
        # Equally dead: a shared win.
        (2, "0:0:5:111 0:0:5:111 over:1", "is as dead as A (Life 0)"),
        (2, "0:0:5:111 0:0:5:111 over:1", "write over:12"),
        (2, "0:0:5:111 0:0:5:111 over:2", "write over:12"),
        (3, "-2:0:5:111 -1:0:5:111 -3:0:5:111 over:1", "B (Life -1) is less dead than A (Life -2)"),
        (3, "-2:0:5:111 -2:0:5:111 -3:0:5:111 over:1", "B (Life -2) is as dead as A (Life -2)"),
        # Players at 0 out before cannot all be: someone fell with the winner.
        (3, "0:0:5:111 0:0:5:111 -1:0:5:111 over:3", "at least one of A and B (Life 0) fell with C"),
        (3, "0:0:5:111 0:0:5:111 0:0:5:111 over:1", "e.g. over:123"),
        (3, "0:0:5:111 3:0:5:111 -1:0:5:111 over:3", "B is the last one standing and so the only winner; write over:2"),
    ],
)
def test_the_winners_must_be_the_ones_the_life_values_make(players, position, phrase):
    with pytest.raises(PositionError, match=re.escape(phrase)):
        GAMES[players].parse(position)


@pytest.mark.parametrize(
    "players, position",
    [
        (2, "0:0:5:111 -2:0:5:111 over:1"),
        (2, "0:0:5:111 0:0:5:111 over:12"),
        (2, "-3:0:5:111 20:0:5:111 over:2"),
        (3, "0:0:5:111 0:0:5:111 -3:0:5:111 over:1"),  # B was out before; A and C fell together
        (3, "-1:0:5:111 -1:0:5:111 0:0:5:111 over:12"),  # C was out before
        (3, "-1:0:5:111 -1:0:5:111 0:0:5:111 over:3"),  # or fell with them, the least dead
    ],
)
def test_finished_games_the_life_values_allow_are_accepted(players, position):
    assert GAMES[players].format(GAMES[players].parse(position)) == position


@pytest.mark.parametrize("players, seed", [(p, s) for p in range(2, 7) for s in range(4)])
def test_every_finished_game_is_accepted_with_its_winners(players, seed):
    """The refusals above never refuse a game's real end: play random games to the end."""
    state = playout_state(players, seed, 100_000)
    assert GAMES[players].current_player(state) == TERMINAL
    assert GAMES[players].parse(GAMES[players].format(state)) == state


def test_a_suggested_winner_list_is_always_accepted():
    game = GAMES[3]
    for lives in itertools.product((0, -1, -2), repeat=3):
        fields = " ".join(f"{life}:0:5:111" for life in lives)
        for winners in ("1", "2", "3", "12", "13", "23", "123"):
            try:
                game.parse(f"{fields} over:{winners}")
            except PositionError as error:
                suggested = re.search(r"over:([0-9]+)$", str(error))
                assert suggested, str(error)
                game.parse(f"{fields} over:{suggested.group(1)}")


@pytest.mark.parametrize(
    "position, phrase",
    [
        ("20:0:5:111 20:0:5:111 roll extra", "'extra' follows the phase 'roll': a position is one field per player, "
                                             "then the phase, and nothing after it"),
        ("20:0:5:111 20:0:5:111 roll 20:0:5:111", "'20:0:5:111' follows the phase 'roll'"),
        ("20:0:5:111 20:0:5:111 buy buy", "'buy' follows the phase 'buy'"),
        ("20:0:5:111 20:0:5:111 fight extra", "unknown phase 'fight'"),
    ],
)
def test_a_field_after_the_phase_is_named_as_such(position, phrase):
    with pytest.raises(PositionError, match=re.escape(phrase)) as error:
        GAMES[2].parse(position)
    assert "player" not in str(error.value).split(":")[0]  # not read as a count of players


@pytest.mark.parametrize(
    "position, phrase",
    [
        ("20:0:05:111 20:0:5:111 roll", "A's field '20:0:05:111' writes 05 for 5: numbers are written without "
                                        "leading zeros"),
        ("020:0:5:111 20:0:5:111 roll", "writes 020 for 20"),
        ("20:00:5:111 20:0:5:111 roll", "writes 00 for 0"),
        ("20:0:5:111 -00:0:5:111 over:1", "writes -00 for 0"),
        ("20:0:5:111 -0:0:5:111 over:1", "writes -0 for 0"),
        ("20:0:5:111=02a2d1g 20:0:5:111=2a2d1g reroll", "A's roll '02a2d1g' writes 02 for 2"),
        ("20:0:5:111=2a2d0g?01 20:0:5:111=2a2d1g rerolling", "writes 01 for 1"),
        ("20:30:5:111>03c 20:30:5:111>B race", "A's purchase '03c' writes 03 for 3"),
    ],
)
def test_only_the_canonical_form_is_accepted(position, phrase):
    with pytest.raises(PositionError, match=re.escape(phrase)):
        GAMES[2].parse(position)


@pytest.mark.parametrize(
    "position",
    [
        "20:0:5:111 " * 500 + "roll",
        "20:0:5:111 20:0:5:111 " + "x" * 5000,
        "20:0:5:111 " + "9" * 5000 + " roll",
        "20:0:5:111=" + "1a" * 3000 + " 20:0:5:111 reroll",
        "20:30:5:111>" + "a+" * 3000 + "B 20:30:5:111>B race",
        "20:0:5:111 20:0:5:111 roll " + "y" * 5000,
    ],
)
def test_an_error_does_not_echo_a_very_long_input(position):
    with pytest.raises(PositionError) as error:
        GAMES[2].parse(position)
    assert len(str(error.value)) < 300
