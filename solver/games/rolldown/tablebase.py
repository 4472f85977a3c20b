"""RolldownBeta endgame tables on disk: build, store, probe — what ``dicetree tablebase`` and
``best --exact`` use, and the oracle the search probes at every node the tables cover.

Tables come from :mod:`solver.games.rolldown.tables` (the vectorized builder) and live in a
:class:`cache.store.TableStore`, one file per signature, under the game name
``rolldown-<ace variant>`` (kept apart to be safe, though the builder finds the two variants give equal values: the printed Ace's extra plays never beat the online ones; only the move lists differ).

>>> import tempfile
>>> from cache.store import TableStore
>>> from solver.games.rolldown import Rolldown
>>> base = Tablebase(TableStore(tempfile.mkdtemp()))
>>> _ = base.build(max_dice=1)
>>> state = Rolldown().parse("d8:2/d6:5 a -/-")
>>> round(base.probe(state), 6)
0.24
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from cache.store import TableStore
from solver.game import GameError
from solver.search import MoveValue, SearchResult
from solver.games.rolldown.cards import UNKNOWN
from solver.games.rolldown.rules import DECIDE, Rolldown, RolldownState
from solver.games.rolldown.tables import (
    DEFAULT_TOLERANCE,
    BuildEstimate,
    Signature,
    Tables,
    build_tables,
    estimate_build,
    move_values,
    required_signatures,
    state_index,
)

#: Builds on demand (``best --exact``) are refused beyond this many positions (about 4 GiB).
ON_DEMAND_LIMIT = 500_000_000


def covered(state: RolldownState) -> bool:
    """Whether tables can hold ``state``: the mover decides, no first turn pending, hands known."""
    return (
        state.phase == DECIDE
        and not any(state.first_turn)
        and UNKNOWN not in state.hands[0]
        and UNKNOWN not in state.hands[1]
    )


class Tablebase:
    """The stored tables of one Ace variant, loaded lazily (memory-mapped where large)."""

    def __init__(self, store: TableStore | None = None, ace: str = "online"):
        self.store = store or TableStore()
        self.ace = ace
        self.game_name = f"rolldown-{ace}"
        self._loaded: dict[Signature, np.ndarray | None] = {}
        self.probes = 0
        self.hits = 0

    # ----- probing -------------------------------------------------------------------------------
    def table(self, signature: Signature) -> np.ndarray | None:
        """The table of ``signature``, or None if it has not been built."""
        if signature not in self._loaded:
            stored = self.store.load(self.game_name, signature.name)
            self._loaded[signature] = None if stored is None else stored.array
        return self._loaded[signature]

    def probe(self, state: RolldownState) -> float | None:
        """The exact value of ``state`` for its mover, or None where no table covers it."""
        self.probes += 1
        if not covered(state):
            return None
        table = self.table(Signature.of_state(state))
        if table is None:
            return None
        self.hits += 1
        return float(table[state_index(state)])

    def oracle(self) -> Callable[[RolldownState], float | None]:
        """A probe from player 0's view, for :class:`solver.search.Searcher`'s ``oracle``."""

        stored = [Signature.parse(meta["signature"]).dice for meta in self.store.list(self.game_name)]
        most_dice = max(stored, default=0)

        def value_for_a(state: RolldownState) -> float | None:
            if state.pairs_left() > most_dice:  # cheaper than a signature for a sure miss
                self.probes += 1
                return None
            value = self.probe(state)
            if value is None or state.mover == 0:
                return value
            return 1.0 - value

        return value_for_a

    def move_values(self, state: RolldownState) -> list[tuple[tuple, float]]:
        """Every legal move with its exact value for the mover (tables of the position's closure
        must be built: :meth:`ensure`)."""
        return move_values(self.closure_tables(Signature.of_state(state)), state, self.ace)

    def exact_result(self, state: RolldownState, limit: int = ON_DEMAND_LIMIT, progress=None) -> SearchResult:
        """Every move's exact value at ``state`` as a search result (building small missing
        tables first), for :func:`solver.analysis.analyse`'s ``exact``."""
        started = time.perf_counter()
        built = self.ensure(state, limit=limit, progress=progress)
        game = Rolldown(ace=self.ace)
        ranked = sorted(self.move_values(state), key=lambda item: -item[1])
        best_value = ranked[0][1]
        moves = [MoveValue(action, game.action_name(state, action), value, best_value - value) for action, value in ranked]
        how = f"built on demand: {built}" if built else "from stored tables"
        return SearchResult(
            moves=moves, best=moves[0], value=best_value, depth=0, nodes=0, cache_probes=0, cache_hits=0,
            elapsed=time.perf_counter() - started, pv=[moves[0].name], sampled_chance_nodes=0,
            method=f"exact: endgame tables, value iteration to {DEFAULT_TOLERANCE:g} ({how})", exact=True,
            table_probes=1, table_hits=1,
        )

    # ----- building -------------------------------------------------------------------------------
    def closure_tables(self, root: Signature) -> dict[Signature, np.ndarray]:
        """Every stored table that ``root``'s value depends on (missing ones are left out)."""
        tables = {}
        for signature in required_signatures([root]):
            table = self.table(signature)
            if table is not None:
                tables[signature] = table
        return tables

    def missing(self, root: Signature) -> list[Signature]:
        return [sig for sig in required_signatures([root]) if self.table(sig) is None]

    def ensure(self, state: RolldownState, limit: int = ON_DEMAND_LIMIT, progress=None) -> BuildEstimate | None:
        """Build and store whatever tables ``state`` needs; refuse (GameError, with the size)
        beyond ``limit`` positions. Returns the estimate of what was built, None if nothing."""
        if not covered(state):
            raise GameError(
                "exact values cover positions where the mover decides, both have had their first turn "
                "and both hands are known"
            )
        root = Signature.of_state(state)
        todo = self.missing(root)
        if not todo:
            return None
        estimate = estimate_build(roots=todo)
        if estimate.positions > limit:
            raise GameError(
                f"exact values here need {estimate}: beyond what is built on demand "
                f"({limit:,} positions); build them with `dicetree tablebase build` or search instead"
            )
        self._build(roots=todo, progress=progress)
        return estimate

    def build(self, max_dice: int | None = None, max_cards: int = 0, *, roots=None, progress=None) -> Tables:
        """Build every table with up to ``max_dice`` dice a side and ``max_cards`` cards a hand
        (reusing stored ones) and store the new ones."""
        return self._build(max_dice=max_dice, max_cards=max_cards, roots=roots, progress=progress)

    def _build(self, *, max_dice=None, max_cards=0, roots=None, progress=None) -> Tables:
        wanted = required_signatures(roots) if roots is not None else None
        known = {}
        for signature in wanted if wanted is not None else ():
            table = self.table(signature)
            if table is not None:
                known[signature] = table
        if wanted is None:
            for meta in self.store.list(self.game_name):
                signature = Signature.parse(meta["signature"])
                known[signature] = self.table(signature)
        known = {sig: table for sig, table in known.items() if table is not None}
        tables = build_tables(max_dice, max_cards, ace=self.ace, progress=progress, roots=roots,
                              tables=Tables(known, ace=self.ace))
        for batch in tables.stats.batches:
            for name in batch.signatures:
                signature = Signature.parse(name)
                if signature in known:
                    continue
                array = tables[signature]
                self.store.save(self.game_name, name, array, {
                    "build_time": batch.seconds, "tolerance": DEFAULT_TOLERANCE,
                    "residual": batch.residual, "updates": batch.updates64 + batch.updates32,
                    "options": {"ace": self.ace},
                })
                self._loaded[signature] = array
        return tables
