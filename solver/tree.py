"""Decision trees: the tree the solver sees below a position, as a networkx graph to draw.

:func:`build_tree` unfolds the game from a position ``depth`` decisions deep (chance events do not
count, as in :mod:`dicetree.solver.search`) and labels every node with its value. The values come from the
depth-limited search (:class:`~dicetree.solver.search.Searcher`: a node with ``d`` decisions left has the
value of a depth-``d`` search, so its leaves are the game's evaluation) or, with ``exact=True``,
from :func:`dicetree.solver.exact.solve` (every value exact, leaves included).

What the tree shows, kept readable:

* a **decision node** shows the position, the player to move and the value; each of its moves is
  an edge to the position after it, ranked: the best move's edge stands out, the others carry
  their loss against it (from the mover's view); ``top`` keeps the K best moves;
* a **chance node** shows its mean value; outcomes whose values agree to the ``decimals`` shown
  are grouped into one edge with their summed probability (the subtree below a group is that of
  its likeliest outcome), and groups rarer than ``min_prob`` are folded into one "other" edge
  (where every group is that rare, the likeliest one is still drawn);
* **leaves** are the horizon (a decision with no depth left: an estimate, or exact with
  ``exact=True``), the game's end, and the folded "other" outcomes.

Values on nodes are player 0's (A's), so colours compare across the whole tree; a move's loss is
the mover's. :mod:`dicetree.solver.render` draws the graph with Graphviz.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> tree = build_tree(game, game.parse("d8:5/d6:3 a -/-"), TreeOptions(depth=1, top=2))
    >>> root = tree.graph.nodes[tree.root]
    >>> root["kind"], root["player"], root["value"]
    ('decision', 0, 1.0)
    >>> [(d["name"], d["best"]) for _, _, d in tree.out_edges(tree.root)]
    [('d8xd6', True), ('roll b.d6', False)]
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from dicetree.solver.chance import chance_distribution
from dicetree.solver.exact import solve
from dicetree.solver.game import CHANCE, TERMINAL, Action, Game, GameError, State, check_game
from dicetree.solver.ranking import MoveValue, point_of_view
from dicetree.solver.search import Searcher

# Node kinds (the ``kind`` attribute of every node of :attr:`DecisionTree.graph`).
DECISION = "decision"  # a player decides; its moves are expanded
CHANCE_NODE = "chance"  # chance decides; its outcome groups are expanded
HORIZON = "horizon"  # a decision with no depth left: a leaf with its (estimated) value
END = "end"  # the game is over
OTHER = "other"  # the folded rare outcomes of a chance node (not expanded)

# Edge kinds.
MOVE = "move"
OUTCOME = "outcome"
OTHER_OUTCOMES = "other"

EXACT_MAX_STATES = 200_000
"""The largest state graph ``--exact`` solves for a tree (about 20 s on one core)."""


@dataclass(frozen=True)
class TreeOptions:
    """How much of the tree to build.

    ``depth`` decisions deep (chance events do not count); ``top`` best moves kept per decision
    (None: all); outcome groups below ``min_prob`` folded into "other" (0: none folded); values
    grouped and shown to ``decimals`` places; ``exact`` takes values from the exact solver (up to
    ``max_states`` states) instead of the search; ``seed`` and ``chance_samples`` are the search's
    for chance nodes too large to list.
    """

    depth: int = 2
    top: int | None = 2
    min_prob: float = 0.15
    exact: bool = False
    decimals: int = 3
    max_states: int = EXACT_MAX_STATES
    seed: int = 0
    chance_samples: int = 64

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise GameError(f"the tree depth must be at least 1, not {self.depth}")
        if self.top is not None and self.top < 1:
            raise GameError(f"--top must be at least 1, not {self.top}")
        if not 0 <= self.min_prob < 1:
            raise GameError(f"--min-prob must be in [0, 1), not {self.min_prob}")
        if not 0 <= self.decimals <= 12:
            raise GameError(f"decimals must be between 0 and 12, not {self.decimals}")


@dataclass
class DecisionTree:
    """A built tree: ``graph`` (a networkx DiGraph whose nodes are ints, ``root`` the first) and
    what a drawing needs to explain it.

    Node attributes: ``kind`` (see the module constants), ``value`` (player 0's), ``player`` (who
    decides; -1 at chance and leaves), ``position`` (the position string), ``depth`` (decisions
    left), and for decisions ``shown``/``moves`` (moves drawn, legal moves), for "other" nodes
    ``count`` (outcomes folded). Edge attributes: ``kind``; ``name`` (the move, or the outcomes'
    short label), ``value`` (player 0's value after it); moves: ``loss``, ``best``, ``tied``,
    ``rank``; outcomes: ``probability``, ``outcomes`` (every outcome's name), ``sampled``.
    """

    graph: nx.DiGraph
    root: int
    game_name: str
    position: str
    options: TreeOptions
    method: str
    value_meaning: str
    low: float
    high: float
    notes: list[str] = field(default_factory=list)
    players: tuple[str, ...] = ("A", "B")  # the players' names (Game.player_name), one in a one-player game

    def out_edges(self, node: int) -> Iterator[tuple[int, int, dict[str, Any]]]:
        """The edges out of ``node`` in drawing order (best move / highest value first)."""
        return iter(sorted(self.graph.out_edges(node, data=True), key=lambda e: e[2]["order"]))

    def count(self, kind: str) -> int:
        return sum(1 for _, data in self.graph.nodes(data=True) if data["kind"] == kind)

    def summary(self) -> str:
        """One line: how many nodes of each kind."""
        kinds = [(DECISION, "decisions"), (CHANCE_NODE, "chance nodes"), (HORIZON, "horizon leaves"),
                 (END, "game ends"), (OTHER, "folded groups")]
        parts = [f"{self.count(kind)} {name}" for kind, name in kinds if self.count(kind)]
        return f"{self.graph.number_of_nodes()} nodes ({', '.join(parts)})"


# ----- where values come from ------------------------------------------------------------------
class _SearchValues:
    """Values of a depth-limited search: a node with ``d`` decisions left is worth what a
    depth-``d`` :class:`Searcher` search (the same as :func:`~dicetree.solver.search.expectimax`) says."""

    def __init__(self, game: Game, options: TreeOptions):
        self.game = game
        self.searcher = Searcher(game, cache_slots=2**18, seed=options.seed, chance_samples=options.chance_samples)
        self.samples, self.seed = options.chance_samples, options.seed
        self.pov = point_of_view(game)
        self._moves: dict[tuple[Hashable, int], list[MoveValue]] = {}
        self._values: dict[tuple[Hashable, int], float] = {}
        self.sampled = False  # a chance node too large to list was met (and sampled)

    def moves(self, state: State, depth: int) -> list[MoveValue]:
        """Every legal move with its value (the mover's) at ``depth`` decisions, best first."""
        key = (self.game.key(state), depth)
        if key not in self._moves:
            self._moves[key] = self.searcher.search(state, depth=depth).moves
        return self._moves[key]

    def outcomes(self, state: State) -> tuple[list[tuple[Action, float]], bool]:
        """The chance node's outcomes with their weights, and whether they are a sample."""
        outcomes, count = chance_distribution(self.game, state, self.samples, self.seed)
        sampled = count > self.game.exact_chance_limit
        self.sampled = self.sampled or sampled
        return outcomes, sampled

    def value(self, state: State, depth: int) -> float:
        """Player 0's value of any node with ``depth`` decisions left."""
        game = self.game
        player = game.current_player(state)
        if player == TERMINAL:
            return float(game.returns(state)[0])
        if player >= 0 and depth == 0:
            return float(game.evaluate(state, 0))
        key = (game.key(state), depth)
        if key not in self._values:
            if player == CHANCE:
                outcomes, _ = self.outcomes(state)
                value = math.fsum(p * self.value(game.apply(state, o), depth) for o, p in outcomes)
            else:
                value = self.pov.view(self.moves(state, depth)[0].value, seen_by=player, player=0)
            self._values[key] = value
        return self._values[key]


class _ExactValues:
    """Exact values of every state reachable from the root (:func:`dicetree.solver.exact.solve`)."""

    def __init__(self, game: Game, root: State, options: TreeOptions):
        self.game = game
        try:
            self.solution = solve(game, root, max_states=options.max_states)
        except GameError as error:
            raise GameError(f"--exact cannot solve this position: {error}") from None
        self.sampled = False

    def moves(self, state: State, depth: int) -> list[MoveValue]:
        return self.solution.move_values(state)

    def outcomes(self, state: State) -> tuple[list[tuple[Action, float]], bool]:
        return [(o, p) for o, p, _ in self.solution.outcome_values(state)], False

    def value(self, state: State, depth: int) -> float:
        return self.solution.value(state)


# ----- building ----------------------------------------------------------------------------------
def build_tree(game: Game, state: State, options: TreeOptions | None = None) -> DecisionTree:
    """The decision tree below ``state`` (a decision by a player, no hidden information)."""
    options = options or TreeOptions()
    check_game(game, "a decision tree", turns=True)
    if game.current_player(state) == TERMINAL:
        raise GameError(f"the game is over at '{game.format(state)}': there is no tree to draw")
    deals = game.determinize(state, max_exact=1, samples=1)
    if len(deals.states) > 1 or deals.description:
        raise GameError(
            f"'{game.format(state)}' hides cards: a tree needs every card known (write the hands out; "
            "`dicetree best` averages over hidden hands)"
        )
    source = _ExactValues(game, state, options) if options.exact else _SearchValues(game, options)
    bounds = game.value_bounds()
    builder = _Builder(game, source, options)
    root = builder.add(state, options.depth)
    if isinstance(source, _ExactValues):  # options.exact
        method = (f"exact values ({source.solution.num_states:,} states solved); "
                  f"{options.depth} decisions drawn")
    else:
        method = f"search depth {options.depth} (leaves are the game's evaluation)"
    notes = []
    if source.sampled:
        notes.append(f"chance nodes with more than {game.exact_chance_limit:,} outcomes are drawn from "
                     f"{options.chance_samples} samples (seed {options.seed})")
    return DecisionTree(
        graph=builder.graph, root=root, game_name=game.name, position=game.format(state), options=options,
        method=method, value_meaning=game.describe_value(), low=float(bounds.low), high=float(bounds.high),
        notes=notes, players=tuple(game.player_name(p) for p in range(game.num_players)),
    )


class _Builder:
    """Adds nodes depth first; node ids are consecutive ints in drawing order."""

    def __init__(self, game: Game, source: _SearchValues | _ExactValues, options: TreeOptions):
        self.game, self.source, self.options = game, source, options
        self.graph: nx.DiGraph[int] = nx.DiGraph()

    def _node(self, **attrs: Any) -> int:
        node = self.graph.number_of_nodes()
        self.graph.add_node(node, **attrs)
        return node

    def add(self, state: State, depth: int) -> int:
        """The subtree of ``state`` with ``depth`` decisions left; returns its node."""
        game = self.game
        player = game.current_player(state)
        position = game.format(state)
        common = {"position": position, "depth": depth}
        if player == TERMINAL:
            return self._node(kind=END, value=float(game.returns(state)[0]), player=-1, **common)
        if player == CHANCE:
            return self._chance(state, depth, common)
        if depth == 0:
            return self._node(kind=HORIZON, value=self.source.value(state, 0), player=player, **common)
        moves = self.source.moves(state, depth)
        kept = moves if self.options.top is None else moves[: self.options.top]
        node = self._node(kind=DECISION, value=self.source.value(state, depth), player=player, shown=len(kept),
                          moves=len(moves), **common)
        for rank, move in enumerate(kept):
            child = self.add(game.apply(state, move.action), depth - 1)
            self.graph.add_edge(
                node, child, kind=MOVE, name=move.name, value=self.graph.nodes[child]["value"],
                loss=move.loss, best=rank == 0, tied=rank > 0 and move.tied, rank=rank, order=rank,
            )
        return node

    def _chance(self, state: State, depth: int, common: dict[str, Any]) -> int:
        game, source, decimals = self.game, self.source, self.options.decimals
        outcomes, sampled = source.outcomes(state)
        children = [(o, p, game.apply(state, o)) for o, p in outcomes]
        valued = [(o, p, child, source.value(child, depth)) for o, p, child in children]
        groups: dict[float, list[tuple[Action, float, State, float]]] = {}
        for item in valued:
            groups.setdefault(round(item[3], decimals), []).append(item)
        value = math.fsum(p * v for _, p, _, v in valued)
        node = self._node(kind=CHANCE_NODE, value=value, player=-1, outcomes=len(valued), sampled=sampled, **common)
        kept: list[tuple[float, list[tuple[Action, float, State, float]]]] = []
        rare: list[tuple[float, list[tuple[Action, float, State, float]]]] = []
        for members in groups.values():
            total = math.fsum(p for _, p, _, _ in members)
            (kept if total >= self.options.min_prob else rare).append((total, members))
        if not kept:  # every group is rare: still draw the likeliest one
            rare.sort(key=lambda g: -g[0])
            kept.append(rare.pop(0))
        kept.sort(key=lambda g: -math.fsum(p * v for _, p, _, v in g[1]) / g[0])  # best for player 0 first
        order = 0
        for total, members in kept:
            likeliest = max(members, key=lambda m: m[1])  # the first of the likeliest outcomes
            names = [game.action_name(state, o) for o, _, _, _ in members]
            child = self.add(likeliest[2], depth)
            self.graph.add_edge(
                node, child, kind=OUTCOME, name=outcome_label(names), outcomes=tuple(names),
                representative=game.action_name(state, likeliest[0]), probability=total,
                value=math.fsum(p * v for _, p, _, v in members) / total, sampled=sampled, order=order,
            )
            order += 1
        if rare:
            members = [m for _, group in rare for m in group]
            total = math.fsum(p for _, p, _, _ in members)
            mean = math.fsum(p * v for _, p, _, v in members) / total
            names = [game.action_name(state, o) for o, _, _, _ in members]
            other = self._node(kind=OTHER, value=mean, player=-1, count=len(members), groups=len(rare),
                               position="", depth=depth)
            self.graph.add_edge(
                node, other, kind=OTHER_OUTCOMES, outcomes=tuple(names),
                name=f"other ({len(members)})" if len(rare) > 1 else outcome_label(names),
                probability=total, value=mean, sampled=sampled, order=order,
            )
        return node


# ----- outcome labels ----------------------------------------------------------------------------
_NUMBERED = re.compile(r"(.*=)(\d+)$")


def outcome_label(names: list[str], limit: int = 3) -> str:
    """A short label for a group of outcomes: die faces as ranges (``a.d8=1-3,6``), else up to
    ``limit`` names and a count.

    >>> outcome_label(["a.d8=1", "a.d8=2", "a.d8=3", "a.d8=6"])
    'a.d8=1-3,6'
    >>> outcome_label(["a:1 b:2", "a:2 b:1", "a:3 b:3", "a:4 b:4"])
    'a:1 b:2 | a:2 b:1 | ... (4)'
    """
    matches = [m for m in map(_NUMBERED.match, names) if m]
    if len(matches) == len(names) and len({m.group(1) for m in matches}) == 1:
        faces = sorted(int(m.group(2)) for m in matches)
        return matches[0].group(1) + ",".join(_ranges(faces))
    if len(names) <= limit:
        return " | ".join(names)
    return " | ".join(names[: limit - 1]) + f" | ... ({len(names)})"


def _ranges(numbers: list[int]) -> list[str]:
    """[1, 2, 3, 6] -> ['1-3', '6']; a run of two stays two numbers."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    out = []
    for run in runs:
        out.extend([f"{run[0]}-{run[-1]}"] if len(run) > 2 else [str(n) for n in run])
    return out


__all__ = [
    "CHANCE_NODE", "DECISION", "END", "HORIZON", "OTHER", "DecisionTree", "TreeOptions", "build_tree",
    "outcome_label",
]
