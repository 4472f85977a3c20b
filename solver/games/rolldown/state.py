"""RolldownBeta's state value, its actions, phases and constants: the bottom of the package.

Everything above (rules, notation, evaluation, tables, the game) reads these; this module
imports only the card constants (:mod:`dicetree.solver.games.rolldown.cards`) and the point of view.

>>> state = RolldownState(dice=((0, 2, 5, 0, 0, 0), (3, 6, 0, 0, 0, 0)), mover=0)
>>> state.dice_in_play(0), state.pairs_left(), PHASE_NAMES[state.phase]
([1, 2], 2, '-')
>>> Capture(1, 0), Capture(1, 0) == Reroll(1, 0)
(Capture(my_slot=1, their_slot=0, kind=0), False)
"""

from __future__ import annotations

from typing import NamedTuple

from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.players import notation_letter, player_name
from dicetree.solver.pov import PointOfView

# ----- players -------------------------------------------------------------------------------------
PLAYER_NAMES = tuple(player_name(p) for p in range(2))
"""How output names players 0 and 1."""
PLAYER_LETTERS = tuple(notation_letter(p) for p in range(2))
"""How the notation writes them (the mover, the starter, a die's owner)."""
NOBODY = -1
"""``RolldownState.seen_by`` of a position that is nobody's partial view (the mover's, or complete)."""

# ----- phases: what happens next at a state ----------------------------------------------------
DECIDE = 0  # the mover chooses an action
ROLL = 1  # chance rolls the pending die, then the turn ends (a reroll, or the Queen's second)
QUEEN_ROLL = 2  # chance rolls the Queen's first die, then the mover decides QUEEN_SECOND
QUEEN_SECOND = 3  # the mover chooses the Queen's second die
JOKER_ROLL = 4  # chance rerolls every die in play, then the turn ends
ROUND_OVER = 5  # the round has been won (winner/points set); next: a new deal or the match end
PHASE_NAMES = ("-", "roll", "queen", "q2", "joker", "won")
"""Each phase's word in the notation's phase field (``roll:a.d8``, ``queen:b.d6``, ``won:a:24``)."""
DECISION_PHASES = (DECIDE, QUEEN_SECOND)
"""Phases where the mover decides (the others are chance nodes or a finished round)."""

# ----- modes, objectives, variants ----------------------------------------------------------------
MODES = ("single", "first50", "nine")
OBJECTIVES = ("round", "points", "match")
ACE_VARIANTS = ("online", "printed")
HORIZONS = ("round", "match")
"""Where a game of the ``match`` objective ends: with the round (valued by the match equity tables) or
with the match (every round played)."""
OBJECTIVE_SUMS = {"round": 1.0, "points": 0.0, "match": 1.0}
"""What the two players' returns add up to under each objective (a probability each, or signed points)."""
TARGET_SCORE = 50
NINE_ROUNDS = 9
MAX_ROUND_POINTS = 2 * max(DIE_SIDES)
ROUND_POV = PointOfView(1.0)
"""Round-win probabilities (tables, the evaluation's estimate) seen from either player."""

# ----- actions: small named tuples; ``kind`` (last, with its default) keeps kinds apart ----------
CAPTURE, REROLL, SET, QUEEN_PLAY, JOKER_PLAY = range(5)


class Capture(NamedTuple):
    """``d8xd6``: the mover's die in ``my_slot`` takes the opponent's in ``their_slot``."""

    my_slot: int
    their_slot: int
    kind: int = CAPTURE


class Reroll(NamedTuple):
    """``roll b.d6`` (or the Queen's second die, ``Q2 b.d6``): chance rolls player ``side``'s die in ``slot``."""

    side: int
    slot: int
    kind: int = REROLL


class SetFace(NamedTuple):
    """A card that puts a die on a chosen face: ``7 a.d8``, ``J b.d4``, ``K a.d20``, ``A+ a.d8``."""

    card: int
    side: int
    slot: int
    face: int
    kind: int = SET


class QueenPlay(NamedTuple):
    """``Q a.d8``: the Queen's first die (chance rolls it, then the mover picks the second)."""

    side: int
    slot: int
    kind: int = QUEEN_PLAY


class JokerPlay(NamedTuple):
    """``X``: the Joker rerolls every die in play."""

    kind: int = JOKER_PLAY


Action = Capture | Reroll | SetFace | QueenPlay | JokerPlay
JOKER_ACTION = JokerPlay()


# ----- the state -----------------------------------------------------------------------------------
class RolldownState(NamedTuple):
    """One RolldownBeta position. Immutable and canonical: equal positions are equal values.

    A named tuple rather than a frozen dataclass: searches create one per node, and a tuple is
    built about four times faster (1.3 us against 4.8 us measured for a one-field change).

    ``dice[p][i]`` is the face of player p's d{DIE_SIDES[i]}, 0 once it has been captured.
    ``hands[p]`` and ``discards[p]`` are sorted card codes (``UNKNOWN`` for ``?``).
    ``first_turn[p]`` is True until player p's first turn of the round has ended.
    ``pending`` is the die (side, slot) a ROLL/QUEEN_ROLL chance node rolls, else None.
    ``round_winner``/``round_points`` describe the round just won (phase ROUND_OVER), else -1/0.
    ``seen_by`` is the player whose view this is when that is not the mover (an observation of the
    mover's turn, with the mover's cards unknown: ``Rolldown.observe``), else :data:`NOBODY`.
    """

    dice: tuple[tuple[int, ...], tuple[int, ...]]
    mover: int
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    first_turn: tuple[bool, bool] = (False, False)
    mode: str = "single"
    scores: tuple[int, int] = (0, 0)
    round: int = 1
    discards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    starter: int = 0
    phase: int = DECIDE
    pending: tuple[int, int] | None = None
    round_winner: int = -1
    round_points: int = 0
    seen_by: int = NOBODY

    def __repr__(self) -> str:
        # Without a partial view the repr is the one from before ``seen_by`` existed: searches seed
        # their samples of huge chance nodes with a position's key's repr, so published values stay.
        fields = self._fields if self.seen_by != NOBODY else self._fields[:-1]
        return f"RolldownState({', '.join(f'{name}={value!r}' for name, value in zip(fields, self))})"

    def dice_in_play(self, side: int) -> list[int]:
        """Slots of ``side``'s dice still in play."""
        return [slot for slot, face in enumerate(self.dice[side]) if face]

    def pairs_left(self) -> int:
        return sum(1 for face in self.dice[0] if face)


__all__ = [
    "ACE_VARIANTS", "CAPTURE", "DECIDE", "DECISION_PHASES", "HORIZONS", "JOKER_ACTION", "JOKER_PLAY", "JOKER_ROLL",
    "MAX_ROUND_POINTS", "MODES", "NINE_ROUNDS", "NOBODY", "OBJECTIVES", "OBJECTIVE_SUMS", "PHASE_NAMES",
    "PLAYER_LETTERS", "PLAYER_NAMES", "QUEEN_PLAY", "QUEEN_ROLL", "QUEEN_SECOND", "REROLL", "ROLL",
    "ROUND_OVER", "ROUND_POV", "SET", "TARGET_SCORE", "Action", "Capture", "JokerPlay", "QueenPlay",
    "Reroll", "RolldownState", "SetFace",
]
