"""Dice Cards drawn (:meth:`dicetree.solver.game.Game.board`): each player's six cards with what is
marked on them and their points so far, their tickets and score, the rolls done, and the Black
and the Red die of the roll to record.

>>> from dicetree.solver.games.dicecards.game import DiceCards
>>> game = DiceCards()
>>> drawn = game.board(game.parse("SOL=B6,R5 SUD=16 BB=9,7 BG=- HOP=1,2 DBL=- t0 8/50 B4R2"))
>>> drawn.status
'A records a number of the roll (roll 9 of 50)'
>>> [(zone.owner, zone.title, len(zone.pieces)) for zone in drawn.zones]
[('', 'roll', 3), ('A', 'cards', 6), ('A', 'score', 2)]
>>> drawn.zones[0].pieces[0], drawn.zones[1].pieces[0].lines
(Die(sides=6, face=4, note='black', colour='black', dim=False, highlight=False), ('B6,R5', '0 points'))
"""

from __future__ import annotations

from dicetree.solver.board import Board, Card, Counter, Die, Zone
from dicetree.solver.games.dicecards.rules import final_score
from dicetree.solver.games.dicecards.state import OVER, RECORD, DiceCardsState


def board(game, state: DiceCardsState) -> Board:
    if state.phase == RECORD:
        roll = (Die(6, state.roll[0], "black", "black"), Die(6, state.roll[1], "red", "red"))
    else:
        rolling = state.phase != OVER
        roll = (Die(6, None, "black", highlight=rolling), Die(6, None, "red", highlight=rolling))
    zones = [Zone("roll", (*roll, Counter("rolls done", f"{state.rolls}/{game.rolls}")))]
    for player in range(state.players):
        cards, marks, tickets = state.seat(player)
        hand = game.hand(state, player)
        name = game.player_name(player)
        active = state.phase == RECORD and state.turn == player
        drawn = tuple(Card(code, (card.format_marks(mark), f"{card.score(mark)} points"),
                           highlight=card.is_complete(mark))
                      for code, card, mark in zip(cards, hand, marks))
        score = final_score(hand, marks, tickets)
        zones.append(Zone("cards", drawn, name, active))
        zones.append(Zone("score", (Counter("tickets", str(tickets)), Counter("score", str(score))), name, active))
    return Board(_status(game, state), tuple(zones))


def _status(game, state: DiceCardsState) -> str:
    if state.phase == OVER:
        return f"all {game.rolls} rolls done: the cards score"
    if state.phase == RECORD:
        return f"{game.player_name(state.turn)} records a number of the roll (roll {state.rolls + 1} of {game.rolls})"
    return f"chance: the Black and the Red die roll (roll {state.rolls + 1} of {game.rolls})"


__all__ = ["board"]
