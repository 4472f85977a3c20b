"""Options shared by several commands, declared once, and the reading of ``--rule NAME=VALUE``.

No option here belongs to one game: a game's own choices are its declared rule options
(``dicetree rules GAME``), given as ``--rule NAME=VALUE``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from dicetree.solver.game import Game, GameError, State
from dicetree.solver.games import game_names, load_game
from dicetree.solver.rule_options import RuleOption, split_rule

game_argument = click.argument("game_name", metavar="GAME", type=click.Choice(game_names(), case_sensitive=False))
"""A game by name, in any case (``Rolldown`` reads as ``rolldown``)."""

tables_option = click.option(
    "--tables",
    "tables_dir",
    type=click.Path(file_okay=False),
    envvar="DICETREE_TABLES",
    help="Folder of stored exact values such as endgame tables (default: $DICETREE_TABLES, else the user's "
         "cache folder).",
)

rule_option = click.option(
    "--rule", "rules", multiple=True, metavar="NAME=VALUE",
    help="A rule option of the game, repeatable: `dicetree rules GAME` lists them (e.g. --rule players=3).",
)


DEFAULT_TIME = 5.0
"""Seconds a move is searched when neither a depth nor a time is given (and the game sets no depth)."""


def default_limits(game: Game, depth: int | None, time_limit: float | None) -> tuple[int | None, float | None]:
    """The depth and time of ``best`` and ``play`` when the user gives neither: the game's own depth
    if it declares one, else iterative deepening for :data:`DEFAULT_TIME` seconds."""
    if depth is None and time_limit is None:
        depth = game.default_depth
        time_limit = DEFAULT_TIME if depth is None else None
    return depth, time_limit


def cluster_options(command):
    """``--workers N`` and ``--scheduler ADDRESS`` (:data:`dicetree.solver.parallel.CLUSTER_OPTIONS`) on a command
    with many independent cells: where they run (a local dask cluster, or an existing one)."""
    from dicetree.solver.parallel import CLUSTER_OPTIONS

    for option in reversed(CLUSTER_OPTIONS):
        command = click.option("--" + option.name, option.name, type=click.IntRange(option.low, option.high)
                               if option.kind == "int" else click.STRING, metavar="N" if option.kind == "int"
                               else "ADDRESS", help=option.help[:1].upper() + option.help[1:] + ".")(command)
    return command


def writable_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An ``-o FILE`` path (a command that writes one file) checked before any work: its folder must
    exist (none is made silently) and take files, so that nothing computed is lost to a typo. A
    usage error (one line, exit 2) if not.

    >>> writable_output(None, None, "/no/such/folder/x.svg")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: there is no folder /no/such/folder (make it first)
    """
    if value is None:
        return None
    folder = Path(value).parent
    if not folder.is_dir():
        problem = f"{folder} is a file, not a folder" if folder.exists() else f"there is no folder {folder} (make it first)"
        raise click.BadParameter(problem, ctx=ctx, param=param)
    try:  # the folder may exist and still take no files (/proc, a read-only mount)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".dicetree-check-"):
            pass
    except OSError as error:
        raise click.BadParameter(f"cannot write in {folder}: {error.strerror or error}", ctx=ctx, param=param) \
            from None
    if os.path.isdir(value):
        raise click.BadParameter(f"{value} is a folder: give a file name", ctx=ctx, param=param)
    return value


def writable_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An ``-o`` folder checked before any work: it may exist already (a stopped study run again
    resumes from what it holds) or be made in a writable folder; a file there is a usage error.

    >>> writable_folder(None, None, "/no/such/folder/study")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: there is no folder /no/such/folder (make it first)
    """
    if value is None:
        return None
    if os.path.isdir(value):
        if not os.access(value, os.W_OK):
            raise click.BadParameter(f"cannot write in {value}", ctx=ctx, param=param)
        return value
    if os.path.exists(value):
        raise click.BadParameter(f"{value} is a file: give a folder name", ctx=ctx, param=param)
    writable_output(ctx, param, value)  # a new folder: where it goes must take it
    return value


def load_with_rules(game_name: str, rules: tuple[str, ...] = ()) -> Game:
    """The game with its ``--rule NAME=VALUE`` options, each checked against its declarations; what
    the configured game warns of (:meth:`~dicetree.solver.game.Game.warnings`) goes to stderr."""
    game = load_game(game_name, **dict(split_rule(text) for text in rules))
    for warning in game.warnings():
        click.echo(f"warning: {warning}", err=True)
    return game


PLAYERS_RULE = "players"
"""The rule option by which a game for a varying number of players is set up (``--rule players=3``)."""


def load_for_position(game_name: str, rules: tuple[str, ...], position: str) -> tuple[Game, State]:
    """The game with its ``--rule`` options and ``position`` read in it. Where the position does not
    read for the configured number of players and ``--rule players=N`` was not given, the number of
    players is the one it reads for (a position naming three players sets up a game of three).

    >>> game, state = load_for_position("rollforit", (), "G01,G02,G03 0-0-0 A:turn deck:G04-G30")
    >>> game.num_players
    3
    """
    game = load_with_rules(game_name, rules)
    try:
        return game, game.parse(position)
    except GameError as error:
        kind = game.game_type
        given = {split_rule(text)[0] for text in rules}
        if PLAYERS_RULE in given or PLAYERS_RULE not in {option.name for option in game.rule_options}:
            raise
        for count in range(kind.min_players, kind.max_players + 1):
            if count == game.num_players:
                continue
            try:
                other = load_with_rules(game_name, (*rules, f"{PLAYERS_RULE}={count}"))
                return other, other.parse(position)
            except GameError:
                continue
        raise error


def position_or_example(game_name: str, rules: tuple[str, ...], position: str | None,
                        example: bool) -> tuple[Game, State]:
    """The game and the state of a command given a POSITION or ``--example`` (one of them), read
    as :func:`load_for_position` reads it; a one-line error if neither or both are given."""
    if position is not None and example:
        raise GameError("give a POSITION or --example, not both")
    if position is None:
        if not example:
            raise GameError(f"give a POSITION (see `dicetree notation {game_name}`) or --example")
        position = load_with_rules(game_name, rules).example_position()
    return load_for_position(game_name, rules, position)


example_option = click.option("--example", is_flag=True, help="Use the game's built-in example position.")


class FullSummaries(click.Group):
    """A group whose command list gives each command's first sentence whole (click cuts summaries
    at the terminal's width with '...'; the list wraps them instead)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or first_sentence(command.help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def first_sentence(text: str) -> str:
    """The first sentence of a help text, on one line.

    >>> first_sentence("Build stored values of GAME (see `x`). Then more.")
    'Build stored values of GAME (see `x`).'
    """
    flat = " ".join(text.split("\n\n")[0].split())
    end = flat.find(". ")
    return flat if end < 0 else flat[: end + 1]


_MARK = "\x00position:"


class PositionCommand(click.Command):
    """A command whose arguments may be positions beginning with '-' (``-/- a -/- ...``).

    Click reads anything beginning with '-' as an option. An argument that is no option of the
    command and reads as a position (it holds a space, '/' or ':') is marked before click parses
    the line and unmarked after, so ``dicetree best rolldown "-/- a -/- ..."`` works (as does
    ``--position "-/- ..."``); a mistyped option still gets click's "No such option".
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        known = {name for param in self.get_params(ctx)
                 for name in tuple(getattr(param, "opts", ())) + tuple(getattr(param, "secondary_opts", ()))}
        marked = [_MARK + arg if _looks_like_position(arg, known) else arg for arg in args]
        rest = super().parse_args(ctx, marked)
        for name, value in ctx.params.items():
            if isinstance(value, str) and value.startswith(_MARK):
                ctx.params[name] = value[len(_MARK):]
        return rest


def _looks_like_position(arg: str, known: set[str]) -> bool:
    if not arg.startswith("-") or arg in ("-", "--"):
        return False
    if arg.split("=", 1)[0] in known:
        return False
    return any(mark in arg for mark in " /:")


def click_option(option: RuleOption) -> click.Option:
    """A command-line option made from a declared parameter (a game's study or table build):
    ``army_size`` becomes ``--army-size``; a true/false parameter a flag (``--mulligan``, or
    ``--no-chains`` for one that is on by default)."""
    flag = "--" + option.name.replace("_", "-")
    if option.kind == "bool":
        if option.default:
            return click.Option([f"--no-{option.name.replace('_', '-')}", option.name], is_flag=True,
                                flag_value=False, default=True, help=option.help)
        return click.Option([flag, option.name], is_flag=True, default=False, help=option.help)
    kind: click.ParamType
    if option.kind == "int":
        kind = click.INT if option.low is None and option.high is None else click.IntRange(option.low, option.high)
    elif option.kind == "choice":
        kind = click.Choice(option.choices)
    elif option.kind == "file":
        kind = click.Path(dir_okay=False)
    elif option.kind == "folder":
        kind = click.Path(file_okay=False)
    else:
        kind = click.STRING
    output = option.name == "output"  # -o: a file where one is written, a folder where several are
    return click.Option(["-o", flag, option.name] if output else [flag, option.name], type=kind,
                        default=option.default, show_default=option.default is not None, help=option.help,
                        callback=(writable_folder if option.kind == "folder" else writable_output) if output else None,
                        metavar=_metavar(option))


def _metavar(option: RuleOption) -> str | None:
    """What the help shows after a declared option: N for whole numbers, NAME for an output stem."""
    if option.kind == "int":
        return "N"
    if option.kind == "file":
        return "FILE"
    if option.kind == "folder":
        return "FOLDER"
    if option.name == "output":
        return "NAME"
    return None
