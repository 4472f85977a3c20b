"""RolldownBeta's side of the value network's training (:mod:`dicetree.solver.value_iteration`): positions as
raw vectors (:mod:`~dicetree.solver.games.rolldown.network_kernel`), their exact values from the endgame
tables, and one decision of lookahead: :class:`LookaheadProblem` from positions of ``dice`` dice a side without
cards (below), :class:`CardLookaheadProblem` from any position with the mover's hand known, every card and first
turn by the rules (with :func:`card_table_values`, the card tables' values, and :func:`held_out`, the share of
positions a training keeps out for its checks).

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

from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, JOKER, QUEEN
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
from dicetree.solver.games.rolldown.rules import card_faces
from dicetree.solver.games.rolldown.state import RolldownState
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature
from dicetree.solver.value_iteration import ChoiceLookahead, Lookahead

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


# ----- cards and first turns ------------------------------------------------------------------------
#: The 27 cards of a deck as codes (two of each rank, one Joker): a sampled hand's card is one of them.
DECK_CARDS = np.array([card for card, copies in DECK_COPIES.items() for _ in range(copies)])
#: Fixed weights of the hash that holds out a share of positions (:func:`held_out`); any fixed values do.
_HOLD_OUT_WEIGHTS = np.random.default_rng(20261205).integers(1, 1 << 31, RAW_LENGTH)


def sample_card_rows(rng: np.random.Generator, dice: int, count: int, card_share: float = 2 / 3,
                     first_share: float = 0.0) -> np.ndarray:
    """:func:`sample_rows` with hands: each hand holds one card (one of a deck's 27, uniformly) with
    probability ``card_share``, none otherwise; a share ``first_share`` of the rows are first turns, half
    the round's first move (both players on their first turn), half the reply (only the mover)."""
    rows = sample_rows(rng, dice, count)
    for side in range(2):
        holds = np.flatnonzero(rng.random(count) < card_share)
        cards = DECK_CARDS[rng.integers(0, len(DECK_CARDS), len(holds))]
        rows[holds, RAW_HANDS + side * CARD_CODES + cards - 1] = 1
    first = np.flatnonzero(rng.random(count) < first_share)
    rows[first, RAW_FIRST] = 1
    rows[first[rng.random(len(first)) < 0.5], RAW_FIRST + 1] = 1
    return rows


def held_out(rows: np.ndarray, share: float) -> np.ndarray:
    """Whether each position belongs to the share kept out of training (a fixed hash of the raw vector, so
    the same position is held out in every run, whatever sample it comes from)."""
    return (rows.astype(np.int64) @ _HOLD_OUT_WEIGHTS) % 1000 < round(share * 1000)


def hand_of(counts: np.ndarray) -> tuple[int, ...]:
    """A hand (sorted card codes) from a raw vector's 14 counts."""
    return tuple(int(card) for card in np.repeat(np.arange(1, CARD_CODES + 1), counts.astype(np.int64)))


def row_position(row: np.ndarray) -> RolldownState:
    """The position of a raw vector whose hands are known, its side 0 the mover (player A): the inverse of
    :func:`~dicetree.solver.games.rolldown.network_kernel.raw_position` for a decision of player A."""
    dice = (tuple(int(f) for f in row[RAW_DICE : RAW_DICE + SLOTS]),
            tuple(int(f) for f in row[RAW_DICE + SLOTS : RAW_DICE + 2 * SLOTS]))
    hands = (hand_of(row[RAW_HANDS : RAW_HANDS + CARD_CODES]), hand_of(row[RAW_HANDS + CARD_CODES : RAW_HANDS + 2 * CARD_CODES]))
    return RolldownState(dice=dice, mover=0, hands=hands, first_turn=(bool(row[RAW_FIRST]), bool(row[RAW_FIRST + 1])))


def card_table_values(tablebase: Tablebase, rows: np.ndarray, max_dice: int = SLOTS) -> np.ndarray:
    """The exact value of each raw vector for its side 0, hands included, read from the tables; NaN where no
    table is stored, where a hand is hidden, on a first turn, or beyond ``max_dice`` dice a side."""
    out = np.full(len(rows), np.nan)
    if not len(rows):
        return out
    present = rows[:, RAW_DICE : RAW_DICE + 2 * SLOTS] > 0
    material = np.concatenate([present, rows[:, RAW_HANDS:]], axis=1).astype(np.int16)
    keys, inverse = np.unique(material, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    groups = np.split(order, np.cumsum(np.bincount(inverse, minlength=len(keys)))[:-1])
    hidden_or_first = 2 * SLOTS + RAW_UNKNOWN - RAW_HANDS  # the key's unknown counts and first-turn flags
    for key, chosen in zip(keys, groups):
        slots = np.flatnonzero(key[: 2 * SLOTS])
        mine = tuple(DIE_SIDES[s] for s in slots if s < SLOTS)
        if key[hidden_or_first:].any() or len(mine) > max_dice:
            continue
        theirs = tuple(DIE_SIDES[s - SLOTS] for s in slots if s >= SLOTS)
        hands = key[2 * SLOTS : 2 * SLOTS + 2 * CARD_CODES]
        table = tablebase.table(Signature(mine, theirs, hand_of(hands[:CARD_CODES]), hand_of(hands[CARD_CODES:])))
        if table is not None:
            out[chosen] = table[tuple(rows[chosen, RAW_DICE + s].astype(np.int64) - 1 for s in slots)]
    return out


class MoveList:
    """The moves of one decision of lookahead being gathered: each move's position (or choice) and constant,
    then its chance outcomes (the child the opponent decides in, with its probability). :meth:`lookahead`
    values each child by ``exact`` where it knows it (folded into the move's constant), else leaves it to the
    network."""

    def __init__(self) -> None:
        self.parents: list[np.ndarray] = []
        self.constants: list[np.ndarray] = []
        self.count = 0
        self.child_moves: list[np.ndarray] = []
        self.weights: list[np.ndarray] = []
        self.children: list[np.ndarray] = []

    def add(self, parents: np.ndarray, constant: np.ndarray | None = None) -> np.ndarray:
        """New moves of ``parents`` (worth ``constant``, default 0, plus their outcomes): their indices."""
        self.parents.append(parents)
        self.constants.append(np.zeros(len(parents)) if constant is None else constant)
        self.count += len(parents)
        return np.arange(self.count - len(parents), self.count)

    def outcomes(self, moves: np.ndarray, weights: np.ndarray, children: np.ndarray) -> None:
        """Chance outcomes of ``moves``: ``children`` (raw vectors seen by the opponent) with ``weights``."""
        self.child_moves.append(moves)
        self.weights.append(weights)
        self.children.append(children)

    def lookahead(self, exact: Values) -> Lookahead:
        parent = np.concatenate(self.parents) if self.parents else np.empty(0, dtype=np.int64)
        constant = np.concatenate(self.constants) if self.constants else np.empty(0)
        children = np.concatenate(self.children) if self.children else np.empty((0, RAW_LENGTH), dtype=np.int8)
        move = np.concatenate(self.child_moves) if self.child_moves else np.empty(0, dtype=np.int64)
        weight = np.concatenate(self.weights) if self.weights else np.empty(0)
        known = exact(children) if len(children) else np.empty(0)
        kept = ~np.isnan(known)
        constant = constant + np.bincount(move[kept], weights=weight[kept] * (1.0 - known[kept]), minlength=len(parent))
        left = ~kept
        return Lookahead(parent=parent, constant=constant, move=move[left], scale=-weight[left], offset=weight[left],
                         children=children[left])


def _ended_turn(rows: np.ndarray) -> np.ndarray:
    """Copies of ``rows`` with the mover's first turn over (what every decision does)."""
    out = rows.copy()
    out[:, RAW_FIRST] = 0
    return out


def _every_face(rows: np.ndarray, sides: int) -> np.ndarray:
    """Each of ``rows`` repeated ``sides`` times: the rows of one die's outcomes 1..sides."""
    return np.repeat(rows, sides, axis=0)


class CardLookaheadProblem:
    """The :class:`~dicetree.solver.value_iteration.ValueProblem` of any position where the mover decides and
    holds known cards (the opponent's hand known or not), first turns included: one decision of lookahead
    by the rules (:mod:`~dicetree.solver.games.rolldown.rules`), each child valued by ``exact`` where it is
    known (NaN elsewhere: the tables, or nothing) and by the network elsewhere.

    * a **capture** (not on the mover's first turn): the last pair wins (1); otherwise the opponent decides;
    * a **reroll** of any die in play (either side's): the mean over its faces;
    * a **set-face card** (2..10, Jack, King, Ace as the ``ace`` variant gives it: :func:`card_faces`) on any
      die it may go on; the card leaves the hand;
    * the **Queen** on any first die: the mean over its faces of the best second die (any die in play, the
      first again too) of the mean over that die's faces;
    * the **Joker**: every die in play rerolled: the mean over every outcome when there are at most
      ``joker_limit`` (the game's own limit for exact chance, 4,096), else over that many drawn with ``rng``
      (as a search samples a chance node too large to list).

    Every decision ends the mover's first turn (its flag cleared in the child). The opponent's hand, when
    hidden (unknown cards), stays hidden in the children.

    >>> from dicetree.solver.games.rolldown.cards import KING
    >>> row = np.zeros((1, RAW_LENGTH), dtype=np.int8)
    >>> row[0, [4, SLOTS + 3, RAW_HANDS + KING - 1]] = 2, 9, 1  # my d12 on 2, their d10 on 9, a King in my hand
    >>> look = CardLookaheadProblem(exact=lambda raw: np.full(len(raw), np.nan)).lookahead(row)
    >>> len(look.children)  # the rerolls' 12 + 10 outcomes, the King on either die
    24
    >>> their_view = np.where(look.children[:, SLOTS + 4] == 12, 0.1, 0.5)  # worse for them with my d12 on 12
    >>> look.targets(their_view, 1).round(6).tolist()  # the King on my d12
    [0.9]
    """

    def __init__(self, exact: Values, ace: str = "online", joker_limit: int = 4096,
                 rng: np.random.Generator | None = None):
        self.exact = exact
        self.ace = ace
        self.joker_limit = joker_limit
        self.rng = rng or np.random.default_rng(0)

    def encode(self, rows: np.ndarray) -> np.ndarray:
        return encode_rows(rows, np.uint8)

    def lookahead(self, rows: np.ndarray) -> ChoiceLookahead:
        if np.any(rows[:, RAW_UNKNOWN] != 0):
            raise ValueError("the mover's hand must be known: average over its hidden cards first")
        direct, inner = MoveList(), MoveList()
        faces = rows[:, RAW_DICE : RAW_DICE + 2 * SLOTS].astype(np.int64)
        self._captures(rows, faces, direct)
        self._rerolls(rows, faces, direct)
        for card in range(1, CARD_CODES + 1):
            holders = np.flatnonzero(rows[:, RAW_HANDS + card - 1] > 0)
            if not len(holders):
                continue
            played = _ended_turn(rows[holders])
            played[:, RAW_HANDS + card - 1] -= 1
            if card == JOKER:
                self._joker(holders, played, direct)
            elif card != QUEEN:
                self._set_faces(card, holders, played, direct)
        queen = self._queens(rows, inner)
        return ChoiceLookahead(direct.lookahead(self.exact), inner.lookahead(self.exact), *queen)

    @staticmethod
    def _captures(rows: np.ndarray, faces: np.ndarray, moves: MoveList) -> None:
        may = rows[:, RAW_FIRST] == 0
        last_pair = (faces[:, :SLOTS] > 0).sum(axis=1) == 1
        for i in range(SLOTS):
            for j in range(SLOTS):
                mine, theirs = faces[:, i], faces[:, SLOTS + j]
                chosen = np.flatnonzero(may & (mine > 0) & (theirs > 0) & (mine >= theirs))
                won = chosen[last_pair[chosen]]
                moves.add(won, np.ones(len(won)))
                going_on = chosen[~last_pair[chosen]]
                child = _ended_turn(rows[going_on])
                child[:, RAW_DICE + i] = 0
                child[:, RAW_DICE + SLOTS + j] = 0
                moves.outcomes(moves.add(going_on), np.ones(len(going_on)), child[:, SWAP])

    @staticmethod
    def _rerolls(rows: np.ndarray, faces: np.ndarray, moves: MoveList) -> None:
        for slot in range(2 * SLOTS):
            chosen = np.flatnonzero(faces[:, slot] > 0)
            sides = DIE_SIDES[slot % SLOTS]
            block = _every_face(_ended_turn(rows[chosen]), sides)
            block[:, RAW_DICE + slot] = np.tile(np.arange(1, sides + 1), len(chosen))
            moves.outcomes(np.repeat(moves.add(chosen), sides), np.full(len(block), 1.0 / sides), block[:, SWAP])

    def _set_faces(self, card: int, holders: np.ndarray, played: np.ndarray, moves: MoveList) -> None:
        for slot in range(2 * SLOTS):
            on = np.flatnonzero(played[:, RAW_DICE + slot] > 0)
            for face in card_faces(card, DIE_SIDES[slot % SLOTS], own=slot < SLOTS, ace=self.ace):
                child = played[on].copy()
                child[:, RAW_DICE + slot] = face
                moves.outcomes(moves.add(holders[on]), np.ones(len(on)), child[:, SWAP])

    def _joker(self, holders: np.ndarray, played: np.ndarray, moves: MoveList) -> None:
        present = played[:, RAW_DICE : RAW_DICE + 2 * SLOTS] > 0
        patterns, inverse = np.unique(present, axis=0, return_inverse=True)
        for k, pattern in enumerate(patterns):
            chosen = np.flatnonzero(inverse.reshape(-1) == k)
            slots = np.flatnonzero(pattern)
            sides = [DIE_SIDES[s % SLOTS] for s in slots]
            count = int(np.prod(sides))
            if count <= self.joker_limit:
                outcomes = np.indices(sides).reshape(len(sides), -1).T + 1
            else:
                count = self.joker_limit
                outcomes = 1 + np.floor(self.rng.random((count, len(sides))) * np.array(sides)).astype(np.int64)
            block = np.repeat(played[chosen], count, axis=0)
            block[:, RAW_DICE + slots] = np.tile(outcomes, (len(chosen), 1))
            moves.outcomes(np.repeat(moves.add(holders[chosen]), count), np.full(len(block), 1.0 / count),
                           block[:, SWAP])

    @staticmethod
    def _queens(rows: np.ndarray, choices: MoveList) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The Queen's moves (a first die each) as choices among second dice; returns the moves' positions,
        each choice's move and probability (the rest of :class:`ChoiceLookahead`)."""
        holders = np.flatnonzero(rows[:, RAW_HANDS + QUEEN - 1] > 0)
        played = _ended_turn(rows[holders])
        played[:, RAW_HANDS + QUEEN - 1] -= 1
        parents, choice_moves, choice_weights = [], [], []
        moves = choices_made = 0
        for first in range(2 * SLOTS):
            on = np.flatnonzero(played[:, RAW_DICE + first] > 0)
            if not len(on):
                continue
            first_sides = DIE_SIDES[first % SLOTS]
            parents.append(holders[on])
            rolled = _every_face(played[on], first_sides)  # one choice per (move, first face)
            rolled[:, RAW_DICE + first] = np.tile(np.arange(1, first_sides + 1), len(on))
            choice_moves.append(moves + np.repeat(np.arange(len(on)), first_sides))
            choice_weights.append(np.full(len(rolled), 1.0 / first_sides))
            moves += len(on)
            choice_ids = choices_made + np.arange(len(rolled))
            choices_made += len(rolled)
            for second in range(2 * SLOTS):
                has = np.flatnonzero(rolled[:, RAW_DICE + second] > 0)
                sides = DIE_SIDES[second % SLOTS]
                block = _every_face(rolled[has], sides)
                block[:, RAW_DICE + second] = np.tile(np.arange(1, sides + 1), len(has))
                choices.outcomes(np.repeat(choices.add(choice_ids[has]), sides), np.full(len(block), 1.0 / sides),
                                 block[:, SWAP])
        if not parents:
            none = np.empty(0, dtype=np.int64)
            return none, none, np.empty(0)
        return np.concatenate(parents), np.concatenate(choice_moves), np.concatenate(choice_weights)


__all__ = [
    "DECK_CARDS", "SWAP", "CardLookaheadProblem", "LookaheadProblem", "MoveList", "Values", "card_table_values",
    "hand_of", "held_out", "rows_sides", "sample_card_rows", "sample_rows", "table_values",
]
