"""The point of view of a value: the one place that turns a value from one player's view to another's.

In a two-player constant-sum game (``GameType.constant_sum``) the returns always add up to the same
constant ``c``, so a value ``v`` for one player is ``c - v`` for the other (``1 - v`` for win
probabilities, ``-v`` for signed points). Everything that changes a value's point of view goes
through :class:`PointOfView`, as python-chess's ``PovScore.pov`` does for scores.

>>> pov = PointOfView(1.0)
>>> pov.flip(0.25)
0.75
>>> pov.view(0.25, seen_by=0, player=1), pov.view(0.25, seen_by=1, player=1)
(0.75, 0.25)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from dicetree.solver.game import GameError

if TYPE_CHECKING:
    from dicetree.solver.game import Game

V = TypeVar("V")  # a float, or a numpy array of values


@dataclass(frozen=True)
class PointOfView:
    """Values of a two-player constant-sum game, seen from either player."""

    constant: float

    @classmethod
    def of(cls, game: Game) -> PointOfView:
        """The point of view of ``game`` (one line if its returns are not constant-sum)."""
        constant = game.game_type.constant_sum
        if constant is None:
            raise GameError(f"{game.game_type.long_name}'s returns are not constant-sum: a value has no "
                            "meaning for the other player")
        return cls(float(constant))

    def flip(self, value: V) -> V:
        """The other player's value."""
        return self.constant - value  # type: ignore[operator, return-value]

    def view(self, value: V, seen_by: int, player: int) -> V:
        """``value``, which is ``seen_by``'s, as ``player`` sees it."""
        return value if seen_by == player else self.constant - value  # type: ignore[operator, return-value]
