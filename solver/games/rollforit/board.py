"""Roll For It! drawn (:meth:`dicetree.solver.game.Game.board`): the face-up cards with their points,
their images and the dice each player has on them, the deck face down with its count, and each
player's score and free dice (the mover's rolled ones with their faces).

>>> from dicetree.solver.games.rollforit.game import RollForIt
>>> game = RollForIt()
>>> drawn = game.board(game.parse(game.example_position()))
>>> drawn.status
'A to move: roll (or Take Back)'
>>> [(zone.owner, zone.title, len(zone.pieces)) for zone in drawn.zones]
[('', 'table', 4), ('A', 'dice', 2), ('B', 'dice', 2)]
>>> card = drawn.zones[0].pieces[0]
>>> card.lines, [die.face for die in card.dice]
(('5 points', 'A: 35 · B: 4'), [3, 4, 5])
"""

from __future__ import annotations

from dicetree.solver.board import Board, Card, Counter, Die, Zone
from dicetree.solver.games.rollforit.state import (
    DICE_PER_PLAYER, FLIP, OVER, PLACE, ROLL, RollForItState, faces_text, player_letter,
)

WHAT = {PLACE: "place the rolled dice", ROLL: "chance: the dice roll", FLIP: "chance: a card is turned up"}


def board(game, state: RollForItState) -> Board:
    table = [_card(game, state, index) for index in range(len(state.cards))]
    in_deck = bin(state.deck).count("1")
    table.append(Card("", ("deck",), face_down=True, count=in_deck) if in_deck
                 else Card("-", ("deck empty",), dim=True))
    zones = [Zone("table", tuple(table))]
    for player in range(game.num_players):
        on_cards = sum(len(faces[player]) for faces in state.placed)
        pieces: list = [Counter("points", str(state.scores[player]))]
        mover = player == state.mover and state.phase != OVER
        if mover and state.phase in (PLACE, FLIP):
            pieces += [Die(6, face, "rolled") for face in state.rolled]
        elif mover and state.phase == ROLL:
            pieces += [Die(6, None, "rolling", highlight=True)] * (DICE_PER_PLAYER - on_cards)
        else:
            pieces.append(Counter("free dice", str(DICE_PER_PLAYER - on_cards)))
        zones.append(Zone("dice", tuple(pieces), player_letter(player), mover))
    return Board(_status(state), tuple(zones))


def _card(game, state: RollForItState, index: int) -> Card:
    card = game.cards[state.cards[index]]
    on = " · ".join(f"{player_letter(p)}: {faces_text(faces)}" for p, faces in enumerate(state.placed[index]) if faces)
    images = tuple(Die(6, face) for face in card.dice)  # drawn on the card as dice, with their pips
    return Card(card.id, (f"{card.points} points", *((on,) if on else ())), dice=images)


def _status(state: RollForItState) -> str:
    if state.phase == OVER:
        names = " and ".join(player_letter(p) for p in state.winners)
        return f"{names} won" if len(state.winners) == 1 else f"a shared win: {names}"
    mover = player_letter(state.mover)
    if state.phase in (ROLL, FLIP):
        return f"{WHAT[state.phase]} ({mover}'s turn)"
    return f"{mover} to move: " + (WHAT[PLACE] if state.phase == PLACE else "roll (or Take Back)")


__all__ = ["board"]
