"""Dicegeddon drawn (:meth:`dicetree.solver.game.Game.board`): each army's active dice and reserve,
every die numbered as the moves name it, used ones faded, defenders marked with the die they stand
in front of, and the dice a pending roll is about.

>>> from dicetree.solver.games.dicegeddon.game import Dicegeddon
>>> game = Dicegeddon()
>>> drawn = game.board(game.parse("d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20"))
>>> drawn.status, [(zone.owner, zone.title, len(zone.pieces)) for zone in drawn.zones]
('A to move', [('A', 'active', 2), ('A', 'reserve', 1), ('B', 'active', 1), ('B', 'reserve', 1)])
>>> drawn.zones[0].pieces[1]
Die(sides=6, face=5, note='#2', colour='', dim=False, highlight=False)
"""

from __future__ import annotations

from dicetree.solver.board import Board, Die, Zone
from dicetree.solver.games.dicegeddon.state import (
    ACTIVE, ATTACK, CHANCE_PHASES, DEFEND, KEEP, OVER, PLACE, RECRUIT, REROLL, ROLLOFF, SETUP,
    DicegeddonState,
)

NAMES = "AB"
PENDING_TEXT = {ATTACK: "the attack rolls", RECRUIT: "the recruit rolls", DEFEND: "the defence rolls",
                REROLL: "the defence re-rolls", KEEP: "keep or re-roll the defence", PLACE: "place the defender"}


def board(game, state: DicegeddonState) -> Board:
    zones = []
    for player in (0, 1):
        active = state.mover == player and state.phase not in (SETUP, ROLLOFF, OVER)
        marked = _marked(state, player)
        dice = list(enumerate(state.dice[player]))
        for title, zone in (("active", ACTIVE), ("reserve", 1 - ACTIVE)):
            pieces = tuple(
                Die(die.sides, die.face or None, _note(number, die), dim=die.zone == ACTIVE and die.used,
                    highlight=number in marked)
                for number, die in dice if die.zone == zone)
            zones.append(Zone(title, pieces, NAMES[player], active))
    return Board(_status(state), tuple(zones))


def _marked(state: DicegeddonState, player: int) -> set[int]:
    """The numbers of ``player``'s dice the phase is about (the die rolling, its target)."""
    if not state.pending:
        return set()
    own = {state.pending[0]} if state.mover == player else set()
    if state.phase == ATTACK and state.mover != player:
        return {state.pending[1]}
    if state.phase == RECRUIT and state.mover == player:
        own.add(state.pending[1])
    return own


def _note(number: int, die) -> str:
    note = f"#{number + 1}"
    if die.defends >= 0:
        note += f" guards #{die.defends + 1}"
    elif die.zone == ACTIVE and die.used:
        note += " used"
    return note


def _status(state: DicegeddonState) -> str:
    mover = NAMES[state.mover]
    if state.phase == OVER:
        return "draw" if len(state.winners) > 1 else f"{NAMES[state.winners[0]]} won the battle"
    if state.phase == SETUP:
        return "chance: the opening roll"
    if state.phase == ROLLOFF:
        return "chance: the roll-off for the first move"
    what = PENDING_TEXT.get(state.phase, "")
    if state.phase in CHANCE_PHASES:
        return f"chance: {what} ({mover}'s turn)"
    return f"{mover} to move" + (f": {what}" if what else "")


__all__ = ["board"]
