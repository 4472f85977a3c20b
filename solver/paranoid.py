"""The paranoid reduction: a game of three or more players seen as a duel of one player against the rest.

Expectiminimax with pruning (:class:`dicetree.solver.search.Searcher`) needs two sides whose values add up to
a constant. A game for N > 2 players taking turns becomes one, for a *focus* player, by the
paranoid reduction (Sturtevant and Korf 2000): the focus player maximizes their own value, every
other player minimizes it, as if all the others played together against them. The value is then
what the focus player can guarantee whatever the others do, a lower bound on what they get in
any play (max^n, where each player maximizes their own value, assumes instead that each plays for
themselves). Two-player search is reused whole: Star1/Star2, the cache, move ordering.

:class:`ParanoidView` is that duel: player 0 is the focus player, player 1 the coalition; values
are the focus player's; a terminal's and an evaluation's are the focus player's return and
evaluation in the game itself::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rollforit", players=3)
    >>> state = game.parse(game.example_position())
    >>> view = ParanoidView(game, focus=game.current_player(state))
    >>> view.current_player(state), view.num_players
    (0, 2)
"""

from __future__ import annotations

from dicetree.solver.game import Game, State

METHOD = "paranoid reduction"
MEANING = (
    "{players} players, paranoid reduction: the value if all the other players played together against "
    "the mover (what the mover can count on whatever they do)"
)


class ParanoidView:
    """``game`` as a duel of ``focus`` (player 0 here) against all the others (player 1 here).

    Only what a two-player searcher asks of a game differs from ``game`` (whose turn, returns,
    evaluations); everything else — moves, chance, keys, names, bounds — is the game's own.
    """

    num_players = 2

    def __init__(self, game: Game, focus: int):
        self.game = game
        self.focus = focus
        self._current_player = game.current_player
        self._returns = game.returns
        self._evaluate = game.evaluate

    def __getattr__(self, name: str):
        return getattr(self.game, name)

    def current_player(self, state: State) -> int:
        player = self._current_player(state)
        if player < 0:  # chance, terminal or simultaneous: the same in the view
            return player
        return 0 if player == self.focus else 1

    def returns(self, state: State) -> tuple[float, float]:
        value = self._returns(state)[self.focus]
        return value, value  # only the focus player's is read: player 0's, from whom all values are seen

    def evaluate(self, state: State, player: int) -> float:
        return self._evaluate(state, self.focus)


def meaning(game: Game) -> str:
    """What a paranoid value means in ``game`` as configured, for output."""
    return MEANING.format(players=game.num_players)


__all__ = ["METHOD", "ParanoidView", "meaning"]
