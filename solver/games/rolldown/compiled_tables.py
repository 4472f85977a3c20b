"""Endgame-table probes inside RolldownBeta's compiled search: the stored tables a search may reach,
found before it runs and read by compiled code where they are (memory-mapped, never copied).

The Python search probes its oracle (:class:`~dicetree.solver.games.rolldown.tablebase.TableOracle`) at
every decision node below the root; the compiled search (:mod:`.compiled_kernel`) calls
:func:`probe_tables` at the same nodes and reads the same stored codes, decoded the same way, so both
give the same values, counts and exactness. Compiled code cannot open files, so before each iteration
:class:`TableIndex` finds which stored tables that iteration can reach: the root's dice less up to one
pair per decision, its hands less up to one card per decision (a capture or a card is a decision), at
most ``most_dice`` dice a side. It looks them up by name in the listings of their shards and loads them
through the :class:`~dicetree.solver.games.rolldown.tablebase.Tablebase` (lazily mapped and checked as
for the Python search), then hands the kernel a small open-addressing hash table: each row a
signature's key (the mover's dice and hands, the opponent's) and where its values are in memory. Each
deeper iteration adds what it newly reaches (a round start with 1-3-dice tables reaches none until
depth 3).

>>> import tempfile
>>> from dicetree.cache.store import TableStore
>>> from dicetree.solver.games.rolldown import Rolldown
>>> from dicetree.solver.games.rolldown.packed import pack
>>> from dicetree.solver.games.rolldown.tablebase import Tablebase
>>> base = Tablebase(TableStore(tempfile.mkdtemp()))
>>> _ = base.build(max_dice=1)
>>> root = Rolldown().parse("d4:1,d6:2,d8:5/d4:3,d6:6,d8:2 a -/-")
>>> index = TableIndex(base.oracle(), root)
>>> index.reach(1), index.reach(2)  # the tables loaded: no 3-dice or 2-dice table, then the 1-die ones
(0, 9)
>>> value = probe_tables(*pack(Rolldown().parse("d8:2/d6:5 a -/-")), index.rows, index.counters)
>>> round(value, 6), int(index.counters[PROBES]), int(index.counters[HITS])
(0.24, 1, 1)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from dicetree.cache.packs import FIXED_SCALE, FixedPointTable
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.compiled_rules import SIDES, face, first_turn, jit, mover_of, phase_of
from dicetree.solver.games.rolldown.packed import CARD_CODES, SLOTS
from dicetree.solver.games.rolldown.state import DECIDE, RolldownState
from dicetree.solver.games.rolldown.tables import Signature, signature_name


class ExactTables(Protocol):
    """What :class:`TableIndex` reads of the search's oracle, a
    :class:`~dicetree.solver.games.rolldown.tablebase.TableOracle` (a module of the same layer: not imported)."""

    base: Any  # its Tablebase: ``packs``, ``game_name`` and ``table(signature)``
    most_dice: int  # positions with more dice a side are not looked up
    reachable: int  # probes of positions within most_dice, counted by whichever search probes

# the index's columns: the key (the mover's dice in play and hand, the opponent's hand), where the values
# are, and how they are stored (EMPTY: a free row)
KEY_DICE, KEY_HANDS, ADDRESS, KIND = range(4)
EMPTY, FIXED32_VALUES, FLOAT64_VALUES = range(3)
# the counters and settings beside it
PROBES, HITS, WITHIN_REACH, MOST_DICE, MASK = range(5)
HAND_BITS = 2 * CARD_CODES
"""A hand's card counts in the packed ``cards`` word (2 bits a card code)."""
NO_TABLES = -1
"""``MOST_DICE`` of a search without tables: nothing probed, nothing counted."""


def no_tables() -> tuple[np.ndarray, np.ndarray]:
    """The index rows and counters of a search without tables."""
    counters = np.zeros(8, dtype=np.int64)
    counters[MOST_DICE] = NO_TABLES
    return np.zeros((1, 4), dtype=np.int64), counters


# ----- reading memory by address (a table is a memory-mapped array the Python side keeps alive) ----------
@intrinsic
def _fixed32_at(typingctx, address, position):
    """The uint32 at ``address + 4 * position``."""
    def codegen(context, builder, signature, args):
        pointer = builder.inttoptr(args[0], ir.IntType(32).as_pointer())
        return builder.load(builder.gep(pointer, [args[1]]))

    return types.uint32(types.int64, types.int64), codegen


@intrinsic
def _float64_at(typingctx, address, position):
    """The float64 at ``address + 8 * position``."""
    def codegen(context, builder, signature, args):
        pointer = builder.inttoptr(args[0], ir.DoubleType().as_pointer())
        return builder.load(builder.gep(pointer, [args[1]]))

    return types.float64(types.int64, types.int64), codegen


@jit
def _slot_of(key_dice: int, key_hands: int, mask: int) -> int:
    mixed = np.uint64(key_dice) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(key_hands) * np.uint64(0xC2B2AE3D27D4EB4F)
    return np.int64((mixed >> np.uint64(29)) & np.uint64(mask))


@jit
def probe_tables(dice: int, cards: int, rows, counters) -> float:
    """Player A's stored exact value of the decision node ``dice, cards`` where a loaded table holds it,
    else NaN; counted as the Python oracle counts (a probe, within reach, a hit)."""
    counters[PROBES] += 1
    pairs = 0
    for slot in range(SLOTS):
        if face(dice, 0, slot):
            pairs += 1
    if pairs > counters[MOST_DICE]:
        return math.nan
    counters[WITHIN_REACH] += 1
    if phase_of(cards) != DECIDE or first_turn(dice, 0) or first_turn(dice, 1):
        return math.nan
    mover = mover_of(dice)
    dice_key = 0
    for slot in range(SLOTS):
        if face(dice, mover, slot):
            dice_key |= 1 << slot
        if face(dice, 1 - mover, slot):
            dice_key |= 1 << (SLOTS + slot)
    hand_mask = (1 << HAND_BITS) - 1
    dice_key |= ((cards >> (HAND_BITS * mover)) & hand_mask) << (2 * SLOTS)
    hands_key = (cards >> (HAND_BITS * (1 - mover))) & hand_mask
    mask = counters[MASK]
    row = _slot_of(dice_key, hands_key, mask)
    while rows[row, KIND] != EMPTY:
        if rows[row, KEY_DICE] == dice_key and rows[row, KEY_HANDS] == hands_key:
            position = 0  # C order over the mover's dice, then the opponent's, ascending sides (state_index)
            for side in (mover, 1 - mover):
                for slot in range(SLOTS):
                    f = face(dice, side, slot)
                    if f:
                        position = position * SIDES[slot] + f - 1
            if rows[row, KIND] == FIXED32_VALUES:
                value = np.float64(_fixed32_at(rows[row, ADDRESS], position)) / np.float64(FIXED_SCALE)  # type: ignore[call-arg]  # numba fills the typing context
            else:
                value = _float64_at(rows[row, ADDRESS], position)  # type: ignore[call-arg]  # numba fills the typing context
            counters[HITS] += 1
            return value if mover == 0 else 1.0 - value
        row = (row + 1) & mask
    return math.nan


# ----- which tables a search reaches --------------------------------------------------------------------
def signature_key(signature: Signature) -> tuple[int, int]:
    """The two words :func:`probe_tables` computes for a position of ``signature``."""
    def hand_word(hand: tuple[int, ...]) -> int:
        return sum(1 << (2 * (card - 1)) for card in hand)

    dice = sum(1 << DIE_SIDES.index(sides) for sides in signature.mine)
    dice |= sum(1 << (SLOTS + DIE_SIDES.index(sides)) for sides in signature.theirs)
    return dice | hand_word(signature.my_hand) << (2 * SLOTS), hand_word(signature.their_hand)


def _smaller_hands(hand: tuple[int, ...], played: int) -> list[tuple[int, ...]]:
    """The hands ``hand`` may be after ``played`` of its cards (sorted, each once)."""
    return sorted(set(itertools.combinations(sorted(hand), len(hand) - played)))


class TableIndex:
    """The stored tables a search of ``root`` reaches, for the compiled search: :meth:`reach` loads what
    ``depth`` decisions reach and sets :attr:`rows` (the kernel's hash table) and :attr:`counters`.

    Tables that are not stored are looked up again by the next search (the Python search, too, finds
    tables built meanwhile); the stored ones stay loaded in the :class:`Tablebase`."""

    def __init__(self, oracle: ExactTables, root: RolldownState):
        self.oracle, self.base = oracle, oracle.base
        self.sides = tuple(tuple(DIE_SIDES[slot] for slot, f in enumerate(row) if f) for row in root.dice)
        self.hands = root.hands
        self.depth = -1  # reached so far (0: the root's own material, which rerolls keep)
        self._loaded: dict[Signature, tuple[int, int]] = {}  # (address, kind), kept alive by the Tablebase
        self._keep: list[np.ndarray] = []  # the arrays read (a Tablebase keeps them too; this is what we read)
        self.rows, self.counters = no_tables()
        self.counters[MOST_DICE] = oracle.most_dice
        self._index()

    def reach(self, depth: int) -> int:
        """Load every stored table within ``depth`` decisions of the root (its own material included: a
        reroll keeps it); how many are loaded in all."""
        if depth > self.depth:
            before = len(self._loaded)
            for signature in self._stored(self.depth + 1, depth):
                self._load(signature)
            self.depth = depth
            if len(self._loaded) != before:
                self._index()
        return len(self._loaded)

    def _stored(self, first: int, last: int) -> Iterator[Signature]:
        """The stored signatures whose material is ``first`` to ``last`` decisions away (pairs captured plus
        cards played), from either player's view."""
        mine, theirs = self.sides
        pairs = len(mine)
        if pairs != len(theirs) or not pairs:
            return
        packs, game = self.base.packs, self.base.game_name
        for captured in range(min(last, pairs - 1) + 1):
            left = pairs - captured
            if left > self.oracle.most_dice:
                continue
            # the hands after played_a + played_b cards, with captured + played_a + played_b in [first, last]
            hand_pairs = [(hand_a, hand_b)
                          for played_a in range(len(self.hands[0]) + 1) for played_b in range(len(self.hands[1]) + 1)
                          if first <= captured + played_a + played_b <= last
                          for hand_a in _smaller_hands(self.hands[0], played_a)
                          for hand_b in _smaller_hands(self.hands[1], played_b)]
            if not hand_pairs:
                continue
            for dice_a in itertools.combinations(mine, left):
                for dice_b in itertools.combinations(theirs, left):
                    names = packs.names(game, Signature(dice_a, dice_b).shard)
                    if not names:
                        continue
                    for hand_a, hand_b in hand_pairs:
                        if signature_name(dice_a, dice_b, hand_a, hand_b) in names:
                            yield Signature(dice_a, dice_b, hand_a, hand_b)
                        if signature_name(dice_b, dice_a, hand_b, hand_a) in names:
                            yield Signature(dice_b, dice_a, hand_b, hand_a)

    def _load(self, signature: Signature) -> None:
        if signature in self._loaded:
            return
        table = self.base.table(signature)
        if table is None:  # removed since the listing: the Python search would miss it too
            return
        if isinstance(table, FixedPointTable):
            values, kind = np.ascontiguousarray(table.raw, dtype=np.uint32), FIXED32_VALUES
        else:  # float64, as builds before fixed point stored them
            values, kind = np.ascontiguousarray(table, dtype=np.float64), FLOAT64_VALUES
        self._keep.append(values)
        self._loaded[signature] = (values.ctypes.data, kind)

    def _index(self) -> None:
        """The kernel's hash table of what is loaded (at most half full, so probes stay short)."""
        size = 16
        while size < 2 * len(self._loaded):
            size *= 2
        rows = np.zeros((size, 4), dtype=np.int64)
        for signature, (address, kind) in self._loaded.items():
            dice_key, hands_key = signature_key(signature)
            row = _slot_of(dice_key, hands_key, size - 1)
            while rows[row, KIND] != EMPTY:
                row = (row + 1) & (size - 1)
            rows[row] = (dice_key, hands_key, address, kind)
        self.rows = rows
        self.counters[MASK] = size - 1


__all__ = ["ExactTables", "HITS", "NO_TABLES", "PROBES", "WITHIN_REACH", "TableIndex", "no_tables", "probe_tables",
           "signature_key"]
