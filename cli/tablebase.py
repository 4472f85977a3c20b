"""``dicetree tablebase build|probe|stats``: stored exact values (endgame tables) of the games that have them.

Usage::

    dicetree tablebase build rolldown --dice 2 --cards 1
    dicetree tablebase verify
    dicetree tablebase build rolldown --dice 2 --cards 1 --repair
    dicetree tablebase probe rolldown "d6:2,d8:5/d4:3,d6:6 a K/5" --json
    dicetree tablebase stats

What a build takes and what a probe answers come from the game's provider
(``Game.exact_provider``, :class:`dicetree.solver.providers.ExactValues`): this module knows no game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from dicetree.cli.options import (FullSummaries, PositionCommand, click_option, load_for_position, load_with_rules,
                                  rule_option, tables_option)
from dicetree.cli.progress import progress_bar
from dicetree.cache.store import CorruptTableError
from dicetree.solver.game import GameError
from dicetree.solver.games import game_class, game_names, load_game


def _table_games() -> list[str]:
    return [name for name in game_names() if game_class(name).game_type.exact_values]


@click.group(cls=FullSummaries)
def tablebase() -> None:
    """Exact values of endgames, solved once and stored (like chess's Syzygy tables).

    \b
    Example:
      dicetree tablebase stats
    """


class BuildGroup(FullSummaries):
    """``tablebase build GAME``: one subcommand per game with stored exact values, its options declared by it."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return _table_games()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        name = name.lower()  # game names are read in any case, as everywhere
        if name in game_names() and name not in _table_games():
            raise click.UsageError(f"{game_class(name).game_type.long_name} has no stored exact values to build: "
                                   f"the games with them are {', '.join(_table_games())}", ctx=ctx)
        if name not in _table_games():
            return None
        provider = load_game(name).exact_provider(None, required=True)

        def run(rules: tuple[str, ...], tables_dir: str | None, repair: bool, **values) -> None:
            game = load_with_rules(name, rules)
            if repair:
                for path in remove_damaged(game.exact_provider(tables_dir, required=True)):
                    click.echo(f"removed damaged {path}: it is built again")
            chosen = game.exact_provider(tables_dir, required=True)  # opened after the repair: no stale listing
            try:
                with progress_bar("positions", transient=False) as progress:
                    lines = chosen.build_from(values, progress, say=lambda line: click.echo(line))
            except CorruptTableError as error:
                raise GameError(f"{error} (`dicetree tablebase verify` lists every damaged file; "
                                f"`dicetree tablebase build {name} ... --repair` builds them again)") from None
            for line in lines:
                click.echo(line)

        kind = game_class(name).game_type
        command = click.Command(name, params=[click_option(p) for p in provider.build_parameters], callback=run,
                                help=f"Build {kind.long_name}'s {kind.exact_values}. Tables stored already are "
                                     "kept: a stopped build, run again, resumes (and says how much is stored).")
        click.option("--repair", is_flag=True, help="First check every stored file in full and remove the damaged "
                     "ones, so that this build makes them again (`dicetree tablebase verify` lists them).")(command)
        rule_option(command)
        tables_option(command)
        return command


@tablebase.group(cls=BuildGroup)
def build() -> None:
    """Build stored exact values of GAME (`dicetree tablebase build GAME --help` for its options).

    \b
    Example:
      dicetree tablebase build rolldown --dice 2 --cards 1
    """


def remove_damaged(provider) -> list[str]:
    """Remove every damaged file of ``provider``'s store (each read in full); their paths."""
    removed = []
    for path, _ in provider.damaged():
        Path(path).unlink(missing_ok=True)
        removed.append(path)
    return removed


@tablebase.command()
@tables_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: each game's damaged files.")
def verify(tables_dir, as_json) -> None:
    """Read every stored file in full and list all damaged ones (exit 1 if any).

    \b
    Example:
      dicetree tablebase verify --tables ~/tables
    """
    found = {name: load_game(name).exact_provider(tables_dir, required=True).damaged() for name in _table_games()}
    if as_json:
        click.echo(json.dumps({"games": [{"game": name, "damaged": [{"path": path, "problem": problem}
                                                                    for path, problem in damaged]}
                                         for name, damaged in found.items()]}, indent=2))
    else:
        for name, damaged in found.items():
            click.echo(f"{name}: {len(damaged)} damaged file{'s' if len(damaged) != 1 else ''}"
                       + (f" (`dicetree tablebase build {name} ... --repair` builds them again)" if damaged else ""))
            for path, problem in damaged:
                click.echo(f"  {path}: {problem}")
    if any(found.values()):
        sys.exit(1)


@tablebase.command(cls=PositionCommand)
@click.argument("game_name", metavar="GAME", type=click.Choice(_table_games(), case_sensitive=False))
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (schema dicetree.probe/1).")
@rule_option
@tables_option
def probe(game_name, position, as_json, rules, tables_dir) -> None:
    """The stored exact value of POSITION and of every move.

    \b
    Example:
      dicetree tablebase probe rolldown "d8:2/d6:5 a -/-" --json
    """
    from dicetree.solver.json_contracts import probe_json

    game, state = load_for_position(game_name, rules, position)
    provider = game.exact_provider(tables_dir, required=True)
    if as_json:
        click.echo(json.dumps(probe_json(game, provider, state), indent=2))
    else:
        click.echo(provider.describe_answer(provider.answer(state)))


@tablebase.command()
@tables_option
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object (schema dicetree.stats/1): each game's stored sets with their figures.")
def stats(tables_dir, as_json) -> None:
    """What is stored for every game that has stored exact values.

    \b
    Example:
      dicetree tablebase stats --json
    """
    providers = {name: load_game(name).exact_provider(tables_dir, required=True) for name in _table_games()}
    if as_json:
        from dicetree.solver.json_contracts import stats_json

        click.echo(json.dumps(stats_json((name, provider.stored(), provider.stats())
                                         for name, provider in providers.items()), indent=2))
        return
    for provider in providers.values():
        for line in provider.stats():
            click.echo(line)
