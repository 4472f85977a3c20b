"""Dicegeddon: rules (``rules``: the whole game, exploding rolls, the variations) and notation
(``notation``)."""

from solver.games.dicegeddon.rules import Dicegeddon, GeddonState, attack_outcomes, recruit_outcomes

__all__ = ["Dicegeddon", "GeddonState", "attack_outcomes", "recruit_outcomes"]
