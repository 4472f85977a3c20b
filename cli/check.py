"""``dicetree check GAME POSITION``: read a position without searching it.

Usage::

    dicetree check rolldown "d8:5/d6:3 a -/-"
    dicetree check rolldown "d6:2,d8:5/d4:3,d6:6 b ???/5QK" --json

It prints the canonical form, whose turn it is and every legal move, or the specific error on
one line (exit status 2), in a fraction of a second.
"""

from __future__ import annotations

import json

import click

from dicetree.cli.options import PositionCommand, game_argument, load_for_position, rule_option


@click.command(cls=PositionCommand)
@game_argument
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (schema dicetree.check/1).")
@rule_option
def check(game_name: str, position: str, as_json: bool, rules: tuple[str, ...]) -> None:
    """Read POSITION of GAME without searching: its canonical form, whose turn, the legal moves.

    \b
    Example:
      dicetree check rolldown "d8:5/d6:3 a -/-"
    """
    from dicetree.solver.analysis import check_position
    from dicetree.solver.json_contracts import versioned

    game, state = load_for_position(game_name, rules, position)
    answer = check_position(game, state)
    click.echo(json.dumps(versioned("check", answer.to_json()), indent=2) if as_json else answer.to_text())
