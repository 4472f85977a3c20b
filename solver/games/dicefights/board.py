"""Dice Fights drawn (:meth:`dicetree.solver.game.Game.board`): each player's Life, Gold, Stockpile
and multipliers, and the Core Dice showing (Swords, Shields, Gold; the Game Box), those being
re-rolled marked, and what the players choose next.

>>> from dicetree.solver.games.dicefights.game import DiceFights
>>> game = DiceFights()
>>> drawn = game.board(game.parse("16:4:6:211=2a2d2g 13:9:5:121=1a3d1g reroll"))
>>> drawn.status
'A and B choose at once which dice to re-roll'
>>> [(zone.owner, zone.title, len(zone.pieces)) for zone in drawn.zones]
[('A', 'tracks', 6), ('A', 'rolled', 6), ('B', 'tracks', 6), ('B', 'rolled', 5)]
>>> drawn.zones[1].pieces[0]
Die(sides=6, face='⚔', note='sword', colour='#f6d2cb', dim=False, highlight=False)
"""

from __future__ import annotations

from dicetree.solver.board import Board, Counter, Die, Zone
from dicetree.solver.games.dicefights.state import (
    BUY, NOT_ROLLED, OVER, RACE, REROLL, REROLLING, ROLL, ROLLED_PHASES, TARGET, DiceFightsState,
)

SYMBOLS = (("⚔", "sword", "#f6d2cb"), ("◈", "shield", "#cfe0f3"), ("●", "gold", "#f7e3a1"))
"""How a Core Die's symbols are drawn: (face, caption, colour) for Swords, Shields and Gold."""
BOX_COLOUR = "#dccfee"
CHOICES = {REROLL: "which dice to re-roll", TARGET: "whom to attack", BUY: "what to buy"}
CHANCE = {ROLL: "every player still in rolls", REROLLING: "the dice set aside are re-rolled",
          RACE: "a random order settles clashing purchases"}


def board(game, state: DiceFightsState) -> Board:
    zones = []
    choosing = state.phase in CHOICES
    for player in range(state.players):
        name = game.player_name(player)
        alive = state.life[player] > 0
        attack, defense, gold = state.mults[player]
        tracks = (Counter("life", str(state.life[player])), Counter("gold", str(state.bank[player])),
                  Counter("core dice", str(state.dice[player]) + ("+Box" if state.box == player else "")),
                  Counter("attack", f"×{attack}"), Counter("defense", f"×{defense}"),
                  Counter("gold mult.", f"×{gold}"))
        active = choosing and alive and state.phase != OVER
        zones.append(Zone("tracks", tracks, name, active))
        if state.phase in ROLLED_PHASES and alive and state.rolled:
            zones.append(Zone("rolled", _rolled(state, player), name, active))
        elif state.phase == ROLL and alive:  # the whole Stockpile (and the Box) in the air
            rolling = [Die(6, None, "rolls", highlight=True)] * state.dice[player]
            rolling += [Die(6, None, "Box", BOX_COLOUR, highlight=True)] * (state.box == player)
            zones.append(Zone("rolling", tuple(rolling), name, active))
        if state.phase == RACE and state.orders:
            zones.append(Zone("asked for", (Counter("purchase", _order(state.orders[player])),), name, active))
    return Board(_status(game, state), tuple(zones))


def _rolled(state: DiceFightsState, player: int) -> tuple[Die, ...]:
    dice = [Die(6, face, caption, colour) for count, (face, caption, colour) in zip(state.rolled[player], SYMBOLS)
            for _ in range(count)]
    if state.phase == REROLLING:
        dice += [Die(6, None, "re-rolls", highlight=True)] * state.pending[player]
    if state.box == player:
        rolling = state.phase == REROLLING and state.box_pending
        face = None if rolling or state.box_face == NOT_ROLLED else SYMBOLS[state.box_face][0]
        dice.append(Die(6, face, "Box", BOX_COLOUR, highlight=bool(rolling)))
    return tuple(dice)


def _order(order) -> str:
    items = [f"{order.dice}c"] * bool(order.dice) + ["a"] * order.attack + ["d"] * order.defense
    items += ["g"] * order.gold + ["B"] * order.box
    return "+".join(items) or "-"


def _status(game, state: DiceFightsState) -> str:
    if state.phase == OVER:
        names = " and ".join(game.player_name(p) for p in state.winners)
        return f"{names} won" if len(state.winners) == 1 else f"a shared win: {names}"
    if state.phase in CHANCE:
        return f"chance: {CHANCE[state.phase]}"
    alive = [game.player_name(p) for p in state.alive()]
    return f"{', '.join(alive[:-1])} and {alive[-1]} choose at once {CHOICES[state.phase]}"


__all__ = ["board"]
