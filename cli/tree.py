"""``dicetree tree GAME POSITION -o FILE``: the decision tree below a position, drawn with Graphviz.

Usage::

    dicetree tree rolldown "d6:2,d8:5/d4:3,d6:6 a QK/-" -o results/trees/two-dice.svg
    dicetree tree rolldown "d8:2/d6:5 a K/-" --exact --depth 3 --top 2 -o endgame.png
"""

from __future__ import annotations

import json

import click

from dicetree.cli.options import (PositionCommand, example_option, game_argument, position_or_example, rule_option,
                                  writable_output)
from dicetree.solver.json_contracts import versioned
from dicetree.solver.render import FORMATS, write_tree
from dicetree.solver.tree import TreeOptions, build_tree

_defaults = TreeOptions()


@click.command(cls=PositionCommand)
@game_argument
@click.argument("position", required=False)
@example_option
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), metavar="FILE", callback=writable_output,
              help=f"The file to write: {', '.join('.' + f for f in FORMATS)} (a .dot file is always written too).")
@click.option("--depth", type=click.IntRange(1, 8), default=_defaults.depth, show_default=True, metavar="N",
              help="Decisions drawn (chance events do not count); the search depth of the values.")
@click.option("--exact", is_flag=True, help="Exact values from the exact solver (small positions only).")
@click.option("--top", type=click.IntRange(1), default=_defaults.top, show_default=True, metavar="N",
              help="Keep the N best moves of each decision.")
@click.option("--all-moves", is_flag=True, help="Draw every move (overrides --top).")
@click.option("--min-prob", type=click.FloatRange(0, 1, max_open=True), default=_defaults.min_prob, show_default=True,
              metavar="P", help="Fold outcome groups rarer than P into one 'other' edge (0: fold none).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed for chance nodes too large to list.")
@click.option("--json", "as_json", is_flag=True, help="Print what was drawn and written as one JSON object (schema dicetree.tree/1).")
@rule_option
def tree(game_name, position, example, output, depth, exact, top, all_moves, min_prob, seed, as_json, rules) -> None:
    """Draw the decision tree of POSITION for GAME (see `dicetree notation GAME`).

    \b
    Example:
      dicetree tree rolldown "d8:2/d6:5 a K/-" --exact -o endgame.svg
    """
    game, state = position_or_example(game_name, rules, position, example)
    options = TreeOptions(depth=depth, top=None if all_moves else top, min_prob=min_prob, exact=exact, seed=seed)
    built = build_tree(game, state, options)
    result = write_tree(built, output)
    if as_json:
        click.echo(json.dumps(versioned("tree", {"game": game.game_type.short_name, "position": game.format(state),
                               "summary": built.summary(), "method": built.method, "dot": str(result.dot_path),
                               "picture": str(result.picture) if result.picture is not None else None,
                               "message": result.message}), indent=2))
        return
    click.echo(f"{built.summary()}; {built.method}")
    click.echo(result.message)
