"""``dicetree rules GAME``: what a game is (its declared type), the rule options it takes, what its
data assumes, and with ``--cards`` the cards it plays with.

Usage::

    dicetree rules rollforit
    dicetree rules rollforit --cards --rule players=5
"""

from __future__ import annotations

import click

from dicetree.cli.options import game_argument, load_with_rules, rule_option
from dicetree.solver.game import GameError
from dicetree.solver.games import game_class


@click.command()
@game_argument
@click.option("--cards", is_flag=True,
              help="List the cards the game plays with (each card's data, its sources and what is assumed) instead.")
@rule_option
def rules(game_name: str, cards: bool, rules: tuple[str, ...]) -> None:
    """List GAME's declared facts and its rule options (set with --rule NAME=VALUE) with their defaults,
    and what its data assumes.

    \b
    Example:
      dicetree rules dicefights
      dicetree rules rollforit --cards
    """
    game = load_with_rules(game_name, rules)
    if cards:
        card_list = game.card_list()
        if card_list is None:
            raise GameError(f"{game.game_type.long_name} has no card list")
        click.echo(card_list.to_text())
        return
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
    for assumption in game.assumptions():
        click.echo(f"Assumed: {assumption}")
    if not cls.rule_options:
        click.echo("No rule options.")
        return
    click.echo("Rule options (--rule NAME=VALUE):")
    for option in cls.rule_options:
        click.echo("  " + option.describe())
