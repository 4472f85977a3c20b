"""Dice Cards leaf evaluation: what a search takes a position to be worth at its depth limit.

With rule option ``evaluation=cards`` (the default) the value is the six-card approximation built
from exact per-card solutions (:mod:`dicetree.solver.games.dicecards.approximation`), corrected by rollouts
of its own policy: an estimate of the expected final score under that policy. With ``evaluation=points`` it is the score the cards already hold (All-or-Nothing
applied, tickets at 2 a point), a lower bound of it, since marks are never lost: cheap, and blind
to everything still to come.

For the rank objective the expected score is turned into a probability of reaching the target by
a normal curve whose spread grows with the rolls to go (``SPREAD`` points at 50 rolls, measured in
``benchmarks/dicecards_approximation.py``): a heuristic; for the win objective (several players)
every player's estimate gets such a curve and the value is the chance that the player's is the
highest (:func:`win_chance`). Values always lie within the game's bounds.

>>> from dicetree.solver.games.dicecards.game import DiceCards
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

import numpy as np

from dicetree.solver.game import ValueBounds
from dicetree.solver.games.dicecards.approximation import Approximation
from dicetree.solver.games.dicecards.library import CardLibrary
from dicetree.solver.games.dicecards.rules import final_score
from dicetree.solver.games.dicecards.state import OVER, DiceCardsState

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

    @property
    def approximation(self) -> Approximation: ...

    def value_bounds(self) -> ValueBounds: ...


def evaluate(state: DiceCardsState, player: int, game: CardGame) -> float:
    """The value of ``state`` for ``player`` at a search's depth limit (every player's own estimate
    where there are several: their expected score, their chance of the target, or of winning)."""
    if game.objective == "win":
        return win_chance(state, player, game)
    score = expected_score(state.view(player, game.rolls), game)
    if game.objective == "rank":
        return 0.5 * math.erfc((game.target - 0.5 - score) / (spread(state, game) * math.sqrt(2)))
    return game.value_bounds().clamp(score)


def expected_score(view: DiceCardsState, game: CardGame) -> float:
    """One player's estimated final score (their own game, ``view``), as ``game.evaluation`` says."""
    if game.evaluation == "points" or view.phase == OVER:
        return float(final_score([game.library[code] for code in view.cards], view.marks, view.tickets))
    return game.approximation.estimate(view, game.may_pass)


def spread(state: DiceCardsState, game: CardGame) -> float:
    """The standard deviation of a final score still to be made with the rolls left (a heuristic)."""
    return SPREAD * math.sqrt((game.rolls - state.rolls) / game.rolls) + 0.5


def win_chance(state: DiceCardsState, player: int, game: CardGame) -> float:
    """``player``'s chance of the highest final score, each player's score taken as a normal curve
    around their estimate (:func:`expected_score`, :func:`spread`): the integral over ``player``'s
    score x of its density times every other player's chance of less than x.

    >>> from dicetree.solver.games.dicecards.game import DiceCards
    >>> game = DiceCards(players=2, evaluation="points")
    >>> state = game.parse("SOL=B6,R5,B4 BB=4,9,6 t1 | SOL=- BB=- t0 9/50 roll")   # 9 points against 0
    >>> sigma = SPREAD * math.sqrt(41 / 50) + 0.5   # by hand, for two players: Phi(9 / (sigma * sqrt 2))
    >>> round(win_chance(state, 0, game), 4), round(0.5 * math.erfc(-9 / (2 * sigma)), 4)
    (0.7812, 0.7812)
    """
    means = np.array([expected_score(state.view(p, game.rolls), game) for p in range(state.players)])
    sigma = spread(state, game)
    grid = means[player] + sigma * np.linspace(-6.0, 6.0, 241)
    density = np.exp(-0.5 * ((grid - means[player]) / sigma) ** 2)
    others = np.ones_like(grid)
    for p, mean in enumerate(means):
        if p != player:
            others *= 0.5 * (1.0 + _erf((grid - mean) / (sigma * math.sqrt(2))))
    return float(np.clip((density * others).sum() / density.sum(), 0.0, 1.0))


_erf = np.vectorize(math.erf, otypes=[float])
