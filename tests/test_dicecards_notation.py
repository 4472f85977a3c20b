"""Dice Cards notation: examples, a round trip over random positions, and one specific line per bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.game import PositionError
from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.rules import rolls_recorded, tickets_given
from dicetree.solver.games.dicecards.state import HAND, OVER, RECORD, ROLL, DiceCardsState

GAME = DiceCards()
CODES = [card.code for card in GAME.library.cards]


@st.composite
def positions(draw) -> DiceCardsState:
    """A random legal position: some cards, each walked a few random records from empty."""
    codes = draw(st.lists(st.sampled_from(CODES), min_size=1, max_size=HAND, unique=True))
    marks = []
    for code in codes:
        card = GAME.library[code]
        state = card.start()
        for _ in range(draw(st.integers(0, 8))):
            slots = card.slots(state)
            if not slots:
                break
            state = slots[draw(st.integers(0, len(slots) - 1))].after
        marks.append(state)
    cards = [GAME.library[code] for code in codes]
    marks_tuple = tuple(marks)
    tickets = draw(st.integers(0, tickets_given(cards, marks_tuple)))
    done = draw(st.integers(min(rolls_recorded(cards, marks_tuple), GAME.rolls), GAME.rolls))
    if done == GAME.rolls:
        return DiceCardsState(tuple(codes), marks_tuple, tickets, done, OVER, ())
    if draw(st.booleans()):
        return DiceCardsState(tuple(codes), marks_tuple, tickets, done, ROLL, ())
    roll = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return DiceCardsState(tuple(codes), marks_tuple, tickets, done, RECORD, roll)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_positions_round_trip(state):
    text = GAME.format(state)
    assert GAME.parse(text) == state
    assert GAME.format(GAME.parse(text)) == text


@pytest.mark.parametrize("text", [
    "SOL=B6,R5 SUD=16 BB=9,7 BG=- HOP=1,2 DBL=- t0 8/50 B4R2",
    "SOL=- SUD=- BB=- HOP=- DBL=- YY=- t0 0/50 roll",
    "RP=1:9/2:9/1:4/- PR=102000 t0 9/50 B1R1",
    "BB=4,9,6,11,7,3,8,5,10 t3 50/50 end",
])
def test_documented_positions_are_canonical(text):
    assert GAME.format(GAME.parse(text)) == text


def test_the_help_documents_the_notation_and_lists_the_cards():
    text = GAME.notation_help()
    assert "t<tickets>" in text and "B<b>R<r>" in text and GAME.example_position() in text
    assert all(f"{code} " in text for code in CODES)
    examples = text.split("Examples:")[1].splitlines()
    shown = [line.strip() for line in examples if line.startswith("  ") and not line.startswith("   ")]
    assert len(shown) == 4
    for line in shown:
        game = DiceCards(players=line.count("|") + 1)
        assert game.format(game.parse(line)) == line


def test_marks_in_another_order_are_read_and_written_in_the_card_order():
    assert GAME.format(GAME.parse("SOL=R5,B6 t0 2/50 roll")) == "SOL=B6,R5 t0 2/50 roll"


@pytest.mark.parametrize("text, message", [
    ("t0 0/50 roll", "a Dice Cards position is"),
    ("SOL t0 0/50 roll", "'SOL' is not a card: write CODE=marks"),
    ("XYZ=- t0 0/50 roll", "unknown card 'XYZ'"),
    ("SOL=- SOL=- t0 0/50 roll", "card SOL appears twice"),
    ("SOL=- SUD=- BB=- BG=- HOP=- DBL=- YY=- t0 0/50 roll", "7 cards: a player plays at most 6"),
    ("SOL=- x0 0/50 roll", "'x0' is not the tickets field"),
    ("SOL=- t01 0/50 roll", "'t01' is not the tickets field"),
    ("SOL=- t1 0/50 roll", "1 unused tickets, but the cards have given only 0"),
    ("SOL=- t0 0-50 roll", "'0-50' is not the rolls field"),
    ("SOL=- t0 0/40 roll", "a game of 40 rolls, this game has 50"),
    ("SOL=- t0 51/50 end", "51 rolls done of 50"),
    ("SOL=B6,R5 t0 1/50 roll", "the cards hold 2 records after only 1 rolls"),
    ("SOL=- t0 49/50 end", "'end' after 49 of 50 rolls"),
    ("SOL=- t0 50/50 roll", "the next field is 'end'"),
    ("SOL=- t0 0/50 B7R1", "a die shows 1..6"),
    ("SOL=- t0 0/50 6:3", "'6:3' is not what comes next"),
    ("SOL=B7 t0 1/50 roll", "names no cell of the card"),
    ("SOL=B6,B6 t0 2/50 roll", "marks B6 twice"),
    ("HOP=1,3 t0 2/50 roll", "skips a cell"),
    ("SUD=61 t0 2/50 roll", "digits 1..6 in increasing order"),
    ("RP=1:9/2:8/-/- t0 3/50 roll", "can no longer add up to one sum"),
    ("RP=1:9/-/- t0 3/50 roll", "must give its 4 rows"),
    ("RP=1:09/-/-/- t0 3/50 roll", "write boxes filled:their sum"),
    ("PR=1020 t0 3/50 roll", "must be the 6 column heights"),
    ("PR=000000 t0 0/50 roll", "is an empty card: write -"),
])
def test_bad_positions_are_one_specific_line(text, message):
    with pytest.raises(PositionError, match=message) as error:
        GAME.parse(text)
    assert "\n" not in str(error.value)


def test_a_long_input_is_cut_in_the_message():
    with pytest.raises(PositionError) as error:
        GAME.parse("SOL=- " + "Q" * 500 + " t0 0/50 roll")
    assert len(str(error.value)) < 200
