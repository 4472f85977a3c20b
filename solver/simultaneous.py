"""Search for games with simultaneous moves: every simultaneous node a matrix game, solved by LP.

:class:`SimultaneousSearcher` searches any game on the :mod:`solver.game` interface whose players
may choose at the same time (:data:`~solver.game.SIMULTANEOUS` nodes, :meth:`Game.joint_actions`),
backs values up through chance nodes, and at the root reports each choice's value and each
player's optimal mixed strategy::

    >>> from solver.games import load_game
    >>> game = load_game("dicefights")
    >>> result = SimultaneousSearcher(game).search(game.parse("3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"), depth=1)
    >>> [answer.strategy_text() for answer in result.players]
    ['roll 2a 70.2%, roll 1d+2g 29.8%', 'roll 2g 94.9%, roll 1d+2g 5.1%']
    >>> result.method
    'depth 1: exact zero-sum equilibrium (each simultaneous node a matrix game solved by linear programming)'

How values are found:

* **Two players** (the game must be zero-sum, i.e. constant-sum): values are player 0's. A
  simultaneous node's children form a matrix (player 0's options x player 1's); its value is the
  matrix game's value, solved exactly (:func:`solver.matrix_game.solve_matrix_game`: a pure saddle
  point directly, otherwise one linear program). Ordinary decision nodes maximize (player 0) or
  minimize (player 1); chance nodes average. This is the exact equilibrium value of the depth-limited
  game: each player's mixed strategy guarantees it whatever the other does.
* **Three or more players: the paranoid reduction** (an approximation, named in every result).
  For a *focus* player, all the others are one coalition that chooses jointly (its strategy may be
  correlated) to minimize the focus player's value; a simultaneous node is then a two-sided matrix
  game — the focus player's options x the coalition's joint options — solved by the same LP, and
  an ordinary decision of another player minimizes. The result is each player's *security value*:
  what their mixed strategy guarantees against the worst the others can do together, a lower bound
  on what they get in any play. Each choosing player at the root gets a search of their own.
* A player who has no choice at a node (``joint_actions`` gives them nothing) is passed ``None``.
* **Depth counts decisions**: a decision or simultaneous node takes one from the depth; a node
  reached with none left is the game's ``evaluate``. Chance nodes do not count; like
  :class:`solver.search.Searcher` they are expanded at the horizon and their children evaluated —
  unless the game's type declares ``evaluates_chance`` (its ``evaluate`` covers chance nodes, as
  Dice Fights' does: its round-start roll has hundreds of outcomes), in which case they are evaluated.
* **Huge chance nodes** (more outcomes than ``game.exact_chance_limit``) are averaged over a
  seeded sample, as in :func:`solver.search.chance_distribution` (the same samples), and the result says so.
* **No pruning**: every child of a simultaneous node is needed for its matrix. A cache of exact
  values by (position key, depth, focus) serves repeated positions, across iterations too.
* **Iterative deepening** from depth 1, with an optional time limit: a running iteration is
  abandoned when time is up and the last completed one kept (depth 1 always completes). It stops
  early when an iteration met no horizon: its values are then the game's own.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, check_game
from solver.matrix_game import MatrixSolution, solve_matrix_game
from solver.search import ChanceSampler, SearchTimeout, deepen

DEFAULT_DEPTH = 2
"""The depth searched when neither a depth nor a time limit is given."""
MAX_DEPTH = 64
"""Iterative deepening under a time limit alone stops at this depth at the latest."""
CLOCK_MASK = 255
"""The clock is read when the node count is a multiple of CLOCK_MASK + 1."""
TIE = 1e-9
"""Choices whose values differ by less than this are reported as tied (LP values carry ~1e-12 noise)."""
EXACT_METHOD = "exact zero-sum equilibrium (each simultaneous node a matrix game solved by linear programming)"
PARANOID_METHOD = (
    "paranoid reduction, an approximation: each player's guaranteed value against all the others as one "
    "coalition choosing jointly; each simultaneous node a matrix game solved by linear programming"
)


def has_simultaneous_moves(game: Game) -> bool:
    """Whether ``game`` declares simultaneous moves (its type's ``simultaneous``)."""
    return game.game_type.simultaneous


def player_label(player: int) -> str:
    return f"P{player + 1}"


@dataclass(frozen=True)
class ChoiceValue:
    """One option of one player at the root: its value for that player against the others' optimal
    (for 3+ players: worst-case) strategy, its loss against the best option, and its probability in
    the player's optimal mixed strategy."""

    action: Action
    name: str
    value: float
    loss: float
    probability: float


@dataclass(frozen=True)
class PlayerChoices:
    """A choosing player at the root: their value there and every option, best first."""

    player: int
    value: float
    choices: tuple[ChoiceValue, ...]

    def strategy_text(self) -> str:
        """The mixed strategy as 'keep 73.1%, roll 1g 26.9%' (options played with probability > 0)."""
        played = [c for c in self.choices if c.probability > 0]
        played.sort(key=lambda c: -c.probability)
        return ", ".join(f"{c.name} {c.probability:.1%}" for c in played)


@dataclass
class SimultaneousResult:
    """What a search found at the root: per choosing player, each option's value and probability.

    ``node`` is ``'simultaneous'`` or ``'decision'`` (an ordinary node: the mover's options are
    ranked and the best has probability 1). ``approximation`` is ``''`` for the exact two-player
    equilibrium, else the approximation's name (``'paranoid'``). ``matrix_games`` counts every matrix
    game solved, ``linear_programs`` those that needed an LP (the rest had a saddle point or one side
    without choice). ``exact`` is True when no line met the depth limit.
    """

    position: str
    node: str
    players: list[PlayerChoices]
    depth: int
    nodes: int
    matrix_games: int
    linear_programs: int
    cache_hits: int
    elapsed: float
    method: str
    approximation: str
    value_meaning: str
    exact: bool = False
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "position": self.position,
            "node": self.node,
            "value_meaning": self.value_meaning,
            "players": [
                {
                    "player": player_label(answer.player),
                    "value": answer.value,
                    "strategy": {c.name: c.probability for c in answer.choices if c.probability > 0},
                    "choices": [
                        {"choice": c.name, "value": c.value, "loss": c.loss, "probability": c.probability}
                        for c in answer.choices
                    ],
                }
                for answer in self.players
            ],
            "depth": self.depth,
            "nodes": self.nodes,
            "matrix_games": self.matrix_games,
            "linear_programs": self.linear_programs,
            "cache_hits": self.cache_hits,
            "time": round(self.elapsed, 4),
            "method": self.method,
            "approximation": self.approximation,
            "exact": self.exact,
            "notes": self.notes,
        }

    def to_text(self) -> str:
        speed = self.nodes / self.elapsed if self.elapsed > 0 else 0.0
        choosers = ", ".join(player_label(a.player) for a in self.players)
        if self.node != "simultaneous":
            kind = f"{choosers} to move"
        elif len(self.players) == 1:
            kind = f"{choosers} chooses (nobody else has a choice)"
        else:
            kind = f"{choosers} choose at once"
        lines = [
            f"Position  {self.position}",
            f"{kind}; value = {self.value_meaning}, for the player named",
            f"Search    {self.method}",
            f"          {self.nodes:,} nodes, {self.matrix_games:,} matrix games ({self.linear_programs:,} by "
            f"linear programming), {self.cache_hits:,} cache hits, {self.elapsed:.2f} s, {speed:,.0f} nodes/s",
        ]
        for answer in self.players:
            lines += ["", f"{player_label(answer.player)}  value {answer.value:.4f}; "
                          f"{'optimal mixed strategy' if self.node == 'simultaneous' else 'best'}: {answer.strategy_text()}",
                      f"  #  {'choice':<16} {'value':>8}  {'loss':>8}  {'probability':>11}"]
            for rank, choice in enumerate(answer.choices, 1):
                loss = "" if choice.loss < TIE else f"{-choice.loss:+.4f}"
                if rank > 1 and choice.loss < TIE:
                    loss = "(tied)"
                lines.append(f"{rank:>3}  {choice.name:<16} {choice.value:>8.4f}  {loss:>8}  {choice.probability:>11.4f}")
        lines.append("")
        lines += [f"Note: {note}" for note in self.notes]
        return "\n".join(lines).rstrip()


class SimultaneousSearcher:
    """Depth-limited search of games with simultaneous moves (see the module notes).

    >>> from solver.games import load_game
    >>> game = load_game("dicefights")
    >>> searcher = SimultaneousSearcher(game)
    >>> round(searcher.value(game.parse("3:0:5:111 2:0:5:111 roll"), depth=1), 3)
    0.638
    """

    def __init__(
        self,
        game: Game,
        *,
        chance_samples: int = 64,
        seed: int = 0,
        use_cache: bool = True,
        cache_limit: int = 2_000_000,
    ):
        check_game(game, "the simultaneous search", max_players=game.game_type.max_players, turns=False)
        self._sampler = ChanceSampler(game, chance_samples, seed)
        self.game = game
        self.chance_samples = chance_samples
        self.seed = seed
        self.use_cache = use_cache
        self.cache_limit = cache_limit
        bounds = game.value_bounds()
        self.low, self.high = float(bounds.low), float(bounds.high)
        self._evaluates_chance = game.game_type.evaluates_chance
        self._key: Callable[[State], Hashable] = game.key
        self._cache: dict[tuple[Hashable, int, int], float] = {}
        self.nodes = self.matrix_games = self.linear_programs = self.cache_hits = self._horizon = 0
        self._deadline: float | None = None

    @property
    def approximation(self) -> str:
        return "" if self.game.num_players == 2 else "paranoid"

    # ----- the public entry points -----------------------------------------------------------------
    def value(self, state: State, depth: int = DEFAULT_DEPTH, player: int = 0) -> float:
        """``player``'s value of any node searched ``depth`` decisions deep (2 players: the
        equilibrium value; 3+: the paranoid security value)."""
        self._deadline = None
        return self._value(state, depth, player)

    def search(
        self,
        state: State,
        depth: int | None = None,
        time_limit: float | None = None,
        on_iteration: Callable[[SimultaneousResult], None] | None = None,
    ) -> SimultaneousResult:
        """Each choosing player's options at ``state`` with values and optimal probabilities, by
        iterative deepening up to ``depth`` decisions (or until ``time_limit`` seconds)."""
        game = self.game
        mover = game.current_player(state)
        if mover == TERMINAL:
            raise GameError(f"the game is over at '{game.format(state)}': there is no move to search")
        if mover == CHANCE:
            raise GameError(
                f"chance acts next at '{game.format(state)}', not a player: search the position after the chance event"
            )
        if depth is not None and depth < 1:
            raise GameError(f"the search depth must be at least 1, not {depth}")
        if time_limit is not None and time_limit < 0:
            raise GameError(f"the time limit cannot be negative ({time_limit})")
        max_depth = depth or (MAX_DEPTH if time_limit is not None else DEFAULT_DEPTH)
        start = time.perf_counter()
        self.nodes = self.matrix_games = self.linear_programs = self.cache_hits = 0
        self._sampler.reset()

        def step(iteration: int) -> tuple[SimultaneousResult, bool]:
            horizon = self._horizon
            node, answers = self._root(state, mover, iteration)
            solved = self._horizon == horizon
            return self._result(state, node, answers, iteration, solved, start), solved

        def set_deadline(deadline: float | None) -> None:
            self._deadline = deadline

        result, stopped = deepen(step, max_depth=max_depth, time_limit=time_limit, start=start,
                                 set_deadline=set_deadline, on_iteration=on_iteration)
        result.method += stopped
        result.nodes, result.matrix_games = self.nodes, self.matrix_games
        result.linear_programs, result.cache_hits = self.linear_programs, self.cache_hits
        result.elapsed = time.perf_counter() - start
        return result

    # ----- the root ------------------------------------------------------------------------------
    def _root(self, state: State, mover: int, depth: int) -> tuple[str, list[PlayerChoices]]:
        game = self.game
        if mover >= 0:
            actions = list(game.legal_actions(state))
            if not actions:
                raise GameError(f"no legal move at '{game.format(state)}'")
            values = [self._value(game.apply(state, a), depth - 1, mover) for a in actions]
            best = max(range(len(actions)), key=values.__getitem__)
            probabilities = [1.0 if i == best else 0.0 for i in range(len(actions))]
            return "decision", [self._choices(state, mover, actions, values, probabilities, values[best])]
        options = game.joint_actions(state)
        choosers = [p for p, own in enumerate(options) if own]
        if not choosers:
            raise GameError(f"nobody has a choice at '{game.format(state)}'")
        if game.num_players == 2:
            solution, rows, columns = self._solve(state, options, depth, 0)
            answers = []
            if options[0]:
                answers.append(self._choices(state, 0, rows, solution.row_values(), solution.row_strategy, solution.value))
            if options[1]:
                flip = self.low + self.high
                answers.append(self._choices(
                    state, 1, [c[0] for c in columns], [flip - v for v in solution.column_values()],
                    solution.column_strategy, flip - solution.value,
                ))
            return "simultaneous", answers
        answers = []
        for focus in choosers:
            solution, rows, _ = self._solve(state, options, depth, focus)
            answers.append(self._choices(state, focus, rows, solution.row_values(), solution.row_strategy, solution.value))
        return "simultaneous", answers

    def _choices(
        self, state: State, player: int, actions: Sequence[Action], values: Sequence[float],
        probabilities: Sequence[float], value: float,
    ) -> PlayerChoices:
        order = sorted(range(len(actions)), key=lambda i: (-values[i], -probabilities[i]))  # stable
        top = values[order[0]]
        return PlayerChoices(player, value, tuple(
            ChoiceValue(actions[i], self.game.action_name(state, actions[i]), values[i], top - values[i], probabilities[i])
            for i in order
        ))

    def _result(
        self, state: State, node: str, answers: list[PlayerChoices], depth: int, solved: bool, start: float
    ) -> SimultaneousResult:
        game = self.game
        method = f"depth {depth}: {EXACT_METHOD if not self.approximation else PARANOID_METHOD}"
        notes = []
        if solved:
            method += "; exact: every line ends the game within the depth"
        if node == "simultaneous":
            notes.append(
                "a choice's value is its value against the other player's optimal mixed strategy; choices "
                "with probability > 0 all score the player's value" if not self.approximation else
                "a choice's value is what it guarantees against the others' worst joint reply (paranoid); "
                "the values of different players need not add up to 1"
            )
        if self._sampler.sampled:
            notes.append(self._sampler.note())
        if self._evaluates_chance and not solved:
            notes.append("chance nodes at the depth limit were evaluated directly (the game's evaluation covers them)")
        return SimultaneousResult(
            position=game.format(state), node=node, players=answers, depth=depth, nodes=self.nodes,
            matrix_games=self.matrix_games, linear_programs=self.linear_programs, cache_hits=self.cache_hits,
            elapsed=time.perf_counter() - start, method=method, approximation=self.approximation,
            value_meaning=game.describe_value(), exact=solved, notes=notes,
        )

    # ----- the recursive search ----------------------------------------------------------------------
    def _value(self, state: State, depth: int, focus: int) -> float:
        """``focus``'s value of any node with ``depth`` decisions left."""
        game = self.game
        self.nodes += 1
        if self._deadline is not None and not self.nodes & CLOCK_MASK and time.perf_counter() > self._deadline:
            raise SearchTimeout
        player = game.current_player(state)
        if player == TERMINAL:
            return game.returns(state)[focus]
        if player == CHANCE:
            if depth == 0 and self._evaluates_chance:
                self._horizon += 1
                return game.evaluate(state, focus)
            outcomes = self._sampler.outcomes(state, self._key(state))
            return math.fsum(p * self._value(game.apply(state, o), depth, focus) for o, p in outcomes)
        if depth == 0:
            self._horizon += 1
            return game.evaluate(state, focus)
        key = (self._key(state), depth, focus) if self.use_cache else None
        if key is not None:
            known = self._cache.get(key)
            if known is not None:
                self.cache_hits += 1
                return known
        if player == SIMULTANEOUS:
            value = self._solve(state, game.joint_actions(state), depth, focus)[0].value
        else:
            values = [self._value(game.apply(state, a), depth - 1, focus) for a in game.legal_actions(state)]
            if not values:
                raise GameError(f"no legal move at '{game.format(state)}'")
            value = max(values) if player == focus else min(values)
        if key is not None:
            if len(self._cache) >= self.cache_limit:
                self._cache.clear()
            self._cache[key] = value
        return value

    def _solve(
        self, state: State, options: Sequence[Sequence[Action]], depth: int, focus: int
    ) -> tuple[MatrixSolution, list[Action], list[tuple[Action, ...]]]:
        """The matrix game at a simultaneous node for ``focus``: its options x the others' joint options."""
        game = self.game
        own = [list(o) if o else [None] for o in options]
        rows = own[focus]
        others = [p for p in range(len(own)) if p != focus]
        columns = list(itertools.product(*(own[p] for p in others)))
        matrix = []
        for row in rows:
            line = []
            for column in columns:
                joint = [None] * len(own)
                joint[focus] = row
                for p, action in zip(others, column):
                    joint[p] = action
                line.append(self._value(game.apply(state, tuple(joint)), depth - 1, focus))
            matrix.append(line)
        solution = solve_matrix_game(matrix)
        self.matrix_games += 1
        if solution.method == "linear program":
            self.linear_programs += 1
        return solution, rows, columns


def sample_choice(result: SimultaneousResult, player: int, rng) -> Action:
    """One action of ``player`` drawn from its optimal mixed strategy in ``result``."""
    answer = next(a for a in result.players if a.player == player)
    pick, total = rng.random(), 0.0
    for choice in answer.choices:
        total += choice.probability
        if pick < total:
            return choice.action
    return answer.choices[0].action


__all__ = [
    "sample_choice",
    "ChoiceValue", "PlayerChoices", "SimultaneousResult", "SimultaneousSearcher", "has_simultaneous_moves",
]
