"""RolldownBeta positions and actions as small integers, for the compiled search
(:mod:`dicetree.solver.games.rolldown.compiled_search`): plain Python, no numba, no numpy.

A position inside one search is two 64-bit words (what a search can change; the rest of the
:class:`~dicetree.solver.games.rolldown.state.RolldownState` stays the root's):

* ``dice`` word: bits ``5 * (6 * side + slot)`` hold that die's face (0 captured, 1..20, and
  :data:`BLANK` for a face about to be rerolled, as :meth:`RolldownRules.key` blanks it); bit 60 the
  mover; bits 61 and 62 player A's and player B's first turn of the round;
* ``cards`` word: bits ``2 * (14 * side + code - 1)`` count card ``code`` (Ace 1 .. Joker 14) in that
  side's hand; bits 56-58 the phase; bits 59-62 the pending die ``6 * side + slot``.

Discards are not packed: within a search they are the root's plus the cards played, which the
hands determine. An action is one int (:func:`action_code`), also the history heuristic's index.

>>> from dicetree.solver.games.rolldown.state import RolldownState, Capture
>>> state = RolldownState(dice=((0, 2, 5, 0, 0, 0), (3, 6, 0, 0, 0, 0)), mover=0, hands=((12, 13), ()))
>>> words = pack(state)
>>> unpack(words, state) == state
True
>>> decode_action(action_code(Capture(2, 0)))
Capture(my_slot=2, their_slot=0, kind=0)
"""

from __future__ import annotations

from dicetree.solver.games.rolldown.cards import UNKNOWN
from dicetree.solver.games.rolldown.state import (
    CAPTURE,
    JOKER_ACTION,
    JOKER_PLAY,
    QUEEN_PLAY,
    REROLL,
    ROUND_OVER,
    SET,
    Action,
    Capture,
    QueenPlay,
    Reroll,
    RolldownState,
    SetFace,
)

SLOTS = 6
FACE_BITS = 5
BLANK = 31
"""A face about to be rerolled (the key's -1)."""
MOVER_BIT = 60
FIRST_TURN_BIT = 61
CARD_CODES = 14
PHASE_SHIFT = 56
PENDING_SHIFT = 59
MAX_COPIES = 3
"""A hand packs at most this many cards of one code (a real deck holds two, one Joker)."""

ACTION_CODES = 5 * 15 * 2 * SLOTS * 21
"""Action codes are below this (the history heuristic's table size)."""


def packable(state: RolldownState) -> str:
    """Why ``state`` cannot be packed ('' when it can): unknown cards, or more than
    :data:`MAX_COPIES` of a card in one hand, or a finished round."""
    for hand in state.hands:
        if UNKNOWN in hand:
            return "a hand holds unknown cards"
        if any(hand.count(card) > MAX_COPIES for card in set(hand)):
            return "a hand holds more copies of a card than the packed form keeps"
    if state.phase == ROUND_OVER:
        return "the round is over"
    return ""


def pack(state: RolldownState) -> tuple[int, int]:
    """The two words of ``state`` (see :func:`packable` for what cannot be packed)."""
    dice = 0
    for side in (0, 1):
        for slot, face in enumerate(state.dice[side]):
            dice |= (BLANK if face < 0 else face) << (FACE_BITS * (SLOTS * side + slot))
    dice |= state.mover << MOVER_BIT
    for side in (0, 1):
        if state.first_turn[side]:
            dice |= 1 << (FIRST_TURN_BIT + side)
    cards = 0
    for side in (0, 1):
        for card in state.hands[side]:
            cards += 1 << (2 * (CARD_CODES * side + card - 1))
    cards |= state.phase << PHASE_SHIFT
    if state.pending is not None:
        cards |= (SLOTS * state.pending[0] + state.pending[1]) << PENDING_SHIFT
    return dice, cards


def unpack(words: tuple[int, int], root: RolldownState) -> RolldownState:
    """The state of ``words`` in the search of ``root`` (discards: the root's plus the cards played)."""
    dice_word, cards_word = words
    def faces(side: int) -> tuple[int, ...]:
        return tuple(-1 if (f := (dice_word >> (FACE_BITS * (SLOTS * side + slot))) & 31) == BLANK else f
                     for slot in range(SLOTS))

    def hand(side: int) -> tuple[int, ...]:
        return tuple(card for card in range(1, CARD_CODES + 1)
                     for _ in range((cards_word >> (2 * (CARD_CODES * side + card - 1))) & 3))

    dice, hands = (faces(0), faces(1)), (hand(0), hand(1))
    discards = []
    for side in (0, 1):
        played = list(root.hands[side])
        for card in hands[side]:
            played.remove(card)
        discards.append(tuple(sorted(root.discards[side] + tuple(played))))
    phase = (cards_word >> PHASE_SHIFT) & 7
    pending_code = (cards_word >> PENDING_SHIFT) & 15
    pending = divmod(pending_code, SLOTS) if phase in (1, 2) else None
    return root._replace(
        dice=dice, mover=(dice_word >> MOVER_BIT) & 1, hands=hands,
        first_turn=(bool(dice_word >> FIRST_TURN_BIT & 1), bool(dice_word >> (FIRST_TURN_BIT + 1) & 1)),
        discards=(discards[0], discards[1]), phase=phase, pending=pending,
    )


def action_code(action: Action) -> int:
    """One int per action: kind, card, side, slot and face (a capture's their_slot)."""
    kind = action.kind
    card = side = slot = face = 0
    if isinstance(action, Capture):
        slot, face = action.my_slot, action.their_slot
    elif isinstance(action, (Reroll, QueenPlay)):
        side, slot = action.side, action.slot
    elif isinstance(action, SetFace):
        card, side, slot, face = action.card, action.side, action.slot, action.face
    return (((kind * 15 + card) * 2 + side) * SLOTS + slot) * 21 + face


def decode_action(code: int) -> Action:
    """The action of :func:`action_code`."""
    code, face = divmod(code, 21)
    code, slot = divmod(code, SLOTS)
    code, side = divmod(code, 2)
    kind, card = divmod(code, 15)
    if kind == CAPTURE:
        return Capture(slot, face)
    if kind == REROLL:
        return Reroll(side, slot)
    if kind == SET:
        return SetFace(card, side, slot, face)
    if kind == QUEEN_PLAY:
        return QueenPlay(side, slot)
    if kind == JOKER_PLAY:
        return JOKER_ACTION
    raise ValueError(f"not an action code: {code}")


__all__ = ["ACTION_CODES", "BLANK", "action_code", "decode_action", "pack", "packable", "unpack"]
