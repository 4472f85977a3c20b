"""Dice Cards' own kinds of strategy (``dicetree duel dicecards --rule players=3 --a cards --b race ...``).

Each plays one seat on the player's own cards, needs no search, and so plays any number of seats
(the built-in ``greedy`` and ``solver`` search, which the generic search offers for two players
with the win objective only):

* ``cards`` — the approximation's policy (:mod:`dicetree.solver.games.dicecards.approximation`): the record
  after which the player's own expected score is highest; it never looks at the others.
* ``race`` — one record on the win objective's evaluation: the record after which the player's
  chance of the highest score (:func:`~dicetree.solver.games.dicecards.evaluation.win_chance`, every
  player's estimate as a normal curve) is highest; equal chances go to the ``cards`` record.
* ``points`` — the record that scores the most now (fewest tickets spent among equals): a plain player.

>>> import random
>>> from dicetree.solver.games.dicecards import DiceCards
>>> game = DiceCards(players=2)
>>> state = game.parse("SOL=B6,R5 BB=4,9 t0 | SOL=- BB=- t0 9/50 B4R6 P1")
>>> [game.action_name(state, most_points(game, state, game.legal_actions(state)))]
['SOL:B4']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from dicetree.solver.game import Action, Game, State
from dicetree.solver.games.dicecards.evaluation import CardGame, win_chance
from dicetree.solver.games.dicecards.rules import after_record, final_score
from dicetree.solver.games.dicecards.state import DiceCardsState, Record
from dicetree.solver.strategies import Strategy, StrategyKind


def most_points(game, state: DiceCardsState, options: Sequence[Record]) -> Record:
    """The record after which the player to record holds the most points (the fewest tickets
    spent among equals, the first of those)."""
    seat = state.seat(state.turn)
    cards = game.hand(state)

    def now(record: Record) -> tuple[int, int]:
        marks, tickets = after_record(cards, seat.marks, seat.tickets, record)
        return final_score(cards, marks, tickets), -record.cost

    return max(options, key=now)


def cards_ranking(game, state: DiceCardsState) -> list[Record]:
    """The records of the player to record, best first by the approximation (their own expected score)."""
    view = state.view(state.turn, game.rolls)
    return [record for record, _ in game.approximation.ranked(view, game.may_pass)]


class CardsStrategy(Strategy):
    """The approximation's record for the player's own score."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        return options[0] if len(options) == 1 else cards_ranking(game, state)[0]


class RaceStrategy(Strategy):
    """The record after which the player's estimated chance of winning is highest."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        if len(options) == 1:
            return options[0]
        ranking = cards_ranking(game, state)
        card_game = cast(CardGame, game)  # a strategy of Dice Cards plays Dice Cards
        chances = {record: win_chance(game.apply(state, record), player, card_game) for record in ranking}
        return max(ranking, key=chances.__getitem__)  # the first of equals: the cards record


class PointsStrategy(Strategy):
    """The record that scores the most now."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        return most_points(game, state, cast("Sequence[Record]", options))  # Dice Cards' moves are records


def _maker(strategy: type[Strategy]):
    return lambda game, spec: strategy()


STRATEGY_KINDS: tuple[StrategyKind, ...] = (
    StrategyKind("cards", _maker(CardsStrategy), "the approximation's record: the player's own expected score, "
                 "any player count"),
    StrategyKind("race", _maker(RaceStrategy), "the record with the best estimated chance of winning (every "
                 "player's estimate a normal curve); any player count"),
    StrategyKind("points", _maker(PointsStrategy), "the record that scores the most now; any player count"),
)
"""What ``DiceCards.strategies()`` offers besides the built-in kinds."""
