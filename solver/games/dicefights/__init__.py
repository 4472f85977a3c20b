"""Dice Fights, top to bottom: the state value, actions and constants (``state``), the dice faces
(``faces``, ``faces.json``), the rules (``rules``), the notation (``notation``), the leaf
evaluation (``evaluation``), the game (``game``: :class:`DiceFights`), and fixed playing policies
(``policies``)."""

from dicetree.solver.games.dicefights.game import DiceFights
from dicetree.solver.games.dicefights.state import Bundle, DiceFightsState, Reroll, Roll, Target

__all__ = ["Bundle", "DiceFights", "DiceFightsState", "Reroll", "Roll", "Target"]
