"""``dicetree tablebase build|probe|stats``: RolldownBeta endgame tables on disk."""

from __future__ import annotations

import json

import click
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from cache.store import TableStore
from cli.options import ace_option, tables_option
from solver.game import GameError
from solver.games.rolldown import Rolldown
from solver.games.rolldown.tablebase import Tablebase, covered
from solver.games.rolldown.tables import Signature, estimate_build

TABLE_GAMES = click.Choice(["rolldown"])


@click.group()
def tablebase() -> None:
    """Exact values of endgames, solved once and stored (like chess's Syzygy tables)."""


@tablebase.command()
@click.argument("game_name", metavar="GAME", type=TABLE_GAMES)
@click.option("--dice", type=click.IntRange(1, 6), required=True, help="At most this many dice a side.")
@click.option("--cards", type=click.IntRange(0, 3), default=0, show_default=True, help="At most this many cards in each hand.")
@click.option("--max-positions", type=int, default=2_000_000_000, show_default=True,
              help="Refuse builds larger than this (the estimate is printed).")
@ace_option
@tables_option
def build(game_name, dice, cards, max_positions, ace, tables_dir) -> None:
    """Build every table with up to --dice dice a side and --cards cards a hand."""
    estimate = estimate_build(dice, cards)
    if estimate.positions > max_positions:
        raise GameError(f"that build is {estimate}: more than --max-positions {max_positions:,}")
    base = Tablebase(TableStore(tables_dir), ace=ace)
    click.echo(f"Building {estimate} into {base.store.root}")
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>5.1f}%"),
                  TimeElapsedColumn(), TimeRemainingColumn(), transient=False) as bar:
        task = bar.add_task("positions", total=None)

        def progress(done: int, total: int, batch) -> None:
            bar.update(task, completed=done, total=total, description=f"{batch.signatures[0]:<16}")

        tables = base.build(max_dice=dice, max_cards=cards, progress=progress)
    stats = tables.stats
    click.echo(f"Solved {stats.positions:,} new positions in {stats.seconds:.1f} s; "
               f"largest residual {stats.max_residual:.1e} ({'converged' if stats.converged else 'NOT converged'})")


@tablebase.command()
@click.argument("game_name", metavar="GAME", type=TABLE_GAMES)
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@ace_option
@tables_option
def probe(game_name, position, as_json, ace, tables_dir) -> None:
    """The stored exact value of POSITION and of every move."""
    game = Rolldown(ace=ace)
    state = game.parse(position)
    if not covered(state):
        raise GameError("tables hold positions where the mover decides, both players have had their first turn "
                        "and both hands are known")
    base = Tablebase(TableStore(tables_dir), ace=ace)
    signature = Signature.of_state(state)
    missing = base.missing(signature)
    if missing:
        raise GameError(f"{len(missing)} table(s) this position needs are not built (e.g. {missing[0].name}): "
                        f"run `dicetree tablebase build rolldown --dice {signature.dice} --cards "
                        f"{max(len(signature.my_hand), len(signature.their_hand))}`")
    value = base.probe(state)
    ranked = sorted(base.move_values(state), key=lambda item: -item[1])
    moves = [{"move": game.action_name(state, a), "value": v, "loss": value - v} for a, v in ranked]
    if as_json:
        click.echo(json.dumps({"position": game.format(state), "signature": signature.name, "value": value,
                               "moves": moves}, indent=2))
        return
    mover = "AB"[state.mover]
    click.echo(f"{game.format(state)}   table {signature.name}")
    click.echo(f"{mover} to move; exact probability of winning the round, for {mover}: {value:.12f}")
    for rank, move in enumerate(moves, 1):
        loss = "" if rank == 1 else f"{-move['loss']:+.6f}"
        click.echo(f"{rank:>3}  {move['move']:<12} {move['value']:.12f}  {loss}")


@tablebase.command()
@tables_option
def stats(tables_dir) -> None:
    """Stored tables: positions, wins for the mover, build time, size on disk."""
    store = TableStore(tables_dir)
    games = sorted({meta["game"] for meta in store.list()})
    click.echo(f"Tables in {store.root}")
    if not games:
        click.echo("  none yet: `dicetree tablebase build rolldown --dice 2`")
    for game in games:
        figures = store.stats(game)
        share = figures.above_half / figures.positions if figures.positions else 0.0
        click.echo(
            f"  {game}: {figures.tables:,} tables, {figures.positions:,} positions, "
            f"{figures.above_half:,} wins for the mover above 1/2 ({share:.1%}), "
            f"built in {figures.build_time:.1f} s, {figures.bytes / 2**20:.1f} MiB on disk"
        )
        for path, problem in figures.corrupt:
            click.echo(f"  corrupt: {path}: {problem}")
