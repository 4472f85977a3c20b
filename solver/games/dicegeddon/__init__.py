"""Dicegeddon: the state values (``state``), the rules (``rules``: the whole game, exploding rolls,
the variations), the notation (``notation``), the fitted evaluation (``evaluation``), the army
study (``armies``) and the game on the interface (``game``)."""

from dicetree.solver.games.dicegeddon.game import CanonicalDicegeddon, Dicegeddon
from dicetree.solver.games.dicegeddon.rules import attack_outcomes, recruit_outcomes
from dicetree.solver.games.dicegeddon.state import DicegeddonState

__all__ = ["CanonicalDicegeddon", "Dicegeddon", "DicegeddonState", "attack_outcomes", "recruit_outcomes"]
