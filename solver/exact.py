"""Exact values of games whose state graph has cycles (a reroll can bring back a position).

Depth-limited search never gives exact values when positions recur. :func:`solve` builds every
state reachable from a root, splits the graph into strongly connected components and solves them
from the end of the game backwards, so each component only waits on components already solved.

Usage::

    >>> from solver.games import load_game
    >>> game = load_game("rolldown")
    >>> solution = solve(game, game.parse("d4:1/d4:3 a -/-"))
    >>> round(solution.value(solution.root), 12)  # 1/7: see tests/test_exact.py for the algebra
    0.142857142857
    >>> [(m.name, round(m.value, 6), m.tied) for m in solution.move_values(solution.root)]
    [('roll a.d4', 0.142857, True), ('roll b.d4', 0.0, False)]
    >>> game.action_name(solution.root, solution.best_action(solution.root))
    'roll a.d4'
    >>> solution.principal_line()  # recommended moves, following the likeliest chance outcome
    ['roll a.d4', '(a.d4=1)', 'd4xd4']
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
  are optimal (the attractor conditions below hold).

A component that is a single state without a self-loop is solved in one step, in batches: all
states whose successors are all solved are handled in one vectorized step.

Certificate
-----------
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
probability 0 (both sides prefer, or must accept, going round forever); they are worth ``D``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.sparse.linalg import bicgstab, gmres, spsolve

from solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, TooManyOutcomes, check_game

# Node kinds inside the solver (a component's nodes are sorted by kind: maximizer, minimizer, chance).
MAX_NODE, MIN_NODE, CHANCE_NODE, TERMINAL_NODE = 0, 1, 2, 3

#: Exact policy evaluation: Jacobi steps tried first, and the largest system a sparse LU may factor
#: when the iterative solvers fall short (LU fill-in grows fast on dice graphs).
JACOBI_STEPS = 200
DIRECT_SOLVE_LIMIT = 60_000


# ----- public results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveValue:
    """One legal move at a decision state, valued from the mover's point of view."""

    action: Action
    name: str
    value: float
    loss: float  # how much worse than the best move (0 for tied moves, up to rounding)
    tied: bool  # within the tie tolerance of the best move
    recommended: bool  # the move :meth:`ExactSolution.best_action` returns


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


# ----- the state graph --------------------------------------------------------------------------------
class StateGraph:
    """Every state reachable from a root, as index arrays (state ``i`` is ``states[i]``).

    ``kind[i]`` is one of MAX_NODE (player 0 decides), MIN_NODE (player 1 decides), CHANCE_NODE,
    TERMINAL_NODE. The out-edges of state ``i`` are ``indptr[i]:indptr[i + 1]`` in ``succ`` (the
    successor), ``prob`` (the outcome's probability at a chance state, 1 at a decision) and, by
    position, ``labels[i]`` (the actions, or the chance outcomes). ``ret0[i]`` is player 0's return
    at a terminal state (NaN elsewhere).
    """

    def __init__(self, game, states, index, kind, indptr, succ, prob, labels, ret0, constant_sum):
        self.game = game
        self.states: list[State] = states
        self.index: dict[Hashable, int] = index
        self.kind: np.ndarray = kind
        self.indptr: np.ndarray = indptr
        self.succ: np.ndarray = succ
        self.prob: np.ndarray = prob
        self.labels: list[Sequence[Action]] = labels
        self.ret0: np.ndarray = ret0
        self.constant_sum: float = constant_sum  # player 0's return + player 1's (two players)
        self.src: np.ndarray = np.repeat(np.arange(len(states), dtype=np.int64), np.diff(indptr))

    @property
    def num_states(self) -> int:
        return len(self.states)

    @property
    def num_edges(self) -> int:
        return len(self.succ)

    def node(self, state: State) -> int:
        """The index of ``state``; :class:`GameError` if it was not reached from the root."""
        i = self.index.get(self.game.key(state))
        if i is None:
            raise GameError("this state is not reachable from the solved root")
        return i

    def to_networkx(self) -> nx.MultiDiGraph:
        """The graph with its data: nodes carry ``state``, ``kind`` (and ``returns0`` at terminals),
        edges ``action`` and ``probability`` (a decision's edges have probability 1)."""
        graph = nx.MultiDiGraph()
        for i, state in enumerate(self.states):
            attrs = {"state": state, "kind": ("max", "min", "chance", "terminal")[self.kind[i]]}
            if self.kind[i] == TERMINAL_NODE:
                attrs["returns0"] = float(self.ret0[i])
            graph.add_node(i, **attrs)
        for i in range(self.num_states):
            for k, e in enumerate(range(self.indptr[i], self.indptr[i + 1])):
                graph.add_edge(i, int(self.succ[e]), action=self.labels[i][k], probability=float(self.prob[e]))
        return graph


def build_graph(game: Game, root: State, max_states: int = 2_000_000) -> StateGraph:
    """Explore every state reachable from ``root`` (breadth first, states identified by ``game.key``).

    Raises :class:`GameError` beyond ``max_states`` states, at a chance state that can only be
    sampled, at a simultaneous-move state, and for games that are not one-player or two-player
    constant-sum.
    """
    check_game(game, "exact solving", turns=True)
    key = game.key
    current_player = game.current_player
    apply = game.apply
    num_players = game.num_players
    states: list[State] = [root]
    index: dict[Hashable, int] = {key(root): 0}
    kind: list[int] = []
    counts: list[int] = []
    succ: list[int] = []
    prob: list[float] = []
    labels: list[Sequence[Action]] = []
    ret0: dict[int, float] = {}
    sums: set[float] = set()
    i = 0
    while i < len(states):
        state = states[i]
        player = current_player(state)
        if player == TERMINAL:
            returns = game.returns(state)
            ret0[i] = float(returns[0])
            if num_players == 2:
                sums.add(round(float(returns[0]) + float(returns[1]), 9))
            kind.append(TERMINAL_NODE)
            counts.append(0)
            labels.append(())
            i += 1
            continue
        if player == CHANCE:
            try:
                outcomes = game.chance_outcomes(state)
            except TooManyOutcomes as error:
                raise GameError(
                    f"a chance state cannot be listed exactly ({error}); exact solving needs every outcome: "
                    f"{_describe(game, state)}"
                ) from error
            if not outcomes:
                raise GameError(f"a chance state has no outcomes: {_describe(game, state)}")
            actions = [outcome for outcome, _ in outcomes]
            probabilities = [float(p) for _, p in outcomes]
            total = math.fsum(probabilities)
            if abs(total - 1.0) > 1e-9 or min(probabilities) < 0:
                raise GameError(f"chance probabilities sum to {total!r}, not 1: {_describe(game, state)}")
            kind.append(CHANCE_NODE)
        elif player == SIMULTANEOUS:
            raise GameError(
                f"a simultaneous-move state is reachable ({_describe(game, state)}): exact solving handles "
                "turn-based games only"
            )
        elif 0 <= player < num_players:
            actions = list(game.legal_actions(state))
            if not actions:
                raise GameError(f"a non-terminal state has no legal actions: {_describe(game, state)}")
            probabilities = [1.0] * len(actions)
            kind.append(MAX_NODE if player == 0 else MIN_NODE)
        else:
            raise GameError(f"current_player returned {player}, which is no player of this game")
        for action in actions:
            child = apply(state, action)
            k = key(child)
            j = index.get(k)
            if j is None:
                j = len(states)
                index[k] = j
                states.append(child)
                if j >= max_states:
                    raise GameError(
                        f"more than {max_states:,} states are reachable: found {j + 1:,} states "
                        f"({i + 1:,} of them explored) before stopping; raise max_states or solve a smaller position"
                    )
            succ.append(j)
        prob.extend(probabilities)
        counts.append(len(actions))
        labels.append(actions)
        i += 1
    if len(sums) > 1:
        raise GameError(f"the returns are not constant-sum (player 0 + player 1 takes {len(sums)} values)")
    bounds = game.value_bounds()
    constant_sum = sums.pop() if sums else bounds.low + bounds.high
    n = len(states)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.asarray(counts, dtype=np.int64), out=indptr[1:])
    r0 = np.full(n, np.nan)
    if ret0:
        r0[np.fromiter(ret0.keys(), dtype=np.int64)] = np.fromiter(ret0.values(), dtype=float)
    return StateGraph(
        game, states, index, np.asarray(kind, dtype=np.int8), indptr, np.asarray(succ, dtype=np.int64),
        np.asarray(prob, dtype=float), labels, r0, float(constant_sum),
    )


def _describe(game: Game, state: State) -> str:
    try:
        return game.format(state)
    except Exception:  # a toy game may not format every state
        return repr(state)


# ----- small vectorized helpers --------------------------------------------------------------------
def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + l)`` for every pair."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(np.asarray(starts, dtype=np.int64) - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total, dtype=np.int64)


def _attractor(n, src, dst, active, forall, target, rev_order):
    """Attractor ranks on a graph of ``n`` nodes (edges ``src -> dst``, ``rev_order`` = edges sorted
    by ``dst``): rank 0 at ``target``; an existential node gets rank r + 1 once one of its ``active``
    edges reaches a node of rank r, a universal (``forall``) node once all of its active edges
    reach ranked nodes. -1 where the target cannot be forced."""
    rank = np.full(n, -1, dtype=np.int64)
    rank[target] = 0
    act = rev_order[active[rev_order]]
    rev_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst[act], minlength=n), out=rev_ptr[1:])
    out_active = np.bincount(src[active], minlength=n)
    need = np.where(forall, out_active, 1).astype(np.int64)
    need[out_active == 0] = np.iinfo(np.int64).max  # no usable move: never attracted
    frontier = np.flatnonzero(target)
    r = 0
    while frontier.size:
        starts = rev_ptr[frontier]
        edges = act[_ranges(starts, rev_ptr[frontier + 1] - starts)]
        preds = src[edges]
        preds = preds[rank[preds] < 0]
        if not preds.size:
            break
        nodes, hits = np.unique(preds, return_counts=True)
        need[nodes] -= hits
        frontier = nodes[need[nodes] <= 0]
        r += 1
        rank[frontier] = r
    return rank


def _segment_best(values, starts, maximize):
    """Per segment (``starts`` into ``values``): the best value."""
    if maximize:
        return np.maximum.reduceat(values, starts)
    return np.minimum.reduceat(values, starts)


def _first_in_segment(mask, seg_of_edge, num_segments, seg_start):
    """Per segment: the offset (from the segment start) of its first True edge, -1 if none."""
    edges = np.flatnonzero(mask)
    first = np.full(num_segments, -1, dtype=np.int64)
    segs, where = np.unique(seg_of_edge[edges], return_index=True)
    first[segs] = edges[where] - seg_start[segs]
    return first


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
class _Component:
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
        edges = _ranges(starts, lens)
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

    def greedy_choice(self, w: np.ndarray) -> np.ndarray:
        """A best edge (local edge index) for every decision node."""
        choice = np.zeros(self.n_dec, dtype=np.int64)
        for player in (0, 1):
            q, best, lo, n_lo, n_hi = self.best_moves(w, player)
            if n_hi == n_lo:
                continue
            seg = self.e_src[lo : lo + len(q)] - n_lo
            first = _first_in_segment(q == best[seg], seg, n_hi - n_lo, self.e_ptr[n_lo:n_hi] - lo)
            choice[n_lo:n_hi] = self.e_ptr[n_lo:n_hi] + first
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
        rank = _attractor(n + 1, self.e_src, self.e_dst, active, forall, ~inside, self.rev_order)
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
        first = _first_in_segment(stay, seg, n, self.e_ptr[:-1])
        new_choice = self.e_ptr[mine] + first[mine]
        return mine, new_choice


# ----- the solution -------------------------------------------------------------------------------------
class ExactSolution:
    """Exact values of every state reachable from ``root`` (see :func:`solve`).

    ``value(state)`` is player 0's value; :meth:`move_values` gives every legal move's value from
    the mover's view, best first, ties flagged; :meth:`best_action` the recommended move.
    """

    def __init__(self, graph, root, w, draw, choice, never, certificate, iterations, num_components,
                 largest_component, tie_tolerance, tolerance, timings):
        self.game: Game = graph.game
        self.graph: StateGraph = graph
        self.root: State = root
        self.draw_value: float = draw
        self._w = w
        self._choice = choice  # recommended edge (global index) per decision node, -1 elsewhere
        self._never = never
        self.residual: float = certificate["residual"]
        self.policy_error: float = certificate["policy_error"]
        self.attractor_conditions: bool = certificate["attractor"]
        self.never_ending_error: float = certificate["never_ending_error"]
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
        return (
            self.residual <= self.tolerance
            and self.attractor_conditions
            and self.policy_error <= max(self.tolerance, 1e-12)
            and self.never_ending_error <= self.tolerance
        )

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
        v = self.value(state)
        return v if player == 0 else self.graph.constant_sum - v

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
        values = self.draw_value + self._w[graph.succ[lo:hi]]
        if mover == 1:
            values = graph.constant_sum - values
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
        chance outcome, as move names (chance outcomes shown as ``(name)``)."""
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
                line.append(f"({self.game.action_name(state, action)})")
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

    >>> from solver.games import load_game
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
    n = graph.num_states
    w = np.zeros(n)
    terminal = graph.kind == TERMINAL_NODE
    w[terminal] = graph.ret0[terminal] - draw

    # Strongly connected components (networkx) and their order: generations of the condensation
    # taken from the end of the game, so a generation depends only on earlier ones.
    started = time.perf_counter()
    nonterminal = np.flatnonzero(~terminal)
    edge_mask = ~terminal[graph.succ]
    scc_graph = nx.DiGraph()
    scc_graph.add_nodes_from(nonterminal.tolist())
    pairs = np.unique(graph.src[edge_mask] * n + graph.succ[edge_mask])
    scc_graph.add_edges_from(zip((pairs // n).tolist(), (pairs % n).tolist()))
    components = list(nx.strongly_connected_components(scc_graph))
    condensed = nx.condensation(scc_graph, components)
    generations = list(nx.topological_generations(condensed.reverse(copy=False)))
    cyclic_ids = {
        c for c, members in enumerate(components)
        if len(members) > 1 or scc_graph.has_edge(next(iter(members)), next(iter(members)))
    }
    del scc_graph, condensed
    timings["components"] = time.perf_counter() - started

    # Solve generation by generation.
    started = time.perf_counter()
    local_of = np.full(n, -1, dtype=np.int64)
    num_cyclic = 0
    counts = {"sweeps": 0, "max_sweeps": 0, "evaluations": 0, "improvements": 0, "closings": 0}
    largest = 1
    levels: list[tuple[np.ndarray, list[_Component]]] = []
    for generation in generations:
        singles = []
        cyclic = []
        for c in generation:
            members = components[c]
            if c in cyclic_ids:
                comp = _Component(graph, np.fromiter(members, dtype=np.int64), local_of)
                largest = max(largest, comp.n)
                cyclic.append(comp)
            else:
                singles.append(next(iter(members)))
        singles_arr = np.asarray(singles, dtype=np.int64)
        if singles_arr.size:
            w[singles_arr] = _bellman(graph, w, singles_arr)
        for comp in cyclic:
            _solve_component(comp, w, eps, max_iterations, counts, warm_start)
            num_cyclic += 1
        levels.append((singles_arr, cyclic))
    timings["solve"] = time.perf_counter() - started

    # Recommended moves (progress among tied moves), never-ending states and the certificate.
    started = time.perf_counter()
    choice, attractor_ok = _recommend(graph, w, tie)
    never = _never_ending(graph, choice)
    policy_values = w.copy()  # terminals as they are; the rest recomputed, warm-started from w
    for singles_arr, cyclic in levels:
        if singles_arr.size:
            policy_values[singles_arr] = _policy_step(graph, policy_values, singles_arr, choice)
        for comp in cyclic:
            deciders = comp.nodes[: comp.n_dec]
            local_choice = choice[deciders] - graph.indptr[deciders] + comp.e_ptr[: comp.n_dec]
            policy_values[comp.nodes] = comp.evaluate(local_choice, policy_values, eps)
    certificate = {
        "residual": float(np.abs(_bellman(graph, w, nonterminal) - w[nonterminal]).max()) if nonterminal.size else 0.0,
        "policy_error": float(np.abs(policy_values - w).max()),
        "attractor": attractor_ok,
        "never_ending_error": float(np.abs(w[never]).max()) if never.any() else 0.0,
    }
    timings["certify"] = time.perf_counter() - started
    iterations = IterationCounts(
        cyclic_components=num_cyclic, sweeps=counts["sweeps"], max_sweeps=counts["max_sweeps"],
        evaluations=counts["evaluations"], improvements=counts["improvements"], cycle_closings=counts["closings"],
    )
    return ExactSolution(
        graph, root, w, draw, choice, never, certificate, iterations, len(components) + int(terminal.sum()),
        largest, tie, tolerance, timings,
    )


def _bellman(graph: StateGraph, w: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """(T w) at ``nodes`` (non-terminal): max, min or expectation over their successors."""
    starts = graph.indptr[nodes]
    lens = graph.indptr[nodes + 1] - starts
    edges = _ranges(starts, lens)
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
        edges = _ranges(starts, lens)
        seg = np.zeros(len(chance) + 1, dtype=np.int64)
        np.cumsum(lens, out=seg[1:])
        out[~decision] = np.add.reduceat(graph.prob[edges] * values[graph.succ[edges]], seg[:-1])
    return out


def _solve_component(
    comp: _Component, w: np.ndarray, eps: float, max_iterations: int, counts: dict, warm_start: bool = True
) -> None:
    """Solve one cyclic component in place in ``w`` (successors outside it are already solved)."""
    # Warm start: value iteration from the draw value (0, shifted).
    w[comp.nodes] = 0.0
    sweeps = 0
    while warm_start and sweeps < max_iterations:
        sweeps += 1
        if comp.sweep(w) <= eps:
            break
    counts["sweeps"] += sweeps
    counts["max_sweeps"] = max(counts["max_sweeps"], sweeps)

    # Strategy iteration: player 0 improves against player 1's best response.
    choice = comp.greedy_choice(w) if warm_start else comp.e_ptr[: comp.n_dec].copy()
    improve = eps / 2
    steps = 0

    def check_steps():
        if steps > max_iterations:
            raise GameError(
                f"strategy iteration did not settle within {max_iterations} steps in a component of {comp.n:,} states"
            )

    while True:
        while True:  # player 1's best response to player 0's current strategy
            wl = comp.evaluate(choice, w, eps)
            w[comp.nodes] = wl
            counts["evaluations"] += 1
            if comp.n_dec == comp.n_max:
                break
            q, best, lo, n_lo, n_hi = comp.best_moves(w, 1)
            current = w[comp.e_succ[choice[n_lo:n_hi]]]
            better = np.flatnonzero(best < current - improve)
            if better.size:
                seg = comp.e_src[lo : lo + len(q)] - n_lo
                first = _first_in_segment(q == best[seg], seg, n_hi - n_lo, comp.e_ptr[n_lo:n_hi] - lo)
                choice[n_lo + better] = comp.e_ptr[n_lo + better] + first[better]
                counts["improvements"] += 1
                steps += 1
                check_steps()
                continue
            trap = comp.closing_trap(wl, w, choice, 1, eps, eps)
            if trap is None:
                break
            choice[trap[0]] = trap[1]
            counts["improvements"] += 1
            counts["closings"] += 1
            steps += 1
            check_steps()
        if comp.n_max == 0:
            break
        q, best, lo, n_lo, n_hi = comp.best_moves(w, 0)
        current = w[comp.e_succ[choice[:n_hi]]]
        better = np.flatnonzero(best > current + improve)
        if better.size:
            seg = comp.e_src[lo : lo + len(q)]
            first = _first_in_segment(q == best[seg], seg, n_hi, comp.e_ptr[:n_hi])
            choice[better] = comp.e_ptr[better] + first[better]
            counts["improvements"] += 1
            steps += 1
            check_steps()
            continue
        trap = comp.closing_trap(wl, w, choice, 0, eps, eps)
        if trap is None:
            break
        choice[trap[0]] = trap[1]
        counts["improvements"] += 1
        counts["closings"] += 1
        steps += 1
        check_steps()


def _recommend(graph: StateGraph, w: np.ndarray, tie: float):
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
    r_max = _attractor(n, graph.src, graph.succ, greedy, kind == MIN_NODE, terminal, rev_order)
    r_min = _attractor(n, graph.src, graph.succ, greedy, kind == MAX_NODE, terminal, rev_order)
    r_coop = _attractor(n, graph.src, graph.succ, greedy, np.zeros(n, dtype=bool), terminal, rev_order)
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
        first = _first_in_segment(hit, graph.src, n, graph.indptr[:-1])
        choice[dec_nodes] = graph.indptr[dec_nodes] + first[dec_nodes]
    return choice, attractor_ok


def _never_ending(graph: StateGraph, choice: np.ndarray) -> np.ndarray:
    """States from which the recommended play reaches no terminal state (probability 0)."""
    n = graph.num_states
    active = graph.kind[graph.src] == CHANCE_NODE
    chosen = choice[choice >= 0]
    active[chosen] = True
    rev_order = np.argsort(graph.succ, kind="stable")
    rank = _attractor(n, graph.src, graph.succ, active, np.zeros(n, dtype=bool), graph.kind == TERMINAL_NODE, rev_order)
    return rank < 0


__all__ = ["ExactSolution", "IterationCounts", "MoveValue", "StateGraph", "build_graph", "solve"]
