"""Dicegeddon on the :mod:`dicetree.solver.game` interface: the rules of :mod:`~dicetree.solver.games.dicegeddon.rules`
with the notation, the fitted evaluation, the standard hooks and the army study.

>>> game = Dicegeddon()
>>> state = game.parse("d4:3a,d6:5a/d6:6a a 20")
>>> game.player_name(state.mover), [game.action_name(state, a) for a in game.legal_actions(state)]
('A', ['A1>1', 'D1', 'A2>1', 'D2'])
>>> [game.is_progress(state, a) for a in game.legal_actions(state)]
[True, False, True, False]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from dicetree.solver.game import GameType
from dicetree.solver.games.dicegeddon.board import board as draw_board
from dicetree.solver.games.dicegeddon.notation import action_name, format_position, notation_help, parse_position
from dicetree.solver.games.dicegeddon.rules import DicegeddonRules, canonical
from dicetree.solver.games.dicegeddon.state import Attack, DicegeddonState

if TYPE_CHECKING:
    from dicetree.solver.games.dicegeddon.armies import DicegeddonStudy


@cache
def _model() -> Callable[[DicegeddonState, int, DicegeddonRules], float]:
    """The fitted evaluation, loaded once when first needed."""
    from dicetree.solver.games.dicegeddon.evaluation import evaluate

    return evaluate


class Dicegeddon(DicegeddonRules):
    """Dicegeddon with fixed options (see :class:`DicegeddonRules` for the options)."""

    game_type = GameType(short_name="dicegeddon", long_name="Dicegeddon", constant_sum=1.0, study="army study")

    # ----- notation --------------------------------------------------------------------------------------
    def parse(self, text: str) -> DicegeddonState:
        return parse_position(text, self)

    def format(self, state: DicegeddonState) -> str:
        return format_position(state, self)

    def notation_help(self) -> str:
        return notation_help(self)

    def action_name(self, state: DicegeddonState, action) -> str:
        return action_name(state, action)

    def example_position(self) -> str:
        return "d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20"

    # ----- search support ----------------------------------------------------------------------------------
    def evaluate(self, state: DicegeddonState, player: int) -> float:
        """A logistic model of the win fitted to exact values: see :mod:`dicetree.solver.games.dicegeddon.evaluation`.

        The model (and numpy with it) loads with the first evaluation, so that `dicetree notation`
        and `rules` start without numpy."""
        return _model()(state, player, self)

    def describe_value(self) -> str:
        return "probability of winning the battle (a draw counts 1/2)"

    # ----- standard hooks ----------------------------------------------------------------------------------
    board = draw_board  # Game.board: the position drawn (board.py)

    def new_game(self, rng: random.Random | None = None) -> DicegeddonState:
        """The opening of the configured armies, every die unrolled (chance rolls them: ``rng`` is not needed)."""
        return self.start(*self.armies)

    def is_progress(self, state: DicegeddonState, action) -> bool:
        """Attacks are Dicegeddon's progress moves: the game ends only when a player has no active
        die, and only an attack removes one; recruits and defences can go on forever (battles cycle)."""
        return isinstance(action, Attack)

    def study(self) -> DicegeddonStudy:
        from dicetree.solver.games.dicegeddon.armies import DicegeddonStudy  # the exact solver's libraries load with it

        return DicegeddonStudy(Dicegeddon)

    def canonical(self) -> CanonicalDicegeddon:
        """The same game with its states kept in a canonical dice order (for exact solves)."""
        return CanonicalDicegeddon(**self.options())


class CanonicalDicegeddon(Dicegeddon):
    """Dicegeddon whose states are kept in :func:`~dicetree.solver.games.dicegeddon.rules.canonical` order
    after every move: fewer states for :func:`dicetree.solver.exact.solve` of whole armies (die numbers change
    from move to move, so this is for solving, not for play)."""

    def apply(self, state: DicegeddonState, action) -> DicegeddonState:
        return canonical(super().apply(state, action))
