"""Roll For It! Deluxe: the state (``state``), the deck file (``deck``), the rules (``rules``), the
notation (``notation``), the leaf evaluation (``evaluation``) and the game (``game``)."""

from dicetree.solver.games.rollforit.game import RollForIt
from dicetree.solver.games.rollforit.state import RollForItState

__all__ = ["RollForIt", "RollForItState"]
