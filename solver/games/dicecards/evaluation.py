"""Dice Cards leaf evaluation: what a search takes a position to be worth at its depth limit.

With rule option ``evaluation=cards`` (the default) the value is the six-card approximation built
from exact per-card solutions (:mod:`solver.games.dicecards.approximation`), corrected by rollouts
of its own policy: an estimate of the expected final score under that policy. With ``evaluation=points`` it is the score the cards already hold (All-or-Nothing
applied, tickets at 2 a point), a lower bound of it, since marks are never lost: cheap, and blind
to everything still to come.

For the rank objective the expected score is turned into a probability of reaching the target by
a normal curve whose spread grows with the rolls to go (``SPREAD`` points at 50 rolls, measured in
``benchmarks/dicecards_approximation.py``): a heuristic. Values always lie within the game's bounds.

>>> from solver.games.dicecards.game import DiceCards
>>> game = DiceCards(evaluation="points")
>>> evaluate(game.parse("SOL=B6,R5,B4 BB=4,9,6 t1 9/50 roll"), 0, game)   # a column, a Bingo, 1 ticket
9.0
>>> game = DiceCards()
>>> round(evaluate(game.parse("HOP=1,2,3,4-5,6,1-6,7,8,9 t0 49/50 roll"), 0, game), 4)   # 3/36 for the 10
15.25
"""

from __future__ import annotations

import math
from typing import Protocol

from solver.game import ValueBounds
from solver.games.dicecards.approximation import Approximation
from solver.games.dicecards.library import CardLibrary
from solver.games.dicecards.rules import final_score
from solver.games.dicecards.state import DiceCardsState

SPREAD = 8.5
"""The standard deviation of the final score of six-card games from the start played by the
approximation (8.5 points in results/dicecards/approximation.md)."""


class CardGame(Protocol):
    """What the evaluation needs of the game."""

    library: CardLibrary
    objective: str
    target: int
    rolls: int
    evaluation: str
    may_pass: bool
    approximation: Approximation

    def value_bounds(self) -> ValueBounds: ...


def evaluate(state: DiceCardsState, player: int, game: CardGame) -> float:
    """The value of ``state`` for the (only) player at a search's depth limit."""
    if game.evaluation == "points":
        score = float(final_score([game.library[code] for code in state.cards], state.marks, state.tickets))
    else:
        score = game.approximation.estimate(state, game.may_pass)
    if game.objective == "rank":
        left = game.rolls - state.rolls
        spread = SPREAD * math.sqrt(left / game.rolls) + 0.5
        return 0.5 * math.erfc((game.target - 0.5 - score) / (spread * math.sqrt(2)))
    return game.value_bounds().clamp(score)
