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
COPIES = 2
"""Copies of each card in the box: two players may hold the same card, three may not."""
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


class Seat(NamedTuple):
    """One player's own part of a game of several: their cards, what is marked on them, their unused tickets."""

    cards: tuple[str, ...]
    marks: tuple[Hashable, ...]
    tickets: int


class DiceCardsState(NamedTuple):
    """A game: the first player's cards and the shared rolls, and the other players' seats.

    ``cards`` are the codes of the (first) player's cards (``'SOL'``, ...), in the order of the
    position; ``marks[i]`` is card i's own state (what is marked on it: a small hashable value its
    card class reads, see :mod:`dicetree.solver.games.dicecards.cards`); ``tickets`` are the unused tickets;
    ``rolls`` counts the rolls done (recorded or lost, by every player); ``roll`` is ``(black, red)``
    while a record is due (phase RECORD), else ``()``. With several players, ``others`` are the
    seats of players 2, 3, ... and ``turn`` is the player who records the roll next (they record
    in seat order; ``rolls`` counts a roll once the last has recorded it). One player's game has
    ``others == ()`` and ``turn == 0``: the single-player view every card solution works on.
    """

    cards: tuple[str, ...]
    marks: tuple[Hashable, ...]
    tickets: int
    rolls: int
    phase: int
    roll: tuple[int, ...]
    others: tuple[Seat, ...] = ()
    turn: int = 0

    @property
    def players(self) -> int:
        return 1 + len(self.others)

    def seat(self, player: int) -> Seat:
        """Player ``player``'s cards, marks and tickets."""
        return Seat(self.cards, self.marks, self.tickets) if player == 0 else self.others[player - 1]

    def with_seat(self, player: int, seat: Seat) -> DiceCardsState:
        """This game with player ``player``'s seat replaced."""
        if player == 0:
            return self._replace(cards=seat.cards, marks=seat.marks, tickets=seat.tickets)
        return self._replace(others=self.others[:player - 1] + (seat,) + self.others[player:])

    def view(self, player: int, rolls: int) -> DiceCardsState:
        """Player ``player``'s own game, as if alone (of ``rolls`` rolls): with the roll still to
        record where they have not recorded it yet, else before the next roll (or over)."""
        cards, marks, tickets = self.seat(player)
        if self.phase == RECORD and player < self.turn:
            done = self.rolls + 1
            return DiceCardsState(cards, marks, tickets, done, OVER if done >= rolls else ROLL, ())
        return DiceCardsState(cards, marks, tickets, self.rolls, self.phase, self.roll)


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
