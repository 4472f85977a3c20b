"""``dicetree study rolldown --mine D --theirs D -o NAME``: exact values over every pair of faces.

Each side lists its dice; exactly one die a side has no face (rows: the mover's, columns: the
opponent's); the others are fixed with a face (``d4:3``). See :mod:`solver.study`.

Usage::

    dicetree study rolldown --mine d8 --theirs d6 -o results/studies/d8-d6
    dicetree study rolldown --mine d8 --theirs d6 --hand K/- -o results/studies/d8-d6-K
    dicetree study rolldown --mine d8,d4:3 --theirs d6,d10:7 --tables /tmp/tables -o two-dice

Writes NAME.csv and NAME.png (values), NAME-moves.csv and NAME-moves.png (the best move of each
cell) and, when ``--hand`` holds cards, NAME-gain.csv and NAME-gain.png: the value with those
hands minus the value with no cards (what the cards are worth).
"""

from __future__ import annotations

from pathlib import Path

import click

from cache.store import TableStore
from cli.options import ace_option, tables_option
from cli.tablebase import TABLE_GAMES
from solver.games.rolldown.tablebase import Tablebase
from solver.study import StudySpec, run_study, write_study

NO_CARDS = "-/-"


@click.command()
@click.argument("game_name", metavar="GAME", type=TABLE_GAMES)
@click.option("--mine", required=True, help="The mover's dice, e.g. d8 or d8,d4:3 (one without a face: the rows).")
@click.option("--theirs", required=True, help="The opponent's dice, e.g. d6 or d6,d10:7 (one without a face: the columns).")
@click.option("--hand", default=NO_CARDS, show_default=True, help="Hands as mover's/opponent's, e.g. K/- or QK/5.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="NAME: writes NAME.csv, NAME.png, NAME-moves.{csv,png} (and NAME-gain.{csv,png} with cards).")
@ace_option
@tables_option
def study(game_name, mine, theirs, hand, output, ace, tables_dir) -> None:
    """Exact values of every pair of faces of one die against another, with the best move of each."""
    spec = StudySpec.parse(mine, theirs, hand)
    base = Tablebase(TableStore(tables_dir), ace=ace)
    solved = run_study(spec, base)
    baseline = None
    if spec.hand.replace("-", "").replace("/", ""):
        baseline = run_study(StudySpec(spec.mine, spec.theirs, NO_CARDS), base)
    stem = Path(output)
    if stem.suffix in (".csv", ".png"):
        stem = stem.with_suffix("")
    written = write_study(stem, solved, baseline)
    values = solved.values
    click.echo(f"{spec.title}: {values.size} positions, mover's mean win probability {values.mean():.4f} "
               f"(min {values.min():.4f}, max {values.max():.4f}); tables in {base.store.root}")
    for path in written:
        click.echo(f"wrote {path}")
