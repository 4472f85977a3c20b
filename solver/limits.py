"""What a search may spend and what it spent, and the iterative deepening that keeps to the limits.

Both searchers (:class:`dicetree.solver.search.Searcher`, :class:`dicetree.solver.simultaneous.SimultaneousSearcher`)
take the same :class:`SearchLimits` (as python-chess's ``engine.Limit``), deepen with the same
:func:`deepen` and report the same :class:`SearchStats`::

    >>> limits = SearchLimits(time=2.5)
    >>> limits.max_depth(default_depth=3), SearchLimits().max_depth(default_depth=3), SearchLimits(depth=4).max_depth(3)
    (64, 3, 4)
    >>> SearchLimits(depth=0)
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: the search depth must be at least 1, not 0
    >>> total = SearchStats(nodes=300, cache_probes=40, cache_hits=10) + SearchStats(nodes=100, elapsed=0.5)
    >>> total.nodes, total.cache_hit_rate, total.nodes_per_second
    (400, 0.25, 800.0)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TypeVar

from dicetree.solver.game import GameError

MAX_DEPTH = 64
"""Iterative deepening under a time limit alone stops at this depth at the latest."""
CLOCK_MASK = 255
"""A search reads the clock when its node count is a multiple of CLOCK_MASK + 1."""


@dataclass(frozen=True)
class SearchLimits:
    """How far a search may go: ``depth`` decisions (chance events do not count) and ``time``
    seconds. With a time limit the deepest completed iteration counts; with neither, the
    searcher's own default depth (a fact of each searcher: see ``default_depth``)."""

    depth: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise GameError(f"the search depth must be at least 1, not {self.depth}")
        if self.time is not None and self.time < 0:
            raise GameError(f"the time limit cannot be negative ({self.time})")

    def max_depth(self, default_depth: int) -> int:
        """The deepest iteration: ``depth``; else :data:`MAX_DEPTH` under a time limit; else ``default_depth``."""
        return self.depth or (MAX_DEPTH if self.time is not None else default_depth)


@dataclass(frozen=True)
class SearchStats:
    """What a search counted. ``nodes`` is every node entered in every iteration (an abandoned one
    included), so ``nodes / elapsed`` is the search speed; cache and table (stored exact values)
    probes and hits; chance nodes too large to list that were sampled; the matrix games of
    simultaneous moves solved, and how many of them needed a linear program."""

    nodes: int = 0
    cache_probes: int = 0
    cache_hits: int = 0
    table_probes: int = 0
    table_hits: int = 0
    sampled_chance_nodes: int = 0
    matrix_games: int = 0
    linear_programs: int = 0
    elapsed: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def cache_hit_rate(self) -> float:
        return self.cache_hits / self.cache_probes if self.cache_probes else 0.0

    def __add__(self, other: SearchStats) -> SearchStats:
        """The counts of two searches together (their times added)."""
        return SearchStats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed; caught by :func:`deepen`."""


R = TypeVar("R")


def deepen(
    step: Callable[[int], tuple[R, bool]],
    limits: SearchLimits,
    *,
    default_depth: int,
    start: float,
    set_deadline: Callable[[float | None], None],
    on_iteration: Callable[[R], object] | None = None,
) -> tuple[R, str]:
    """Iterative deepening from depth 1 within ``limits``: ``step(depth)`` returns an iteration's
    result and whether it solved the position (no line reached the depth), or raises
    :class:`SearchTimeout` once the deadline set through ``set_deadline`` has passed. Depth 1
    always completes. Returns the last completed result and how the time limit stopped the
    deepening ('' if it did not)."""
    max_depth, time_limit = limits.max_depth(default_depth), limits.time
    result = None
    stopped = ""
    for iteration in range(1, max_depth + 1):
        set_deadline(None if iteration == 1 or time_limit is None else start + time_limit)
        try:
            result, solved = step(iteration)
        except SearchTimeout:
            stopped = f"; time limit {time_limit:.3g} s reached during depth {iteration}"
            break
        if on_iteration is not None:
            on_iteration(result)
        if solved:
            break
        if time_limit is not None and time.perf_counter() - start >= time_limit and iteration < max_depth:
            stopped = f"; time limit {time_limit:.3g} s reached after depth {iteration}"
            break
    set_deadline(None)
    assert result is not None  # depth 1 runs without a deadline
    return result, stopped


__all__ = ["CLOCK_MASK", "MAX_DEPTH", "SearchLimits", "SearchStats", "SearchTimeout", "deepen"]
