"""Exact single-round values of RolldownBeta endgames, one numpy table per material signature.

A position in a table is a RolldownBeta position in phase DECIDE where both players have had their
first turn of the round and both hands are known. Its value is the probability that the player to
move wins the round under optimal play by both (the objective ``round``), always **from the
mover's view**.

Signatures and tables
---------------------
A :class:`Signature` names the material: the sides of the mover's dice in play, the opponent's,
the mover's hand and the opponent's hand. Its :attr:`~Signature.name` is usable as a file name::

    d4d8-d6d10            the mover has a d4 and a d8, the opponent a d6 and a d10, no cards
    d4d8-d6d10.QK-5       ... the mover holds a Queen and a King, the opponent a 5
    d12-d20.-X            ... the mover holds nothing, the opponent a Joker

The table of a signature is a float64 array whose axes are the faces of the dice in play, the
mover's dice (ascending sides) then the opponent's: ``table[f1 - 1, ..., g1 - 1, ...]``.

How a table is solved
---------------------
A move either leaves the signature (a capture: a smaller-dice table, or 1 for the last pair; a
card: a smaller-hand table, a set-face card being a slice of it, the Queen a mean, a best second
die and a mean, the Joker the mean of a whole table) or stays among the signature and its *swap*
(the same material seen by the opponent): a reroll, whose value is one minus a mean along one axis
of the opponent's table. After a move the opponent is the mover, so a child's value is one minus
its value in the child's (swapped) table. Signatures are solved in dependency order (fewer dice,
then fewer cards), a signature together with its swap, by value iteration on the reroll means:

* the state of the iteration is the means of a table along each axis (the reroll values), not
  the table, so one update is a single blocked pass over the table's constants (best capture or
  card, computed once), with every intermediate in cache;
* the two tables of a coupled pair are updated in turn (Gauss-Seidel: each uses the other's
  newest means); a self-swapped signature is solved the same way, paired with its own transpose;
* hand pairs with the same dice and as many cards are solved together in one array (batches);
* Anderson acceleration on the two-table (two-ply) update, first in float32 to about 1e-6, then
  in float64 until the largest change of any mean in one more update is below ``tolerance``
  (default 1e-12); that change bounds the change of any table value in one more sweep, and is
  reported per batch with the number of updates as the certificate (:class:`BatchStats`);
* a sweep is the fused kernel (:mod:`.fused`, compiled by numba: one pass over the table) for
  batches of :data:`FUSED_ABOVE` elements and more, numpy's blocked kernel below (or everywhere,
  ``kernel="numpy"``: the reference);
* every batch is planned within a memory budget (:func:`memory_plan`): batches too large for the
  float path (the largest of 4 dice a side: 368,640,000 positions) take the lean one, with the
  constants and the tables in 32-bit fixed point and Anderson's history only as deep as fits;
  their tables come back as :class:`~dicetree.cache.packs.FixedPointTable`.

Values rise with the mover's faces and fall with the opponent's, so the printed Ace's extra plays
(one's own die to 1, the opponent's to its top) are never better than the online ones: both
variants give the same values; only the lists of legal moves differ.

Usage::

    >>> from dicetree.solver.games.rolldown import Rolldown
    >>> from dicetree.solver.games.rolldown.tables import Signature, build_tables, probe, move_values
    >>> game = Rolldown()
    >>> tables = build_tables(max_dice=1, max_cards=0)  # 36 tables, 3,600 positions
    >>> state = game.parse("d8:2/d6:5 a -/-")
    >>> round(probe(tables, state), 12)
    0.24
    >>> [(game.action_name(state, a), round(v, 6)) for a, v in move_values(tables, state)]
    [('roll a.d8', 0.24), ('roll b.d6', 0.091874)]

Only what a position needs (the closure of its signature under captures, cards and the swap)::

    >>> state = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    >>> tables = build_tables(roots=[Signature.of_state(state)])
    >>> len(tables), round(probe(tables, state), 6)
    (39, 0.883865)
    >>> best = max(move_values(tables, state), key=lambda move: move[1])
    >>> game.action_name(state, best[0]), tables.stats.max_residual < 1e-12
    ('Q b.d6', True)

:func:`estimate_build` tells the size of a build (positions, bytes, peak memory) before making it;
``tables.stats`` holds the certificate of each solved batch (updates and residual).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from dicetree.cache.packs import FIXED_SCALE, FixedPointTable, encode_fixed
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import CARD_LETTERS, CARD_OF_LETTER, DECK_COPIES, DIE_SIDES, JOKER, QUEEN, UNKNOWN
from dicetree.solver.games.rolldown.endless import DRAW, FIXED_TIE, TIE, endless_positions, forcible_draws, undecided
from dicetree.solver.games.rolldown.rules import RolldownRules, card_faces, played_card
from dicetree.solver.games.rolldown.state import (
    ACE_VARIANTS,
    DECIDE,
    ROUND_POV,
    Action,
    Capture,
    JokerPlay,
    QueenPlay,
    Reroll,
    RolldownState,
)

VALUE_BYTES = 8  # float64, in memory
STORED_BYTES = 4  # 32-bit fixed point, stored
DEFAULT_TOLERANCE = 1e-12
FLOAT32_TOLERANCE = 1e-6  # the float32 phase stops here (or when it stalls)
BLOCK_ELEMENTS = 1 << 16  # a kernel block: about 512 KiB of float64, with its intermediates in L2
MAX_BATCH_ELEMENTS = 1 << 18  # hand pairs solved together in one array (per table of a pair)
ENDLESS_ROUNDS = 8  # rounds of scoring endless play as draws and solving again (one is the rule)
MAX_UPDATES = 20000  # table updates per batch before giving up (never reached in practice)
ANDERSON_DEPTH = 4
#: Bytes that the batches being solved at once may take together (12 GiB are allowed in all:
#: the rest is for the tables mapped from disk and the interpreter).
MEMORY_BUDGET = 21 * 2**29  # 10.5 GiB
#: Batches whose working set on the float path would pass this are solved on the lean path: the
#: constants as 32-bit fixed point, the output written as fixed point, and Anderson's history as
#: deep as the budget allows (none at all for the largest).
LEAN_ABOVE = 3 * 2**30
#: The "auto" kernel is the fused one from this many elements a batch (smaller batches are solved
#: before numba would have loaded: a build on demand of a few small tables stays quick).
FUSED_ABOVE = 1 << 18


# ----- signatures --------------------------------------------------------------------------------
def _hand_text(hand: Sequence[int]) -> str:
    return "".join(CARD_LETTERS[c] for c in hand)


def _dice_text(dice: Sequence[int]) -> str:
    return "".join(f"d{s}" for s in dice)


def signature_name(mine: Sequence[int], theirs: Sequence[int], my_hand: Sequence[int] = (),
                   their_hand: Sequence[int] = ()) -> str:
    """:attr:`Signature.name` of material given sorted (without building the signature: a search's
    look-up of the tables it may reach tries thousands of names).

    >>> signature_name((4, 8), (6, 10), (12, 13), (5,))
    'd4d8-d6d10.QK-5'
    """
    text = f"{_dice_text(mine)}-{_dice_text(theirs)}"
    if my_hand or their_hand:
        text += f".{_hand_text(my_hand)}-{_hand_text(their_hand)}"
    return text


@dataclass(frozen=True, order=True)
class Signature:
    """The material of a table, from the mover's view: dice (by sides) and hands (card codes),
    each kept sorted.

    >>> from dicetree.solver.games.rolldown.cards import KING
    >>> sig = Signature((4, 8), (6, 10), (QUEEN, KING), (5,))
    >>> sig.name
    'd4d8-d6d10.QK-5'
    >>> Signature.parse(sig.name) == sig, sig.swap().name, sig.shape, sig.positions
    (True, 'd6d10-d4d8.5-QK', (4, 8, 6, 10), 1920)
    """

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    my_hand: tuple[int, ...] = ()
    their_hand: tuple[int, ...] = ()

    def __post_init__(self):
        # canonical: dice and hands sorted (so equal material gives equal, equally named signatures)
        for name in ("mine", "theirs", "my_hand", "their_hand"):
            object.__setattr__(self, name, tuple(sorted(getattr(self, name))))
        for dice in (self.mine, self.theirs):
            if len(set(dice)) != len(dice) or any(s not in DIE_SIDES for s in dice):
                raise GameError(f"a signature's dice are distinct sides from {DIE_SIDES}: {dice}")
        if len(self.mine) != len(self.theirs) or not self.mine:
            raise GameError("a signature has the same number (at least one) of dice on each side")
        for hand in (self.my_hand, self.their_hand):
            if any(c not in DECK_COPIES for c in hand):
                raise GameError(f"a signature's hand holds known card codes only: {hand}")
            if any(n > DECK_COPIES[c] for c, n in Counter(hand).items()):
                raise GameError(f"a hand holds more copies of a card than a deck has: {hand}")

    @property
    def name(self) -> str:
        return signature_name(self.mine, self.theirs, self.my_hand, self.their_hand)

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> Signature:
        """The signature a :attr:`name` describes (``d4d8-d6d10.QK-5``)."""
        dice_part, _, hand_part = name.partition(".")
        try:
            mine_text, theirs_text = dice_part.split("-")
            mine = tuple(int(t) for t in mine_text.split("d")[1:])
            theirs = tuple(int(t) for t in theirs_text.split("d")[1:])
            hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
            if hand_part:
                a, b = hand_part.split("-")
                hands = (tuple(sorted(CARD_OF_LETTER[c] for c in a)), tuple(sorted(CARD_OF_LETTER[c] for c in b)))
        except (ValueError, KeyError) as exc:
            raise GameError(f"'{name}' is not a table signature such as d4d8-d6d10.QK-5") from exc
        if UNKNOWN in hands[0] + hands[1]:
            raise GameError("a table signature has known cards only")
        return cls(mine, theirs, *hands)

    @classmethod
    def of_state(cls, state: RolldownState) -> Signature:
        """The signature of ``state``, from the view of ``state.mover``."""
        return _signature_of(state.dice, state.hands, state.mover)

    def swap(self) -> Signature:
        """The same material seen by the opponent (who moves after any move but a Queen's first half)."""
        return Signature(self.theirs, self.mine, self.their_hand, self.my_hand)

    @property
    def shard(self) -> str:
        """The two sets of dice, the smaller first, whoever moves: a signature, its swap and every
        hand pair share it (the folder their tables are stored in).

        >>> Signature((6, 10), (4, 8), (QUEEN,)).shard
        'd4d8-d6d10'
        """
        low, high = sorted((self.mine, self.theirs))
        return f"{_dice_text(low)}-{_dice_text(high)}"

    @property
    def dice(self) -> int:
        return len(self.mine)

    @property
    def cards(self) -> int:
        return len(self.my_hand) + len(self.their_hand)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.mine + self.theirs

    @property
    def positions(self) -> int:
        return math.prod(self.shape)

    def capture_child(self, i: int, j: int) -> Signature:
        """After my i-th die takes their j-th (not the last pair): the opponent moves."""
        return Signature(_drop(self.theirs, j), _drop(self.mine, i), self.their_hand, self.my_hand)

    def card_child(self, card: int) -> Signature:
        """After I play ``card`` (and any rerolls it brings): the opponent moves."""
        return Signature(self.theirs, self.mine, self.their_hand, _remove(self.my_hand, card))

    def children(self) -> list[Signature]:
        """Every signature a move from here leads to (the swap for rerolls, captures, cards)."""
        out = [self.swap()]
        if self.dice > 1:
            out += [self.capture_child(i, j) for i in range(self.dice) for j in range(self.dice)]
        out += [self.card_child(c) for c in sorted(set(self.my_hand))]
        return out


@lru_cache(maxsize=1 << 12)
def _signature_of(dice: tuple, hands: tuple, mover: int) -> Signature:
    """:meth:`Signature.of_state`, remembered: a search probes a few signatures many times, and
    building one validates it (an invalid one raises, and is not remembered)."""
    me, them = mover, 1 - mover
    mine = tuple(DIE_SIDES[i] for i, f in enumerate(dice[me]) if f)
    theirs = tuple(DIE_SIDES[i] for i, f in enumerate(dice[them]) if f)
    return Signature(mine, theirs, tuple(hands[me]), tuple(hands[them]))


def _drop(items: tuple[int, ...], index: int) -> tuple[int, ...]:
    return items[:index] + items[index + 1 :]


def _remove(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def state_index(state: RolldownState) -> tuple[int, ...]:
    """The index of ``state``'s dice faces in its signature's table (mover's dice, then theirs)."""
    me, them = state.mover, 1 - state.mover
    return tuple(f - 1 for f in state.dice[me] if f) + tuple(f - 1 for f in state.dice[them] if f)


def _check_covered(state: RolldownState) -> None:
    if state.phase != DECIDE:
        raise GameError("tables hold positions where the mover decides (phase -): not a chance or Queen step")
    if any(state.first_turn):
        raise GameError("tables hold positions where both players have had their first turn: search the first plies")
    if any(UNKNOWN in hand for hand in state.hands):
        raise GameError("tables hold positions with both hands known: average over the hidden hands")


# ----- which signatures a build holds --------------------------------------------------------------
def hands_up_to(max_cards: int) -> list[tuple[int, ...]]:
    """Every hand (sorted card codes) of at most ``max_cards`` cards that one deck allows."""
    ranks = sorted(DECK_COPIES)
    hands = []
    for size in range(max_cards + 1):
        for combo in itertools.combinations_with_replacement(ranks, size):
            if all(n <= DECK_COPIES[c] for c, n in Counter(combo).items()):
                hands.append(combo)
    return hands


def all_signatures(max_dice: int, max_cards: int = 0) -> list[Signature]:
    """Every signature with 1..``max_dice`` dice a side and at most ``max_cards`` cards a hand."""
    hands = hands_up_to(max_cards)
    out = []
    for n in range(1, max_dice + 1):
        for mine in itertools.combinations(DIE_SIDES, n):
            for theirs in itertools.combinations(DIE_SIDES, n):
                out += [Signature(mine, theirs, h, g) for h in hands for g in hands]
    return out


def required_signatures(roots: Iterable[Signature]) -> set[Signature]:
    """``roots`` and every signature their values depend on (closed under swap, captures, cards)."""
    seen: set[Signature] = set()
    todo = list(roots)
    while todo:
        sig = todo.pop()
        if sig in seen:
            continue
        seen.add(sig)
        todo.extend(child for child in sig.children() if child not in seen)
    return seen


def wanted_signatures(max_dice: int | None = None, max_cards: int = 0,
                      roots: Iterable[Signature] | None = None) -> set[Signature]:
    """What a build asks for: the closure of ``roots``, else every signature up to ``max_dice``
    dice a side and ``max_cards`` cards a hand."""
    if roots is not None:
        return required_signatures(roots)
    if max_dice is not None:
        return set(all_signatures(max_dice, max_cards))
    raise GameError("say what to build: max_dice (and max_cards) or roots")


@dataclass(frozen=True)
class BuildEstimate:
    """The size of a build: signatures, positions, the bytes its tables take in memory (float64)
    and stored (32-bit fixed point), and an estimate of the peak memory of building it in memory
    (the tables held, plus the working set of the batches solved at once)."""

    signatures: int
    positions: int
    bytes: int
    peak_bytes: int

    @property
    def stored_bytes(self) -> int:
        return self.positions * STORED_BYTES

    @property
    def working_bytes(self) -> int:
        """The working set alone: what a build that stores its tables as it goes needs."""
        return self.peak_bytes - self.bytes

    def __str__(self) -> str:
        return (
            f"{self.signatures:,} tables, {self.positions:,} positions, "
            f"{self.bytes / 2**30:.2f} GiB of tables, about {self.peak_bytes / 2**30:.2f} GiB to build"
        )


def estimate_build(
    max_dice: int | None = None, max_cards: int = 0, *, roots: Iterable[Signature] | None = None, workers: int = 1
) -> BuildEstimate:
    """The size of ``build_tables(max_dice, max_cards)`` (or of the closure of ``roots``), without
    building anything, so callers can refuse an oversized build with figures.

    >>> estimate_build(3, 0).positions  # every position with at most 3 dice a side, no cards
    292381600
    >>> estimate_build(2, 1).signatures, estimate_build(2, 1).positions
    (58725, 454500000)
    """
    if roots is not None:
        sigs = required_signatures(roots)
        count = len(sigs)
        positions = sum(sig.positions for sig in sigs)
        largest = max((sig.positions for sig in sigs), default=0)
        shapes = [sig.shape for sig in sigs]
    else:
        hands = len(hands_up_to(max_cards)) ** 2
        count = positions = largest = 0
        shapes = []
        for n in range(1, (max_dice or 0) + 1):
            products = [math.prod(c) for c in itertools.combinations(DIE_SIDES, n)]
            count += len(products) ** 2 * hands
            positions += sum(products) ** 2 * hands
            largest = max(largest, max(products) ** 2)
            shapes.append(tuple(sorted(DIE_SIDES)[-n:]) * 2)
    data = positions * VALUE_BYTES
    # the working set of the largest batch (see _solve_batch): per position of one of its two
    # arrays 56 bytes (constants in float64 and float32, the two tables written at the end and
    # the constants' temporaries), per reroll mean 36 + 12 * (Anderson depth + 1) bytes
    means_per_position = max((sum(1 / s for s in shape) for shape in shapes), default=0)
    elements = min(positions, max(largest, min(MAX_BATCH_ELEMENTS, positions)))
    per_worker = int(elements * (56 + means_per_position * (36 + 12 * (ANDERSON_DEPTH + 1))))
    # the batches solved at once share MEMORY_BUDGET; larger ones take the lean path (memory_plan)
    return BuildEstimate(count, positions, data, data + min(per_worker * max(1, workers), MEMORY_BUDGET))


# ----- the tables as a value ------------------------------------------------------------------------
@dataclass
class BatchStats:
    """The certificate of one solved batch (a signature with its swap, over several hand pairs)."""

    signatures: tuple[str, ...]
    positions: int
    updates32: int  # table updates (sweeps of one table) in float32
    updates64: int  # ... in float64, including the last one that wrote the tables
    position_updates: int  # positions touched by all those updates
    residual: float  # bound on the change of any value in one more sweep
    seconds: float  # solving
    converged: bool
    store_seconds: float = 0.0  # writing its tables, where a tablebase stores them
    endless: int | None = None  # positions in endless play rescored as draws (None: not checked: built before)
    draws: int | None = None  # positions left worth a draw by endless play (both prefer the loop)


@dataclass
class BuildStats:
    """Totals of a build."""

    batches: list[BatchStats] = field(default_factory=list)
    seconds: float = 0.0
    positions: int = 0

    @property
    def updates(self) -> int:
        """Position updates (each table update touches every position of the table)."""
        return sum(b.position_updates for b in self.batches)

    @property
    def max_residual(self) -> float:
        return max((b.residual for b in self.batches), default=0.0)

    @property
    def converged(self) -> bool:
        return all(b.converged for b in self.batches)


class Tables(dict):
    """``{Signature: np.ndarray}`` plus the rules variant they were built for and build figures."""

    def __init__(self, *args, ace: str = "online", stats: BuildStats | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.ace = ace
        self.stats = stats or BuildStats()


# ----- constants: every move that leaves the signature ---------------------------------------------
def _halves_transposed(table: np.ndarray) -> np.ndarray:
    """A table seen by the other player: (their dice, my dice) axes become (my dice, their dice)."""
    n = table.ndim // 2
    return table.transpose(tuple(range(n, 2 * n)) + tuple(range(n)))


def _faces(sides: int) -> np.ndarray:
    return np.arange(1, sides + 1)


def card_values(sig: Signature, card: int, child_table: np.ndarray, ace: str) -> dict[tuple, np.ndarray]:
    """The value of each play of ``card`` at every position of ``sig`` (mover's view), keyed by the
    rules' action tuple less the slot numbering: ('set', axis, face), ('queen', axis) or ('joker',).

    ``child_table`` is the table of ``sig.card_child(card)``. Arrays broadcast to ``sig.shape``.
    """
    n = sig.dice
    after = ROUND_POV.flip(_halves_transposed(np.asarray(child_table)))  # my value once the card is played, in my axes
    out: dict[tuple, np.ndarray] = {}
    if card == JOKER:
        out[("joker",)] = np.asarray(after.mean())
        return out
    if card == QUEEN:
        second = _best_reroll(after)
        for axis in range(2 * n):
            out[("queen", axis)] = second.mean(axis=axis, keepdims=True)
        return out
    for axis, sides in enumerate(sig.shape):
        for face in card_faces(card, sides, axis < n, ace):
            out[("set", axis, face)] = after.take([face - 1], axis=axis)
    return out


def _best_reroll(values: np.ndarray) -> np.ndarray:
    """max over dice of the mean along that die: the best choice of a die to reroll."""
    best = values.mean(axis=0, keepdims=True)
    for axis in range(1, values.ndim):
        best = np.maximum(best, values.mean(axis=axis, keepdims=True))
    return np.broadcast_to(best, values.shape)


def constants(sig: Signature, tables: Mapping, ace: str = "online") -> np.ndarray:
    """Best value of a move that leaves ``sig`` (capture or card) at every position; -inf where
    there is none. Needs the tables of every capture and card child."""
    n = sig.dice
    shape = sig.shape
    best = np.full(shape, -np.inf)
    for i, a in enumerate(sig.mine):
        for j, b in enumerate(sig.theirs):
            mask_shape = [1] * (2 * n)
            mask_shape[i], mask_shape[n + j] = a, b
            mask = (_faces(a)[:, None] >= _faces(b)[None, :]).reshape(mask_shape)
            if n == 1:
                value: np.ndarray | float = 1.0  # the last capture wins the round
            else:
                child = np.asarray(tables[sig.capture_child(i, j)])  # stored fixed point is decoded
                value = np.expand_dims(ROUND_POV.flip(_halves_transposed(child)), (i, n + j))
            np.maximum(best, value, out=best, where=mask)
    for card in sorted(set(sig.my_hand)):
        for value in card_values(sig, card, tables[sig.card_child(card)], ace).values():
            np.maximum(best, value, out=best)
    return best


# ----- the blocked kernel ---------------------------------------------------------------------------
class _Kernel:
    """One table update over a batch ``(B, d_1, ..., d_m)``: ``out = op(K, op_k inputs[k])`` where
    ``inputs[k]`` is broadcast along dice axis k (a reroll mean), then the sums of ``out`` along
    every dice axis. Works block by block so the block and its intermediates stay in cache.
    ``op`` is "max" or "min". The reference for the fused kernel (:mod:`.fused`)."""

    def __init__(self, shape: tuple[int, ...], dtype, op: str, target: int | None = None):
        target = target or BLOCK_ELEMENTS
        self.shape = shape
        batch, dims = shape[0], shape[1:]
        m = len(dims)
        self.m = m
        self.op = {"max": np.maximum, "min": np.minimum}[op]
        q = 0
        while q < m - 1 and math.prod(dims[q:]) > target:  # a block keeps at least the last axis
            q += 1
        self.q = q
        self.blocks: list[tuple[Any, ...]]  # slices of hands, or the indices of a block's leading axes
        if q == 0:
            per = max(1, target // max(1, math.prod(dims)))
            self.blocks = [(slice(h, min(batch, h + per)),) for h in range(0, batch, per)]
            self.buf = np.empty((min(batch, per),) + dims, dtype)
        else:
            self.blocks = list(np.ndindex(batch, *dims[:q]))
            self.buf = np.empty(dims[q:], dtype)
        self.ones = np.ones(dims[-1], dtype)
        # sums along the axes inside a block: add.reduce when the rows it adds are long, else
        # einsum (two to four times faster than add.reduce over short inner rows)
        block_dims = (0,) + dims if q == 0 else dims[q:]
        self.inner = []
        for k in range(q, m - 1):
            axis = k + 1 if q == 0 else k - q
            letters = "abcdefghijklmnop"[: len(block_dims)]
            subscripts = f"{letters}->{letters[:axis]}{letters[axis + 1:]}"
            long_rows = math.prod(block_dims[axis + 1 :]) >= 64
            self.inner.append((k, axis, None if long_rows else subscripts))
        self.mean_shapes = [tuple(1 if j == k + 1 else shape[j] for j in range(m + 1)) for k in range(m)]
        self.mean_sizes = [math.prod(s) for s in self.mean_shapes]
        self.offsets = np.cumsum([0] + self.mean_sizes).tolist()
        self.length = self.offsets[-1]
        self.inverse_sides = [1.0 / d for d in dims]

    def views(self, flat: np.ndarray) -> list[np.ndarray]:
        """The per-axis means inside one flat vector."""
        return [flat[self.offsets[k] : self.offsets[k + 1]].reshape(self.mean_shapes[k]) for k in range(self.m)]

    def run(self, const: np.ndarray, inputs: np.ndarray, sums: np.ndarray, out: np.ndarray | None = None) -> None:
        """``sums`` (flat, axis after axis) gets the *means* along each axis of the updated table
        (written to ``out`` if given), from the means ``inputs`` (flat, the same layout)."""
        self._run(const, self.views(inputs), self.views(sums), out)

    def _run(self, const: np.ndarray, inputs: list[np.ndarray], sums: list[np.ndarray], out: np.ndarray | None):
        op, q, m = self.op, self.q, self.m
        for k in range(q):
            sums[k].fill(0)
        ones = self.ones
        for idx in self.blocks:
            if q == 0:
                sl = idx[0]
                count = sl.stop - sl.start
                b = out[sl] if out is not None else (self.buf if count == self.buf.shape[0] else self.buf[:count])
                op(const[sl], inputs[0][sl], out=b)
                for k in range(1, m):
                    op(b, inputs[k][sl], out=b)
                self._sum_inner(b, sums, sl, ones)
            else:
                b = out[idx] if out is not None else self.buf
                heads = []
                for k in range(q):
                    head = list(idx)
                    head[k + 1] = 0
                    heads.append(tuple(head))
                op(const[idx], inputs[0][heads[0]], out=b)
                for k in range(1, m):
                    op(b, inputs[k][heads[k]] if k < q else inputs[k][idx], out=b)
                for k in range(q):
                    acc = sums[k][heads[k]]
                    np.add(acc, b, out=acc)
                self._sum_inner(b, sums, idx, ones)
        for k in range(m):
            np.multiply(sums[k], self.inverse_sides[k], out=sums[k])

    def _sum_inner(self, block: np.ndarray, sums: list[np.ndarray], index, ones: np.ndarray) -> None:
        """Add ``block``'s sums along the axes inside a block (and the last axis) into ``sums``."""
        for k, axis, subscripts in self.inner:
            target = sums[k][index]
            if subscripts is None:
                np.add.reduce(block, axis=axis, keepdims=True, out=target)
            else:
                np.einsum(subscripts, block, out=target.squeeze(axis))
        np.matmul(block.reshape(-1, block.shape[-1]), ones, out=sums[self.m - 1][index].reshape(-1))


# ----- Anderson acceleration -------------------------------------------------------------------------
class _Anderson:
    """Anderson mixing (type II) over a ring of the last ``depth + 1`` images ``g_i`` of the
    fixed-point map and their residuals ``f_i = g_i - x_i``: the next iterate is the combination
    ``sum a_i g_i`` (``sum a_i = 1``) whose residuals' combination is smallest.

    A batch solves several independent problems (hand pairs) in one vector: each segment of the
    vector (``offsets``) is laid out ``(groups, ...)``, and each group gets its own weights, as if
    it were accelerated alone. The residuals are kept in float32 (they only weigh the images) and
    their Gram matrices are updated one row at a time."""

    def __init__(self, length: int, depth: int, dtype, groups: int = 1, offsets: Sequence[int] | None = None):
        slots = depth + 1
        self.depth = depth
        self.groups = groups
        bounds = list(offsets) if offsets is not None else [0, length]
        self.segments = list(zip(bounds[:-1], bounds[1:]))
        self.images = np.zeros((slots, length), dtype)
        self.residuals = np.zeros((slots, length), np.float32)
        self.gram = np.zeros((groups, slots, slots))
        self.count = 0
        self.slot = 0

    def reset(self) -> None:
        """Forget the history (the current slot stays: it is about to be filled)."""
        self.count = 0

    def record(self, x: np.ndarray) -> float:
        """The image in ``images[slot]`` is of ``x``: store its residual; return its largest size."""
        f = self.residuals[self.slot]
        np.subtract(self.images[self.slot], x, out=f, casting="same_kind")
        return float(max(f.max(), -f.min()))

    def mix(self, out: np.ndarray) -> None:
        """Write the next iterate into ``out`` and move to the next slot."""
        slot, slots, groups = self.slot, self.depth + 1, self.groups
        self.count = min(self.count + 1, slots)
        live = [(slot - i) % slots for i in range(self.count)]
        weights = None
        if len(live) > 1:
            # einsum rather than BLAS: no multithreaded call on the hot path
            row = np.zeros((groups, slots))
            for lo, hi in self.segments:
                ring = self.residuals[:, lo:hi].reshape(slots, groups, -1)
                row += np.einsum("sgi,gi->gs", ring, ring[slot], dtype=np.float64)
            self.gram[:, slot, :] = row
            self.gram[:, :, slot] = row
            weights = self._weights(live)
        if weights is None:
            np.copyto(out, self.images[slot])
            if len(live) > 1:
                self.count = 1
        else:
            for lo, hi in self.segments:
                images = self.images[:, lo:hi].reshape(slots, groups, -1)
                np.einsum("gs,sgi->gi", weights, images, out=out[lo:hi].reshape(groups, -1))
        self.slot = (slot + 1) % slots

    def _weights(self, live: list[int]) -> np.ndarray | None:
        """Per group, the weights of the images (zero for slots not in use)."""
        with np.errstate(all="ignore"):  # groups already at zero residual give inf or nan: plain steps
            return self._solve_weights(live)

    def _solve_weights(self, live: list[int]) -> np.ndarray | None:
        k = len(live)
        gram = self.gram[:, live][:, :, live]  # (groups, k, k)
        scale = np.sqrt(np.maximum(np.diagonal(gram, axis1=1, axis2=2), 1e-300))
        normed = gram / (scale[:, :, None] * scale[:, None, :]) + 1e-10 * np.eye(k)
        try:
            beta = np.linalg.solve(normed, (1.0 / scale)[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:
            return None
        alpha = beta / scale
        total = alpha.sum(axis=1, keepdims=True)
        good = np.all(np.isfinite(alpha), axis=1) & np.isfinite(total[:, 0]) & (total[:, 0] != 0)
        alpha = np.where(good[:, None], alpha / np.where(good[:, None], total, 1.0), 0.0)
        alpha[~good, 0] = 1.0  # live[0] is the newest image: a plain step for those groups
        weights = np.zeros((self.groups, self.depth + 1), self.images.dtype)
        weights[:, live] = alpha
        return weights


# ----- one batch: a dice pair and its swap over several hand pairs ----------------------------------
@dataclass(frozen=True)
class Batch:
    """Tables A = (mine, theirs, hand pair h) and B = their swaps, for each h in ``hands``: the unit
    of work of a build (solved together, stored together as one pack).
    With ``mine == theirs`` each B table is an A table of the swapped hand pair (or the same
    table): only one hand pair of each swapped couple is listed and the tables are stored once.

    >>> batch = plan_batches(all_signatures(1))[0][0]
    >>> batch.name, batch.shard, [sig.name for sig in batch.signatures()]
    ('d20-d20+1', 'd20-d20', ['d20-d20'])
    """

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    hands: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (my hand, their hand) of the A tables

    def a_sig(self, h: int) -> Signature:
        return Signature(self.mine, self.theirs, *self.hands[h])

    def b_sig(self, h: int) -> Signature:
        return self.a_sig(h).swap()

    def signatures(self) -> list[Signature]:
        out = []
        for h in range(len(self.hands)):
            out.append(self.a_sig(h))
            if self.b_sig(h) != self.a_sig(h):
                out.append(self.b_sig(h))
        return out

    def dependencies(self) -> set[Signature]:
        """The tables of other batches this one reads (its captures' and cards' children)."""
        own = set(self.signatures())
        return {child for sig in own for child in sig.children()} - own

    @property
    def self_swapped(self) -> bool:
        """Whether every B table is its A table (the same material on both sides: one table a hand pair)."""
        return all(self.a_sig(h) == self.b_sig(h) for h in range(len(self.hands)))

    @property
    def shard(self) -> str:
        """The pair of dice sets, either way round: every table of the batch has it (:attr:`Signature.shard`)."""
        return self.a_sig(0).shard

    @property
    def name(self) -> str:
        """A name for the batch's pack, the same whenever the same batch is planned: its first table,
        how many hand pairs, and (for several) a digest of them all."""
        text = f"{self.a_sig(0).name}+{len(self.hands)}"
        if len(self.hands) > 1:
            text += "-" + hashlib.sha256(repr(self.hands).encode()).hexdigest()[:10]
        return text

    @property
    def positions(self) -> int:
        return math.prod(self.mine + self.theirs) * len(self.signatures())

    @property
    def elements(self) -> int:
        """Positions in each of the two arrays the solver iterates on."""
        return math.prod(self.mine + self.theirs) * len(self.hands)


def plan_batches(signatures: Iterable[Signature]) -> list[list[Batch]]:
    """The batches that solve ``signatures`` (and their swaps) in dependency order: a list of levels
    (fewer dice, then fewer cards) of independent batches, each a dice pair with its swap and some
    hand pairs, largest first. The same signatures always give the same batches."""
    wanted = set(signatures)
    wanted |= {sig.swap() for sig in wanted}  # a signature is solved with its swap
    groups: dict[tuple, set] = {}
    for sig in wanted:
        a = sig if (sig.mine, sig.my_hand) <= (sig.theirs, sig.their_hand) else sig.swap()
        groups.setdefault((sig.dice, sig.cards, a.mine, a.theirs), set()).add((a.my_hand, a.their_hand))
    levels: dict[tuple[int, int], list[Batch]] = {}
    for (dice, cards, mine, theirs), hands in sorted(groups.items()):
        ordered = sorted(hands)
        limit = max(1, MAX_BATCH_ELEMENTS // math.prod(mine + theirs))
        for start in range(0, len(ordered), limit):
            levels.setdefault((dice, cards), []).append(Batch(mine, theirs, tuple(ordered[start : start + limit])))
    return [sorted(levels[key], key=lambda b: -b.elements) for key in sorted(levels)]


KERNELS = ("auto", "fused", "numpy")


class MemoryPlan(NamedTuple):
    """How a batch is solved within the memory budget: on the lean path or not, the depth of
    Anderson's history in each phase, and the bytes its working set peaks at (estimated)."""

    lean: bool
    depth32: int
    depth64: int
    bytes: int


def memory_plan(batch: Batch, lean: bool | None = None, depth: int = ANDERSON_DEPTH,
                budget: int = MEMORY_BUDGET) -> MemoryPlan:
    """The plan for ``batch``: the float path (float64 constants, float tables) unless its working
    set would pass :data:`LEAN_ABOVE` (or ``lean`` says), else the lean path, whose history is as
    deep as ``budget`` allows.

    >>> plan = memory_plan(Batch((8, 10, 12, 20), (8, 10, 12, 20), (((), ()),)))  # the largest table
    >>> plan.lean, plan.depth32, plan.depth64, round(plan.bytes / 2**30, 1)
    (True, 1, 0, 10.0)
    """
    e = batch.elements
    means = _mean_length(batch)
    floats = 56 * e + means * (36 + 12 * (depth + 1))  # see estimate_build
    if lean is None:
        lean = floats > LEAN_ABOVE
    if not lean:
        return MemoryPlan(False, depth, depth, floats)
    consts = 8 * e  # both tables' constants, 32-bit fixed point

    def phase(value_bytes: int, d: int) -> int:  # x, the B means, the image or Anderson's ring
        return means * (3 * value_bytes + (d + 1) * (value_bytes + 4) if d else 3 * value_bytes)

    def deepest(value_bytes: int, extra: int) -> int:
        fits = [d for d in range(depth + 1) if consts + extra + phase(value_bytes, d) <= budget]
        return max(fits, default=0)

    depth32 = deepest(4, 0)
    depth64 = deepest(8, 4 * means)  # the float32 phase's answer is held while the float64 one starts
    peaks = [
        consts + 8 * e // len(batch.hands),  # the constants being made: one table in float64
        consts + phase(4, depth32),
        consts + 4 * means + phase(8, depth64),
        consts + 3 * 8 * means + 4 * e * (1 if batch.self_swapped else 3),  # the tables written, B's turned to its axes
    ]
    return MemoryPlan(True, depth32, depth64, max(peaks))


def _mean_length(batch: Batch) -> int:
    """Reroll means of one of the batch's arrays: the state of its iteration."""
    e = batch.elements
    return sum(e // d for d in batch.mine + batch.theirs)


class _Budget:
    """Bytes shared by the batches solved at once: a batch waits until its plan fits."""

    def __init__(self, total: int):
        self.total = total
        self.free = total
        self.condition = threading.Condition()

    @contextmanager
    def reserve(self, amount: int):
        amount = min(amount, self.total)
        with self.condition:
            self.condition.wait_for(lambda: self.free >= amount)
            self.free -= amount
        try:
            yield
        finally:
            with self.condition:
                self.free += amount
                self.condition.notify_all()


_BUDGET = _Budget(MEMORY_BUDGET)


def solve_batch(batch: Batch, tables: Mapping[Signature, np.ndarray], ace: str = "online",
                tolerance: float = DEFAULT_TOLERANCE, float32: bool = True,
                anderson: int = ANDERSON_DEPTH, kernel: str = "auto",
                lean: bool | None = None, start: Mapping[Signature, np.ndarray] | None = None,
                endless: bool = True) -> tuple[dict[Signature, np.ndarray], BatchStats]:
    """Solve ``batch`` reading its :meth:`~Batch.dependencies` from ``tables``: its tables and
    certificate (a warning if it did not converge). The same inputs give the same bits.

    ``kernel`` is "fused" (one pass over memory a sweep, compiled by numba), "numpy" (the
    reference) or "auto" (fused from :data:`FUSED_ABOVE` elements, where numba is installed). ``lean`` forces or forbids the lean
    path (:func:`memory_plan`; default: batches too large for the float path), whose tables come
    back as 32-bit fixed point (:class:`~dicetree.cache.packs.FixedPointTable`), within 2.4e-10 of
    the float path's. Batches solved at once in threads share :data:`MEMORY_BUDGET`. ``start`` holds
    this batch's tables solved before (as stored): the iteration starts from them, in float64.
    ``endless=False`` leaves endless play unscored (:mod:`.endless`): the values wherever value
    iteration stopped, only to measure what scoring it changes."""
    if kernel not in KERNELS:
        raise GameError(f"unknown kernel '{kernel}': choose one of {', '.join(KERNELS)}")
    plan = memory_plan(batch, lean, anderson)
    wanted = kernel == "fused" or plan.lean or (kernel == "auto" and batch.elements >= FUSED_ABOVE)
    fused = _fused_kernel() if wanted and kernel != "numpy" else None
    if fused is None and wanted and (kernel == "fused" or plan.lean):
        raise GameError("the fused kernel (and the lean path of the largest tables) needs numba: pip install numba")
    out: dict[Signature, np.ndarray] = {}
    with _BUDGET.reserve(plan.bytes):
        stats = _solve_batch(batch, tables, out, ace, tolerance, float32, plan, fused or _Kernel, start,
                             ENDLESS_ROUNDS if endless else 0)
    if not stats.converged:
        warnings.warn(
            f"tables {stats.signatures[0]} ...: residual {stats.residual:.1e} after "
            f"{stats.updates64} float64 updates, above the tolerance {tolerance:.1e}",
            RuntimeWarning,
            stacklevel=2,
        )
    return out, stats


def _fused_kernel():
    """The fused kernel's class, or None where numba is not installed (numba loads here, with the
    first batch solved, never when tables are only probed)."""
    try:
        from dicetree.solver.games.rolldown.fused import FusedKernel
    except ImportError:
        return None
    return FusedKernel


def _largest_change(new: np.ndarray, old: np.ndarray, chunk: int = 1 << 20) -> float:
    """max |new - old|, a chunk at a time (no temporary the size of the vectors)."""
    largest = 0.0
    for at in range(0, new.size, chunk):
        diff = new[at : at + chunk] - old[at : at + chunk]
        largest = max(largest, float(diff.max()), -float(diff.min()))
    return largest


def _encode_into(out: np.ndarray, values: np.ndarray) -> None:
    """``values`` (any layout) as fixed point into the C-ordered ``out``, a slice of the first axis
    at a time; -inf (no such move) becomes 0 and +inf 1, neutral for max and min over values in [0, 1]."""
    for i in range(values.shape[0]):
        out[i] = encode_fixed(values[i])


def _solve_batch(batch: Batch, tables: Mapping, out: dict, ace: str, tolerance: float, float32: bool,
                 plan: MemoryPlan, kernel_class, start: Mapping | None = None,
                 endless_rounds: int = ENDLESS_ROUNDS) -> BatchStats:
    """Solve one batch reading its children from ``tables`` and put its tables into ``out`` (each a
    contiguous float64 array, or fixed point on the lean path).

    The A tables X and the B tables Y (seen in A's axes: Y[h][x] is the value for B to move at
    the position x) satisfy X = max(C_A, 1 - mean_k Y) and Y = max(C_B, 1 - mean_k X) over the
    dice axes k. A is iterated as its complement Z = 1 - X = min(1 - C_A, mean_k Y), so that the
    means of Z are exactly B's reroll values and the means of Y exactly Z's inputs: the state of
    the iteration is the means of Z (B's inputs), one step updates Y then Z (Gauss-Seidel).
    """
    started = time.perf_counter()
    count = len(batch.hands)
    n = len(batch.mine)
    halves = tuple(range(n, 2 * n)) + tuple(range(n))
    shape = (count,) + batch.mine + batch.theirs
    lean = plan.lean
    const_b = np.empty(shape, np.uint32 if lean else np.float64)
    low_a = np.empty_like(const_b)
    for h in range(count):
        values = constants(batch.b_sig(h), tables, ace)
        if lean:
            _encode_into(const_b[h], _halves_transposed(values))
        else:
            const_b[h] = _halves_transposed(values)
        if batch.a_sig(h) != batch.b_sig(h):
            values = constants(batch.a_sig(h), tables, ace)
        values = ROUND_POV.flip(values)  # -inf becomes +inf
        if lean:
            _encode_into(low_a[h], values)
        else:
            low_a[h] = values
        del values
    updates = {np.float32: 0, np.float64: 0}
    table_dtype = np.uint32 if lean else np.float64

    def solve(dtype, x0: np.ndarray | None, tol: float, depth: int, write: bool):
        kernel_b = kernel_class(shape, dtype, "max")
        kernel_a = kernel_class(shape, dtype, "min")
        c_b = const_b if lean else const_b.astype(dtype, copy=False)  # noqa: F821 - solve() runs before the del below
        c_a = low_a if lean else low_a.astype(dtype, copy=False)  # noqa: F821 - as above
        length = kernel_b.length
        x = np.full(length, 0.5, dtype) if x0 is None else x0.astype(dtype)
        del x0
        means_b = np.empty(length, dtype)
        # with a history, Anderson keeps the images; without, one spare vector takes them in turn
        anderson = _Anderson(length, depth, dtype, count, kernel_b.offsets) if depth else None
        spare = np.empty(length, dtype)
        best, stall, residual = math.inf, 0, math.inf
        while True:
            image = anderson.images[anderson.slot] if anderson else spare
            kernel_b.run(c_b, x, means_b)
            kernel_a.run(c_a, means_b, image)
            updates[dtype] += 2
            residual = anderson.record(x) if anderson else _largest_change(image, x)
            if residual < tol or updates[dtype] >= MAX_UPDATES:
                break
            if residual < 0.5 * best:
                best, stall = residual, 0
            else:
                stall += 1
                if residual > 100 * best and anderson:
                    anderson.reset()
                if stall >= (6 if dtype == np.float32 else 40):  # rounding level reached
                    break
            if anderson:
                anderson.mix(spare)
                x, spare = spare, x
            else:
                x, spare = spare, x
        if anderson:
            x = image.copy()
            del anderson, image
        else:
            x = image
        if not write:
            return x, residual
        # one more step from the converged means writes both tables (B's only where it is not A's)
        table_b = None if batch.self_swapped else np.empty(shape, table_dtype)
        kernel_b.run(c_b, x, means_b, table_b)
        table_a = np.empty(shape, table_dtype)
        kernel_a.run(c_a, means_b, spare, table_a)
        updates[dtype] += 2
        return (table_b, table_a), _largest_change(spare, x)

    x0 = None
    if start is not None:  # the means of A's losing chances, as the iteration holds them
        x0 = np.concatenate([
            np.stack([ROUND_POV.flip(start[batch.a_sig(h)].mean(axis=k, keepdims=True)) for h in range(count)]).ravel()
            for k in range(2 * n)])
    elif float32:
        x0, _ = solve(np.float32, None, FLOAT32_TOLERANCE, plan.depth32, False)
    (table_b, table_a), residual = solve(np.float64, x0, tolerance, plan.depth64, True)
    # endless play scored as a draw (:mod:`.endless`), on A's losing chances as the solver holds them
    rescored, draws, scale = 0, None, float(FIXED_SCALE) if lean else 1.0
    reset = np.zeros(0, np.intp)  # every position of A's tables found in endless play so far (flat)
    both_halves = (0,) + tuple(axis + 1 for axis in halves)
    for _ in range(endless_rounds):
        if table_b is None:  # self-swapped: B's table is A's own, seen the other way round
            y = (np.subtract(np.uint32(FIXED_SCALE), table_a) if lean else ROUND_POV.flip(table_a)).transpose(both_halves)
        else:
            y = table_b
        tie = FIXED_TIE if lean else TIE
        loop_z, loop_y = endless_positions(table_a, y, low_a, const_b, scale, tie)
        forced_z, forced_y = forcible_draws(table_a, y, low_a, const_b, scale, tie)
        loop_z |= forced_z
        loop_y |= forced_y
        del forced_z, forced_y
        if table_b is None:
            loop_z |= loop_y.transpose(both_halves)  # one table: both loops are in it
        still = undecided(table_a, loop_z, scale) + (0 if table_b is None else undecided(y, loop_y, scale))
        draws = int(loop_z.sum()) + (0 if table_b is None else int(loop_y.sum()))
        del y, loop_y
        if not still:
            break
        rescored += still
        # every loop found so far starts again from the draw, not only this round's: loops whose
        # way out passes through one another (the player ahead leaves both by the same reroll)
        # must come up from the draw together, or the one left standing holds the other above
        # its way out, and the rounds take turns between them (see results/endless-play/README.md)
        reset = np.union1d(reset, np.flatnonzero(loop_z))
        del loop_z
        table_a.reshape(-1)[reset] = encode_fixed(np.array([DRAW]))[0] if lean else DRAW
        # the state of the iteration is the means of A's losing chances; plain iteration from there
        # (no acceleration) approaches each loop's value from the draw's side, where Anderson's steps
        # would overshoot into the interval of other solutions
        x0 = np.concatenate([table_a.mean(axis=k + 1, keepdims=True, dtype=np.float64).ravel() / scale
                             for k in range(2 * n)])
        (table_b, table_a), residual = solve(np.float64, x0, tolerance, 0, True)
    else:
        if endless_rounds:
            warnings.warn(f"tables {batch.a_sig(0)} ...: endless play not settled after {endless_rounds} rounds",
                          RuntimeWarning, stacklevel=3)
    del const_b, low_a, x0
    if lean:  # X = 1 - Z, exactly, in fixed point
        np.subtract(np.uint32(FIXED_SCALE), table_a, out=table_a)
    else:
        table_a = ROUND_POV.flip(table_a)
    wrap = FixedPointTable if lean else (lambda values: values)
    for h in range(count):
        out[batch.a_sig(h)] = wrap(table_a[h])
        if batch.b_sig(h) != batch.a_sig(h):
            out[batch.b_sig(h)] = wrap(np.ascontiguousarray(table_b[h].transpose(halves)))
    return BatchStats(
        tuple(sig.name for sig in batch.signatures()),
        batch.positions,
        updates[np.float32],
        updates[np.float64],
        batch.elements * (updates[np.float32] + updates[np.float64]),
        residual,
        time.perf_counter() - started,
        residual < tolerance,
        endless=rescored,
        draws=draws,
    )


# ----- the builder -------------------------------------------------------------------------------------
ProgressFn = Callable[[int, int, BatchStats], None]


def build_tables(
    max_dice: int | None = None,
    max_cards: int = 0,
    ace: str = "online",
    tolerance: float = DEFAULT_TOLERANCE,
    progress: ProgressFn | None = None,
    *,
    roots: Iterable[Signature] | None = None,
    tables: Mapping | None = None,
    workers: int | None = None,
    float32: bool = True,
    anderson: int = ANDERSON_DEPTH,
    kernel: str = "auto",
    lean: bool | None = None,
    endless: bool = True,
) -> Tables:
    """Solve every signature with 1..``max_dice`` dice a side and at most ``max_cards`` cards in
    each hand (or only what ``roots`` need) and return ``{Signature: table}``.

    ``tables`` may hold tables already built for the same Ace variant: they are reused, and the
    result includes them. ``progress(done_positions, total_positions, batch_stats)`` is called
    after each batch. ``workers`` threads solve independent batches at once (default: the CPUs).
    ``float32`` starts each batch in float32; ``anderson`` is the depth of the acceleration;
    ``kernel``, ``lean`` and ``endless`` are :func:`solve_batch`'s.

    >>> tables = build_tables(1)
    >>> len(tables), tables.stats.positions, tables.stats.max_residual < 1e-12
    (36, 3600, True)
    """
    if ace not in ACE_VARIANTS:
        raise GameError(f"unknown Ace variant '{ace}': choose one of {', '.join(ACE_VARIANTS)}")
    wanted = wanted_signatures(max_dice, max_cards, roots)
    result = Tables(ace=ace)
    if tables:
        built_for = getattr(tables, "ace", ace)
        if built_for != ace:
            raise GameError(f"the given tables were built for the {built_for} Ace, not {ace}")
        result.update(tables)
    todo = {sig for sig in wanted if sig not in result}
    plan = plan_batches(todo)
    lock = threading.Lock()

    def solve(batch: Batch) -> BatchStats:
        solved, batch_stats = solve_batch(batch, result, ace, tolerance, float32, anderson, kernel, lean,
                                          endless=endless)
        with lock:
            result.update(solved)
        return batch_stats

    run_plan(plan, solve, result.stats, workers=workers, progress=progress)
    for sig in wanted:
        if sig not in result:  # pragma: no cover - the plan covers every wanted signature
            raise GameError(f"internal error: {sig.name} was not built")
    return result


def run_plan(plan: list[list[Batch]], solve: Callable[[Batch], BatchStats], stats: BuildStats, *,
             workers: int | None = None, progress: ProgressFn | None = None,
             level_done: Callable[[], None] | None = None) -> BuildStats:
    """Run ``solve`` on every batch of ``plan``, level after level, ``workers`` threads at once
    (default: the CPUs), adding each batch's certificate to ``stats`` and calling
    ``progress(done_positions, total_positions, batch_stats)`` as each batch is done and
    ``level_done()`` after each level (before the next one reads it)."""
    total = sum(b.positions for level in plan for b in level)
    done = 0
    workers = workers or os.cpu_count() or 1
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for level in plan:
            for batch_stats in pool.map(solve, level) if workers > 1 else map(solve, level):
                stats.batches.append(batch_stats)
                done += batch_stats.positions
                if progress is not None:
                    progress(done, total, batch_stats)
            if level_done is not None:
                level_done()
    stats.seconds += time.perf_counter() - started
    stats.positions += total
    return stats


# ----- probing ------------------------------------------------------------------------------------------
def _table(tables: Mapping, sig: Signature) -> np.ndarray:
    try:
        return tables[sig]
    except KeyError:
        raise KeyError(f"no table for {sig.name}") from None


def probe(tables: Mapping, state: RolldownState) -> float:
    """The value of ``state`` for its mover: the probability of winning the round.

    ``state`` must be in phase DECIDE with no first-turn flags and both hands known
    (:class:`GameError` otherwise); a missing table raises :class:`KeyError`, as in python-chess.
    """
    _check_covered(state)
    return float(_table(tables, Signature.of_state(state))[state_index(state)])


def move_values(tables: Mapping, state: RolldownState, ace: str | None = None) -> list[tuple[Action, float]]:
    """Every legal action at ``state`` (the rules' action tuples, in the rules' order) with its
    exact value for the mover. The best of them equals :func:`probe` (up to the residual).

    Only the lines of the tables through the position are read (a Joker reads a whole table),
    so this is fast on large tables. The Ace variant is the one the tables were built for
    (``tables.ace``) unless ``ace`` says.
    """
    _check_covered(state)
    rules = RolldownRules(ace=ace or str(getattr(tables, "ace", "online")))
    sig = Signature.of_state(state)
    me, them = state.mover, 1 - state.mover
    my_slots = [i for i, f in enumerate(state.dice[me]) if f]
    their_slots = [i for i, f in enumerate(state.dice[them]) if f]
    axis_of = {(me, s): k for k, s in enumerate(my_slots)}
    axis_of.update({(them, s): sig.dice + k for k, s in enumerate(their_slots)})
    index = state_index(state)
    n = sig.dice
    results = []
    for action in rules.legal_actions(state):
        if isinstance(action, Capture):
            i, j = my_slots.index(action.my_slot), their_slots.index(action.their_slot)
            if n == 1:
                value = 1.0
            else:
                child = _table(tables, sig.capture_child(i, j))
                child_index = _drop(index[n:], j) + _drop(index[:n], i)
                value = ROUND_POV.flip(float(child[child_index]))
        elif isinstance(action, Reroll):
            after = _AfterMove(_table(tables, sig.swap()), index)
            value = after.line(axis_of[(action.side, action.slot)]).mean()
        else:
            card = played_card(action)
            assert card is not None  # neither a capture nor a reroll: a card
            after = _AfterMove(_table(tables, sig.card_child(card)), index)
            if isinstance(action, JokerPlay):
                value = after.whole_mean()
            elif isinstance(action, QueenPlay):
                value = after.queen(axis_of[(action.side, action.slot)])
            else:
                value = after.at(axis_of[(action.side, action.slot)], action.face - 1)
        results.append((action, float(value)))
    return results


class _AfterMove:
    """My values once my move is over, read from the opponent's table (axes: theirs, mine) around
    one position given in my axes (mine, theirs)."""

    def __init__(self, child: np.ndarray, index: tuple[int, ...]):
        self.child = child
        self.n = child.ndim // 2
        self.index = index

    def _child_axis(self, axis: int) -> int:
        return (axis + self.n) % (2 * self.n)

    def _where(self, index: Sequence) -> tuple:
        return tuple(index[self.n :]) + tuple(index[: self.n])

    def at(self, axis: int, face: int, index: Sequence[int] | None = None) -> float:
        where = list(index if index is not None else self.index)
        where[axis] = face
        return ROUND_POV.flip(float(self.child[self._where(where)]))

    def line(self, axis: int, index: Sequence[int] | None = None) -> np.ndarray:
        where: list = list(index if index is not None else self.index)
        where[axis] = slice(None)
        return ROUND_POV.flip(self.child[self._where(where)])

    def whole_mean(self) -> float:
        return ROUND_POV.flip(float(self.child.mean()))

    def queen(self, first: int) -> float:
        """Reroll ``first``; seeing it, pick the best die to reroll second; the mean of it all."""
        total = 0.0
        faces = self.child.shape[self._child_axis(first)]
        for face in range(faces):
            where = list(self.index)
            where[first] = face
            total += max(float(self.line(second, where).mean()) for second in range(2 * self.n))
        return total / faces


__all__ = [
    "Batch",
    "BatchStats",
    "BuildEstimate",
    "BuildStats",
    "Signature",
    "Tables",
    "all_signatures",
    "build_tables",
    "card_values",
    "constants",
    "estimate_build",
    "hands_up_to",
    "move_values",
    "plan_batches",
    "probe",
    "required_signatures",
    "signature_name",
    "run_plan",
    "solve_batch",
    "state_index",
    "wanted_signatures",
]
