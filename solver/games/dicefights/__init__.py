"""Dice Fights: rules (``rules``), dice faces (``faces``, ``faces.json``), notation (``notation``),
the leaf evaluation (``evaluation``) and fixed playing policies (``policies``)."""

from solver.games.dicefights.rules import Bundle, DiceFights, FightState, Reroll, Roll, Target

__all__ = ["Bundle", "DiceFights", "FightState", "Reroll", "Roll", "Target"]
