"""Ranked moves: one move's value for the player choosing it, its loss against the best, and ties.

Every answer to "which move?" in dicetree is a list of :class:`MoveValue`, best first: the
depth-limited search (:mod:`dicetree.solver.search`), the simultaneous search (:mod:`dicetree.solver.simultaneous`,
where a move also has its probability in the player's optimal mixed strategy), the exact solver
(:mod:`dicetree.solver.exact`, which flags ties and its recommended move) and the answers built from them
(:mod:`dicetree.solver.analysis`, :mod:`dicetree.solver.tree`). :func:`rank_moves` builds such a list::

    >>> moves = rank_moves([("a", "keep", 0.25), ("b", "roll", 0.75), ("c", "stop", 0.75 - 2**-50)])
    >>> [(m.name, m.loss, m.tied, m.recommended, m.probability) for m in moves]  # doctest: +NORMALIZE_WHITESPACE
    [('roll', 0.0, True, True, 1.0), ('stop', 8.881784197001252e-16, True, False, 0.0),
     ('keep', 0.5, False, False, 0.0)]

The values of one position are all one player's, so the flip between players (:mod:`dicetree.solver.pov`)
happens before ranking, once per searcher: :func:`point_of_view` gives it for a configured game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dicetree.solver.game import Action, Game
from dicetree.solver.pov import PointOfView

TIE = 1e-12
"""Moves whose values differ by less than this are tied: values backed up by search or solved
exactly are exact to rounding (about 1e-15), so only true ties are this close."""
LP_TIE = 1e-9
"""The tie tolerance of values that come from linear programs (the matrix games of simultaneous
moves): HiGHS solves them to about 1e-12, so equally good choices differ by more than :data:`TIE`."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One move of the player choosing at a position, valued from that player's view.

    ``loss`` is how much worse it is than the best move (0 for the best); ``tied`` says it is
    within the tie tolerance of the best (the best itself included); ``recommended`` marks the move
    to play (the first of a ranking; the exact solver's pick among tied moves); ``probability`` is
    its weight in the player's strategy (1 for the recommended move of a pure strategy, the mixed
    strategy's weight at simultaneous moves).
    """

    action: Action
    name: str
    value: float
    loss: float
    tied: bool = False
    recommended: bool = False
    probability: float = 0.0


def rank_moves(
    moves: Iterable[tuple[Action, str, float]],
    *,
    tie: float = TIE,
    probabilities: Sequence[float] | None = None,
) -> list[MoveValue]:
    """``(action, name, value)`` triples (values for the mover) ranked best first; equal values keep
    their order (with ``probabilities``, the likelier first). Without ``probabilities`` the strategy
    is pure: the best move has probability 1."""
    entries = list(moves)
    weights = list(probabilities) if probabilities is not None else None
    if weights is None:
        order = sorted(range(len(entries)), key=lambda i: -entries[i][2])
    else:
        order = sorted(range(len(entries)), key=lambda i: (-entries[i][2], -weights[i]))
    top = entries[order[0]][2]
    ranked = []
    for rank, i in enumerate(order):
        action, name, value = entries[i]
        loss = top - value
        probability = weights[i] if weights is not None else float(rank == 0)
        ranked.append(MoveValue(action, name, value, loss, loss < tie, rank == 0, probability))
    return ranked


def loss_text(move: MoveValue, rank: int, digits: int = 4) -> str:
    """A move's loss as every output prints it: nothing for the first move listed, ``(tied)`` for a
    move tied with it, else the loss, which is never negative (it is how much worse the move is, not
    a signed difference). ``digits`` after the point.

    >>> ranked = rank_moves([("a", "keep", 0.25), ("b", "roll", 0.75), ("c", "stop", 0.75 - 2**-50)])
    >>> [loss_text(move, rank) for rank, move in enumerate(ranked, 1)]
    ['', '(tied)', '0.5000']
    """
    return format_loss(move.loss, rank, move.tied, digits)


def format_loss(loss: float, rank: int, tied: bool = False, digits: int = 4) -> str:
    """:func:`loss_text` of a loss given as a number (a stored answer's ``loss``): never negative,
    so rounding below the best's value prints ``0.0000``, not ``-0.0000``.

    >>> format_loss(-1e-17, 2), format_loss(0.25, 1), format_loss(0.25, 3, digits=2)
    ('0.0000', '', '0.25')
    """
    if rank == 1:
        return ""
    if tied:
        return "(tied)"
    return f"{max(0.0, loss):.{digits}f}"


def point_of_view(game: Game) -> PointOfView:
    """The point of view of ``game`` as configured (:meth:`PointOfView.of`: its declared constant
    sum). A game that declares none (one player, who always moves; or more than two) never has a
    value turned: its point of view answers a flip with NaN.

    >>> from dicetree.solver.games import load_game
    >>> point_of_view(load_game("rolldown")).flip(0.25)
    0.75
    >>> point_of_view(load_game("rolldown", objective="points")).flip(2.0)  # signed points add up to 0
    -2.0
    """
    if game.game_type.constant_sum is None:
        return PointOfView(math.nan)
    return PointOfView.of(game)


__all__ = ["LP_TIE", "TIE", "MoveValue", "format_loss", "loss_text", "point_of_view", "rank_moves"]
