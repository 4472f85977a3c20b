"""``dicetree best GAME POSITION``: every legal move ranked, with values, losses and the line.

Usage::

    dicetree best rolldown "d6:2,d8:5/d4:3,d6:6 a QK/-" --top 5
    dicetree best rolldown "d8:5/d6:3 a -/-" --depth 2 --json --lines

The search and its libraries are imported when the command runs, not when ``dicetree`` starts.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace

import click

from dicetree.cli.options import (DEFAULT_TIME, PositionCommand, default_limits, example_option, game_argument,
                                  position_or_example, rule_option, tables_option)
from dicetree.solver.game import GameError
from dicetree.solver.multiplayer import SEARCH_HELP, SEARCHES
from dicetree.solver.ranking import loss_text

INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells give it."""


@click.command(cls=PositionCommand)
@game_argument
@click.argument("position", required=False)
@click.option("--depth", type=click.IntRange(1, 64), metavar="N",
              help="Search exactly N decisions deep (chance events do not count).")
@click.option("--time", "time_limit", type=click.FloatRange(0.01), metavar="SECONDS",
              help=f"Answer within SECONDS, hidden hands included (default {DEFAULT_TIME:g} without --depth, unless the game sets its own depth).")
@click.option("--top", type=click.IntRange(1), metavar="N", help="List the N best moves only (default: every move).")
@click.option("--lines", "with_lines", is_flag=True, help="Give every listed move its own principal line.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema dicetree.best/1, see docs/usage.md) instead of a table.")
@example_option
@click.option("--hands-exact", type=click.IntRange(1), default=100, show_default=True, metavar="N",
              help="Enumerate hidden hands exactly when there are at most N; else sample.")
@click.option("--hand-samples", type=click.IntRange(1), default=64, show_default=True, metavar="N",
              help="Hands sampled when there are too many.")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N",
              help="Seed for every sampled choice (reproducible answers).")
@click.option("--no-star2", is_flag=True, help="Star1 pruning only (no Star2 probing).")
@click.option("--no-cache", is_flag=True, help="Search without the transposition table.")
@click.option("--exact", is_flag=True,
              help="Exact values: from the game's stored exact values where it has them (endgame tables; small "
                   "missing ones are built first), else by solving the position's whole state graph (up to --max-states).")
@click.option("--max-states", type=click.IntRange(1), default=2_000_000, show_default=True, metavar="N",
              help="--exact without endgame tables: refuse positions with more reachable states.")
@click.option("--no-tables", is_flag=True, help="Do not probe stored exact values (endgame tables) during the search.")
@click.option("--search", "search", type=click.Choice(SEARCHES), metavar="|".join(SEARCHES),
              help=SEARCH_HELP[:1].upper() + SEARCH_HELP[1:] + "; with 1 or 2 players both are the same search. "
                   "Where players choose at once, 3+ players are searched by the paranoid reduction only.")
@tables_option
@rule_option
def best(game_name, position, depth, time_limit, top, with_lines, as_json, example, hands_exact, hand_samples, seed,
         no_star2, no_cache, exact, max_states, no_tables, search, tables_dir, rules) -> None:
    """Rank every legal move of POSITION for GAME, best first, with its value and loss.

    Where players choose at once, each player's choices are ranked with their optimal mixed
    strategy. Ctrl-C prints the answer of the last completed depth (exit status 130).

    \b
    Example:
      dicetree best rolldown "d6:2,d8:5/d4:3,d6:6 a QK/-" --top 5
    """
    from dicetree.solver.simultaneous import has_simultaneous_moves

    game, state = position_or_example(game_name, rules, position, example)
    depth, time_limit = default_limits(game, depth, time_limit)
    if has_simultaneous_moves(game):
        if search == "maxn" and game.num_players > 2:
            raise GameError(f"in {game.game_type.long_name} players choose at once: max^n is for games whose players "
                            "take turns (simultaneous choices of 3+ players are searched by the paranoid reduction)")
        if exact:
            raise GameError(f"--exact is not available for {game.game_type.long_name}: its simultaneous choices are "
                            "searched to a depth (use --depth or --time)")
        _best_simultaneous(game, state, depth, time_limit, top, as_json, seed, no_cache)
        return
    _best_turns(game, state, depth=depth, time_limit=time_limit, top=top, with_lines=with_lines, as_json=as_json,
                hands_exact=hands_exact, hand_samples=hand_samples, seed=seed, star2=not no_star2,
                use_cache=not no_cache, exact=exact, max_states=max_states, no_tables=no_tables, tables_dir=tables_dir,
                search=search)


def _best_turns(game, state, *, depth, time_limit, top, with_lines, as_json, hands_exact, hand_samples, seed, star2,
                use_cache, exact, max_states, no_tables, tables_dir, search) -> None:
    """Games whose players take turns: the search (or the exact values) averaged over hidden hands."""
    from dicetree.solver.advice import advice_json, turn_engine, with_exact_reach
    from dicetree.solver.analysis import Analysis, analyse

    engine = turn_engine(game, seed=seed, tables_dir=tables_dir, use_tables=not no_tables, exact=exact,
                         max_states=max_states, star2=star2, use_cache=use_cache, search=search)
    searcher, exact_answer, tables = engine
    completed: list[Analysis] = []

    def progress(answer: Analysis) -> None:
        completed[:] = [answer]
        if not as_json and not answer.exact:
            click.echo(f"  depth {answer.depth}: best {answer.best} {answer.value:.4f}  nodes {answer.stats.nodes:,}"
                       f"  {answer.stats.elapsed:.2f}s", err=True)

    def show(answer: Analysis, interrupted: bool = False) -> None:
        if interrupted:
            answer = replace(answer, interrupted=True, method=answer.method + _stopped_note(answer.depth))
        if as_json:
            click.echo(json.dumps(advice_json(answer, game, top, with_lines), indent=2))
        else:
            click.echo(format_analysis(answer, top=top, with_lines=with_lines))

    try:
        analysis = analyse(game, state, depth=depth, time_limit=time_limit, searcher=searcher,
                           hands_exact=hands_exact, hand_samples=hand_samples, seed=seed, on_answer=progress,
                           exact=exact_answer, lines=with_lines)
    except KeyboardInterrupt:
        _interrupted(completed, show)
    show(with_exact_reach(analysis, game, state, tables))


def _interrupted(completed: list, show) -> None:
    """After Ctrl-C: the last completed depth's answer (as engines report their best so far), exit 130."""
    if not completed:
        click.echo("interrupted before the first depth was complete: no answer", err=True)
    else:
        show(completed[0], True)
    sys.exit(INTERRUPTED)


def _stopped_note(depth: int) -> str:
    return f"; interrupted (Ctrl-C) during depth {depth + 1}: the answer of depth {depth}"


def _best_simultaneous(game, state, depth, time_limit, top, as_json, seed, no_cache) -> None:
    """Games with simultaneous moves: each player's choices, values and optimal mixed strategy."""
    from dicetree.solver.advice import advice_json
    from dicetree.solver.simultaneous import SimultaneousSearcher

    searcher = SimultaneousSearcher(game, seed=seed, use_cache=not no_cache)
    completed: list = []

    def progress(result) -> None:
        completed[:] = [result]
        if not as_json:
            values = "  ".join(f"{a.name} {a.value:.4f}" for a in result.players)
            click.echo(f"  depth {result.depth}: {values}  nodes {result.stats.nodes:,}  {result.stats.elapsed:.2f}s",
                       err=True)

    def show(result, interrupted: bool = False) -> None:
        if interrupted:
            result = replace(result, method=result.method + _stopped_note(result.depth))
        if as_json:
            click.echo(json.dumps(advice_json(result, game, top, interrupted=interrupted), indent=2))
        else:
            click.echo(result.to_text(top=top))

    try:
        result = searcher.search(state, depth=depth, time_limit=time_limit, on_iteration=progress)
    except KeyboardInterrupt:
        _interrupted(completed, show)
    show(result)


def format_analysis(analysis, top: int | None = None, with_lines: bool = False) -> str:
    """The human-readable answer: header (how the value was reached), ranked moves with their loss
    (how much worse than the best, never negative), the principal line(s), notes."""
    mover = analysis.mover_name
    stats = analysis.stats
    lines = [
        f"Position  {analysis.position}",
        f"{mover} to move; value = {analysis.value_meaning}, for {mover}",
        f"Search    {analysis.method}",
    ]
    if stats.nodes:
        lines.append(f"          {stats.nodes:,} nodes, {stats.cache_hits:,} cache hits "
                     f"({stats.cache_hit_rate:.1%} of probes), {stats.elapsed:.2f} s, {stats.nodes_per_second:,.0f} nodes/s")
    if stats.table_probes and stats.nodes:
        lines.append(f"          endgame tables: {stats.table_hits:,} hits in {stats.table_probes:,} probes")
    lines += [f"Assumed   {assumption}" for assumption in analysis.assumptions]
    if analysis.exact_within_reach:
        lines.append(f"Exact     not computed (the value above is depth-limited); {analysis.exact_within_reach}")
    listed = analysis.moves[:top]
    digits = analysis.decimals
    width = max(12, *(len(move.name) for move in listed))
    lines += ["", f"  #  {'move':<{width}} {'value':>8}  {'loss':>8}" + ("  line" if with_lines else "")]
    for rank, move in enumerate(listed, 1):
        loss = loss_text(move, rank, digits)
        row = f"{rank:>3}  {move.name:<{width}} {move.value:>8.{digits}f}  {loss:>8}"
        if with_lines:
            row += "  " + " ".join(analysis.line_of(move))
        lines.append(row.rstrip())
    if len(listed) < len(analysis.moves):
        more = len(analysis.moves) - len(listed)
        lines.append(f"     ... {more} more move{'s' if more > 1 else ''} (--top N lists N)")
    lines += ["", f"Principal line: {' '.join(analysis.pv) if analysis.pv else '(none)'}"]
    if analysis.hidden:
        lines.append(f"Hidden cards: {analysis.hidden}")
    lines += [f"Note: {note}" for note in analysis.notes]
    return "\n".join(lines)
