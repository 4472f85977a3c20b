"""RolldownBeta position notation: round trips, canonical form, the documented examples, and one
specific PositionError for every malformed or impossible position."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicetree.solver.game import PositionError
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, HAND_SIZE, JOKER, KING, QUEEN, UNKNOWN
from dicetree.solver.games.rolldown.notation import NOTATION_HELP, cards_drawn, format_position, parse_position
from dicetree.solver.games.rolldown.state import (
    DECIDE,
    JOKER_ROLL,
    MODES,
    NOBODY,
    QUEEN_ROLL,
    QUEEN_SECOND,
    ROLL,
    ROUND_OVER,
)

GAME = Rolldown()
FULL = "d4:1,d6:2,d8:3,d10:4,d12:5,d20:6/d4:4,d6:6,d8:8,d10:10,d12:12,d20:20"
EXAMPLE_DICE = "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3"
FULL_DECK = "AA2233445566778899TTJJQQKKX"
# every number of points a round can score: the sides of two dice
ROUND_POINTS = sorted({a + b for a in DIE_SIDES for b in DIE_SIDES})
DECK = [card for card, copies in DECK_COPIES.items() for _ in range(copies)]
PHASES = [DECIDE, ROLL, QUEEN_ROLL, QUEEN_SECOND, JOKER_ROLL, ROUND_OVER]


# ----- random legal states ------------------------------------------------------------------------------
@st.composite
def legal_states(draw):
    """Any position the notation describes: every phase and mode, hidden cards (never the viewer's
    own: the mover's, or the other player's in an observation), discards as many as were dealt."""
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
    seen_by = draw(st.sampled_from([NOBODY, 1 - mover]))
    viewer = mover if seen_by == NOBODY else seen_by
    dealt = cards_drawn(finished + 1)
    played = {QUEEN_ROLL: QUEEN, QUEEN_SECOND: QUEEN, JOKER_ROLL: JOKER}.get(phase)
    hands, discards = [], []
    for p in (0, 1):
        cards = list(draw(st.permutations(DECK)))
        must = [played] if played is not None and p == mover else []  # the card being played
        for card in must:
            cards.remove(card)
        if phase == ROUND_OVER:
            held = 0
        elif first_turn[p]:  # the cards dealt, less the one the mover may be playing
            held = HAND_SIZE if p != mover or phase == DECIDE else HAND_SIZE - 1 if must else draw(
                st.sampled_from([HAND_SIZE, HAND_SIZE - 1]))
        else:
            held = draw(st.integers(0, min(HAND_SIZE, dealt - len(must))))
        hidden = [False] * held if p == viewer else draw(st.lists(st.booleans(), min_size=held, max_size=held))
        hand = [UNKNOWN if h else c for c, h in zip(cards[:held], hidden)]
        thrown = draw(st.integers(0, dealt - held - len(must)))
        hands.append(tuple(sorted(hand)))
        discards.append(tuple(sorted(must + cards[held:held + thrown])))
    return RolldownState(
        dice=dice, mover=mover, hands=tuple(hands), first_turn=first_turn, mode=mode,
        scores=tuple(scores), round=finished + 1, discards=tuple(discards), starter=starter,
        phase=phase, pending=pending, round_winner=round_winner, round_points=round_points, seen_by=seen_by,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_states())
def test_parse_of_format_is_the_state_and_format_is_canonical(state):
    text = GAME.format(state)
    assert GAME.parse(text) == state
    assert GAME.format(GAME.parse(text)) == text
    assert text == format_position(state, GAME) and parse_position(text, GAME) == state
    assert "  " not in text and text == text.strip()


def spelled_out(state):
    """All ten fields of ``state``'s position, defaults written out (and its seen: field, if any, last)."""
    fields = GAME.format(state).split()
    seen = [fields.pop()] if fields[-1].startswith("seen:") else []
    defaults = ["-", "single", "0-0", "1", "-/-", "ab"[state.starter], "-"]
    return fields + defaults[len(fields) - 3:] + seen


@settings(max_examples=150, deadline=None)
@given(legal_states(), st.data())
def test_spelling_out_default_fields_changes_nothing(state, data):
    fields = spelled_out(state)
    seen = fields[10:]
    assert len(fields) == 10 + len(seen)
    cut = data.draw(st.integers(len(GAME.format(state).split()) - len(seen), 10))
    assert GAME.parse(" ".join(fields[:cut] + seen)) == state


# ----- anything at all: a PositionError or a state that round-trips -------------------------------------
TOKENS = [
    "d4:1", "d6:6", "d8:9", "d20:20", "d7:1", "d12:0", "d10:3,d4:2", "-", "-/-", "/", "a", "b", "c",
    "ab", "ba", "aa", "QK/-", "KKK/?", "?/?", "X/X", "first50", "nine", "single", "0-0", "8-40", "9-0",
    "1", "9", "10", "0", "A/-", "won:a:24", "won:b:9", "roll:a.d4", "queen:b.d20", "q2", "joker", "x",
    "d6:2,d8:5/d4:3,d6:6", "d20:14/d8:8", "-/-", "AA2233/-", "TTT/-", "seen:a", "seen:b", "d6:02", "08-0",
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
        ("d20:6,d12:5,d10:4,d8:3,d6:2,d4:1/d4:4,d6:6,d8:8,d10:10,d12:12,d20:20 a KQ5/?7? ba", f"{FULL} a 5QK/7?? ab"),
        ("d6:2/d4:3 a -/- - single 0-0 1 -/- a -", "d6:2/d4:3 a -/-"),
        ("d6:2/d4:3  b   ?K/X ", "d6:2/d4:3 b K?/X"),
        ("d6:2/d4:3 a  ?K/X   seen:b ", "d6:2/d4:3 a K?/X seen:b"),
        ("d6:2/d4:3 b -/- - first50 0-8 2 QA/- a", "d6:2/d4:3 b -/- - first50 0-8 2 AQ/-"),
        ("d6:2/d4:3 b -/- - first50 0-8 2 -/- b", "d6:2/d4:3 b -/- - first50 0-8 2 -/- b"),
        ("d6:2/d4:3 a -/X - single 0-0 1 X/- a roll:b.d4", "d6:2/d4:3 a -/X - single 0-0 1 X/- a roll:b.d4"),
        (f"{FULL} b -/567 b", f"{FULL} b -/567 b"),  # starter a: the default with first-turn b, mover b
        (f"{FULL} b -/567 b single 0-0 1 -/- a", f"{FULL} b -/567 b"),
    ],
)
def test_canonical_form(written, canonical):
    assert GAME.format(GAME.parse(written)) == canonical


def test_parsed_fields():
    state = GAME.parse("d20:14/d8:8 b K?/- - nine 40-32 4 JJ/QX a queen:a.d20")
    assert state.dice == ((0, 0, 0, 0, 0, 14), (0, 0, 8, 0, 0, 0))
    assert state.mover == 1 and state.hands == ((13, UNKNOWN), ())
    assert state.mode == "nine" and state.scores == (40, 32) and state.round == 4
    assert state.discards == ((11, 11), (12, 14)) and state.starter == 0 and state.seen_by == NOBODY
    assert state.phase == QUEEN_ROLL and state.pending == (0, 5)
    over = GAME.parse("-/- b -/- - nine 40-56 4 JJ/X a won:b:24")
    assert over.phase == ROUND_OVER and over.round_winner == 1 and over.round_points == 24


def test_default_starter():
    assert GAME.parse(f"{FULL} b ???/567 ab").starter == 1  # nobody has moved: the mover went first
    assert GAME.parse(f"{FULL} b ??/567 b").starter == 0  # A has moved, so A went first
    assert GAME.parse(f"{FULL} b -/-").starter == 0


# ----- the documented examples ------------------------------------------------------------------------------
def help_examples():
    examples = NOTATION_HELP.split("Examples:")[1]
    return [line.strip() for line in examples.splitlines() if re.match(r"  \S", line)]


def test_the_help_has_examples():
    assert len(help_examples()) == 3


@pytest.mark.parametrize("example", help_examples() + [
    Rolldown().example_position(),
    "d20:14/d8:8 b -/- - first50 44-38 7",  # the docs' (docs/usage.md)
    "d6:2,d8:5/d4:3,d6:6 a QK/-",
])
def test_documented_examples_parse_and_are_canonical(example):
    state = GAME.parse(example)
    assert GAME.format(state) == example
    assert GAME.parse(GAME.format(state)) == state


def test_the_round_start_example_reads_as_described():
    # "B moves first with 5, Q and K and does not know A's hand": hands are written A/B
    state = GAME.parse(help_examples()[1])
    assert state.mover == 1 and state.first_turn == (True, True) and state.starter == 1
    assert state.hands == ((UNKNOWN,) * 3, (5, QUEEN, KING))
    assert "b ???/5QK ab" in NOTATION_HELP and "5QK/???" not in NOTATION_HELP


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
    ("d6:2/d4:3 c -/-", "mover must be A or B (a or b, P1 or P2 also read), got 'c'"),
    ("d6:2/d4:3 C -/-", "mover must be A or B"),
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
    # the audit of issue 10: numbers in their one spelling
    ("d6:02/d4:3 a -/-", "'02' in 'd6:02' has a leading zero: write 2"),
    ("d06:2/d4:3 a -/-", "'06' in 'd06:2' has a leading zero: write 6"),
    ("d6:2/d4:3 a -/- - first50 08-0 2", "'08' in '08-0' has a leading zero: write 8"),
    ("d6:2/d4:3 a -/- - first50 00-8 2", "'00' in '00-8' has a leading zero: write 0"),
    ("d6:2/d4:3 a -/- - nine 8-0 02", "'02' in '02' has a leading zero"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a roll:a.d06", "'06' in 'roll:a.d06' has a leading zero"),
    ("-/- b -/- - nine 0-24 2 -/- a won:b:024", "'024' in 'won:b:024' has a leading zero"),
    # ... the mover knows their own cards (hands are written A/B)
    (f"{EXAMPLE_DICE} b 5QK/??? ab", "B is to move but B's own hand is unknown in '5QK/???' (hands are written A/B)"),
    ("d6:2/d4:3 a K?/-", "A is to move but A's own hand is unknown"),
    (f"{FULL} a ???/??? ab first50", "A is to move but A's own hand is unknown"),
    ("d6:2/d4:3 a K/- seen:a", "seen:a names the mover"),
    ("d6:2/d4:3 a ?/? seen:b", "B's own hand is unknown: a player knows their own cards"),
    ("d6:2/d4:3 a ?/- seen:c", "seen must be A or B"),
    ("d6:2/d4:3 seen:b a ?/-", "'seen:b' goes last"),
    # ... a round start deals 3 cards a hand, and a first turn plays at most one of them
    ("d4:1,d6:1,d8:1,d10:1,d12:1,d20:1/d4:1,d6:1,d8:1,d10:1,d12:1,d20:1 a -/- ab",
     "A has not finished a first turn this round (first-turn ab), so holds 3 cards of the 3 dealt, not 0"),
    (f"{FULL} a 5QK/?? ab", "B has not finished a first turn this round (first-turn ab), so holds 3 cards"),
    (f"{FULL} b ???/5Q b", "B has not finished a first turn this round (first-turn b), so holds 3 cards"),
    (f"{FULL} a QK2/234 ab nine 8-0 2 Q/- a q2", "A has not finished a first turn this round (first-turn ab), so "
     "holds 2 cards of the 3 dealt, not 3"),
    (f"{FULL} a K/234 ab nine 8-0 2 Q/- a roll:a.d4", "holds 3 or 2 cards of the 3 dealt, not 1"),
    # ... no more cards than the rounds so far have dealt
    (f"d6:2/d4:3 a -/- - single 0-0 1 {FULL_DECK}/-", "A has 27 cards in hand and discards, but by round 1 only 3 "
     "have been dealt (3 a round)"),
    ("d6:2/d4:3 a K/J - single 0-0 1 -/5QK", "B has 4 cards in hand and discards, but by round 1 only 3"),
    ("d6:2/d4:3 a -/- - nine 8-0 2 AA2233K/-", "by round 2 only 6 have been dealt"),
    ("d6:2/d4:3 a -/- - first50 40-40 10 AA22/-", "by round 10 only 3 have been dealt since the reshuffle"),
    # ... a Queen or the Joker in play lies on the mover's discard pile
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a q2", "phase q2 follows a Queen played by A, but A's discards hold none"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/Q a q2", "phase q2 follows a Queen played by A"),
    ("d6:2/d4:3 a -/- - single 0-0 1 -/- a queen:a.d6", "phase queen follows a Queen played by A"),
    ("d6:2/d4:3 b -/- - single 0-0 1 X/- a joker", "phase joker follows a Joker played by B, but B's discards hold none"),
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
        f"{FULL} a 5QK/??? ab first50",
        f"{FULL} b ???/5QK ab first50",
        f"{FULL} a ???/5QK ab first50 seen:b",  # what B sees while A starts
        "d6:2/d4:3 a ?/- - single 0-0 1 QK/- a q2 seen:b",  # round 1: the 3 cards dealt, 2 played
        "d6:2/d4:3 a -/- - nine 8-0 2 AA2233/-",  # round 2: 6 cards dealt
        "d6:2/d4:3 a -/- - first50 40-40 10 AA2/-",  # reshuffled in round 10: 3 dealt since
        f"{FULL} a 5QK/??? ab nine 8-0 2 -/- a roll:a.d4",  # a reroll on A's first turn keeps 3 cards
        f"{FULL} a 5K/??? ab nine 8-0 2 Q/- a roll:a.d4",  # ... a Queen's second reroll leaves 2
    ],
)
def test_positions_at_the_edge_of_possible_parse(position):
    assert GAME.format(GAME.parse(position)) == position


@pytest.mark.parametrize(
    "position",
    [
        "x" * 5000,
        "d6:" + "9" * 5000 + "/d4:3 a -/-",
        "d6:2/d4:3 a -/- - " + "q" * 5000,
        "d6:2/d4:3 " + "c" * 5000 + " -/-",
        "d6:2/d4:3 a -/- - single 0-0 1 -/- a " + "roll:a.d6" * 500,
        "d6:2/d4:3 a -/- " + " a" * 5000,
        "d6:2/d4:3 a -/- seen:" + "b" * 5000,
    ],
)
def test_an_error_quotes_a_long_input_cut_short(position):
    with pytest.raises(PositionError) as error:
        GAME.parse(position)
    assert len(str(error.value)) < 300
