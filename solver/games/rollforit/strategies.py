"""Roll For It!'s own kinds of strategy (``dicetree duel rollforit --a human ...``), for 2 to 8 seats.

* ``human`` — a plain player: never Take Back, unless every die is on a card (no die to roll: two
  such players would otherwise pass for ever); score the
  card worth most whenever the roll finishes one; otherwise place every die that matches (the
  placement with the most dice; the first such in the game's order).
* ``race`` — one ply on the game's evaluation: the move after which the player's own estimated win
  chance (:mod:`dicetree.solver.games.rollforit.evaluation`) is highest. It needs no search, so it plays any
  number of seats; with three or more players it is also what ``greedy`` means (the built-in
  greedy searches, which the generic search offers for two players only).

>>> import random
>>> from dicetree.solver.games.rollforit import RollForIt
>>> game = RollForIt(players=3)
>>> state = game.parse("G07,G13,G29 0-0-0 A:place:112 deck:G01-G06,G08-G12,G14-G28,G30")
>>> options = game.legal_actions(state)
>>> game.action_name(state, HumanStrategy().choose(game, state, 0, options, random.Random(0)))
'G07:1,G13:12'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicetree.solver.game import Action, Game, State
from dicetree.solver.games.rollforit.state import Complete, Place, TurnChoice
from dicetree.solver.strategies import Strategy, StrategyKind, StrategySpec


class HumanStrategy(Strategy):
    """Always place what matches, score the best card, Take Back only with no die to roll."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        if TurnChoice(False) in options:
            stuck = TurnChoice(True) in options and game.action_name(state, TurnChoice(False)) == "pass"
            return TurnChoice(stuck)
        scoring = [a for a in options if isinstance(a, Complete)]
        if scoring:
            return max(scoring, key=lambda a: game.cards[a.card].points)  # type: ignore[attr-defined]  # RollForIt's
        placing = [a for a in options if isinstance(a, Place)]
        if placing:
            return max(placing, key=lambda a: sum(len(faces) for _, faces in a.placements))
        return options[0]


class RaceStrategy(Strategy):
    """The move that leaves the player's own evaluation highest (ties: the game's order)."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        if len(options) == 1:
            return options[0]
        return max(options, key=lambda a: game.evaluate(game.apply(state, a), player))


def _human(game: Game, spec: StrategySpec) -> Strategy:
    return HumanStrategy()


def _race(game: Game, spec: StrategySpec) -> Strategy:
    return RaceStrategy()


HUMAN = StrategyKind("human", _human, "a plain player: places whatever matches, scores the best card, takes "
                     "back only with no die to roll")
RACE = StrategyKind("race", _race, "one ply on the game's evaluation (its own estimated win chance); any player count")
GREEDY_ANY = StrategyKind("greedy", _race, "one ply on the game's evaluation (the race strategy: the built-in "
                          "greedy searches, for two players only)")


def strategy_kinds(players: int) -> tuple[StrategyKind, ...]:
    """The kinds the game offers with ``players`` seats (``greedy`` replaced beyond two)."""
    return (HUMAN, RACE) if players == 2 else (HUMAN, RACE, GREEDY_ANY)
