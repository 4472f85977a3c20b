"""Dice Fights position strings and move names: parse, validate, and write the canonical form.

See :func:`notation_help` (printed by ``dicetree notation dicefights``). ``parse_position(
format_position(state, game), game) == state`` for every reachable state (a property test checks
it), and the canonical form is the only one accepted (no leading zeros, the phase last).

>>> from dicetree.solver.games.dicefights import DiceFights
>>> game = DiceFights()
>>> state = parse_position("20:0:5:111=2a2d1g 18:3:6+:211=1a3d2g/d", game)
>>> format_position(state, game)
'20:0:5:111=2a2d1g 18:3:6+:211=1a3d2g/d reroll'
>>> parse_position("0:0:5:111 -2:0:5:111 over:2", game)
Traceback (most recent call last):
...
dicetree.solver.game.PositionError: A (Life 0) fell with B in the last round (a game ends when one player is left) and is less dead than B (Life -2): when everyone left falls together the least dead win; write over:1
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from dicetree.solver.game import PositionError
from dicetree.solver.games.dicefights.faces import SYMBOL_LETTERS
from dicetree.solver.games.dicefights.rules import DiceFightsRules
from dicetree.solver.games.dicefights.state import (
    MAX_MULTIPLIER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_OWNER,
    NOT_ROLLED,
    NOTHING,
    OVER,
    PHASE_NAMES,
    RACE,
    REROLLING,
    ROLL,
    ROLLED_PHASES,
    START_DICE,
    START_LIFE,
    TARGET,
    TOTAL_CORE_DICE,
    Bundle,
    DiceFightsState,
    Reroll,
    Target,
)
from dicetree.solver.rule_options import shorten

# Numbers are read as up to 9 ASCII digits, then checked to be written canonically (no leading zeros).
_DIGITS = r"([0-9]{1,9})"
_BASE = re.compile(rf"(-?[0-9]{{1,9}}):{_DIGITS}:{_DIGITS}(\+?):([0-9]*)$")
_ROLL = re.compile(rf"{_DIGITS}a{_DIGITS}d{_DIGITS}g(?:\?{_DIGITS})?(?:/([adg?]))?$")
_DICE_ITEM = re.compile(rf"{_DIGITS}c$")
_OVER = re.compile(r"over:([1-9]+)$")

NOTATION_TEXT = """\
Dice Fights position notation: one field per player (seat order A, B, ...; 2 to 6 players), then
the phase:

  <A> <B> [<C> ...] [<phase>]
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
    over:<winners>  the game is over; the winners' seat numbers (1 for A, 2 for B, ...), e.g. over:2 (several: a draw)

Numbers are written without leading zeros, and nothing follows the phase.

Moves: re-rolls are named by how many dice showing each symbol go again (keep, roll 1a+2g, roll
2d+B); targets 'at C'; purchases like the purchase field, with 'nothing'.

{assumption}

Examples:
  20:0:5:111 20:0:5:111 roll
      A new two-player game: both roll next.
  {example}
      Both have rolled and choose their re-rolls at once. A (Life 16, 4 Gold, 6 Core Dice,
      Attack 2) shows 2 Swords, 2 Shields, 2 Gold.
  20:12:5:111 18:33:7+:121 buy
      B owns the Game Box; both choose their purchases.
  14:0:6:211=3a1d2g 0:0:5:111 11:0:5:111=1a2d2g 9:2:5:111=1a2d2g target
      Four seats, B is out; A's 6 attack can hurt both C and D, so A chooses a target.
"""


def notation_help(game: DiceFightsRules) -> str:
    """The notation text, with the face layout in use (and the assumption it may be)."""
    layout = game.layout
    assumption = (
        "Dice: " + layout.describe() + ".\n"
        + ("The rule text does not give the faces: two Shields, two Swords and two Gold is an\n"
           "ASSUMPTION (pass your own file: DiceFights(faces=...), `--rule faces=FILE`)."
           if layout.assumed else "")
    ).rstrip()
    return NOTATION_TEXT.format(assumption=assumption, example=example_position(game))


def example_position(game: DiceFightsRules) -> str:
    """The built-in example: a re-roll node with every seat of ``game`` filled."""
    return " ".join(["16:4:6:211=2a2d2g", "13:9:5:121=1a3d1g"][: game.num_players] +
                    ["20:0:5:111=1a2d2g"] * (game.num_players - 2) + ["reroll"])


# ----- move names ----------------------------------------------------------------------------------
def roll_text(counts: Sequence[int], box: int | None = None) -> str:
    """``2a1d2g`` (swords, shields, gold), with ``/d`` for the Box's symbol (``/?`` waiting)."""
    text = f"{counts[0]}a{counts[1]}d{counts[2]}g"
    if box is not None:
        text += "/" + ("?" if box == NOT_ROLLED else SYMBOL_LETTERS[box])
    return text


def bundle_text(bundle: Bundle, nothing: str = "nothing") -> str:
    """``3c+a+d`` — Core Dice, one letter per upgrade (a, d, g), ``B`` the Game Box — or ``nothing``."""
    items = [f"{bundle.dice}c"] if bundle.dice else []
    items += ["a"] * bundle.attack + ["d"] * bundle.defense + ["g"] * bundle.gold + ["B"] * bundle.box
    return "+".join(items) or nothing


def reroll_text(choice: Reroll) -> str:
    """``keep``, or ``roll 1a+2g+B``: how many dice showing each symbol (and the Box) to re-roll."""
    items = [f"{n}{letter}" for n, letter in zip(choice[:3], SYMBOL_LETTERS) if n] + ["B"] * choice.box
    return "roll " + "+".join(items) if items else "keep"


def action_name(state: DiceFightsState, action, game: DiceFightsRules) -> str:
    """The name of a chance outcome (everyone's roll, a priority order), of one player's choice, or
    of a joint choice (``A keep | B roll 1a``)."""
    phase = state.phase
    if phase in (ROLL, REROLLING):
        return ", ".join(
            f"{game.player_name(p)} {roll_text(r[:3], r.box if r.box != NOT_ROLLED else None)}"
            for p, r in enumerate(action) if r is not None
        )
    if phase == RACE:
        return "order " + " ".join(game.player_name(p) for p in action)
    if isinstance(action, (Reroll, Target, Bundle)):
        return _choice_name(action, game)
    return " | ".join(f"{game.player_name(p)} {_choice_name(a, game)}" for p, a in enumerate(action) if a is not None)


def _choice_name(choice: Reroll | Target | Bundle, game: DiceFightsRules) -> str:
    if isinstance(choice, Reroll):
        return reroll_text(choice)
    if isinstance(choice, Target):
        return f"at {game.player_name(choice.victim)}"
    return bundle_text(choice)


# ----- positions -----------------------------------------------------------------------------------
def format_position(state: DiceFightsState, game: DiceFightsRules) -> str:
    """The canonical position string of ``state`` (the phase always written; ``game`` is not needed
    to write it, and is taken for the common signature of the games' notations)."""
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
    phase = PHASE_NAMES[state.phase]
    if state.phase == OVER:
        phase += ":" + _seats(state.winners)
    return " ".join(fields + [phase])


def parse_position(text: str, game: DiceFightsRules) -> DiceFightsState:
    """Parse and validate a position string; :class:`PositionError` says precisely what is wrong."""
    fields = text.split()
    # The player fields come first (each begins with its Life: a digit or '-'), then the phase, a word.
    count = next((i for i, field in enumerate(fields) if field[:1].isalpha()), len(fields))
    players, after = fields[:count], fields[count:]
    phase_winners = _phase(after[0]) if after else None
    if len(after) > 1:
        raise PositionError(
            f"'{shorten(after[1])}' follows the phase '{shorten(after[0])}': a position is one field per player, "
            "then the phase, and nothing after it"
        )
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise PositionError(
            f"a Dice Fights position has one field per player ({MIN_PLAYERS} to {MAX_PLAYERS}) and then the "
            f"phase; got {len(players)} player field{'s' if len(players) != 1 else ''} in '{shorten(text)}'"
        )
    if len(players) != game.num_players:
        raise PositionError(
            f"this position has {len(players)} players but the game is set up for {game.num_players} "
            f"(DiceFights(players={len(players)}); on the command line --rule players={len(players)})"
        )
    parsed = [_player(token, game.player_name(p)) for p, token in enumerate(players)]
    has_rolls = any(item.roll is not None for item in parsed)
    phase, winners = phase_winners or _phase("reroll" if has_rolls else "roll")

    owners = [p for p, item in enumerate(parsed) if item.box]
    if len(owners) > 1:
        raise PositionError(f"{_names(owners, game)} both own the Game Box: there is one")
    state = DiceFightsState(
        life=tuple(item.life for item in parsed),
        bank=tuple(item.bank for item in parsed),
        dice=tuple(item.dice for item in parsed),
        mults=tuple(item.mults for item in parsed),
        box=owners[0] if owners else NO_OWNER,
        phase=phase,
        winners=winners,
    )
    _check_players(state, game)
    state = _with_rolls(state, parsed, game)
    state = _with_orders(state, parsed, game)
    _check_phase(state, game)
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


def _player(token: str, who: str) -> _Field:
    main, _, purchase = token.partition(">")
    base, _, roll = main.partition("=")
    match = _BASE.match(base)
    if not match:
        raise PositionError(
            f"{who}'s field '{shorten(token)}' is not <life>:<bank>:<dice>[+]:<multipliers>, e.g. 20:0:5:111"
        )
    life, bank, dice, box, mults = match.groups()
    if not re.fullmatch(r"[1-4]{3}", mults):
        raise PositionError(
            f"{who}'s multipliers '{shorten(mults)}' must be three digits 1-{MAX_MULTIPLIER}: Attack, Defense, Gold "
            "(e.g. 111)"
        )
    where = f"{who}'s field '{shorten(token)}'"
    return _Field(
        life=_number(life, where), bank=_number(bank, where), dice=_number(dice, where),
        box=box == "+", mults=(int(mults[0]), int(mults[1]), int(mults[2])),
        roll=_roll(roll, who) if "=" in main else None,
        purchase=_bundle(purchase, who) if ">" in token else None,
    )


def _number(digits: str, where: str) -> int:
    """The number ``digits`` read in ``where`` (e.g. "A's roll '2a2d1g'"), refused unless canonical."""
    value = int(digits)
    if str(value) != digits:
        raise PositionError(
            f"{where} writes {digits} for {value}: numbers are written without leading zeros (a position has one "
            "canonical form)"
        )
    return value


def _roll(text: str, who: str) -> tuple[tuple[int, int, int], int | None, str | None]:
    match = _ROLL.match(text)
    if not match:
        raise PositionError(
            f"{who}'s roll '{shorten(text)}' is not <n>a<n>d<n>g (Swords, Shields, Gold), then ?<n> and /a, /d, "
            "/g or /?"
        )
    swords, shields, gold, pending, box = match.groups()
    where = f"{who}'s roll '{shorten(text)}'"
    counts = (_number(swords, where), _number(shields, where), _number(gold, where))
    return counts, (_number(pending, where) if pending is not None else None), box


def _bundle(text: str, who: str) -> Bundle:
    if text == "-":
        return NOTHING
    counts = {"c": 0, "a": 0, "d": 0, "g": 0, "B": 0}
    for item in text.split("+"):
        dice = _DICE_ITEM.match(item)
        if dice and not counts["c"] and int(dice.group(1)) > 0:
            counts["c"] = _number(dice.group(1), f"{who}'s purchase '{shorten(text)}'")
        elif item in ("a", "d", "g") or (item == "B" and not counts["B"]):
            counts[item] += 1
        else:
            raise PositionError(
                f"{who}'s purchase '{shorten(text)}' is not - or items joined by +: <n>c (Core Dice, once), a, d, g "
                "(upgrades), B (the Game Box, once)"
            )
    return Bundle(counts["c"], counts["a"], counts["d"], counts["g"], counts["B"])


def _phase(token: str) -> tuple[int, tuple[int, ...]]:
    if token in PHASE_NAMES and token != "over":
        return PHASE_NAMES.index(token), ()
    match = _OVER.match(token)
    if match:
        seats = [int(c) - 1 for c in match.group(1)]
        if len(set(seats)) != len(seats) or seats != sorted(seats):
            raise PositionError(f"'{shorten(token)}': list the winners' seats once each, in order (e.g. over:13)")
        return OVER, tuple(seats)
    raise PositionError(
        f"unknown phase '{shorten(token)}': use roll, reroll, rerolling, target, buy, race or over:<winners>"
    )


# ----- the position as a whole ---------------------------------------------------------------------
def _check_players(state: DiceFightsState, game: DiceFightsRules) -> None:
    for p in range(state.players):
        who = game.player_name(p)
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


def _with_rolls(state: DiceFightsState, parsed: list[_Field], game: DiceFightsRules) -> DiceFightsState:
    """The dice showing (phases reroll, rerolling, target), checked against each Stockpile."""
    phase = state.phase
    for p, item in enumerate(parsed):
        who = game.player_name(p)
        if item.roll is not None and (phase not in ROLLED_PHASES or state.life[p] <= 0):
            why = "is out" if state.life[p] <= 0 and phase in ROLLED_PHASES else f"the phase is {PHASE_NAMES[phase]}"
            raise PositionError(f"{who} shows a roll, but {why}: rolls are written in reroll, rerolling and target")
        if item.roll is None and phase in ROLLED_PHASES and state.life[p] > 0:
            raise PositionError(f"{who} is in the game but shows no roll: phase {PHASE_NAMES[phase]} needs =<n>a<n>d<n>g")
    if phase not in ROLLED_PHASES:
        return state
    rolled, pending, box_face, box_pending = [], [], NOT_ROLLED, 0
    for p, item in enumerate(parsed):
        if state.life[p] <= 0:
            rolled.append((0, 0, 0))
            pending.append(0)
            continue
        who = game.player_name(p)
        assert item.roll is not None  # checked above: a player in the game shows a roll
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


def _with_orders(state: DiceFightsState, parsed: list[_Field], game: DiceFightsRules) -> DiceFightsState:
    """What each player asked to buy (phase race), checked against their options."""
    if state.phase != RACE:
        for p, item in enumerate(parsed):
            if item.purchase is not None:
                raise PositionError(f"{game.player_name(p)} shows a purchase, but purchases are written only in phase race")
        return state
    orders = []
    for p, item in enumerate(parsed):
        who = game.player_name(p)
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
                f"{who} cannot ask for {shorten(bundle_text(item.purchase, nothing='-'))} here (Bank {state.bank[p]}, "
                f"Cache {state.cache()}): the options are {shown}{', ...' if len(options) > 10 else ''}"
            )
        orders.append(item.purchase)
    return state._replace(orders=tuple(orders))


def _check_phase(state: DiceFightsState, game: DiceFightsRules) -> None:
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
        _check_over(state, game)


def _check_over(state: DiceFightsState, game: DiceFightsRules) -> None:
    """The winners of a finished game must be the ones its Life values make winners."""
    if any(w >= state.players for w in state.winners):
        raise PositionError(f"over:{_seats(state.winners)} names a seat beyond {game.player_name(state.players - 1)}")
    problem = _winners_problem(state.life, state.winners, game)
    if problem is None:
        return
    fitting = [w for size in range(1, state.players + 1) for w in itertools.combinations(range(state.players), size)
               if _winners_problem(state.life, w, game) is None]
    if fitting:  # the players at the highest Life always fit; name them, and say whether they are the only answer
        best = max(state.life)
        answer = _seats(tuple(p for p, life in enumerate(state.life) if life == best))
        problem += f"; write over:{answer}" if len(fitting) == 1 else f"; e.g. over:{answer}"
    raise PositionError(problem)


def _winners_problem(life: Sequence[int], winners: tuple[int, ...], game: DiceFightsRules) -> str | None:
    """Why ``winners`` cannot be who won a game that ended with these Life values (``None`` if they can).

    One player left standing wins alone. When nobody is left, everyone who fell in the last round
    (at least two players: a game ends when one is left) kept their Life as it fell and the least
    dead won; a player out before shows Life 0 (the tracker stops there), so only a player below 0
    surely fell in the last round, and a player at 0 who did not win was out before.
    """
    standing = [p for p, x in enumerate(life) if x > 0]
    if standing:
        if len(standing) > 1:
            return f"the game is over but {_names(standing, game)} still have Life"
        if winners != tuple(standing):
            return f"{game.player_name(standing[0])} is the last one standing and so the only winner"
        return None
    if len({life[w] for w in winners}) != 1:
        return "when everyone left falls together, only the least dead win: the winners' Life must be equal"
    dead = life[winners[0]]
    rule = "when everyone left falls together the least dead win"
    losers = [p for p in range(len(life)) if p not in winners]
    for p in losers:
        if dead <= life[p] < 0:  # fell in the last round, and no more dead than the winners
            relation = "as dead as" if life[p] == dead else "less dead than"
            return (f"{game.player_name(p)} (Life {life[p]}) is {relation} {_names(winners, game)} (Life {dead}): "
                    f"{rule}{' (a shared win)' if life[p] == dead else ''}")
    if len(winners) + sum(1 for p in losers if life[p] < 0) < 2:  # the winner alone in the last round
        winner = game.player_name(winners[0])
        at_zero = [p for p in losers if life[p] == 0]
        relation = "as dead as" if dead == 0 else "less dead than"
        fell = (f"{game.player_name(at_zero[0])} (Life 0) fell with {winner} in the last round" if len(at_zero) == 1
                else f"at least one of {_names(at_zero, game)} (Life 0) fell with {winner} in the last round")
        return (f"{fell} (a game ends when one player is left) and is {relation} {winner} (Life {dead}): "
                f"{rule}{' (a shared win)' if dead == 0 else ''}")
    return None


def _seats(players: Sequence[int]) -> str:
    """Seat numbers as ``over:`` writes them: ``13`` for A and C."""
    return "".join(str(p + 1) for p in players)


def _names(players: Sequence[int], game: DiceFightsRules) -> str:
    return " and ".join(game.player_name(p) for p in players)


__all__ = [
    "action_name", "bundle_text", "example_position", "format_position", "notation_help", "parse_position",
    "reroll_text", "roll_text",
]
