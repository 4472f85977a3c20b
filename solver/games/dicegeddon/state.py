"""Dicegeddon's values: the state, its dice, the phases of a turn, and the actions.

Everything here is a small immutable value (tuples inside), cheap to hash and to derive from, so a
search uses states directly as keys. The rules that move from one state to the next are in
:mod:`dicetree.solver.games.dicegeddon.rules`; the position strings in :mod:`dicetree.solver.games.dicegeddon.notation`.

>>> die = Die(sides=6, face=5, zone=ACTIVE, used=False, defends=-1)
>>> state = DicegeddonState(dice=((die,), (Die(4, 3, ACTIVE, False, -1),)), mover=0, phase=STEP,
...                         pending=(), winners=(), army_size=20)
>>> PHASE_NAMES[state.phase], state.dice[0][0].sides
('step', 6)
>>> Attack(die=1, target=0) == Recruit(die=1, reserve=0)  # the kind tells moves apart
False
"""

from __future__ import annotations

from typing import NamedTuple

RESERVE, ACTIVE = 0, 1
"""A die's zone."""

DEFAULT_DICE = (4, 6, 8, 10, 12, 20)
"""The dice an army may be built from unless the rule option ``dice`` says otherwise."""

# Phases: what happens next. Chance phases roll dice; in the others the mover decides.
SETUP = 0  # chance: roll the next unrolled die of the opening
ROLLOFF = 1  # chance: who moves first after equal active totals
STEP = 2  # the mover chooses the next die's use
ATTACK = 3  # chance: the pending attack (die, target) rolls
RECRUIT = 4  # chance: the pending recruit (die, reserve die) rolls
DEFEND = 5  # chance: the first defence roll of the pending die
REROLL = 6  # chance: the second defence roll of the pending die
KEEP = 7  # the mover keeps the pending die's defence roll or re-rolls it
PLACE = 8  # the mover places the pending defender
OVER = 9  # the game is over: ``winners`` says who won

PHASE_NAMES = ("setup", "rolloff", "step", "attack", "recruit", "defend", "reroll", "keep", "place", "over")
"""The name of each phase (index = phase), as the notation writes it where it writes one."""

CHANCE_PHASES = frozenset({SETUP, ROLLOFF, ATTACK, RECRUIT, DEFEND, REROLL})


class Die(NamedTuple):
    """One die of a player's army."""

    sides: int
    face: int
    """The face it shows; 0 before the opening roll."""
    zone: int
    """ACTIVE or RESERVE."""
    used: bool
    """Used this turn (active dice only): every active die is used once a turn."""
    defends: int
    """Index of the own die it stands in front of, or -1."""


class DicegeddonState(NamedTuple):
    """A Dicegeddon position: both armies, whose turn, the phase and what it is about."""

    dice: tuple[tuple[Die, ...], tuple[Die, ...]]
    """A's dice, then B's, each in a fixed order (moves name dice by their number in it)."""
    mover: int
    """Whose turn it is (0 in the phases SETUP, ROLLOFF and OVER, where nobody has one)."""
    phase: int
    """One of the phase constants (:data:`PHASE_NAMES`)."""
    pending: tuple[int, ...]
    """The dice the phase is about: (die, target) for ATTACK and RECRUIT, (die,) for DEFEND,
    REROLL, KEEP and PLACE, () otherwise."""
    winners: tuple[int, ...]
    """Who won (OVER only; both players for a draw); () while playing."""
    army_size: int
    """The most sides an army may have (the game's rule option ``army_size``)."""


# ----- moves (the mover's decisions) ------------------------------------------------------------------
# Each action ends with a ``kind`` field, so actions of different kinds never compare equal.
class Attack(NamedTuple):
    """Roll the mover's active ``die`` (exploding) against the opponent's active die ``target``."""

    die: int
    target: int
    kind: str = "A"


class Recruit(NamedTuple):
    """Roll the mover's active ``die`` (exploding) and add the total to the mover's ``reserve`` die."""

    die: int
    reserve: int
    kind: str = "R"


class Defend(NamedTuple):
    """Roll the mover's active ``die`` to defend (keep or re-roll once, then place it)."""

    die: int
    kind: str = "D"


class Keep(NamedTuple):
    """Keep the defence roll."""

    kind: str = "keep"


class Reroll(NamedTuple):
    """Re-roll the defence roll once (the second roll stands)."""

    kind: str = "reroll"


class Place(NamedTuple):
    """Place the defender alone (``target`` -1) or in front of the mover's used active die ``target``."""

    target: int
    kind: str = "P"


# ----- chance outcomes -------------------------------------------------------------------------------
class OpeningRoll(NamedTuple):
    """The opening roll of ``player``'s ``die``: it shows ``face``."""

    player: int
    die: int
    face: int
    kind: str = "setup"


class RollOff(NamedTuple):
    """The roll-off after equal active totals: ``first`` moves first."""

    first: int
    kind: str = "first"


class AttackRoll(NamedTuple):
    """An attack's roll: whether it beat the target (``hit``) and the face the attacker ends on."""

    hit: bool
    face: int
    kind: str = "hit"


class RecruitRoll(NamedTuple):
    """A recruit's roll: how far the reserve die climbs (at most to its top face) and the face the
    recruiting die ends on."""

    climb: int
    face: int
    kind: str = "climb"


class DefenceRoll(NamedTuple):
    """A defence roll (first or second): the face it shows."""

    face: int
    kind: str = "roll"


KEEP_MOVE, REROLL_MOVE = Keep(), Reroll()
