"""The certificate of an exact solution, and the moves it recommends.

After :mod:`dicetree.solver.strategy_iteration` has solved a state graph, :func:`certify` picks each
player's recommended move and checks, for the whole graph and the final values ``v``, that ``v``
is the value of the game::

    >>> from dicetree.solver.games import load_game
    >>> from dicetree.solver.state_graph import build_graph, generations
    >>> from dicetree.solver.strategy_iteration import solve_generations
    >>> game = load_game("rolldown")
    >>> graph = build_graph(game, game.parse("d4:1/d4:3 a -/-"))
    >>> order = generations(graph)[0]
    >>> w, components, _ = solve_generations(graph, order, draw=0.5, eps=1e-12)
    >>> choice, never, certificate = certify(graph, w, order, components, tie=1e-12, eps=1e-12)
    >>> certificate.holds(1e-12), certificate.residual < 1e-12, bool(never.any())
    (True, True, False)

What it checks
--------------
After solving, for the whole graph and the final values ``v``:

* ``residual``: the largest Bellman error ``|T v - v|`` over all states;
* the attractor conditions: from every state worth more than a draw, player 0 can force reaching a
  terminal state with positive probability using only moves that keep the value (whatever
  value-keeping moves player 1 makes), and mirrored for player 1 at states worth less than a draw.
  Together with ``v = T v`` they say that ``v`` is the value: without them a value-keeping cycle
  could hide a better or worse outcome;
* ``policy_error``: the recommended moves of both players, evaluated exactly, give back ``v``.

Recommended moves and ties
--------------------------
Moves whose values are within ``tie_tolerance`` of the best are tied (values are exact to about
1e-15, so true ties show as ties). Among tied moves a player picks progress, in the attractor sense:
a player who wants the game to end (player 0 where the value beats a draw, player 1 where it is
below one) takes the tied move from which the end can be forced soonest whatever the opponent's
value-keeping replies; otherwise both sides take the tied move on the shortest path to an end. So a
move that ends the game at once (rank 0) beats a waiting move of the same value, and the
recommended moves achieve the value (``policy_error``) rather than merely share its number.

``never_ending`` lists the states from which, under the recommended moves, the game ends with
probability 0 (both sides prefer, or must accept, going round forever); they are worth ``D``
(``never_ending_error`` checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicetree.solver.state_graph import (
    CHANCE_NODE, MAX_NODE, MIN_NODE, TERMINAL_NODE, Generation, StateGraph, attractor, edge_ranges, first_in_segment,
)
from dicetree.solver.strategy_iteration import Component, bellman


@dataclass(frozen=True)
class Certificate:
    """The checks of an exact solution: the largest Bellman error ``residual``; whether the
    ``attractor_conditions`` hold; ``policy_error``, how far the recommended moves' own values are
    from the solved ones; ``never_ending_error``, how far the never-ending states are from the draw."""

    residual: float
    policy_error: float
    attractor_conditions: bool
    never_ending_error: float

    def holds(self, tolerance: float) -> bool:
        """Residual and never-ending error within ``tolerance``, the policy error too (or within
        1e-12, the linear solves' rounding), and the attractor conditions hold."""
        return (
            self.residual <= tolerance
            and self.attractor_conditions
            and self.policy_error <= max(tolerance, 1e-12)
            and self.never_ending_error <= tolerance
        )


def certify(
    graph: StateGraph, w: np.ndarray, order: list[Generation], components: list[list[Component]], *,
    tie: float, eps: float,
) -> tuple[np.ndarray, np.ndarray, Certificate]:
    """The recommended edge per decision state (global edge index, -1 elsewhere), the never-ending
    states (a mask) and the certificate of the values ``w`` (shifted by the draw value) that
    :func:`~dicetree.solver.strategy_iteration.solve_generations` found with ``order`` and ``components``.
    Moves within ``tie`` of the best are tied; ``eps`` is the policy evaluation's target residual."""
    choice, attractor_ok = recommend(graph, w, tie)
    never = never_ending(graph, choice)
    policy_values = w.copy()  # terminals as they are; the rest recomputed, warm-started from w
    for generation, cyclic in zip(order, components):
        singles = generation.singles
        if singles.size:
            policy_values[singles] = _policy_step(graph, policy_values, singles, choice)
        for comp in cyclic:
            deciders = comp.nodes[: comp.n_dec]
            local_choice = choice[deciders] - graph.indptr[deciders] + comp.e_ptr[: comp.n_dec]
            policy_values[comp.nodes] = comp.evaluate(local_choice, policy_values, eps)
    nonterminal = np.flatnonzero(graph.kind != TERMINAL_NODE)
    certificate = Certificate(
        residual=float(np.abs(bellman(graph, w, nonterminal) - w[nonterminal]).max()) if nonterminal.size else 0.0,
        policy_error=float(np.abs(policy_values - w).max()),
        attractor_conditions=attractor_ok,
        never_ending_error=float(np.abs(w[never]).max()) if never.any() else 0.0,
    )
    return choice, never, certificate


def _policy_step(graph: StateGraph, values: np.ndarray, nodes: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """Values at acyclic ``nodes`` under the recommended moves."""
    kind = graph.kind[nodes]
    out = np.empty(len(nodes))
    decision = kind != CHANCE_NODE
    out[decision] = values[graph.succ[choice[nodes[decision]]]]
    chance = nodes[~decision]
    if chance.size:
        starts = graph.indptr[chance]
        lens = graph.indptr[chance + 1] - starts
        edges = edge_ranges(starts, lens)
        seg = np.zeros(len(chance) + 1, dtype=np.int64)
        np.cumsum(lens, out=seg[1:])
        out[~decision] = np.add.reduceat(graph.prob[edges] * values[graph.succ[edges]], seg[:-1])
    return out


def recommend(graph: StateGraph, w: np.ndarray, tie: float):
    """The recommended edge per decision node (global edge index, -1 elsewhere) and whether the
    attractor conditions of the certificate hold."""
    n = graph.num_states
    kind = graph.kind
    q = w[graph.succ]
    decision = (kind == MAX_NODE) | (kind == MIN_NODE)
    nodes = np.flatnonzero(kind != TERMINAL_NODE)
    choice = np.full(n, -1, dtype=np.int64)
    if not nodes.size:
        return choice, True
    starts = graph.indptr[nodes]
    hi = np.full(n, np.nan)
    lo = np.full(n, np.nan)
    hi[nodes] = np.maximum.reduceat(q, starts)
    lo[nodes] = np.minimum.reduceat(q, starts)
    src_kind = kind[graph.src]
    greedy = np.where(
        src_kind == MAX_NODE, q >= hi[graph.src] - tie,
        np.where(src_kind == MIN_NODE, q <= lo[graph.src] + tie, True),
    )
    rev_order = np.argsort(graph.succ, kind="stable")
    terminal = kind == TERMINAL_NODE
    r_max = attractor(n, graph.src, graph.succ, greedy, kind == MIN_NODE, terminal, rev_order)
    r_min = attractor(n, graph.src, graph.succ, greedy, kind == MAX_NODE, terminal, rev_order)
    r_coop = attractor(n, graph.src, graph.succ, greedy, np.zeros(n, dtype=bool), terminal, rev_order)
    positive = w > tie
    negative = w < -tie
    attractor_ok = bool(
        (r_max[positive & ~terminal] >= 0).all() and (r_min[negative & ~terminal] >= 0).all()
    )
    big = n + 1
    rmax_e = np.where(r_max[graph.succ] >= 0, r_max[graph.succ], big)
    rmin_e = np.where(r_min[graph.succ] >= 0, r_min[graph.succ], big)
    rcoop_e = np.where(r_coop[graph.succ] >= 0, r_coop[graph.succ], big)
    src_pos = positive[graph.src]
    src_neg = negative[graph.src]
    primary = np.where(
        (src_kind == MAX_NODE) & src_pos, rmax_e, np.where((src_kind == MIN_NODE) & src_neg, rmin_e, rcoop_e)
    )
    key = np.where(greedy, primary * (big + 1) + rcoop_e, np.iinfo(np.int64).max)
    dec_nodes = np.flatnonzero(decision)
    if dec_nodes.size:
        best_key = np.full(n, np.iinfo(np.int64).max)
        best_key[nodes] = np.minimum.reduceat(key, starts)
        hit = decision[graph.src] & (key == best_key[graph.src])
        first = first_in_segment(hit, graph.src, n, graph.indptr[:-1])
        choice[dec_nodes] = graph.indptr[dec_nodes] + first[dec_nodes]
    return choice, attractor_ok


def never_ending(graph: StateGraph, choice: np.ndarray) -> np.ndarray:
    """States from which the recommended play reaches no terminal state (probability 0)."""
    n = graph.num_states
    active = graph.kind[graph.src] == CHANCE_NODE
    chosen = choice[choice >= 0]
    active[chosen] = True
    rev_order = np.argsort(graph.succ, kind="stable")
    rank = attractor(n, graph.src, graph.succ, active, np.zeros(n, dtype=bool), graph.kind == TERMINAL_NODE, rev_order)
    return rank < 0


__all__ = ["Certificate", "certify", "never_ending", "recommend"]
