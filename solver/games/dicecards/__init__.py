"""Dice Cards: the card interface (``cards``), the library and its cards file (``library``,
``cards.json``), the rules (``rules``), notation (``notation``), evaluation (``evaluation``) and
the game (``game``)."""

from dicetree.solver.games.dicecards.cards import Card, CardError, Need, Slot
from dicetree.solver.games.dicecards.game import DiceCards
from dicetree.solver.games.dicecards.library import CardLibrary, CellsCard, load_library, register_kind
from dicetree.solver.games.dicecards.state import DiceCardsState

__all__ = ["Card", "CardError", "CardLibrary", "CellsCard", "DiceCards", "DiceCardsState", "Need", "Slot",
           "load_library", "register_kind"]
