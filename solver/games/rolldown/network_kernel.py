"""The interface between RolldownBeta's value network and any search that evaluates it: a position as a
fixed vector of small integers (:func:`raw_position`), and the network as two arrays (``sizes``,
``params``) that :func:`network_estimate` reads.

Both are plain Python in the subset numba compiles: the compiled search wraps
:func:`network_estimate` with ``numba.njit`` and fills the raw vector from its own packed positions, so
the Python path and the compiled one run one definition of the network (the undecorated function is
the pure-Python reference). Nothing here imports numpy or numba at module level, so a command that only
reads rules or notation loads neither.

**The raw vector** (:data:`RAW_LENGTH` int64 entries, from the view of ``to_move``, the player whose
decision comes next):

========== =====================================================================================
entries    meaning
========== =====================================================================================
0-5        ``to_move``'s dice faces by slot (d4, d6, d8, d10, d12, d20), 0 for a captured die
6-11       the opponent's dice faces by slot
12-25      how many of each card code 1..14 (Ace .. King, Joker) ``to_move`` holds (entry 11 + code)
26-39      the same for the opponent's hand (entry 25 + code)
40, 41     unknown cards (``?``) in ``to_move``'s hand, in the opponent's
42, 43     ``to_move``'s first turn of the round (1) or not (0), the opponent's
========== =====================================================================================

**The network** is a multilayer perceptron: ``sizes`` (int64) is ``[n_in, h_1, ..., h_k, 1]`` and
``params`` (float64, flat) holds, layer after layer, the weights ``W`` (``sizes[l]`` rows of
``sizes[l + 1]``, row-major: ``x @ W``) then the biases ``b``. Hidden layers are ReLU, the output a
logit; the estimate is its sigmoid, kept within [``clip``, 1 - ``clip``] so a leaf never equals a result.
The first layer reads the encoding of :func:`encode` (``n_in`` = :data:`INPUT_LENGTH`); a search calls
:func:`encode` then :func:`network_forward` (:func:`network_estimate` is both, in Python).

>>> from dicetree.solver.games.rolldown.state import RolldownState
>>> state = RolldownState(dice=((0, 2, 5, 0, 0, 0), (3, 6, 0, 0, 0, 0)), mover=0, hands=((12,), (15, 15)))
>>> raw = [0] * RAW_LENGTH
>>> raw_position(state, 0, raw)
>>> raw[:12], raw[12 + 11], raw[40:44]
([0, 2, 5, 0, 0, 0, 3, 6, 0, 0, 0, 0], 1, [0, 2, 0, 0])
"""

from __future__ import annotations

import math
from typing import Any

from dicetree.solver.games.rolldown.cards import DIE_SIDES, UNKNOWN
from dicetree.solver.games.rolldown.state import RolldownState

SLOTS = 6
CARD_CODES = 14
RAW_DICE, RAW_HANDS, RAW_UNKNOWN, RAW_FIRST = 0, 12, 40, 42
RAW_LENGTH = 44
"""Entries of the raw vector (see the module's table)."""

FACE_SLOTS = sum(DIE_SIDES)
"""One-hot entries for one side's faces: a d4 has 4, ... a d20 has 20 (a captured die: all zero)."""
PAIR_RELATIONS = 2 * SLOTS * SLOTS
"""Entries that say, for every pair (``to_move``'s die, the opponent's die) both in play, whether the first
shows at least the second (a capture it could make), then whether the second shows at least the first."""
INPUT_LENGTH = 2 * (FACE_SLOTS + SLOTS) + 2 * CARD_CODES + 2 + 2 + PAIR_RELATIONS
"""Entries of :func:`encode`'s output: per side the one-hot faces and the dice in play, per side the
hand counts, the unknown counts, the first-turn flags, then the pairs' relations (a function of the faces
spelled out, so a small network need not learn to compare dice)."""
DEFAULT_CLIP = 1e-3


def raw_position(state: RolldownState, to_move: int, out: Any) -> None:
    """Write ``state`` seen by ``to_move`` into ``out`` (a list or int64 array of :data:`RAW_LENGTH`)."""
    other = 1 - to_move
    for k in range(RAW_LENGTH):
        out[k] = 0
    for slot in range(SLOTS):
        out[RAW_DICE + slot] = state.dice[to_move][slot]
        out[RAW_DICE + SLOTS + slot] = state.dice[other][slot]
    for offset, side in ((0, to_move), (1, other)):
        for card in state.hands[side]:
            if card == UNKNOWN:
                out[RAW_UNKNOWN + offset] += 1
            else:
                out[RAW_HANDS + offset * CARD_CODES + card - 1] += 1
        out[RAW_FIRST + offset] = 1 if state.first_turn[side] else 0


def encode(raw: Any, x: Any) -> None:
    """The network's input ``x`` (float64, :data:`INPUT_LENGTH`) from a raw vector: lossless."""
    for k in range(INPUT_LENGTH):
        x[k] = 0.0
    at = 0
    for side in range(2):
        for slot in range(SLOTS):
            face = raw[RAW_DICE + side * SLOTS + slot]
            if face > 0:
                x[at + face - 1] = 1.0
                x[2 * FACE_SLOTS + side * SLOTS + slot] = 1.0
            at += DIE_SIDES[slot]
    at = 2 * (FACE_SLOTS + SLOTS)
    for k in range(2 * CARD_CODES):
        x[at + k] = raw[RAW_HANDS + k]
    at += 2 * CARD_CODES
    x[at] = raw[RAW_UNKNOWN]
    x[at + 1] = raw[RAW_UNKNOWN + 1]
    x[at + 2] = raw[RAW_FIRST]
    x[at + 3] = raw[RAW_FIRST + 1]
    at += 4
    for mine in range(SLOTS):
        my_face = raw[RAW_DICE + mine]
        for theirs in range(SLOTS):
            their_face = raw[RAW_DICE + SLOTS + theirs]
            if my_face > 0 and their_face > 0:
                if my_face >= their_face:
                    x[at + mine * SLOTS + theirs] = 1.0
                if their_face >= my_face:
                    x[at + SLOTS * SLOTS + mine * SLOTS + theirs] = 1.0


def network_forward(sizes: Any, params: Any, scratch: Any, clip: float) -> float:
    """The network's estimate from its input, which :func:`encode` wrote at the start of ``scratch``
    (float64 working memory of at least ``2 * max(sizes)`` entries; a search keeps one).

    Two functions rather than one so that numba can compile each alone (a compiled function calls only
    compiled ones): the compiled search calls its compiled ``encode`` then its compiled ``network_forward``.
    """
    width = 0
    for size in sizes:
        width = max(width, size)
    src, dst = 0, width  # the running layer lives in scratch[src:], the next one in scratch[dst:]
    at = 0
    layers = len(sizes) - 1
    for layer in range(layers):
        n_in, n_out = sizes[layer], sizes[layer + 1]
        bias_at = at + n_in * n_out
        for j in range(n_out):
            scratch[dst + j] = params[bias_at + j]
        # Row by row (each a contiguous run of params), skipping inputs that are 0: most of the encoding
        # (one-hot faces, absent cards) and about half of every ReLU layer, so a leaf costs a fraction of
        # the full product (measured in results/rolldown-network/leaf-cost.md).
        for i in range(n_in):
            x = scratch[src + i]
            if x == 0.0:
                continue
            row = at + i * n_out
            for j in range(n_out):
                scratch[dst + j] += x * params[row + j]
        if layer < layers - 1:
            for j in range(n_out):
                if scratch[dst + j] < 0.0:
                    scratch[dst + j] = 0.0
        at = bias_at + n_out
        src, dst = dst, src
    logit = scratch[src]
    p = 1.0 / (1.0 + math.exp(-logit)) if logit >= -700.0 else 0.0
    return min(1.0 - clip, max(clip, p))


def network_estimate(raw: Any, sizes: Any, params: Any, scratch: Any, clip: float = DEFAULT_CLIP) -> float:
    """The chance that the raw vector's ``to_move`` wins the round, by the network (``sizes``, ``params``)."""
    encode(raw, scratch)
    return network_forward(sizes, params, scratch, clip)


def parameter_count(sizes: Any) -> int:
    """Entries ``params`` must have for ``sizes``."""
    return sum(sizes[k] * sizes[k + 1] + sizes[k + 1] for k in range(len(sizes) - 1))


__all__ = [
    "CARD_CODES", "DEFAULT_CLIP", "FACE_SLOTS", "INPUT_LENGTH", "PAIR_RELATIONS", "RAW_DICE", "RAW_FIRST", "RAW_HANDS", "RAW_LENGTH",
    "RAW_UNKNOWN", "SLOTS", "encode", "network_estimate", "network_forward", "parameter_count", "raw_position",
]
