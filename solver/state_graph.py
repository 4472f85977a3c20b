"""The state graph of a game: every state reachable from a root, and its components in solving order.

:func:`build_graph` explores a position breadth first (states identified by ``game.key``) into a
:class:`StateGraph` of index arrays (successors in CSR form), which :mod:`dicetree.solver.strategy_iteration`
and :mod:`dicetree.solver.certificate` work on with vectorized steps; :func:`generations` splits it into
strongly connected components and orders them from the end of the game backwards, so that each
:class:`Generation` only waits on those before it::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> graph = build_graph(game, game.parse("d4:1/d4:3 a -/-"))
    >>> graph.num_states, [KIND_NAMES[k] for k in graph.kind[:2]]
    (50, ['max', 'chance'])
    >>> order, count = generations(graph)  # one cycle of 48 states (rerolls), and 2 ends of the game
    >>> count, [(len(g.singles), [len(c) for c in g.cyclic]) for g in order]
    (3, [(0, [48])])

The small helpers at the end (:func:`edge_ranges`, :func:`first_in_segment`, :func:`attractor`)
are the vectorized graph steps both of those modules use.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, TooManyOutcomes, check_game
from dicetree.solver.pov import PointOfView
from dicetree.solver.ranking import point_of_view

# Node kinds (a cyclic component's nodes are sorted by kind: maximizer, minimizer, chance).
MAX_NODE, MIN_NODE, CHANCE_NODE, TERMINAL_NODE = 0, 1, 2, 3
KIND_NAMES = ("max", "min", "chance", "terminal")


class StateGraph:
    """Every state reachable from a root, as index arrays (state ``i`` is ``states[i]``).

    ``kind[i]`` is one of MAX_NODE (player 0 decides), MIN_NODE (player 1 decides), CHANCE_NODE,
    TERMINAL_NODE. The out-edges of state ``i`` are ``indptr[i]:indptr[i + 1]`` in ``succ`` (the
    successor), ``prob`` (the outcome's probability at a chance state, 1 at a decision) and, by
    position, ``labels[i]`` (the actions, or the chance outcomes). ``ret0[i]`` is player 0's return
    at a terminal state (NaN elsewhere). ``pov`` turns player 0's values into player 1's.
    """

    def __init__(self, game, states, index, kind, indptr, succ, prob, labels, ret0, pov):
        self.game = game
        self.states: list[State] = states
        self.index: dict[Hashable, int] = index
        self.kind: np.ndarray = kind
        self.indptr: np.ndarray = indptr
        self.succ: np.ndarray = succ
        self.prob: np.ndarray = prob
        self.labels: list[Sequence[Action]] = labels
        self.ret0: np.ndarray = ret0
        self.pov: PointOfView = pov
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
        graph: nx.MultiDiGraph[int] = nx.MultiDiGraph()
        for i, state in enumerate(self.states):
            attrs = {"state": state, "kind": KIND_NAMES[self.kind[i]]}
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
    sampled, for games that are not one-player or two-player constant-sum, and where a state
    contradicts that (players choosing at once, returns that do not add up to the constant).
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
    pov = point_of_view(game)
    returns_sum = sums.pop() if sums else None
    if returns_sum is not None and abs(returns_sum - pov.constant) > 1e-9:
        raise GameError(f"the returns add up to {returns_sum:g}, but {game.game_type.long_name} declares {pov.constant:g}")
    n = len(states)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.asarray(counts, dtype=np.int64), out=indptr[1:])
    r0 = np.full(n, np.nan)
    if ret0:
        r0[np.fromiter(ret0.keys(), dtype=np.int64)] = np.fromiter(ret0.values(), dtype=float)
    return StateGraph(
        game, states, index, np.asarray(kind, dtype=np.int8), indptr, np.asarray(succ, dtype=np.int64),
        np.asarray(prob, dtype=float), labels, r0, pov,
    )


def _describe(game: Game, state: State) -> str:
    try:
        return game.format(state)
    except Exception:  # noqa: BLE001 - a toy game may not format every state, and a label is only a label
        return repr(state)


@dataclass(frozen=True)
class Generation:
    """States that can be solved together once every earlier generation is: ``singles`` lie on no
    cycle (one Bellman step each, in one vectorized batch), ``cyclic`` holds the members of each
    strongly connected component with a cycle (solved by strategy iteration)."""

    singles: np.ndarray
    cyclic: tuple[np.ndarray, ...]


def generations(graph: StateGraph) -> tuple[list[Generation], int]:
    """The graph's non-terminal states as generations of the condensation (networkx), taken from the
    end of the game so that a generation depends only on earlier ones; and the number of
    components (every terminal state counts as one)."""
    n = graph.num_states
    terminal = graph.kind == TERMINAL_NODE
    nonterminal = np.flatnonzero(~terminal)
    edge_mask = ~terminal[graph.succ]
    scc_graph: nx.DiGraph[int] = nx.DiGraph()
    scc_graph.add_nodes_from(nonterminal.tolist())
    pairs = np.unique(graph.src[edge_mask] * n + graph.succ[edge_mask])
    scc_graph.add_edges_from(zip((pairs // n).tolist(), (pairs % n).tolist()))
    components = list(nx.strongly_connected_components(scc_graph))
    condensed = nx.condensation(scc_graph, components)
    order = list(nx.topological_generations(condensed.reverse(copy=False)))
    cyclic_ids = {
        c for c, members in enumerate(components)
        if len(members) > 1 or scc_graph.has_edge(next(iter(members)), next(iter(members)))
    }
    result = []
    for generation in order:
        singles = [next(iter(components[c])) for c in generation if c not in cyclic_ids]
        cyclic = tuple(np.fromiter(components[c], dtype=np.int64) for c in generation if c in cyclic_ids)
        result.append(Generation(np.asarray(singles, dtype=np.int64), cyclic))
    return result, len(components) + int(terminal.sum())


# ----- small vectorized helpers --------------------------------------------------------------------
def edge_ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + l)`` for every pair."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(np.asarray(starts, dtype=np.int64) - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(total, dtype=np.int64)


def attractor(n, src, dst, active, forall, target, rev_order):
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
        edges = act[edge_ranges(starts, rev_ptr[frontier + 1] - starts)]
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


def first_in_segment(mask, seg_of_edge, num_segments, seg_start):
    """Per segment: the offset (from the segment start) of its first True edge, -1 if none."""
    edges = np.flatnonzero(mask)
    first = np.full(num_segments, -1, dtype=np.int64)
    segs, where = np.unique(seg_of_edge[edges], return_index=True)
    first[segs] = edges[where] - seg_start[segs]
    return first


__all__ = [
    "CHANCE_NODE", "KIND_NAMES", "MAX_NODE", "MIN_NODE", "TERMINAL_NODE", "Generation", "StateGraph", "attractor",
    "build_graph", "edge_ranges", "first_in_segment", "generations",
]
