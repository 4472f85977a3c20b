"""Dicegeddon position notation: round trips of every reachable kind of position (hypothesis,
random play from random armies in both variants), the documented examples, and specific errors."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicetree.solver.game import PositionError
from dicetree.solver.games.dicegeddon import Dicegeddon
from dicetree.solver.games.dicegeddon.notation import NOTATION_HELP
from dicetree.solver.games.dicegeddon.rules import canonical

GAMES = {
    (several, mulligan): Dicegeddon(army_size=30, several_defenders=several, mulligan=mulligan)
    for several in (False, True) for mulligan in (False, True)
}
SIDES = [4, 6, 8, 10, 12, 20]
BASE = Dicegeddon()  # army size 20, as the positions below are written


def random_army(rng: random.Random, size: int) -> list[int]:
    army = [rng.choice([4, 6])]
    while True:
        options = [s for s in SIDES if sum(army) + s <= size]
        if not options or rng.random() < 0.3:
            return army
        army.append(rng.choice(options))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans(), st.integers(0, 120))
def test_round_trip_along_random_play(seed, several, mulligan, steps):
    game = GAMES[(several, mulligan)]
    rng = random.Random(seed)
    state = game.start(random_army(rng, 30), random_army(rng, 30))
    for _ in range(steps):
        text = game.format(state)
        assert game.parse(text) == state, text
        assert game.format(game.parse(text)) == text
        assert game.parse(game.format(canonical(state))) == canonical(state)  # a legal position too
        if game.is_terminal(state):
            break
        if game.is_chance(state):
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_documented_examples_parse_and_are_canonical():
    game = BASE
    examples = re.findall(r"^  (d[0-9]+:\S+ .*)$", NOTATION_HELP, re.M)
    assert len(examples) == 3
    for text in examples:
        assert game.format(game.parse(text)) == text.strip()
    assert game.format(game.parse(game.example_position())) == game.example_position()


@pytest.mark.parametrize(
    "text, message",
    [
        ("d6:5a/d6:6a a", "at least 3 fields"),
        ("d6:5a/d6:6a a 20 - x", "unknown field 'x'"),
        ("d6:5a/d6:6a a x", "army size must be a whole number"),
        ("d6:5a,d6:6a a 20", "dice field must be"),
        ("d6:5a/d6:6a c 20", "the mover must be A or B"),
        ("d6:5/d6:6a a 20", "needs a zone"),
        ("d6:5x/d6:6a a 20", "is not of the form"),
        ("d7:5a/d6:6a a 20", "is a d7: the dice set"),
        ("d6:7a/d6:6a a 20", "cannot show 7"),
        ("d6:6r,d4:3a/d6:6a a 20", "shows its top face 6: it would be active"),
        ("d6:3r*,d4:3a/d6:6a a 20", "reserve die 1 is marked used"),
        ("d6:3a,d4:3a>1/d6:6a a 20", "not used"),
        ("d6:3a,d4:3a*>1/d6:6a a 20", "not a used active die"),
        ("d6:3a*,d4:3a*>3/d6:6a a 20", "defends die 3, but A has 2 dice"),
        ("d6:3a*>1,d4:3a/d6:6a a 20", "defends itself"),
        ("d6:3a*>2,d4:3a*>1,d4:1a/d6:6a a 20", "cycle"),
        ("d20:3a,d12:3a/d6:6a a 20", "32 sides: more than the army size 20"),
        ("d6:3a*,d4:3a*>1,d4:2a*>1,d4:1a/d6:6a a 20", "2 defenders"),
        ("d6:3r/d6:6a a 20", "A has no active die: the game is over"),
        ("d6:3a*/d6:6a a 20", "no unused active die"),
        ("d6:3a/d6:6a a 20 attack:1>2", "cannot attack the opponent's die 2"),
        ("d6:3a*,d4:3a/d6:6a*,d4:2a*>1 a 20 attack:2>1", "cannot attack the opponent's die 1"),
        ("d6:3a/d6:6a a 20 recruit:1>1", "cannot be recruited"),
        ("d6:3a*,d4:2a/d6:6a a 20 defend:1", "must be active and unused"),
        ("d6:3a/d6:6a a 20 keep:3", "but A has 1 dice"),
        ("d6:3a/d6:6a a 20 jump", "unknown phase 'jump'"),
        ("d6:?/d6:? a 20 setup", "the mover is - in phase setup"),
        ("d6:?/d6:? - 20", "is not setup"),
        ("d6:3r/d6:6a - 20 setup", "needs a die not rolled yet"),
        ("d6:4a/d6:? - 20 setup", "wrong zone"),
        ("d6:?,d4:4a/d6:? - 20 setup", "rolled die follows an unrolled one"),
        ("d6:5a/d6:6a - 20 rolloff", "equal active totals"),
        ("d6:5a/d6:6a - 20 won:a", "B still has an active die"),
        ("d6:5r/d6:3r - 20 won:a", "has no active die either"),
        ("d6:5a/d6:3r - 20 draw", "neither player"),
        ("d6:?a/d6:? - 20 setup", "not rolled yet: write it as d6:? alone"),
        ("/d6:6a a 20", "written as nothing"),
    ],
)
def test_specific_position_errors(text, message):
    with pytest.raises(PositionError, match=re.escape(message)):
        BASE.parse(text)


def test_several_defenders_parse_only_in_the_variant():
    text = "d6:3a*,d4:3a*>1,d4:2a*>1,d4:1a/d6:6a a 20"
    game = Dicegeddon(several_defenders=True)
    assert game.format(game.parse(text)) == text
