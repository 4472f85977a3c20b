"""``dicetree notation GAME``: the position notation of a game, with examples."""

from __future__ import annotations

import click

from cli.options import game_argument
from solver.games import load_game


@click.command()
@game_argument
def notation(game_name: str) -> None:
    """Print GAME's position notation with examples."""
    click.echo(load_game(game_name).notation_help())
