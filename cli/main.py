"""The ``dicetree`` command: ``dicetree best``, ``dicetree check`` and friends.

Every user error (a malformed position, an unknown game or option, a bad value, a path that
cannot be written) is one line on stderr and exit status 2, never a traceback: the engine's own
errors (:class:`dicetree.solver.game.GameError`) and click's usage errors alike, the latter with a hint
naming the help to read.

A command's module is imported when the command runs (or its help is shown), never at start-up,
so ``dicetree --help`` loads click and nothing heavy; each command loads the libraries it uses.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module

import click

from dicetree.solver.game import GameError

MAX_MESSAGE = 300
"""No error line is longer than this."""
INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT), as shells give it."""

COMMANDS: dict[str, tuple[str, str, str]] = {
    "best": ("dicetree.cli.best", "Rank every legal move of a position, best first, with values and losses.",
             'dicetree best rolldown "d6:2,d8:5/d4:3,d6:6 a QK/-" --top 5'),
    "check": ("dicetree.cli.check", "Read a position without searching: canonical form, turn, legal moves.",
              'dicetree check rolldown "d8:5/d6:3 a -/-"'),
    "duel": ("dicetree.cli.duel", "Play strategies against each other and report win rates with intervals.",
             "dicetree duel rolldown --a solver:depth=1 --b random --games 40"),
    "explore": ("dicetree.cli.explore", "Explore positions in the browser: ranked moves, lines, trees, play.",
                "dicetree explore --port 8765"),
    "notation": ("dicetree.cli.notation", "Print a game's position notation with examples.", "dicetree notation rolldown"),
    "play": ("dicetree.cli.play", "Play a game against the engine at a prompt, then review your moves.",
             "dicetree play rolldown"),
    "rules": ("dicetree.cli.rules", "List a game's declared facts and its rule options.", "dicetree rules dicefights"),
    "study": ("dicetree.cli.study", "Run a game's own study: values over a family of positions.",
              "dicetree study rolldown --mine d8 --theirs d6 --hand K/- -o d8-d6-K"),
    "tablebase": ("dicetree.cli.tablebase", "Build, probe and list stored exact values (endgame tables).",
                  "dicetree tablebase build rolldown --dice 2 --cards 1"),
    "tree": ("dicetree.cli.tree", "Draw the decision tree below a position with Graphviz.",
             'dicetree tree rolldown "d8:2/d6:5 a K/-" --exact -o endgame.svg'),
    "help": ("dicetree.cli.main", "Show the help of dicetree or of one of its commands.", "dicetree help best"),
}
"""Command name -> (its module, its one-line summary, one example): what ``dicetree --help`` shows
without importing any command (a command's module holds a click command of the same name)."""


def one_line(message: str, limit: int = MAX_MESSAGE) -> str:
    """A user-facing error as one line of at most ``limit`` characters (a message that quotes a very
    long input is cut where the input is; this is the last guard).

    >>> one_line("bad  position " + "x" * 500)[-4:]
    'xxx…'
    >>> one_line("two " + chr(10) + " lines")
    'two lines'
    """
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fail(message: str, status: int = 2) -> None:
    """Print ``error: message`` as one line on stderr and exit with ``status``."""
    click.echo(f"error: {one_line(message)}", err=True)
    sys.exit(status)


class DicetreeGroup(click.Group):
    """The top-level group: commands loaded on demand, and one error style for every error."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return getattr(import_module(COMMANDS[name][0]), "help_command" if name == "help" else name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`COMMANDS` (no command is imported to show it), the games, and
        one example per command."""
        from dicetree.solver.games import game_names

        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary, _) in sorted(COMMANDS.items())])
        with formatter.section("Games"):
            formatter.write_text(", ".join(game_names()) + " (`dicetree rules GAME` says what each is)")
        with formatter.section("Examples"):
            for _, _, example in sorted(COMMANDS.values(), key=lambda entry: entry[2]):
                formatter.write_text(example)
        with formatter.section("Shell completion (bash; zsh and fish alike)"):
            formatter.write_text('eval "$(_DICETREE_COMPLETE=bash_source dicetree)"   # in ~/.bashrc')

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except GameError as error:
            fail(str(error))

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode: bool = True, **extra):
        """Click's own errors (an unknown option or GAME, ``--depth -1``) as one line with a hint
        instead of a usage block; Ctrl-C outside ``best`` as one line and exit status 130."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:  # `dicetree` alone, `dicetree study`: the help
            click.echo(error.ctx.get_help())
            sys.exit(0)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else "dicetree"
            fail(f"{error.format_message()} (try `{where} --help`)", error.exit_code)
        except click.ClickException as error:
            fail(error.format_message(), error.exit_code)
        except click.Abort:
            from dicetree.solver.parallel import workers_were_stopped

            if workers_were_stopped():
                click.echo("error: interrupted", err=True)
                sys.stdout.flush()
                sys.stderr.flush()
                # Not sys.exit: a process pool whose workers were stopped in the middle of a cell can
                # leave its manager thread waiting forever, and the interpreter's exit joins it (seen
                # once in ten duels stopped under load). What was finished is written and closed by now.
                os._exit(INTERRUPTED)
            fail("interrupted", INTERRUPTED)
        sys.exit(status if isinstance(status, int) else 0)


@click.group(cls=DicetreeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dicetree")
def main() -> None:
    """dicetree: best moves, exact endgame values and decision trees for dice-and-card games.

    A POSITION is written in the game's notation (`dicetree notation GAME`); a game's variants are
    its rule options, set with --rule NAME=VALUE (`dicetree rules GAME` lists them).
    """


@click.command("help")
@click.argument("words", metavar="[COMMAND]...", nargs=-1)
@click.pass_context
def help_command(ctx: click.Context, words: tuple[str, ...]) -> None:
    """Show the help of dicetree, or of COMMAND and its subcommands (as `dicetree COMMAND ... --help`).

    \b
    Examples:
      dicetree help best
      dicetree help tablebase build rolldown
    """
    command: click.Command = ctx.parent.command if ctx.parent is not None else main
    context = ctx.parent or ctx
    for depth, word in enumerate(words):
        found = command.get_command(context, word) if isinstance(command, click.Group) else None
        if found is None:
            where = " ".join(("dicetree", *words[:depth]))
            known = command.list_commands(context) if isinstance(command, click.Group) else []
            listed = f": its commands are {', '.join(known)}" if known else " (it has no subcommands)"
            raise click.UsageError(f"no command '{word}' in `{where}`{listed}", ctx=ctx)
        command, context = found, click.Context(found, info_name=word, parent=context)
    click.echo(command.get_help(context))


if __name__ == "__main__":
    main()
