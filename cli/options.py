"""Options shared by several commands, declared once."""

from __future__ import annotations

import click

from solver.games import GAMES

game_argument = click.argument("game_name", metavar="GAME", type=click.Choice(sorted(GAMES)))

ace_option = click.option(
    "--ace",
    type=click.Choice(["online", "printed"]),
    default="online",
    show_default=True,
    help="RolldownBeta's Ace: 'online' (own die to top or opponent's to 1) or 'printed' (either end on any die).",
)

tables_option = click.option(
    "--tables",
    "tables_dir",
    type=click.Path(file_okay=False),
    envvar="DICETREE_TABLES",
    help="Folder of endgame tables (default: $DICETREE_TABLES, else the user's cache folder).",
)

rule_options = [
    ace_option,
    click.option(
        "--objective",
        type=click.Choice(["round", "points"]),
        default="round",
        show_default=True,
        help="What a value means: the probability of winning the round, or the round's expected signed points "
        "(First to 50 and Nine rounds).",
    ),
]


def with_rule_options(command):
    """Adds the rule options (``--ace``, ``--objective``) to a command."""
    for option in reversed(rule_options):
        command = option(command)
    return command
