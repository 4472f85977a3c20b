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
"""

from __future__ import annotations

from typing import Any

from dicetree.solver.game import Game, GameError
from dicetree.solver.rule_options import shorten

SEARCHES = ("maxn", "paranoid")
DEFAULT_SEARCH = "maxn"
"""The search of games of three or more players taking turns. max^n, because in Roll For It! at three
and four players the depth-2 max^n strategy won more than its fair share against the depth-2 paranoid
one with common random numbers (``results/rollforit/README.md``, section 4): assuming the others gang up
on the mover makes it give up good chances for fear of replies no player would choose."""
SEARCH_HELP = ("how games of 3+ players are searched: maxn = each player maximizes their own chance "
               "(default); paranoid = all others minimize the mover's (pessimistic, prunes)")


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
