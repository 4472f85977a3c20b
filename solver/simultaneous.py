"""Search for games with simultaneous moves: every simultaneous node a matrix game, solved by LP.

:class:`SimultaneousSearcher` searches any game on the :mod:`dicetree.solver.game` interface whose players
may choose at the same time (:data:`~dicetree.solver.game.SIMULTANEOUS` nodes, :meth:`Game.joint_actions`),
backs values up through chance nodes, and at the root reports each choice's value and each
player's optimal mixed strategy::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("dicefights")
    >>> result = SimultaneousSearcher(game).search(game.parse("3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"), depth=1)
    >>> [answer.strategy_text() for answer in result.players]
    ['roll 2a 70.2%, roll 1d+2g 29.8%', 'roll 2g 94.9%, roll 1d+2g 5.1%']
    >>> result.method
    'depth 1: exact zero-sum equilibrium (each simultaneous node a matrix game solved by linear programming)'

How values are found:

* **Two players** (the game must be zero-sum, i.e. constant-sum): values are player 0's. A
  simultaneous node's children form a matrix (player 0's options x player 1's); its value is the
  matrix game's value, solved exactly (:func:`dicetree.solver.matrix_game.solve_matrix_game`: a pure saddle
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
  :class:`dicetree.solver.search.Searcher` they are expanded at the horizon and their children evaluated —
  unless the game's type declares ``evaluates_chance`` (its ``evaluate`` covers chance nodes, as
  Dice Fights' does: its round-start roll has hundreds of outcomes), in which case they are evaluated.
* **Huge chance nodes** (more outcomes than ``game.exact_chance_limit``) are averaged over a
  seeded sample, as in :func:`dicetree.solver.chance.chance_distribution` (the same samples), and the result says so.
* **No pruning**: every child of a simultaneous node is needed for its matrix. A cache of exact
  values by (position key, depth, focus) serves repeated positions, across iterations too.
* **Iterative deepening** from depth 1 (:func:`dicetree.solver.limits.deepen`, shared with
  :class:`dicetree.solver.search.Searcher`), up to a depth or within a time limit: a running iteration is
  abandoned when time is up and the last completed one kept (depth 1 always completes). It stops
  early when an iteration met no horizon: its values are then the game's own.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace

from dicetree.solver.chance import ChanceSampler
from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, check_game
from dicetree.solver.limits import CLOCK_MASK, SearchLimits, SearchStats, SearchTimeout, deepen
from dicetree.solver.matrix_game import MatrixSolution, solve_matrix_game
from dicetree.solver.ranking import LP_TIE, MoveValue, loss_text, point_of_view, rank_moves

EXACT_METHOD = "exact zero-sum equilibrium (each simultaneous node a matrix game solved by linear programming)"
PARANOID_METHOD = (
    "paranoid reduction, an approximation: each player's guaranteed value against all the others as one "
    "coalition choosing jointly; each simultaneous node a matrix game solved by linear programming"
)


def has_simultaneous_moves(game: Game) -> bool:
    """Whether ``game`` declares simultaneous moves (its type's ``simultaneous``)."""
    return game.game_type.simultaneous


@dataclass(frozen=True)
class PlayerChoices:
    """A choosing player at the root (``name`` as the game calls them): their value there and every
    option, best first. An option's value is its value for that player against the others' optimal
    (for 3+ players: worst-case) strategy; its ``probability`` is its weight in the player's optimal
    mixed strategy; options within :data:`~dicetree.solver.ranking.LP_TIE` of the best are ``tied``."""

    player: int
    name: str
    value: float
    choices: tuple[MoveValue, ...]

    def strategy_text(self) -> str:
        """The mixed strategy as 'keep 73.1%, roll 1g 26.9%' (options played with probability > 0)."""
        played = [c for c in self.choices if c.probability > 0]
        played.sort(key=lambda c: -c.probability)
        return ", ".join(f"{c.name} {c.probability:.1%}" for c in played)


@dataclass(frozen=True)
class SimultaneousResult:
    """What a search found at the root: per choosing player, each option's value and probability.

    ``node`` is ``'simultaneous'`` or ``'decision'`` (an ordinary node: the mover's options are
    ranked and the best has probability 1). ``approximation`` is ``''`` for the exact two-player
    equilibrium, else the approximation's name (``'paranoid'``). ``stats`` counts the whole search:
    its ``matrix_games`` every matrix game solved, ``linear_programs`` those that needed an LP (the
    rest had a saddle point or one side without choice). ``exact`` is True when no line met the
    depth limit.
    """

    position: str
    node: str
    players: list[PlayerChoices]
    depth: int
    stats: SearchStats
    method: str
    approximation: str
    value_meaning: str
    exact: bool = False
    notes: list[str] = field(default_factory=list)
    pv: tuple[str, ...] = ()  # the principal line: each chooser's likeliest choice, chance's likeliest outcome in []

    def to_text(self, top: int | None = None) -> str:
        """The answer as text, each player's ``top`` best choices listed (all without it); a loss is
        how much worse than the best, as everywhere (never negative)."""
        stats = self.stats
        choosers = ", ".join(answer.name for answer in self.players)
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
            f"          {stats.nodes:,} nodes, {stats.matrix_games:,} matrix games ({stats.linear_programs:,} by "
            f"linear programming), {stats.cache_hits:,} cache hits, {stats.elapsed:.2f} s, "
            f"{stats.nodes_per_second:,.0f} nodes/s",
        ]
        for answer in self.players:
            lines += ["", f"{answer.name}  value {answer.value:.4f}; "
                          f"{'optimal mixed strategy' if self.node == 'simultaneous' else 'best'}: {answer.strategy_text()}",
                      f"  #  {'choice':<16} {'value':>8}  {'loss':>8}  {'probability':>11}"]
            for rank, choice in enumerate(answer.choices[:top], 1):
                loss = loss_text(choice, rank)
                lines.append(f"{rank:>3}  {choice.name:<16} {choice.value:>8.4f}  {loss:>8}  {choice.probability:>11.4f}")
            if top is not None and len(answer.choices) > top:
                lines.append(f"     ... {len(answer.choices) - top} more (--top N lists N)")
        lines.append("")
        lines += [f"Note: {note}" for note in self.notes]
        return "\n".join(lines).rstrip()


class SimultaneousSearcher:
    """Depth-limited search of games with simultaneous moves (see the module notes).

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("dicefights")
    >>> searcher = SimultaneousSearcher(game)
    >>> round(searcher.value(game.parse("3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"), depth=1), 4)
    0.6095
    """

    default_depth = 2
    """The depth searched when neither a depth nor a time limit is given: shallower than the turn-based
    :attr:`Searcher.default_depth <dicetree.solver.search.Searcher.default_depth>`, because nothing is pruned here
    (a matrix game needs every child) and each simultaneous node costs a matrix game."""

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
        self.pov = point_of_view(game)  # two players: values are player 0's; player 1's are turned at the root
        self._evaluates_chance = game.game_type.evaluates_chance
        self._key: Callable[[State], Hashable] = game.key
        self._cache: dict[tuple[Hashable, int, int], float] = {}
        self.nodes = self.matrix_games = self.linear_programs = self.cache_probes = self.cache_hits = 0
        self._horizon = 0
        self._deadline: float | None = None

    @property
    def approximation(self) -> str:
        return "" if self.game.num_players == 2 else "paranoid"

    # ----- the public entry points -----------------------------------------------------------------
    def value(self, state: State, depth: int | None = None, player: int = 0) -> float:
        """``player``'s value of any node searched ``depth`` decisions deep (default
        :attr:`default_depth`; 2 players: the equilibrium value; 3+: the paranoid security value)."""
        self._deadline = None
        return self._value(state, self.default_depth if depth is None else depth, player)

    def search(
        self,
        state: State,
        depth: int | None = None,
        time_limit: float | None = None,
        on_iteration: Callable[[SimultaneousResult], None] | None = None,
    ) -> SimultaneousResult:
        """Each choosing player's options at ``state`` with values and optimal probabilities, by
        iterative deepening up to ``depth`` decisions (or until ``time_limit`` seconds; with neither,
        :attr:`default_depth`)."""
        game = self.game
        mover = game.current_player(state)
        if mover == TERMINAL:
            raise GameError(f"the game is over at '{game.format(state)}': there is no move to search")
        if mover == CHANCE:
            raise GameError(
                f"chance acts next at '{game.format(state)}', not a player: search the position after the chance event"
            )
        limits = SearchLimits(depth, time_limit)
        start = time.perf_counter()
        self.nodes = self.matrix_games = self.linear_programs = self.cache_probes = self.cache_hits = 0
        self._sampler.reset()

        def step(iteration: int) -> tuple[SimultaneousResult, bool]:
            horizon = self._horizon
            node, answers = self._root(state, mover, iteration)
            solved = self._horizon == horizon
            return self._result(state, node, answers, iteration, solved, start), solved

        def set_deadline(deadline: float | None) -> None:
            self._deadline = deadline

        result, stopped = deepen(step, limits, default_depth=self.default_depth, start=start,
                                 set_deadline=set_deadline, on_iteration=on_iteration)
        # The counts cover the abandoned iteration too; the values are the last completed one's.
        return replace(result, method=result.method + stopped, stats=self._stats(start))

    def _stats(self, start: float) -> SearchStats:
        """The counts of this search so far."""
        return SearchStats(
            nodes=self.nodes, cache_probes=self.cache_probes, cache_hits=self.cache_hits,
            sampled_chance_nodes=len(self._sampler.sampled), matrix_games=self.matrix_games,
            linear_programs=self.linear_programs, elapsed=time.perf_counter() - start,
        )

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
                flip = self.pov.flip
                answers.append(self._choices(
                    state, 1, [c[0] for c in columns], [flip(v) for v in solution.column_values()],
                    solution.column_strategy, flip(solution.value),
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
        """``player``'s options ranked by value, then probability (stable)."""
        name = self.game.action_name
        choices = rank_moves(((a, name(state, a), v) for a, v in zip(actions, values)), tie=LP_TIE,
                             probabilities=probabilities)
        return PlayerChoices(player, self.game.player_name(player), value, tuple(choices))

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
            position=game.format(state), node=node, players=answers, depth=depth, stats=self._stats(start),
            method=method, approximation=self.approximation,
            value_meaning=game.describe_value(), exact=solved, notes=notes,
            pv=self._principal_line(state, answers, depth),
        )

    def _principal_line(self, state: State, answers: list[PlayerChoices], depth: int) -> tuple[str, ...]:
        """The line the answer expects, as the search saw it, ``depth`` decisions long at most: at
        each node every chooser's likeliest choice played together, at chance the likeliest outcome
        (in brackets, as the turn-based searches write chance). Deeper nodes are ranked again with
        the decisions left (their values are in the cache)."""
        line: list[str] = []
        deadline, self._deadline = self._deadline, None  # a completed depth's line is never cut short
        try:
            return self._follow(state, answers, depth, line)
        finally:
            self._deadline = deadline

    def _follow(self, state: State, answers: list[PlayerChoices], depth: int, line: list[str]) -> tuple[str, ...]:
        game = self.game
        while depth > 0:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcome = max(self._sampler.outcomes(state, self._key(state)), key=lambda pair: pair[1])[0]
                line.append(f"[{game.action_name(state, outcome)}]")
                state = game.apply(state, outcome)
                continue
            if not answers:
                try:
                    answers = self._root(state, player, depth)[1]
                except GameError:
                    break
            likeliest = {answer.player: max(answer.choices, key=lambda c: c.probability).action for answer in answers}
            if player >= 0:
                action = likeliest[player]
            else:
                action = tuple(likeliest.get(p) for p in range(len(game.joint_actions(state))))
            line.append(game.action_name(state, action))
            state, answers, depth = game.apply(state, action), [], depth - 1
        return tuple(line)

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
            self.cache_probes += 1
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
        own: list[list[Action]] = [list(o) if o else [None] for o in options]  # None: a player without choice
        rows = own[focus]
        others = [p for p in range(len(own)) if p != focus]
        columns = list(itertools.product(*(own[p] for p in others)))
        matrix = []
        for row in rows:
            line = []
            for column in columns:
                joint: list[Action] = [None] * len(own)
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


__all__ = ["PlayerChoices", "SimultaneousResult", "SimultaneousSearcher", "has_simultaneous_moves", "sample_choice"]
