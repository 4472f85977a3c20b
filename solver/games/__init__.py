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


def _dicefights(ace: str = "online", objective: str = "round", **options) -> Game:
    """Dice Fights; RolldownBeta's ``ace`` and ``objective`` (always passed by ``dicetree best``)
    must keep their defaults. Options: players, faces, race, shields, bundles."""
    from solver.games.dicefights import DiceFights

    if ace != "online" or objective != "round":
        raise GameError("--ace and --objective are RolldownBeta's options: Dice Fights has none of them")
    return DiceFights(**options)


def _dicegeddon(ace: str = "online", objective: str = "round", **options) -> Game:
    """Dicegeddon; RolldownBeta's ``ace`` and ``objective`` (always passed by ``dicetree best``)
    must keep their defaults. Options: army_size, dice, several_defenders, mulligan, armies."""
    from solver.games.dicegeddon import Dicegeddon

    if ace != "online" or objective != "round":
        raise GameError("--ace and --objective are RolldownBeta's options: Dicegeddon has none of them")
    return Dicegeddon(**options)


GAMES: dict[str, Callable[..., Game]] = {
    "rolldown": _rolldown, "dicefights": _dicefights, "dicegeddon": _dicegeddon,
}


def load_game(name: str, **options) -> Game:
    """The game called ``name`` with rule options (e.g. ``ace="printed"``)."""
    try:
        factory = GAMES[name]
    except KeyError:
        raise GameError(f"unknown game '{name}': known games are {', '.join(sorted(GAMES))}") from None
    return factory(**options)
