"""Small games on the :mod:`dicetree.solver.game` interface, for testing searches against known answers.

* :class:`RandomTree` — a random expectiminimax tree (or layered graph with transpositions) built
  deterministically from a seed: decision nodes of both players, chance nodes with uneven
  probabilities, bounded leaf values and a heuristic :meth:`RandomTree.evaluate`::

      >>> game = RandomTree(seed=7)
      >>> root = game.parse("n0")
      >>> game.current_player(root) in (0, 1)
      True

* :class:`HighRoll` — a one-player dice game: a d6 shows a face; stop and score face/6, or
  spend one of your rerolls. Its values are known in closed form (:func:`high_roll_value`)::

      >>> round(high_roll_value(face=2, rerolls=1), 4)  # reroll: the mean face is 3.5
      0.5833

* :class:`SimultaneousStub` — one decision leading to a simultaneous node (searches refuse it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, PositionError, ValueBounds, GameType


@dataclass(frozen=True, slots=True)
class Node:
    """One node of a :class:`RandomTree`: who acts (a player, CHANCE or TERMINAL), the children
    (node indices) with their probabilities at a chance node, the terminal value and the heuristic
    (both from player 0's view)."""

    kind: int
    children: tuple[int, ...] = ()
    probabilities: tuple[float, ...] = ()
    value: float = 0.0
    heuristic: float = 0.0


class RandomTree(Game):
    """A random game built from ``seed``; a state is a node index (``format``: ``n12``).

    ``shared=False`` builds a tree. ``shared=True`` builds a layered graph whose nodes pick their
    children among the next layer's, so positions are reached along several paths (transpositions);
    each layer is either all chance or all decision nodes (plus terminals), so every path to a node
    holds the same number of decisions, as in RolldownBeta. ``players=1`` makes every decision
    player 0's. ``extremes`` is the share of terminal values exactly at the bounds (cut-offs at the
    bounds are an edge case of *-minimax). ``exact_chance_limit`` below the branching makes chance
    nodes sampled.
    """

    game_type = GameType("random-tree", "a random tree", min_players=1, max_players=3)

    def __init__(
        self,
        seed: int,
        *,
        levels: int = 6,
        max_branching: int = 4,
        chance_share: float = 0.35,
        terminal_share: float = 0.1,
        extremes: float = 0.2,
        shared: bool = False,
        width: int = 6,
        players: int = 2,
        bounds: tuple[float, float] = (-2.0, 5.0),
        exact_chance_limit: int = 4096,
    ):
        self.num_players = players
        self.exact_chance_limit = exact_chance_limit
        self.low, self.high = bounds
        # Two players' returns are (v, low + high - v): that is the constant this configuration declares.
        self.game_type = replace(RandomTree.game_type, constant_sum=self.low + self.high)
        self._rng = random.Random(seed)
        self._max_branching = max_branching
        self._chance_share = chance_share
        self._terminal_share = terminal_share
        self._extremes = extremes
        self.nodes: list[Node] = []
        if shared:
            self._build_layers(levels, width)
        else:
            self._build_tree(0, levels)

    # ----- building ---------------------------------------------------------------------------
    def _leaf_value(self) -> float:
        rng = self._rng
        if rng.random() < self._extremes:
            return rng.choice((self.low, self.high))
        return rng.uniform(self.low, self.high)

    def _kind(self, level: int) -> int:
        rng = self._rng
        if level > 0 and rng.random() < self._chance_share:
            return CHANCE
        return rng.randrange(self.num_players)

    def _probabilities(self, count: int) -> tuple[float, ...]:
        weights = [self._rng.random() + 0.05 for _ in range(count)]  # uneven, none negligible
        total = sum(weights)
        return tuple(w / total for w in weights)

    def _branching(self, kind: int) -> int:
        low = 2 if kind == CHANCE else 1
        return self._rng.randint(low, self._max_branching)

    def _add(self, node: Node | None = None) -> int:
        self.nodes.append(node)  # type: ignore[arg-type]  # filled in by the caller when None
        return len(self.nodes) - 1

    def _build_tree(self, level: int, levels: int) -> int:
        rng = self._rng
        heuristic = rng.uniform(self.low, self.high)
        if level == levels or (level > 0 and rng.random() < self._terminal_share):
            return self._add(Node(TERMINAL, value=self._leaf_value(), heuristic=heuristic))
        kind = self._kind(level)
        index = self._add()
        children = tuple(self._build_tree(level + 1, levels) for _ in range(self._branching(kind)))
        probabilities = self._probabilities(len(children)) if kind == CHANCE else ()
        self.nodes[index] = Node(kind, children, probabilities, heuristic=heuristic)
        return index

    def _build_layers(self, levels: int, width: int) -> None:
        rng = self._rng
        layer_kinds = [CHANCE if level > 0 and rng.random() < self._chance_share else 0 for level in range(levels)]
        layers: list[list[int]] = []
        for level in range(levels + 1):
            size = 1 if level == 0 else width
            layers.append([self._add() for _ in range(size)])
        for level, layer in enumerate(layers):
            for index in layer:
                heuristic = rng.uniform(self.low, self.high)
                if level == levels or (level > 0 and rng.random() < self._terminal_share):
                    self.nodes[index] = Node(TERMINAL, value=self._leaf_value(), heuristic=heuristic)
                    continue
                kind = CHANCE if layer_kinds[level] == CHANCE else rng.randrange(self.num_players)
                count = min(self._branching(kind), width)
                children = tuple(rng.sample(layers[level + 1], count))
                probabilities = self._probabilities(count) if kind == CHANCE else ()
                self.nodes[index] = Node(kind, children, probabilities, heuristic=heuristic)

    # ----- the interface ------------------------------------------------------------------------
    def current_player(self, state: int) -> int:
        return self.nodes[state].kind

    def legal_actions(self, state: int) -> list[int]:
        node = self.nodes[state]
        return list(range(len(node.children))) if node.kind >= 0 else []

    def action_name(self, state: int, action: int) -> str:
        return f"{'c' if self.nodes[state].kind == CHANCE else 'm'}{action}"

    def chance_outcomes(self, state: int) -> list[tuple[int, float]]:
        return list(enumerate(self.nodes[state].probabilities))

    def apply(self, state: int, action: int) -> int:
        return self.nodes[state].children[action]

    def returns(self, state: int) -> tuple[float, ...]:
        value = self.nodes[state].value
        if self.num_players == 1:
            return (value,)
        if self.num_players == 2:
            return value, self.low + self.high - value
        return (value,) + tuple(self._other(state, player, 1) for player in range(1, self.num_players))

    def _other(self, state: int, player: int, salt: int) -> float:
        """A third (or later) player's own return (salt 1) or heuristic (salt 2): with three or more
        players the values are not constant-sum, each drawn from the node, the player and the salt."""
        return random.Random(state * 1009 + player * 31 + salt).uniform(self.low, self.high)

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(self.low, self.high)

    def evaluate(self, state: int, player: int) -> float:
        value = self.nodes[state].heuristic
        if player == 0:
            return value
        return self.low + self.high - value if self.num_players == 2 else self._other(state, player, 2)

    def parse(self, text: str) -> int:
        if not (text.startswith("n") and text[1:].isdigit() and int(text[1:]) < len(self.nodes)):
            raise PositionError(f"no node '{text}': nodes are n0..n{len(self.nodes) - 1}")
        return int(text[1:])

    def format(self, state: int) -> str:
        return f"n{state}"

    def notation_help(self) -> str:
        return "a node index: n0 is the root"


# ----- a one-player dice game ----------------------------------------------------------------------
ROLLING = -1  # the face of a HighRoll state while its die is in the air


class HighRoll(Game):
    """One player, one d6: ``stop`` scores face/6; ``reroll`` spends a reroll. A state is the tuple
    ``(face, rerolls left, stopped)``, with face ROLLING while chance rolls. ``"4 2"`` is face 4
    with two rerolls left; ``"? 2"`` the die in the air."""

    game_type = GameType("high-roll", "High Roll", min_players=1, max_players=1)
    num_players = 1
    sides = 6

    def current_player(self, state: tuple[int, int, bool]) -> int:
        face, _, stopped = state
        return TERMINAL if stopped else CHANCE if face == ROLLING else 0

    def legal_actions(self, state: tuple[int, int, bool]) -> list[str]:
        if self.current_player(state) != 0:
            return []
        return ["stop", "reroll"] if state[1] > 0 else ["stop"]

    def action_name(self, state: tuple[int, int, bool], action) -> str:
        return f"d6={action}" if state[0] == ROLLING else action

    def chance_outcomes(self, state: tuple[int, int, bool]) -> list[tuple[int, float]]:
        return [(face, 1 / self.sides) for face in range(1, self.sides + 1)]

    def apply(self, state: tuple[int, int, bool], action) -> tuple[int, int, bool]:
        face, rerolls, _ = state
        if face == ROLLING:
            return (action, rerolls, False)
        if action == "stop":
            return (face, rerolls, True)
        return (ROLLING, rerolls - 1, False)

    def returns(self, state: tuple[int, int, bool]) -> tuple[float]:
        return (state[0] / self.sides,)

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(0.0, 1.0)

    def evaluate(self, state: tuple[int, int, bool], player: int) -> float:
        return state[0] / self.sides  # what stopping now would score

    def parse(self, text: str) -> tuple[int, int, bool]:
        face, rerolls = text.split()
        return (ROLLING if face == "?" else int(face), int(rerolls), False)

    def format(self, state: tuple[int, int, bool]) -> str:
        face, rerolls, stopped = state
        return f"{'?' if face == ROLLING else face} {rerolls}" + (" stopped" if stopped else "")

    def notation_help(self) -> str:
        return "<face or ?> <rerolls left>, e.g. '4 2'"


def high_roll_value(face: int, rerolls: int, sides: int = 6) -> float:
    """The exact value of a HighRoll decision: stop now, or expect the best of the rerolls."""
    expected = (sides + 1) / 2  # with no reroll after it, a fresh roll is worth its mean face
    for _ in range(rerolls - 1):
        expected = sum(max(f, expected) for f in range(1, sides + 1)) / sides
    return (max(face, expected) if rerolls else face) / sides


# ----- a game the search must refuse ------------------------------------------------------------
class SimultaneousStub(Game):
    """Player 0 chooses ``go``; then both players choose at once (the search must refuse this)."""

    game_type = GameType("simultaneous-stub", "a simultaneous stub", simultaneous=True, constant_sum=0.0)

    def current_player(self, state: str) -> int:
        return 0 if state == "start" else SIMULTANEOUS

    def legal_actions(self, state: str) -> list[str]:
        return ["go"] if state == "start" else []

    def action_name(self, state: str, action) -> str:
        return str(action)

    def apply(self, state: str, action) -> str:
        return "both"

    def returns(self, state: str) -> tuple[float, float]:
        return (0.0, 0.0)

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(-1.0, 1.0)

    def parse(self, text: str) -> str:
        return text

    def format(self, state: str) -> str:
        return state

    def notation_help(self) -> str:
        return "start or both"
