"""RolldownBeta's leaf evaluations on packed positions, compiled by numba: the frame of
:func:`dicetree.solver.games.rolldown.evaluation.evaluate` (objectives, the player to move) around the
fitted estimate (:mod:`~dicetree.solver.games.rolldown.fitted`), the hand-made heuristic, or a value
network (:mod:`~dicetree.solver.games.rolldown.network_kernel`, whose ``encode`` and ``network_forward``
are compiled here, not copied).

:class:`Leaves` holds what the compiled functions read (arrays only), built once per game from its
evaluation: :func:`leaves_of`.

>>> from dicetree.solver.games.rolldown import Rolldown
>>> from dicetree.solver.games.rolldown.packed import pack
>>> game = Rolldown()
>>> state = game.parse("d6:2,d8:5/d4:3,d6:6 a -/-")
>>> leaves = leaves_of(game, state)
>>> abs(evaluate(*pack(state), leaves) - game.evaluate(state, 0)) < 1e-12
True
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np

from dicetree.solver.games.rolldown import network_kernel
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.compiled_rules import (
    JIT_OPTIONS,
    SIDES,
    card_count,
    face,
    first_turn,
    hand_size,
    mover_of,
    phase_of,
)
from dicetree.solver.games.rolldown.evaluation import (
    CARD_WEIGHT,
    CEILING,
    FLOOR,
    LAST_PAIR_WIN as HEURISTIC_LAST_PAIR,
    MATCH_CLIP,
    THREAT_WEIGHT,
)
from dicetree.solver.games.rolldown.fitted import CLIP, FEATURE_NAMES, LAST_PAIR_WIN, FittedModel, load_model
from dicetree.solver.games.rolldown.match_equity import MatchEquityError
from dicetree.solver.games.rolldown.packed import CARD_CODES, SLOTS
from dicetree.solver.games.rolldown.state import DECIDE, RolldownState

FITTED, HEURISTIC, NETWORK = 0, 1, 2
ROUND, POINTS, MATCH = 0, 1, 2
FEATURES = len(FEATURE_NAMES)

# The fitted estimate's per-pair quotients, by slot and face: the chance that a die of the slot's sides
# rolls at least the face, and min(face, sides) / sides. Looked up rather than divided (four divisions
# a pair of dice were most of a 6-dice leaf's cost): the same float64 quotients, so the same values to the bit.
MOST_FACES = int(SIDES.max())
AT_LEAST = np.array([[(sides - v + 1) / sides if sides >= v else 0.0 for v in range(MOST_FACES + 1)] for sides in SIDES])
UP_TO = np.array([[min(v, sides) / sides for v in range(MOST_FACES + 1)] for sides in SIDES])

AFTER_ROUND = 8 * SLOTS
"""Where :func:`after_round`'s working memory starts in ``Leaves.work`` (the fitted estimate's comes first)."""

# No reference counting (_nrt=False): these functions allocate nothing, and the counting of every array
# passed to every call was measured at two thirds of the search's time.
jit = numba.njit(**JIT_OPTIONS)
encode = jit(network_kernel.encode)
network_forward = jit(network_kernel.network_forward)


class Leaves(NamedTuple):
    """What the compiled evaluation reads: the estimate's kind and arrays, and the objective's frame."""

    kind: int  # FITTED, HEURISTIC or NETWORK
    objective: int  # ROUND, POINTS, or MATCH (the match in First to 50 or Nine rounds)
    linear: np.ndarray  # the fitted weights: features, then my card counts, then theirs
    bias: float
    first: np.ndarray  # the hidden layer (features x units; standardization folded in)
    first_bias: np.ndarray
    out: np.ndarray
    pair_values: np.ndarray  # every one-die value, flat
    pair_at: np.ndarray  # where pair (slot s, slot t) starts in pair_values
    sizes: np.ndarray  # the network (NETWORK)
    params: np.ndarray
    scratch: np.ndarray
    raw: np.ndarray
    clip: float
    win_a: np.ndarray  # MATCH: A's match-winning chance after A wins the round with p points, by p
    win_b: np.ndarray  # ... after B wins it with p points
    work: np.ndarray  # int64 working memory of the fitted estimate
    row: np.ndarray  # its design row


_fitted_arrays: dict[int, tuple] = {}


def fitted_arrays(model: FittedModel):
    """The fitted model as the compiled evaluation reads it (made once a model: a search asks for it)."""
    known = _fitted_arrays.get(id(model))
    if known is not None and known[0] is model:
        return known[1]
    linear, first, first_bias, out, _ = model._matrices()
    pair_at = np.zeros((SLOTS, SLOTS), dtype=np.int64)
    values: list[float] = []
    for s, sides_s in enumerate(DIE_SIDES):
        for t, sides_t in enumerate(DIE_SIDES):
            pair_at[s, t] = len(values)
            values.extend(model.pair_values[(sides_s, sides_t)])
    arrays = (np.ascontiguousarray(linear, dtype=np.float64), float(model.bias),
              np.ascontiguousarray(first, dtype=np.float64).reshape(FEATURES, len(out)),
              np.ascontiguousarray(first_bias, dtype=np.float64), np.ascontiguousarray(out, dtype=np.float64),
              np.array(values, dtype=np.float64), pair_at)
    _fitted_arrays[id(model)] = (model, arrays)
    return arrays


def leaves_of(game, root: RolldownState, *, network: tuple[np.ndarray, np.ndarray] | None = None,
              clip: float = network_kernel.DEFAULT_CLIP) -> Leaves:
    """The compiled evaluation of ``game`` (a :class:`~dicetree.solver.games.rolldown.game.Rolldown`) for
    a search of ``root`` (its scores, round and starter frame a match), with the value network
    ``network`` (``sizes``, ``params``) in place of the game's estimate when given (else the game's own
    network where its evaluation is ``network``)."""
    model = game.network() if network is None else None
    if model is not None:
        network, clip = (model.sizes, model.params), model.clip
    kind = NETWORK if network is not None else FITTED if game.evaluation == "fitted" else HEURISTIC
    objective = {"round": ROUND, "points": POINTS, "match": MATCH}[game.objective]
    if objective == MATCH and root.mode == "single":
        objective = ROUND
    win_a = np.zeros(2 * max(DIE_SIDES) + 1)
    win_b = np.zeros(2 * max(DIE_SIDES) + 1)
    if objective == MATCH:
        a, b = root.scores
        for points in sorted({s + t for s in DIE_SIDES for t in DIE_SIDES}):
            win_a[points] = _equity(game, root, (a + points, b))
            win_b[points] = _equity(game, root, (a, b + points))
    linear, bias, first, first_bias, out, pair_values, pair_at = fitted_arrays(load_model())
    sizes = np.zeros(2, dtype=np.int64)
    params = np.zeros(1)
    if network is not None:
        sizes = np.ascontiguousarray(network[0], dtype=np.int64)
        params = np.ascontiguousarray(network[1], dtype=np.float64)
    scratch = np.zeros(max(2 * int(sizes.max()), network_kernel.INPUT_LENGTH) + 1)
    return Leaves(int(kind), int(objective), linear, float(bias), first, first_bias, out, pair_values, pair_at, sizes, params, scratch,
                  np.zeros(network_kernel.RAW_LENGTH, dtype=np.int64), float(clip), win_a, win_b,
                  np.zeros(AFTER_ROUND + 2 * SLOTS * SLOTS, dtype=np.int64), np.zeros(FEATURES + 2 * CARD_CODES))


def _equity(game, root: RolldownState, scores: tuple[int, int]) -> float:
    """A's match-winning chance at ``scores`` after ``root``'s round; NaN where the tables say that
    score cannot arise (the search then runs in Python, which says so if it gets there)."""
    try:
        return game.equity.value(root.mode, scores, 1 - root.starter, root.round + 1)
    except MatchEquityError:
        return math.nan


def prototype_leaves() -> Leaves:
    """A :class:`Leaves` of the types :func:`leaves_of` gives (the compiled search's signature is typed
    from it)."""
    floats, ints = np.zeros(1), np.zeros(1, dtype=np.int64)
    return Leaves(FITTED, ROUND, floats, 0.0, np.zeros((1, 1)), floats, floats, floats, np.zeros((1, 1), dtype=np.int64),
                  ints, floats, floats, ints, 0.0, floats, floats, ints, floats)


@jit
def heuristic_estimate(dice: int, cards: int, to_move: int) -> float:
    """:func:`dicetree.solver.games.rolldown.evaluation.round_win_estimate`."""
    other = 1 - to_move
    n = 0
    only = 0
    for slot in range(SLOTS):
        if face(dice, to_move, slot):
            n += 1
            only = face(dice, to_move, slot)
    if n == 1 and not first_turn(dice, to_move):
        for slot in range(SLOTS):
            theirs = face(dice, other, slot)
            if theirs and only >= theirs:
                return HEURISTIC_LAST_PAIR
    margin = 0
    for slot in range(SLOTS):
        mine = face(dice, to_move, slot)
        if not mine:
            continue
        for their_slot in range(SLOTS):
            theirs = face(dice, other, their_slot)
            if theirs:
                margin += (1 if theirs < mine else 0) + (1 if theirs <= mine else 0)
    margin -= n * n
    p = 0.5 + THREAT_WEIGHT * math.tanh(2.0 * margin / (n * n))
    p += CARD_WEIGHT * (hand_size(cards, to_move) - hand_size(cards, other))
    return min(CEILING, max(FLOOR, p))


@jit
def fitted_estimate(dice: int, cards: int, to_move: int, leaves: Leaves) -> float:
    """:meth:`dicetree.solver.games.rolldown.fitted.FittedModel.estimate` (same features, same order of sums)."""
    other = 1 - to_move
    my_slots = leaves.work[4 * SLOTS:5 * SLOTS]
    their_slots = leaves.work[5 * SLOTS:6 * SLOTS]
    my_faces = leaves.work[6 * SLOTS:7 * SLOTS]  # the dice in play's faces, read once (the loops below
    their_faces = leaves.work[7 * SLOTS:8 * SLOTS]  # visit every pair)
    n = 0
    m = 0
    for slot in range(SLOTS):
        mine = face(dice, to_move, slot)
        if mine:
            my_slots[n] = slot
            my_faces[n] = mine
            n += 1
        theirs = face(dice, other, slot)
        if theirs:
            their_slots[m] = slot
            their_faces[m] = theirs
            m += 1
    pairs, pair_at = leaves.pair_values, leaves.pair_at
    if n == 1:
        s, t = SIDES[my_slots[0]], SIDES[their_slots[0]]
        f, g = face(dice, to_move, my_slots[0]), face(dice, other, their_slots[0])
        if f >= g and not first_turn(dice, to_move):
            return LAST_PAIR_WIN
        if hand_size(cards, 0) == 0 and hand_size(cards, 1) == 0 and not first_turn(dice, 0) \
                and not first_turn(dice, 1):
            return min(1.0 - CLIP, max(CLIP, pairs[pair_at[my_slots[0], their_slots[0]] + (f - 1) * t + g - 1]))
    mine_may = not first_turn(dice, to_move)
    theirs_may = not first_turn(dice, other)
    # Captures as bits 6 i + j (my die i takes their die j; their die j takes my die i), with counts by
    # row (my die) and column (their die): work[0:6], [6:12] mine, [12:18], [18:24] theirs.
    work = leaves.work
    for k in range(4 * SLOTS):
        work[k] = 0
    mine_bits = 0
    their_bits = 0
    my_count = 0
    their_count = 0
    # Branch-free (0/1 arithmetic, not ifs): which die captures which is a coin toss to the processor, and
    # its mispredicted branches were a third of a 6-dice leaf's cost.
    for i in range(n):
        f = my_faces[i]
        for j in range(n):
            g = their_faces[j]
            mine = int(mine_may) & int(f >= g)
            theirs = int(theirs_may) & int(g >= f)
            mine_bits |= mine << (SLOTS * i + j)
            my_count += mine
            work[i] += mine
            work[SLOTS + j] += mine
            their_bits |= theirs << (SLOTS * i + j)
            their_count += theirs
            work[2 * SLOTS + i] += theirs
            work[3 * SLOTS + j] += theirs
    # A capture (i, j) is safe when every capture of the other side uses die i or die j.
    my_safe = 0
    their_safe = 0
    my_capturing = 0  # my dice that can capture something, their dice I can capture, and the same for them
    their_taken = 0
    their_capturing = 0
    my_taken = 0
    for i in range(n):
        my_capturing += work[i] > 0
        their_taken += work[SLOTS + i] > 0
        my_taken += work[2 * SLOTS + i] > 0
        their_capturing += work[3 * SLOTS + i] > 0
        for j in range(n):
            mine = (mine_bits >> (SLOTS * i + j)) & 1
            theirs = (their_bits >> (SLOTS * i + j)) & 1
            my_safe += mine & int(work[2 * SLOTS + i] + work[3 * SLOTS + j] - theirs == their_count)
            their_safe += theirs & int(work[i] + work[SLOTS + j] - mine == my_count)
    inv_pairs = 1.0 / (n * n)
    inv_n = 1.0 / n
    up = 0.0
    down = 0.0
    vm_sum = 0.0
    vo_sum = 0.0
    vm_max = -np.inf
    vo_max = -np.inf
    vm_min = np.inf
    vo_min = np.inf
    my_share = 0.0
    their_share = 0.0
    my_sides = 0
    their_sides = 0
    my_high, my_low, their_high, their_low = 0, 99, 0, 99
    for i in range(n):
        si = my_slots[i]
        s = SIDES[si]
        f = my_faces[i]
        for j in range(n):
            tj = their_slots[j]
            t = SIDES[tj]
            g = their_faces[j]
            up += AT_LEAST[si, g] - AT_LEAST[tj, f]
            down += UP_TO[tj, f] - UP_TO[si, g]
            vm = pairs[pair_at[si, tj] + (f - 1) * t + g - 1]
            vo = pairs[pair_at[tj, si] + (g - 1) * s + f - 1]
            vm_sum += vm
            vo_sum += vo
            vm_max = max(vm_max, vm)
            vo_max = max(vo_max, vo)
            vm_min = min(vm_min, vm)
            vo_min = min(vo_min, vo)
        my_share += UP_TO[si, f]
        my_sides += s
        my_high = max(my_high, f)
        my_low = min(my_low, f)
    for j in range(n):
        tj = their_slots[j]
        t = SIDES[tj]
        g = their_faces[j]
        their_share += UP_TO[tj, g]
        their_sides += t
        their_high = max(their_high, g)
        their_low = min(their_low, g)
    x = leaves.row
    x[0] = my_count * inv_pairs
    x[1] = their_count * inv_pairs
    x[2] = 1.0 if my_count else 0.0
    x[3] = 1.0 if their_count else 0.0
    x[4] = 1.0 if my_safe > 0 else 0.0
    x[5] = my_safe * inv_pairs
    x[6] = 1.0 if their_safe > 0 else 0.0
    x[7] = their_safe * inv_pairs
    x[8] = (my_share - their_share) * inv_n
    x[9] = up * inv_pairs
    x[10] = down * inv_pairs
    x[11] = (my_sides - their_sides) * inv_n / 20
    x[12] = (my_high - their_high) / 20
    x[13] = (my_low - their_low) / 20
    x[14] = my_capturing * inv_n
    x[15] = their_taken * inv_n
    x[16] = their_capturing * inv_n
    x[17] = my_taken * inv_n
    x[18] = vm_sum * inv_pairs
    x[19] = vo_sum * inv_pairs
    x[20] = vm_max
    x[21] = vo_max
    x[22] = vm_min
    x[23] = vo_min
    for card in range(1, CARD_CODES + 1):
        x[FEATURES + card - 1] = card_count(cards, to_move, card)
        x[FEATURES + CARD_CODES + card - 1] = card_count(cards, other, card)
    z = 0.0
    for k in range(FEATURES + 2 * CARD_CODES):
        z += x[k] * leaves.linear[k]
    z += leaves.bias
    units = leaves.out.shape[0]
    if units:
        hidden = 0.0
        for u in range(units):
            total = leaves.first_bias[u]
            for k in range(FEATURES):
                total += x[k] * leaves.first[k, u]
            hidden += math.tanh(total) * leaves.out[u]
        z += hidden
    z = max(-30.0, min(30.0, z))
    return min(1.0 - CLIP, max(CLIP, 1.0 / (1.0 + math.exp(-z))))


@jit
def network_estimate(dice: int, cards: int, to_move: int, leaves: Leaves) -> float:
    """The value network's estimate: the raw vector of :func:`network_kernel.raw_position` from the packed
    words, then the kernel's ``encode`` and ``network_forward``."""
    raw = leaves.raw
    other = 1 - to_move
    for slot in range(SLOTS):
        raw[slot] = face(dice, to_move, slot)
        raw[SLOTS + slot] = face(dice, other, slot)
    for card in range(1, CARD_CODES + 1):
        raw[network_kernel.RAW_HANDS + card - 1] = card_count(cards, to_move, card)
        raw[network_kernel.RAW_HANDS + CARD_CODES + card - 1] = card_count(cards, other, card)
    raw[network_kernel.RAW_UNKNOWN] = 0
    raw[network_kernel.RAW_UNKNOWN + 1] = 0
    raw[network_kernel.RAW_FIRST] = first_turn(dice, to_move)
    raw[network_kernel.RAW_FIRST + 1] = first_turn(dice, other)
    encode(raw, leaves.scratch)
    return network_forward(leaves.sizes, leaves.params, leaves.scratch, leaves.clip)


@jit
def after_round(dice: int, leaves: Leaves):
    """:meth:`MatchTables.after_round`: A's match-winning chance if A wins the round, and if B does,
    every pair of dice in play equally likely the final one (sums in the Python order)."""
    points = leaves.work[AFTER_ROUND:AFTER_ROUND + SLOTS * SLOTS]  # the distinct points, first seen first
    counts = leaves.work[AFTER_ROUND + SLOTS * SLOTS:AFTER_ROUND + 2 * SLOTS * SLOTS]
    distinct = 0
    pairs = 0
    for s in range(SLOTS):
        if not face(dice, 0, s):
            continue
        for t in range(SLOTS):
            if not face(dice, 1, t):
                continue
            total = SIDES[s] + SIDES[t]
            pairs += 1
            found = -1
            for k in range(distinct):
                if points[k] == total:
                    found = k
            if found < 0:
                points[distinct] = total
                counts[distinct] = 1
                distinct += 1
            else:
                counts[found] += 1
    a_wins = 0.0
    b_wins = 0.0
    for k in range(distinct):
        a_wins += counts[k] * leaves.win_a[points[k]]
        b_wins += counts[k] * leaves.win_b[points[k]]
    return a_wins / pairs, b_wins / pairs


@jit
def evaluate(dice: int, cards: int, leaves: Leaves) -> float:
    """Player A's value of a decision node (:func:`dicetree.solver.games.rolldown.evaluation.evaluate`)."""
    mover = mover_of(dice)
    to_move = mover if phase_of(cards) == DECIDE else 1 - mover
    if leaves.kind == 0:
        p = fitted_estimate(dice, cards, to_move, leaves)
    elif leaves.kind == 1:
        p = heuristic_estimate(dice, cards, to_move)
    else:
        p = network_estimate(dice, cards, to_move, leaves)
    if leaves.objective == 2:
        a_wins, b_wins = after_round(dice, leaves)
        p_a = p if to_move == 0 else 1.0 - p
        return min(1.0 - MATCH_CLIP, max(MATCH_CLIP, p_a * a_wins + (1.0 - p_a) * b_wins))
    value = p if to_move == 0 else 1.0 - p
    if leaves.objective == 1:
        sides = 0
        count = 0
        for side in range(2):
            for slot in range(SLOTS):
                if face(dice, side, slot):
                    sides += SIDES[slot]
                    count += 1
        return (2 * value - 1) * 2 * sides / count
    return value


@jit
def terminal_value(winner: int, points: int, leaves: Leaves) -> float:
    """Player A's return when ``winner`` takes the last pair for ``points`` (:meth:`RolldownRules.returns`)."""
    if leaves.objective == 1:
        return float(points) if winner == 0 else -float(points)
    if leaves.objective == 2:
        return leaves.win_a[points] if winner == 0 else leaves.win_b[points]
    return 1.0 if winner == 0 else 0.0


__all__ = ["FITTED", "HEURISTIC", "Leaves", "NETWORK", "evaluate", "leaves_of", "prototype_leaves", "terminal_value"]
