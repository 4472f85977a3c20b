"""The engine's advice at a position, whatever kind of game: what ``dicetree best`` answers.

:func:`advise` runs the same analysis as ``dicetree best``: :func:`dicetree.solver.analysis.analyse` where
players take turns (stored exact values probed where the game has them), the
:class:`~dicetree.solver.simultaneous.SimultaneousSearcher` where they choose at once.
:func:`advice_json` is what ``best --json`` prints and the explorer serves. :func:`choices_of`
reads one player's ranked options from either answer, for an engine seat or a review of a person's
moves. (Below, the search's own evaluation: stored tables, wherever some are, would make the values exact.)

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> answer = advise(game, game.parse("d8:5/d6:3 a -/-"), depth=1, use_tables=False)  # the evaluation, not stored tables
    >>> [(m.name, round(m.value, 3)) for m in choices_of(answer, 0)]
    [('d8xd6', 1.0), ('roll b.d6', 0.586), ('roll a.d8', 0.545)]
    >>> game = load_game("dicegeddon")
    >>> answer = advise(game, game.parse("d4:3a/d4:3a a 20"), exact=True)
    >>> answer.best, round(answer.value, 6), answer.method.split(":")[0]
    ('A1>1', 0.512, 'exact')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import NamedTuple

from dicetree.solver.analysis import Analysis, analyse, exact_within_reach, simultaneous_json, solved_exactly
from dicetree.solver.game import Game, GameError, State
from dicetree.solver.multiplayer import turn_searcher
from dicetree.solver.providers import ExactValues
from dicetree.solver.ranking import MoveValue
from dicetree.solver.maxn import MaxnSearcher
from dicetree.solver.search import Searcher, SearchResult
from dicetree.solver.simultaneous import SimultaneousResult, SimultaneousSearcher, has_simultaneous_moves

Advice = Analysis | SimultaneousResult


def advise(game: Game, state: State, *, depth: int | None = None, time_limit: float | None = None,
           seed: int = 0, tables_dir: str | None = None, use_tables: bool = True, exact: bool = False,
           max_states: int = 2_000_000, on_iteration: Callable[[object], None] | None = None,
           search: str | None = None) -> Advice:
    """Every legal move (or each player's choices) of ``state`` ranked, searched ``depth`` decisions
    deep or for ``time_limit`` seconds (with neither: the searcher's default depth); ``on_iteration``
    is given the answer of each completed depth (it has ``depth`` and ``stats``). With ``exact``,
    exact values as ``best --exact`` gives them: from the game's stored exact values where it has
    them, else by solving the whole state graph (one line of error beyond ``max_states`` states).
    ``search`` picks max^n or paranoid for three or more players (:mod:`dicetree.solver.multiplayer`)."""
    if has_simultaneous_moves(game):
        if exact:
            raise GameError(f"exact values are not available for {game.game_type.long_name}: its simultaneous "
                            "choices are searched to a depth")
        return SimultaneousSearcher(game, seed=seed).search(state, depth=depth, time_limit=time_limit,
                                                            on_iteration=on_iteration)
    engine = turn_engine(game, seed=seed, tables_dir=tables_dir, use_tables=use_tables, exact=exact,
                         max_states=max_states, search=search)
    answer = analyse(game, state, depth=depth, time_limit=time_limit, searcher=engine.searcher, seed=seed,
                     on_answer=on_iteration, exact=engine.exact)
    return with_exact_reach(answer, game, state, engine.tables)


def with_exact_reach(answer: Analysis, game: Game, state: State, tables: ExactValues | None) -> Analysis:
    """A depth-limited ``answer`` with what would give exact values said (``--exact``, where within
    reach), as ``best`` prints it; an exact answer as it is."""
    if answer.exact:
        return answer
    return replace(answer, exact_within_reach=exact_within_reach(game, state, tables))


def advice_json(answer: Advice, game: Game, top: int | None = None, lines: bool = False,
                interrupted: bool = False) -> dict:
    """``answer`` as ``dicetree best --json`` prints it and the explorer's ``/api/best`` serves it
    (:data:`dicetree.solver.analysis.BEST_JSON_SCHEMA`, the one builder of both): the ``top`` best
    moves (all without it), each with its own line where ``lines``."""
    if isinstance(answer, Analysis):
        return answer.to_json(top=top, lines=lines)
    return {**simultaneous_json(answer, game.game_type.short_name, top), "interrupted": interrupted}


class TurnEngine(NamedTuple):
    """What answers "best move?" where players take turns: the searcher (probing the game's stored
    exact values where it has them), the exact answer of a concrete position where exact values were
    asked for (else None), and the stored exact values themselves (None where the game has none)."""

    searcher: Searcher | MaxnSearcher
    exact: Callable[[State], SearchResult] | None
    tables: ExactValues | None


def turn_engine(game: Game, *, seed: int = 0, tables_dir: str | None = None, use_tables: bool = True,
                exact: bool = False, max_states: int = 2_000_000, star2: bool = True,
                use_cache: bool = True, search: str | None = None) -> TurnEngine:
    """The :class:`TurnEngine` of ``best`` and of every caller that answers as ``best`` does. With
    ``exact``: the stored exact values (one line if the game has them but they are missing), else the
    whole state graph solved (refused beyond ``max_states`` states). ``search``: max^n or paranoid
    for three or more players (None: :data:`dicetree.solver.multiplayer.DEFAULT_SEARCH`)."""
    tables = game.exact_provider(tables_dir, required=exact) if use_tables or exact else None
    exact_answer = None
    if exact:
        exact_answer = tables.exact_result if tables is not None else partial(solved_exactly, game, max_states=max_states)
    oracle = tables.oracle() if tables is not None else None
    searcher = turn_searcher(game, search, star2=star2, use_cache=use_cache, seed=seed, oracle=oracle)
    return TurnEngine(searcher, exact_answer, tables)


def choices_of(answer: Advice, player: int) -> list[MoveValue]:
    """``player``'s options in ``answer``, best first, valued from that player's view."""
    if isinstance(answer, Analysis):
        if answer.mover != player:
            raise GameError(f"the analysis is of {answer.mover_name}'s move, not of player {player + 1}'s")
        return list(answer.moves)
    for choices in answer.players:
        if choices.player == player:
            return list(choices.choices)
    raise GameError(f"player {player + 1} has no choice at '{answer.position}'")


__all__ = ["Advice", "TurnEngine", "advice_json", "advise", "with_exact_reach", "choices_of", "turn_engine"]
