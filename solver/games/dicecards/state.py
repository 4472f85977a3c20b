"""Dice Cards values: the state of one player's game, its actions, the dice and the rank table.

Everything here is a small frozen value (tuples of ints and strings), cheap to hash and to derive
from, so a search uses states directly as cache keys.

>>> start = DiceCardsState(cards=("SOL", "HOP"), marks=(0, 0), tickets=0, rolls=0, phase=ROLL, roll=())
>>> PHASE_NAMES[start.phase]
'roll'
>>> rank_of(90), rank_of(85), rank_of(12)
('Lord', 'Master', 'Practice Run')
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

FACES = 6
"""A die shows 1..6; the Black and the Red die are told apart (some cards want one colour)."""
ROLLS = 50
"""Rolls in a game (the roll tracker's 50 boxes)."""
HAND = 6
"""Cards a player plays (kept from a deal of :data:`DEAL`)."""
DEAL = 9
TICKETS_PER_POINT = 2
"""At the end, every 2 unused tickets are 1 point."""

# phases
ROLL = 0
"""Chance: the dice are rolled next."""
RECORD = 1
"""The player records one number of ``roll`` (or loses the roll)."""
OVER = 2
"""All rolls are done: the cards are scored."""
PHASE_NAMES = ("roll", "record", "end")

RANKS = ((90, "Lord"), (87, "Scholar"), (84, "Master"), (81, "Expert"), (70, "Novice"), (0, "Practice Run"))
"""The individual rank table of the rules: the least score of each rank, best first."""


def rank_of(score: int) -> str:
    """The rank a final score earns (``90`` or more: ``'Lord'``)."""
    return next(name for least, name in RANKS if score >= least)


class DiceCardsState(NamedTuple):
    """One player's game.

    ``cards`` are the codes of the player's cards (``'SOL'``, ...), in the order of the position;
    ``marks[i]`` is card i's own state (what is marked on it: a small hashable value its card
    class reads, see :mod:`solver.games.dicecards.cards`); ``tickets`` are the unused tickets;
    ``rolls`` counts the rolls done (recorded or lost); ``roll`` is ``(black, red)`` while a record
    is due (phase RECORD), else ``()``.
    """

    cards: tuple[str, ...]
    marks: tuple[Hashable, ...]
    tickets: int
    rolls: int
    phase: int
    roll: tuple[int, ...]


class Roll(NamedTuple):
    """A chance outcome: the Black and the Red die."""

    black: int
    red: int


class Record(NamedTuple):
    """A decision: record on card number ``card`` (its index in the state) the placement ``label``,
    which leaves the card in state ``marks``, spending ``cost`` tickets. ``card == LOSE`` is the
    lost roll (nothing recorded)."""

    card: int
    label: str
    marks: Hashable
    cost: int


LOSE = -1
LOST = Record(LOSE, "lose", None, 0)
"""The record of a roll that is not recorded on any card."""
