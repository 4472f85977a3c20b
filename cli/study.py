"""``dicetree study GAME [OPTIONS]``: a game's own study, with the options the game declares.

Usage::

    dicetree study rolldown --help
    dicetree study rolldown --mine d8 --theirs d6 --hand K/- -o results/studies/d8-d6-K
    dicetree study dicegeddon --army-size 12 --jobs 2 -o results/dicegeddon/army-12

Which games have a study, and its options, come from the games themselves (``GameType.study``,
``Game.study()``): this module knows none of them.
"""

from __future__ import annotations

import json

import click

from dicetree.cli.options import FullSummaries, click_option, load_with_rules, rule_option, tables_option
from dicetree.cli.progress import progress_bar
from dicetree.solver.games import game_class, game_names, load_game
from dicetree.solver.json_contracts import versioned


class StudyGroup(FullSummaries):
    """One subcommand per game whose type declares a study, built from the study's parameters."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in game_names() if game_class(name).game_type.study]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        name = name.lower()  # game names are read in any case, as everywhere
        if name not in self.list_commands(ctx):
            return None
        study = load_game(name).study()
        params: list[click.Parameter] = [click_option(p) for p in study.parameters]

        def run(rules: tuple[str, ...], tables_dir: str | None, as_json: bool, **values) -> None:
            chosen = load_with_rules(name, rules).study()
            if tables_dir is not None:
                values["tables_dir"] = tables_dir
            with progress_bar(chosen.title) as progress:
                lines = chosen.run(values, progress)
            if as_json:
                click.echo(json.dumps(versioned("study", {"game": name, "study": chosen.title, "lines": lines}),
                                      indent=2))
                return
            for line in lines:
                click.echo(line)

        title = f"{study.title[:1].upper()}{study.title[1:]}."
        command = click.Command(name, params=params, callback=run, short_help=title,
                                help=f"{title}\n\nThe game's rule options (--rule NAME=VALUE): `dicetree rules {name}`.")
        click.option("--json", "as_json", is_flag=True, help="Print what was found and written as one JSON object (schema dicetree.study/1).")(command)
        rule_option(command)
        tables_option(command)
        return command


@click.group(cls=StudyGroup)
def study() -> None:
    """Studies a game offers: exact (or sampled) values over a family of positions, as CSV and pictures.

    \b
    Example:
      dicetree study rolldown --mine d8 --theirs d6 --hand K/- -o d8-d6-K
    """
