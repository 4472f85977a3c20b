"""``dicetree rules GAME``: what a game is (its declared type) and the rule options it takes."""

from __future__ import annotations

import click

from dicetree.cli.options import game_argument
from dicetree.solver.games import game_class


@click.command()
@game_argument
def rules(game_name: str) -> None:
    """List GAME's declared facts and its rule options (set with --rule NAME=VALUE) with their defaults.

    \b
    Example:
      dicetree rules dicefights
    """
    cls = game_class(game_name)
    kind = cls.game_type
    facts = [
        kind.players_text(),
        "simultaneous choices" if kind.simultaneous else "players take turns",
        "hidden information" if kind.hidden_information else "perfect information",
        f"constant-sum ({kind.constant_sum:g})" if kind.constant_sum is not None else "not constant-sum",
    ]
    if kind.exact_values:
        facts.append(f"stored exact values: {kind.exact_values}")
    if kind.study:
        facts.append(f"study: {kind.study} (`dicetree study {game_name} --help`)")
    click.echo(f"{kind.long_name} ({game_name}): " + "; ".join(facts))
    click.echo(f"Objectives: {', '.join(kind.objectives)}")
    if not cls.rule_options:
        click.echo("No rule options.")
        return
    click.echo("Rule options (--rule NAME=VALUE):")
    for option in cls.rule_options:
        click.echo("  " + option.describe())
