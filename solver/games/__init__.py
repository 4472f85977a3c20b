"""The games dicetree knows, by the name the command line uses.

>>> from solver.games import load_game
>>> load_game("rolldown", ace="printed")
Rolldown(ace='printed', objective='round')
"""

from __future__ import annotations

from collections.abc import Callable

from solver.game import Game, GameError


def _rolldown(**options) -> Game:
    from solver.games.rolldown import Rolldown

    return Rolldown(**options)


GAMES: dict[str, Callable[..., Game]] = {"rolldown": _rolldown}


def load_game(name: str, **options) -> Game:
    """The game called ``name`` with rule options (e.g. ``ace="printed"``)."""
    try:
        factory = GAMES[name]
    except KeyError:
        raise GameError(f"unknown game '{name}': known games are {', '.join(sorted(GAMES))}") from None
    return factory(**options)
