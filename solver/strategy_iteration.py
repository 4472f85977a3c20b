"""Strategy iteration: the exact values of a state graph, component by component.

:func:`solve_generations` takes the generations of :func:`dicetree.solver.state_graph.generations` in order
and solves each: the states on no cycle by one vectorized Bellman step, each cyclic component by
strategy iteration with exact policy evaluation (:func:`solve_component`). Values are player 0's,
shifted by the draw value ``D`` (never-ending play is worth exactly 0; see :mod:`dicetree.solver.exact`)::

    >>> from dicetree.solver.games import load_game
    >>> from dicetree.solver.state_graph import build_graph, generations
    >>> game = load_game("rolldown")
    >>> graph = build_graph(game, game.parse("d4:1/d4:3 a -/-"))
    >>> w, _, counts = solve_generations(graph, generations(graph)[0], draw=0.5, eps=1e-12)
    >>> round(0.5 + float(w[0]), 12), counts.cyclic_components  # 1/7: see tests/test_exact.py
    (0.142857142857, 1)

Why plain value iteration is not enough, and what is done instead
-----------------------------------------------------------------
The value satisfies the Bellman equations ``v = T v`` (max at player 0's states, min at player
1's, expectation at chance), but with cycles so do many other vectors, and value iteration lands on
one that depends on where it starts:

* Started from the lowest return it computes the game where never-ending play counts as a loss for
  player 0; from the highest, as a win. Two states that each prefer to hand the move to the other
  rather than stop (``tests/test_exact.py``: stopping is worth 0.3 to player 0 at one and 0.8 at the
  other) have a whole interval of fixed points, [0.3, 0.8]; the draw convention picks 1/2.
* Started from the draw value it computes the *n*-move game cut off as a draw. That is not the
  infinite game either: a player can stall and then gamble when the cut-off is near, so the
  long half of a lottery is cut off. In the test's "lottery timing" game player 1 may wait forever
  (a draw, 1/2) or start a lottery worth 1/2 (an immediate loss for player 0, or a win after five
  forced moves): iteration from 1/2 converges to 1/4, a fixed point that is not the value.

So value iteration (block Gauss-Seidel sweeps: chance states, then decisions, vectorized over the
component, started from the draw value) only supplies good starting strategies. The values come
from strategy iteration with exact policy evaluation:

* *Evaluation.* With both strategies fixed the component is a Markov chain; states from which no
  exit (a terminal or an already solved state) is reachable never end and are worth 0; the rest
  solve ``(I - P) x = b``. Decision states are first collapsed onto the chance state or exit they
  lead to, so the system has one unknown per chance state in use. It is solved iteratively from the
  current values (Jacobi steps, then BiCGSTAB) to a residual at rounding level, with a sparse LU as
  the fallback: on dice graphs LU fill-in is heavy (4 s against 3 ms for Jacobi on one system of
  11,000 unknowns), while the chains of real play end quickly.
* *Player 1's best response* to a fixed player-0 strategy is found by strategy iteration over
  player 1's strategies, and player 0 improves against it (Hoffman-Karp). Each player has two kinds
  of improvement: a strictly better move at some state (by more than ``tolerance / 2``), or, when
  none exists, *closing a cycle*: a set C of states all worth less than a draw to player 0 where
  player 0 has value-preserving moves that stay in C, every value-preserving move of player 1 stays
  in C and every chance outcome stays in C (for player 1 mirrored: worth more than a draw). Staying
  in C forever is a draw, better than what the current strategy gets there; the classic
  improvement step alone would stop short of it. Both steps strictly raise (for player 1 lower) the
  guaranteed values, so each loop ends after finitely many steps; when neither applies, the values
  are optimal (the attractor conditions of :mod:`dicetree.solver.certificate` hold).

A component that is a single state without a self-loop is solved in one step, in batches: all
states whose successors are all solved are handled in one vectorized step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.sparse.linalg import bicgstab, gmres, spsolve

from dicetree.solver.game import GameError
from dicetree.solver.state_graph import (
    MAX_NODE, MIN_NODE, TERMINAL_NODE, Generation, StateGraph, attractor, edge_ranges, first_in_segment,
)

#: Exact policy evaluation: Jacobi steps tried first, and the largest system a sparse LU may factor
#: when the iterative solvers fall short (LU fill-in grows fast on dice graphs).
JACOBI_STEPS = 200
DIRECT_SOLVE_LIMIT = 60_000


@dataclass(frozen=True)
class IterationCounts:
    """How much work the solve took (summed over the cyclic components)."""

    cyclic_components: int  # components with a cycle (the others need one step each)
    sweeps: int  # value-iteration sweeps (warm start)
    max_sweeps: int  # the most sweeps one component took
    evaluations: int  # exact policy evaluations (linear solves) in strategy iteration
    improvements: int  # strategy-iteration steps that changed a strategy (both players)
    cycle_closings: int  # of which: a player closed a cycle it prefers to never leave

    def __str__(self) -> str:
        return (
            f"{self.cyclic_components} cyclic components: {self.sweeps} sweeps (at most {self.max_sweeps} in one), "
            f"{self.evaluations} policy evaluations, {self.improvements} improvements "
            f"({self.cycle_closings} closing a cycle)"
        )


@dataclass
class _Tally:
    """The running counts behind :class:`IterationCounts`."""

    sweeps: int = 0
    max_sweeps: int = 0
    evaluations: int = 0
    improvements: int = 0
    closings: int = 0


# ----- solving ---------------------------------------------------------------------------------------------
def solve_generations(
    graph: StateGraph, order: list[Generation], *, draw: float, eps: float, max_iterations: int = 10_000,
    warm_start: bool = True,
) -> tuple[np.ndarray, list[list[Component]], IterationCounts]:
    """Every state's value, shifted by ``draw`` (player 0's value less ``draw``), solved generation by
    generation; each generation's cyclic components as solved (the certificate evaluates the
    recommended moves on them) and the work it took. ``eps`` is the target Bellman residual;
    ``max_iterations`` caps the sweeps and the strategy-iteration steps of a component."""
    w = np.zeros(graph.num_states)
    terminal = graph.kind == TERMINAL_NODE
    w[terminal] = graph.ret0[terminal] - draw
    local_of = np.full(graph.num_states, -1, dtype=np.int64)
    tally = _Tally()
    solved: list[list[Component]] = []
    for generation in order:
        cyclic = [Component(graph, members, local_of) for members in generation.cyclic]
        if generation.singles.size:
            w[generation.singles] = bellman(graph, w, generation.singles)
        for comp in cyclic:
            solve_component(comp, w, eps, max_iterations, tally, warm_start)
        solved.append(cyclic)
    counts = IterationCounts(
        cyclic_components=sum(map(len, solved)), sweeps=tally.sweeps, max_sweeps=tally.max_sweeps,
        evaluations=tally.evaluations, improvements=tally.improvements, cycle_closings=tally.closings,
    )
    return w, solved, counts


def bellman(graph: StateGraph, w: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """(T w) at ``nodes`` (non-terminal): max, min or expectation over their successors."""
    starts = graph.indptr[nodes]
    lens = graph.indptr[nodes + 1] - starts
    edges = edge_ranges(starts, lens)
    seg = np.zeros(len(nodes) + 1, dtype=np.int64)
    np.cumsum(lens, out=seg[1:])
    q = w[graph.succ[edges]]
    kind = graph.kind[nodes]
    out = np.empty(len(nodes))
    if not len(nodes):
        return out
    hi = np.maximum.reduceat(q, seg[:-1])
    low = np.minimum.reduceat(q, seg[:-1])
    mean = np.add.reduceat(graph.prob[edges] * q, seg[:-1])
    out = np.where(kind == MAX_NODE, hi, np.where(kind == MIN_NODE, low, mean))
    return out

def _segment_best(values, starts, maximize):
    """Per segment (``starts`` into ``values``): the best value."""
    if maximize:
        return np.maximum.reduceat(values, starts)
    return np.minimum.reduceat(values, starts)


def _solve_absorbing(P: sp.csr_matrix, b: np.ndarray, exits: np.ndarray, x0: np.ndarray, tolerance: float):
    """Solve ``x = P x + b`` for a substochastic ``P`` whose missing row mass ``exits`` leaves the
    system. States that cannot reach an exit never end: 0 (the draw, shifted). Returns x.

    Warm-started Jacobi steps first (the chains of real games end quickly, so a few dozen steps
    reach rounding level), then BiCGSTAB, then a direct sparse LU; the answer is accepted when its
    residual ``max |P x + b - x|`` is at rounding level (or ``tolerance / 1000`` if larger)."""
    m = P.shape[0]
    x = np.zeros(m)
    if m == 0:
        return x
    sources = exits > 0
    if not sources.any():
        return x
    if P.nnz == 0:
        return b.copy()
    # Reverse reachability from the exits: a super-source m points at every exit state.
    coo = P.tocoo()
    rows = np.concatenate([coo.col, np.full(int(sources.sum()), m)])
    cols = np.concatenate([coo.row, np.flatnonzero(sources)])
    reverse = sp.csr_matrix((np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(m + 1, m + 1))
    order = csgraph.breadth_first_order(reverse, m, directed=True, return_predecessors=False)
    alive = np.zeros(m + 1, dtype=bool)
    alive[order] = True
    idx = np.flatnonzero(alive[:m])
    A = (P[idx][:, idx] if idx.size < m else P).tocsr()
    rhs = b[idx]
    scale = max(1.0, float(np.abs(rhs).max()), float(np.abs(x0).max()))
    target = max(tolerance * 1e-3, 16 * np.finfo(float).eps * scale)
    sol = x0[idx].copy()
    for _ in range(JACOBI_STEPS):
        new = A @ sol + rhs
        change = float(np.abs(new - sol).max())
        sol = new
        if change <= target:
            x[idx] = sol
            return x
    system = (sp.identity(idx.size, format="csr") - A).tocsr()
    sol, _ = bicgstab(system, rhs, x0=sol, rtol=0.0, atol=target / 4, maxiter=20 * JACOBI_STEPS)
    if not np.all(np.isfinite(sol)) or float(np.abs(system @ sol - rhs).max()) > target:
        if idx.size <= DIRECT_SOLVE_LIMIT:
            sol = spsolve(system.tocsc(), rhs)
        else:
            sol, _ = gmres(system, rhs, x0=x0[idx], rtol=0.0, atol=target / 4, restart=80, maxiter=200)
    x[idx] = sol
    return x


# ----- a cyclic component ----------------------------------------------------------------------------
class Component:
    """A strongly connected component with a cycle, as local index arrays.

    Local nodes are sorted by kind: maximizer nodes ``[0, n_max)``, minimizer nodes
    ``[n_max, n_dec)``, chance nodes ``[n_dec, n)``; their edges are in node order, so each kind's
    edges are one contiguous slice and segment reductions work on slices.
    """

    def __init__(self, graph: StateGraph, members: np.ndarray, local_of: np.ndarray):
        kind = graph.kind[members]
        order = np.lexsort((members, kind))
        self.nodes = nodes = members[order]
        kind = kind[order]
        n = self.n = len(nodes)
        self.n_max = int((kind == MAX_NODE).sum())
        self.n_dec = self.n_max + int((kind == MIN_NODE).sum())
        local_of[nodes] = np.arange(n)
        starts = graph.indptr[nodes]
        lens = graph.indptr[nodes + 1] - starts
        edges = edge_ranges(starts, lens)
        self.e_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(lens, out=self.e_ptr[1:])
        self.e_src = np.repeat(np.arange(n, dtype=np.int64), lens)
        self.e_succ = graph.succ[edges]
        self.e_prob = graph.prob[edges]
        loc = local_of[self.e_succ]
        self.e_loc = loc  # local successor, -1 outside the component
        local_of[nodes] = -1
        self.e_max_end = int(self.e_ptr[self.n_max])
        self.e_dec_end = int(self.e_ptr[self.n_dec])
        # For attractors: successors outside the component are one virtual node n.
        self.e_dst = np.where(loc >= 0, loc, n)
        # Chance edges, split by successor class (fixed for the component).
        c_edges = np.arange(self.e_dec_end, len(loc))
        self.c_out = c_edges[loc[c_edges] < 0]
        self.c_dec = c_edges[(loc[c_edges] >= 0) & (loc[c_edges] < self.n_dec)]
        self.c_chn = c_edges[loc[c_edges] >= self.n_dec]

    @cached_property
    def rev_order(self) -> np.ndarray:
        """The edges sorted by destination (for attractors; only needed when looking for cycles)."""
        return np.argsort(self.e_dst, kind="stable")

    # -- value iteration -------------------------------------------------------------------------
    def sweep(self, w: np.ndarray) -> float:
        """One block Gauss-Seidel sweep (chance states, then decisions) on the global ``w``;
        returns the largest change."""
        nodes, succ, ptr = self.nodes, self.e_succ, self.e_ptr
        change = 0.0
        if self.n_dec < self.n:
            lo = self.e_dec_end
            new = np.add.reduceat(self.e_prob[lo:] * w[succ[lo:]], ptr[self.n_dec:-1] - lo)
            change = max(change, float(np.abs(new - w[nodes[self.n_dec:]]).max()))
            w[nodes[self.n_dec:]] = new
        if self.n_max:
            new = np.maximum.reduceat(w[succ[: self.e_max_end]], ptr[: self.n_max])
            change = max(change, float(np.abs(new - w[nodes[: self.n_max]]).max()))
            w[nodes[: self.n_max]] = new
        if self.n_dec > self.n_max:
            lo = self.e_max_end
            new = np.minimum.reduceat(w[succ[lo : self.e_dec_end]], ptr[self.n_max : self.n_dec] - lo)
            change = max(change, float(np.abs(new - w[nodes[self.n_max : self.n_dec]]).max()))
            w[nodes[self.n_max : self.n_dec]] = new
        return change

    # -- decisions ----------------------------------------------------------------------------------
    def best_moves(self, w: np.ndarray, player: int):
        """For one player's nodes: (q values of their edges, best value per node, the edge slice)."""
        if player == 0:
            lo, hi, n_lo, n_hi = 0, self.e_max_end, 0, self.n_max
        else:
            lo, hi, n_lo, n_hi = self.e_max_end, self.e_dec_end, self.n_max, self.n_dec
        q = w[self.e_succ[lo:hi]]
        if n_hi == n_lo:
            return q, np.zeros(0), lo, n_lo, n_hi
        best = _segment_best(q, self.e_ptr[n_lo:n_hi] - lo, player == 0)
        return q, best, lo, n_lo, n_hi

    def first_best(self, q: np.ndarray, best: np.ndarray, lo: int, n_lo: int, n_hi: int) -> np.ndarray:
        """For one player's nodes (what :meth:`best_moves` returned): the offset of each node's first
        best edge from its first edge."""
        seg = self.e_src[lo : lo + len(q)] - n_lo
        return first_in_segment(q == best[seg], seg, n_hi - n_lo, self.e_ptr[n_lo:n_hi] - lo)

    def greedy_choice(self, w: np.ndarray) -> np.ndarray:
        """A best edge (local edge index) for every decision node."""
        choice = np.zeros(self.n_dec, dtype=np.int64)
        for player in (0, 1):
            q, best, lo, n_lo, n_hi = self.best_moves(w, player)
            if n_hi == n_lo:
                continue
            choice[n_lo:n_hi] = self.e_ptr[n_lo:n_hi] + self.first_best(q, best, lo, n_lo, n_hi)
        return choice

    # -- exact evaluation of a strategy profile ------------------------------------------------------
    def evaluate(self, choice: np.ndarray, w: np.ndarray, tolerance: float) -> np.ndarray:
        """The component's values when every decision node plays ``choice`` (local edge indices);
        values outside the component are read from the global ``w``. Returns local values."""
        n, n_dec = self.n, self.n_dec
        nxt = self.e_loc[choice]
        known = np.zeros(n, dtype=bool)
        known_val = np.zeros(n)
        out = nxt < 0
        known[:n_dec] = out
        known_val[:n_dec][out] = w[self.e_succ[choice[out]]]
        # Collapse decision chains: a decision's value is that of the chance state or exit it leads to.
        ptr = np.arange(n)
        ptr[:n_dec] = np.where(out, np.arange(n_dec), nxt)
        for _ in range(max(1, int(math.ceil(math.log2(n_dec + 1))) + 1)):
            nxt_ptr = ptr[ptr]
            if np.array_equal(nxt_ptr, ptr):
                break
            ptr = nxt_ptr
        loop = (ptr < n_dec) & ~known[ptr]  # a cycle of decisions only: never ends
        loop[n_dec:] = False
        known[loop] = True
        known_val[loop] = 0.0
        ptr[loop] = np.flatnonzero(loop)
        # Chance equations x_c = sum_o p_o X(o).
        m = n - n_dec
        b = np.zeros(m)
        exits = np.zeros(m)
        rows, cols, vals = [], [], []
        if self.c_out.size:
            r = self.e_src[self.c_out] - n_dec
            np.add.at(b, r, self.e_prob[self.c_out] * w[self.e_succ[self.c_out]])
            np.add.at(exits, r, self.e_prob[self.c_out])
        if self.c_dec.size:
            r = self.e_src[self.c_dec] - n_dec
            t = ptr[self.e_loc[self.c_dec]]
            p = self.e_prob[self.c_dec]
            k = known[t]
            np.add.at(b, r[k], p[k] * known_val[t[k]])
            np.add.at(exits, r[k], p[k])
            rows.append(r[~k])
            cols.append(t[~k] - n_dec)
            vals.append(p[~k])
        if self.c_chn.size:
            rows.append(self.e_src[self.c_chn] - n_dec)
            cols.append(self.e_loc[self.c_chn] - n_dec)
            vals.append(self.e_prob[self.c_chn])
        if rows:
            rows_a, cols_a, vals_a = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
        else:
            rows_a = cols_a = np.zeros(0, dtype=np.int64)
            vals_a = np.zeros(0)
        # Chance states some decision leads to (closed under chance -> chance edges) first.
        used = np.zeros(m, dtype=bool)
        targets = ptr[:n_dec][~known[ptr[:n_dec]]]
        used[targets - n_dec] = True
        if self.c_chn.size:
            cc_r = self.e_src[self.c_chn] - n_dec
            cc_c = self.e_loc[self.c_chn] - n_dec
            while True:
                grow = used[cc_r] & ~used[cc_c]
                if not grow.any():
                    break
                used[cc_c[grow]] = True
        x = np.zeros(m)
        x0 = w[self.nodes[n_dec:]]
        for part in (used, ~used):
            idx = np.flatnonzero(part)
            if not idx.size:
                continue
            pos = np.full(m, -1, dtype=np.int64)
            pos[idx] = np.arange(idx.size)
            inside = part[rows_a] & part[cols_a]
            across = part[rows_a] & ~part[cols_a]  # into already solved chance states
            bb = b[idx].copy()
            ex = exits[idx].copy()
            if across.any():
                np.add.at(bb, pos[rows_a[across]], vals_a[across] * x[cols_a[across]])
                np.add.at(ex, pos[rows_a[across]], vals_a[across])
            P = sp.csr_matrix(
                (vals_a[inside], (pos[rows_a[inside]], pos[cols_a[inside]])), shape=(idx.size, idx.size)
            )
            x[idx] = _solve_absorbing(P, bb, ex, x0[idx], tolerance)
        values = np.zeros(n)
        values[n_dec:] = x
        t = ptr[:n_dec]
        values[:n_dec] = np.where(known[t], known_val[t], values[t])
        return values

    # -- cycles a player prefers to never leave ------------------------------------------------------
    def closing_trap(self, wl, w, choice, player, eps, eps_greedy):
        """Nodes of a largest set C of states worth less than a draw to ``player`` (player 0: w < 0;
        player 1: w > 0) where ``player`` has value-keeping moves staying in C, the opponent's
        value-keeping moves (player 1's fixed moves, when improving player 1) all stay in C and
        chance stays in C; with, for ``player``'s nodes in C, a move staying in C. None if empty."""
        n = self.n
        inside = np.zeros(n + 1, dtype=bool)
        inside[:n] = (wl < -eps) if player == 0 else (wl > eps)
        if not inside[self.n_max if player == 1 else 0 : self.n_dec if player == 1 else self.n_max].any():
            return None
        active = np.ones(len(self.e_dst), dtype=bool)
        forall = np.zeros(n + 1, dtype=bool)
        # The escaper's attractor to the outside of C.
        q0, best0, lo0, a0, b0 = self.best_moves(w, 0)
        q1, best1, lo1, a1, b1 = self.best_moves(w, 1)
        greedy0 = q0 >= best0[self.e_src[lo0 : lo0 + len(q0)] - a0] - eps_greedy
        greedy1 = q1 <= best1[self.e_src[lo1 : lo1 + len(q1)] - a1] + eps_greedy
        if player == 0:
            active[lo0 : lo0 + len(q0)] = greedy0  # player 0 must have a kept-value move inside: forall escapes
            active[lo1 : lo1 + len(q1)] = greedy1  # player 1 escapes with any kept-value move
            forall[: self.n_max] = True
        else:
            active[: self.e_max_end] = False
            active[choice[: self.n_max]] = True  # player 0's strategy is fixed
            active[lo1 : lo1 + len(q1)] = greedy1
            forall[self.n_max : self.n_dec] = True
        rank = attractor(n + 1, self.e_src, self.e_dst, active, forall, ~inside, self.rev_order)
        trap = inside & (rank < 0)
        trap = trap[:n]
        lo, hi = (0, self.n_max) if player == 0 else (self.n_max, self.n_dec)
        mine = np.flatnonzero(trap[lo:hi]) + lo
        if not mine.size:
            return None
        greedy = np.zeros(len(self.e_dst), dtype=bool)
        greedy[lo0 : lo0 + len(q0)] = greedy0
        greedy[lo1 : lo1 + len(q1)] = greedy1
        stay = greedy & (self.e_loc >= 0) & trap[np.maximum(self.e_loc, 0)]
        seg = self.e_src
        first = first_in_segment(stay, seg, n, self.e_ptr[:-1])
        new_choice = self.e_ptr[mine] + first[mine]
        return mine, new_choice

def solve_component(
    comp: Component, w: np.ndarray, eps: float, max_iterations: int, tally: _Tally, warm_start: bool = True
) -> None:
    """Solve one cyclic component in place in ``w`` (successors outside it are already solved)."""
    # Warm start: value iteration from the draw value (0, shifted).
    w[comp.nodes] = 0.0
    sweeps = 0
    while warm_start and sweeps < max_iterations:
        sweeps += 1
        if comp.sweep(w) <= eps:
            break
    tally.sweeps += sweeps
    tally.max_sweeps = max(tally.max_sweeps, sweeps)

    # Strategy iteration: player 0 improves against player 1's best response.
    choice = comp.greedy_choice(w) if warm_start else comp.e_ptr[: comp.n_dec].copy()
    steps = 0

    def improved(player: int, wl: np.ndarray) -> bool:
        nonlocal steps
        if not _improve(comp, w, wl, choice, player, eps, tally):
            return False
        steps += 1
        if steps > max_iterations:
            raise GameError(
                f"strategy iteration did not settle within {max_iterations} steps in a component of {comp.n:,} states"
            )
        return True

    while True:
        while True:  # player 1's best response to player 0's current strategy
            wl = comp.evaluate(choice, w, eps)
            w[comp.nodes] = wl
            tally.evaluations += 1
            if not improved(1, wl):
                break
        if not improved(0, wl):
            break


def _improve(comp: Component, w: np.ndarray, wl: np.ndarray, choice: np.ndarray, player: int, eps: float,
             tally: _Tally) -> bool:
    """One strategy-iteration step of ``player`` (0 raises player 0's values, 1 lowers them) on
    ``choice``, in place: a strictly better move (by more than ``eps / 2``) at every state of the
    player that has one; where none has, closing a cycle the player prefers to never leave
    (``wl``: the component's values under ``choice``). Returns whether the strategy changed."""
    q, best, lo, n_lo, n_hi = comp.best_moves(w, player)
    if n_hi == n_lo:  # the player has no state here
        return False
    improve = eps / 2
    current = w[comp.e_succ[choice[n_lo:n_hi]]]
    better = np.flatnonzero(best > current + improve if player == 0 else best < current - improve)
    if better.size:
        first = comp.first_best(q, best, lo, n_lo, n_hi)
        choice[n_lo + better] = comp.e_ptr[n_lo + better] + first[better]
    else:
        trap = comp.closing_trap(wl, w, choice, player, eps, eps)
        if trap is None:
            return False
        choice[trap[0]] = trap[1]
        tally.closings += 1
    tally.improvements += 1
    return True


__all__ = ["Component", "IterationCounts", "bellman", "solve_component", "solve_generations"]
