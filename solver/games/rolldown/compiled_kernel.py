"""The compiled Star2 expectiminimax of RolldownBeta (numba): :class:`dicetree.solver.search.Searcher`'s
algorithm node for node on packed positions, so that both give the same values, best moves and (where
their transposition tables keep the same entries) node counts.

One root iteration is :func:`root_values`; iterative deepening, the root's ranking, the principal line
and the report stay in the Python :class:`~dicetree.solver.search.Searcher`
(:mod:`dicetree.solver.games.rolldown.compiled_search` joins the two). Everything the kernel changes lives
in :class:`Arrays`: the transposition table (same replacement policy as
:class:`dicetree.cache.transposition.TranspositionTable`, its own hash), the history heuristic's scores,
the counters, and a stop flag that another thread sets at the deadline or on Ctrl-C (checked every
256 nodes, as the Python search checks its clock).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

from dicetree.cache.transposition import EXACT, LOWER, UPPER
from dicetree.solver.games.rolldown.compiled_evaluation import evaluate, prototype_leaves, terminal_value
from dicetree.solver.games.rolldown.compiled_rules import (
    JIT_OPTIONS,
    MAX_ACTIONS,
    SIDES,
    apply_decision,
    apply_joker_faces,
    apply_joker_index,
    apply_roll,
    cache_key,
    key_hash,
    legal_actions,
    mover_of,
    phase_of,
    pending_of,
    roll_dice,
    sample_joker,
)
from dicetree.solver.games.rolldown.compiled_tables import MOST_DICE, NO_TABLES, no_tables, probe_tables
from dicetree.solver.games.rolldown.packed import ACTION_CODES, SLOTS
from dicetree.solver.games.rolldown.state import DECIDE, JOKER_ROLL, QUEEN_SECOND
from dicetree.solver.limits import CLOCK_MASK, MAX_DEPTH

# counters in Arrays.stats
NODES, PROBES, HITS, HORIZON, GENERATION, STORES, OVERWRITES, REJECTED, SAMPLED, ABORTED = range(10)
# the transposition table's columns: the key's two words, the value (float64), and the rest packed:
# generation (bits 0-31; 0 for an empty slot), depth (32-39), bound (40-41), move code + 1 (42-56)
T_DICE, T_CARDS, T_VALUE, T_META = range(4)
# options in Arrays.config
MASK, STAR2, HISTORY, ACE_PRINTED, EXACT_LIMIT, SAMPLES, SEED, BASE, LEAVES_BASE = range(9)
# BASE: table entries of this generation or older belong to an earlier owner of the memory (empty slots);
# LEAVES_BASE: remembered evaluations of this generation or older belong to an earlier search
LEAF_SLOTS = 1 << 20
"""Evaluations remembered (direct-mapped by the position's hash): the same leaf recurs within a search and
across its iterations. At the example's depth 4 (25 million evaluations) 2^20 slots evaluate 18% fewer
leaves than 2^16 did, for 32 MiB (as much as the transposition table)."""

jit = numba.njit(**JIT_OPTIONS)  # no reference counting: see compiled_rules
MAX_PLY = 2 * MAX_DEPTH + 8
"""Nodes on one line: a decision and at most one chance node per decision (the Queen's two dice
make two decisions and two chance nodes)."""


class Arrays(NamedTuple):
    """The compiled search's memory (numpy arrays only, so numba passes it whole)."""

    table: np.ndarray  # the transposition table: a row of 4 int64 per slot (half a cache line), columns T_...
    table_values: np.ndarray  # the same memory as float64 (the value's column)
    stats: np.ndarray  # the counters (NODES ...)
    config: np.ndarray  # the options (MASK ...)
    bounds: np.ndarray  # the game's value bounds: low, high
    stop: np.ndarray  # set to 1 by another thread: abandon the iteration
    history: np.ndarray  # cut-off scores by player and action code
    moves: np.ndarray  # each ply's legal moves
    low_bounds: np.ndarray  # each chance ply's children's bounds
    high_bounds: np.ndarray
    slots: np.ndarray  # each ply's dice that a Joker rerolls
    faces: np.ndarray  # each ply's sampled Joker outcomes
    weights: np.ndarray  # and their weights
    leaves: np.ndarray  # remembered evaluations: dice, cards, generation, value (as float64 bits)
    leaf_values: np.ndarray  # the same memory as float64
    endgame_rows: np.ndarray  # the stored endgame tables this search reaches (compiled_tables.TableIndex)
    endgame_counters: np.ndarray  # their probes and hits, and the most dice a side they hold (-1: none)


def _zeroed_rows(slots: int) -> np.ndarray:
    """``slots`` rows of 4 zero int64, touched now, in order: a table's pages faulted in at random during a
    search cost far more (a fresh 1-die depth-4 search: 43 ms against 3)."""
    rows = np.empty((slots, 4), dtype=np.int64)
    rows.fill(0)
    return rows


def new_arrays(cache_slots: int, listed: int, samples: int) -> Arrays:
    """Zeroed memory for a search with a table of ``cache_slots`` (a power of two), chance nodes of up to
    ``listed`` outcomes listed and ``samples`` drawn (the options in ``config`` are the caller's to set)."""
    children = max(listed, samples) + 1
    table = _zeroed_rows(cache_slots)
    leaves = _zeroed_rows(LEAF_SLOTS)
    return Arrays(
        table, table.view(np.float64),
        np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64), np.zeros(2), np.zeros(1, dtype=np.int64),
        np.zeros((2, ACTION_CODES), dtype=np.int64), np.zeros((MAX_PLY, MAX_ACTIONS), dtype=np.int64),
        np.zeros((MAX_PLY, children)), np.zeros((MAX_PLY, children)), np.zeros((MAX_PLY, 12), dtype=np.int64),
        np.zeros((MAX_PLY, samples, 12), dtype=np.int64), np.zeros((MAX_PLY, samples)), leaves, leaves.view(np.float64),
        *no_tables(),
    )


# One typed signature for the recursive search (numba caches a recursive function reliably only when
# it has a single compiled version; calls with constant arguments would otherwise add versions).
NODE_SIGNATURE = numba.float64(numba.int64, numba.int64, numba.int64, numba.float64, numba.float64, numba.boolean,
                               numba.int64, numba.typeof(new_arrays(1, 1, 1)), numba.typeof(prototype_leaves()))


@intrinsic
def prefetch_row(typingctx, array, row):
    """Ask the CPU to fetch ``array[row]``'s cache line now (LLVM's prefetch: read, keep in every cache level)
    and go on: a chance node prefetches the slots its children will probe, so that their cache misses
    overlap instead of each stalling in turn (perf: the leaves' probe was a fifth of the kernel's time)."""
    def codegen(context, builder, signature, args):
        rows = context.make_array(signature.args[0])(context, builder, args[0])
        stride = cgutils.unpack_tuple(builder, rows.strides)[0]
        address = builder.add(builder.ptrtoint(rows.data, cgutils.intp_t), builder.mul(args[1], stride))
        word = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, word, word, word]), "llvm.prefetch.p0i8")
        builder.call(prefetch, [builder.inttoptr(address, cgutils.voidptr_t), word(0), word(3), word(1)])
        return context.get_dummy_value()
    return numba.types.void(array, numba.types.int64), codegen


@jit
def table_slot(arrays: Arrays, dice: int, cards: int) -> int:
    return np.int64(key_hash(dice, cards) & np.uint64(arrays.config[MASK]))


@jit
def leaf_slot(dice: int, cards: int) -> int:
    """The remembered evaluation's slot (other bits of the hash than the table's)."""
    return np.int64((key_hash(dice, cards) >> np.uint64(40)) & np.uint64(LEAF_SLOTS - 1))


@jit
def prefetch_probe(arrays: Arrays, dice: int, cards: int, depth: int) -> None:
    """Prefetch what a node will probe first: a leaf's remembered evaluation, else its table entry. Every
    node prefetches its children's before searching the first (each probe missed the cache in turn)."""
    if phase_of(cards) in (DECIDE, QUEEN_SECOND):
        if depth == 0:
            prefetch_row(arrays.leaves, leaf_slot(dice, cards))  # type: ignore[call-arg]  # numba fills the typing context
        else:
            prefetch_row(arrays.table, table_slot(arrays, dice, cards))  # type: ignore[call-arg]  # numba fills the typing context
    else:
        prefetch_row(arrays.table, table_slot(arrays, cache_key(dice, cards), cards))  # type: ignore[call-arg]  # numba fills the typing context


@jit
def entry_generation(arrays: Arrays, index: int) -> int:
    return arrays.table[index, T_META] & 0xFFFFFFFF


@jit
def entry_depth(arrays: Arrays, index: int) -> int:
    return (arrays.table[index, T_META] >> 32) & 255


@jit
def entry_bound(arrays: Arrays, index: int) -> int:
    return (arrays.table[index, T_META] >> 40) & 3


@jit
def entry_move(arrays: Arrays, index: int) -> int:
    return ((arrays.table[index, T_META] >> 42) & 0x7FFF) - 1


@jit
def peek_table(arrays: Arrays, dice: int, cards: int) -> int:
    """The slot holding this key, or -1 (not counted: :func:`probe_table` counts)."""
    index = table_slot(arrays, dice, cards)
    table = arrays.table
    if entry_generation(arrays, index) > arrays.config[BASE] and table[index, T_DICE] == dice \
            and table[index, T_CARDS] == cards:
        return index
    return -1


@jit
def probe_table(arrays: Arrays, dice: int, cards: int) -> int:
    """:func:`peek_table`, counted as a probe, and a hit if found."""
    arrays.stats[PROBES] += 1
    index = peek_table(arrays, dice, cards)
    if index >= 0:
        arrays.stats[HITS] += 1
    return index


@jit
def store_table(arrays: Arrays, dice: int, cards: int, depth: int, value: float, bound: int, move: int) -> bool:
    """:meth:`TranspositionTable.store`: depth-preferred with aging; a store without a move keeps the key's."""
    index = table_slot(arrays, dice, cards)
    generation = arrays.stats[GENERATION]
    if entry_generation(arrays, index) > arrays.config[BASE]:
        if arrays.table[index, T_DICE] == dice and arrays.table[index, T_CARDS] == cards:
            if move < 0:
                move = entry_move(arrays, index)
        elif depth >= entry_depth(arrays, index) or entry_generation(arrays, index) != generation:
            arrays.stats[OVERWRITES] += 1
        else:
            arrays.stats[REJECTED] += 1
            return False
    arrays.table[index, T_DICE] = dice
    arrays.table[index, T_CARDS] = cards
    arrays.table_values[index, T_VALUE] = value
    arrays.table[index, T_META] = generation | (depth << 32) | (bound << 40) | ((move + 1) << 42)
    arrays.stats[STORES] += 1
    return True


@jit
def bound_type(value: float, alpha: float, beta: float, low: float, high: float) -> int:
    if value <= alpha and value > low:
        return UPPER
    if value >= beta and value < high:
        return LOWER
    return EXACT


@jit
def store_chance(arrays: Arrays, dice: int, cards: int, depth: int, value: float, bound: int) -> float:
    if value <= arrays.bounds[0] or value >= arrays.bounds[1]:
        bound = EXACT
    store_table(arrays, dice, cards, depth, value, bound, -1)
    return value


@jit
def order_moves(arrays: Arrays, moves, count: int, player: int, tt_move: int) -> None:
    """History first (stable: the rules' order among equals), then the cached best move in front."""
    if arrays.config[HISTORY]:
        # A stable sort by descending score: the few moves with a score, sorted among themselves, then
        # the others in the rules' order (the same order as Python's sorted(), without its n^2 here).
        scores = arrays.history[player]
        scored = 0
        for i in range(count):
            code = moves[i]
            if scores[code] > 0:
                for j in range(i, scored, -1):
                    moves[j] = moves[j - 1]
                j = scored
                while j > 0 and scores[moves[j - 1]] < scores[code]:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[j] = code
                scored += 1
    if tt_move >= 0 and moves[0] != tt_move:
        for i in range(1, count):
            if moves[i] == tt_move:
                for j in range(i, 0, -1):
                    moves[j] = moves[j - 1]
                moves[0] = tt_move
                break


@jit
def entered(arrays: Arrays) -> bool:
    """A node counted; False if the stop flag was found set (read every CLOCK_MASK + 1 nodes): abandon."""
    stats = arrays.stats
    stats[NODES] += 1
    if not stats[NODES] & CLOCK_MASK and arrays.stop[0]:
        stats[ABORTED] = 1
        return False
    return True


@jit
def is_leaf(depth: int, cards: int) -> bool:
    """A decision with no decision left to search: a chance node evaluates it by :func:`leaf_value` without
    calling :func:`node_value` (whose many arguments made the call a fifth of the kernel's time)."""
    return depth == 0 and phase_of(cards) in (DECIDE, QUEEN_SECOND)


@jit
def leaf_value(dice: int, cards: int, arrays: Arrays, leaves) -> float:
    """A decision's evaluation at depth 0 (counted at the horizon), remembered by position."""
    arrays.stats[HORIZON] += 1
    memo = arrays.leaves
    slot = leaf_slot(dice, cards)
    if memo[slot, 2] > arrays.config[LEAVES_BASE] and memo[slot, 0] == dice and memo[slot, 1] == cards:
        return arrays.leaf_values[slot, 3]
    value = evaluate(dice, cards, leaves)
    memo[slot, 0] = dice
    memo[slot, 1] = cards
    memo[slot, 2] = arrays.stats[GENERATION]
    arrays.leaf_values[slot, 3] = value
    return value


@jit
def stored_value(dice: int, cards: int, arrays: Arrays) -> float:
    """A decision's exact value from the endgame tables, probed first as the Python oracle is; NaN where
    no table holds it (or none is stored)."""
    if arrays.endgame_counters[MOST_DICE] == NO_TABLES:
        return math.nan
    return probe_tables(dice, cards, arrays.endgame_rows, arrays.endgame_counters)


@jit
def known_or_leaf(dice: int, cards: int, arrays: Arrays, leaves) -> float:
    """A decision at depth 0: its stored exact value where a table holds it, else :func:`leaf_value`."""
    known = stored_value(dice, cards, arrays)
    return known if known == known else leaf_value(dice, cards, arrays, leaves)


@jit
def chance_child(dice: int, cards: int, kind: int, i: int, slots, rolled: int, faces):
    """Child ``i`` of a chance node: kind 0 a reroll, 1 a Joker listed, 2 a Joker sampled."""
    if kind == 0:
        return apply_roll(dice, cards, i)
    if kind == 1:
        return apply_joker_index(dice, cards, slots, rolled, i)
    return apply_joker_faces(dice, cards, slots, rolled, faces[i])


@numba.njit(NODE_SIGNATURE, **JIT_OPTIONS)
def node_value(dice: int, cards: int, depth: int, alpha: float, beta: float, probe: bool, ply: int,
               arrays: Arrays, leaves) -> float:
    """Player A's fail-soft value of a decision or chance node with ``depth`` decisions left
    (:meth:`Searcher._decide` and :meth:`Searcher._chance`)."""
    stats = arrays.stats
    # The probe flag passed on as a value, never a constant: a constant argument would make numba type
    # a second version of this recursive function, which its cache then fails to link.
    full_search = ply < 0
    first_move_only = ply >= 0
    if not entered(arrays):
        return 0.0
    low, high = arrays.bounds[0], arrays.bounds[1]
    phase = phase_of(cards)
    if phase in (DECIDE, QUEEN_SECOND):
        # ----- a decision: fail-soft alpha-beta (with probe, the first move only)
        if depth == 0:
            return known_or_leaf(dice, cards, arrays, leaves)
        known = stored_value(dice, cards, arrays)
        if known == known:  # not NaN: a table holds it
            return known
        tt_move = -1
        found = probe_table(arrays, dice, cards)
        if found >= 0:
            if entry_depth(arrays, found) == depth and entry_generation(arrays, found) == stats[GENERATION]:
                value, bound = arrays.table_values[found, T_VALUE], entry_bound(arrays, found)
                if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                    return value
            tt_move = entry_move(arrays, found)
        moves = arrays.moves[ply]
        count = legal_actions(dice, cards, arrays.config[ACE_PRINTED], moves)
        player = mover_of(dice)
        order_moves(arrays, moves, count, player, tt_move)
        only_move = count == 1
        if probe:
            count = 1
        for k in range(count):
            child_dice, child_cards, winner, points = apply_decision(dice, cards, moves[k])
            if winner < 0:
                prefetch_probe(arrays, child_dice, child_cards, depth - 1)
        maximize = player == 0
        best = -math.inf if maximize else math.inf
        best_move = -1
        a, b = alpha, beta
        for k in range(count):
            code = moves[k]
            child_dice, child_cards, winner, points = apply_decision(dice, cards, code)
            if winner >= 0:
                stats[NODES] += 1
                v = terminal_value(winner, points, leaves)
            else:
                v = node_value(child_dice, child_cards, depth - 1, a, b, full_search, ply + 1, arrays, leaves)
                if stats[ABORTED]:
                    return 0.0
            if (v > best) if maximize else (v < best):
                best, best_move = v, code
                if maximize:
                    if v >= b:
                        break
                    if v > a:
                        a = v
                else:
                    if v <= a:
                        break
                    if v < b:
                        b = v
        if probe and not only_move and ((best < high) if maximize else (best > low)):
            bound = LOWER if maximize else UPPER
        else:
            bound = bound_type(best, alpha, beta, low, high)
        failed_low = bound == (UPPER if maximize else LOWER)
        if arrays.config[HISTORY] and not failed_low and not probe:
            arrays.history[player, best_move] += depth * depth
        store_table(arrays, dice, cards, depth, best, bound, -1 if failed_low else best_move)
        return best

    # ----- a chance node: Star2's probes, then Star1
    key = cache_key(dice, cards)
    found = probe_table(arrays, key, cards)
    if found >= 0 and entry_depth(arrays, found) == depth and entry_generation(arrays, found) == stats[GENERATION]:
        value, bound = arrays.table_values[found, T_VALUE], entry_bound(arrays, found)
        if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
            return value
    slots = arrays.slots[ply]
    faces = arrays.faces[ply]
    weights = arrays.weights[ply]
    rolled = 0
    if phase == JOKER_ROLL:
        rolled = roll_dice(dice, slots)
        count = 1
        for k in range(rolled):
            count *= SIDES[slots[k] % SLOTS]
        kind = 1
        if count > arrays.config[EXACT_LIMIT]:
            kind = 2
            count = sample_joker(dice, cards, arrays.config[SEED], arrays.config[SAMPLES], slots, rolled, faces,
                                 weights)
            stats[SAMPLED] += 1
    else:
        count = SIDES[pending_of(cards) % SLOTS]
        kind = 0
    uniform = 1.0 / count
    if kind == 2:  # the weights' sum, compensated (math.fsum's in Python)
        total_p = 0.0
        error = 0.0
        for i in range(count):
            t = total_p + weights[i]
            if abs(total_p) >= abs(weights[i]):
                error += (total_p - t) + weights[i]
            else:
                error += (weights[i] - t) + total_p
            total_p = t
        total_p += error
    else:  # math.fsum of count equal probabilities is their correctly rounded product
        total_p = count * uniform
    lo = arrays.low_bounds[ply]
    hi = arrays.high_bounds[ply]
    for i in range(count):
        lo[i] = low
        hi[i] = high
    sum_lo, sum_hi = low * total_p, high * total_p

    for i in range(count):
        child_dice, child_cards = chance_child(dice, cards, kind, i, slots, rolled, faces)
        prefetch_probe(arrays, child_dice, child_cards, depth)
    if arrays.config[STAR2]:
        for i in range(count):
            child_dice, child_cards = chance_child(dice, cards, kind, i, slots, rolled, faces)
            p = weights[i] if kind == 2 else uniform
            player = mover_of(child_dice)
            if depth == 0:  # a decision at depth 0: cheap and exact
                if is_leaf(depth, child_cards):
                    if not entered(arrays):
                        return 0.0
                    v = known_or_leaf(child_dice, child_cards, arrays, leaves)
                else:
                    v = node_value(child_dice, child_cards, depth, low, high, full_search, ply + 1, arrays, leaves)
                    if stats[ABORTED]:
                        return 0.0
                sum_lo += p * (v - lo[i])
                sum_hi += p * (v - hi[i])
                lo[i] = v
                hi[i] = v
            elif player == 0:  # maximizing: its first move is a lower bound
                v = node_value(child_dice, child_cards, depth, low, min(high, (beta - (sum_lo - p * lo[i])) / p),
                               first_move_only, ply + 1, arrays, leaves)
                if stats[ABORTED]:
                    return 0.0
                if v > lo[i]:
                    v = min(v, hi[i])
                    sum_lo += p * (v - lo[i])
                    lo[i] = v
            else:  # minimizing: its first move is an upper bound
                v = node_value(child_dice, child_cards, depth, max(low, (alpha - (sum_hi - p * hi[i])) / p), high,
                               first_move_only, ply + 1, arrays, leaves)
                if stats[ABORTED]:
                    return 0.0
                if v < hi[i]:
                    v = max(v, lo[i])
                    sum_hi += p * (v - hi[i])
                    hi[i] = v
            if sum_lo >= beta:
                return store_chance(arrays, key, cards, depth, sum_lo, LOWER)
            if sum_hi <= alpha:
                return store_chance(arrays, key, cards, depth, sum_hi, UPPER)

    total = 0.0
    rest_lo, rest_hi = sum_lo, sum_hi
    for i in range(count):
        p = weights[i] if kind == 2 else uniform
        lower, upper = lo[i], hi[i]
        rest_lo -= p * lower
        rest_hi -= p * upper
        if lower >= upper:
            v = lower
        else:
            need_low = (alpha - total - rest_hi) / p
            need_high = (beta - total - rest_lo) / p
            if need_low >= upper:
                return store_chance(arrays, key, cards, depth, total + p * upper + rest_hi, UPPER)
            if need_high <= lower:
                return store_chance(arrays, key, cards, depth, total + p * lower + rest_lo, LOWER)
            window_low = need_low if need_low > lower else lower
            window_high = need_high if need_high < upper else upper
            child_dice, child_cards = chance_child(dice, cards, kind, i, slots, rolled, faces)
            v = node_value(child_dice, child_cards, depth, window_low, window_high, full_search, ply + 1, arrays, leaves)
            if stats[ABORTED]:
                return 0.0
            if v <= need_low:
                return store_chance(arrays, key, cards, depth, total + p * v + rest_hi, UPPER)
            if v >= need_high:
                return store_chance(arrays, key, cards, depth, total + p * v + rest_lo, LOWER)
        total += p * v
    return store_chance(arrays, key, cards, depth, total, EXACT)


@jit
def root_values(dice: int, cards: int, codes, depth: int, arrays: Arrays, leaves, values) -> bool:
    """One iteration at the root: every move in ``codes`` searched with the full window to ``depth``
    decisions (the root's included), player A's values into ``values``. False if it was stopped."""
    stats = arrays.stats
    stats[NODES] += 1
    low, high = arrays.bounds[0], arrays.bounds[1]
    for k in range(len(codes)):
        child_dice, child_cards, winner, points = apply_decision(dice, cards, codes[k])
        if winner >= 0:
            stats[NODES] += 1
            values[k] = terminal_value(winner, points, leaves)
        else:
            values[k] = node_value(child_dice, child_cards, depth - 1, low, high, depth < 0, depth - depth + 1, arrays,
                                   leaves)
            if stats[ABORTED]:
                return False
    return True


__all__ = ["MAX_PLY", "NODE_SIGNATURE", "LEAF_SLOTS", "Arrays", "entry_bound", "entry_depth", "entry_generation", "entry_move",
           "new_arrays", "node_value", "peek_table", "probe_table", "root_values", "store_table"]
