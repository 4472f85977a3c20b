"""Leaf estimates made of exact values spoiled on purpose: how accurate must a leaf evaluation be?

:class:`ExactLeaves` is an :data:`~dicetree.solver.games.rolldown.evaluation.Estimate` (the chance that
the player whose decision comes next wins the round) read from the endgame tables, with an error
of a chosen size added, one of two kinds:

* **noise**: ``exact + sigma * z``, z a standard normal drawn from a hash of the position and a
  seed (BLAKE2b, not Python's salted ``hash``): a position gets the same value wherever the search
  meets it (transpositions agree), in every iteration and every run; clipped to [0, 1], the value
  bounds. ``sigma`` is in win probability (the mean absolute error before clipping is
  ``sigma * sqrt(2 / pi)``, about 0.8 sigma).
* **mix**: ``exact + lam * (model - exact)``: a fitted model's own error (by default the shipped
  one, :func:`dicetree.solver.games.rolldown.fitted.load_model`) scaled by ``lam``, which keeps the
  correlated structure of a real model's errors (``lam = 1`` is the model, up to rounding).

With ``sigma = 0`` and ``lam = 0`` the leaves are exact, and a search of any depth with them
chooses an exact best move (``tests/test_rolldown_exact_leaves.py``). The estimate counts the
leaves it answers and the sum of their absolute errors against the exact values
(:attr:`ExactLeaves.mean_abs_error`; :meth:`ExactLeaves.reset` between searches).

The tables hold the positions where the mover decides with nobody on a first turn; a leaf where
the mover chooses the Queen's second die (which no table holds) is valued exactly one decision
deeper, from the tables of the positions its moves lead to. A leaf on a first turn, or whose table
is not stored, is a :class:`~dicetree.solver.game.GameError`.

Usage (``benchmarks/rolldown_evaluation.py --evaluations oracle-noise:0.01,oracle-mix:0.25``)::

    >>> import tempfile
    >>> from dicetree.cache.store import TableStore
    >>> from dicetree.solver.games.rolldown import Rolldown
    >>> from dicetree.solver.games.rolldown.tablebase import Tablebase
    >>> from dicetree.solver.search import Searcher
    >>> base = Tablebase(TableStore(tempfile.mkdtemp()))
    >>> _ = base.build(max_dice=1)
    >>> leaves = ExactLeaves(base, noise=0.0)
    >>> game = Rolldown(estimate=leaves.estimate)
    >>> state = game.parse("d8:2/d6:5 a -/-")
    >>> round(Searcher(game).search(state, depth=1).value, 6), leaves.mean_abs_error
    (0.24, 0.0)
"""

from __future__ import annotations

import hashlib
import math

from dicetree.solver.game import CHANCE, TERMINAL, GameError
from dicetree.solver.games.rolldown.evaluation import Estimate
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.rules import RolldownRules
from dicetree.solver.games.rolldown.state import DECIDE, ROUND_POV, RolldownState
from dicetree.solver.games.rolldown.tablebase import Tablebase

MEMO_SIZE = 1 << 20
"""Exact values remembered (a search meets its leaves again in every iteration); cleared when full."""
TWO_TO_64 = float(1 << 64)


class ExactLeaves:
    """Exact leaf values from ``tablebase``, plus ``noise`` (sigma, in win probability; seeded by
    ``seed``) or a share ``mix`` of ``model``'s error (default: the shipped fitted model)."""

    def __init__(self, tablebase: Tablebase, *, noise: float = 0.0, seed: int = 1, mix: float = 0.0,
                 model: Estimate | None = None):
        if noise < 0:
            raise GameError(f"the noise's sigma must be at least 0, not {noise}")
        if noise and mix:
            raise GameError("choose noise or a model's error, not both")
        self.tablebase = tablebase
        self.rules = RolldownRules(ace=tablebase.ace)
        self.noise = noise
        self.seed = seed
        self.mix = mix
        self.model = (model or load_model().estimate) if mix else None
        self._exact: dict[tuple, float] = {}
        self.leaves = 0
        self.error_sum = 0.0

    def reset(self) -> None:
        """Start counting the leaves and their errors afresh (the exact values stay remembered)."""
        self.leaves = 0
        self.error_sum = 0.0

    @property
    def mean_abs_error(self) -> float:
        """Mean absolute error of the leaves answered since :meth:`reset`, against their exact values."""
        return self.error_sum / self.leaves if self.leaves else 0.0

    def exact(self, state: RolldownState, to_move: int) -> float:
        """The exact chance that ``to_move`` wins the round from ``state``, from the tables."""
        key = (state.dice, state.hands, state.discards, state.first_turn, state.phase, state.mover, to_move)
        found = self._exact.get(key)
        if found is None:
            if len(self._exact) >= MEMO_SIZE:
                self._exact.clear()
            found = self._exact[key] = self._solve(state, to_move)
        return found

    def _solve(self, state: RolldownState, player: int) -> float:
        """``player``'s exact chance from the tables, through the chance nodes and Queen decisions
        between ``state`` and the positions they hold."""
        rules = self.rules
        mover = rules.current_player(state)
        if mover == TERMINAL:
            return rules.returns(state)[player]
        if mover == CHANCE:
            return sum(p * self._solve(rules.apply(state, outcome), player)
                       for outcome, p in rules.chance_outcomes(state))
        if state.phase == DECIDE:
            value = self.tablebase.probe(state)
            if value is None:
                raise GameError(f"no table covers the leaf {state!r}: exact leaves need nobody on a first "
                                "turn and the tables of the position's closure")
            return ROUND_POV.view(value, seen_by=state.mover, player=player)
        best = max(self._solve(rules.apply(state, action), mover) for action in rules.legal_actions(state))
        return ROUND_POV.view(best, seen_by=mover, player=player)

    def normal(self, state: RolldownState, to_move: int) -> float:
        """A standard normal that depends only on the position, ``to_move`` and :attr:`seed` (Box-Muller
        on two 64-bit words of a BLAKE2b digest)."""
        key = (self.seed, state.dice, state.hands, state.discards, state.first_turn, state.phase, to_move)
        digest = hashlib.blake2b(repr(key).encode(), digest_size=16).digest()
        u = (int.from_bytes(digest[:8], "little") + 0.5) / TWO_TO_64
        v = int.from_bytes(digest[8:], "little") / TWO_TO_64
        return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * v)

    def estimate(self, state: RolldownState, to_move: int) -> float:
        """The leaf value: the exact chance that ``to_move`` wins, with the chosen error added."""
        exact = self.exact(state, to_move)
        if self.noise:
            value = min(1.0, max(0.0, exact + self.noise * self.normal(state, to_move)))
        elif self.model is not None:  # set where mix is
            value = exact + self.mix * (self.model(state, to_move) - exact)
        else:
            value = exact
        self.leaves += 1
        self.error_sum += abs(value - exact)
        return value


__all__ = ["ExactLeaves"]
