"""The games dicetree knows, by the name the command line uses: the one place that names them.

A game registers here by its package and class; nothing is imported until a game is asked for,
so listing games costs nothing. Everything else (searches, solvers, duels, the command line)
reads a game's declared facts (:class:`dicetree.solver.game.GameType`) and rule options
(:mod:`dicetree.solver.rule_options`), never its name.

>>> from dicetree.solver.games import load_game
>>> load_game("rolldown", ace="printed")
Rolldown(ace='printed', objective='round')
>>> load_game("rolldown", ace="both")
Traceback (most recent call last):
...
dicetree.solver.game.GameError: rule option ace must be one of online, printed, not 'both'
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from dicetree.solver.game import Game, GameError
from dicetree.solver.rule_options import parse_rules, shorten

GAMES: dict[str, str] = {
    "rolldown": "dicetree.solver.games.rolldown:Rolldown",
    "dicefights": "dicetree.solver.games.dicefights:DiceFights",
    "dicegeddon": "dicetree.solver.games.dicegeddon:Dicegeddon",
    "dicecards": "dicetree.solver.games.dicecards:DiceCards",
    "rollforit": "dicetree.solver.games.rollforit:RollForIt",
}
"""Command-line name -> ``package:Class`` of the game (its ``game_type.short_name`` is the same name)."""


def game_names() -> list[str]:
    """Every registered game's command-line name, sorted."""
    return sorted(GAMES)


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name``, in any case (one line naming the known games if there is none)."""
    try:
        module_name, _, class_name = GAMES[name.lower()].partition(":")
    except KeyError:
        raise GameError(f"unknown game '{shorten(name)}': known games are {', '.join(game_names())}") from None
    return getattr(import_module(module_name), class_name)


def load_game(name: str, **options: Any) -> Game:
    """The game called ``name`` with rule options, given as text (``ace="printed"``, from
    ``--rule``) or as typed values; each is checked against the game's declared options."""
    cls = game_class(name)
    return cls(**parse_rules(name, cls.rule_options, options))
