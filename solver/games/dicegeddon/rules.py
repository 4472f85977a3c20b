"""Dicegeddon (Richard Garfield, 2024): the rules on the :mod:`dicetree.solver.game` interface.

Rules text: ``shared/rules/dicegeddon.txt``. Two players, each with an army of dice whose sides add
up to no more than the army size, battle until one has no active die left.

This module holds the rule logic (:class:`DicegeddonRules`: whose turn, the legal moves, the chance
outcomes, the transitions); :class:`dicetree.solver.games.dicegeddon.game.Dicegeddon` adds the notation, the
evaluation and the standard hooks to it. The values it works on are in
:mod:`dicetree.solver.games.dicegeddon.state`.

The model
---------
* **Armies** are parameters: :meth:`DicegeddonRules.start` takes each player's list of sides
  (checked against ``army_size`` and the allowed ``dice``, by default d4, d6, d8, d10, d12, d20).
* **Start.** Every die is rolled, one chance node per die (A's dice in order, then B's). A die
  showing its top face or one below is active, the others go to reserve keeping their faces. A
  player with no active die loses; both: a draw (``mulligan=True``: the start is re-rolled, see
  below). Otherwise the lower active total moves first; a tie is a roll-off (a fair coin, 1/2 each).
* **A turn** uses every active die of the mover exactly once, one step at a time, each step seeing
  the results of the ones before:

  - *Recruit* ``R i>j``: roll active die i (exploding) and add the total to reserve die j; if j
    reaches its top face it becomes active showing its top face (excess lost) and counts as used
    this turn (so it cannot be used on the turn it was recruited).
  - *Attack* ``A i>j``: roll active die i (exploding) against the opponent's active die j; a total
    strictly above j's face discards j. Reserve dice cannot be attacked, nor a die with a defender
    in front of it.
  - *Defend* ``D i``: roll die i, then keep or re-roll once (the second roll is kept; the top face
    may be kept), then place it alone or in front of one of the mover's used active dice.

* **Exploding rolls** (Recruit, Attack): a top face rolls again and adds. A roll of an s-sided die
  totals ``k*s + r`` with probability ``s**-(k+1)`` (k top faces, then r in 1..s-1) and the die ends
  showing r (never its top face). Only finitely much matters: for an attack whether the total
  beats the target's face t, for a recruit the climb ``min(total, need)``; so an attack has the
  outcomes (hit?, r) and a recruit (climb, r), each with an exact rational probability (summed in
  closed form over k: ``sum_{k>=k0} s**-(k+1) = s**-k0 / (s-1)``); see :func:`attack_outcomes` and
  :func:`recruit_outcomes`, which sum to exactly 1 (``tests/test_dicegeddon_rules.py``).
* **Winning**: the moment the opponent has no active die (at once, mid-turn).

Interpretations of what the text leaves open
--------------------------------------------
1. Used dice become unused at the start of their owner's next turn; at that moment every defence
   of that owner ends too (defenders are re-used each turn, so a defence lasts through exactly
   one opposing turn). So the player not on move shows either only used active dice (their turn
   used every one) or, before their first turn, only unused ones: never both.
2. A recruited die enters the active zone *used* (it cannot be used that turn), so it may be
   defended like any used die.
3. "In front of another active die ... already used": the defended die must be used, active and
   (without the several-defenders variant) not already defended. A defender may itself be
   defended (a chain: the front die must fall first), since a defender is a used active die; the
   rules text's variations section says the designer "tried allowing dice to queue as defenders
   but didn't like how it played", which may mean chains were meant to be out: ``chains=False``
   (``--rule chains=false``) forbids standing in front of a die that is itself a defender. With
   chains the several-defenders variant never changes a value (a stack is dominated by the
   chain; ``tests/test_dicegeddon_exact.py``); without them it does. Defence is always possible,
   so every active die always has a use; Recruit needs a reserve die, Attack an attackable
   opposing die.
4. A die is attackable iff it is active and nothing defends it (its defender(s) must be defeated
   first). Variant ``several_defenders=True``: any number of defenders in front of one die, all to
   be beaten, in any order, before it.
5. The face a defender shows is its defence: an attacker must roll strictly more than it.
6. The first roll of Defend and the keep/re-roll choice are separate nodes; the placement is chosen
   after the final roll.
7. Mulligan (``mulligan=True``): whenever the start leaves at least one player with no active die,
   both players re-roll everything (the game is "played again" instead of lost). Without it, a
   player without active dice loses, both: a draw.
8. The roll-off is a fair coin; its winner moves first.
9. A game that never ends (players defending forever) is valued as a draw by the exact solver.

>>> parse_dice("d4,d6,d10", "an army")
(4, 6, 10)
>>> sum(p for (hit, _), p in attack_outcomes(6, 4) if hit)  # a 5, or a 6 (exploding past 4)
Fraction(1, 3)
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from dicetree.solver.game import CHANCE, TERMINAL, Game, GameError, ValueBounds
from dicetree.solver.games.dicegeddon.state import (
    ACTIVE, ATTACK, CHANCE_PHASES, DEFAULT_DICE, DEFEND, KEEP, KEEP_MOVE, OVER, PHASE_NAMES, PLACE, RECRUIT,
    REROLL, REROLL_MOVE, RESERVE, ROLLOFF, SETUP, STEP, Attack, AttackRoll, Defend, DefenceRoll, DicegeddonState,
    Die, OpeningRoll, Place, Recruit, RecruitRoll, RollOff,
)
from dicetree.solver.rule_options import RuleOption, shorten

DEFAULT_ARMY = (4, 6, 10)
"""Each player's army in a new game where it fits the army size and the dice set (else the smallest die)."""


# ----- exploding rolls -------------------------------------------------------------------------------
def _tail(sides: int, k0: int) -> Fraction:
    """P(at least k0 top faces, then a given non-top face r) = sum_{k>=k0} s^-(k+1)."""
    return Fraction(1, sides**k0 * (sides - 1)) if k0 >= 0 else Fraction(0)


@cache
def attack_outcomes(sides: int, target: int) -> tuple[tuple[tuple[bool, int], Fraction], ...]:
    """((hit, final face), probability) of an exploding s-sided roll against a face ``target``:
    hit iff the total exceeds it. Probabilities are exact Fractions summing to 1."""
    if sides < 2:
        raise GameError(f"a d{sides} cannot explode finitely: dice need at least 2 sides")
    out = []
    each = _tail(sides, 0)  # P(final face r) = 1/(s-1)
    for r in range(1, sides):
        # smallest k with k*s + r > target
        k0 = max(0, (target - r) // sides + 1)
        hit = _tail(sides, k0)
        if hit:
            out.append(((True, r), hit))
        if each - hit:
            out.append(((False, r), each - hit))
    return tuple(out)


@cache
def recruit_outcomes(sides: int, need: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """((climb, final face), probability) of an exploding s-sided roll added to a reserve die
    that needs ``need`` more to reach its top face: climb = min(total, need)."""
    if sides < 2:
        raise GameError(f"a d{sides} cannot explode finitely: dice need at least 2 sides")
    out = []
    for r in range(1, sides):
        # totals k*s + r for k = 0, 1, ...; those below need are exact, the rest reach need
        k0 = max(0, (need - r + sides - 1) // sides)  # smallest k with k*s + r >= need
        for k in range(k0):
            out.append(((k * sides + r, r), Fraction(1, sides ** (k + 1))))
        out.append(((need, r), _tail(sides, k0)))
    return tuple(out)


# The chance outcomes as actions, made once per kind of roll (chance nodes are listed very often).
@cache
def _attack_rolls(sides: int, target: int) -> tuple[tuple[AttackRoll, Fraction], ...]:
    return tuple((AttackRoll(hit, face), p) for (hit, face), p in attack_outcomes(sides, target))


@cache
def _recruit_rolls(sides: int, need: int) -> tuple[tuple[RecruitRoll, Fraction], ...]:
    return tuple((RecruitRoll(climb, face), p) for (climb, face), p in recruit_outcomes(sides, need))


@cache
def _plain_rolls(sides: int) -> tuple[tuple[DefenceRoll, Fraction], ...]:
    return tuple((DefenceRoll(face), Fraction(1, sides)) for face in range(1, sides + 1))


_ROLL_OFF = ((RollOff(0), Fraction(1, 2)), (RollOff(1), Fraction(1, 2)))


# ----- lists of dice (rule options, armies) -------------------------------------------------------------
_SIDES = re.compile(r"d?([1-9][0-9]{0,3})$")


def parse_dice(text: str, what: str) -> tuple[int, ...]:
    """'d4,d6,d10' (or '4,6,10') -> (4, 6, 10); ``what`` names the list in the one-line error.

    >>> parse_dice("d4,d06", "rule option dice")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: rule option dice must be a comma-separated list of dice like d4,d6,d10, not 'd4,d06'
    """
    sides = []
    for token in str(text).split(","):
        m = _SIDES.match(token.strip().lower())
        if not m:
            raise GameError(f"{what} must be a comma-separated list of dice like d4,d6,d10, not '{shorten(text)}'")
        sides.append(int(m.group(1)))
    return tuple(sides)


def army_text(army) -> str:
    """(4, 6) -> 'd4,d6'."""
    return ",".join(f"d{s}" for s in army)


def attackable(dice) -> list[int]:
    """Indices of active dice with no defender in front of them."""
    defended = {d[4] for d in dice if d[4] >= 0}
    return [j for j, d in enumerate(dice) if d[2] == ACTIVE and j not in defended]


# ----- the rules ---------------------------------------------------------------------------------------
class DicegeddonRules(Game):
    """Dicegeddon's rules with fixed options (the rule methods; :class:`Dicegeddon` completes them).

    ``army_size`` (default 20), ``dice`` (allowed sides), ``several_defenders`` and ``mulligan``
    (the variations), ``chains`` (may a defender be defended: interpretation 3), ``armies``
    ("d4,d6/d6,d8": the armies a new game starts with; by default d4,d6,d10 for both where that fits
    the army size and the dice set, else the smallest die for both). Every value is read by its
    declared :class:`RuleOption` (text from ``--rule`` or a typed value alike).
    """

    rule_options = (
        RuleOption("army_size", "int", 20, "the most sides an army may have in all", low=2, high=1000),
        RuleOption("dice", "text", army_text(DEFAULT_DICE), "the dice an army may be built from, e.g. d4,d6,d8"),
        RuleOption("several_defenders", "bool", False, "the variation: several dice may defend one"),
        RuleOption("mulligan", "bool", False, "the mulligan variation (see the game's rules module)"),
        RuleOption("armies", "text", None, "the armies a new game starts with, as A/B, e.g. d4,d6/d6,d8 (built in: "
                   "d4,d6,d10 each where that fits, else the smallest die each)"),
        RuleOption("chains", "bool", True, "may a defender itself be defended (false: the designer's note)"),
    )
    num_players = 2

    def __init__(self, army_size=20, dice=DEFAULT_DICE, several_defenders=False, mulligan=False, armies=None,
                 chains=True):
        option = {o.name: o for o in self.rule_options}
        self.army_size: int = option["army_size"].parse(army_size)
        self.dice: tuple[int, ...] = _dice_set(option["dice"].parse(dice))
        self.several_defenders: bool = option["several_defenders"].parse(several_defenders)
        self.mulligan: bool = option["mulligan"].parse(mulligan)
        self.chains: bool = option["chains"].parse(chains)
        if self.army_size < self.dice[0]:
            raise GameError(f"rule option army_size must be at least {self.dice[0]} (an army needs a die, and the "
                            f"smallest in the dice set is a d{self.dice[0]}), not {self.army_size}")
        self.armies: tuple[tuple[int, ...], tuple[int, ...]] = self._armies(option["armies"].parse(armies))

    def _armies(self, armies) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if armies is None:
            fits = set(DEFAULT_ARMY) <= set(self.dice) and sum(DEFAULT_ARMY) <= self.army_size
            return (DEFAULT_ARMY, DEFAULT_ARMY) if fits else ((self.dice[0],), (self.dice[0],))
        example = "two armies as A/B, e.g. d4,d6/d6,d8"
        halves = str(armies).split("/") if isinstance(armies, str) else list(armies)
        if len(halves) != 2:
            raise GameError(f"rule option armies must be {example}, not '{shorten(str(armies))}'")
        army_a, army_b = (parse_dice(h, f"rule option armies must be {example}: each army")
                          if isinstance(h, str) else tuple(h) for h in halves)
        for army in (army_a, army_b):
            try:
                self.check_army(army)
            except GameError as error:
                raise GameError(f"rule option armies: {error}") from None
        return army_a, army_b

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(army_size={self.army_size}, several_defenders={self.several_defenders}, "
                f"mulligan={self.mulligan}, chains={self.chains})")

    def check_army(self, army) -> None:
        """One line if ``army`` (sides) is not a legal army of this game."""
        if not army:
            raise GameError("an army needs at least one die")
        for sides in army:
            if sides not in self.dice:
                raise GameError(f"d{sides} is not in the dice set ({', '.join(f'd{d}' for d in self.dice)})")
        if sum(army) > self.army_size:
            raise GameError(f"the army {army_text(army)} has {sum(army)} sides: more than the army size {self.army_size}")

    # ----- starting -----------------------------------------------------------------------------------
    def start(self, army_a, army_b) -> DicegeddonState:
        """The state before the opening roll of two armies (lists of sides)."""
        for army in (army_a, army_b):
            self.check_army(tuple(army))
        dice_a, dice_b = (tuple(Die(s, 0, RESERVE, False, -1) for s in army) for army in (army_a, army_b))
        return DicegeddonState((dice_a, dice_b), 0, SETUP, (), (), self.army_size)

    def battle(self, army_a, army_b, mover: int = 0) -> DicegeddonState:
        """A battle where every die is active and unused (faces given): ``army`` = [(sides, face)]."""
        dice_a, dice_b = (tuple(Die(s, f, ACTIVE, False, -1) for s, f in army) for army in (army_a, army_b))
        return DicegeddonState((dice_a, dice_b), mover, STEP, (), (), self.army_size)

    # ----- whose turn ------------------------------------------------------------------------------------
    def current_player(self, state: DicegeddonState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.phase in CHANCE_PHASES:
            return CHANCE
        return state.mover

    def legal_actions(self, state: DicegeddonState) -> list:
        phase = state.phase
        me = state.mover
        mine = state.dice[me]
        if phase == STEP:
            actions: list[Attack | Recruit | Defend] = []
            targets = attackable(state.dice[1 - me])
            reserve = [j for j, d in enumerate(mine) if d[2] == RESERVE]
            for i, d in enumerate(mine):
                if d[2] != ACTIVE or d[3]:
                    continue
                actions += [Attack(i, j) for j in targets]
                actions += [Recruit(i, j) for j in reserve]
                actions.append(Defend(i))
            return actions
        if phase == KEEP:
            return [KEEP_MOVE, REROLL_MOVE]
        if phase == PLACE:
            i = state.pending[0]
            defended = {d[4] for d in mine if d[4] >= 0}
            spots = [
                j for j, d in enumerate(mine)
                if j != i and d[2] == ACTIVE and d[3] and (self.several_defenders or j not in defended)
                and (self.chains or d[4] < 0)
            ]
            return [Place(-1)] + [Place(j) for j in spots]
        return []

    # ----- chance --------------------------------------------------------------------------------------
    def exact_outcomes(self, state: DicegeddonState) -> list[tuple[tuple, Fraction]]:
        """The chance outcomes with exact Fraction probabilities (sum 1)."""
        phase = state.phase
        if phase == SETUP:
            p, i = _next_unrolled(state)
            sides = state.dice[p][i][0]
            return [(OpeningRoll(p, i, f), Fraction(1, sides)) for f in range(1, sides + 1)]
        if phase == ROLLOFF:
            return list(_ROLL_OFF)
        me = state.mover
        if phase == ATTACK:
            i, j = state.pending
            return list(_attack_rolls(state.dice[me][i][0], state.dice[1 - me][j][1]))
        if phase == RECRUIT:
            i, j = state.pending
            reserve = state.dice[me][j]
            return list(_recruit_rolls(state.dice[me][i][0], reserve[0] - reserve[1]))
        if phase in (DEFEND, REROLL):
            return list(_plain_rolls(state.dice[me][state.pending[0]][0]))
        return []

    def chance_outcomes(self, state: DicegeddonState):
        return [(o, float(p)) for o, p in self.exact_outcomes(state)]

    def chance_outcome_count(self, state: DicegeddonState) -> int:
        return len(self.exact_outcomes(state))

    # ----- transitions ---------------------------------------------------------------------------------
    def apply(self, state: DicegeddonState, action) -> DicegeddonState:
        phase = state.phase
        kind = action[-1]
        me = state.mover
        if phase == SETUP and kind == "setup":
            p, i, face, _ = action
            sides = state.dice[p][i][0]
            state = _set_die(state, p, i, Die(sides, face, ACTIVE if face >= sides - 1 else RESERVE, False, -1))
            if _next_unrolled(state) is None:
                return self._resolve_start(state)
            return state
        if phase == ROLLOFF and kind == "first":
            return _begin_turn(state._replace(phase=STEP, pending=()), action[0])
        if phase == STEP:
            if kind == "A":
                return state._replace(phase=ATTACK, pending=(action[0], action[1]))
            if kind == "R":
                return state._replace(phase=RECRUIT, pending=(action[0], action[1]))
            if kind == "D":
                return state._replace(phase=DEFEND, pending=(action[0],))
        if phase == ATTACK and kind == "hit":
            i, j = state.pending
            hit, face, _ = action
            state = _set_die(state, me, i, _used(state.dice[me][i], face))
            if hit:
                state = _remove_die(state, 1 - me, j)
                if not any(d[2] == ACTIVE for d in state.dice[1 - me]):
                    return state._replace(phase=OVER, pending=(), winners=(me,), mover=0)
            return _after_step(state)
        if phase == RECRUIT and kind == "climb":
            i, j = state.pending
            climb, face, _ = action
            state = _set_die(state, me, i, _used(state.dice[me][i], face))
            r = state.dice[me][j]
            new_face = r[1] + climb
            r = Die(r[0], r[0], ACTIVE, True, -1) if new_face >= r[0] else Die(r[0], new_face, RESERVE, False, -1)
            return _after_step(_set_die(state, me, j, r))
        if phase == DEFEND and kind == "roll":
            i = state.pending[0]
            state = _set_die(state, me, i, _with_face(state.dice[me][i], action[0]))
            return state._replace(phase=KEEP)
        if phase == KEEP:
            if kind == "keep":
                return state._replace(phase=PLACE)
            if kind == "reroll":
                return state._replace(phase=REROLL)
        if phase == REROLL and kind == "roll":
            i = state.pending[0]
            state = _set_die(state, me, i, _with_face(state.dice[me][i], action[0]))
            return state._replace(phase=PLACE)
        if phase == PLACE and kind == "P":
            i = state.pending[0]
            d = state.dice[me][i]
            state = _set_die(state, me, i, Die(d[0], d[1], ACTIVE, True, action[0]))
            return _after_step(state)
        raise GameError(f"action {action!r} does not apply in phase {PHASE_NAMES[phase]}")

    def _resolve_start(self, state: DicegeddonState) -> DicegeddonState:
        active = [[d for d in side if d[2] == ACTIVE] for side in state.dice]
        empty = [not a for a in active]
        if any(empty):
            if self.mulligan:
                dice_a, dice_b = (tuple(Die(d[0], 0, RESERVE, False, -1) for d in side) for side in state.dice)
                return state._replace(dice=(dice_a, dice_b), phase=SETUP, pending=(), mover=0)
            winners = (0, 1) if all(empty) else ((1,) if empty[0] else (0,))
            return state._replace(phase=OVER, winners=winners, mover=0)
        totals = [sum(d[1] for d in a) for a in active]
        if totals[0] == totals[1]:
            return state._replace(phase=ROLLOFF, mover=0)
        first = 0 if totals[0] < totals[1] else 1
        return _begin_turn(state._replace(phase=STEP), first)

    def returns(self, state: DicegeddonState) -> tuple[float, float]:
        """Each player's share of the win: 1 to the winner, 1/2 each for a draw."""
        share = 1.0 / len(state.winners)
        return share if 0 in state.winners else 0.0, share if 1 in state.winners else 0.0

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(0.0, 1.0)


# ----- helpers ------------------------------------------------------------------------------------------------
def _dice_set(value) -> tuple[int, ...]:
    """The dice set from the option's text or a typed sequence of sides, sorted without repeats."""
    sides = parse_dice(value, "rule option dice") if isinstance(value, str) else tuple(value)
    if not sides or not all(isinstance(s, int) and not isinstance(s, bool) and 2 <= s <= 9999 for s in sides):
        raise GameError(f"rule option dice needs dice of 2 to 9999 sides, not {shorten(army_text(sides) or '-')}")
    return tuple(sorted(set(sides)))


def _next_unrolled(state: DicegeddonState):
    for p in (0, 1):
        for i, d in enumerate(state.dice[p]):
            if d[1] == 0:
                return p, i
    return None


def _set_die(state: DicegeddonState, p: int, i: int, die: Die) -> DicegeddonState:
    side = state.dice[p]
    side = side[:i] + (die,) + side[i + 1:]
    dice = (side, state.dice[1]) if p == 0 else (state.dice[0], side)
    return state._replace(dice=dice)


def _used(die: Die, face: int) -> Die:
    return Die(die[0], face, die[2], True, -1)


def _with_face(die: Die, face: int) -> Die:
    return Die(die[0], face, die[2], die[3], die[4])


def _remove_die(state: DicegeddonState, p: int, j: int) -> DicegeddonState:
    """Discard die j of player p; defends indices above j shift down (nothing defends j: it was
    attackable; if j defended a die, that defence simply ends)."""
    side = []
    for k, d in enumerate(state.dice[p]):
        if k == j:
            continue
        target = d[4]
        if target == j:
            target = -1
        elif target > j:
            target -= 1
        side.append(Die(d[0], d[1], d[2], d[3], target))
    kept = tuple(side)
    dice = (kept, state.dice[1]) if p == 0 else (state.dice[0], kept)
    return state._replace(dice=dice)


def _begin_turn(state: DicegeddonState, player: int) -> DicegeddonState:
    """``player`` starts a turn: their dice become unused and their defences end."""
    side = tuple(Die(d[0], d[1], d[2], False, -1) for d in state.dice[player])
    dice = (side, state.dice[1]) if player == 0 else (state.dice[0], side)
    return state._replace(dice=dice, mover=player, phase=STEP, pending=())


def _after_step(state: DicegeddonState) -> DicegeddonState:
    """Back to the mover's next step, or the opponent's turn once every active die is used."""
    me = state.mover
    if any(d[2] == ACTIVE and not d[3] for d in state.dice[me]):
        return state._replace(phase=STEP, pending=())
    return _begin_turn(state, 1 - me)


# ----- a canonical order of dice (for exact solves of whole armies) ---------------------------------------------
def canonical(state: DicegeddonState) -> DicegeddonState:
    """The same position with each player's dice in a sorted order (defences and pending indices
    renumbered). Positions that differ only in the order of dice then coincide; values and
    strategies are the same up to that renumbering. Opening rolls (phase setup) keep their order."""
    if state.phase == SETUP:
        return state
    perms = []
    sides = []
    for side in state.dice:
        defenders = [0] * len(side)
        for d in side:
            if d[4] >= 0:
                defenders[d[4]] += 1
        order = sorted(range(len(side)), key=lambda k: (side[k][:4], defenders[k], side[k][4] >= 0))
        new_index = {old: new for new, old in enumerate(order)}
        perms.append(new_index)
        sides.append(tuple(
            Die(*side[k][:4], new_index[side[k][4]] if side[k][4] >= 0 else -1) for k in order
        ))
    pending = state.pending
    me = state.mover
    if state.phase == ATTACK:
        pending = (perms[me][pending[0]], perms[1 - me][pending[1]])
    elif state.phase == RECRUIT:
        pending = (perms[me][pending[0]], perms[me][pending[1]])
    elif pending:
        pending = (perms[me][pending[0]],)
    return state._replace(dice=(sides[0], sides[1]), pending=pending)
