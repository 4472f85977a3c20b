"""Dicegeddon position strings: parse, validate, and write the canonical form; the names of moves.

See :data:`NOTATION_HELP` (also printed by ``dicetree notation dicegeddon``). A position is read
against a configured game (its dice set, army size and variants), and only in its canonical form:
``format_position(parse_position(text, game), game) == text`` for every accepted ``text``.

>>> from dicetree.solver.games.dicegeddon import Dicegeddon
>>> game = Dicegeddon()
>>> state = parse_position("d4:3a,d6:5a/d6:6a a 20", game)
>>> state.dice[0][1], format_position(state, game)
(Die(sides=6, face=5, zone=1, used=False, defends=-1), 'd4:3a,d6:5a/d6:6a a 20')
>>> parse_position("d4:03a/d6:6a a 20", game)
Traceback (most recent call last):
...
dicetree.solver.game.PositionError: A's die 1 is written 'd4:03a': the canonical form is d4:3a (no leading zeros)
"""

from __future__ import annotations

import re

from dicetree.solver.game import GameError, PositionError
from dicetree.solver.games.dicegeddon.rules import attackable
from dicetree.solver.games.dicegeddon.state import (
    ACTIVE, ATTACK, DEFEND, KEEP, OVER, PHASE_NAMES, PLACE, RECRUIT, REROLL, RESERVE, ROLLOFF, SETUP, STEP,
    DicegeddonState, Die,
)
from dicetree.solver.players import not_a_player, player_seat
from dicetree.solver.rule_options import shorten

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
             Numbers have no leading zeros. The player not on move shows only used active
             dice (their turn used every one) or, before their first turn, only unused ones.
  mover      a or b: whose turn it is; - in the phases setup, rolloff, won and draw
  army size  the most sides a player's army may have (every player's dice fit in it): the
             game's rule option army_size (default 20; --rule army_size=N for another)
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

_NUMBER = "[0-9]{1,4}"
_DIE = re.compile(rf"d({_NUMBER}):(\?|{_NUMBER})([ar]?)(\*?)(?:>({_NUMBER}))?$")
_PAIR = re.compile(rf"(attack|recruit):({_NUMBER})>({_NUMBER})$")
_ONE = re.compile(rf"(defend|keep|reroll|place):({_NUMBER})$")
_NOBODY_MOVES = (SETUP, ROLLOFF, OVER)


def notation_help(game) -> str:
    """The notation's documentation (the same for every configuration of the game)."""
    return NOTATION_HELP


def parse_position(text: str, game) -> DicegeddonState:
    """Parse and validate a position string of ``game``; :class:`PositionError` says precisely what
    is wrong (a very long input is not echoed whole)."""
    fields = text.split()
    if len(fields) < 3:
        raise PositionError(f"a Dicegeddon position needs at least 3 fields (dice, mover, army size), got "
                            f"{len(fields)}: '{shorten(text)}'")
    if len(fields) > 4:
        raise PositionError(f"unknown field '{shorten(fields[4])}': a position has at most 4 fields")
    dice_f, mover_f, size_f = fields[:3]
    phase_f = fields[3] if len(fields) == 4 else "-"
    army_size = _army_size(size_f, game)
    halves = dice_f.split("/")
    if len(halves) != 2:
        raise PositionError(f"dice field must be '<A dice>/<B dice>', got '{shorten(dice_f)}'")
    dice = (_dice(halves[0], "A", game), _dice(halves[1], "B", game))
    phase, pending, winners = _phase(phase_f)
    unrolled = any(d.face == 0 for side in dice for d in side)
    if unrolled and phase != SETUP:
        raise PositionError("a die shows ? (not rolled yet) but the phase is not setup")
    if phase == SETUP and not unrolled:
        raise PositionError("phase setup needs a die not rolled yet (d<sides>:?)")
    if phase in _NOBODY_MOVES:
        if mover_f != "-":
            raise PositionError(f"the mover is - in phase {phase_f} (nobody has a turn), got '{shorten(mover_f)}'")
        mover = 0
    else:
        seat = player_seat(mover_f, 2)  # written a or b; A, B, P1, P2 read too
        if seat is None:
            raise PositionError(not_a_player(shorten(mover_f), 2, "the mover"))
        mover = seat
    state = DicegeddonState(dice, mover, phase, pending, winners, army_size)
    _check(state, game)
    return state


def format_position(state: DicegeddonState, game) -> str:
    """The canonical position string of ``state``."""
    dice = "/".join(",".join(_die_text(d) for d in side) or "-" for side in state.dice)
    mover = "-" if state.phase in _NOBODY_MOVES else "ab"[state.mover]
    fields = [dice, mover, str(state.army_size)]
    if state.phase != STEP:
        fields.append(_phase_text(state.phase, state.pending, state.winners))
    return " ".join(fields)


# ----- names of moves and chance outcomes -------------------------------------------------------------
_ACTION_NAMES = {  # by kind: the moves (first six), then the chance outcomes
    "A": lambda a: f"A{a.die + 1}>{a.target + 1}",
    "R": lambda a: f"R{a.die + 1}>{a.reserve + 1}",
    "D": lambda a: f"D{a.die + 1}",
    "keep": lambda a: "keep",
    "reroll": lambda a: "reroll",
    "P": lambda a: "alone" if a.target < 0 else f"front{a.target + 1}",
    "setup": lambda a: f"{'ab'[a.player]}{a.die + 1}={a.face}",
    "first": lambda a: f"{'ab'[a.first]} first",
    "hit": lambda a: f"{'hit' if a.hit else 'miss'}:{a.face}",
    "climb": lambda a: f"+{a.climb}:{a.face}",
    "roll": lambda a: f"={a.face}",
}


def action_name(state: DicegeddonState, action) -> str:
    """How the notation writes a move or a chance outcome (see :data:`NOTATION_HELP`)."""
    name = _ACTION_NAMES.get(action[-1]) if isinstance(action, tuple) and action else None
    if name is None:
        raise GameError(f"unknown action {shorten(repr(action))}")
    return name(action)


# ----- reading the fields -------------------------------------------------------------------------------
def _army_size(text: str, game) -> int:
    if not re.fullmatch("[0-9]{1,6}", text):
        raise PositionError(f"army size must be a whole number from 2, got '{shorten(text)}'")
    size = int(text)
    if text != str(size):
        raise PositionError(f"army size '{text}' has a leading zero: write {size}")
    if size != game.army_size:
        raise PositionError(f"the position's army size {size} is not the game's ({game.army_size}): write "
                            f"{game.army_size}, or play with the rule option army_size={size}")
    return size


def _die_text(d: Die) -> str:
    if d.face == 0:
        return f"d{d.sides}:?"
    return (f"d{d.sides}:{d.face}{'a' if d.zone == ACTIVE else 'r'}{'*' if d.used else ''}"
            + (f">{d.defends + 1}" if d.defends >= 0 else ""))


def _dice(text: str, player: str, game) -> tuple[Die, ...]:
    if text == "-":
        return ()
    if not text:
        raise PositionError(f"{player}'s dice are written as nothing: write - for no dice")
    out = [_die(token, n, player, game) for n, token in enumerate(text.split(","), 1)]
    total = sum(d.sides for d in out)
    if total > game.army_size:
        raise PositionError(f"{player}'s dice have {total} sides: more than the army size {game.army_size}")
    for n, d in enumerate(out, 1):
        k = d.defends
        if k < 0:
            continue
        if k >= len(out):
            raise PositionError(f"{player}'s die {n} defends die {k + 1}, but {player} has {len(out)} dice")
        if k == n - 1:
            raise PositionError(f"{player}'s die {n} defends itself")
        if not d.used:
            raise PositionError(f"{player}'s die {n} defends die {k + 1} but is not used (*): defending uses it")
        target = out[k]
        if target.zone != ACTIVE or not target.used:
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
            k = out[k].defends
    return tuple(out)


def _die(token: str, n: int, player: str, game) -> Die:
    """Die ``n`` of ``player`` from its token (only the canonical form: no leading zeros)."""
    m = _DIE.match(token)
    if not m:
        raise PositionError(
            f"{player}'s die {n} '{shorten(token)}' is not of the form d<sides>:<face><a|r>[*][>k], e.g. d6:5a"
        )
    sides = int(m.group(1))
    if sides not in game.dice:
        raise PositionError(
            f"{player}'s die {n} is a d{sides}: the dice set is {', '.join(f'd{s}' for s in game.dice)}"
        )
    if m.group(2) == "?":
        if m.group(3) or m.group(4) or m.group(5):
            raise PositionError(f"{player}'s die {n} '{token}' is not rolled yet: write it as d{sides}:? alone")
        die = Die(sides, 0, RESERVE, False, -1)
    else:
        face = int(m.group(2))
        if not 1 <= face <= sides:
            raise PositionError(f"{player}'s die {n} (d{sides}) cannot show {face}: its faces are 1 to {sides}")
        if not m.group(3):
            raise PositionError(f"{player}'s die {n} '{token}' needs a zone after its face: a (active) or r (reserve)")
        if m.group(5) and int(m.group(5)) == 0:
            raise PositionError(f"{player}'s die {n} defends die 0: dice are numbered from 1")
        die = Die(sides, face, ACTIVE if m.group(3) == "a" else RESERVE, bool(m.group(4)),
                  int(m.group(5)) - 1 if m.group(5) else -1)
        if die.zone == RESERVE:
            if face == sides:
                raise PositionError(
                    f"{player}'s reserve die {n} (d{sides}) shows its top face {sides}: it would be active"
                )
            if die.used:
                raise PositionError(f"{player}'s reserve die {n} is marked used (*): only active dice are used")
            if die.defends >= 0:
                raise PositionError(f"{player}'s reserve die {n} defends a die: only active dice defend")
    written = _die_text(die)
    if token != written:
        raise PositionError(f"{player}'s die {n} is written '{token}': the canonical form is {written} "
                            "(no leading zeros)")
    return die


def _phase_text(phase: int, pending: tuple[int, ...], winners: tuple[int, ...]) -> str:
    """The phase field of a position (STEP, the default, is written -)."""
    if phase == STEP:
        return "-"
    if phase in (ATTACK, RECRUIT):
        return f"{PHASE_NAMES[phase]}:{pending[0] + 1}>{pending[1] + 1}"
    if phase in (DEFEND, KEEP, REROLL, PLACE):
        return f"{PHASE_NAMES[phase]}:{pending[0] + 1}"
    if phase == OVER:
        return "draw" if len(winners) == 2 else f"won:{'ab'[winners[0]]}"
    return PHASE_NAMES[phase]


def _phase(token: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """(phase, pending, winners) from the phase field (only the canonical form)."""
    if token == "-":
        return STEP, (), ()
    if token in ("setup", "rolloff"):
        return PHASE_NAMES.index(token), (), ()
    if token == "draw":
        return OVER, (), (0, 1)
    winner = player_seat(token[4:], 2) if token.startswith("won:") else None
    if winner is not None:
        return OVER, (), (winner,)
    m = _PAIR.match(token) or _ONE.match(token)
    if not m:
        raise PositionError(
            f"unknown phase '{shorten(token)}': use -, attack:i>j, recruit:i>j, defend:i, keep:i, reroll:i, place:i, "
            "setup, rolloff, won:a, won:b or draw"
        )
    parsed = PHASE_NAMES.index(m.group(1)), tuple(int(g) - 1 for g in m.groups()[1:]), ()
    written = _phase_text(*parsed)
    if token != written:
        raise PositionError(f"phase '{token}' has a leading zero: write {written}")
    return parsed


def _check(state: DicegeddonState, game) -> None:
    dice = state.dice
    phase = state.phase
    active = [sum(1 for d in side if d.zone == ACTIVE) for side in dice]
    if not game.several_defenders:
        for p, side in enumerate(dice):
            targets = [d.defends for d in side if d.defends >= 0]
            for k in set(targets):
                if targets.count(k) > 1:
                    raise PositionError(
                        f"{'AB'[p]}'s die {k + 1} has {targets.count(k)} defenders: one at most "
                        "(several only with the several_defenders variant)"
                    )
    if not game.chains:
        for p, side in enumerate(dice):
            for n, d in enumerate(side, 1):
                if d.defends >= 0 and side[d.defends].defends >= 0:
                    raise PositionError(
                        f"{'AB'[p]}'s die {n} defends die {d.defends + 1}, itself a defender: no chains of "
                        "defenders with chains=false"
                    )
    if phase in (SETUP, ROLLOFF):
        _check_opening(state, active)
        return
    if phase == OVER:
        if len(state.winners) == 2:
            if any(active):
                raise PositionError("a draw means neither player has an active die")
            return
        winner = state.winners[0]
        loser = 1 - winner
        if active[loser]:
            raise PositionError(f"{'ab'[winner]} won, but {'AB'[loser]} still has an active die")
        if not active[winner]:
            raise PositionError(f"{'ab'[winner]} won but has no active die either: write draw")
        return
    me = state.mover
    for p in (0, 1):
        if not active[p]:
            raise PositionError(
                f"{'AB'[p]} has no active die: the game is over (write won:{'ab'[1 - p]})"
            )
    mine, theirs = dice[me], dice[1 - me]
    unused = [i for i, d in enumerate(mine) if d.zone == ACTIVE and not d.used]
    if not unused:
        raise PositionError(
            f"{'AB'[me]} has no unused active die: the turn would have passed to {'AB'[1 - me]}"
        )
    other = "AB"[1 - me]
    if len({d.used for d in theirs if d.zone == ACTIVE}) > 1:
        # interpretation 1: a turn uses every active die; they become unused only when the owner's
        # next turn starts, so the player not on move shows all used, or (before moving) none
        raise PositionError(f"{other} is not on move but shows used and unused active dice: {other}'s turn "
                            f"used every active die, and they become unused only when {other}'s next turn starts")
    name = "AB"[me]

    def mover_unused(i: int, what: str) -> None:
        if not 0 <= i < len(mine):
            raise PositionError(f"phase names {name}'s die {i + 1} {what}, but {name} has {len(mine)} dice")
        if i not in unused:
            raise PositionError(f"phase names {name}'s die {i + 1} {what}: it must be active and unused")

    if phase in (ATTACK, RECRUIT):
        i, j = state.pending
        mover_unused(i, f"to {PHASE_NAMES[phase]} with")
        if phase == ATTACK:
            if not 0 <= j < len(theirs) or j not in attackable(theirs):
                raise PositionError(
                    f"{name}'s die {i + 1} cannot attack the opponent's die {j + 1}: "
                    "only an active die with no defender in front of it can be attacked"
                )
        else:
            if not 0 <= j < len(mine) or mine[j].zone != RESERVE:
                raise PositionError(f"{name}'s die {j + 1} cannot be recruited: only a reserve die can")
    elif phase in (DEFEND, KEEP, REROLL, PLACE):
        mover_unused(state.pending[0], "to defend with")


def _check_opening(state: DicegeddonState, active: list[int]) -> None:
    """Phases setup and rolloff: nothing used yet, zones as the opening roll leaves them."""
    dice, phase = state.dice, state.phase
    for p, side in enumerate(dice):
        for n, d in enumerate(side, 1):
            if d.used or d.defends >= 0:
                raise PositionError(f"{'AB'[p]}'s die {n} is used or defends before the first turn "
                                    f"({PHASE_NAMES[phase]})")
            if d.face and (d.zone == ACTIVE) != (d.face >= d.sides - 1):
                raise PositionError(
                    f"{'AB'[p]}'s die {n} (d{d.sides} showing {d.face}) is in the wrong zone for an opening roll: "
                    "a die is active exactly when it shows its top face or one below"
                )
    if phase == SETUP:
        order = [d.face == 0 for side in dice for d in side]
        if order != sorted(order):
            raise PositionError("opening rolls go in order, A's dice then B's: a rolled die follows an unrolled one")
        if not all(dice):
            raise PositionError("each player needs at least one die for the opening roll")
    else:
        totals = [sum(d.face for d in side if d.zone == ACTIVE) for side in dice]
        if not all(active):
            raise PositionError("a roll-off needs active dice on both sides")
        if totals[0] != totals[1]:
            raise PositionError(f"a roll-off needs equal active totals, got {totals[0]} and {totals[1]}")
