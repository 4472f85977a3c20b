"""Exact values of a hand of Dice Cards by backward induction over the rolls.

One player's game is a Markov decision process: before each roll the position is the hand's
marks, the unused tickets and the rolls to go; a roll is one of 36 outcomes; the record is a
choice. Nothing else matters (the order of past rolls does not), so the value with ``r`` rolls to
go is, for every (marks, tickets) at once::

    V_0(m, t) = final score (objective score) or [final score >= target] (objective rank)
    V_r(m, t) = mean over the 36 rolls o of  max over the records of o at (m, t) of V_{r-1}(m', t')

where a record on a slot whose need costs c tickets for the roll leads to the slot's marks m' and
t' = t - c + (tickets the card gives), and the lost roll (when the rules allow it) to (m, t).

:func:`solve_hand` enumerates every marks state the hand can reach from the position (the product
of its cards' states), every slot of each and what it costs for each roll, once, as flat arrays;
each roll is then one gather and one grouped maximum (numpy), so a card of 40,000 states is solved
for 50 rolls in about a second. Ticket counts run from 0 to the most the position can ever hold.

Hand-checked: a card of one box taking a Black 6, worth 1 point, over ``n`` rolls is worth
``1 - (5/6)**n`` (the box is filled the first time a Black 6 comes)::

    >>> from dicetree.solver.games.dicecards.library import CellsCard
    >>> one = CellsCard("One", "ONE", ["B6"], points=[1])
    >>> solution = solve_hand((one,), (0,), 0, 2)
    >>> round(solution.value((0,), 0, 2), 6), round(1 - (5 / 6) ** 2, 6)
    (0.305556, 0.305556)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards.cards import IMPOSSIBLE, Card, Need, price
from dicetree.solver.games.dicecards.rules import after_record, records
from dicetree.solver.games.dicecards.state import FACES, TICKETS_PER_POINT, Record

MAX_STATES = 2_000_000
"""solve_hand refuses hands with more (marks, tickets) states than this."""
ROLLS = tuple((black, red) for black in range(1, FACES + 1) for red in range(1, FACES + 1))
"""The 36 rolls, in the order of the game's chance outcomes."""


@dataclass(frozen=True)
class HandGraph:
    """The (marks, tickets) states a hand can reach and every record each roll allows, as flat arrays.

    States are ``states[i]`` with ``t`` = 0 .. ``width - 1`` unused tickets, numbered ``i * width + t``.
    A *group* is (state, roll, tickets): ``i``, roll ``o`` of ``rolls`` (probability ``weights[o]``), ``t``,
    numbered ``(i * len(rolls) + o) * width + t``. Its candidates (records, and the lost roll where the
    rules allow it) are ``target[starts[g]:starts[g + 1]]``, the successors' numbers; ``recorded`` marks
    the records. Ticket counts above the most the position can hold are cut to it (such states are
    never reached).
    """

    cards: tuple[Card, ...]
    states: list[tuple[Hashable, ...]]
    index: dict[tuple[Hashable, ...], int]
    width: int
    rolls: list[tuple[int, int]]
    weights: np.ndarray
    target: np.ndarray
    starts: np.ndarray
    group: np.ndarray
    recorded: np.ndarray
    points: np.ndarray
    may_pass: bool

    def final(self, objective: str, target: int) -> np.ndarray:
        """The value of every (state, tickets) when no roll is left."""
        final = self.points[:, None] + np.arange(self.width)[None, :] // TICKETS_PER_POINT
        return final if objective == "score" else (final >= target).astype(float)

    def backward(self, rolls: int, final: np.ndarray, record_cost: float = 0.0) -> np.ndarray:
        """``values[r]`` for r = 0 .. ``rolls`` rolls to go, the best record taken every roll;
        ``record_cost`` is subtracted for every record (a price on rolls: see the approximation)."""
        values = np.empty((rolls + 1, *final.shape))
        values[0] = final
        penalty = record_cost * self.recorded if record_cost else None
        for r in range(1, rolls + 1):
            candidates = values[r - 1].reshape(-1)[self.target]
            if penalty is not None:
                candidates = candidates - penalty
            values[r] = self._expect(np.maximum.reduceat(candidates, self.starts))
        return values

    def follow(self, rolls: int, final: np.ndarray, preference) -> np.ndarray:
        """The exact values of a policy: with r rolls to go it takes in each group the candidate with the
        largest ``preference(r)[candidate]`` (the first of equals). ``values[r]`` as in :meth:`backward`."""
        values = np.empty((rolls + 1, *final.shape))
        values[0] = final
        for r in range(1, rolls + 1):
            liked = preference(r)
            best = np.maximum.reduceat(liked, self.starts)
            hits = np.flatnonzero(liked >= best[self.group] - 1e-9)
            first = hits[np.r_[True, self.group[hits[1:]] != self.group[hits[:-1]]]]
            values[r] = self._expect(values[r - 1].reshape(-1)[self.target[first]])
        return values

    def _expect(self, per_group: np.ndarray) -> np.ndarray:
        return np.einsum("iot,o->it", per_group.reshape(len(self.states), len(self.rolls), self.width), self.weights)


@dataclass
class HandSolution:
    """Exact values of a hand: ``values[r][i, t]`` is the value of marks state ``graph.states[i]``
    with ``t`` unused tickets and ``r`` rolls to go, before the roll (``r`` = 0 .. ``rolls``)."""

    graph: HandGraph
    values: np.ndarray
    objective: str
    target: int
    elapsed: float

    @property
    def rolls(self) -> int:
        return self.values.shape[0] - 1

    @property
    def max_tickets(self) -> int:
        return self.graph.width - 1

    def value(self, marks: tuple[Hashable, ...], tickets: int, rolls_left: int) -> float:
        """The exact value with ``rolls_left`` rolls to go, before the next roll."""
        if marks not in self.graph.index:
            raise GameError("the position's marks are not among the solved hand's states")
        if not 0 <= rolls_left <= self.rolls or tickets > self.max_tickets:
            raise GameError(f"the solution covers 0..{self.rolls} rolls to go and up to {self.max_tickets} tickets")
        return float(self.values[rolls_left, self.graph.index[marks], tickets])

    def record_values(self, marks: tuple[Hashable, ...], tickets: int, roll: tuple[int, ...],
                      rolls_left: int) -> list[tuple[Record, float]]:
        """Every legal record of ``roll`` with its exact value (``rolls_left`` counts this roll), best first."""
        cards = self.graph.cards
        found = []
        for record in records(cards, marks, tickets, roll, self.graph.may_pass):
            after, left = after_record(cards, marks, tickets, record)
            found.append((record, self.value(after, min(left, self.max_tickets), rolls_left - 1)))
        return sorted(found, key=lambda pair: -pair[1])


@dataclass(frozen=True)
class CardGraph:
    """One card's states reachable from ``start`` (``states[i]``) and its slots as arrays: slot j
    leads from state ``src[j]`` to ``dst[j]``, needs ``needs[j]`` and gives ``gains[j]`` tickets."""

    states: list[Hashable]
    src: np.ndarray
    dst: np.ndarray
    needs: list[Need]
    gains: np.ndarray
    points: np.ndarray


@lru_cache(maxsize=64)
def card_graph(card: Card, start: Hashable) -> CardGraph:
    """:class:`CardGraph` of ``card`` from ``start``, remembered (every hand with the card uses it)."""
    seen = {start: 0}
    states = [start]
    src, dst, needs, gains = [], [], [], []
    for i, state in enumerate(states):  # grows while it is read: breadth first
        given = card.tickets(state)
        for slot in card.open_slots(state):
            j = seen.get(slot.after)
            if j is None:
                j = seen[slot.after] = len(states)
                states.append(slot.after)
            src.append(i)
            dst.append(j)
            needs.append(slot.need)
            gains.append(card.tickets(slot.after) - given)
    points = np.array([card.score(state) for state in states], float)
    return CardGraph(states, np.array(src, np.int64), np.array(dst, np.int64), needs, np.array(gains, np.int64),
                     points)


def hand_states(cards: Sequence[Card], marks: tuple[Hashable, ...], limit: int) -> list[tuple[Hashable, ...]]:
    """Every marks state of the hand reachable from ``marks`` (each card on its own: their product,
    the first card's state varying slowest)."""
    graphs = [card_graph(card, start) for card, start in zip(cards, marks)]
    if np.prod([float(len(g.states)) for g in graphs]) > limit:
        raise GameError(f"the hand has more than {limit:,} states: too many to solve exactly")
    return [tuple(combo) for combo in itertools.product(*(g.states for g in graphs))]


@lru_cache(maxsize=16)
def hand_graph(cards: tuple[Card, ...], marks: tuple[Hashable, ...], tickets: int, may_pass: bool = False,
               max_states: int = MAX_STATES) -> HandGraph:
    """The graph of ``cards`` from ``marks`` with ``tickets`` unused (remembered: a graph serves every
    number of rolls and every objective)."""
    states = hand_states(cards, marks, max_states)
    graphs = [card_graph(card, start) for card, start in zip(cards, marks)]
    index = {state: i for i, state in enumerate(states)}
    top = tickets + sum(card.max_tickets() - card.tickets(m) for card, m in zip(cards, marks))
    width = top + 1
    if len(states) * width > max_states:
        raise GameError(f"the hand has {len(states) * width:,} states with tickets: more than {max_states:,}")

    # Every slot of every hand state: a card's slot, in every combination of the other cards' states.
    sizes = [len(g.states) for g in graphs]
    strides = [int(np.prod(sizes[c + 1:])) for c in range(len(sizes))]
    needs: dict[Need, int] = {}
    src_parts, dst_parts, need_parts, gain_parts = [], [], [], []
    for c, graph in enumerate(graphs):
        others = np.zeros(1, np.int64)  # the hand states' numbers with card c's part left out
        for d, size in enumerate(sizes):
            if d != c:
                others = np.add.outer(others, np.arange(size) * strides[d]).reshape(-1)
        ids = np.array([needs.setdefault(need, len(needs)) for need in graph.needs], np.int64)
        src_parts.append(np.add.outer(others, graph.src * strides[c]).reshape(-1))
        dst_parts.append(np.add.outer(others, graph.dst * strides[c]).reshape(-1))
        need_parts.append(np.tile(ids, len(others)))
        gain_parts.append(np.tile(graph.gains, len(others)))
    src_a, dst_a = np.concatenate(src_parts), np.concatenate(dst_parts)
    need_a, gain_a = np.concatenate(need_parts), np.concatenate(gain_parts)
    rolls, weights = _rolls(needs)
    outcomes = len(rolls)
    cost_table = np.array([[min(price(need, b, r), IMPOSSIBLE) for b, r in rolls] for need in needs],
                          np.int64).reshape(len(needs), outcomes)
    cost = cost_table[need_a]

    # Candidates: group (state, roll, tickets) -> successor (state', tickets'), flattened.
    n = len(states)
    groups, targets, recorded = [], [], []
    for t in range(width):
        slot, roll = np.nonzero(cost <= t)
        left = np.minimum(t - cost[slot, roll] + gain_a[slot], top)
        groups.append((src_a[slot] * outcomes + roll) * width + t)
        targets.append(dst_a[slot] * width + left)
        recorded.append(np.ones(len(slot), bool))
    free = np.zeros((n, outcomes), bool)
    slot, roll = np.nonzero(cost == 0)
    free[src_a[slot], roll] = True
    lose_state, lose_roll = np.nonzero(np.ones_like(free) if may_pass else ~free)
    for t in range(width):  # the lost roll keeps the state and the tickets
        groups.append((lose_state * outcomes + lose_roll) * width + t)
        targets.append(lose_state * width + t)
        recorded.append(np.zeros(len(lose_state), bool))
    group = np.concatenate(groups)
    order = np.argsort(group, kind="stable")
    group = group[order]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    if len(starts) != n * outcomes * width:
        raise GameError("internal: a (state, roll, tickets) has no record and no lost roll")
    points = np.zeros(1)
    for graph in graphs:
        points = np.add.outer(points, graph.points).reshape(-1)
    return HandGraph(cards, states, index, width, rolls, weights, np.concatenate(targets)[order], starts,
                     group, np.concatenate(recorded)[order], points, may_pass)


def solve_hand(cards: Sequence[Card], marks: tuple[Hashable, ...], tickets: int, rolls: int, *,
               objective: str = "score", target: int = 90, may_pass: bool = False,
               max_states: int = MAX_STATES) -> HandSolution:
    """Exact values of ``cards`` (marked ``marks``, with ``tickets`` unused) for 0 .. ``rolls`` rolls to go."""
    started = time.perf_counter()
    graph = hand_graph(tuple(cards), tuple(marks), tickets, may_pass, max_states)
    values = graph.backward(rolls, graph.final(objective, target))
    return HandSolution(graph, values, objective, target, time.perf_counter() - started)


def _rolls(needs: dict[Need, int]) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The rolls to tell apart and their probabilities: all 36, or, where no need asks for a colour,
    the 21 unordered ones (a Black 2 and Red 5 is then the same roll as a Black 5 and Red 2)."""
    if any(need.kind in "BR" for need in needs):
        return list(ROLLS), np.full(len(ROLLS), 1 / len(ROLLS))
    unordered = [(b, r) for b, r in ROLLS if b <= r]
    return unordered, np.array([(1 if b == r else 2) / len(ROLLS) for b, r in unordered])

