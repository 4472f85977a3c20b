""""Best move?" for a position: every legal move ranked, averaged over hidden information.

A position may hide information (RolldownBeta's unknown cards). :func:`analyse` asks the game for
the concrete positions it may be (:meth:`Game.determinize`), searches each, and averages every
move's value with the positions' weights — the mover picks one move without knowing which
position is real. (Averaging lets the search of each position see the hidden cards; this is the
usual "perfect-information Monte Carlo" estimate and is said so in the output.)

>>> from dicetree.solver.games import load_game
>>> game = load_game("rolldown")
>>> analysis = analyse(game, game.parse("d8:5/d6:3 a -/-"), depth=1)
>>> analysis.best, analysis.value
('d8xd6', 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from dicetree.solver.game import Action, Deals, Game, GameError, State
from dicetree.solver.limits import SearchLimits, SearchStats
from dicetree.solver.multiplayer import meaning as search_meaning
from dicetree.solver.multiplayer import turn_searcher
from dicetree.solver.ranking import MoveValue, loss_text, rank_moves
from dicetree.solver.search import Searcher, SearchResult

if TYPE_CHECKING:
    from dicetree.solver.simultaneous import SimultaneousResult
    from dicetree.solver.maxn import MaxnSearcher


SCHEMA = "dicetree.best/1"
"""The version of ``best --json``'s answer (:data:`BEST_JSON_SCHEMA`): the number grows when a
field changes meaning or goes away; new optional fields keep it."""

_MOVE_SCHEMA = {
    "type": "object",
    "required": ["move", "value", "loss", "tied"],
    "properties": {
        "move": {"type": "string"},
        "value": {"type": "number", "description": "the move's value for the player choosing it"},
        "loss": {"type": "number", "minimum": 0, "description": "how much worse than the best move (0 for it)"},
        "tied": {"type": "boolean", "description": "within rounding of the best (the best included)"},
        "probability": {"type": "number", "description": "its weight in the player's strategy (simultaneous)"},
        "values": {"type": ["array", "null"], "items": {"type": "number"},
                   "description": "every player's value, in seat order, where the search gives them"},
        "pv": {"type": "array", "items": {"type": "string"}, "description": "the move's own line (--lines)"},
    },
}

BEST_JSON_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": f"dicetree best --json ({SCHEMA})",
    "type": "object",
    "required": ["schema", "game", "position", "node", "mover", "value_meaning", "moves", "legal_moves", "best",
                 "value", "method", "exact", "depth", "pv", "notes", "nodes", "time"],
    "properties": {
        "schema": {"const": SCHEMA},
        "game": {"type": "string"},
        "position": {"type": "string", "description": "the position in the game's canonical notation"},
        "node": {"enum": ["decision", "simultaneous"]},
        "mover": {"type": "string", "description": "the player whose moves `moves` lists"},
        "value_meaning": {"type": "string"},
        "moves": {"type": "array", "items": _MOVE_SCHEMA, "description": "best first; --top N keeps N"},
        "legal_moves": {"type": "integer", "description": "how many moves there are (before --top)"},
        "best": {"type": "string"},
        "value": {"type": "number"},
        "method": {"type": "string", "description": "how the value was reached"},
        "exact": {"type": "boolean", "description": "the values are the game's own, not depth-limited"},
        "exact_within_reach": {"type": ["string", "null"],
                               "description": "for a depth-limited answer: how an exact one could be had"},
        "depth": {"type": "integer", "description": "decisions searched (0: exact values, no search)"},
        "pv": {"type": "array", "items": {"type": "string"},
               "description": "decisions by name, chance events in brackets"},
        "hidden_information": {"type": "string"},
        "value_uncertainty": {"type": "number", "minimum": 0,
                              "description": "how far the values may be off where they are estimates (0: exact to rounding)"},
        "interrupted": {"type": "boolean"},
        "notes": {"type": "array", "items": {"type": "string"}},
        "assumptions": {"type": "array", "items": {"type": "string"},
                        "description": "what the game's data assumes that its rule text does not say"},
        "nodes": {"type": "integer"},
        "cache_hits": {"type": "integer"},
        "cache_probes": {"type": "integer"},
        "table_probes": {"type": "integer"},
        "table_hits": {"type": "integer"},
        "matrix_games": {"type": "integer"},
        "linear_programs": {"type": "integer"},
        "time": {"type": "number"},
        "players": {
            "type": "array",
            "description": "simultaneous nodes: every choosing player's value, mixed strategy and moves",
            "items": {
                "type": "object",
                "required": ["player", "value", "strategy", "moves"],
                "properties": {
                    "player": {"type": "string"},
                    "value": {"type": "number"},
                    "strategy": {"type": "object", "additionalProperties": {"type": "number"}},
                    "moves": {"type": "array", "items": _MOVE_SCHEMA},
                },
            },
        },
    },
}
"""The JSON Schema of ``dicetree best --json`` for every game (``dicetree best --schema`` prints it)."""


def move_json(move: MoveValue, *, line: list[str] | None = None, probability: bool = False) -> dict:
    """One move of a ``best --json`` answer (see :data:`BEST_JSON_SCHEMA`)."""
    entry: dict = {"move": move.name, "value": move.value, "loss": move.loss, "tied": move.tied}
    if probability:
        entry["probability"] = move.probability
    values = getattr(move, "values", None)  # every player's value, where the search gives them
    if values is not None:
        entry["values"] = list(values)
    if line is not None:
        entry["pv"] = line
    return entry


@dataclass(frozen=True)
class Analysis:
    """The answer to "best move?", ready for output: ``stats`` are the searches' of every concrete
    position together, with the whole analysis's time. ``lines`` holds every move's own principal
    line where they were asked for; ``exact_within_reach`` says, for a depth-limited answer, how an
    exact one could be had ("" if none is known to be); ``interrupted`` marks a best-so-far answer."""

    game: str
    position: str
    mover: int
    mover_name: str  # as the game names the player (``Game.player_name``)
    moves: list[MoveValue]
    depth: int
    stats: SearchStats
    pv: list[str]
    method: str
    value_meaning: str
    exact: bool = False
    hidden: str = ""
    notes: list[str] = field(default_factory=list)
    lines: dict[str, list[str]] | None = None
    exact_within_reach: str = ""
    interrupted: bool = False
    assumptions: tuple[str, ...] = ()
    """What the game's data assumes (:meth:`~dicetree.solver.game.Game.assumptions`): said in the header."""
    uncertainty: float = 0.0  # how far the values may be off, where they are estimates (Game.value_uncertainty)

    @property
    def decimals(self) -> int:
        """Digits after the point that the values can tell: 4, or fewer where they are estimates
        (one more than the uncertainty's first digit: ±1.32 shows 85.8)."""
        if self.uncertainty <= 0:
            return 4
        return max(0, min(4, 1 - math.floor(math.log10(self.uncertainty))))

    @property
    def best(self) -> str:
        return self.moves[0].name

    @property
    def value(self) -> float:
        return self.moves[0].value

    def line_of(self, move: MoveValue) -> list[str]:
        """The move's own principal line (the move alone where the answer holds no line for it)."""
        if move.name == self.best and self.pv:
            return self.pv
        return (self.lines or {}).get(move.name) or [move.name]

    def to_json(self, top: int | None = None, lines: bool = False) -> dict:
        """The answer as :data:`BEST_JSON_SCHEMA` says, the ``top`` best moves listed (all without it)."""
        stats = self.stats
        return {
            "schema": SCHEMA,
            "game": self.game,
            "position": self.position,
            "node": "decision",
            "mover": self.mover_name,
            "value_meaning": self.value_meaning,
            "moves": [move_json(m, line=self.line_of(m) if lines else None) for m in self.moves[:top]],
            "legal_moves": len(self.moves),
            "best": self.best,
            "value": self.value,
            "method": self.method,
            "exact": self.exact,
            "exact_within_reach": self.exact_within_reach or None,
            "depth": self.depth,
            "pv": self.pv,
            "hidden_information": self.hidden,
            "interrupted": self.interrupted,
            "notes": self.notes,
            "assumptions": list(self.assumptions),
            "nodes": stats.nodes,
            "cache_hits": stats.cache_hits,
            "cache_probes": stats.cache_probes,
            "table_probes": stats.table_probes,
            "table_hits": stats.table_hits,
            "time": round(stats.elapsed, 4),
            "value_uncertainty": self.uncertainty,
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
            f"{loss_text(m, rank)}</td></tr>"
            for rank, m in enumerate(self.moves, 1))
        return (f"<div><code>{html.escape(self.position)}</code> · {html.escape(self.mover_name)} to move"
                f"<table><tr><th>#</th><th>move</th><th>value</th><th></th><th>loss</th></tr>{rows}</table>"
                f"<small>{html.escape(self.method)}; value: {html.escape(self.value_meaning)}<br>"
                f"line: {html.escape(' '.join(self.pv))}</small></div>")


def simultaneous_json(result: SimultaneousResult, game: str, top: int | None = None) -> dict:
    """A simultaneous search's answer in :data:`BEST_JSON_SCHEMA`: the first choosing player's moves
    as ``moves``/``best``/``value`` (as at any node), and ``players`` with every chooser's strategy."""
    first = result.players[0]
    stats = result.stats
    return {
        "schema": SCHEMA,
        "game": game,
        "position": result.position,
        "node": result.node,
        "mover": first.name,
        "value_meaning": result.value_meaning,
        "moves": [move_json(m, probability=True) for m in first.choices[:top]],
        "legal_moves": len(first.choices),
        "best": first.choices[0].name,
        "value": first.value,
        "method": result.method,
        "exact": result.exact,
        "exact_within_reach": None,
        "depth": result.depth,
        "pv": list(result.pv),
        "interrupted": False,
        "notes": result.notes,
        "nodes": stats.nodes,
        "cache_hits": stats.cache_hits,
        "cache_probes": stats.cache_probes,
        "matrix_games": stats.matrix_games,
        "linear_programs": stats.linear_programs,
        "time": round(stats.elapsed, 4),
        "players": [
            {
                "player": answer.name,
                "value": answer.value,
                "strategy": {c.name: c.probability for c in answer.choices if c.probability > 0},
                "moves": [move_json(c, probability=True) for c in answer.choices[:top]],
            }
            for answer in result.players
        ],
    }


def analyse(
    game: Game,
    state: State,
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    searcher: Searcher | MaxnSearcher | None = None,
    hands_exact: int = 100,
    hand_samples: int = 64,
    seed: int = 0,
    on_answer: Callable[[Analysis], None] | None = None,
    exact: Callable[[State], SearchResult] | None = None,
    lines: bool = False,
) -> Analysis:
    """Rank every legal move of ``state`` (values from the mover's view), searching each
    concrete position its hidden information allows. With ``exact`` (exact move values of a
    concrete position, e.g. from endgame tables) that replaces the search.

    The search deepens every concrete position together, one depth at a time, so that
    ``time_limit`` bounds the whole answer: the answer is that of the deepest depth completed for
    all of them. ``on_answer`` is called with the answer of each completed depth (a caller
    interrupted by Ctrl-C keeps the last one); ``lines`` gives every move its own line.
    """
    player = game.current_player(state)
    if player < 0:
        raise GameError("no player decides at this position (it is a chance node or the game is over)")
    deals = game.determinize(state, max_exact=hands_exact, samples=hand_samples, seed=seed)
    searcher = searcher or turn_searcher(game, seed=seed)
    kind = getattr(searcher, "search_kind", None)
    if exact is None and isinstance(searcher, Searcher):  # a compiled search compiles (or loads) before the clock starts
        searcher.compiled_for(deals.states[0])
    started = time.perf_counter()

    def answer(results: list[SearchResult]) -> Analysis:
        return _combine(game, state, player, deals, results, started, kind)

    def report(results: list[SearchResult]) -> Analysis:
        combined = answer(results)
        if on_answer is not None:
            on_answer(combined)
        return combined

    if exact is not None:
        return _said(game, state, report([exact(concrete) for concrete in deals.states]), time_limit, deals)
    if len(deals.states) == 1:
        result = searcher.search(deals.states[0], depth=depth, time_limit=time_limit, lines=lines,
                                 on_iteration=lambda r: report([r]))
        return _said(game, state, answer([result]), time_limit, deals)
    return _said(game, state, _deepen_together(searcher, deals.states, depth, time_limit, lines, started, report),
                 time_limit, deals)


SHALLOW_DEPTH = 1
"""An answer searched no deeper than this within a time limit is said to be shallow."""


def _said(game: Game, state: State, answer: Analysis, time_limit: float | None, deals: Deals) -> Analysis:
    """``answer`` with what its numbers cannot tell said: values that are estimates (shown to the
    digits they can tell), and a time limit that reached only a shallow depth (with what goes deeper)."""
    notes = list(answer.notes)
    uncertainty = game.value_uncertainty(state)
    if uncertainty > 0:
        shown = replace(answer, uncertainty=uncertainty)
        notes.append(f"the values are estimates within about ±{uncertainty:g} of the truth (the game's measured "
                     f"error), shown to {shown.decimals} decimal{'s' * (shown.decimals != 1)}: moves closer than "
                     "that are not told apart")
    if time_limit is not None and not answer.exact and answer.depth <= SHALLOW_DEPTH:
        hands = f" for each of {len(deals.states)} hidden hands" if len(deals.states) > 1 else ""
        notes.append(f"{time_limit:g} s reached depth {answer.depth} only{hands}: a shallow answer; "
                     f"`--depth {answer.depth + 1}` or a longer `--time` goes deeper")
    return replace(answer, notes=notes, uncertainty=uncertainty)


def _deepen_together(searcher: Searcher | MaxnSearcher, states, depth: int | None, time_limit: float | None, lines: bool,
                     started: float, report: Callable[[list[SearchResult]], Analysis]) -> Analysis:
    """Iterative deepening over several concrete positions at once: depth d of every one of them
    before depth d + 1 of any; within ``time_limit`` the last depth all of them completed counts
    (its values; the counts and the time are those of every search, an abandoned depth's included)."""
    deepest = SearchLimits(depth, time_limit).max_depth(searcher.default_depth)
    completed: Analysis | None = None
    spent = SearchStats()

    def stopped(how: str) -> Analysis:
        assert completed is not None
        return replace(completed, method=f"{completed.method}; time limit {time_limit:.3g} s reached {how}",
                       stats=replace(spent, elapsed=time.perf_counter() - started))

    for iteration in range(1, deepest + 1):
        results = []
        for concrete in states:
            left = None if time_limit is None else time_limit - (time.perf_counter() - started)
            if completed is not None and left is not None and left <= 0:
                break
            result = searcher.search(concrete, depth=iteration, time_limit=None if completed is None else left,
                                     lines=lines)
            spent += result.stats
            if result.depth < iteration:  # its time ran out within this depth
                break
            results.append(result)
        if len(results) < len(states):
            return stopped(f"during depth {iteration}")
        completed = report(results)
        if all(r.exact for r in results):
            break
        if time_limit is not None and time.perf_counter() - started >= time_limit and iteration < deepest:
            return stopped(f"after depth {iteration}")
    assert completed is not None
    return completed


def _combine(game: Game, state: State, player: int, deals, results: list[SearchResult], started: float,
             search: str | None = None) -> Analysis:
    """One answer from the searches of every concrete position (their moves' values averaged)."""
    moves = _average_moves(results, deals.weights)
    heaviest = max(range(len(results)), key=lambda i: deals.weights[i])
    notes = []
    method = results[heaviest].method
    if len(results) > 1:
        notes.append(
            "each hand was solved as if its cards were seen (perfect-information averaging); "
            "the principal line is that of the likeliest hand"
        )
        if not results[heaviest].exact:
            depth = results[heaviest].depth
            method = f"depth {depth} for each of {len(results)} hands {method.removeprefix(f'depth {depth} ')}"
    return Analysis(
        game=game.game_type.short_name,
        position=game.format(state),
        mover=player,
        mover_name=game.player_name(player),
        moves=moves,
        depth=min(r.depth for r in results),
        stats=replace(sum((r.stats for r in results), SearchStats()), elapsed=time.perf_counter() - started),
        pv=results[heaviest].pv,
        method=method,
        value_meaning=search_meaning(game, search, game.describe_answer(state, all(r.exact for r in results))),
        exact=all(r.exact for r in results),
        hidden=deals.description,
        notes=sorted(notes),
        lines=results[heaviest].lines,
        assumptions=game.assumptions(),
    )


def _average_moves(results: list[SearchResult], weights: tuple[float, ...]) -> list[MoveValue]:
    """Each move's weighted mean value over the concrete positions, best first."""
    totals: dict[str, float] = {}
    actions: dict[str, Action] = {}
    for result, weight in zip(results, weights):
        for move in result.moves:
            totals[move.name] = totals.get(move.name, 0.0) + weight * move.value
            actions.setdefault(move.name, move.action)
    if any({m.name for m in r.moves} != set(totals) for r in results):
        raise GameError("the mover's legal moves differ between the possible hidden positions: "
                        "the mover's own cards must be known")
    return rank_moves((actions[name], name, value) for name, value in totals.items())


def solved_exactly(game: Game, state: State, max_states: int = 2_000_000) -> SearchResult:
    """Every move's exact value at ``state`` from :func:`dicetree.solver.exact.solve` of its whole state
    graph (cycles included), as a search result for :func:`analyse`'s ``exact``. Raises
    :class:`GameError` (with the count) when more than ``max_states`` states are reachable.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("dicegeddon")
    >>> result = solved_exactly(game, game.parse("d4:3a/d4:3a a 20"))
    >>> result.moves[0].name, round(result.value, 6), result.exact   # 64/125
    ('A1>1', 0.512, True)
    """
    from dicetree.solver.exact import solve  # numpy, networkx and scipy.sparse: loaded by the first exact answer

    started = time.perf_counter()
    solution = solve(game, state, max_states=max_states)
    moves = solution.move_values(state)
    certificate = "certified" if solution.certified else "NOT certified"
    lines = {move.name: [move.name] + solution.principal_line(game.apply(state, move.action), length=11)
             for move in moves}
    return SearchResult(
        moves=moves, value=moves[0].value, depth=0, pv=lines[moves[0].name], lines=lines,
        method=(f"exact: the whole state graph ({solution.num_states:,} states, {solution.num_components:,} "
                f"components) by strategy iteration; Bellman residual {solution.residual:.1e}, {certificate}"),
        stats=SearchStats(elapsed=time.perf_counter() - started), exact=True,
    )


REACH_STATES = 2_000
"""``exact_within_reach`` explores at most this many states of a game without stored exact values
(a few hundredths to a few tenths of a second) before it gives up saying an exact answer is within reach."""


def exact_within_reach(game: Game, state: State, tables) -> str:
    """For a depth-limited answer at ``state``: how an exact one could be had, or "" where none is
    known to be within reach. A game's stored exact values (``tables``, its exact provider) say so
    themselves (their optional ``within_reach(state)``); for any other game, a whole state graph of
    at most :data:`REACH_STATES` states is within reach of ``--exact``, and a larger one may be
    (solving it is tried up to ``--max-states``).

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("dicegeddon")
    >>> exact_within_reach(game, game.parse("d4:3a/d4:3a a 20"), None)
    'the whole state graph has 213 states: `--exact` solves it'
    """
    if tables is not None:
        reach = getattr(tables, "within_reach", None)
        return (reach(state) or "") if reach is not None else ""
    if game.game_type.hidden_information or game.game_type.simultaneous:
        return ""
    from dicetree.solver.state_graph import build_graph

    try:
        graph = build_graph(game, state, REACH_STATES)
    except GameError:  # larger: exact may still be near (Dicegeddon's battles of a few dice take seconds)
        return (f"`--exact` may solve the whole state graph: it has more than {REACH_STATES:,} states (`--exact` "
                "refuses beyond `--max-states`, 2,000,000 by default)")
    return f"the whole state graph has {graph.num_states:,} states: `--exact` solves it"


@dataclass(frozen=True)
class PositionCheck:
    """What ``dicetree check`` says of a position, without searching: its canonical form, whose turn
    it is (``turn``: ``decision``, ``simultaneous``, ``chance`` or ``over``), the legal moves of each
    player who chooses (by name), and how hidden information was read."""

    game: str
    position: str
    turn: str
    summary: str
    moves: dict[str, list[str]]
    hidden: str = ""

    def to_json(self) -> dict:
        return {"game": self.game, "position": self.position, "turn": self.turn, "summary": self.summary,
                "moves": self.moves, "hidden_information": self.hidden}

    def to_text(self) -> str:
        lines = [f"Position  {self.position}", f"Turn      {self.summary}"]
        for player, names in self.moves.items():
            lines.append(f"{player} has {len(names)} legal move{'s' if len(names) != 1 else ''}: {', '.join(names)}")
        if self.hidden:
            lines.append(f"Hidden cards: {self.hidden}")
        return "\n".join(lines)


def check_position(game: Game, state: State, hands_exact: int = 100, hand_samples: int = 64,
                   seed: int = 0) -> PositionCheck:
    """Read ``state`` as ``best`` would, without searching: every concrete position its hidden
    information allows is dealt (as ``best`` deals them) and must give the mover the same moves;
    a position ``best`` could not search raises its one-line :class:`GameError` here.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> print(check_position(game, game.parse("d8:5/d6:3  a -/-")).to_text())
    Position  d8:5/d6:3 a -/-
    Turn      A to move
    A has 3 legal moves: d8xd6, roll a.d8, roll b.d6
    """
    from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL

    name = game.game_type.short_name
    position = game.format(state)
    player = game.current_player(state)
    if player == TERMINAL:
        returns = ", ".join(f"{game.player_name(p)} {r:g}" for p, r in enumerate(game.returns(state)))
        return PositionCheck(name, position, "over", f"the game is over (returns: {returns})", {})
    if player == CHANCE:
        count = game.chance_outcome_count(state)
        return PositionCheck(name, position, "chance",
                             f"chance acts next ({count:,} outcomes): `best` searches the position after it", {})
    if player == SIMULTANEOUS:
        options = game.joint_actions(state)
        moves = {game.player_name(p): [game.action_name(state, a) for a in own] for p, own in enumerate(options) if own}
        return PositionCheck(name, position, "simultaneous", f"{', '.join(moves)} choose at once", moves)
    deals = game.determinize(state, max_exact=hands_exact, samples=hand_samples, seed=seed)
    named = [{game.action_name(concrete, a) for a in game.legal_actions(concrete)} for concrete in deals.states]
    if any(names != named[0] for names in named):
        raise GameError("the mover's legal moves differ between the possible hidden positions: "
                        "the mover's own cards must be known")
    names = [game.action_name(state, a) for a in game.legal_actions(deals.states[0])]
    if not names:
        raise GameError(f"no legal move at '{position}'")
    return PositionCheck(name, position, "decision", f"{game.player_name(player)} to move",
                         {game.player_name(player): names}, deals.description)
