"""dicetree: a game-tree solver and strategy explorer for dice-and-card games, as a library.

The command line's answers are a few calls away. Load a game by its command-line name (rule
options as keywords, checked as ``--rule`` checks them), then rank every move of a position::

    >>> import dicetree
    >>> dicetree.game_names()
    ['dicecards', 'dicefights', 'dicegeddon', 'rolldown', 'rollforit']
    >>> game = dicetree.load_game("rolldown", objective="round")
    >>> analysis = dicetree.analyse(game, "d8:5/d6:3 a -/-", depth=1)
    >>> analysis.best, analysis.value
    ('d8xd6', 1.0)
    >>> [(move.name, round(move.loss, 3)) for move in analysis.moves]
    [('d8xd6', 0.0), ('roll b.d6', 0.414), ('roll a.d8', 0.455)]

Bad input raises one specific :class:`GameError` (a ``ValueError``; :class:`PositionError` for a
position)::

    >>> dicetree.analyse("rolldown", "d6:02/d4:1 a -/-")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.PositionError: '02' in 'd6:02' has a leading zero: write 2 (a position has one spelling)

Stored exact values (endgame tables, as ``dicetree tablebase``) answer :func:`probe`::

    >>> import tempfile
    >>> tables = tempfile.mkdtemp()
    >>> _ = game.exact_provider(tables, required=True).build_from({"dice": 1, "cards": 0})
    >>> dicetree.probe(game, "d8:5/d6:3 a -/-", tables)["moves"][0]
    {'move': 'd8xd6', 'value': 1.0, 'loss': 0.0}

Everything else is in the subpackages: ``dicetree.solver`` (the game interface, searches, exact
solvers, duels; ``dicetree.solver.games`` the games), ``dicetree.cache`` (transposition table,
on-disk store) and ``dicetree.cli`` (the ``dicetree`` command), e.g.
``from dicetree.solver.search import Searcher``.

Layout: the subpackages' folders sit at the top of the repository (the project's layout), and
pyproject.toml maps them under this root (``dicetree.solver`` from ``solver/``, ...; no links), so
an install (``pip install .``, or ``pip install -e .`` for a checkout) imports every module once, as
``dicetree.solver.game``: nothing may import a top-level ``solver`` (``cli``, ``cache``), whose
modules would be second copies with classes of their own (``tests/test_packaging.py`` checks).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dicetree.solver.analysis import Analysis
    from dicetree.solver.game import Game, State

__all__ = ["Analysis", "Game", "GameError", "PositionError", "analyse", "game_names", "load_game", "probe"]

# Names served from the subpackages on first use. Importing ``dicetree.cli.main`` (the console
# script) imports this module first, so nothing here may load the engine (numpy, scipy, ...) eagerly:
# ``dicetree --help`` would pay for it.
_LAZY = {
    "Analysis": "dicetree.solver.analysis",
    "Game": "dicetree.solver.game",
    "GameError": "dicetree.solver.game",
    "PositionError": "dicetree.solver.game",
    "game_names": "dicetree.solver.games",
    "load_game": "dicetree.solver.games",
}
_SUBPACKAGES = ("solver", "cli", "cache")


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return import_module(f"{__name__}.{name}")
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_SUBPACKAGES))


def _game(game: Game | str) -> Game:
    return __getattr__("load_game")(game) if isinstance(game, str) else game


def analyse(game: Game | str, position: State | str, **options: Any) -> Analysis:
    """Every legal move of ``position`` ranked best first, with its value and loss, the principal
    line and how it was reached (what ``dicetree best`` prints). ``game`` is a :class:`Game` or a
    game's name (default rules); ``position`` its notation or a state. ``options`` are those of
    :func:`dicetree.solver.analysis.analyse`: ``depth``, ``time_limit`` (seconds), ``seed``,
    ``hand_samples``, ..."""
    from dicetree.solver.analysis import analyse as analyse_state

    game = _game(game)
    return analyse_state(game, game.parse(position) if isinstance(position, str) else position, **options)


def probe(game: Game | str, position: State | str, tables_dir: str | None = None) -> dict[str, Any]:
    """The stored exact value of ``position`` and of every move (what ``dicetree tablebase probe
    --json`` prints): ``position``, ``value``, ``moves`` best first (``move``, ``value``, ``loss``).
    Tables are read from ``tables_dir``, else ``$DICETREE_TABLES``, else the user's cache folder; a
    :class:`GameError` says why where the game stores no exact values or they are not built."""
    game = _game(game)
    provider = game.exact_provider(tables_dir, required=True)
    if provider is None:
        raise __getattr__("GameError")(f"{game.game_type.short_name} stores no exact values")
    return provider.answer(game.parse(position) if isinstance(position, str) else position)
