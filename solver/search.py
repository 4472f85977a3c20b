"""Expectiminimax with *-minimax pruning, a transposition table and iterative deepening.

:class:`Searcher` searches any one- or two-player zero-sum game on the :mod:`dicetree.solver.game`
interface and ranks every legal move of the root::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> result = Searcher(game, cache_slots=2**14).search(game.parse("d8:5/d6:3 a -/-"), depth=1)
    >>> result.best.name, result.value
    ('d8xd6', 1.0)
    >>> [(m.name, round(m.loss, 3)) for m in result.moves]
    [('d8xd6', 0.0), ('roll b.d6', 0.414), ('roll a.d8', 0.455)]
    >>> result.method
    'depth 1 (iterative deepening, Star2, cache)'

How it searches:

* **Values** are kept from player 0's view: player 0 maximizes, player 1 minimizes, chance nodes
  average. In a one-player game every decision maximizes. The root's values are turned into the
  mover's view once, by the game's point of view (:func:`dicetree.solver.ranking.point_of_view`).
* **Depth counts decisions**, not chance events: a decision node with depth 0 returns
  ``game.evaluate``; a chance node never decrements the depth, so one reached with depth 0 is
  expanded and its decision children evaluated.
* **Star1 and Star2** (Ballard 1983; Hauk, Buro and Schaeffer 2004): decision nodes are fail-soft
  alpha-beta; a chance node turns its window [alpha, beta] into a window for each child from what
  is known of the others — the values already searched, and for the rest a lower and an upper
  bound, at first the game's bounds [L, U] (Star1). Star2 first *probes* every child that is a
  decision node with only its first (best-ordered) move: at a maximizing child that gives a lower
  bound, at a minimizing child an upper bound, which tightens the windows and often cuts the chance
  node before any full search.
* **The transposition table** (:class:`dicetree.cache.transposition.TranspositionTable`) stores values with
  their bound type and best move. A value is taken from an entry only if it was stored in the
  running iteration (each iteration is a cache generation) at exactly the depth asked for: a
  RolldownBeta position recurs at different depths (three rerolls can restore what one did), and
  a deeper value there would make "depth N" mean something else than N decisions — the values
  stay those of :func:`expectimax`, whatever was searched before. Every entry still orders moves.
* **Move ordering**: the cached best move first, then moves that caused cut-offs before (history
  heuristic), then the game's own order (RolldownBeta lists captures first); at the root, the
  previous iteration's ranking.
* **Iterative deepening** from depth 1 (:func:`dicetree.solver.limits.deepen`, shared with the simultaneous
  search), up to a depth or within a time limit: the clock is checked every
  few hundred nodes and a running iteration is abandoned, keeping the last completed one (depth 1
  always completes). It stops early when an iteration reached no depth cut-off: its values are
  then those of the whole game tree.
* **The root** searches every legal move with the full window [L, U], so every move's value is
  exact at that depth; pruning happens below the root.
* **Huge chance nodes** — more outcomes than ``game.exact_chance_limit`` — are estimated from
  ``chance_samples`` outcomes drawn with a random generator seeded from the seed and the
  position, each weighing 1/K (:mod:`dicetree.solver.chance`). The same position always gets the same
  sample, in this search and in :func:`expectimax`; the result counts these nodes and says so in
  ``method``.

:func:`expectimax` is the plain reference (no pruning, no cache) with the same depth and sampling
rules, for tests and benchmarks.
"""

from __future__ import annotations

import math
import os
import time
from functools import partial
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dicetree.cache.transposition import EXACT, LOWER, UPPER, TranspositionTable
from dicetree.solver.chance import ChanceSampler, chance_distribution
from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, check_game
from dicetree.solver.limits import CLOCK_MASK, SearchLimits, SearchStats, SearchTimeout, deepen
from dicetree.solver.paranoid import ParanoidView
from dicetree.solver.paranoid import METHOD as PARANOID
from dicetree.solver.ranking import MoveValue, point_of_view, rank_moves

SEARCH_ENV = "DICETREE_SEARCH"
"""``DICETREE_SEARCH=python`` makes every :class:`Searcher` search in Python even where the game offers a
compiled search (``Game.compiled_search``): for comparisons and as a way out."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found. Values are from the mover's view; ``moves`` is best first.

    ``stats`` counts the whole search (every iteration, an abandoned one included) and its time;
    its ``sampled_chance_nodes`` are those behind the values (the last completed iteration's).
    ``pv`` is the principal line: decisions by name, chance events in brackets along a typical
    outcome (``[b.d6=3]``); ``lines``, when the search was asked for them, every move's own line by
    its name (the move first). ``exact`` is True when no line reached the depth limit, so the values
    are the game's own (up to sampled chance nodes). ``chance_note`` says how chance nodes too
    large to list were handled ("" if there were none); ``method`` includes it.
    """

    moves: list[MoveValue]
    value: float
    depth: int
    pv: list[str]
    method: str
    stats: SearchStats
    exact: bool = False
    chance_note: str = ""
    lines: dict[str, list[str]] | None = None

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    @property
    def tied(self) -> list[MoveValue]:
        """Every move as good as the best one (the best included)."""
        return [move for move in self.moves if move.tied]


def check_searchable(game: Game) -> None:
    """Raise :class:`GameError` unless players take turns in ``game`` and, with two players, its
    returns are constant-sum (more players are searched by the paranoid reduction)."""
    check_game(game, "expectiminimax search", max_players=game.num_players, turns=True)


def _view(game: Game, state: State) -> Game | ParanoidView:
    """The two-sided game a search of ``state`` runs on: ``game`` itself for one or two players,
    else its paranoid view for the player to move (:mod:`dicetree.solver.paranoid`)."""
    if game.num_players <= 2:
        return game
    return ParanoidView(game, game.current_player(state))


def _simultaneous_error(game: Game, state: State) -> GameError:
    """A state where players choose at once, in a game whose type says they take turns."""
    return GameError(
        f"players choose simultaneously at '{game.format(state)}': expectiminimax cannot search "
        "simultaneous moves (`dicetree best` solves them as matrix games)"
    )


def method_text(depth: int, how: Sequence[str], reduction: str, players: int, exact: str, chance_note: str) -> str:
    """How a search reached its values, for ``SearchResult.method``: the depth and ``how`` (pruning,
    cache), the reduction of a game of more than two players ('' for none), why the values are
    exact ('' if they are not) and how huge chance nodes were sampled ('' if none was).

    >>> method_text(2, ("cache",), "max^n", 3, "", "")
    'depth 2 (iterative deepening, cache); max^n (3 players)'
    """
    method = f"depth {depth} (iterative deepening, {', '.join(how)})"
    if reduction:
        method += f"; {reduction} ({players} players)"
    if exact:
        method += f"; exact: {exact}"
    if chance_note:
        method += "; " + chance_note
    return method


def _bound_type(value: float, alpha: float, beta: float, low: float, high: float) -> int:
    """The bound type of a fail-soft result searched with window [alpha, beta]. A result at the
    game's own bound is exact even when it failed: no value lies beyond it."""
    if value <= alpha and value > low:
        return UPPER
    if value >= beta and value < high:
        return LOWER
    return EXACT


def expectimax(game: Game, state: State, depth: int, *, chance_samples: int = 64, seed: int = 0) -> float:
    """Player 0's expectiminimax value of ``state`` with ``depth`` decisions, without pruning or cache
    (with three or more players, the paranoid value of the player to move at ``state``).

    The reference for :class:`Searcher`: the same depth rule (chance nodes do not count) and the
    same samples at huge chance nodes.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> expectimax(game, game.parse("d8:5/d6:3 a -/-"), 1)
    1.0
    """
    check_searchable(game)
    view = _view(game, state)  # whose turn, returns and evaluations; moves and chance are the game's own

    def value(state: State, depth: int) -> float:
        player = view.current_player(state)
        if player == TERMINAL:
            return view.returns(state)[0]
        if player == CHANCE:
            total = 0.0
            for outcome, p in chance_distribution(game, state, chance_samples, seed)[0]:
                total += p * value(game.apply(state, outcome), depth)
            return total
        if player == SIMULTANEOUS:
            raise _simultaneous_error(game, state)
        if depth == 0:
            return view.evaluate(state, 0)
        values = [value(game.apply(state, action), depth - 1) for action in game.legal_actions(state)]
        return max(values) if player == 0 else min(values)

    return value(state, depth)


class Searcher:
    """Expectiminimax with Star1/Star2, a transposition table, move ordering and iterative deepening.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> searcher = Searcher(game, cache_slots=2**16)
    >>> result = searcher.search(game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-"), depth=2)
    >>> result.depth, result.best.name, len(result.moves)
    (2, 'roll b.d6', 13)

    One searcher may run many searches; its cache carries move-ordering hints between them.
    ``history`` switches the history heuristic of move ordering.

    Where the game offers a compiled search (``Game.compiled_search``: RolldownBeta's) and it can
    search the position (with a cache, and an ``oracle`` it reads itself or none), each iteration runs
    there: the same values, best moves, principal line and table probes, much faster. ``compiled=False`` (or ``DICETREE_SEARCH=python`` in the
    environment) keeps every search in Python.
    """

    default_depth = 3
    """The depth searched when neither a depth nor a time limit is given (pruning and the cache keep
    three decisions of a RolldownBeta middle game to seconds; the simultaneous search has its own)."""

    search_kind = "paranoid"
    """How games of three or more players are searched (:mod:`dicetree.solver.multiplayer`)."""

    __slots__ = (
        "game", "star2", "chance_samples", "seed", "history", "cache", "low", "high", "pov", "nodes",
        "_current_player", "_legal_actions", "_apply", "_returns", "_evaluate", "_key",
        "_horizon", "_deadline", "_generation", "_sampler", "_cutoff_scores",
        "oracle", "oracle_probes", "oracle_hits", "_want_lines", "_use_compiled", "_compiled", "_engine",
    )

    def __init__(
        self,
        game: Game,
        *,
        star2: bool = True,
        use_cache: bool = True,
        cache_slots: int = 2**20,
        chance_samples: int = 64,
        seed: int = 0,
        history: bool = True,
        oracle: Callable[[State], float | None] | None = None,
        compiled: bool | None = None,
    ):
        check_searchable(game)
        if oracle is not None and game.num_players > 2:
            raise GameError("exact values (endgame tables) serve two-player searches only")
        self._sampler = ChanceSampler(game, chance_samples, seed)
        self.game = game
        self.star2 = star2
        self.chance_samples = chance_samples
        self.seed = seed
        self.history = history
        self.cache = TranspositionTable(cache_slots) if use_cache else None
        bounds = game.value_bounds()
        self.low, self.high = float(bounds.low), float(bounds.high)
        self.pov = point_of_view(game)  # values are player 0's; the root's are turned to the mover's
        # The game's methods, looked up once for the hot path.
        self._current_player = game.current_player
        self._legal_actions = game.legal_actions
        self._apply = game.apply
        self._returns = game.returns
        self._evaluate = game.evaluate
        self._key: Callable[[State], Hashable] = game.key
        # Per-search state, reset by search().
        self.nodes = 0
        self._horizon = 0  # depth cut-offs met (evaluations): 0 after an iteration means solved
        self._deadline: float | None = None
        self._generation = 0
        self._cutoff_scores: tuple[dict, dict] = ({}, {})  # history heuristic, per player
        # Exact values from outside (endgame tables), probed at every decision node they cover,
        # as a chess engine probes Syzygy: player 0's value, or None where not covered.
        self.oracle = oracle
        self.oracle_probes = 0
        self.oracle_hits = 0
        self._want_lines = False
        # The game's compiled search, where it offers one (asked for at the first search it may
        # answer): see compiled_for. ``compiled`` True or False decides; None leaves it to
        # DICETREE_SEARCH (``python``: this Python search; unset: the compiled one where offered).
        if compiled is None:
            compiled = os.environ.get(SEARCH_ENV, "").strip().lower() != "python"
        self._use_compiled = compiled
        self._compiled: Any = None  # the game's compiled search, False where it has none, None: not asked yet
        self._engine = None

    # ----- the root ----------------------------------------------------------------------------
    def search(
        self,
        state: State,
        depth: int | None = None,
        time_limit: float | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
        lines: bool = False,
    ) -> SearchResult:
        """Rank every legal move of ``state`` by iterative deepening up to ``depth`` decisions.

        With ``time_limit`` (seconds) the deepest completed iteration is returned; without
        ``depth`` it deepens until the time is up (or :data:`~dicetree.solver.limits.MAX_DEPTH`); with
        neither it searches :attr:`default_depth` (see :class:`~dicetree.solver.limits.SearchLimits`).
        ``on_iteration`` is called with the result of each completed depth. With ``lines`` the
        result holds every move's own principal line (``SearchResult.lines``).
        """
        game = self.game
        mover = self._current_player(state)
        if mover == TERMINAL:
            raise GameError(f"the game is over at '{game.format(state)}': there is no move to search")
        if mover == CHANCE:
            raise GameError(
                f"chance acts next at '{game.format(state)}', not a player: search the position after "
                "the chance event"
            )
        if mover == SIMULTANEOUS:
            raise _simultaneous_error(game, state)
        limits = SearchLimits(depth, time_limit)
        side = self._bind(state, mover)
        actions = list(self._legal_actions(state))
        if not actions:
            raise GameError(f"no legal move at '{game.format(state)}'")

        engine = self.compiled_for(state)  # before the clock: its first use in a process may compile
        start = time.perf_counter()
        self._begin_search()
        self._want_lines = lines
        python_cache = self.cache
        if engine is not None:  # the compiled search runs the iterations; its table stands in for ours
            engine.begin(state)
            self.cache = engine.table
        self._engine = engine
        try:
            return self._deepen(state, side, actions, limits, start, on_iteration)
        finally:
            self.cache = python_cache
            self._engine = None

    def compiled_for(self, state: State):
        """The game's compiled search if it answers ``state`` exactly as this search would (with a cache,
        probing the same ``oracle`` or none), else None."""
        if not self._use_compiled or self.cache is None:
            return None
        if self._compiled is None:
            engine = self.game.compiled_search(cache_slots=self.cache.slots, star2=self.star2, history=self.history,
                                               chance_samples=self.chance_samples, seed=self.seed)
            self._compiled = engine if engine is not None else False
        if not self._compiled or self._compiled.declines(state, self.oracle):
            return None
        return self._compiled

    def _deepen(self, state: State, side: int, actions: list[Action], limits: SearchLimits, start: float,
                on_iteration: Callable[[SearchResult], object] | None) -> SearchResult:
        probes0, hits0 = (self.cache.probes, self.cache.hits) if self.cache is not None else (0, 0)
        engine = self._engine
        children = {action: self._apply(state, action) for action in actions} if engine is None else {}
        order = actions
        # An iteration's principal line is read from the table before the next iteration overwrites it,
        # but only a result someone sees needs it: the last depth's, a solved one, one reported to
        # on_iteration, or any under a time limit (it may be the last completed). Skipping the others
        # saved half the time of small compiled searches (the line peeks at every chance outcome).
        last_depth = limits.max_depth(self.default_depth)
        every_line = on_iteration is not None or limits.time is not None

        def step(iteration: int) -> tuple[SearchResult, bool]:
            nonlocal order
            horizon = self._horizon
            if self.cache is not None:  # each iteration is a cache generation: see the module notes
                self.cache.new_search()
                self._generation = self.cache.generation
            if engine is not None:
                try:
                    values, solved = engine.iteration(order, iteration, self._deadline)
                finally:
                    self.nodes = engine.nodes
                    self.oracle_probes, self.oracle_hits = engine.table_probes, engine.table_hits
            else:
                self.nodes += 1  # the root
                values = {a: self._value(children[a], iteration - 1, self.low, self.high) for a in order}
                solved = self._horizon == horizon
            result = self._result(state, side, order, values, iteration, solved, start, probes0, hits0,
                                  every_line or solved or iteration >= last_depth)
            order = [move.action for move in result.moves]
            return result, solved

        result, stopped = deepen(step, limits, default_depth=self.default_depth, start=start,
                                 set_deadline=self._set_deadline, on_iteration=on_iteration)
        # The counts cover the abandoned iteration too; the values (and the sampled chance nodes
        # behind them) are the last completed one's.
        return replace(result, method=result.method + stopped, stats=self._stats(start, probes0, hits0,
                                                                                  result.stats.sampled_chance_nodes))

    def _bind(self, state: State, mover: int) -> int:
        """Search ``game`` itself, or with three or more players its paranoid view for ``mover``;
        the root's side in the searched game (0 maximizes, 1 minimizes)."""
        view = _view(self.game, state)
        self._current_player, self._returns, self._evaluate = view.current_player, view.returns, view.evaluate
        return mover if view is self.game else 0

    def _set_deadline(self, deadline: float | None) -> None:
        self._deadline = deadline

    def _begin_search(self) -> None:
        self.nodes = 0
        self._horizon = 0
        self._sampler.reset()
        self._cutoff_scores = ({}, {})
        self.oracle_probes = self.oracle_hits = 0

    def _stats(self, start: float, probes0: int, hits0: int, sampled: int) -> SearchStats:
        """The counts of this search so far (the cache's since it began)."""
        cache = self.cache
        return SearchStats(
            nodes=self.nodes,
            cache_probes=cache.probes - probes0 if cache is not None else 0,
            cache_hits=cache.hits - hits0 if cache is not None else 0,
            table_probes=self.oracle_probes, table_hits=self.oracle_hits, sampled_chance_nodes=sampled,
            elapsed=time.perf_counter() - start,
        )

    def _result(
        self, state: State, side: int, order: Sequence[Action], values: dict[Action, float],
        depth: int, solved: bool, start: float, probes0: int, hits0: int, seen: bool = True,
    ) -> SearchResult:
        """The ranked moves (the mover's view; ``side`` is the mover's in the searched game) and
        the report of one completed iteration (without ``seen``, an iteration only the next one's move
        order uses: no principal line)."""
        game = self.game
        if self.cache is not None:  # the root's entry starts the principal line
            best0 = max(order, key=values.__getitem__) if side == 0 else min(order, key=values.__getitem__)
            self.cache.store(self._key(state), depth, values[best0], EXACT, best0)
        view = self.pov.view
        # Stable ranking: ties keep the search order.
        moves = rank_moves((a, game.action_name(state, a), view(values[a], seen_by=0, player=side)) for a in order)
        engine = self._engine
        chance_note = self._sampler.note() if engine is None else engine.chance_note()
        method = method_text(depth, ("Star2" if self.star2 else "Star1", "cache" if self.cache is not None else "no cache"),
                             PARANOID if game.num_players > 2 else "", game.num_players,
                             "every line ends the game (or reaches exact values) within the depth" if solved else "",
                             chance_note)
        best = moves[0].action
        return SearchResult(
            moves=moves, value=moves[0].value, depth=depth,
            pv=self._principal_line(state, best, depth, values[best]) if seen else [], method=method,
            stats=self._stats(start, probes0, hits0, len(self._sampler.sampled) if engine is None else engine.sampled),
            exact=solved,
            chance_note=chance_note,
            lines={move.name: self._principal_line(state, move.action, depth, values[move.action]) for move in moves}
            if self._want_lines and seen else None,
        )

    # ----- the recursive search (hot path) ----------------------------------------------------
    def _tick(self) -> None:
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchTimeout

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """Fail-soft value of any node for player 0 with ``depth`` decisions left."""
        player = self._current_player(state)
        if player >= 0:
            return self._decide(state, player, depth, alpha, beta, False)
        if player == CHANCE:
            return self._chance(state, depth, alpha, beta)
        if player == TERMINAL:
            self.nodes += 1
            return self._returns(state)[0]
        raise _simultaneous_error(self.game, state)

    def _decide(self, state: State, player: int, depth: int, alpha: float, beta: float, probe: bool) -> float:
        """Fail-soft alpha-beta at a decision node. With ``probe`` only the first move is searched:
        the result is then a lower bound at a maximizing node, an upper bound at a minimizing one."""
        self.nodes = nodes = self.nodes + 1
        if not nodes & CLOCK_MASK:
            self._tick()
        if self.oracle is not None:
            self.oracle_probes += 1
            known = self.oracle(state)
            if known is not None:
                self.oracle_hits += 1
                return known
        if depth == 0:
            self._horizon += 1
            return self._evaluate(state, 0)

        cache = self.cache
        tt_move = None
        if cache is not None:
            key = self._key(state)
            entry = cache.probe(key)
            if entry is not None:
                if entry.depth == depth and entry.generation == self._generation:
                    value, bound = entry.value, entry.bound
                    if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                        return value
                tt_move = entry.move

        actions = self._legal_actions(state)
        if not actions:
            raise GameError(f"no legal move at '{self.game.format(state)}'")
        scores = self._cutoff_scores[player] if self.history else None
        if scores:  # stable: moves without cut-offs keep the game's order
            get = scores.get
            actions = sorted(actions, key=lambda a: -get(a, 0))
        if tt_move is not None and actions[0] != tt_move:
            actions = [tt_move] + [a for a in actions if a != tt_move]
        only_move = len(actions) == 1
        if probe:
            actions = actions[:1]

        maximize = player == 0
        apply, value_of, child_depth = self._apply, self._value, depth - 1
        best = -math.inf if maximize else math.inf
        best_move = None
        a, b = alpha, beta
        for action in actions:
            v = value_of(apply(state, action), child_depth, a, b)
            if v > best if maximize else v < best:
                best, best_move = v, action
                if maximize:
                    if v >= b:
                        break
                    if v > a:
                        a = v
                else:
                    if v <= a:
                        break
                    if v < b:
                        b = v

        if probe and not only_move and (best < self.high if maximize else best > self.low):
            bound = LOWER if maximize else UPPER
        else:
            bound = _bound_type(best, alpha, beta, self.low, self.high)
        failed_low = bound == (UPPER if maximize else LOWER)  # every move bad for the mover
        if scores is not None and not failed_low and not probe:
            scores[best_move] = scores.get(best_move, 0) + depth * depth
        if cache is not None:
            cache.store(key, depth, best, bound, None if failed_low else best_move)
        return best

    def _chance(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """Fail-soft value of a chance node by Star1, with Star2's probing phase first."""
        self.nodes = nodes = self.nodes + 1
        if not nodes & CLOCK_MASK:
            self._tick()
        cache = self.cache
        key = self._key(state)
        if cache is not None:
            entry = cache.probe(key)
            if entry is not None and entry.depth == depth and entry.generation == self._generation:
                value, bound = entry.value, entry.bound
                if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                    return value

        outcomes = self._sampler.outcomes(state, key)
        apply = self._apply
        children = [apply(state, outcome) for outcome, _ in outcomes]
        probs = [p for _, p in outcomes]
        low, high = self.low, self.high
        count = len(children)
        # lo[i] <= value of child i <= hi[i]; sum_lo and sum_hi are the probability-weighted sums.
        lo = [low] * count
        hi = [high] * count
        total_p = math.fsum(probs)
        sum_lo, sum_hi = low * total_p, high * total_p

        if self.star2:
            current_player, value_of, decide = self._current_player, self._value, self._decide
            for i, child in enumerate(children):
                player = current_player(child)
                p = probs[i]
                if player == TERMINAL or (player >= 0 and depth == 0):  # cheap and exact
                    v = value_of(child, depth, low, high)
                    sum_lo += p * (v - lo[i])
                    sum_hi += p * (v - hi[i])
                    lo[i] = hi[i] = v
                elif player == 0:  # maximizing: its first move is a lower bound
                    v = decide(child, 0, depth, low, min(high, (beta - (sum_lo - p * lo[i])) / p), True)
                    if v > lo[i]:
                        v = min(v, hi[i])  # a sum may pass the bound by a rounding error
                        sum_lo += p * (v - lo[i])
                        lo[i] = v
                elif player == 1:  # minimizing: its first move is an upper bound
                    v = decide(child, 1, depth, max(low, (alpha - (sum_hi - p * hi[i])) / p), high, True)
                    if v < hi[i]:
                        v = max(v, lo[i])
                        sum_hi += p * (v - hi[i])
                        hi[i] = v
                else:  # a chance child: no cheap bound
                    continue
                if sum_lo >= beta:
                    return self._store_chance(key, depth, sum_lo, LOWER)
                if sum_hi <= alpha:
                    return self._store_chance(key, depth, sum_hi, UPPER)

        # Star1: child i's window is what it must reach for the node to leave [alpha, beta], given the
        # exact values before it and the bounds after it.
        value_of = self._value
        total = 0.0
        rest_lo, rest_hi = sum_lo, sum_hi
        for i, child in enumerate(children):
            p, lo_i, hi_i = probs[i], lo[i], hi[i]
            rest_lo -= p * lo_i
            rest_hi -= p * hi_i
            if lo_i >= hi_i:  # known exactly (a terminal, an evaluation, or probes that met)
                v = lo_i
            else:
                need_low = (alpha - total - rest_hi) / p
                need_high = (beta - total - rest_lo) / p
                # Only rounding errors let the bounds alone decide here (the checks above cut first).
                if need_low >= hi_i:
                    return self._store_chance(key, depth, total + p * hi_i + rest_hi, UPPER)
                if need_high <= lo_i:
                    return self._store_chance(key, depth, total + p * lo_i + rest_lo, LOWER)
                window_low = need_low if need_low > lo_i else lo_i
                window_high = need_high if need_high < hi_i else hi_i
                v = value_of(child, depth, window_low, window_high)
                if v <= need_low:
                    return self._store_chance(key, depth, total + p * v + rest_hi, UPPER)
                if v >= need_high:
                    return self._store_chance(key, depth, total + p * v + rest_lo, LOWER)
            total += p * v
        return self._store_chance(key, depth, total, EXACT)

    def _store_chance(self, key: Hashable, depth: int, value: float, bound: int) -> float:
        if self.cache is not None:
            if value <= self.low or value >= self.high:  # a bound at the game's bound is exact
                bound = EXACT
            self.cache.store(key, depth, value, bound)
        return value

    # ----- the principal line ----------------------------------------------------------------
    def _principal_line(self, state: State, first: Action, depth: int, value: float) -> list[str]:
        """The best move, then the cached best moves; at a chance node the outcome whose value is
        nearest the node's (a typical outcome, exact values preferred to bounds), in brackets."""
        game, cache = self.game, self.cache
        line = [game.action_name(state, first)]
        state, depth = self._apply(state, first), depth - 1
        for _ in range(4 * depth + 4):  # a guard: every step is a decision or a chance event
            player = self._current_player(state)
            if player == TERMINAL or cache is None:
                break
            known = self._known_value(state, depth)
            if known is not None:
                value = known[0]
            if player == CHANCE:  # exact values first, then the nearest the node's
                step = self._sampler.typical(state, self._key(state), partial(self._typical_rank, depth=depth, value=value))
                if step is None:
                    break
                line.append(step[0])
                state = step[1]
                continue
            entry = cache.peek(self._key(state))
            if depth == 0 or player < 0 or entry is None or entry.move is None:
                break
            if entry.generation != self._generation:  # a move from an earlier iteration: not this line
                break
            line.append(game.action_name(state, entry.move))
            state, depth = self._apply(state, entry.move), depth - 1
        return line

    def _typical_rank(self, state: State, depth: int, value: float) -> tuple[bool, float] | None:
        """How a chance outcome's child ranks as the typical one: known exactly first, then nearest ``value``."""
        known = self._known_value(state, depth)
        return None if known is None else (not known[1], abs(known[0] - value))

    def _known_value(self, state: State, depth: int) -> tuple[float, bool] | None:
        """A node's value without searching and whether it is exact: a terminal's, an evaluation at
        depth 0, or what this iteration cached at this depth (perhaps only a bound)."""
        player = self._current_player(state)
        if player == TERMINAL:
            return self._returns(state)[0], True
        if player >= 0 and depth == 0:
            engine = self._engine
            return (self._evaluate(state, 0) if engine is None else engine.evaluate(state)), True
        entry = self.cache.peek(self._key(state)) if self.cache is not None else None
        if entry is None or entry.generation != self._generation or entry.depth != depth:
            return None
        return entry.value, entry.bound == EXACT


__all__ = ["SearchResult", "Searcher", "check_searchable", "expectimax", "method_text"]
