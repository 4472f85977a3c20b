"""max^n with chance nodes: a game of three or more players where each plays for themselves.

Max^n (Luckhardt and Irani 1986; here with chance nodes averaged as expectimax averages) backs up a
*vector* of values, one per player: at a decision node the player to move takes the child whose
vector is best **for them**; a chance node averages the vectors with the outcomes' probabilities;
a terminal's vector is the game's returns, a depth cut-off's every player's evaluation. Where the
paranoid reduction (:mod:`dicetree.solver.paranoid`) assumes all the others play against the mover,
max^n assumes each plays for their own value, as in a real game of several players. It is chosen
with ``best --search maxn`` or a strategy's ``search=maxn``; the default stays paranoid, measured to
pick the same moves faster (:data:`dicetree.solver.multiplayer.DEFAULT_SEARCH`).

**Ties** (moves whose value for the mover differs by less than :data:`~dicetree.solver.ranking.TIE`)
are broken by one stated rule, at every node and at the root: the move that leaves the **leading
opponent** (the other player with the highest value after it) lowest; if that ties too, the first
in the game's own order. (Another player's choice between moves of equal worth to them decides what
the rest get: without a rule the value would depend on the move order.)

The search has no pruning (max^n allows only shallow pruning, from a bound on the sum of the values,
and it cuts little; the paranoid reduction prunes like a two-player search, which is why it is faster):
a cache of the running iteration keyed by the position and the depth left, iterative deepening and
a time limit as :class:`dicetree.solver.search.Searcher` has (:func:`dicetree.solver.limits.deepen`), the
same depth rule (chance events do not count) and the same sampled chance nodes
(:class:`dicetree.solver.chance.ChanceSampler`). Its answer is a :class:`~dicetree.solver.search.SearchResult`
whose values are the mover's own::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rollforit", players=3)
    >>> result = MaxnSearcher(game).search(game.parse(game.example_position()), depth=1)
    >>> result.best.name, result.method
    ('take back', 'depth 1 (iterative deepening, cache); max^n (3 players)')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from functools import partial

from dicetree.solver.chance import ChanceSampler
from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State, check_game
from dicetree.solver.limits import CLOCK_MASK, SearchLimits, SearchStats, SearchTimeout, deepen
from dicetree.solver.ranking import TIE, rank_moves
from dicetree.solver.search import SearchResult, method_text

METHOD = "max^n"
TIE_RULE = "ties: the move that leaves the leading opponent lowest, then the game's order"
MEANING = (
    "{players} players, max^n: the value if every player plays for their own chance ({tie_rule})"
)

Vector = tuple[float, ...]
"""One value per player, in seat order."""


def choose(vectors: Sequence[Vector], player: int) -> int:
    """The index of the vector ``player`` picks: the highest value for ``player``; among those within
    :data:`TIE` of it, the one whose highest value of another player is lowest; then the first.

    >>> choose([(0.5, 0.3, 0.2), (0.5, 0.1, 0.4), (0.5, 0.25, 0.25)], 0)  # leading opponents 0.3, 0.4, 0.25
    2
    >>> choose([(0.2, 0.5, 0.3), (0.2, 0.6, 0.2)], 1)
    1
    """
    top = max(vector[player] for vector in vectors)
    best, best_leader = -1, math.inf
    for index, vector in enumerate(vectors):
        if vector[player] > top - TIE:
            leader = max(value for other, value in enumerate(vector) if other != player)
            if leader < best_leader - TIE:
                best, best_leader = index, leader
    return best


def maxn_value(game: Game, state: State, depth: int, *, chance_samples: int = 64, seed: int = 0) -> Vector:
    """Every player's max^n value of ``state`` with ``depth`` decisions: the plain recursion (no
    cache), the reference of :class:`MaxnSearcher`.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rollforit", players=3)
    >>> values = maxn_value(game, game.parse(game.example_position()), 1)
    >>> len(values), round(sum(values), 9)
    (3, 1.0)
    """
    check_game(game, "max^n search", max_players=game.num_players, constant_sum=False, turns=True)
    sampler = ChanceSampler(game, chance_samples, seed)
    players = range(game.num_players)

    def value(state: State, depth: int) -> Vector:
        player = game.current_player(state)
        if player == TERMINAL:
            return tuple(float(r) for r in game.returns(state))
        if player == CHANCE:
            totals = [0.0] * game.num_players
            for outcome, p in sampler.outcomes(state, game.key(state)):
                for i, v in enumerate(value(game.apply(state, outcome), depth)):
                    totals[i] += p * v
            return tuple(totals)
        if player == SIMULTANEOUS:
            raise _simultaneous_error(game, state)
        if depth == 0:
            return tuple(game.evaluate(state, p) for p in players)
        vectors = [value(game.apply(state, a), depth - 1) for a in game.legal_actions(state)]
        return vectors[choose(vectors, player)]

    return value(state, depth)


def _simultaneous_error(game: Game, state: State) -> GameError:
    return GameError(f"players choose simultaneously at '{game.format(state)}': max^n searches games whose "
                     "players take turns (`dicetree best` solves simultaneous choices as matrix games)")


class MaxnSearcher:
    """max^n with chance nodes, a cache of the running iteration and iterative deepening.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rollforit", players=4)
    >>> result = MaxnSearcher(game).search(game.parse(game.example_position()), depth=2)
    >>> result.depth, [m.name for m in result.moves]
    (2, ['take back', 'roll'])

    One searcher may run many searches (each iteration starts an empty cache).
    """

    default_depth = 3
    """The depth searched when neither a depth nor a time limit is given (as :class:`Searcher`'s)."""
    search_kind = "maxn"
    """How games of three or more players are searched (:mod:`dicetree.solver.multiplayer`)."""

    def __init__(self, game: Game, *, use_cache: bool = True, cache_slots: int = 2**20, chance_samples: int = 64,
                 seed: int = 0):
        check_game(game, "max^n search", max_players=game.num_players, constant_sum=False, turns=True)
        self.game = game
        self.use_cache = use_cache
        self.cache_slots = cache_slots
        self.chance_samples = chance_samples
        self.seed = seed
        self.players = tuple(range(game.num_players))
        self._sampler = ChanceSampler(game, chance_samples, seed)
        self._cache: dict[tuple[Hashable, int], tuple[Vector, Action | None]] = {}
        self._current_player = game.current_player
        self._apply = game.apply
        self._key: Callable[[State], Hashable] = game.key
        self.nodes = self._probes = self._hits = self._horizon = 0
        self._deadline: float | None = None

    # ----- the root ----------------------------------------------------------------------------
    def search(self, state: State, depth: int | None = None, time_limit: float | None = None,
               on_iteration: Callable[[SearchResult], object] | None = None, lines: bool = False) -> SearchResult:
        """Rank every legal move of ``state`` by its value for the mover, deepening up to ``depth``
        decisions or within ``time_limit`` seconds (as :meth:`dicetree.solver.search.Searcher.search`)."""
        game = self.game
        mover = self._current_player(state)
        if mover == TERMINAL:
            raise GameError(f"the game is over at '{game.format(state)}': there is no move to search")
        if mover == CHANCE:
            raise GameError(f"chance acts next at '{game.format(state)}', not a player: search the position after "
                            "the chance event")
        if mover == SIMULTANEOUS:
            raise _simultaneous_error(game, state)
        actions = list(game.legal_actions(state))
        if not actions:
            raise GameError(f"no legal move at '{game.format(state)}'")
        start = time.perf_counter()
        self.nodes = self._probes = self._hits = self._horizon = 0
        self._sampler.reset()
        children = {action: self._apply(state, action) for action in actions}

        def step(iteration: int) -> tuple[SearchResult, bool]:
            horizon = self._horizon
            self._cache.clear()  # values hold at exactly one depth of one iteration
            self.nodes += 1
            vectors = {a: self._value(children[a], iteration - 1) for a in actions}
            solved = self._horizon == horizon
            return self._result(state, mover, actions, vectors, iteration, solved, start, lines), solved

        result, stopped = deepen(step, SearchLimits(depth, time_limit), default_depth=self.default_depth,
                                 start=start, set_deadline=self._set_deadline, on_iteration=on_iteration)
        return replace(result, method=result.method + stopped, stats=self._stats(start, result.stats.sampled_chance_nodes))

    def _set_deadline(self, deadline: float | None) -> None:
        self._deadline = deadline

    def _stats(self, start: float, sampled: int) -> SearchStats:
        return SearchStats(nodes=self.nodes, cache_probes=self._probes, cache_hits=self._hits,
                           sampled_chance_nodes=sampled, elapsed=time.perf_counter() - start)

    def _result(self, state: State, mover: int, actions: list[Action], vectors: dict[Action, Vector], depth: int,
                solved: bool, start: float, lines: bool) -> SearchResult:
        """The moves ranked for the mover, the move the tie rule picks first (a move tied with it is
        reported at its value: they differ by less than the tie tolerance)."""
        game = self.game
        best = actions[choose([vectors[a] for a in actions], mover)]
        top = vectors[best][mover]

        def shown(action: Action) -> float:
            value = vectors[action][mover]
            return top if abs(value - top) < TIE else value

        order = [best] + [a for a in actions if a != best]
        moves = rank_moves((a, game.action_name(state, a), shown(a)) for a in order)
        chance_note = self._sampler.note()
        method = method_text(depth, ("cache" if self.use_cache else "no cache",), METHOD, game.num_players,
                             "every line ends the game within the depth" if solved else "", chance_note)
        line_of = {move.name: self._principal_line(state, move.action, depth, mover) for move in moves} \
            if lines else None
        return SearchResult(
            moves=moves, value=moves[0].value, depth=depth, pv=self._principal_line(state, best, depth, mover),
            method=method, stats=self._stats(start, len(self._sampler.sampled)), exact=solved,
            chance_note=chance_note, lines=line_of,
        )

    # ----- the recursion (hot path) -------------------------------------------------------------
    def _value(self, state: State, depth: int) -> Vector:
        self.nodes = nodes = self.nodes + 1
        if not nodes & CLOCK_MASK and self._deadline is not None and time.perf_counter() > self._deadline:
            raise SearchTimeout
        player = self._current_player(state)
        if player == TERMINAL:
            return tuple(float(r) for r in self.game.returns(state))
        if player == SIMULTANEOUS:
            raise _simultaneous_error(self.game, state)
        if player >= 0 and depth == 0:
            self._horizon += 1
            evaluate = self.game.evaluate
            return tuple(evaluate(state, p) for p in self.players)
        key = (self._key(state), depth)
        if self.use_cache:
            self._probes += 1
            known = self._cache.get(key)
            if known is not None:
                self._hits += 1
                return known[0]
        apply = self._apply
        if player == CHANCE:
            totals = [0.0] * len(self.players)
            for outcome, p in self._sampler.outcomes(state, key[0]):
                for i, v in enumerate(self._value(apply(state, outcome), depth)):
                    totals[i] += p * v
            vector, move = tuple(totals), None
        else:
            actions = self.game.legal_actions(state)
            if not actions:
                raise GameError(f"no legal move at '{self.game.format(state)}'")
            vectors = [self._value(apply(state, action), depth - 1) for action in actions]
            index = choose(vectors, player)
            vector, move = vectors[index], actions[index]
        if self.use_cache:
            if len(self._cache) >= self.cache_slots:
                self._cache.clear()
            self._cache[key] = (vector, move)
        return vector

    # ----- the principal line ----------------------------------------------------------------
    def _principal_line(self, state: State, first: Action, depth: int, mover: int) -> list[str]:
        """The move, then each player's cached choice; at a chance node the outcome whose value for
        the root's mover is nearest the node's (a typical outcome), in brackets."""
        game = self.game
        line = [game.action_name(state, first)]
        state, depth = self._apply(state, first), depth - 1
        for _ in range(4 * depth + 4):  # a guard: every step is a decision or a chance event
            player = self._current_player(state)
            if player == TERMINAL or (player >= 0 and depth == 0):
                break
            known = self._cache.get((self._key(state), depth))
            if known is None:
                break
            vector, move = known
            if player == CHANCE:  # the outcome nearest the node's value for the root's mover
                step = self._sampler.typical(state, self._key(state), partial(self._distance, depth=depth,
                                                                              player=mover, value=vector[mover]))
                if step is None:
                    break
                line.append(step[0])
                state = step[1]
                continue
            line.append(game.action_name(state, move))
            state, depth = self._apply(state, move), depth - 1
        return line

    def _distance(self, state: State, depth: int, player: int, value: float) -> float | None:
        """How far ``player``'s known value of ``state`` is from ``value`` (None where not known)."""
        known = self._known(state, depth)
        return None if known is None else abs(known[player] - value)

    def _known(self, state: State, depth: int) -> Vector | None:
        """A node's vector without searching: a terminal's, an evaluation, or the cache's."""
        player = self._current_player(state)
        if player == TERMINAL:
            return tuple(float(r) for r in self.game.returns(state))
        if player >= 0 and depth == 0:
            return tuple(self.game.evaluate(state, p) for p in self.players)
        known = self._cache.get((self._key(state), depth))
        return known[0] if known is not None else None


def meaning(game: Game) -> str:
    """What a max^n value means in ``game`` as configured, for output."""
    return MEANING.format(players=game.num_players, tie_rule=TIE_RULE)


__all__ = ["METHOD", "MaxnSearcher", "TIE_RULE", "Vector", "choose", "maxn_value", "meaning"]
