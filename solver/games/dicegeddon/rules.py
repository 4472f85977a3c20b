"""Dicegeddon (Richard Garfield, 2024): the rules on the :mod:`solver.game` interface.

Rules text: ``shared/rules/dicegeddon.txt``. Two players, each with an army of dice whose sides add
up to no more than the army size, battle until one has no active die left.

The model
---------
* **Armies** are parameters: :meth:`Dicegeddon.start` takes each player's list of sides (checked
  against ``army_size`` and the allowed ``dice``, by default d4, d6, d8, d10, d12, d20).
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
   one opposing turn).
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

States are :class:`GeddonState` values: per player a tuple of dice ``(sides, face, zone, used,
defends)`` (zone ACTIVE/RESERVE, face 0 = not rolled yet, defends = index of the own die it stands
in front of, or -1), the mover, the phase with its pending data, the winner and the army size.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from solver.game import CHANCE, TERMINAL, Game, GameError, GameType, ValueBounds
from solver.rule_options import RuleOption

RESERVE, ACTIVE = 0, 1
DEFAULT_DICE = (4, 6, 8, 10, 12, 20)

# phases
SETUP = "setup"  # chance: roll the next unrolled die
ROLLOFF = "rolloff"  # chance: who moves first after a tie
STEP = "step"  # mover chooses the next die's use
ATTACK = "attack"  # chance: pending (i, j)
RECRUIT = "recruit"  # chance: pending (i, j)
DEFEND = "defend"  # chance: first defence roll of pending (i,)
REROLL = "reroll"  # chance: second defence roll of pending (i,)
KEEP = "keep"  # mover: keep or re-roll die pending (i,)
PLACE = "place"  # mover: place die pending (i,)
OVER = "over"  # winner: 0, 1 or 2 (draw)

CHANCE_PHASES = frozenset({SETUP, ROLLOFF, ATTACK, RECRUIT, DEFEND, REROLL})

Die = tuple  # (sides, face, zone, used, defends)


class GeddonState(NamedTuple):
    dice: tuple  # (A's dice, B's dice), each a tuple of Die
    mover: int
    phase: str
    pending: tuple
    winner: int  # -1 while playing; 0, 1, or 2 for a draw
    army_size: int


# ----- exploding rolls -------------------------------------------------------------------------------
def _tail(sides: int, k0: int) -> Fraction:
    """P(at least k0 top faces, then a given non-top face r) = sum_{k>=k0} s^-(k+1)."""
    return Fraction(1, sides**k0 * (sides - 1)) if k0 >= 0 else Fraction(0)


@lru_cache(maxsize=None)
def attack_outcomes(sides: int, target: int) -> tuple:
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


@lru_cache(maxsize=None)
def recruit_outcomes(sides: int, need: int) -> tuple:
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


# ----- the game ------------------------------------------------------------------------------------------
def _parse_bool(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise GameError(f"rule option {name} must be true or false, not '{value}'")


def parse_army(text: str) -> tuple[int, ...]:
    """'d4,d6,d10' or '4,6,10' -> (4, 6, 10)."""
    sides = []
    for token in str(text).split(","):
        token = token.strip().lower().removeprefix("d")
        if not token.isdigit() or len(token) > 4:
            raise GameError(f"an army is a comma-separated list of dice like d4,d6,d10, not '{text}'")
        sides.append(int(token))
    return tuple(sides)


class Dicegeddon(Game):
    """Dicegeddon with fixed options.

    ``army_size`` (default 20), ``dice`` (allowed sides), ``several_defenders`` and ``mulligan``
    (the variations), ``chains`` (may a defender be defended: interpretation 3), ``armies`` ("d4,d6/d6,d8": the armies :meth:`new_match` starts with; default
    the same d4,d6,d10 for both, which must fit the army size).
    """

    game_type = GameType(short_name="dicegeddon", long_name="Dicegeddon", constant_sum=1.0, study="army study")
    rule_options = (
        RuleOption("army_size", "int", 20, "the most sides an army may have in all", low=2, high=1000),
        RuleOption("dice", "text", "d4,d6,d8,d10,d12,d20", "the dice an army may be built from, e.g. d4,d6,d8"),
        RuleOption("several_defenders", "bool", False, "the variation: several dice may defend one"),
        RuleOption("mulligan", "bool", False, "the mulligan variation (see the game's rules module)"),
        RuleOption("armies", "text", None, "the armies a new game starts with, as A/B, e.g. d4,d6/d6,d8"),
        RuleOption("chains", "bool", True, "may a defender itself be defended (false: the designer's note)"),
    )
    num_players = 2

    def __init__(self, army_size=20, dice=DEFAULT_DICE, several_defenders=False, mulligan=False, armies=None,
                 chains=True):
        try:
            self.army_size = int(army_size)
        except (TypeError, ValueError):
            raise GameError(f"army_size must be a whole number, not '{army_size}'") from None
        if self.army_size < 2:
            raise GameError(f"army_size must be at least 2, not {self.army_size}")
        self.dice = tuple(sorted(set(parse_army(dice) if isinstance(dice, str) else (int(d) for d in dice))))
        if not self.dice or min(self.dice) < 2:
            raise GameError("the dice set needs dice of at least 2 sides")
        self.several_defenders = _parse_bool(several_defenders, "several_defenders")
        self.mulligan = _parse_bool(mulligan, "mulligan")
        self.chains = _parse_bool(chains, "chains")
        if armies is None:
            armies = "d4,d6,d10/d4,d6,d10" if self.army_size >= 20 else "/".join([self._smallest_army()] * 2)
        halves = str(armies).split("/") if isinstance(armies, str) else list(armies)
        if len(halves) != 2:
            raise GameError(f"armies must be '<A army>/<B army>', e.g. d4,d6/d6,d8, not '{armies}'")
        self.armies = tuple(parse_army(h) if isinstance(h, str) else tuple(h) for h in halves)
        for army in self.armies:
            self.check_army(army)

    def study(self):
        from solver.games.dicegeddon.armies import DicegeddonStudy

        return DicegeddonStudy()

    def _smallest_army(self) -> str:
        return f"d{self.dice[0]}"

    def __repr__(self) -> str:
        return (f"Dicegeddon(army_size={self.army_size}, several_defenders={self.several_defenders}, "
                f"mulligan={self.mulligan}, chains={self.chains})")

    def check_army(self, army) -> None:
        if not army:
            raise GameError("an army needs at least one die")
        for sides in army:
            if sides not in self.dice:
                raise GameError(f"d{sides} is not in the dice set ({', '.join(f'd{d}' for d in self.dice)})")
        if sum(army) > self.army_size:
            raise GameError(f"the army {','.join(f'd{s}' for s in army)} has {sum(army)} sides: "
                            f"more than the army size {self.army_size}")

    # ----- starting -----------------------------------------------------------------------------------
    def start(self, army_a, army_b) -> GeddonState:
        """The state before the opening roll of two armies (lists of sides)."""
        for army in (army_a, army_b):
            self.check_army(tuple(army))
        dice = tuple(tuple((s, 0, RESERVE, False, -1) for s in army) for army in (army_a, army_b))
        return GeddonState(dice, 0, SETUP, (), -1, self.army_size)

    def new_game(self, rng: random.Random | None = None) -> GeddonState:
        """The opening of the configured armies (chance rolls them: ``rng`` is not needed)."""
        return self.new_match(rng)

    def new_match(self, rng: random.Random | None = None, **_) -> GeddonState:
        """The opening of the configured armies, all dice unrolled (chance rolls them)."""
        return self.start(*self.armies)

    def battle(self, army_a, army_b, mover: int = 0) -> GeddonState:
        """A battle where every die is active and unused (faces given): ``army`` = [(sides, face)]."""
        dice = tuple(tuple((s, f, ACTIVE, False, -1) for s, f in army) for army in (army_a, army_b))
        return GeddonState(dice, mover, STEP, (), -1, self.army_size)

    # ----- whose turn ------------------------------------------------------------------------------------
    def current_player(self, state: GeddonState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.phase in CHANCE_PHASES:
            return CHANCE
        return state.mover

    def legal_actions(self, state: GeddonState) -> list[tuple]:
        phase = state.phase
        me = state.mover
        mine = state.dice[me]
        if phase == STEP:
            actions = []
            theirs = state.dice[1 - me]
            targets = attackable(theirs)
            reserve = [j for j, d in enumerate(mine) if d[2] == RESERVE]
            for i, d in enumerate(mine):
                if d[2] != ACTIVE or d[3]:
                    continue
                actions += [("A", i, j) for j in targets]
                actions += [("R", i, j) for j in reserve]
                actions.append(("D", i))
            return actions
        if phase == KEEP:
            return [("keep",), ("reroll",)]
        if phase == PLACE:
            i = state.pending[0]
            defended = {d[4] for d in mine if d[4] >= 0}
            spots = [
                j for j, d in enumerate(mine)
                if j != i and d[2] == ACTIVE and d[3] and (self.several_defenders or j not in defended)
                and (self.chains or d[4] < 0)
            ]
            return [("P", -1)] + [("P", j) for j in spots]
        return []

    def action_name(self, state: GeddonState, action) -> str:
        name = _ACTION_NAMES.get(action[0])
        if name is None:
            raise GameError(f"unknown action {action!r}")
        return name(action)

    # ----- chance --------------------------------------------------------------------------------------
    def exact_outcomes(self, state: GeddonState) -> list[tuple[tuple, Fraction]]:
        """The chance outcomes with exact Fraction probabilities (sum 1)."""
        phase = state.phase
        if phase == SETUP:
            p, i = _next_unrolled(state)
            sides = state.dice[p][i][0]
            return [(("setup", p, i, f), Fraction(1, sides)) for f in range(1, sides + 1)]
        if phase == ROLLOFF:
            return [(("first", 0), Fraction(1, 2)), (("first", 1), Fraction(1, 2))]
        me = state.mover
        if phase == ATTACK:
            i, j = state.pending
            sides = state.dice[me][i][0]
            target = state.dice[1 - me][j][1]
            return [(("hit", hit, face), p) for (hit, face), p in attack_outcomes(sides, target)]
        if phase == RECRUIT:
            i, j = state.pending
            sides = state.dice[me][i][0]
            r_sides, r_face = state.dice[me][j][:2]
            return [(("climb", c, face), p) for (c, face), p in recruit_outcomes(sides, r_sides - r_face)]
        if phase in (DEFEND, REROLL):
            sides = state.dice[me][state.pending[0]][0]
            return [(("roll", f), Fraction(1, sides)) for f in range(1, sides + 1)]
        return []

    def chance_outcomes(self, state: GeddonState):
        return [(o, float(p)) for o, p in self.exact_outcomes(state)]

    def chance_outcome_count(self, state: GeddonState) -> int:
        return len(self.exact_outcomes(state))

    # ----- transitions ---------------------------------------------------------------------------------
    def apply(self, state: GeddonState, action) -> GeddonState:
        phase = state.phase
        kind = action[0]
        me = state.mover
        if phase == SETUP and kind == "setup":
            _, p, i, face = action
            sides = state.dice[p][i][0]
            die = (sides, face, ACTIVE if face >= sides - 1 else RESERVE, False, -1)
            state = _set_die(state, p, i, die)
            if _next_unrolled(state) is None:
                return self._resolve_start(state)
            return state
        if phase == ROLLOFF and kind == "first":
            return _begin_turn(state._replace(phase=STEP, pending=()), action[1])
        if phase == STEP:
            if kind == "A":
                return state._replace(phase=ATTACK, pending=(action[1], action[2]))
            if kind == "R":
                return state._replace(phase=RECRUIT, pending=(action[1], action[2]))
            if kind == "D":
                return state._replace(phase=DEFEND, pending=(action[1],))
        if phase == ATTACK and kind == "hit":
            i, j = state.pending
            _, hit, face = action
            state = _set_die(state, me, i, _used(state.dice[me][i], face))
            if hit:
                state = _remove_die(state, 1 - me, j)
                if not any(d[2] == ACTIVE for d in state.dice[1 - me]):
                    return state._replace(phase=OVER, pending=(), winner=me, mover=0)
            return _after_step(state)
        if phase == RECRUIT and kind == "climb":
            i, j = state.pending
            _, climb, face = action
            state = _set_die(state, me, i, _used(state.dice[me][i], face))
            r = state.dice[me][j]
            new_face = r[1] + climb
            if new_face >= r[0]:
                r = (r[0], r[0], ACTIVE, True, -1)
            else:
                r = (r[0], new_face, RESERVE, False, -1)
            return _after_step(_set_die(state, me, j, r))
        if phase == DEFEND and kind == "roll":
            i = state.pending[0]
            state = _set_die(state, me, i, _with_face(state.dice[me][i], action[1]))
            return state._replace(phase=KEEP)
        if phase == KEEP:
            if kind == "keep":
                return state._replace(phase=PLACE)
            if kind == "reroll":
                return state._replace(phase=REROLL)
        if phase == REROLL and kind == "roll":
            i = state.pending[0]
            state = _set_die(state, me, i, _with_face(state.dice[me][i], action[1]))
            return state._replace(phase=PLACE)
        if phase == PLACE and kind == "P":
            i = state.pending[0]
            d = state.dice[me][i]
            state = _set_die(state, me, i, (d[0], d[1], ACTIVE, True, action[1]))
            return _after_step(state)
        raise GameError(f"action {action!r} does not apply in phase {phase}")

    def _resolve_start(self, state: GeddonState) -> GeddonState:
        active = [[d for d in side if d[2] == ACTIVE] for side in state.dice]
        empty = [not a for a in active]
        if any(empty):
            if self.mulligan:
                dice = tuple(tuple((d[0], 0, RESERVE, False, -1) for d in side) for side in state.dice)
                return state._replace(dice=dice, phase=SETUP, pending=(), mover=0)
            winner = 2 if all(empty) else (1 if empty[0] else 0)
            return state._replace(phase=OVER, winner=winner, mover=0)
        totals = [sum(d[1] for d in a) for a in active]
        if totals[0] == totals[1]:
            return state._replace(phase=ROLLOFF, mover=0)
        first = 0 if totals[0] < totals[1] else 1
        return _begin_turn(state._replace(phase=STEP), first)

    def returns(self, state: GeddonState) -> tuple[float, float]:
        if state.winner == 2:
            return (0.5, 0.5)
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(0.0, 1.0)

    def describe_value(self) -> str:
        return "probability of winning the battle (a draw counts 1/2)"

    # ----- notation ------------------------------------------------------------------------------------
    def parse(self, text: str) -> GeddonState:
        from solver.games.dicegeddon.notation import parse_position

        return parse_position(text, self)

    def format(self, state: GeddonState) -> str:
        from solver.games.dicegeddon.notation import format_position

        return format_position(state)

    def notation_help(self) -> str:
        from solver.games.dicegeddon.notation import NOTATION_HELP

        return NOTATION_HELP

    def example_position(self) -> str:
        return "d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20"

    # ----- search support --------------------------------------------------------------------------------
    def evaluate(self, state: GeddonState, player: int) -> float:
        """A logistic model of the win fitted to exact values: see :mod:`solver.games.dicegeddon.evaluation`."""
        from solver.games.dicegeddon.evaluation import evaluate

        return evaluate(state, player)


# ----- helpers ------------------------------------------------------------------------------------------------
_ACTION_NAMES = {  # how each kind of move (first five) and chance outcome (the rest) is written
    "A": lambda a: f"A{a[1] + 1}>{a[2] + 1}",
    "R": lambda a: f"R{a[1] + 1}>{a[2] + 1}",
    "D": lambda a: f"D{a[1] + 1}",
    "keep": lambda a: "keep",
    "reroll": lambda a: "reroll",
    "P": lambda a: "alone" if a[1] < 0 else f"front{a[1] + 1}",
    "setup": lambda a: f"{'ab'[a[1]]}{a[2] + 1}={a[3]}",
    "first": lambda a: f"{'ab'[a[1]]} first",
    "hit": lambda a: f"{'hit' if a[1] else 'miss'}:{a[2]}",
    "climb": lambda a: f"+{a[1]}:{a[2]}",
    "roll": lambda a: f"={a[1]}",
}


def attackable(dice) -> list[int]:
    """Indices of active dice with no defender in front of them."""
    defended = {d[4] for d in dice if d[4] >= 0}
    return [j for j, d in enumerate(dice) if d[2] == ACTIVE and j not in defended]


def _next_unrolled(state: GeddonState):
    for p in (0, 1):
        for i, d in enumerate(state.dice[p]):
            if d[1] == 0:
                return p, i
    return None


def _set_die(state: GeddonState, p: int, i: int, die) -> GeddonState:
    side = state.dice[p]
    side = side[:i] + (die,) + side[i + 1:]
    dice = (side, state.dice[1]) if p == 0 else (state.dice[0], side)
    return state._replace(dice=dice)


def _used(die, face):
    return (die[0], face, die[2], True, -1)


def _with_face(die, face):
    return (die[0], face, die[2], die[3], die[4])


def _remove_die(state: GeddonState, p: int, j: int) -> GeddonState:
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
        side.append((d[0], d[1], d[2], d[3], target))
    side = tuple(side)
    dice = (side, state.dice[1]) if p == 0 else (state.dice[0], side)
    return state._replace(dice=dice)


def _begin_turn(state: GeddonState, player: int) -> GeddonState:
    """``player`` starts a turn: their dice become unused and their defences end."""
    side = tuple((d[0], d[1], d[2], False, -1) for d in state.dice[player])
    dice = (side, state.dice[1]) if player == 0 else (state.dice[0], side)
    return state._replace(dice=dice, mover=player, phase=STEP, pending=())


def _after_step(state: GeddonState) -> GeddonState:
    """Back to the mover's next step, or the opponent's turn once every active die is used."""
    me = state.mover
    if any(d[2] == ACTIVE and not d[3] for d in state.dice[me]):
        return state._replace(phase=STEP, pending=())
    return _begin_turn(state, 1 - me)


# ----- a canonical order of dice (for exact solves of whole armies) ---------------------------------------------
def canonical(state: GeddonState) -> GeddonState:
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
            (*side[k][:4], new_index[side[k][4]] if side[k][4] >= 0 else -1) for k in order
        ))
    pending = state.pending
    me = state.mover
    if state.phase == ATTACK:
        pending = (perms[me][pending[0]], perms[1 - me][pending[1]])
    elif state.phase == RECRUIT:
        pending = (perms[me][pending[0]], perms[me][pending[1]])
    elif pending:
        pending = (perms[me][pending[0]],)
    return state._replace(dice=tuple(sides), pending=pending)


class CanonicalDicegeddon(Dicegeddon):
    """Dicegeddon whose states are kept in :func:`canonical` order after every move: fewer states
    for :func:`solver.exact.solve` of whole armies (die numbers change from move to move, so this
    is for solving, not for play)."""

    def apply(self, state: GeddonState, action) -> GeddonState:
        return canonical(super().apply(state, action))
