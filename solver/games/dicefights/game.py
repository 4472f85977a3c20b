"""Dice Fights, the game as the searchers, solvers and the command line see it.

:class:`DiceFights` is the rules (:class:`~dicetree.solver.games.dicefights.rules.DiceFightsRules`) with
their declared facts, the notation (:mod:`~dicetree.solver.games.dicefights.notation`) and the leaf
evaluation (:mod:`~dicetree.solver.games.dicefights.evaluation`).

>>> game = DiceFights()
>>> state = game.parse(game.example_position())
>>> game.format(state), game.player_name(1)
('16:4:6:211=2a2d2g 13:9:5:121=1a3d1g reroll', 'B')
>>> round(game.evaluate(state, 0) + game.evaluate(state, 1), 9)
1.0
"""

from __future__ import annotations

import dicetree.solver.games.dicefights.evaluation as evaluation
import dicetree.solver.games.dicefights.notation as notation
from dicetree.solver.game import GameType
from dicetree.solver.games.dicefights.board import board as draw_board
from dicetree.solver.games.dicefights.policies import STRATEGY_KINDS, TURN_LIMIT, shared_among_players_in, starts_round
from dicetree.solver.games.dicefights.rules import DiceFightsRules
from dicetree.solver.games.dicefights.state import MAX_PLAYERS, MIN_PLAYERS, DiceFightsState


class DiceFights(DiceFightsRules):
    """Dice Fights with fixed rule options (``DiceFights(players=3, race="split")``; see
    :data:`~dicetree.solver.games.dicefights.rules.RULE_OPTIONS`). Perfect information, so ``observe`` and
    ``player_name`` (``A`` .. ``F``) are the interface's defaults."""

    game_type = GameType(
        short_name="dicefights", long_name="Dice Fights", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
        simultaneous=True, constant_sum=1.0, evaluates_chance=True,
    )

    def parse(self, text: str) -> DiceFightsState:
        return notation.parse_position(text, self)

    def format(self, state: DiceFightsState) -> str:
        return notation.format_position(state, self)

    def notation_help(self) -> str:
        return notation.notation_help(self)

    def example_position(self) -> str:
        return notation.example_position(self)

    def action_name(self, state: DiceFightsState, action) -> str:
        return notation.action_name(state, action, self)

    def evaluate(self, state: DiceFightsState, player: int) -> float:
        return evaluation.evaluate(state, player, self)

    def describe_value(self) -> str:
        return "probability of winning the game (a shared win counts 1/k)"

    board = draw_board  # Game.board: the position drawn (board.py)

    # ----- played games: the game's own strategies and length cap (policies.py) ----------------------
    turn_limit = TURN_LIMIT

    def starts_turn(self, state: DiceFightsState) -> bool:
        return starts_round(state)

    def stopped_returns(self, state: DiceFightsState) -> tuple[float, ...]:
        return shared_among_players_in(state)

    def strategies(self) -> tuple:
        return STRATEGY_KINDS


__all__ = ["DiceFights"]
