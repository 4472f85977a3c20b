"""How a game of three or more players taking turns is searched: max^n or the paranoid reduction.

Two readings of "the others' moves" are offered (``best --search``, a strategy's ``search=``):

* ``maxn`` (:mod:`dicetree.solver.maxn`) — every player maximizes their own chance; ties broken by
  :data:`dicetree.solver.maxn.TIE_RULE`;
* ``paranoid`` (:mod:`dicetree.solver.paranoid`, run by :class:`dicetree.solver.search.Searcher`) — every
  other player minimizes the mover's value, as one coalition: pessimistic, but with pruning.

With one or two players both are the one expectiminimax search (the two-player game is constant-sum),
so the choice only matters beyond two. Where players choose at once (Dice Fights), three or more players are
searched by the paranoid reduction only (:mod:`dicetree.solver.simultaneous`): a simultaneous choice of
several players who each play for themselves is a general-sum game, with many equilibria and no one
value to back up, so max^n does not fit there (``best --search maxn`` says so in one line). :data:`DEFAULT_SEARCH` is the one measured better::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rollforit", players=3)
    >>> type(turn_searcher(game, "paranoid")).__name__, type(turn_searcher(game, "maxn")).__name__
    ('Searcher', 'MaxnSearcher')
    >>> type(turn_searcher(load_game("rollforit"), "maxn")).__name__  # two players: expectiminimax
    'Searcher'
    >>> DEFAULT_SEARCH
    'paranoid'
"""

from __future__ import annotations

from typing import Any

from dicetree.solver.game import Game, GameError
from dicetree.solver.rule_options import shorten

SEARCHES = ("maxn", "paranoid")
DEFAULT_SEARCH = "paranoid"
"""The search of games of three or more players taking turns: paranoid, because it plays as well and
costs less. Measured in Roll For It! (``results/rollforit/README.md``, section 4): at depth 2 the two
searches picked the same move in all 80 positions sampled at three and four players (95% interval of
agreement 91 to 100% at each count), duels of one against the other with common random numbers
showed no difference (the four-player games were move for move the same), and a paranoid search took
2.6 to 2.8 times less CPU than max^n's (its pruning: 87 against 228 ms at three players, 129 against
363 ms at four), so within a time limit it searches deeper. Its values are the pessimistic reading
(the others as one coalition); ``--search maxn`` gives each player's own estimate."""
SEARCH_HELP = ("how games of 3+ players are searched: paranoid = all others minimize the mover's chance "
               "(default: the same moves as maxn at depth 2 in Roll For It!, 2.6-2.8 times faster); maxn = each "
               "player maximizes their own chance")


def check_search(name: str) -> str:
    """``name`` if it is one of :data:`SEARCHES`; else one line naming them."""
    if name not in SEARCHES:
        raise GameError(f"unknown search '{shorten(name)}': choose {' or '.join(SEARCHES)}")
    return name


def uses_maxn(game: Game, search: str | None) -> bool:
    """Whether ``game`` as configured is searched by max^n under ``search`` (None: the default)."""
    return game.num_players > 2 and check_search(search or DEFAULT_SEARCH) == "maxn"


def turn_searcher(game: Game, search: str | None = None, **options: Any):
    """The searcher of ``game`` for ``search`` (None: :data:`DEFAULT_SEARCH`): a
    :class:`~dicetree.solver.maxn.MaxnSearcher` for max^n beyond two players, else a
    :class:`~dicetree.solver.search.Searcher` (``options`` go to it; those max^n has no use for —
    Star2, stored exact values — are left out there)."""
    if uses_maxn(game, search):
        from dicetree.solver.maxn import MaxnSearcher

        kept = {k: v for k, v in options.items() if k in ("use_cache", "cache_slots", "chance_samples", "seed")}
        return MaxnSearcher(game, **kept)
    from dicetree.solver.search import Searcher

    return Searcher(game, **options)


def meaning(game: Game, search: str | None = None) -> str:
    """What a searched value means in ``game`` as configured (the reduction named beyond two players)."""
    if game.num_players <= 2:
        return game.describe_value()
    if uses_maxn(game, search):
        from dicetree.solver.maxn import meaning as maxn_meaning

        return f"{game.describe_value()}; {maxn_meaning(game)}"
    from dicetree.solver.paranoid import meaning as paranoid_meaning

    return f"{game.describe_value()}; {paranoid_meaning(game)}"


__all__ = ["DEFAULT_SEARCH", "SEARCHES", "SEARCH_HELP", "check_search", "meaning", "turn_searcher", "uses_maxn"]
