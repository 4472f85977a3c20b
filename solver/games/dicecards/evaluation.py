"""Dice Cards leaf evaluation: what a search takes a position to be worth at its depth limit.

The value is the score the cards already hold (All-or-Nothing applied, tickets at 2 a point):
a lower bound of the expected final score, since marks are never lost. For the rank objective
the same score is turned into a probability-like number that grows with it and is 1 once the
target is reached (a heuristic, not a probability). It is always within the game's bounds.

>>> from solver.games.dicecards.game import DiceCards
>>> game = DiceCards()
>>> evaluate(game.parse("SOL=B6,R5,B4 BB=4,9,6 t1 9/50 roll"), 0, game)   # a column, a Bingo, 1 ticket
9.0
"""

from __future__ import annotations

from typing import Protocol

from solver.games.dicecards.library import CardLibrary
from solver.games.dicecards.rules import final_score
from solver.games.dicecards.state import DiceCardsState


class CardGame(Protocol):
    """What the evaluation needs of the game."""

    library: CardLibrary
    objective: str
    target: int


def evaluate(state: DiceCardsState, player: int, game: CardGame) -> float:
    """The value of ``state`` for the (only) player at a search's depth limit."""
    cards = [game.library[code] for code in state.cards]
    score = final_score(cards, state.marks, state.tickets)
    if game.objective == "rank":
        return 1.0 if score >= game.target else 0.5 * score / game.target
    return float(score)
