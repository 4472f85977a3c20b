""""Best move?" for a position: every legal move ranked, averaged over hidden information.

A position may hide information (RolldownBeta's unknown cards). :func:`analyse` asks the game for
the concrete positions it may be (:meth:`Game.determinize`), searches each, and averages every
move's value with the positions' weights — the mover picks one move without knowing which
position is real. (Averaging lets the search of each position see the hidden cards; this is the
usual "perfect-information Monte Carlo" estimate and is said so in the output.)

>>> from solver.games import load_game
>>> game = load_game("rolldown")
>>> analysis = analyse(game, game.parse("d8:5/d6:3 a -/-"), depth=1)
>>> analysis.best, analysis.value
('d8xd6', 1.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.game import Game, GameError, State
from solver.search import MoveValue, Searcher, SearchResult


@dataclass
class Analysis:
    """The answer to "best move?", ready for output."""

    position: str
    mover: int
    mover_name: str  # as the game names the player (``Game.player_name``)
    moves: list[MoveValue]
    depth: int
    nodes: int
    cache_probes: int
    cache_hits: int
    elapsed: float
    pv: list[str]
    method: str
    value_meaning: str
    hidden: str = ""
    notes: list[str] = field(default_factory=list)
    table_probes: int = 0
    table_hits: int = 0

    @property
    def best(self) -> str:
        return self.moves[0].name

    @property
    def value(self) -> float:
        return self.moves[0].value

    def to_json(self) -> dict:
        return {
            "position": self.position,
            "mover": self.mover_name.lower(),
            "moves": [{"move": m.name, "value": m.value, "loss": m.loss} for m in self.moves],
            "best": self.best,
            "value": self.value,
            "value_meaning": self.value_meaning,
            "depth": self.depth,
            "nodes": self.nodes,
            "cache_hits": self.cache_hits,
            "cache_probes": self.cache_probes,
            "time": round(self.elapsed, 4),
            "pv": self.pv,
            "method": self.method,
            "hidden_information": self.hidden,
            "notes": self.notes,
            "table_probes": self.table_probes,
            "table_hits": self.table_hits,
        }


def analyse(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    searcher: Searcher | None = None,
    hands_exact: int = 100,
    hand_samples: int = 64,
    seed: int = 0,
    on_iteration: Callable[[SearchResult], None] | None = None,
    exact: Callable[[State], SearchResult] | None = None,
) -> Analysis:
    """Rank every legal move of ``state`` (values from the mover's view), searching each
    concrete position its hidden information allows; ``time_limit`` is shared among them.
    With ``exact`` (exact move values of a concrete position, e.g. from endgame tables) that
    replaces the search."""
    player = game.current_player(state)
    if player < 0:
        raise GameError("no player decides at this position (it is a chance node or the game is over)")
    deals = game.determinize(state, max_exact=hands_exact, samples=hand_samples, seed=seed)
    searcher = searcher or Searcher(game, seed=seed)
    started = time.perf_counter()
    results: list[SearchResult] = []
    for index, concrete in enumerate(deals.states):
        if exact is not None:
            results.append(exact(concrete))
            continue
        share = None
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - started)
            share = max(left / (len(deals.states) - index), 0.0)
        results.append(searcher.search(concrete, depth=depth, time_limit=share, on_iteration=on_iteration))
    moves = _average_moves(results, deals.weights)
    heaviest = max(range(len(results)), key=lambda i: deals.weights[i])
    notes = []
    if len(results) > 1:
        notes.append(
            "each hand was solved as if its cards were seen (perfect-information averaging); "
            "the principal line is that of the likeliest hand"
        )
    return Analysis(
        position=game.format(state),
        mover=player,
        mover_name=game.player_name(player),
        moves=moves,
        depth=min(r.depth for r in results),
        nodes=sum(r.nodes for r in results),
        cache_probes=sum(r.cache_probes for r in results),
        cache_hits=sum(r.cache_hits for r in results),
        elapsed=time.perf_counter() - started,
        pv=results[heaviest].pv,
        method=results[heaviest].method,
        value_meaning=game.describe_value(),
        hidden=deals.description,
        notes=sorted(notes),
        table_probes=sum(r.table_probes for r in results),
        table_hits=sum(r.table_hits for r in results),
    )


def _average_moves(results: list[SearchResult], weights: tuple[float, ...]) -> list[MoveValue]:
    """Each move's weighted mean value over the concrete positions, best first."""
    totals: dict[str, float] = {}
    actions = {}
    for result, weight in zip(results, weights):
        for move in result.moves:
            totals[move.name] = totals.get(move.name, 0.0) + weight * move.value
            actions.setdefault(move.name, move.action)
    if any({m.name for m in r.moves} != set(totals) for r in results):
        raise GameError("the mover's legal moves differ between the possible hidden positions: the mover's own cards must be known")
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    best = ranked[0][1]
    return [MoveValue(actions[name], name, value, best - value) for name, value in ranked]


def solved_exactly(game: Game, state: State, max_states: int = 2_000_000) -> SearchResult:
    """Every move's exact value at ``state`` from :func:`solver.exact.solve` of its whole state
    graph (cycles included), as a search result for :func:`analyse`'s ``exact``. Raises
    :class:`GameError` (with the count) when more than ``max_states`` states are reachable.

    >>> from solver.games import load_game
    >>> game = load_game("dicegeddon")
    >>> result = solved_exactly(game, game.parse("d4:3a/d4:3a a 20"))
    >>> result.moves[0].name, round(result.value, 6), result.exact   # 64/125
    ('A1>1', 0.512, True)
    """
    from solver.exact import solve

    started = time.perf_counter()
    solution = solve(game, state, max_states=max_states)
    moves = [MoveValue(m.action, m.name, m.value, m.loss) for m in solution.move_values(state)]
    certificate = "certified" if solution.certified else "NOT certified"
    return SearchResult(
        moves=moves, best=moves[0], value=moves[0].value, depth=0, nodes=0, cache_probes=0,
        cache_hits=0, elapsed=time.perf_counter() - started, pv=solution.principal_line(state, length=12),
        sampled_chance_nodes=0, exact=True,
        method=(f"exact: the whole state graph ({solution.num_states:,} states, {solution.num_components:,} "
                f"components) by strategy iteration; Bellman residual {solution.residual:.1e}, {certificate}"),
    )
