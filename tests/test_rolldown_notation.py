"""RolldownBeta position notation: round trips, canonical form, the documented examples, and one
specific PositionError for every malformed or impossible position."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.game import PositionError
from solver.games.rolldown import Rolldown, RolldownState
from solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, HAND_SIZE, UNKNOWN
from solver.games.rolldown.notation import NOTATION_HELP, format_position, parse_position
from solver.games.rolldown.rules import (
    DECIDE,
    JOKER_ROLL,
    MODES,
    QUEEN_ROLL,
    QUEEN_SECOND,
    ROLL,
    ROUND_OVER,
)

GAME = Rolldown()
FULL = "d4:1,d6:2,d8:3,d10:4,d12:5,d20:6/d4:4,d6:6,d8:8,d10:10,d12:12,d20:20"
FULL_DECK = "AA2233445566778899TTJJQQKKX"
# every number of points a round can score: the sides of two dice
ROUND_POINTS = sorted({a + b for a in DIE_SIDES for b in DIE_SIDES})
DECK = [card for card, copies in DECK_COPIES.items() for _ in range(copies)]
PHASES = [DECIDE, ROLL, QUEEN_ROLL, QUEEN_SECOND, JOKER_ROLL, ROUND_OVER]


# ----- random legal states ------------------------------------------------------------------------------
@st.composite
def legal_states(draw):
    """Any position the notation describes: every phase and mode, hidden cards, discards."""
    mode = draw(st.sampled_from(MODES))
    phase = draw(st.sampled_from(PHASES))
    scores = [0, 0]
    finished = 0
    if mode != "single":
        history = draw(st.lists(st.tuples(st.integers(0, 1), st.sampled_from(ROUND_POINTS)),
                                max_size=8 if mode == "nine" else 12))
        for winner, points in history:  # finished rounds; First to 50 stops short of 50
            if mode == "first50" and scores[winner] + points >= 50:
                continue
            scores[winner] += points
            finished += 1
    mover = draw(st.integers(0, 1))
    first_turn = (False, False)
    pending = None
    round_winner, round_points = -1, 0
    if phase == ROUND_OVER:
        dice = ((0,) * 6, (0,) * 6)
        round_winner, round_points = draw(st.integers(0, 1)), draw(st.sampled_from(ROUND_POINTS))
        if mode != "single":
            scores[round_winner] += round_points
        starter = draw(st.integers(0, 1))
        mover = 1 - starter  # the next round's first player
    else:
        pairs = draw(st.integers(1, 6))
        rows = []
        for _ in (0, 1):
            slots = draw(st.permutations(range(6)))[:pairs]
            rows.append(tuple(
                draw(st.integers(1, DIE_SIDES[slot])) if slot in slots else 0 for slot in range(6)
            ))
        dice = tuple(rows)
        kind = draw(st.sampled_from(["none", "both", "mover"])) if pairs == 6 else "none"
        if kind == "both":
            first_turn, starter = (True, True), mover
        elif kind == "mover":
            first_turn = (mover == 0, mover == 1)
            starter = 1 - mover
        else:
            starter = draw(st.integers(0, 1))
        if phase in (ROLL, QUEEN_ROLL):
            side = draw(st.integers(0, 1))
            pending = (side, draw(st.sampled_from([s for s in range(6) if dice[side][s]])))
    hands, discards = [], []
    for _ in (0, 1):
        cards = draw(st.permutations(DECK))
        held = 0 if phase == ROUND_OVER else draw(st.integers(0, HAND_SIZE))
        hidden = draw(st.lists(st.booleans(), min_size=held, max_size=held))
        hand = [UNKNOWN if h else c for c, h in zip(cards[:held], hidden)]
        thrown = draw(st.integers(0, len(DECK) - held))
        hands.append(tuple(sorted(hand)))
        discards.append(tuple(sorted(cards[held:held + thrown])))
    return RolldownState(
        dice=dice, mover=mover, hands=tuple(hands), first_turn=first_turn, mode=mode,
        scores=tuple(scores), round=finished + 1, discards=tuple(discards), starter=starter,
        phase=phase, pending=pending, round_winner=round_winner, round_points=round_points,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_states())
def test_parse_of_format_is_the_state_and_format_is_canonical(state):
    text = GAME.format(state)
    assert GAME.parse(text) == state
    assert GAME.format(GAME.parse(text)) == text
    assert text == format_position(state) and parse_position(text) == state
    assert "  " not in text and text == text.strip()


def spelled_out(state):
    """All ten fields of ``state``'s position, defaults written out."""
    fields = GAME.format(state).split()
    defaults = ["-", "single", "0-0", "1", "-/-", "ab"[state.starter], "-"]
    return fields + defaults[len(fields) - 3:]


@settings(max_examples=150, deadline=None)
@given(legal_states(), st.data())
def test_spelling_out_default_fields_changes_nothing(state, data):
    fields = spelled_out(state)
    assert len(fields) == 10
    cut = data.draw(st.integers(len(GAME.format(state).split()), 10))
    assert GAME.parse(" ".join(fields[:cut])) == state


# ----- anything at all: a PositionError or a state that round-trips -------------------------------------
TOKENS = [
    "d4:1", "d6:6", "d8:9", "d20:20", "d7:1", "d12:0", "d10:3,d4:2", "-", "-/-", "/", "a", "b", "c",
    "ab", "ba", "aa", "QK/-", "KKK/?", "?/?", "X/X", "first50", "nine", "single", "0-0", "8-40", "9-0",
    "1", "9", "10", "0", "A/-", "won:a:24", "won:b:9", "roll:a.d4", "queen:b.d20", "q2", "joker", "x",
    "d6:2,d8:5/d4:3,d6:6", "d20:14/d8:8", "-/-", "AA2233/-", "TTT/-",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=12))
def test_any_token_string_parses_or_raises_a_position_error(tokens):
    check_parses_or_refuses(" ".join(tokens))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abdwonqrlejkxAKQJTX?-/:,.0123456789 \u0663\u00b2", max_size=40))
def test_any_text_parses_or_raises_a_position_error(text):
    check_parses_or_refuses(text)


@settings(max_examples=200, deadline=None)
@given(legal_states(), st.data())
def test_a_legal_position_with_one_field_replaced_parses_or_raises(state, data):
    fields = spelled_out(state)
    i = data.draw(st.integers(0, 9))
    fields[i] = data.draw(st.sampled_from(TOKENS))
    check_parses_or_refuses(" ".join(fields))


def check_parses_or_refuses(text):
    try:
        state = GAME.parse(text)
    except PositionError as error:
        message = str(error)
        assert message and "\n" not in message
        return
    assert GAME.parse(GAME.format(state)) == state


# ----- canonical form -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "written, canonical",
    [
        ("d8:5,d6:2/d6:6,d4:3 a KQ/-", "d6:2,d8:5/d4:3,d6:6 a QK/-"),
        ("d20:6,d12:5,d10:4,d8:3,d6:2,d4:1/d4:4,d6:6,d8:8,d10:10,d12:12,d20:20 a KQ/- ba", f"{FULL} a QK/- ab"),
        ("d6:2/d4:3 a -/- - single 0-0 1 -/- a -", "d6:2/d4:3 a -/-"),
        ("d6:2/d4:3  b   ?K/X? ", "d6:2/d4:3 b K?/X?"),
        ("d6:2/d4:3 b -/- - first50 0-8 2 QA/- a", "d6:2/d4:3 b -/- - first50 0-8 2 AQ/-"),
        ("d6:2/d4:3 b -/- - first50 0-8 2 -/- b", "d6:2/d4:3 b -/- - first50 0-8 2 -/- b"),
        ("d6:2/d4:3 a -/X - single 0-0 1 X/- a roll:b.d4", "d6:2/d4:3 a -/X - single 0-0 1 X/- a roll:b.d4"),
        (f"{FULL} b -/- b", f"{FULL} b -/- b"),  # starter a: the default with first-turn b, mover b
        (f"{FULL} b -/- b single 0-0 1 -/- a", f"{FULL} b -/- b"),
    ],
)
def test_canonical_form(written, canonical):
    assert GAME.format(GAME.parse(written)) == canonical


def test_parsed_fields():
    state = GAME.parse("d20:14/d8:8 b K?/- - nine 40-32 4 JJ/X a queen:a.d20")
    assert state.dice == ((0, 0, 0, 0, 0, 14), (0, 0, 8, 0, 0, 0))
    assert state.mover == 1 and state.hands == ((13, UNKNOWN), ())
    assert state.mode == "nine" and state.scores == (40, 32) and state.round == 4
    assert state.discards == ((11, 11), (14,)) and state.starter == 0
    assert state.phase == QUEEN_ROLL and state.pending == (0, 5)
    over = GAME.parse("-/- b -/- - nine 40-56 4 JJ/X a won:b:24")
    assert over.phase == ROUND_OVER and over.round_winner == 1 and over.round_points == 24


def test_default_starter():
    assert GAME.parse(f"{FULL} b -/- ab").starter == 1  # nobody has moved: the mover went first
    assert GAME.parse(f"{FULL} b -/- b").starter == 0  # A has moved, so A went first
    assert GAME.parse(f"{FULL} b -/-").starter == 0


# ----- the documented examples ------------------------------------------------------------------------------
def help_examples():
    examples = NOTATION_HELP.split("Examples:")[1]
    return [line.strip() for line in examples.splitlines() if re.match(r"  \S", line)]


def test_the_help_has_examples():
    assert len(help_examples()) == 3


@pytest.mark.parametrize("example", help_examples() + [
    Rolldown().example_position(),
    "d20:14/d8:8 b -/- - first50 44-38 7",  # the README's
    "d6:2,d8:5/d4:3,d6:6 a QK/-",
])
def test_documented_examples_parse_and_are_canonical(example):
    state = GAME.parse(example)
    assert GAME.format(state) == example
    assert GAME.parse(GAME.format(state)) == state


def test_the_round_start_example_reads_as_described():
    state = GAME.parse(help_examples()[1])
    assert state.mover == 1 and state.first_turn == (True, True) and state.starter == 1
    assert state.hands[1] == (UNKNOWN,) * 3


# ----- errors: one specific message each --------------------------------------------------------------------
BAD = [
    # dice
    ("d6:7/d4:3 a -/-", "cannot show 7"),
    ("d6:0/d4:3 a -/-", "cannot show 0"),
    ("d4:5/d4:3 a -/-", "cannot show 5"),
    ("d6:2/d20:21 a -/-", "cannot show 21"),
    ("d6:2,d8:5/d4:3 a -/-", "must be equal"),
    ("d6:2/- a -/-", "must be equal"),
    ("d6:2,d6:5/d4:3,d8:1 a -/-", "listed twice"),
    ("d7:2/d4:3 a -/-", "has no d7"),
    ("d6:2/d100:3 a -/-", "has no d100"),
    ("d6=2/d4:3 a -/-", "not of the form"),
    ("d6:2,/d4:3 a -/-", "not of the form"),
    ("d6:\u0663/d4:3 a -/-", "not of the form"),  # ASCII digits only
    ("d6:2 a -/-", "dice field must be"),
    ("d6:2/d4:3/d8:1 a -/-", "dice field must be"),
    ("-/- a -/-", "no dice in play"),
    ("d6:1234567890/d4:3 a -/-", "too long"),
    # cards
    ("d6:2/d4:3 a KKK/-", "3 x King"),
    ("d6:2/d4:3 a K/- - single 0-0 1 KK/-", "3 x King"),
    ("d6:2/d4:3 a -/XX", "2 x Joker"),
    ("d6:2/d4:3 a X/- - single 0-0 1 X/-", "a deck has 1 copy"),
    ("d6:2/d4:3 a -/T - single 0-0 1 -/TT", "B holds 3 x 10"),
    (f"d6:2/d4:3 a ???/- - single 0-0 1 {FULL_DECK[:-2]}/-", "more cards in hand and discards than a 27-card deck"),
    ("d6:2/d4:3 a QQKK/-", "hand has 4 cards"),
    ("d6:2/d4:3 a -/????", "hand has 4 cards"),
    ("d6:2/d4:3 a -/- - single 0-0 1 ?/-", "'?' is not allowed"),
    ("d6:2/d4:3 a Z/-", "'Z' in A's hands is not a card"),
    ("d6:2/d4:3 a 1/-", "is not a card"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/k", "'k' in B's discards is not a card"),
    ("d6:2/d4:3 a K -", "hands field must be"),
    ("d6:2/d4:3 a K/", "write - for no cards"),
    ("d6:2/d4:3 a -/- - single 0-0 1 /J", "write - for no cards"),
    # fields
    ("d6:2/d4:3", "at least 3 fields"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a - extra", "unknown field 'extra'"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a - extra more", "unknown field 'extra'"),
    ("d6:2/d4:3 c -/-", "mover must be 'a' or 'b'"),
    ("d6:2/d4:3 A -/-", "mover must be"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- c", "starter must be"),
    ("d6:2/d4:3 a -/- - double", "unknown mode 'double'"),
    ("d6:2/d4:3 a -/- - single 0:0", "scores must be"),
    ("d6:2/d4:3 a -/- - first50 10-x", "scores must be"),
    ("d6:2/d4:3 a -/- - first50 -8-0", "scores must be"),
    ("d6:2/d4:3 a -/- - single 8-0", "single round keeps no points"),
    ("d6:2/d4:3 a -/- - single 0-0 2", "single round is round 1"),
    ("d6:2/d4:3 a -/- - nine 0-0 0", "round must be a whole number"),
    ("d6:2/d4:3 a -/- - nine 0-0 x", "round must be a whole number"),
    ("d6:2/d4:3 a -/- - nine 0-0 \u00b2", "round must be a whole number"),
    ("d6:2/d4:3 a -/- - nine 120-120 10", "nine rounds has no round 10"),
    ("d6:2/d4:3 a -/- x", "first-turn must be"),
    ("d6:2/d4:3 a -/- aa", "first-turn must be"),
    # first turns
    (f"{FULL} a -/- b", "b has not moved yet, but a has"),
    (f"{FULL} b -/- a", "a has not moved yet, but b has"),
    ("d6:2/d4:3 a -/- ab", "dice have been captured"),
    ("d6:2/d4:3 a -/- a", "dice have been captured"),
    (f"{FULL} a -/- ab single 0-0 1 -/- b", "inconsistent with first-turn"),
    (f"{FULL} a -/- a single 0-0 1 -/- a", "inconsistent with first-turn"),
    # phases
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a roll:a.d8", "a.d8, which is not in play"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a queen:b.d20", "b.d20, which is not in play"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a roll:a.d7", "names a d7"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a roll:c.d6", "unknown phase"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a q3", "unknown phase"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a won:a:24", "write the dice as -/-"),
    ("-/- a K/- - single 0-0 1 -/- a won:a:24", "hands are on the discard piles"),
    ("-/- a -/- - single 0-0 1 -/- a won:a:9", "not 9"),
    ("-/- a -/- - single 0-0 1 -/- a won:a:34", "not 34"),
    ("-/- a -/- - single 0-0 1 -/- a won:a:6", "scores the sides of two dice"),
    ("-/- a -/- - single 0-0 1 -/- a won:a:24", "the mover is the next round's first player"),
    ("-/- a -/- - single 0-0 1 -/- a won:a:42", "scores the sides of two dice"),
    ("-/- a -/- - first50 10-0 2 -/- a won:a:24", "won 24 points this round but has only 10"),
    # scores that the rounds played cannot make
    ("d6:2/d4:3 a -/- - first50 50-0 3", "already won First to 50"),
    ("d6:2/d4:3 a -/- - first50 20-61 3", "already won First to 50"),
    ("-/- a -/- - first50 74-0 3 -/- a won:a:24", "before this round had already won"),
    ("-/- a -/- - first50 24-50 3 -/- a won:a:24", "before this round had already won"),
    ("d6:2/d4:3 a -/- - first50 9-0 2", "even number"),
    ("d6:2/d4:3 a -/- - nine 0-15 2", "B's score 15"),
    ("d6:2/d4:3 a -/- - first50 8-0 1", "cannot come from 0 finished rounds"),
    ("d6:2/d4:3 a -/- - nine 48-0 2", "cannot come from 1 finished round:"),
    ("d6:2/d4:3 a -/- - nine 34-0 2", "cannot come from 1 finished round:"),
    ("d6:2/d4:3 a -/- - first50 0-0 5", "cannot come from 4 finished rounds"),
    ("d6:2/d4:3 a -/- - first50 40-40 14", "cannot come from 13 finished rounds"),
    ("-/- a -/- - nine 24-0 3 -/- a won:a:24", "scores 0-0 before round 3"),
]


@pytest.mark.parametrize("position, phrase", BAD)
def test_bad_positions_raise_a_specific_position_error(position, phrase):
    with pytest.raises(PositionError, match=re.escape(phrase)):
        GAME.parse(position)


def test_position_error_is_a_value_error():
    with pytest.raises(ValueError):
        GAME.parse("nonsense")


@pytest.mark.parametrize(
    "position",
    [
        "d6:2/d4:3 a -/- - first50 48-48 13",  # 12 rounds of 8 points
        "d6:2/d4:3 a -/- - nine 320-0 9",  # 8 rounds of 40
        "d6:2/d4:3 a -/- - nine 8-8 3",
        "-/- b -/- - first50 48-88 13 -/- a won:b:40",
        f"-/- b -/- - first50 40-40 9 {FULL_DECK}/{FULL_DECK} a won:a:8",
        f"{FULL} a ???/??? ab first50",
    ],
)
def test_positions_at_the_edge_of_possible_parse(position):
    assert GAME.format(GAME.parse(position)) == position
