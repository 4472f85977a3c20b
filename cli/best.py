"""``dicetree best GAME POSITION``: every legal move ranked, with values, losses and the line."""

from __future__ import annotations

import json
from functools import partial

import click

from cli.options import PositionCommand, game_argument, load_with_rules, rule_option, tables_option
from solver.analysis import Analysis, analyse, solved_exactly
from solver.game import GameError
from solver.search import Searcher
from solver.simultaneous import SimultaneousSearcher, has_simultaneous_moves

DEFAULT_TIME = 5.0


@click.command(cls=PositionCommand)
@game_argument
@click.argument("position", required=False)
@click.option("--depth", type=click.IntRange(1, 64), help="Search exactly N decisions deep (chance events do not count).")
@click.option("--time", "time_limit", type=click.FloatRange(0.01), help=f"Think for at most SECONDS (default {DEFAULT_TIME:g} without --depth, unless the game sets its own depth).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option("--example", is_flag=True, help="Analyse the game's built-in example position.")
@click.option("--hands-exact", type=click.IntRange(1), default=100, show_default=True,
              help="Enumerate hidden hands exactly when there are at most this many; else sample.")
@click.option("--hand-samples", type=click.IntRange(1), default=64, show_default=True, help="Hands sampled when there are too many.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for every sampled choice (reproducible answers).")
@click.option("--no-star2", is_flag=True, help="Star1 pruning only (no Star2 probing).")
@click.option("--no-cache", is_flag=True, help="Search without the transposition table.")
@click.option("--exact", is_flag=True,
              help="Exact values: from the game's stored exact values where it has them (endgame tables; small "
                   "missing ones are built first), else by solving the position's whole state graph (up to --max-states).")
@click.option("--max-states", type=click.IntRange(1), default=2_000_000, show_default=True,
              help="--exact without endgame tables: refuse positions with more reachable states.")
@click.option("--no-tables", is_flag=True, help="Do not probe stored exact values (endgame tables) during the search.")
@tables_option
@rule_option
def best(game_name, position, depth, time_limit, as_json, example, hands_exact, hand_samples, seed,
         no_star2, no_cache, exact, max_states, no_tables, tables_dir, rules) -> None:
    """Rank every legal move of POSITION for GAME (see `dicetree notation GAME`); where players choose
    at once, each choice's value and the optimal mixed strategy."""
    game = load_with_rules(game_name, rules)
    if example or position is None:
        if position is not None:
            raise GameError("give a POSITION or --example, not both")
        if not example:
            raise GameError(f"give a POSITION (see `dicetree notation {game_name}`) or --example")
        position = game.example_position()
    state = game.parse(position)
    if depth is None and time_limit is None:
        depth = game.default_depth
        time_limit = DEFAULT_TIME if depth is None else None
    if has_simultaneous_moves(game):
        if exact:
            raise GameError(f"--exact is not available for {game.game_type.long_name}: its simultaneous choices are "
                            "searched to a depth (use --depth or --time)")
        _best_simultaneous(game, state, depth, time_limit, as_json, seed, no_cache)
        return
    tables = game.exact_provider(tables_dir, required=exact) if exact or not no_tables else None
    exact_answer = None
    if exact:
        exact_answer = tables.exact_result if tables is not None else partial(solved_exactly, game, max_states=max_states)
    oracle = tables.oracle() if tables is not None else None
    searcher = Searcher(game, star2=not no_star2, use_cache=not no_cache, seed=seed, oracle=oracle)

    def progress(result) -> None:
        if not as_json:
            click.echo(f"  depth {result.depth}: best {result.moves[0].name} {result.moves[0].value:.4f}"
                       f"  nodes {result.stats.nodes:,}  {result.stats.elapsed:.2f}s", err=True)

    analysis = analyse(game, state, depth=depth, time_limit=time_limit, searcher=searcher,
                       hands_exact=hands_exact, hand_samples=hand_samples, seed=seed, on_iteration=progress,
                       exact=exact_answer)
    if as_json:
        click.echo(json.dumps(analysis.to_json(), indent=2))
    else:
        click.echo(format_analysis(analysis))


def _best_simultaneous(game, state, depth, time_limit, as_json, seed, no_cache) -> None:
    """Games with simultaneous moves: each player's choices, values and optimal mixed strategy."""
    searcher = SimultaneousSearcher(game, seed=seed, use_cache=not no_cache)

    def progress(result) -> None:
        if not as_json:
            values = "  ".join(f"P{a.player + 1} {a.value:.4f}" for a in result.players)
            click.echo(f"  depth {result.depth}: {values}  nodes {result.stats.nodes:,}  {result.stats.elapsed:.2f}s", err=True)

    result = searcher.search(state, depth=depth, time_limit=time_limit, on_iteration=progress)
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else result.to_text())


def format_analysis(analysis: Analysis) -> str:
    """The human-readable answer: header, ranked moves with losses, principal line, notes."""
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
    lines += ["", f"  #  {'move':<12} {'value':>8}  {'loss':>8}"]
    for rank, move in enumerate(analysis.moves, 1):
        loss = "" if rank == 1 else f"{-move.loss:+.4f}"
        tie = "  (tied)" if rank > 1 and move.loss == 0 else ""
        lines.append(f"{rank:>3}  {move.name:<12} {move.value:>8.4f}  {loss:>8}{tie}")
    lines += ["", f"Principal line: {' '.join(analysis.pv) if analysis.pv else '(none)'}"]
    if analysis.hidden:
        lines.append(f"Hidden cards: {analysis.hidden}")
    lines += [f"Note: {note}" for note in analysis.notes]
    return "\n".join(lines)
