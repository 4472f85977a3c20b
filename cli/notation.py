"""``dicetree notation GAME``: the position notation of a game, with examples."""

from __future__ import annotations

import click

from dicetree.cli.options import game_argument, load_with_rules, rule_option


@click.command()
@game_argument
@rule_option
def notation(game_name: str, rules: tuple[str, ...]) -> None:
    """Print GAME's position notation with examples.

    \b
    Example:
      dicetree notation rolldown
    """
    game = load_with_rules(game_name, rules)
    click.echo(game.notation_help())
    for assumption in game.assumptions():
        click.echo(f"Note: {assumption}")
