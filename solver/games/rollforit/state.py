"""Roll For It! Deluxe: the state value, its phases and the actions (the bottom of the package).

A position is a :class:`RollForItState`, a small NamedTuple of ints and tuples (hashable, cheap to
derive from). Cards are indices into the configured game's card list (``game.cards``, the decks in
use in the deck file's order); faces are 1..6; players are seats 0..N-1 in turn order (to the left).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from dicetree.solver.players import player_name

DICE_PER_PLAYER = 6
FACES = 6
TARGET = 40
"""The first player to score this many points (or more) wins."""
MIN_PLAYERS, MAX_PLAYERS = 2, 8

# Phases (``RollForItState.phase``); PHASE_NAMES gives each its notation word.
TURN = 0
"""The mover decides before the roll: roll (or pass, with no die free) or Take Back."""
ROLL = 1
"""Chance: the mover rolls every die not on a card."""
PLACE = 2
"""The mover places rolled dice (``rolled``): score one card, or place dice that score none and end the turn."""
FLIP = 3
"""Chance: a card is flipped from the deck into the place of a scored one (``rolled``: dice still to place)."""
OVER = 4
"""The game is over: ``winners`` won (several: a shared win)."""
PHASE_NAMES = ("turn", "roll", "place", "flip", "over")


class RollForItState(NamedTuple):
    """One position.

    ``placed[i][p]`` are the faces (ascending) of player p's dice on face-up card ``cards[i]``; the
    faces a card's images show that no die of p covers are still to be matched by p.
    """

    cards: tuple[int, ...]
    """The face-up cards, ascending card indices (their order on the table does not matter)."""
    placed: tuple[tuple[tuple[int, ...], ...], ...]
    """Per face-up card, per player: the faces of that player's dice on it (ascending)."""
    scores: tuple[int, ...]
    """Each player's points."""
    deck: int
    """The cards still in the deck, as a bit mask over card indices (known contents, unknown order)."""
    mover: int
    """Whose turn it is (0 in a finished game)."""
    phase: int
    """TURN, ROLL, PLACE, FLIP or OVER."""
    rolled: tuple[int, ...] = ()
    """The mover's rolled dice not placed yet (PLACE, FLIP), ascending faces."""
    starter: int = 0
    """Who took the first turn: the last round ends before this player's turn (only with
    ``ending=end_of_round``; 0 otherwise, as it then changes nothing)."""
    winners: tuple[int, ...] = ()
    """Who won a finished game (several: a shared win); empty while playing."""


class TurnChoice(NamedTuple):
    """At TURN: Take Back (take every die off the cards, then roll six) or not (roll, or pass)."""

    take_back: bool


class Complete(NamedTuple):
    """At PLACE: place ``faces`` (exactly the images still open) on ``card`` and score it."""

    card: int
    faces: tuple[int, ...]


class Place(NamedTuple):
    """At PLACE: put dice on cards without scoring any and end the turn; ``placements`` are
    ``(card, faces)`` pairs by ascending card, empty to place nothing."""

    placements: tuple[tuple[int, tuple[int, ...]], ...]


class Roll(NamedTuple):
    """A chance outcome at ROLL: the faces rolled, ascending (equal dice are interchangeable)."""

    faces: tuple[int, ...]


class Flip(NamedTuple):
    """A chance outcome at FLIP: the card turned up."""

    card: int


def player_letter(player: int) -> str:
    """'A' for seat 0, 'B' for seat 1, ...: the players' names (:mod:`dicetree.solver.players`), which
    Roll For It!'s notation writes as they are."""
    return player_name(player)


@cache
def faces_text(faces: tuple[int, ...]) -> str:
    """Faces as digits: (1, 1, 3) -> '113'."""
    return "".join(str(f) for f in faces)


@lru_cache(maxsize=1 << 16)
def missing(images: tuple[int, ...], have: tuple[int, ...]) -> tuple[int, ...]:
    """The images (ascending) not covered by the faces ``have`` (a sub-multiset of ``images``)."""
    rest = list(images)
    for face in have:
        rest.remove(face)
    return tuple(rest)
