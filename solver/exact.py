"""Exact values of games whose state graph has cycles (a reroll can bring back a position).

Depth-limited search never gives exact values when positions recur. :func:`solve` builds every
state reachable from a root, splits the graph into strongly connected components and solves them
from the end of the game backwards, so each component only waits on components already solved.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> solution = solve(game, game.parse("d4:1/d4:3 a -/-"))
    >>> round(solution.value(solution.root), 12)  # 1/7: see tests/test_exact.py for the algebra
    0.142857142857
    >>> [(m.name, round(m.value, 6), m.tied) for m in solution.move_values(solution.root)]
    [('roll a.d4', 0.142857, True), ('roll b.d4', 0.0, False)]
    >>> game.action_name(solution.root, solution.best_action(solution.root))
    'roll a.d4'
    >>> solution.principal_line()  # recommended moves, following the likeliest chance outcome
    ['roll a.d4', '[a.d4=1]', 'd4xd4']
    >>> solution.residual < 1e-12 and solution.certified, solution.never_ending
    (True, ())

Which games: one player (player 0 maximizes its return) or two players with constant-sum returns
(player 0 maximizes its return, player 1 minimizes it). Values are player 0's unless said otherwise.

The convention for play that never ends
---------------------------------------
A play that never reaches a terminal state counts as a draw: ``D = (low + high) / 2`` of
:meth:`Game.value_bounds` (1/2 for a win probability). Internally every value is shifted by ``D``,
so a never-ending play is worth exactly 0 and a terminal is worth ``return - D``. This makes the
game a stochastic game with terminal payoffs (Everett's "recursive games", here with perfect
information); seen as a mean-payoff game (a terminal loops on itself with its payoff, every other
state pays 0) it has a value and optimal *positional* strategies (Liggett and Lippman 1969).

How: three modules, one step each
---------------------------------
* :mod:`dicetree.solver.state_graph` explores every reachable state into index arrays and orders the
  strongly connected components from the end of the game backwards;
* :mod:`dicetree.solver.strategy_iteration` solves them in that order: states on no cycle by one
  vectorized Bellman step, each cyclic component by strategy iteration with exact policy
  evaluation (it explains why value iteration alone lands on the wrong fixed point);
* :mod:`dicetree.solver.certificate` picks the recommended moves (progress among tied moves) and checks the
  result: Bellman residual, the attractor conditions, and the recommended moves' own values.

:func:`solve` runs the three and returns an :class:`ExactSolution`.
"""

from __future__ import annotations

import time

import numpy as np

from dicetree.solver.certificate import Certificate, certify
from dicetree.solver.game import Action, Game, GameError, State
from dicetree.solver.ranking import MoveValue
from dicetree.solver.state_graph import (
    CHANCE_NODE, MAX_NODE, MIN_NODE, TERMINAL_NODE, StateGraph, build_graph, generations,
)
from dicetree.solver.strategy_iteration import IterationCounts, solve_generations


# ----- solving ----------------------------------------------------------------------------------------------
def solve(
    game: Game,
    root: State,
    *,
    tolerance: float = 1e-12,
    max_states: int = 2_000_000,
    max_iterations: int = 10_000,
    tie_tolerance: float | None = None,
    warm_start: bool = True,
) -> ExactSolution:
    """Solve every state reachable from ``root`` exactly; see the module docstring for the method.

    ``tolerance`` bounds the final Bellman residual (the values themselves come from exact linear
    solves); ``max_iterations`` caps value-iteration sweeps and strategy-iteration steps per
    component; ``tie_tolerance`` (default: ``tolerance``) decides which moves are tied (a larger
    one lets the recommended moves lose up to about that much: see ``policy_error``);
    ``warm_start=False`` skips the value-iteration warm start (strategy iteration then starts from
    each player's first move: slower, the same values; useful to test strategy iteration alone).

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> solution = solve(game, game.parse("d6:2/d6:5 a -/-"))
    >>> solution.num_states, solution.num_components, round(solution.value(solution.root), 9)  # 13/170
    (98, 3, 0.076470588)
    >>> [(m.name, m.tied, m.recommended) for m in solution.move_values(solution.root)]
    [('roll a.d6', True, True), ('roll b.d6', True, False)]
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    graph = build_graph(game, root, max_states)
    timings["explore"] = time.perf_counter() - started

    bounds = game.value_bounds()
    draw = (bounds.low + bounds.high) / 2
    scale = max(1.0, bounds.high - bounds.low)
    tie = max(tolerance if tie_tolerance is None else tie_tolerance, 1e-14 * scale)
    eps = max(tolerance, 1e-14 * scale)

    started = time.perf_counter()
    order, num_components = generations(graph)
    timings["components"] = time.perf_counter() - started

    started = time.perf_counter()
    w, components, iterations = solve_generations(
        graph, order, draw=draw, eps=eps, max_iterations=max_iterations, warm_start=warm_start,
    )
    timings["solve"] = time.perf_counter() - started

    started = time.perf_counter()
    choice, never, certificate = certify(graph, w, order, components, tie=tie, eps=eps)
    timings["certify"] = time.perf_counter() - started
    largest = max((comp.n for cyclic in components for comp in cyclic), default=1)
    return ExactSolution(
        graph, root, w, draw, choice, never, certificate, iterations, num_components, largest, tie, tolerance,
        timings,
    )


# ----- the solution -------------------------------------------------------------------------------------
class ExactSolution:
    """Exact values of every state reachable from ``root`` (see :func:`solve`).

    ``value(state)`` is player 0's value; :meth:`move_values` gives every legal move's value from
    the mover's view, best first, ties flagged; :meth:`best_action` the recommended move.
    ``certificate`` holds the checks (:mod:`dicetree.solver.certificate`); ``residual``, ``policy_error``,
    ``attractor_conditions`` and ``never_ending_error`` read them.
    """

    def __init__(self, graph: StateGraph, root: State, w: np.ndarray, draw: float, choice: np.ndarray,
                 never: np.ndarray, certificate: Certificate, iterations: IterationCounts, num_components: int,
                 largest_component: int, tie_tolerance: float, tolerance: float, timings: dict[str, float]):
        self.game: Game = graph.game
        self.graph: StateGraph = graph
        self.root: State = root
        self.draw_value: float = draw
        self._w = w
        self._choice = choice  # recommended edge (global index) per decision node, -1 elsewhere
        self._never = never
        self.certificate: Certificate = certificate
        self.iterations: IterationCounts = iterations
        self.num_components: int = num_components
        self.largest_component: int = largest_component
        self.tie_tolerance = tie_tolerance
        self.tolerance = tolerance
        self.timings: dict[str, float] = timings
        self.elapsed: float = sum(timings.values())

    # -- sizes and certificate ---------------------------------------------------------------------
    @property
    def num_states(self) -> int:
        return self.graph.num_states

    @property
    def certified(self) -> bool:
        """Bellman residual and policy error within the tolerance, and the attractor conditions hold."""
        return self.certificate.holds(self.tolerance)

    @property
    def residual(self) -> float:
        return self.certificate.residual

    @property
    def policy_error(self) -> float:
        return self.certificate.policy_error

    @property
    def attractor_conditions(self) -> bool:
        return self.certificate.attractor_conditions

    @property
    def never_ending_error(self) -> float:
        return self.certificate.never_ending_error

    @property
    def never_ending(self) -> tuple[State, ...]:
        """States from which the recommended play never ends (probability 0 of reaching an end)."""
        return tuple(self.graph.states[i] for i in np.flatnonzero(self._never))

    def is_never_ending(self, state: State) -> bool:
        return bool(self._never[self.graph.node(state)])

    # -- values ------------------------------------------------------------------------------------------
    def value(self, state: State) -> float:
        """Player 0's value of ``state`` (a terminal state's is player 0's return)."""
        return float(self.draw_value + self._w[self.graph.node(state)])

    def value_for(self, state: State, player: int) -> float:
        """``player``'s value of ``state`` (player 1's is the constant sum less player 0's)."""
        return self.graph.pov.view(self.value(state), seen_by=0, player=player)

    def move_values(self, state: State) -> list[MoveValue]:
        """Every legal move at a decision state with its value from the mover's view, best first:
        the recommended move, the other tied moves, then the rest by value. Empty at chance and
        terminal states (see :meth:`outcome_values`)."""
        graph = self.graph
        i = graph.node(state)
        kind = graph.kind[i]
        if kind not in (MAX_NODE, MIN_NODE):
            return []
        mover = int(kind)
        lo, hi = graph.indptr[i], graph.indptr[i + 1]
        values = graph.pov.view(self.draw_value + self._w[graph.succ[lo:hi]], seen_by=0, player=mover)
        best = float(values.max())
        chosen = int(self._choice[i] - lo)
        moves = []
        for k, action in enumerate(graph.labels[i]):
            value = float(values[k])
            moves.append(MoveValue(
                action=action,
                name=self.game.action_name(state, action),
                value=value,
                loss=best - value,
                tied=best - value <= self.tie_tolerance,
                recommended=k == chosen,
                probability=float(k == chosen),
            ))
        return sorted(moves, key=lambda m: (not m.recommended, not m.tied, -m.value))

    def best_action(self, state: State) -> Action:
        """The recommended move: a best move that makes progress (see the module docstring)."""
        graph = self.graph
        i = graph.node(state)
        if graph.kind[i] not in (MAX_NODE, MIN_NODE):
            raise GameError("no decision here: this is a chance or terminal state")
        return graph.labels[i][int(self._choice[i] - graph.indptr[i])]

    def outcome_values(self, state: State) -> list[tuple[Action, float, float]]:
        """At a chance state: (outcome, probability, player 0's value after it) for every outcome."""
        graph = self.graph
        i = graph.node(state)
        if graph.kind[i] != CHANCE_NODE:
            return []
        lo, hi = graph.indptr[i], graph.indptr[i + 1]
        return [
            (outcome, float(graph.prob[e]), float(self.draw_value + self._w[graph.succ[e]]))
            for outcome, e in zip(graph.labels[i], range(lo, hi))
        ]

    def principal_line(self, state: State | None = None, length: int = 20) -> list[str]:
        """The recommended moves from ``state`` (the root by default), following the most likely
        chance outcome, as move names (chance outcomes in brackets, ``[name]``, as in every line)."""
        graph = self.graph
        state = self.root if state is None else state
        line = []
        for _ in range(length):
            i = graph.node(state)
            kind = graph.kind[i]
            if kind == TERMINAL_NODE:
                break
            if kind == CHANCE_NODE:
                lo, hi = graph.indptr[i], graph.indptr[i + 1]
                k = int(np.argmax(graph.prob[lo:hi]))
                action = graph.labels[i][k]
                line.append(f"[{self.game.action_name(state, action)}]")
            else:
                action = self.best_action(state)
                line.append(self.game.action_name(state, action))
            state = self.game.apply(state, action)
        return line

    def summary(self) -> str:
        """A few lines on the solve: size, value, certificate, time."""
        root = self.value(self.root)
        return "\n".join([
            f"{self.num_states:,} states, {self.graph.num_edges:,} edges, {self.num_components:,} components "
            f"(largest {self.largest_component:,}); {self.iterations}",
            f"root value {root:.12f} (player 0); never-ending states: {int(self._never.sum()):,}",
            f"certificate: Bellman residual {self.residual:.2e}, policy error {self.policy_error:.2e}, "
            f"attractor conditions {'hold' if self.attractor_conditions else 'FAIL'}",
            "time: " + ", ".join(f"{k} {v:.2f}s" for k, v in self.timings.items()) + f" (total {self.elapsed:.2f}s)",
        ])


__all__ = [
    "CHANCE_NODE", "MAX_NODE", "MIN_NODE", "TERMINAL_NODE", "Certificate", "ExactSolution", "IterationCounts",
    "MoveValue", "StateGraph", "build_graph", "solve",
]
