"""RolldownBeta: rules (``rules``), cards (``cards``), notation (``notation``), the leaf
evaluation (``evaluation``) and hidden-hand averaging (``hands``)."""

from solver.games.rolldown.rules import Rolldown, RolldownState

__all__ = ["Rolldown", "RolldownState"]
