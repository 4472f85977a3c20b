"""The ``dicetree`` command: ``dicetree best``, ``dicetree notation`` and friends.

Every user error (a malformed position, an unknown game or option) is one line on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import sys

import click

from solver.game import GameError

MAX_MESSAGE = 300
"""No error line is longer than this."""


class DicetreeGroup(click.Group):
    """Turns the engine's user-facing errors into a one-line message and exit status 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except GameError as error:
            click.echo(f"error: {one_line(str(error))}", err=True)
            sys.exit(2)


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


@click.group(cls=DicetreeGroup)
@click.version_option(package_name="dicetree")
def main() -> None:
    """dicetree: best moves, exact endgame values and decision trees for dice-and-card games."""


def _register() -> None:
    from cli.best import best
    from cli.duel import duel
    from cli.explore import explore
    from cli.notation import notation
    from cli.play import play
    from cli.rules import rules
    from cli.study import study
    from cli.tablebase import tablebase
    from cli.tree import tree

    main.add_command(best)
    main.add_command(duel)
    main.add_command(explore)
    main.add_command(notation)
    main.add_command(play)
    main.add_command(rules)
    main.add_command(study)
    main.add_command(tablebase)
    main.add_command(tree)


_register()

if __name__ == "__main__":
    main()
