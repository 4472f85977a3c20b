"""RolldownBeta's side of the value network's training (:mod:`dicetree.solver.value_iteration`): positions as
raw vectors (:mod:`~dicetree.solver.games.rolldown.network_kernel`), their exact values from the endgame
tables, and one decision of lookahead from positions of ``dice`` dice a side without cards.

From a position where the mover (raw side 0) decides, every move ends the turn:

* a **capture** (a die of the mover's showing at least the opposing die's face; not on a first turn)
  removes both dice: the last pair wins (1); otherwise the opponent decides with a die fewer a side,
  a position valued by ``below`` (the exact tables, or a smaller network beyond them): 1 - its value;
* a **reroll** of any die in play (either side's) is worth 1 - the mean, over the die's faces, of the
  network's value of the position the opponent then decides in (the size being learned).

>>> import numpy as np
>>> rows = sample_rows(np.random.default_rng(1), dice=2, count=3)
>>> rows.shape, int((rows[:, :6] > 0).sum()), int((rows[:, 6:12] > 0).sum())
((3, 44), 6, 6)
>>> problem = LookaheadProblem(dice=2, below=lambda raw: np.full(len(raw), 0.5))
>>> look = problem.lookahead(rows[:1])
>>> bool(np.all(look.parent == 0)), len(look.children) == sum(int(s) for s in rows_sides(rows[:1]))
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.network import encode_rows
from dicetree.solver.games.rolldown.network_kernel import (
    CARD_CODES,
    RAW_DICE,
    RAW_FIRST,
    RAW_HANDS,
    RAW_LENGTH,
    RAW_UNKNOWN,
    SLOTS,
)
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature
from dicetree.solver.value_iteration import Lookahead

SIDES = np.array(DIE_SIDES)
#: The raw vector's entries seen by the other player: the two sides' dice, hands, unknowns, first turns swapped.
SWAP = np.concatenate([
    np.arange(RAW_DICE + SLOTS, RAW_DICE + 2 * SLOTS), np.arange(RAW_DICE, RAW_DICE + SLOTS),
    np.arange(RAW_HANDS + CARD_CODES, RAW_HANDS + 2 * CARD_CODES), np.arange(RAW_HANDS, RAW_HANDS + CARD_CODES),
    [RAW_UNKNOWN + 1, RAW_UNKNOWN, RAW_FIRST + 1, RAW_FIRST],
])
Values = Callable[[np.ndarray], np.ndarray]
"""Values of raw vectors for the player each is seen by (the one who decides next)."""


def sample_rows(rng: np.random.Generator, dice: int, count: int) -> np.ndarray:
    """``count`` raw vectors of ``dice`` dice a side (each side's kinds drawn uniformly, faces uniform),
    no cards, nobody on a first turn (what the tables hold)."""
    rows = np.zeros((count, RAW_LENGTH), dtype=np.int8)
    for side in range(2):
        chosen = np.argsort(rng.random((count, SLOTS)), axis=1)[:, :dice]
        faces = 1 + np.floor(rng.random((count, dice)) * SIDES[chosen]).astype(np.int64)
        np.put_along_axis(rows[:, RAW_DICE + side * SLOTS : RAW_DICE + (side + 1) * SLOTS], chosen, faces, axis=1)
    return rows


def rows_sides(rows: np.ndarray) -> np.ndarray:
    """Per row, the sides of every die in play (both players'), summed: the reroll outcomes from it."""
    return ((rows[:, RAW_DICE : RAW_DICE + 2 * SLOTS] > 0) * np.tile(SIDES, 2)).sum(axis=1)


def table_values(tablebase: Tablebase, rows: np.ndarray) -> np.ndarray:
    """The exact value of each raw vector for its side 0, read from the tables (NaN where none is stored).
    Rows without cards, nobody on a first turn."""
    if np.any(rows[:, RAW_HANDS:] != 0):
        raise ValueError("table_values reads positions without cards or first turns only")
    present = rows[:, RAW_DICE : RAW_DICE + 2 * SLOTS] > 0
    keys = present @ (1 << np.arange(2 * SLOTS))
    out = np.full(len(rows), np.nan)
    for key in np.unique(keys):
        chosen = np.flatnonzero(keys == key)
        slots = np.flatnonzero(present[chosen[0]])
        mine, theirs = [DIE_SIDES[s] for s in slots if s < SLOTS], [DIE_SIDES[s - SLOTS] for s in slots if s >= SLOTS]
        table = tablebase.table(Signature(tuple(mine), tuple(theirs)))
        if table is not None:
            index = tuple(rows[chosen, RAW_DICE + s].astype(np.int64) - 1 for s in slots)
            out[chosen] = table[index]
    return out


class LookaheadProblem:
    """The :class:`~dicetree.solver.value_iteration.ValueProblem` of positions of ``dice`` dice a side without
    cards: captures valued by ``below`` (positions of ``dice - 1`` a side), rerolls by the network."""

    def __init__(self, dice: int, below: Values):
        self.dice = dice
        self.below = below

    def encode(self, rows: np.ndarray) -> np.ndarray:
        return encode_rows(rows, np.uint8)  # small integers: a million children's inputs in 236 MB

    def lookahead(self, rows: np.ndarray) -> Lookahead:
        if np.any(rows[:, RAW_HANDS:] != 0):
            raise ValueError("the lookahead covers positions without cards or first turns")
        n = len(rows)
        faces = rows[:, RAW_DICE : RAW_DICE + 2 * SLOTS].astype(np.int64)
        parents, constants = [], []
        # captures: my slot i takes their slot j
        for i in range(SLOTS):
            for j in range(SLOTS):
                mine, theirs = faces[:, i], faces[:, SLOTS + j]
                chosen = np.flatnonzero((mine > 0) & (theirs > 0) & (mine >= theirs))
                if not len(chosen):
                    continue
                if self.dice == 1:
                    value = np.ones(len(chosen))
                else:
                    child = rows[chosen].copy()
                    child[:, RAW_DICE + i] = 0
                    child[:, RAW_DICE + SLOTS + j] = 0
                    value = 1.0 - self.below(child[:, SWAP])
                parents.append(chosen)
                constants.append(value)
        capture_moves = sum(len(p) for p in parents)
        # rerolls: die `slot` of either side, each face equally likely; then the opponent decides
        children, child_moves, weights = [], [], []
        next_move = capture_moves
        for slot in range(2 * SLOTS):
            chosen = np.flatnonzero(faces[:, slot] > 0)
            if not len(chosen):
                continue
            sides = DIE_SIDES[slot % SLOTS]
            block = np.repeat(rows[chosen], sides, axis=0)
            block[:, RAW_DICE + slot] = np.tile(np.arange(1, sides + 1), len(chosen))
            children.append(block[:, SWAP])
            child_moves.append(next_move + np.repeat(np.arange(len(chosen)), sides))
            weights.append(np.full(len(block), 1.0 / sides))
            parents.append(chosen)
            constants.append(np.zeros(len(chosen)))
            next_move += len(chosen)
        if not n:
            none, no_index = np.empty(0), np.empty(0, dtype=np.int64)
            return Lookahead(no_index, none, no_index, none, none, np.empty((0, RAW_LENGTH), dtype=np.int8))
        weight = np.concatenate(weights)
        return Lookahead(
            parent=np.concatenate(parents), constant=np.concatenate(constants), move=np.concatenate(child_moves),
            scale=-weight, offset=weight, children=np.concatenate(children),
        )


__all__ = ["SWAP", "LookaheadProblem", "Values", "rows_sides", "sample_rows", "table_values"]
