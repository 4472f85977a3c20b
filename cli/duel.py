"""``dicetree duel GAME --a STRATEGY --b STRATEGY``: two strategies play each other many times.

Usage::

    dicetree duel rolldown --a solver:depth=2 --b random --games 200 --seed 1 --jobs 2
    dicetree duel rolldown --a exact --b greedy --games 400 --position "d8:5,d6:2/d6:3,d4:4 a K/-"
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cli.options import game_argument, with_rule_options
from solver.duel import STRATEGIES, Duel, format_duel
from solver.games import load_game


@click.command()
@game_argument
@click.option("--a", "spec_a", required=True, metavar="STRATEGY", help=f"Strategy A: {STRATEGIES}.")
@click.option("--b", "spec_b", required=True, metavar="STRATEGY", help="Strategy B (as --a).")
@click.option("--games", type=int, default=200, show_default=True,
              help="Games to play: an even number, each deal being played twice with the seats swapped.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals and dice (same seed, same games).")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True, help="Worker processes.")
@click.option("--position", help="Play every deal from this position instead of random round starts.")
@click.option("--no-progress", is_flag=True, help="No progress bar (there is none either where stderr is not a terminal).")
@with_rule_options
def duel(game_name, spec_a, spec_b, games, seed, jobs, position, no_progress, ace, objective) -> None:
    """Play strategy A against strategy B in GAME and report A's win rate with a 95% interval."""
    game = load_game(game_name, ace=ace, objective=objective)
    start = game.parse(position) if position is not None else None
    match = Duel(game, spec_a, spec_b, games=games, seed=seed, start=start)  # checked before any game
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("left"), TimeRemainingColumn(), console=console, disable=no_progress or not console.is_terminal,
        transient=True,
    ) as progress:
        task = progress.add_task(f"{match.a} vs {match.b}", total=games)
        result = match.run(jobs=jobs, on_progress=lambda n: progress.advance(task, n))
    click.echo(format_duel(result))
