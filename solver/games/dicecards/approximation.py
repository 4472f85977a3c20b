"""Six cards from one: values of a whole hand pieced together from exact per-card solutions.

A hand of six cards has far too many states to solve (Solitaire alone has 4,096), but its cards
interact only through which roll goes where and the tickets they share: a weakly coupled
decision process. The approximation relaxes the coupling with a **price on rolls** (a Lagrangian
relaxation, as for weakly coupled MDPs): each card is solved alone and exactly over all rolls
(:mod:`dicetree.solver.games.dicecards.induction`), free to take or leave every roll, paying
``roll_price`` points for each roll it takes, with the tickets it gives itself. With
``U_c(m, t, r)`` card c's value in state m with t tickets and r rolls to go, a position is worth
about::

    V(marks, t, r) = min over the prices of
                     sum_c U_c(m_c, 0, r) + best split of t among the cards of U_c(m_c, t_c, r) - U_c(m_c, 0, r)
                     + roll_price * r

(tickets are worth what the cards make of them, kept they score 1 point for 2), and a record is
chosen by one step of lookahead: the one after which V is largest. ``roll_price`` 0
would let every card count on every roll; a good price makes each card count only on the rolls
worth more to it than to the others. The default, :data:`ROLL_PRICE`, is the price that scored
best in ``benchmarks/dicecards_approximation.py`` (``results/dicecards/``), which also measures the
gap to exact values on every hand small enough to solve whole.

The relaxation's values are **upper estimates** (at the start of 100 six-card deals they average
92.3 points while its policy scores 84.5): every card counts on the rolls it likes, and several
cards like the same roll. So the value a search uses, :meth:`Approximation.estimate`, is corrected
by **rollouts of the policy itself**: from the first position of a hand it is asked about, the
approximation plays :data:`ROLLOUTS` games with its one-step policy and measures, for every number
of rolls to go r, how much the relaxation's value of the positions met with r rolls to go
exceeds the score then made (:class:`Correction`). The estimate is the relaxation's value less
that excess: an estimate of the expected score **under the policy**, which is what ``best``
prints. All records of one roll leave the same rolls to go, so the correction never changes
which record is preferred; one card alone competes with nobody and is not corrected, nor is an
excess within its noise (:data:`SIGNIFICANT`).
``benchmarks/dicecards_approximation.py`` measures both values against exact ones and against
the scores of played games.

>>> from dicetree.solver.games.dicecards.game import DiceCards
>>> game = DiceCards()
>>> model = Approximation(game.library, game.rolls)
>>> state = game.parse("HOP=1,2,3 DBL=- t0 3/50 B4R4")
>>> [game.action_name(state, record) for record, _ in model.ranked(state)]
['DBL:4-4']
"""

from __future__ import annotations

import random
import zlib
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from functools import cache, lru_cache
from typing import NamedTuple, Protocol

import numpy as np

from dicetree.solver.games.dicecards.cards import Card
from dicetree.solver.games.dicecards.induction import hand_graph
from dicetree.solver.games.dicecards.library import CardLibrary
from dicetree.solver.games.dicecards.rules import after_record, final_score, records
from dicetree.solver.games.dicecards.state import FACES, OVER, RECORD, ROLL, DiceCardsState, Record

ROLL_PRICES = (0.0, 1.0)
"""The prices on rolls tried (points a card pays for each roll it takes in its own solution): a
position is valued at the price that values it least (see the module docstring)."""
ROLLOUTS = 48
"""Games the policy plays to measure what the relaxation overstates (its standard error at the
start of a six-card game is then about 1 point: results/dicecards/approximation.md)."""
SIGNIFICANT = 2.0
"""A measured excess smaller than this many standard errors is not subtracted: where the relaxation
is nearly exact (hands whose cards seldom want the same roll) the rollouts' noise would be larger
than what they correct."""
KEPT_CORRECTIONS = 256
"""Hands whose correction is remembered (a duel deals new hands every game)."""


class Played(NamedTuple):
    """One game of the approximation's policy: the relaxation's ``values`` before each roll (first to
    last), the final ``marks`` and unused ``tickets``, the tickets ``spent`` and the final ``score``."""

    values: tuple[float, ...]
    marks: tuple[Hashable, ...]
    tickets: int
    spent: int
    score: int


class Correction(NamedTuple):
    """What the relaxation overstates for one hand, measured by ``rollouts`` games of its policy from
    a position with ``len(excess) - 1`` rolls to go: ``excess[r]`` is the mean, over those games, of
    the relaxation's value with r rolls to go (before the roll) less the final score, and
    ``error[r]`` its standard error (``excess[0]`` is 0: the end is scored exactly)."""

    excess: tuple[float, ...]
    error: tuple[float, ...]
    rollouts: int

    @property
    def rolls_left(self) -> int:
        """The rolls to go of the position the games were played from."""
        return len(self.excess) - 1


class CardValues:
    """One card solved alone: ``values[p, r, i, t]`` at price ``prices[p]`` for its state
    ``states[i]`` with t tickets in hand (0 .. ``tickets`` plus what it gives) and r rolls to go,
    any roll left at will."""

    def __init__(self, values: np.ndarray, states: list[Hashable]) -> None:
        self.values = values
        self.states = states
        self.index = {state: i for i, state in enumerate(states)}
        self.top = values.shape[-1] - 1

    @classmethod
    def solve(cls, card: Card, rolls: int, prices: tuple[float, ...], tickets: int = 0) -> CardValues:
        graph = hand_graph((card,), (card.start(),), tickets, True)
        final = graph.final("score", 0)
        values = np.stack([graph.backward(rolls, final, price) for price in prices])
        return cls(values, [state[0] for state in graph.states])

    def rows(self, marks: Hashable, rolls_left: int, width: int) -> np.ndarray:
        """``[p, t]``: the values at every price with t = 0 .. ``width - 1`` tickets."""
        return self.values[:, rolls_left, self.index[marks]][:, np.minimum(np.arange(width), self.top)]


@lru_cache(maxsize=64)
def card_values(card: Card, rolls: int, prices: tuple[float, ...], tickets: int = 0) -> CardValues:
    """:class:`CardValues`, remembered (a card's solution serves every position it is in)."""
    return CardValues.solve(card, rolls, prices, tickets)


def share_tickets(extras: list[np.ndarray]) -> np.ndarray:
    """The most the cards make of tickets shared among them: ``extras[c][..., j]`` is what j tickets
    add to card c; the result's ``[..., k]`` the best split of k tickets (a small knapsack: every
    split (k - j, j) of each count k at once, then the best of each k).

    >>> share_tickets([np.array([0.0, 1.0, 1.5]), np.array([0.0, 0.8, 2.0])]).tolist()
    [0.0, 1.0, 2.0]
    """
    width = extras[0].shape[-1]
    given, kept = _splits(width)
    starts = np.flatnonzero(np.r_[True, given[1:] != given[:-1]])
    best = extras[0]
    for extra in extras[1:]:
        best = np.maximum.reduceat(best[..., given - kept] + extra[..., kept], starts, axis=-1)
    return best


@cache
def _splits(width: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (k, j) with 0 <= j <= k < width, ordered by k: the ways to split k tickets."""
    pairs = np.array([(k, j) for k in range(width) for j in range(k + 1)], np.int64)
    return pairs[:, 0], pairs[:, 1]


class CardSolutions(Protocol):
    """Where :class:`Approximation` takes card solutions from besides solving them (the game's stored ones)."""

    def card_values(self, card: Card, rolls: int, prices: tuple[float, ...]) -> CardValues: ...


class Approximation:
    """The pieced-together value of positions of a game (library, rolls) and its one-step policy.

    Each card is solved with the tickets it gives itself and no others: a card that gives none
    values a ticket at nothing, so the tickets in hand are worth what the ticket-giving cards (or
    the end, 1 point for 2) make of them, and spending one on another card must gain more than that.
    """

    def __init__(self, library: CardLibrary, rolls: int, prices: tuple[float, ...] = ROLL_PRICES) -> None:
        self.library = library
        self.rolls = rolls
        self.prices = tuple(float(p) for p in prices)
        self.solutions: CardSolutions | None = None
        self.rollouts = ROLLOUTS
        self.corrections: OrderedDict[tuple[str, ...], Correction] = OrderedDict()
        """Where card solutions come from besides solving them: an object whose
        ``card_values(card, rolls, prices)`` loads or solves and stores them (the game's stored exact
        values, :mod:`dicetree.solver.games.dicecards.tables`), or None."""

    def card(self, code: str) -> CardValues:
        """Card ``code``'s own solution."""
        card = self.library[code]
        if self.solutions is not None:
            return self.solutions.card_values(card, self.rolls, self.prices)
        return card_values(card, self.rolls, self.prices)

    def before_roll(self, state: DiceCardsState, rolls_left: int, marks=None, tickets=None) -> float:
        """The value with ``rolls_left`` rolls to go, before the roll, of ``state``'s cards (or ``marks``)."""
        marks = state.marks if marks is None else marks
        tickets = state.tickets if tickets is None else tickets
        return float(self.values(state.cards, [marks], [tickets], rolls_left)[0])

    def values(self, codes: tuple[str, ...], marks: list[tuple[Hashable, ...]], tickets: list[int],
               rolls_left: int) -> np.ndarray:
        """The values of K positions of the cards ``codes`` at once, ``marks[k]`` with ``tickets[k]`` and
        ``rolls_left`` rolls to go, before the roll (one gather per card, one knapsack for them all)."""
        tables = [self.card(code) for code in codes]
        at = [np.fromiter((table.index[m[c]] for m in marks), np.int64, len(marks)) for c, table in enumerate(tables)]
        priced = np.array(self.prices) * rolls_left
        width = max(tickets) + 1
        if width == 1:  # no ticket to share: each card's value without tickets, at the best price
            base = sum(table.values[:, rolls_left, where, 0] for table, where in zip(tables, at))  # [p, k]
            return (base + priced[:, None]).min(axis=0)
        rows = [table.values[:, rolls_left, where[:, None], np.minimum(np.arange(width), table.top)].transpose(1, 0, 2)
                for table, where in zip(tables, at)]  # [k, p, t]
        dual = self._combine(rows, priced)  # [k, p, t]
        return dual[np.arange(len(marks)), :, np.array(tickets)].min(axis=-1)

    @staticmethod
    def _combine(rows: list[np.ndarray], priced: np.ndarray) -> np.ndarray:
        """``[..., p, t]``: the dual value at every price for every ticket count."""
        base = sum(row[..., :1] for row in rows)
        return base + share_tickets([row - row[..., :1] for row in rows]) + priced[..., :, None]

    def ranked(self, state: DiceCardsState, may_pass: bool = False) -> list[tuple[Record, float]]:
        """Every legal record of a RECORD state with its approximate value, best first."""
        cards = [self.library[code] for code in state.cards]
        options = records(cards, state.marks, state.tickets, state.roll, may_pass)
        after = [after_record(cards, state.marks, state.tickets, record) for record in options]
        values = self.values(state.cards, [marks for marks, _ in after], [tickets for _, tickets in after],
                             self.rolls - state.rolls - 1)
        return sorted(zip(options, values.tolist()), key=lambda pair: -pair[1])

    def value(self, state: DiceCardsState, may_pass: bool = False) -> float:
        """The approximate value of any state (the final score once the game is over)."""
        if state.phase == OVER:
            return float(final_score([self.library[c] for c in state.cards], state.marks, state.tickets))
        if state.phase == RECORD:
            return self.ranked(state, may_pass)[0][1]
        return self.before_roll(state, self.rolls - state.rolls)

    def estimate(self, state: DiceCardsState, may_pass: bool = False) -> float:
        """The expected final score of ``state`` under the policy: :meth:`value` less the
        :class:`Correction` for the rolls to go after the record due (one card alone: :meth:`value`)."""
        value = self.value(state, may_pass)
        if state.phase == OVER or len(state.cards) < 2:
            return value
        left = self.rolls - state.rolls - (1 if state.phase == RECORD else 0)
        correction = self.correction(state, may_pass)
        excess = correction.excess[left]
        return value - excess if abs(excess) > SIGNIFICANT * correction.error[left] else value

    def correction(self, state: DiceCardsState, may_pass: bool = False) -> Correction:
        """The hand's :class:`Correction`: remembered where it covers ``state``'s rolls to go, else
        measured from ``state`` (the same position always plays the same dice)."""
        known = self.corrections.get(state.cards)
        if known is not None and known.rolls_left >= self.rolls - state.rolls:
            self.corrections.move_to_end(state.cards)
            return known
        start = state._replace(phase=ROLL, roll=())
        seed = zlib.crc32(repr((start, self.rolls)).encode())
        known = self.calibrate(start, self.rollouts, random.Random(seed), may_pass)
        self.corrections[state.cards] = known
        if len(self.corrections) > KEPT_CORRECTIONS:
            self.corrections.popitem(last=False)
        return known

    def calibrate(self, start: DiceCardsState, games: int, rng: random.Random, may_pass: bool = False) -> Correction:
        """Play ``games`` games of the one-step policy from ``start`` (a position before a roll) and
        measure the relaxation's excess over the scores made (:class:`Correction`)."""
        left = self.rolls - start.rolls
        excess = np.zeros((games, left + 1))
        for game in range(games):
            dice = [(rng.randint(1, FACES), rng.randint(1, FACES)) for _ in range(left)]
            played = self.play(start, dice, may_pass)
            excess[game, 1:] = np.array(played.values[::-1]) - played.score
        error = excess.std(axis=0, ddof=1) / np.sqrt(games) if games > 1 else np.zeros(left + 1)
        return Correction(tuple(excess.mean(axis=0).tolist()), tuple(error.tolist()), games)

    def play(self, start: DiceCardsState, dice: Sequence[tuple[int, int]], may_pass: bool = False) -> Played:
        """One game of the one-step policy from ``start`` (before a roll) on ``dice`` ((black, red) for
        each roll to go, in order)."""
        cards = [self.library[code] for code in start.cards]
        marks, tickets, spent = start.marks, start.tickets, 0
        values = [self.before_roll(start, self.rolls - start.rolls)]
        for done, roll in zip(range(start.rolls, self.rolls), dice):
            state = start._replace(marks=marks, tickets=tickets, rolls=done, phase=RECORD, roll=tuple(roll))
            record, value = self.ranked(state, may_pass)[0]
            marks, tickets = after_record(cards, marks, tickets, record)
            spent += record.cost
            values.append(value)
        return Played(tuple(values[:-1]), marks, tickets, spent, final_score(cards, marks, tickets))

    def preference(self, graph):
        """For :meth:`~dicetree.solver.games.dicecards.induction.HandGraph.follow`: ``preference(r)`` is every
        candidate's value when r rolls are to go (the record decided now leaves r - 1); the policy
        that follows it is this approximation's."""
        tables = [self.card(card.code) for card in graph.cards]
        where = [np.array([table.index[state[c]] for state in graph.states]) for c, table in enumerate(tables)]
        columns = [np.minimum(np.arange(graph.width), table.top) for table in tables]
        prices = np.array(self.prices)

        def liked(rolls_left: int) -> np.ndarray:
            rows = [table.values[:, rolls_left - 1][:, at][:, :, cols].transpose(1, 0, 2)
                    for table, at, cols in zip(tables, where, columns)]  # [state, price, tickets]
            dual = self._combine(rows, prices * (rolls_left - 1)).min(axis=1)
            return dual.reshape(-1)[graph.target]

        return liked
