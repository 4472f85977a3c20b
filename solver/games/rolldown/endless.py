"""Endless play in RolldownBeta's endgame tables: positions whose best play never ends, scored as draws.

RolldownBeta has no rule against endless rerolls. A reroll of a die whose face matters to neither
player is a pass in all but name: with ``d4 d6:5 d20:7`` against ``d10:6 d12:6 d20:6`` the mover's
d4 can capture nothing and can be captured by anything, so the mover rerolls it (every other move is
worse) and the opponent rerolls it back (capturing is worse for them too), for ever. The rules do
not say who wins a round that never ends, and the tables' equations then have a whole interval of
solutions there (and at every position that can drift into the loop); value iteration stops at one
that depends on its path (the numpy and fused kernels stopped 1.8e-7 apart in that table, each
certifying a change below 1e-12 a sweep).

The tables score endless play as a **draw, half a win to each** (as chess's endgame tables score
endless play), which makes every value unique: a loop that is worth more than 1/2 to one player
is broken by the other, whose best move that does end play is then worth more to them than the
loop. :func:`endless_positions` finds the loops from the solved tables (the positions from which
following the best moves never reaches a capture or a card); :mod:`.tables` sets them to 1/2 and
solves again from there, until every position left in a loop is worth 1/2 (a true draw: both
players prefer the loop to anything else). Each round starts *every* loop found so far from the
draw again, not only the new ones: two loops that the player ahead leaves by the same move (whose
value reads both) must come up to it together; restarted one at a time, the other holds the way
out above it, is itself left above it, and the rounds take turns between them (issue 15:
``results/endless-play/settle.md``). From the draw, plain iteration brings a loop up (or down) to
its way out without passing it, so the rounds stop where no loop is worth anything but 1/2.
``research/rolldown_endless_settle.py`` checks all this by strategy iteration, reading no table.

Arrays here are a batch's two tables seen in the A tables' axes, shape ``(hand pairs, dice...)``:
A's losing chances ``z`` (A to move) and B's winning chances ``y`` (B to move), with
``z = min(low_z, min_k mean_k y)`` and ``y = max(const_y, max_k mean_k z)`` (``low_z``: one less
the best capture or card, +inf where there is none; ``const_y``: B's best, -inf where none).

A d1 against a d2, everything worth 1/2 and no capture or card anywhere: both players reroll for
ever. Once A can end play at face 2 (a move worth the same 1/2), every position may end::

    >>> import numpy as np
    >>> half = np.full((1, 1, 2), 0.5); never = np.full_like(half, np.inf)  # A's losing chances: +inf for no move
    >>> [mask.astype(int).tolist() for mask in endless_positions(half, half, never, -never)]
    [[[[1, 1]]], [[[1, 1]]]]
    >>> ends = never.copy(); ends[0, 0, 1] = 0.5
    >>> [int(mask.sum()) for mask in endless_positions(half, half, ends, -never)]
    [0, 0]
"""

from __future__ import annotations

import numpy as np

TIE = 1e-11  # moves within this of a position's value count as its best (the tables converge to 1e-12)
FIXED_TIE = 4 / (2**32 - 1)  # ... in 32-bit fixed point, which rounds each value to a step of 2.3e-10
DRAW = 0.5


def _best(moves: np.ndarray, values: np.ndarray | float, losing: bool, tie: float) -> np.ndarray:
    """Where ``moves`` (broadcast) is a best move: as high as ``values`` (or, for a table of
    losing chances, as low), within ``tie``."""
    values = np.asarray(values, dtype=np.float64)
    return moves <= values + tie if losing else moves >= values - tie


def _rows(table: np.ndarray):
    """Index a table a face of its first die at a time (temporaries a fraction of the table's size)."""
    return [(slice(None), i) for i in range(table.shape[1])]


def _row_of(array: np.ndarray, row: tuple) -> np.ndarray:
    """``array[row]``, or its only row where the first die's axis is broadcast (a mean along it)."""
    return array[(slice(None), 0)] if array.shape[1] == 1 else array[row]


def _best_reroll_axes(values: np.ndarray, other: np.ndarray, losing: bool, tie: float) -> np.ndarray:
    """Bit k set where rerolling die k is a best move: its value is the other table's mean along
    axis k + 1 (for a table of losing chances, of the other's winning chances, so no flip)."""
    bits = np.zeros(values.shape, np.uint16)
    for k in range(values.ndim - 1):
        mean = other.mean(axis=k + 1, keepdims=True, dtype=np.float64)
        for row in _rows(values):
            bits[row] |= _best(_row_of(mean, row), values[row], losing, tie).astype(np.uint16) << np.uint16(k)
    return bits


def endless_positions(z: np.ndarray, y: np.ndarray, low_z: np.ndarray, const_y: np.ndarray,
                      scale: float = 1.0, tie: float = TIE) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the positions of A's and B's tables from which play that keeps to best moves never
    ends: no best move ends play and no best reroll can lead to a position from which play may end.

    A's table comes as its losing chances ``z = 1 - x`` with ``low_z = 1 - const_x`` (the form the
    solver iterates), B's as its winning chances ``y``; all four hold values times ``scale`` (1, or
    the fixed point's scale for 32-bit tables, which are read a row at a time)."""
    tie *= scale
    reroll_z = _best_reroll_axes(z, y, True, tie)  # A's reroll: B to move, B's chance of winning
    reroll_y = _best_reroll_axes(y, z, False, tie)  # B's reroll: A to move, A's chance of losing
    may_end_z = np.zeros(z.shape, bool)
    may_end_y = np.zeros(y.shape, bool)
    for row in _rows(z):
        may_end_z[row] = _best(np.asarray(low_z[row], np.float64), z[row], True, tie)
        may_end_y[row] = _best(np.asarray(const_y[row], np.float64), y[row], False, tie)
    changed = True
    while changed:
        changed = False
        for mine, bits, other in ((may_end_z, reroll_z, may_end_y), (may_end_y, reroll_y, may_end_z)):
            for k in range(mine.ndim - 1):
                reaches = np.any(other, axis=k + 1, keepdims=True)  # an array (the method may say a scalar)
                for row in _rows(mine):
                    new = (bits[row] & np.uint16(1 << k)).astype(bool) & _row_of(reaches, row) & ~mine[row]
                    if new.any():
                        mine[row] |= new
                        changed = True
    return ~may_end_z, ~may_end_y


def undecided(values: np.ndarray, endless: np.ndarray, scale: float = 1.0, tolerance: float = 1e-9) -> int:
    """How many positions in endless play are not yet worth a draw (``values`` times ``scale``)."""
    return int(np.count_nonzero(np.abs(values[endless].astype(np.float64) - DRAW * scale) > tolerance * scale))


def forcible_draws(z: np.ndarray, y: np.ndarray, low_z: np.ndarray, const_y: np.ndarray,
                   scale: float = 1.0, tie: float = TIE) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the positions (of A's and of B's table, as :func:`endless_positions` takes them)
    where the player who is behind (worth less than a draw) can keep play going for ever whatever
    the other does: they always have a reroll that stays in the set, and the player ahead has no
    move that leaves the batch worth at least a draw to them and no reroll that could leave the set.
    There the values the equations gave (below 1/2 for the player behind) are wrong: a draw is theirs."""
    half = DRAW * scale
    stay_z = np.ones(z.shape, bool)
    stay_y = np.ones(y.shape, bool)
    sides = ((stay_z, z, low_z, True), (stay_y, y, const_y, False))
    changed = True
    while changed:
        changed = False
        for (stay, values, leave, losing), other in zip(sides, (stay_y, stay_z)):
            kept = [np.all(other, axis=k + 1, keepdims=True) for k in range(values.ndim - 1)]
            for row in _rows(values):
                v = np.asarray(values[row], np.float64)
                behind = v > half + tie if losing else v < half - tie
                ahead_leaves = _best(np.asarray(leave[row], np.float64), half, losing, tie)
                some = np.zeros(v.shape, bool)
                every = np.ones(v.shape, bool)
                for k in range(len(kept)):
                    along = _row_of(kept[k], row)
                    some = some | along
                    every = every & along
                new = stay[row] & np.where(behind, some, every & ~ahead_leaves)
                if not np.array_equal(new, stay[row]):
                    stay[row] = new
                    changed = True
    return stay_z, stay_y
