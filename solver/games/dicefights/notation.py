"""Dice Fights position strings: parse, validate, and write the canonical form.

See :func:`notation_help` (printed by ``dicetree notation dicefights``). ``parse_position(game,
format_position(state)) == state`` for every reachable state (a property test checks it).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from solver.game import PositionError
from solver.games.dicefights.faces import SYMBOL_LETTERS
from solver.games.dicefights.rules import (
    MAX_MULTIPLIER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_OWNER,
    NOT_ROLLED,
    NOTHING,
    OVER,
    PHASES,
    RACE,
    REROLLING,
    ROLLED_PHASES,
    START_DICE,
    START_LIFE,
    TARGET,
    TOTAL_CORE_DICE,
    Bundle,
    DiceFights,
    FightState,
    bundle_text,
    player_name,
    roll_text,
)

_NUMBER = r"([0-9]{1,9})"  # ASCII digits only; at most 9 of them
_BASE = re.compile(rf"(-?[0-9]{{1,9}}):{_NUMBER}:{_NUMBER}(\+?):([0-9]*)$")
_ROLL = re.compile(rf"{_NUMBER}a{_NUMBER}d{_NUMBER}g(?:\?{_NUMBER})?(?:/([adg?]))?$")
_DICE_ITEM = re.compile(rf"{_NUMBER}c$")
_OVER = re.compile(r"over:([1-9]+)$")

NOTATION_TEXT = """\
Dice Fights position notation: one field per player (seat order P1, P2, ...; 2 to 6 players), then
the phase:

  <P1> <P2> [<P3> ...] [<phase>]
  player:  <life>:<bank>:<dice>[+]:<attack><defense><gold>[=<roll>][><purchase>]

  life       Life Tracker: 1..20 (20 = full health), 0 = out of the game. In a finished game
             (phase over) each Life as it fell, so it may be negative: the least dead wins.
  bank       Gold in the Bank: 0 or more (no upper limit)
  dice       Core Dice in the Stockpile: 5 or more, at most 30 for all players together (the rest
             is the Dice Cache); a + marks the owner of the Game Box
  multipliers three digits 1-4: the Attack (Swords), Defense (Shields) and Gold multipliers
  roll       (phases reroll, rerolling, target; players still in) the Core Dice showing each
             symbol: <n>a<n>d<n>g = Swords, Shields, Gold. In phase rerolling these are the dice
             kept, and ?<n> the dice being re-rolled. The Box owner adds /a, /d or /g (the Box's
             symbol) or /? (the Box is being re-rolled).
  purchase   (phase race; players still in) what the player asked for: - for nothing, else items
             joined by +: <n>c Core Dice, a / d / g one Attack / Defense / Gold upgrade each, B the
             Game Box (e.g. 2c+a+a, B)

  phase      what happens next (default: reroll if rolls are shown, else roll)
    roll       chance: every player still in rolls their Stockpile
    reroll     all players choose at once which dice to re-roll
    rerolling  chance: the dice set aside are re-rolled
    target     all players choose at once whom to attack (three or more players still in)
    buy        all players choose at once what to buy
    race       chance: a random priority order settles clashing purchases (race rule "chance")
    over:<winners>  the game is over; the winners' seat numbers, e.g. over:2 (several: a draw)

Moves: re-rolls are named by how many dice showing each symbol go again (keep, roll 1a+2g, roll
2d+B); targets 'at P3'; purchases like the purchase field, with 'nothing'.

{assumption}

Examples:
  20:0:5:111 20:0:5:111 roll
      A new two-player game: both roll next.
  {example}
      Both have rolled and choose their re-rolls at once. P1 (Life 16, 4 Gold, 6 Core Dice,
      Attack 2) shows 2 Swords, 2 Shields, 2 Gold.
  20:12:5:111 18:33:7+:121 buy
      P2 owns the Game Box; both choose their purchases.
  14:0:6:211=3a1d2g 0:0:5:111 11:0:5:111=1a2d2g 9:2:5:111=1a2d2g target
      Four seats, P2 is out; P1's 6 attack can hurt both P3 and P4, so P1 chooses a target.
"""


def notation_help(game: DiceFights) -> str:
    """The notation text, with the face layout in use (and the assumption it may be)."""
    layout = game.layout
    assumption = (
        "Dice: " + layout.describe() + ".\n"
        + ("The rule text does not give the faces: two Shields, two Swords and two Gold is an\n"
           "ASSUMPTION (pass your own file: DiceFights(faces=...), `--rule faces=FILE`)."
           if layout.assumed else "")
    ).rstrip()
    return NOTATION_TEXT.format(assumption=assumption, example=game.example_position())


def format_position(state: FightState) -> str:
    """The canonical position string of ``state`` (the phase always written)."""
    fields = []
    for p in range(state.players):
        attack, defense, gold = state.mults[p]
        field = f"{state.life[p]}:{state.bank[p]}:{state.dice[p]}{'+' if state.box == p else ''}:{attack}{defense}{gold}"
        alive = state.life[p] > 0
        if state.phase in ROLLED_PHASES and alive:
            field += "=" + roll_text(state.rolled[p])
            if state.phase == REROLLING and state.pending[p]:
                field += f"?{state.pending[p]}"
            if state.box == p:
                field += "/" + ("?" if state.box_pending or state.box_face == NOT_ROLLED else SYMBOL_LETTERS[state.box_face])
        if state.phase == RACE and alive:
            field += ">" + bundle_text(state.orders[p], nothing="-")
        fields.append(field)
    phase = PHASES[state.phase]
    if state.phase == OVER:
        phase += ":" + "".join(str(p + 1) for p in state.winners)
    return " ".join(fields + [phase])


def parse_position(game: DiceFights, text: str) -> FightState:
    """Parse and validate a position string; :class:`PositionError` says precisely what is wrong."""
    fields = text.split()
    phase_token = fields[-1] if fields and fields[-1][:1].isalpha() else None
    players = fields[:-1] if phase_token is not None else fields
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise PositionError(
            f"a Dice Fights position has one field per player ({MIN_PLAYERS} to {MAX_PLAYERS}) and then the "
            f"phase; got {len(players)} player field{'s' if len(players) != 1 else ''} in '{text}'"
        )
    if len(players) != game.num_players:
        raise PositionError(
            f"this position has {len(players)} players but the game is set up for {game.num_players} "
            f"(DiceFights(players={len(players)}); on the command line --rule players={len(players)})"
        )
    parsed = [_player(token, p) for p, token in enumerate(players)]
    has_rolls = any(item.roll is not None for item in parsed)
    phase, winners = _phase(phase_token or ("reroll" if has_rolls else "roll"))

    life = tuple(item.life for item in parsed)
    owners = [p for p, item in enumerate(parsed) if item.box]
    if len(owners) > 1:
        raise PositionError(f"{' and '.join(map(player_name, owners))} both own the Game Box: there is one")
    state = FightState(
        life=life,
        bank=tuple(item.bank for item in parsed),
        dice=tuple(item.dice for item in parsed),
        mults=tuple(item.mults for item in parsed),
        box=owners[0] if owners else NO_OWNER,
        phase=phase,
        winners=winners,
    )
    _check_players(state)
    state = _with_rolls(state, parsed)
    state = _with_orders(game, state, parsed)
    _check_phase(game, state)
    return state


# ----- one player's field --------------------------------------------------------------------------
class _Field(NamedTuple):
    """One player's field as written, before the position as a whole is checked."""

    life: int
    bank: int
    dice: int
    box: bool
    mults: tuple[int, int, int]
    roll: tuple[tuple[int, int, int], int | None, str | None] | None  # counts, ?<n>, Box symbol
    purchase: Bundle | None


def _player(token: str, p: int) -> _Field:
    who = player_name(p)
    main, _, purchase = token.partition(">")
    base, _, roll = main.partition("=")
    match = _BASE.match(base)
    if not match:
        raise PositionError(
            f"{who}'s field '{token}' is not <life>:<bank>:<dice>[+]:<multipliers>, e.g. 20:0:5:111"
        )
    life, bank, dice, box, mults = match.groups()
    if not re.fullmatch(r"[1-4]{3}", mults):
        raise PositionError(
            f"{who}'s multipliers '{mults}' must be three digits 1-{MAX_MULTIPLIER}: Attack, Defense, Gold (e.g. 111)"
        )
    return _Field(
        life=int(life), bank=int(bank), dice=int(dice), box=box == "+",
        mults=tuple(int(c) for c in mults),
        roll=_roll(roll, who) if "=" in main else None,
        purchase=_bundle(purchase, who) if ">" in token else None,
    )


def _roll(text: str, who: str) -> tuple[tuple[int, int, int], int | None, str | None]:
    match = _ROLL.match(text)
    if not match:
        raise PositionError(
            f"{who}'s roll '{text}' is not <n>a<n>d<n>g (Swords, Shields, Gold), then ?<n> and /a, /d, /g or /?"
        )
    swords, shields, gold, pending, box = match.groups()
    return (int(swords), int(shields), int(gold)), (int(pending) if pending is not None else None), box


def _bundle(text: str, who: str) -> Bundle:
    if text == "-":
        return NOTHING
    counts = {"c": 0, "a": 0, "d": 0, "g": 0, "B": 0}
    for item in text.split("+"):
        dice = _DICE_ITEM.match(item)
        if dice and not counts["c"] and int(dice.group(1)) > 0:
            counts["c"] = int(dice.group(1))
        elif item in ("a", "d", "g") or (item == "B" and not counts["B"]):
            counts[item] += 1
        else:
            raise PositionError(
                f"{who}'s purchase '{text}' is not - or items joined by +: <n>c (Core Dice, once), a, d, g "
                "(upgrades), B (the Game Box, once)"
            )
    return Bundle(counts["c"], counts["a"], counts["d"], counts["g"], counts["B"])


def _phase(token: str) -> tuple[int, tuple[int, ...]]:
    if token in PHASES and token != "over":
        return PHASES.index(token), ()
    match = _OVER.match(token)
    if match:
        seats = [int(c) - 1 for c in match.group(1)]
        if len(set(seats)) != len(seats) or seats != sorted(seats):
            raise PositionError(f"'{token}': list the winners' seats once each, in order (e.g. over:13)")
        return OVER, tuple(seats)
    raise PositionError(
        f"unknown phase '{token}': use roll, reroll, rerolling, target, buy, race or over:<winners>"
    )


# ----- the position as a whole ---------------------------------------------------------------------
def _check_players(state: FightState) -> None:
    for p in range(state.players):
        who = player_name(p)
        if state.dice[p] < START_DICE:
            raise PositionError(f"{who} has {state.dice[p]} Core Dice: a Stockpile starts with {START_DICE} and never shrinks")
        if state.phase != OVER and not 0 <= state.life[p] <= START_LIFE:
            raise PositionError(
                f"{who}'s Life is {state.life[p]}: 1 to {START_LIFE} while in the game, 0 once out "
                "(only a finished game, phase over, keeps a Life below 0)"
            )
        if state.life[p] > START_LIFE:
            raise PositionError(f"{who}'s Life is {state.life[p]}: the Life Tracker starts at {START_LIFE} and nothing heals")
    if sum(state.dice) > TOTAL_CORE_DICE:
        raise PositionError(f"the Stockpiles hold {sum(state.dice)} Core Dice: the game has {TOTAL_CORE_DICE}")
    if state.phase != OVER and len(state.alive()) < 2:
        raise PositionError("fewer than two players are still in: the game is over (write the phase over:<winners>)")


def _with_rolls(state: FightState, parsed: list[_Field]) -> FightState:
    """The dice showing (phases reroll, rerolling, target), checked against each Stockpile."""
    phase = state.phase
    for p, item in enumerate(parsed):
        who = player_name(p)
        if item.roll is not None and (phase not in ROLLED_PHASES or state.life[p] <= 0):
            why = "is out" if state.life[p] <= 0 and phase in ROLLED_PHASES else f"the phase is {PHASES[phase]}"
            raise PositionError(f"{who} shows a roll, but {why}: rolls are written in reroll, rerolling and target")
        if item.roll is None and phase in ROLLED_PHASES and state.life[p] > 0:
            raise PositionError(f"{who} is in the game but shows no roll: phase {PHASES[phase]} needs =<n>a<n>d<n>g")
    if phase not in ROLLED_PHASES:
        return state
    rolled, pending, box_face, box_pending = [], [], NOT_ROLLED, 0
    for p, item in enumerate(parsed):
        if state.life[p] <= 0:
            rolled.append((0, 0, 0))
            pending.append(0)
            continue
        who = player_name(p)
        counts, waiting, box = item.roll
        if waiting is not None and (phase != REROLLING or waiting == 0):
            raise PositionError(f"{who}'s roll has ?{waiting}: dice wait to be re-rolled only in rerolling, and then at least one")
        shown = sum(counts) + (waiting or 0)
        if shown != state.dice[p]:
            raise PositionError(f"{who}'s roll accounts for {shown} Core Dice but the Stockpile has {state.dice[p]}")
        if (box is not None) != (state.box == p):
            raise PositionError(
                f"{who}'s roll {'shows a Box symbol' if box else 'lacks the Box symbol /a, /d or /g'}, but "
                f"{who} {'does not own' if box else 'owns'} the Game Box"
            )
        if box == "?":
            if phase != REROLLING:
                raise PositionError(f"{who}'s Box shows '?': only in rerolling can the Box wait to be re-rolled")
            box_pending = 1
        elif box is not None:
            box_face = SYMBOL_LETTERS.index(box)
        rolled.append(counts)
        pending.append(waiting or 0)
    if phase == REROLLING and not any(pending) and not box_pending:
        raise PositionError("phase rerolling, but no dice wait to be re-rolled (?<n> or /?)")
    return state._replace(
        rolled=tuple(rolled), pending=tuple(pending) if phase == REROLLING else (), box_face=box_face,
        box_pending=box_pending,
    )


def _with_orders(game: DiceFights, state: FightState, parsed: list[_Field]) -> FightState:
    """What each player asked to buy (phase race), checked against their options."""
    if state.phase != RACE:
        for p, item in enumerate(parsed):
            if item.purchase is not None:
                raise PositionError(f"{player_name(p)} shows a purchase, but purchases are written only in phase race")
        return state
    orders = []
    for p, item in enumerate(parsed):
        who = player_name(p)
        if state.life[p] <= 0:
            if item.purchase is not None:
                raise PositionError(f"{who} is out and buys nothing: write no purchase")
            orders.append(NOTHING)
            continue
        if item.purchase is None:
            raise PositionError(f"{who} shows no purchase: phase race needs >… (- for nothing) for each player in")
        options = game.bundle_options(state, p)
        if item.purchase not in options:
            shown = ", ".join(bundle_text(b, nothing="-") for b in options[:10])
            raise PositionError(
                f"{who} cannot ask for {bundle_text(item.purchase, nothing='-')} here (Bank {state.bank[p]}, "
                f"Cache {state.cache()}): the options are {shown}{', ...' if len(options) > 10 else ''}"
            )
        orders.append(item.purchase)
    return state._replace(orders=tuple(orders))


def _check_phase(game: DiceFights, state: FightState) -> None:
    phase = state.phase
    if phase == TARGET:
        if len(state.alive()) < 3:
            raise PositionError("phase target needs three or more players in: with two, each attacks the other")
        if not any(len(game.target_options(state, p)) > 1 for p in state.alive()):
            raise PositionError(
                "phase target, but nobody has two opponents they can hurt: the round resolves without choices"
            )
    elif phase == RACE:
        if game.race != "chance":
            raise PositionError(f"phase race happens only with the race rule 'chance' (this game: '{game.race}')")
        if not game.contenders(state, state.orders):
            raise PositionError("phase race, but the purchases do not clash: nothing is left to chance")
    elif phase == OVER:
        _check_over(state)


def _check_over(state: FightState) -> None:
    if any(w >= state.players for w in state.winners):
        raise PositionError(f"over:{''.join(str(w + 1) for w in state.winners)} names a seat beyond P{state.players}")
    standing = state.alive()
    if standing:
        if len(standing) > 1:
            raise PositionError(f"the game is over but {' and '.join(map(player_name, standing))} still have Life")
        if state.winners != tuple(standing):
            raise PositionError(f"{player_name(standing[0])} is the last one standing and so the only winner")
        return
    lives = {state.life[w] for w in state.winners}
    if len(lives) != 1:
        raise PositionError("when everyone left falls together, only the least dead win: the winners' Life must be equal")


__all__ = ["format_position", "notation_help", "parse_position"]
