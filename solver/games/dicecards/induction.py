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

    >>> from solver.games.dicecards.library import CellsCard
    >>> one = CellsCard("One", "ONE", ["B6"], points=[1])
    >>> solution = solve_hand((one,), (0,), 0, 2)
    >>> round(solution.value((0,), 0, 2), 6), round(1 - (5 / 6) ** 2, 6)
    (0.305556, 0.305556)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.game import GameError
from solver.games.dicecards.cards import IMPOSSIBLE, Card, Need, price
from solver.games.dicecards.rules import after_record, records
from solver.games.dicecards.state import FACES, TICKETS_PER_POINT, Record

MAX_STATES = 2_000_000
"""solve_hand refuses hands with more (marks, tickets) states than this."""
ROLLS = tuple((black, red) for black in range(1, FACES + 1) for red in range(1, FACES + 1))
"""The 36 rolls, in the order of the game's chance outcomes."""


@dataclass
class HandSolution:
    """Exact values of a hand: ``values[r][i, t]`` is the value of marks state ``states[i]`` with
    ``t`` unused tickets and ``r`` rolls to go, before the roll (``r`` = 0 .. ``rolls``)."""

    cards: tuple[Card, ...]
    states: list[tuple[Hashable, ...]]
    values: np.ndarray
    objective: str
    target: int
    may_pass: bool
    elapsed: float
    index: dict[tuple[Hashable, ...], int] = field(repr=False, default_factory=dict)

    @property
    def rolls(self) -> int:
        return self.values.shape[0] - 1

    @property
    def max_tickets(self) -> int:
        return self.values.shape[2] - 1

    def value(self, marks: tuple[Hashable, ...], tickets: int, rolls_left: int) -> float:
        """The exact value with ``rolls_left`` rolls to go, before the next roll."""
        if marks not in self.index:
            raise GameError("the position's marks are not among the solved hand's states")
        if not 0 <= rolls_left <= self.rolls or tickets > self.max_tickets:
            raise GameError(f"the solution covers 0..{self.rolls} rolls to go and up to {self.max_tickets} tickets")
        return float(self.values[rolls_left, self.index[marks], tickets])

    def record_values(self, marks: tuple[Hashable, ...], tickets: int, roll: tuple[int, int],
                      rolls_left: int) -> list[tuple[Record, float]]:
        """Every legal record of ``roll`` with its exact value (``rolls_left`` counts this roll), best first."""
        found = []
        for record in records(self.cards, marks, tickets, roll, self.may_pass):
            after, left = after_record(self.cards, marks, tickets, record)
            found.append((record, self.value(after, min(left, self.max_tickets), rolls_left - 1)))
        return sorted(found, key=lambda pair: -pair[1])


def hand_states(cards: Sequence[Card], marks: tuple[Hashable, ...], limit: int) -> list[tuple[Hashable, ...]]:
    """Every marks state of the hand reachable from ``marks`` (each card on its own: their product)."""
    per_card = []
    total = 1
    for card, start in zip(cards, marks):
        seen = {start}
        frontier = [start]
        while frontier:
            state = frontier.pop()
            for slot in card.open_slots(state):
                if slot.after not in seen:
                    seen.add(slot.after)
                    frontier.append(slot.after)
        per_card.append(sorted(seen, key=repr))
        total *= len(seen)
        if total > limit:
            raise GameError(f"the hand has more than {limit:,} states: too many to solve exactly")
    return [tuple(combo) for combo in itertools.product(*per_card)]


def solve_hand(cards: Sequence[Card], marks: tuple[Hashable, ...], tickets: int, rolls: int, *,
               objective: str = "score", target: int = 90, may_pass: bool = False,
               max_states: int = MAX_STATES) -> HandSolution:
    """Exact values of ``cards`` (marked ``marks``, with ``tickets`` unused) for 0 .. ``rolls`` rolls to go."""
    started = time.perf_counter()
    cards = tuple(cards)
    states = hand_states(cards, marks, max_states)
    index = {state: i for i, state in enumerate(states)}
    top = tickets + sum(card.max_tickets() - card.tickets(m) for card, m in zip(cards, marks))
    width = top + 1
    if len(states) * width > max_states:
        raise GameError(f"the hand has {len(states) * width:,} states with tickets: more than {max_states:,}")

    # Every slot of every state: where it leads, what it needs, the tickets it gives.
    needs: dict[Need, int] = {}
    src, dst, need_ids, gains = [], [], [], []
    for i, state in enumerate(states):
        for c, card in enumerate(cards):
            given = card.tickets(state[c])
            for slot in card.open_slots(state[c]):
                src.append(i)
                dst.append(index[state[:c] + (slot.after,) + state[c + 1:]])
                need_ids.append(needs.setdefault(slot.need, len(needs)))
                gains.append(card.tickets(slot.after) - given)
    src_a, dst_a, gain_a = np.array(src, np.int64), np.array(dst, np.int64), np.array(gains, np.int64)
    rolls_used, weights = _rolls(needs)
    outcomes = len(rolls_used)
    cost_table = np.array([[min(price(need, b, r), IMPOSSIBLE) for b, r in rolls_used] for need in needs],
                          np.int64).reshape(len(needs), outcomes)
    cost = cost_table[np.array(need_ids, np.int64)] if need_ids else np.zeros((0, outcomes), np.int64)

    # Candidates: group (state, roll, tickets) -> successor (state', tickets'), flattened.
    n = len(states)
    groups, targets = [], []
    for t in range(width):
        slot, roll = np.nonzero(cost <= t)
        left = np.minimum(t - cost[slot, roll] + gain_a[slot], top)
        groups.append((src_a[slot] * outcomes + roll) * width + t)
        targets.append(dst_a[slot] * width + left)
    free = np.zeros((n, outcomes), bool)
    slot, roll = np.nonzero(cost == 0)
    free[src_a[slot], roll] = True
    lose_state, lose_roll = np.nonzero(np.ones_like(free) if may_pass else ~free)
    for t in range(width):  # the lost roll keeps the state and the tickets
        groups.append((lose_state * outcomes + lose_roll) * width + t)
        targets.append(lose_state * width + t)
    group = np.concatenate(groups)
    target_index = np.concatenate(targets)
    order = np.argsort(group, kind="stable")
    group, target_index = group[order], target_index[order]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    if len(starts) != n * outcomes * width:
        raise GameError("internal: a (state, roll, tickets) has no record and no lost roll")

    values = np.empty((rolls + 1, n, width))
    points = np.array([sum(card.score(m) for card, m in zip(cards, state)) for state in states], float)
    final = points[:, None] + np.arange(width)[None, :] // TICKETS_PER_POINT
    values[0] = final if objective == "score" else (final >= target).astype(float)
    for r in range(1, rolls + 1):
        best = np.maximum.reduceat(values[r - 1].reshape(-1)[target_index], starts)
        values[r] = np.einsum("iot,o->it", best.reshape(n, outcomes, width), weights)
    return HandSolution(cards, states, values, objective, target, may_pass, time.perf_counter() - started, index)


def _rolls(needs: dict[Need, int]) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The rolls to tell apart and their probabilities: all 36, or, where no need asks for a colour,
    the 21 unordered ones (a Black 2 and Red 5 is then the same roll as a Black 5 and Red 2)."""
    if any(need.kind in "BR" for need in needs):
        return list(ROLLS), np.full(len(ROLLS), 1 / len(ROLLS))
    unordered = [(b, r) for b, r in ROLLS if b <= r]
    return unordered, np.array([(1 if b == r else 2) / len(ROLLS) for b, r in unordered])

