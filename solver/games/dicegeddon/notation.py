"""Dicegeddon position strings: parse, validate, and write the canonical form.

See :data:`NOTATION_HELP` (also printed by ``dicetree notation dicegeddon``).
"""

from __future__ import annotations

import re

from solver.game import PositionError
from solver.games.dicegeddon.rules import (
    ACTIVE, ATTACK, DEFEND, KEEP, OVER, PLACE, RECRUIT, REROLL, RESERVE, ROLLOFF, SETUP, STEP,
    GeddonState, attackable,
)

NOTATION_HELP = """\
Dicegeddon position notation (space-separated fields; the one in [] is optional):

  <A dice>/<B dice> <mover> <army size> [<phase>]

  dice       comma-separated dice of a player in a fixed order (1, 2, 3, ... as moves name them),
             - for none. A die is d<sides>:<face><zone>[*][>k]:
               zone  a (active) or r (reserve)
               *     used this turn (active dice only)
               >k    stands in front of (defends) the same player's die number k
             e.g. d6:5a (active, unused), d8:3a*>1 (used, defending die 1), d10:7r (reserve).
             Before the opening roll a die not rolled yet is d<sides>:? (phase setup).
  mover      a or b: whose turn it is; - in the phases setup, rolloff, won and draw
  army size  the most sides a player's army may have (every player's dice fit in it)
  phase      what happens next                                                        (default -)
               -            the mover chooses the next step (which die, which use, which target)
               attack:2>1   chance: the mover's die 2 rolls (exploding) against the opponent's die 1
               recruit:2>3  chance: the mover's die 2 rolls (exploding) for the mover's reserve die 3
               defend:2     chance: die 2's first defence roll (its face so far is the old one)
               keep:2       the mover keeps die 2's defence roll or re-rolls it once
               reroll:2     chance: die 2's second defence roll
               place:2      the mover places die 2: alone, or in front of a used active die
               setup        chance: the next unrolled die is rolled (A's dice first, in order)
               rolloff      chance: equal active totals, a roll-off decides who moves first
               won:a        A won (B has no active die); won:b likewise; draw (nobody has one)

Moves: A2>1 (attack their die 1 with my die 2), R2>3 (recruit my reserve die 3 with die 2),
  D2 (defend with die 2), keep / reroll, alone / front3 (place in front of my die 3).
Chance outcomes: hit:3 / miss:3 (attack, die ends on 3), +4:2 (recruit climbs 4, die ends on 2),
  =5 (a defence roll), a2=4 (opening roll of A's die 2), a first (roll-off).

Examples:
  d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20
      A to move with an active d4 and d6 and a reserve d10 showing 7.
  d6:2a*,d4:4a*>1/d8:7a b 20
      B to move; A's d4 (showing 4) stands in front of A's used d6.
  d4:?,d6:?/d6:?,d8:? - 20 setup
      The opening roll.
"""

_DIE = re.compile(r"d([0-9]{1,4}):(\?|[0-9]{1,4})([ar]?)(\*?)(?:>([0-9]{1,4}))?$")
_PAIR = re.compile(r"(attack|recruit):([0-9]{1,4})>([0-9]{1,4})$")
_ONE = re.compile(r"(defend|keep|reroll|place):([0-9]{1,4})$")


def parse_position(text: str, game) -> GeddonState:
    """Parse and validate a position string; :class:`PositionError` says precisely what is wrong."""
    fields = text.split()
    if len(fields) < 3:
        raise PositionError(
            f"a Dicegeddon position needs at least 3 fields (dice, mover, army size), got {len(fields)}: '{text}'"
        )
    if len(fields) > 4:
        raise PositionError(f"unknown field '{fields[4]}': a position has at most 4 fields")
    dice_f, mover_f, size_f = fields[:3]
    phase_f = fields[3] if len(fields) == 4 else "-"
    if not size_f.isdigit() or len(size_f) > 6 or int(size_f) < 2:
        raise PositionError(f"army size must be a whole number from 2, got '{size_f}'")
    army_size = int(size_f)
    halves = dice_f.split("/")
    if len(halves) != 2:
        raise PositionError(f"dice field must be '<A dice>/<B dice>', got '{dice_f}'")
    dice = tuple(_dice(h, "AB"[p], game, army_size) for p, h in enumerate(halves))
    phase, pending, winner = _phase(phase_f)
    unrolled = any(d[1] == 0 for side in dice for d in side)
    if unrolled and phase != SETUP:
        raise PositionError("a die shows ? (not rolled yet) but the phase is not setup")
    if phase == SETUP and not unrolled:
        raise PositionError("phase setup needs a die not rolled yet (d<sides>:?)")
    if phase in (SETUP, ROLLOFF, OVER):
        if mover_f != "-":
            raise PositionError(f"the mover is - in phase {phase_f} (nobody has a turn), got '{mover_f}'")
        mover = 0
    else:
        if mover_f not in ("a", "b"):
            raise PositionError(f"mover must be 'a' or 'b', got '{mover_f}'")
        mover = "ab".index(mover_f)
    state = GeddonState(dice, mover, phase, pending, winner, army_size)
    _check(state, game)
    return state


def format_position(state: GeddonState) -> str:
    """The canonical position string of ``state``."""
    dice = "/".join(",".join(_die_text(d) for d in side) or "-" for side in state.dice)
    phase = state.phase
    mover = "-" if phase in (SETUP, ROLLOFF, OVER) else "ab"[state.mover]
    fields = [dice, mover, str(state.army_size)]
    if phase == STEP:
        pass
    elif phase in (ATTACK, RECRUIT):
        fields.append(f"{phase}:{state.pending[0] + 1}>{state.pending[1] + 1}")
    elif phase in (DEFEND, KEEP, REROLL, PLACE):
        fields.append(f"{phase}:{state.pending[0] + 1}")
    elif phase == OVER:
        fields.append("draw" if state.winner == 2 else f"won:{'ab'[state.winner]}")
    else:
        fields.append(phase)
    return " ".join(fields)


def _die_text(d) -> str:
    sides, face, zone, used, defends = d
    if face == 0:
        return f"d{sides}:?"
    return f"d{sides}:{face}{'a' if zone == ACTIVE else 'r'}{'*' if used else ''}" + (
        f">{defends + 1}" if defends >= 0 else ""
    )


def _dice(text: str, player: str, game, army_size: int) -> tuple:
    if text == "-":
        return ()
    if not text:
        raise PositionError(f"{player}'s dice are written as nothing: write - for no dice")
    out = []
    for n, token in enumerate(text.split(","), 1):
        m = _DIE.match(token)
        if not m:
            raise PositionError(
                f"{player}'s die {n} '{token}' is not of the form d<sides>:<face><a|r>[*][>k], e.g. d6:5a"
            )
        sides = int(m.group(1))
        if sides not in game.dice:
            raise PositionError(
                f"{player}'s die {n} is a d{sides}: the dice set is {', '.join(f'd{s}' for s in game.dice)}"
            )
        if m.group(2) == "?":
            if m.group(3) or m.group(4) or m.group(5):
                raise PositionError(f"{player}'s die {n} '{token}' is not rolled yet: write it as d{sides}:? alone")
            out.append((sides, 0, RESERVE, False, -1))
            continue
        face = int(m.group(2))
        if not 1 <= face <= sides:
            raise PositionError(f"{player}'s die {n} (d{sides}) cannot show {face}: its faces are 1 to {sides}")
        if not m.group(3):
            raise PositionError(f"{player}'s die {n} '{token}' needs a zone after its face: a (active) or r (reserve)")
        zone = ACTIVE if m.group(3) == "a" else RESERVE
        used = bool(m.group(4))
        defends = int(m.group(5)) - 1 if m.group(5) else -1
        if zone == RESERVE:
            if face == sides:
                raise PositionError(
                    f"{player}'s reserve die {n} (d{sides}) shows its top face {sides}: it would be active"
                )
            if used:
                raise PositionError(f"{player}'s reserve die {n} is marked used (*): only active dice are used")
            if defends >= 0:
                raise PositionError(f"{player}'s reserve die {n} defends a die: only active dice defend")
        out.append((sides, face, zone, used, defends))
    total = sum(d[0] for d in out)
    if total > army_size:
        raise PositionError(f"{player}'s dice have {total} sides: more than the army size {army_size}")
    for n, d in enumerate(out, 1):
        k = d[4]
        if k < 0:
            continue
        if k >= len(out):
            raise PositionError(f"{player}'s die {n} defends die {k + 1}, but {player} has {len(out)} dice")
        if k == n - 1:
            raise PositionError(f"{player}'s die {n} defends itself")
        if not d[3]:
            raise PositionError(f"{player}'s die {n} defends die {k + 1} but is not used (*): defending uses it")
        target = out[k]
        if target[2] != ACTIVE or not target[3]:
            raise PositionError(
                f"{player}'s die {n} defends die {k + 1}, which is not a used active die: only those can be defended"
            )
    # no cycles: follow each chain
    for n in range(len(out)):
        seen = set()
        k = n
        while k >= 0:
            if k in seen:
                raise PositionError(f"{player}'s defences form a cycle through die {n + 1}")
            seen.add(k)
            k = out[k][4]
    return tuple(out)


def _phase(token: str):
    """(phase, pending, winner)."""
    if token == "-":
        return STEP, (), -1
    if token in ("setup", "rolloff"):
        return token, (), -1
    if token == "draw":
        return OVER, (), 2
    if token in ("won:a", "won:b"):
        return OVER, (), "ab".index(token[-1])
    m = _PAIR.match(token)
    if m:
        return m.group(1), (int(m.group(2)) - 1, int(m.group(3)) - 1), -1
    m = _ONE.match(token)
    if m:
        return m.group(1), (int(m.group(2)) - 1,), -1
    raise PositionError(
        f"unknown phase '{token}': use -, attack:i>j, recruit:i>j, defend:i, keep:i, reroll:i, place:i, "
        "setup, rolloff, won:a, won:b or draw"
    )


def _check(state: GeddonState, game) -> None:
    dice = state.dice
    phase = state.phase
    active = [sum(1 for d in side if d[2] == ACTIVE) for side in dice]
    if not game.several_defenders:
        for p, side in enumerate(dice):
            targets = [d[4] for d in side if d[4] >= 0]
            for k in set(targets):
                if targets.count(k) > 1:
                    raise PositionError(
                        f"{'AB'[p]}'s die {k + 1} has {targets.count(k)} defenders: one at most "
                        "(several only with the several_defenders variant)"
                    )
    if not game.chains:
        for p, side in enumerate(dice):
            for n, d in enumerate(side, 1):
                if d[4] >= 0 and side[d[4]][4] >= 0:
                    raise PositionError(
                        f"{'AB'[p]}'s die {n} defends die {d[4] + 1}, itself a defender: no chains of "
                        "defenders with chains=false"
                    )
    if phase in (SETUP, ROLLOFF):
        for p, side in enumerate(dice):
            for n, d in enumerate(side, 1):
                if d[3] or d[4] >= 0:
                    raise PositionError(f"{'AB'[p]}'s die {n} is used or defends before the first turn ({phase})")
                if d[1] and (d[2] == ACTIVE) != (d[1] >= d[0] - 1):
                    raise PositionError(
                        f"{'AB'[p]}'s die {n} (d{d[0]} showing {d[1]}) is in the wrong zone for an opening roll: "
                        "a die is active exactly when it shows its top face or one below"
                    )
        if phase == SETUP:
            order = [d[1] == 0 for side in dice for d in side]
            if order != sorted(order):
                raise PositionError("opening rolls go in order, A's dice then B's: a rolled die follows an unrolled one")
            if not any(len(side) for side in dice) or not all(dice):
                raise PositionError("each player needs at least one die for the opening roll")
        else:
            totals = [sum(d[1] for d in side if d[2] == ACTIVE) for side in dice]
            if not all(active):
                raise PositionError("a roll-off needs active dice on both sides")
            if totals[0] != totals[1]:
                raise PositionError(f"a roll-off needs equal active totals, got {totals[0]} and {totals[1]}")
        return
    if phase == OVER:
        if state.winner == 2:
            if any(active):
                raise PositionError("a draw means neither player has an active die")
            return
        loser = 1 - state.winner
        if active[loser]:
            raise PositionError(f"{'ab'[state.winner]} won, but {'AB'[loser]} still has an active die")
        if not active[state.winner]:
            raise PositionError(f"{'ab'[state.winner]} won but has no active die either: write draw")
        return
    me = state.mover
    for p in (0, 1):
        if not active[p]:
            raise PositionError(
                f"{'AB'[p]} has no active die: the game is over (write won:{'ab'[1 - p]})"
            )
    mine, theirs = dice[me], dice[1 - me]
    unused = [i for i, d in enumerate(mine) if d[2] == ACTIVE and not d[3]]
    if not unused:
        raise PositionError(
            f"{'AB'[me]} has no unused active die: the turn would have passed to {'AB'[1 - me]}"
        )
    name = "AB"[me]

    def mover_unused(i: int, what: str) -> None:
        if not 0 <= i < len(mine):
            raise PositionError(f"phase names {name}'s die {i + 1} {what}, but {name} has {len(mine)} dice")
        if i not in unused:
            raise PositionError(f"phase names {name}'s die {i + 1} {what}: it must be active and unused")

    if phase in (ATTACK, RECRUIT):
        i, j = state.pending
        mover_unused(i, f"to {phase} with")
        if phase == ATTACK:
            if not 0 <= j < len(theirs) or j not in attackable(theirs):
                raise PositionError(
                    f"{name}'s die {i + 1} cannot attack the opponent's die {j + 1}: "
                    "only an active die with no defender in front of it can be attacked"
                )
        else:
            if not 0 <= j < len(mine) or mine[j][2] != RESERVE:
                raise PositionError(f"{name}'s die {j + 1} cannot be recruited: only a reserve die can")
    elif phase in (DEFEND, KEEP, REROLL, PLACE):
        mover_unused(state.pending[0], "to defend with")
