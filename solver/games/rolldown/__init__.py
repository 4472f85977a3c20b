"""RolldownBeta, top to bottom: ``cards`` and ``state`` (the state value, actions, phases and
constants) -> ``match_equity`` (the match equity tables, a data file checked by ``datafile``) -> ``rules`` (every rule), ``notation``, ``evaluation`` (the leaf evaluation) and
``hands`` (hidden-hand averaging) -> the endgame ``tables``, their store (``tablebase``) and the
``study`` -> ``game`` (the :class:`Rolldown` game)."""

from dicetree.solver.games.rolldown.game import Rolldown
from dicetree.solver.games.rolldown.state import RolldownState

__all__ = ["Rolldown", "RolldownState"]
