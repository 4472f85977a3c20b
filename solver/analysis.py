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
from dataclasses import dataclass, field, replace

from solver.exact import solve
from solver.game import Game, GameError, State
from solver.limits import SearchStats
from solver.paranoid import meaning as paranoid_meaning
from solver.ranking import MoveValue, rank_moves
from solver.search import Searcher, SearchResult


@dataclass(frozen=True)
class Analysis:
    """The answer to "best move?", ready for output: ``stats`` are the searches' of every concrete
    position together, with the whole analysis's time."""

    position: str
    mover: int
    mover_name: str  # as the game names the player (``Game.player_name``)
    moves: list[MoveValue]
    depth: int
    stats: SearchStats
    pv: list[str]
    method: str
    value_meaning: str
    hidden: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> str:
        return self.moves[0].name

    @property
    def value(self) -> float:
        return self.moves[0].value

    def to_json(self) -> dict:
        stats = self.stats
        return {
            "position": self.position,
            "mover": self.mover_name.lower(),
            "moves": [{"move": m.name, "value": m.value, "loss": m.loss} for m in self.moves],
            "best": self.best,
            "value": self.value,
            "value_meaning": self.value_meaning,
            "depth": self.depth,
            "nodes": stats.nodes,
            "cache_hits": stats.cache_hits,
            "cache_probes": stats.cache_probes,
            "time": round(stats.elapsed, 4),
            "pv": self.pv,
            "method": self.method,
            "hidden_information": self.hidden,
            "notes": self.notes,
            "table_probes": stats.table_probes,
            "table_hits": stats.table_hits,
        }

    def _repr_html_(self) -> str:
        """Jupyter shows the ranked moves with value and loss bars, the method and the line."""
        import html

        low = min(0.0, *(m.value for m in self.moves))
        span = max(1.0, *(m.value for m in self.moves)) - low or 1.0
        rows = "".join(
            f"<tr><td>{rank}</td><td><code>{html.escape(m.name)}</code></td><td>{m.value:.4f}</td>"
            f"<td><div style='width:8em;background:#eee'><div style='width:{100 * (m.value - low) / span:.1f}%;"
            f"height:0.7em;background:#5d9fd0'></div></div></td><td style='color:#b03030'>"
            f"{'' if rank == 1 else f'{-m.loss:+.4f}'}</td></tr>"
            for rank, m in enumerate(self.moves, 1))
        return (f"<div><code>{html.escape(self.position)}</code> · {html.escape(self.mover_name)} to move"
                f"<table><tr><th>#</th><th>move</th><th>value</th><th></th><th>loss</th></tr>{rows}</table>"
                f"<small>{html.escape(self.method)}; value: {html.escape(self.value_meaning)}<br>"
                f"line: {html.escape(' '.join(self.pv))}</small></div>")


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
        stats=replace(sum((r.stats for r in results), SearchStats()), elapsed=time.perf_counter() - started),
        pv=results[heaviest].pv,
        method=results[heaviest].method,
        value_meaning=_meaning(game),
        hidden=deals.description,
        notes=sorted(notes),
    )


def _meaning(game: Game) -> str:
    """What the searched values mean: the game's own meaning, and with three or more players the
    reduction the search used."""
    if game.num_players <= 2:
        return game.describe_value()
    return f"{game.describe_value()}; {paranoid_meaning(game)}"


def _average_moves(results: list[SearchResult], weights: tuple[float, ...]) -> list[MoveValue]:
    """Each move's weighted mean value over the concrete positions, best first."""
    totals: dict[str, float] = {}
    actions = {}
    for result, weight in zip(results, weights):
        for move in result.moves:
            totals[move.name] = totals.get(move.name, 0.0) + weight * move.value
            actions.setdefault(move.name, move.action)
    if any({m.name for m in r.moves} != set(totals) for r in results):
        raise GameError("the mover's legal moves differ between the possible hidden positions: "
                        "the mover's own cards must be known")
    return rank_moves((actions[name], name, value) for name, value in totals.items())


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
    started = time.perf_counter()
    solution = solve(game, state, max_states=max_states)
    moves = solution.move_values(state)
    certificate = "certified" if solution.certified else "NOT certified"
    return SearchResult(
        moves=moves, value=moves[0].value, depth=0, pv=solution.principal_line(state, length=12),
        method=(f"exact: the whole state graph ({solution.num_states:,} states, {solution.num_components:,} "
                f"components) by strategy iteration; Bellman residual {solution.residual:.1e}, {certificate}"),
        stats=SearchStats(elapsed=time.perf_counter() - started), exact=True,
    )
