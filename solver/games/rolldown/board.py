"""RolldownBeta drawn (:meth:`dicetree.solver.game.Game.board`): each player's six dice (taken ones
faded), their hand (unknown cards face down, with their count), their discards, the scores of a
match, and what happens next.

>>> from dicetree.solver.games.rolldown.game import Rolldown
>>> game = Rolldown()
>>> drawn = board(game, game.observe(game.parse("d6:2,d8:5/d4:3,d6:6 a QK/5"), 1))
>>> drawn.status
'A to move (as B sees it)'
>>> [(zone.owner, zone.title, len(zone.pieces)) for zone in drawn.zones]
[('A', 'dice', 6), ('A', 'hand', 1), ('B', 'dice', 6), ('B', 'hand', 1)]
>>> drawn.zones[1].pieces[0]
Card(text='', lines=(), face_down=True, count=2, dim=False, highlight=False)
"""

from __future__ import annotations

from dicetree.solver.board import Board, Card, Counter, Die, Zone
from dicetree.solver.games.rolldown.cards import CARD_LETTERS, CARD_NAMES, DIE_SIDES, UNKNOWN
from dicetree.solver.games.rolldown.state import (
    DECISION_PHASES,
    JOKER_ROLL,
    NOBODY,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    QUEEN_ROLL,
    QUEEN_SECOND,
    ROLL,
    ROUND_OVER,
    RolldownState,
)


def board(game, state: RolldownState) -> Board:
    """``state`` drawn, as its ``seen_by`` player (or the mover) sees it."""
    zones: list[Zone] = []
    pending = state.pending if state.phase in (ROLL, QUEEN_ROLL) else None
    for player in (0, 1):
        name, active = PLAYER_NAMES[player], state.mover == player and state.phase != ROUND_OVER
        dice = tuple(Die(sides, face or "×", "taken" if not face else "", dim=not face,
                         highlight=pending == (player, slot) or (state.phase == JOKER_ROLL and bool(face)))
                     for slot, (sides, face) in enumerate(zip(DIE_SIDES, state.dice[player])))
        zones.append(Zone("dice", dice, name, active))
        zones.append(Zone("hand", _hand(state.hands[player]), name, active))
        if state.discards[player]:
            zones.append(Zone("discards", tuple(Card(CARD_LETTERS[c], dim=True) for c in state.discards[player]),
                              name, active))
        if state.mode != "single":
            zones.append(Zone("score", (Counter("points", str(state.scores[player])),), name, active))
    return Board(_status(state), tuple(zones))


def _hand(cards: tuple[int, ...]) -> tuple[Card, ...]:
    """Known cards face up; the unknown ones as one face-down stack."""
    known = tuple(Card(CARD_LETTERS[c], (CARD_NAMES[c],) if CARD_NAMES[c] != CARD_LETTERS[c] else ())
                  for c in cards if c != UNKNOWN)
    hidden = sum(1 for c in cards if c == UNKNOWN)
    return known + ((Card("", face_down=True, count=hidden),) if hidden else ())


def _status(state: RolldownState) -> str:
    mover = PLAYER_NAMES[state.mover]
    if state.phase == ROUND_OVER:
        return f"{PLAYER_NAMES[state.round_winner]} won the round ({state.round_points} points)"
    if state.phase in DECISION_PHASES:
        text = f"{mover} to move" + (": the Queen's second die" if state.phase == QUEEN_SECOND else "")
    elif state.phase == JOKER_ROLL:
        text = f"chance: the Joker rerolls every die ({mover}'s turn)"
    else:
        assert state.pending is not None  # a roll's chance node has its die
        side, slot = state.pending
        text = f"chance: rolls {PLAYER_LETTERS[side]}.d{DIE_SIDES[slot]} ({mover}'s turn)"
    if state.mode != "single":
        text += f" · {state.mode}, round {state.round}"
    if state.seen_by != NOBODY:
        text += f" (as {PLAYER_NAMES[state.seen_by]} sees it)"
    return text


__all__ = ["board"]
