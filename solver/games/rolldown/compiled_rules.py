"""RolldownBeta's rules on packed positions (:mod:`dicetree.solver.games.rolldown.packed`), compiled by numba:
legal moves in :meth:`RolldownRules.legal_actions`'s order, a decision's and a chance outcome's result,
the cache key, chance outcomes (listed, or sampled with the compiled search's own generator).

Loaded only by the compiled search (numba loads here). Every function mirrors its Python rule in
:mod:`dicetree.solver.games.rolldown.rules`; ``tests/test_rolldown_compiled.py`` checks them against it
on random positions.

>>> from dicetree.solver.games.rolldown import Rolldown
>>> from dicetree.solver.games.rolldown.packed import decode_action, pack
>>> import numpy as np
>>> dice, cards = pack(Rolldown().parse("d6:2,d8:5/d4:3,d6:6 a K/-"))
>>> out = np.zeros(MAX_ACTIONS, dtype=np.int64)
>>> n = legal_actions(dice, cards, 0, out)
>>> [decode_action(int(code)).kind for code in out[:n]][:2]
[0, 2]
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numba
import numpy as np

from dicetree.cache.store import cache_home
from dicetree.solver.games.rolldown.cards import ACE, JACK, JOKER, KING, QUEEN
from dicetree.solver.games.rolldown.packed import (
    BLANK,
    CARD_CODES,
    FACE_BITS,
    FIRST_TURN_BIT,
    MOVER_BIT,
    PENDING_SHIFT,
    PHASE_SHIFT,
    SLOTS,
)
from dicetree.solver.games.rolldown.state import (
    CAPTURE,
    DECIDE,
    JOKER_PLAY,
    JOKER_ROLL,
    QUEEN_PLAY,
    QUEEN_ROLL,
    QUEEN_SECOND,
    REROLL,
    ROLL,
    SET,
)

MAX_ACTIONS = 256
"""More than any position's legal moves (36 captures, 3 cards on 12 dice with two Ace ends, 12 rerolls)."""
SIDES = np.array((4, 6, 8, 10, 12, 20), dtype=np.int64)
NO_CAPTURE_END = -1
"""What :func:`apply_decision` returns as the winner when the round goes on."""



def numba_cache_dir() -> Path:
    """Where numba keeps the compiled search: ``$NUMBA_CACHE_DIR`` when set, else ``numba`` in dicetree's
    folder of the user's cache (:func:`dicetree.cache.store.cache_home`), never inside the package."""
    override = os.environ.get("NUMBA_CACHE_DIR", "").strip()
    return Path(override).expanduser() if override else cache_home() / "numba"


def source_digest() -> str:
    """A digest of the sources the compiled search is made of. numba's cache checks only the file of each
    function it caches, not the functions it calls or the constants it read, so the cache is kept in a
    folder of this digest: a changed rule or evaluation compiles again."""
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")) + [package.parents[2] / "cache" / "transposition.py",
                                               package.parents[1] / "limits.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# Before any function below is compiled: numba picks each one's cache folder when it is decorated.
numba.config.CACHE_DIR = str(numba_cache_dir() / source_digest())  # type: ignore[attr-defined]
# No reference counting (_nrt=False): the compiled search allocates nothing (the caller passes every
# array), and counting references at every call was measured at two thirds of its time.
JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
jit = numba.njit(**JIT_OPTIONS)


@jit
def face(dice: int, side: int, slot: int) -> int:
    return (dice >> (FACE_BITS * (SLOTS * side + slot))) & 31


@jit
def with_face(dice: int, side: int, slot: int, value: int) -> int:
    shift = FACE_BITS * (SLOTS * side + slot)
    return (dice & ~(31 << shift)) | (value << shift)


@jit
def mover_of(dice: int) -> int:
    return (dice >> MOVER_BIT) & 1


@jit
def first_turn(dice: int, side: int) -> int:
    return (dice >> (FIRST_TURN_BIT + side)) & 1


@jit
def card_count(cards: int, side: int, card: int) -> int:
    return (cards >> (2 * (CARD_CODES * side + card - 1))) & 3


@jit
def hand_size(cards: int, side: int) -> int:
    total = 0
    for card in range(1, CARD_CODES + 1):
        total += card_count(cards, side, card)
    return total


@jit
def phase_of(cards: int) -> int:
    return (cards >> PHASE_SHIFT) & 7


@jit
def pending_of(cards: int) -> int:
    return (cards >> PENDING_SHIFT) & 15


@jit
def with_phase(cards: int, phase: int, pending: int) -> int:
    return (cards & ((1 << PHASE_SHIFT) - 1)) | (phase << PHASE_SHIFT) | (pending << PENDING_SHIFT)


@jit
def code_of(kind: int, card: int, side: int, slot: int, value: int) -> int:
    """:func:`dicetree.solver.games.rolldown.packed.action_code`, compiled."""
    return (((kind * 15 + card) * 2 + side) * SLOTS + slot) * 21 + value


@jit
def legal_actions(dice: int, cards: int, ace_printed: int, out) -> int:
    """Writes the legal moves' codes into ``out`` in the Python rules' order; returns how many."""
    if phase_of(cards) == QUEEN_SECOND:
        return list_rerolls(dice, out, 0)
    n = 0
    me = mover_of(dice)
    if not first_turn(dice, me):
        for my_slot in range(SLOTS):
            mine = face(dice, me, my_slot)
            if mine:
                for their_slot in range(SLOTS):
                    theirs = face(dice, 1 - me, their_slot)
                    if theirs and theirs <= mine:
                        out[n] = code_of(CAPTURE, 0, 0, my_slot, their_slot)
                        n += 1
    for card in range(1, CARD_CODES + 1):
        if not card_count(cards, me, card):
            continue
        if card == JOKER:
            out[n] = code_of(JOKER_PLAY, 0, 0, 0, 0)
            n += 1
            continue
        for side in range(2):
            for slot in range(SLOTS):
                if not face(dice, side, slot):
                    continue
                sides = SIDES[slot]
                if card == QUEEN:
                    out[n] = code_of(QUEEN_PLAY, 0, side, slot, 0)
                    n += 1
                elif card == KING:
                    out[n] = code_of(SET, card, side, slot, sides)
                    n += 1
                elif card == JACK:
                    out[n] = code_of(SET, card, side, slot, 1)
                    n += 1
                elif card == ACE:
                    if ace_printed or side == me:
                        out[n] = code_of(SET, card, side, slot, sides)
                        n += 1
                    if ace_printed or side != me:
                        out[n] = code_of(SET, card, side, slot, 1)
                        n += 1
                elif card <= sides:
                    out[n] = code_of(SET, card, side, slot, card)
                    n += 1
    return list_rerolls(dice, out, n)


@jit
def list_rerolls(dice: int, out, n: int) -> int:
    """Writes a reroll of every die in play (A's, then B's) into ``out`` from ``n`` on; returns the new count."""
    for side in range(2):
        for slot in range(SLOTS):
            if face(dice, side, slot):
                out[n] = code_of(REROLL, 0, side, slot, 0)
                n += 1
    return n


@jit
def end_turn(dice: int, cards: int):
    me = mover_of(dice)
    dice = dice & ~(1 << (FIRST_TURN_BIT + me))
    dice = (dice & ~(1 << MOVER_BIT)) | ((1 - me) << MOVER_BIT)
    return dice, with_phase(cards, DECIDE, 0)


@jit
def apply_decision(dice: int, cards: int, code: int):
    """A decision's result: ``(dice, cards, winner, points)``; ``winner`` is :data:`NO_CAPTURE_END`
    unless the move captured the last pair (the round is then over and its words mean nothing)."""
    value = code % 21
    rest = code // 21
    slot = rest % SLOTS
    rest //= SLOTS
    side = rest % 2
    rest //= 2
    card = rest % 15
    kind = rest // 15
    me = mover_of(dice)
    if phase_of(cards) == QUEEN_SECOND or kind == REROLL:
        return dice, with_phase(cards, ROLL, SLOTS * side + slot), NO_CAPTURE_END, 0
    if kind == CAPTURE:
        dice = with_face(with_face(dice, me, slot, 0), 1 - me, value, 0)
        if dice & ((1 << (FACE_BITS * SLOTS)) - 1) == 0:
            return dice, cards, me, SIDES[slot] + SIDES[value]
        dice, cards = end_turn(dice, cards)
        return dice, cards, NO_CAPTURE_END, 0
    played = card if kind == SET else QUEEN if kind == QUEEN_PLAY else JOKER
    cards -= 1 << (2 * (CARD_CODES * me + played - 1))
    if kind == SET:
        dice, cards = end_turn(with_face(dice, side, slot, value), cards)
        return dice, cards, NO_CAPTURE_END, 0
    if kind == QUEEN_PLAY:
        return dice, with_phase(cards, QUEEN_ROLL, SLOTS * side + slot), NO_CAPTURE_END, 0
    return dice, with_phase(cards, JOKER_ROLL, 0), NO_CAPTURE_END, 0


@jit
def cache_key(dice: int, cards: int) -> int:
    """The dice word of the key (:meth:`RolldownRules.key`): faces about to be rerolled blanked."""
    phase = phase_of(cards)
    if phase in (ROLL, QUEEN_ROLL):
        pending = pending_of(cards)
        return with_face(dice, pending // SLOTS, pending % SLOTS, BLANK)
    if phase == JOKER_ROLL:
        for side in range(2):
            for slot in range(SLOTS):
                if face(dice, side, slot):
                    dice = with_face(dice, side, slot, BLANK)
    return dice


@jit
def roll_dice(dice: int, slots) -> int:
    """How many dice a Joker rerolls; their ``6 * side + slot`` (A's, then B's) into ``slots``."""
    n = 0
    for side in range(2):
        for slot in range(SLOTS):
            if face(dice, side, slot):
                slots[n] = SLOTS * side + slot
                n += 1
    return n


@jit
def outcome_count(dice: int, cards: int, slots) -> int:
    """A chance node's outcome count (for a Joker, with its dice written into ``slots``)."""
    if phase_of(cards) == JOKER_ROLL:
        count = 1
        for k in range(roll_dice(dice, slots)):
            count *= SIDES[slots[k] % SLOTS]
        return count
    return SIDES[pending_of(cards) % SLOTS]


@jit
def apply_roll(dice: int, cards: int, outcome: int):
    """The result of outcome number ``outcome`` (in :meth:`RolldownRules.chance_outcomes`' order) of a
    reroll or the Queen's first die: its face is ``outcome + 1``."""
    pending = pending_of(cards)
    dice = with_face(dice, pending // SLOTS, pending % SLOTS, outcome + 1)
    if phase_of(cards) == QUEEN_ROLL:
        return dice, with_phase(cards, QUEEN_SECOND, 0)
    return end_turn(dice, cards)


@jit
def apply_joker_index(dice: int, cards: int, slots, rolled: int, outcome: int):
    """The result of the Joker's outcome number ``outcome`` in ``itertools.product`` order (the last
    die fastest) over the ``rolled`` dice in ``slots``."""
    for k in range(rolled - 1, -1, -1):
        sides = SIDES[slots[k] % SLOTS]
        dice = with_face(dice, slots[k] // SLOTS, slots[k] % SLOTS, outcome % sides + 1)
        outcome //= sides
    return end_turn(dice, cards)


@jit
def apply_joker_faces(dice: int, cards: int, slots, rolled: int, faces) -> tuple:
    """The result of a Joker's outcome given as ``faces`` of the ``rolled`` dice in ``slots``."""
    for k in range(rolled):
        dice = with_face(dice, slots[k] // SLOTS, slots[k] % SLOTS, faces[k])
    return end_turn(dice, cards)


@jit
def mix(x: np.uint64) -> np.uint64:
    """SplitMix64's finalizer: the transposition table's hash and the sampler's generator."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@jit
def key_hash(dice: int, cards: int) -> np.uint64:
    return mix(np.uint64(dice) * np.uint64(0x9E3779B97F4A7C15) ^ mix(np.uint64(cards) + np.uint64(0x632BE59BD9B4E019)))


@jit
def sample_joker(dice: int, cards: int, seed: int, samples: int, slots, rolled: int, faces, weights) -> int:
    """``samples`` Joker outcomes drawn with a generator seeded from ``seed`` and the node's key (the same
    node always gets the same sample), repeated draws merged in first-drawn order as
    :func:`dicetree.solver.chance.chance_distribution` merges them: faces into ``faces[i, :rolled]``,
    weights into ``weights``; returns how many distinct outcomes."""
    state = key_hash(cache_key(dice, cards), cards) ^ mix(np.uint64(seed) + np.uint64(0x2545F4914F6CDD1D))
    weight = 1.0 / samples
    distinct = 0
    for _ in range(samples):
        for k in range(rolled):
            state += np.uint64(0x9E3779B97F4A7C15)
            faces[distinct, k] = np.int64(mix(state) % np.uint64(SIDES[slots[k] % SLOTS])) + 1
        found = distinct
        for i in range(distinct):
            same = True
            for k in range(rolled):
                if faces[i, k] != faces[distinct, k]:
                    same = False
                    break
            if same:
                found = i
                break
        if found == distinct:
            weights[distinct] = 0.0 + weight
            distinct += 1
        else:
            weights[found] += weight
    return distinct


__all__ = [
    "JIT_OPTIONS", "MAX_ACTIONS", "NO_CAPTURE_END", "SIDES", "apply_decision", "apply_joker_faces", "apply_joker_index", "apply_roll",
    "cache_key", "card_count", "end_turn", "face", "first_turn", "hand_size", "key_hash", "legal_actions", "mover_of",
    "numba_cache_dir", "outcome_count", "source_digest", "phase_of", "pending_of", "roll_dice", "sample_joker",
]
