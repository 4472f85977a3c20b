"""Fitted value iteration: a value network learned one size at a time from the size below, anchored on
exact values where they exist.

A game supplies a :class:`ValueProblem`: its positions as rows of small integers, their network input
(:meth:`ValueProblem.encode`), and one decision of lookahead from a batch of positions
(:meth:`ValueProblem.lookahead`): every move's value as a constant (what is exact: a finished game, a
smaller position read from tables) plus a weighted sum of the network's values of positions of the size
being learned (chance outcomes averaged, a point of view turned by a weight of -1 and a constant of 1).
A position's *target* is its best move's value. :func:`value_iteration` fits the network to the targets,
values the children again with the fitted network, recomputes the targets and repeats until they stop
moving (the mean change of a sweep below ``tolerance``), beside *anchors*: positions whose exact values
are known (the smaller sizes), fitted at the same time so one network answers for every size.

Each sweep's network and figures are written to ``checkpoint`` (when given), and a run started again
with the same checkpoint resumes after the last sweep finished. ``time_limit`` ends a run early, between
sweeps, with the network of the last sweep finished (a long run planned to end by a given time).

>>> import numpy as np
>>> from dicetree.solver.mlp import Perceptron
>>> class Take:  # a pile of 1..6; the mover takes one or two; whoever takes the last wins
...     def encode(self, rows):
...         return np.eye(7)[rows[:, 0]]
...     def lookahead(self, rows):
...         moves = [(i, take) for i, (pile,) in enumerate(rows) for take in (1, 2) if take <= pile]
...         won = np.array([rows[i, 0] == take for i, take in moves], dtype=float)
...         children = np.array([[rows[i, 0] - take] for i, take in moves])
...         return Lookahead(np.array([i for i, _ in moves]), won, np.arange(len(moves)), -(1 - won), 1 - won, children)
>>> rows = np.arange(1, 7)[:, None]
>>> net = Perceptron.initial([7, 8, 1], np.random.default_rng(0))
>>> result = value_iteration(Take(), rows, net, np.random.default_rng(0), sweeps=40, epochs=20, rate=3e-2)
>>> (result.net.probabilities(Take().encode(rows)) > 0.5).tolist()  # piles of 3 and 6 lose
[True, True, False, True, True, False]
>>> result.converged
True
>>> value_iteration(Take(), rows, net, np.random.default_rng(0), time_limit=0.0).sweeps  # no time: no sweep
[]
>>> drawn = value_iteration(Take(), rows, net, np.random.default_rng(0), sweeps=40, epochs=20, rate=3e-2,
...                         fresh=lambda rng: rng.integers(1, 7, (12, 1)))  # new piles every sweep
>>> (drawn.net.probabilities(Take().encode(rows)) > 0.5).tolist()
[True, True, False, True, True, False]
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from dicetree.solver.mlp import AdamTrainer, Perceptron

ENCODE_CHUNK = 1 << 16  # children encoded and valued at once (bounded working memory)


@dataclass(frozen=True)
class Lookahead:
    """One decision of lookahead from a batch of positions, as arrays. Move ``m`` belongs to position
    ``parent[m]`` and is worth ``constant[m] + sum(scale[c] * V(children[c]) for c where move[c] == m)``
    plus, per child, ``offset[c]``; ``V`` is the network's value of a child for the player who decides
    there (a child the opponent decides in: scale -p, offset p for its probability p)."""

    parent: np.ndarray
    constant: np.ndarray
    move: np.ndarray
    scale: np.ndarray
    offset: np.ndarray
    children: np.ndarray

    def targets(self, child_values: np.ndarray, positions: int) -> np.ndarray:
        """Each position's best move's value, given the network's values of the children."""
        moves = self.constant + np.bincount(self.move, weights=self.scale * child_values + self.offset,
                                            minlength=len(self.constant))
        best = np.full(positions, -np.inf)
        np.maximum.at(best, self.parent, moves)
        return best


@dataclass(frozen=True)
class ChoiceLookahead:
    """One decision of lookahead where some moves hold a later choice of the same player after chance (a card
    that rolls a die, then lets its player choose the next die): ``direct`` holds the moves without one;
    ``inner`` is a :class:`Lookahead` whose positions are the *choices* (a choice is worth its best option).
    Chance-then-choose move ``k`` belongs to position ``parent[k]`` and is worth the sum, over the choices ``c``
    with ``move[c] == k``, of ``weight[c]`` (the chance outcome's probability) times choice ``c``'s value.
    :func:`value_iteration` takes it where it takes a :class:`Lookahead` (both have ``children`` and ``targets``).

    >>> none, one = np.empty(0, dtype=np.int64), np.zeros(1, dtype=np.int64)
    >>> direct = Lookahead(one, np.array([0.25]), none, np.empty(0), np.empty(0), np.empty((0, 1)))
    >>> inner = Lookahead(np.array([0, 0, 1, 1]), np.array([0.0, 0.0, 0.0, 0.0]), np.arange(4), -np.ones(4),
    ...                   np.ones(4), np.zeros((4, 1)))
    >>> look = ChoiceLookahead(direct, inner, parent=one, move=np.array([0, 0]), weight=np.array([0.5, 0.5]))
    >>> look.targets(np.array([0.9, 0.6, 0.8, 0.7]), 1).round(6).tolist()  # max(0.25, (0.4 + 0.3) / 2)
    [0.35]
    """

    direct: Lookahead
    inner: Lookahead
    parent: np.ndarray
    move: np.ndarray
    weight: np.ndarray

    @property
    def children(self) -> np.ndarray:
        return np.concatenate([self.direct.children, self.inner.children])

    def targets(self, child_values: np.ndarray, positions: int) -> np.ndarray:
        """Each position's best move's value, given the network's values of :attr:`children` (in order)."""
        split = len(self.direct.children)
        best = self.direct.targets(child_values[:split], positions)
        choices = self.inner.targets(child_values[split:], len(self.move))
        values = np.bincount(self.move, weights=self.weight * choices, minlength=len(self.parent))
        np.maximum.at(best, self.parent, values)
        return best


class ValueProblem(Protocol):
    """What a game supplies to :func:`value_iteration`."""

    def encode(self, rows: np.ndarray) -> np.ndarray:
        """The network's input of each position (a row of the game's integers)."""

    def lookahead(self, rows: np.ndarray) -> Lookahead | ChoiceLookahead:
        """One decision of lookahead from each position of ``rows``."""


@dataclass(frozen=True)
class Sweep:
    """One sweep's figures: the targets' mean and largest change from the sweep before (the first
    sweep: from the starting network's values), the network's mean error on the targets it was just
    fitted to (the residual), and on the anchors' exact values (after the sweep's fit; with anchors drawn afresh
    every sweep, before it: on exact values not yet fitted)."""

    sweep: int
    mean_change: float
    max_change: float
    residual: float
    anchor_error: float
    seconds: float


@dataclass(frozen=True)
class Result:
    net: Perceptron
    sweeps: list[Sweep]
    converged: bool


def encode_children(problem: ValueProblem, children: np.ndarray) -> list[np.ndarray]:
    """The children's inputs, encoded once (a chunk at a time, in the dtype the problem encodes to: a
    compact one such as uint8 keeps a million children in a few hundred MB)."""
    return [problem.encode(children[start : start + ENCODE_CHUNK]) for start in range(0, len(children), ENCODE_CHUNK)]


def child_values(net: Perceptron, encoded: list[np.ndarray]) -> np.ndarray:
    """The network's value of every child of :func:`encode_children`."""
    return np.concatenate([net.probabilities(chunk) for chunk in encoded]) if encoded else np.empty(0)


def _mean_error(net: Perceptron, x: np.ndarray, y: np.ndarray) -> float | None:
    """``net``'s mean absolute error on rows ``x`` of exact values ``y`` (None without rows)."""
    return float(np.abs(net.probabilities(x) - y).mean()) if len(y) else None


def value_iteration(problem: ValueProblem, rows: np.ndarray, net: Perceptron, rng: np.random.Generator, *,
                    anchors: tuple[np.ndarray, np.ndarray] | None = None, sweeps: int = 30, epochs: int = 4,
                    rate: float = 1e-3, decay: float = 1.0, batch: int = 256, tolerance: float = 1e-3,
                    checkpoint: Path | None = None, progress: Callable[[Sweep], None] | None = None,
                    fresh: Callable[[np.random.Generator], np.ndarray] | None = None,
                    fresh_anchors: Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]] | None = None,
                    time_limit: float | None = None) -> Result:
    """Fit ``net`` to ``rows``' one-decision targets (and ``anchors``: rows of exact values with their
    values) until the targets' mean change in a sweep is below ``tolerance``, or ``sweeps`` sweeps.

    Each sweep trains ``epochs`` epochs at a rate of ``rate * decay**sweep``, the positions and the
    anchors shuffled together, weighted equally per row. The lookahead is computed and its
    children encoded once (they are fixed), their values once a sweep.

    With ``fresh`` (a function drawing positions like ``rows``), every sweep after the first fits new
    positions ``fresh(rng)`` instead (their lookahead computed anew): many more positions are seen for
    the same memory. A sweep's *change* is then its targets less the values the network gave the same
    positions before the sweep (the network's error against its own lookahead on positions it has not
    been fitted to), which, like the change of fixed targets, falls to the fit's noise as it settles.

    With ``fresh_anchors`` (a function drawing anchors like ``anchors``: rows and their exact values), every
    sweep after the first fits new anchors too, so that fixed ones fitted sweep after sweep are not learned by
    heart. A sweep's anchors' error is then that of the network before the sweep on its new anchors (error on
    exact values it has not been fitted to); with fixed anchors it is the error after the sweep's fit.

    With ``time_limit`` (seconds from the call), no sweep is started that the last one's duration says
    would end after it; the result is then neither converged nor all ``sweeps`` long.
    """
    called = time.perf_counter()
    lookahead = problem.lookahead(rows)
    encoded = encode_children(problem, lookahead.children)
    # Inputs stay in the problem's compact dtype (the trainer widens one minibatch at a time): a few million
    # anchors then take a few hundred MB instead of gigabytes of float64.
    x_rows = problem.encode(rows)
    x_anchor, y_anchor = ((problem.encode(anchors[0]), anchors[1]) if anchors is not None
                          else (x_rows[:0], np.empty(0)))
    done: list[Sweep] = []
    if checkpoint is not None and checkpoint.exists():
        saved = np.load(checkpoint)
        net = Perceptron(saved["sizes"], saved["params"])
        done = [Sweep(**item) for item in json.loads(str(saved["sweeps"]))]
    trainer = AdamTrainer(net)
    previous = trainer.net.probabilities(x_rows)
    converged = bool(done) and done[-1].mean_change < tolerance
    last_seconds = 0.0  # this call's last sweep (a resumed run's saved sweeps ran at another time)
    for sweep in range(len(done), sweeps):
        started = time.perf_counter()
        if converged or (time_limit is not None and started - called + last_seconds > time_limit):
            break
        if fresh is not None and sweep:
            del encoded  # the last sweep's children go before the next ones are encoded
            rows = fresh(rng)
            lookahead = problem.lookahead(rows)
            encoded = encode_children(problem, lookahead.children)
            x_rows = problem.encode(rows)
            previous = trainer.net.probabilities(x_rows)
        if fresh_anchors is not None and sweep:
            drawn_rows, y_anchor = fresh_anchors(rng)
            x_anchor = problem.encode(drawn_rows)
        unseen_anchor_error = _mean_error(trainer.net, x_anchor, y_anchor) if fresh_anchors is not None else None
        targets = lookahead.targets(child_values(trainer.net, encoded), len(rows))
        change = np.abs(targets - previous)
        previous = targets
        x = np.concatenate([x_rows, x_anchor])
        y = np.concatenate([targets, y_anchor])
        for _ in range(epochs):
            trainer.epoch(x, y, rng, batch=batch, rate=rate * decay**sweep)
        fitted = trainer.net.probabilities(x_rows)
        anchor_error = unseen_anchor_error if fresh_anchors is not None else _mean_error(trainer.net, x_anchor, y_anchor)
        figures = Sweep(sweep + 1, float(change.mean()), float(change.max()), float(np.abs(fitted - targets).mean()),
                        anchor_error or 0.0, time.perf_counter() - started)
        done.append(figures)
        last_seconds = figures.seconds
        converged = figures.mean_change < tolerance
        if checkpoint is not None:
            _save(checkpoint, trainer.net, done)
        if progress is not None:
            progress(figures)
    return Result(trainer.net, done, converged)


def _save(path: Path, net: Perceptron, sweeps: list[Sweep]) -> None:
    partial = path.with_name(path.name + ".partial.npz")
    np.savez(partial, sizes=net.sizes, params=net.params, sweeps=json.dumps([asdict(s) for s in sweeps]))
    partial.replace(path)  # a stop while writing leaves the sweep before intact


__all__ = ["ChoiceLookahead", "Lookahead", "Result", "Sweep", "ValueProblem", "child_values", "encode_children", "value_iteration"]
