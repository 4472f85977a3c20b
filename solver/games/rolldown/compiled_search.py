"""RolldownBeta's compiled search as the generic :class:`dicetree.solver.search.Searcher` uses it
(:meth:`Rolldown.compiled_search` hands it over; no generic module names the game).

:class:`CompiledSearch` runs each iteration of the searcher's iterative deepening in compiled code
(:mod:`dicetree.solver.games.rolldown.compiled_kernel`) on a worker thread, so that the deadline and
Ctrl-C stop it within 256 nodes (the answer is then the last completed depth's, as in Python);
:class:`CompiledTable` shows the compiled transposition table to the searcher as a
:class:`~dicetree.cache.transposition.TranspositionTable` (the root's entry, the principal line).

It searches what the Python search would, with the same values (to rounding) and best moves, except:

* a Joker with more outcomes than ``exact_chance_limit`` is estimated from its own seeded sample (the
  Python search seeds ``random.Random`` with the position's text, which compiled code cannot);
* it declines (:meth:`CompiledSearch.declines`) and the Python search runs: with an oracle other than
  the stored endgame tables (:class:`~dicetree.solver.games.rolldown.tablebase.TableOracle`, whose tables it
  reads itself: :mod:`dicetree.solver.games.rolldown.compiled_tables`), unknown cards, full matches
  (``horizon=match``), an estimate given by the caller, or a match score the equity tables cannot value.

numba's compiled code is cached in ``$NUMBA_CACHE_DIR`` when set, else in the user's cache folder
(``~/.cache/dicetree/numba``, :func:`numba_cache_dir`); the first use says once on stderr how long it
took to compile. ``DICETREE_SEARCH=python`` (or ``Searcher(..., compiled=False)``) forces the
Python search.

>>> from dicetree.solver.games.rolldown import Rolldown
>>> game = Rolldown()
>>> engine = CompiledSearch(game, cache_slots=2**12)
>>> engine.declines(game.parse("d6:2,d8:5/d4:3,d6:6 a -/?"))
'a hand holds unknown cards'
"""

from __future__ import annotations

import sys
import threading
import time
import weakref

import numpy as np

from dicetree.cache.transposition import TTEntry
from dicetree.solver.games.rolldown import compiled_kernel, network_kernel
from dicetree.solver.games.rolldown.compiled_evaluation import evaluate as compiled_evaluate
from dicetree.solver.games.rolldown.compiled_evaluation import Leaves, leaves_of
from dicetree.solver.games.rolldown.compiled_rules import numba_cache_dir
from dicetree.solver.games.rolldown.compiled_tables import HITS, PROBES, WITHIN_REACH, TableIndex
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.packed import action_code, decode_action, pack, packable
from dicetree.solver.games.rolldown.cards import JOKER
from dicetree.solver.games.rolldown.state import RolldownState
from dicetree.solver.games.rolldown.tablebase import TableOracle
from dicetree.solver.limits import SearchTimeout

LARGEST_LISTED = 1 << 16
"""The largest ``exact_chance_limit`` the compiled search lists (its buffers hold that many children)."""
_compiled_once = threading.Lock()
_reported: bool | None = None  # None until the first warm-up


QUICK = 0.005
"""An iteration runs in the calling thread (no worker) when the one before took less than this many seconds
(the next takes tens of times longer, so Ctrl-C still stops a search within about a tenth of a second)."""
_spare: dict[tuple[int, int, int], compiled_kernel.Arrays] = {}
_spare_lock = threading.Lock()


def _take_memory(cache_slots: int, listed: int, samples: int) -> compiled_kernel.Arrays:
    """A search's memory: the spare one of this shape if a finished searcher left it, else new (a 2^20
    table is 32 MB: zeroing it again for every new searcher cost more than a small search).

    Nothing the earlier owner left counts: its table entries and remembered evaluations are of its
    generations (``BASE``, ``LEAVES_BASE``: read as empty), :meth:`CompiledSearch.begin` zeroes the counters
    and the history, and the per-ply buffers are written before they are read. A search on spare memory
    counts the same nodes and table probes as on new memory (tests/test_rolldown_compiled_tables.py)."""
    shape = (cache_slots, listed, samples)
    with _spare_lock:
        arrays = _spare.pop(shape, None)
    if arrays is None:
        arrays = compiled_kernel.new_arrays(cache_slots, listed, samples)
    return arrays


def _give_back(shape: tuple[int, int, int], arrays: compiled_kernel.Arrays) -> None:
    with _spare_lock:
        _spare.setdefault(shape, arrays)


class CompiledTable:
    """The compiled transposition table with the :class:`TranspositionTable` methods the searcher
    calls around its iterations (keys are :meth:`Rolldown.key` states, moves actions)."""

    def __init__(self, kernel, arrays):
        self._kernel, self._arrays = kernel, arrays

    generation = property(lambda self: int(self._arrays.stats[self._kernel.GENERATION]))
    probes = property(lambda self: int(self._arrays.stats[self._kernel.PROBES]))
    hits = property(lambda self: int(self._arrays.stats[self._kernel.HITS]))

    def new_search(self) -> None:
        self._arrays.stats[self._kernel.GENERATION] += 1

    def peek(self, key: RolldownState) -> TTEntry | None:
        if packable(key):
            return None
        dice, cards = pack(key)
        index = self._kernel.peek_table(self._arrays, dice, cards)
        if index < 0:
            return None
        k, a = self._kernel, self._arrays
        move = k.entry_move(a, index)
        return TTEntry(key, k.entry_depth(a, index), float(a.table_values[index, k.T_VALUE]), k.entry_bound(a, index),
                       decode_action(move) if move >= 0 else None, k.entry_generation(a, index))

    probe = peek

    def store(self, key: RolldownState, depth: int, value: float, bound: int, move=None) -> bool:
        dice, cards = pack(key)
        return bool(self._kernel.store_table(self._arrays, dice, cards, depth, value, bound,
                                             -1 if move is None else action_code(move)))

    def counters(self) -> dict[str, int]:
        stats, k = self._arrays.stats, self._kernel
        return {"stores": int(stats[k.STORES]), "overwrites": int(stats[k.OVERWRITES]),
                "rejected": int(stats[k.REJECTED])}


class CompiledSearch:
    """The compiled search for one :class:`Searcher` of a :class:`Rolldown` game (see the module notes).

    ``network``, when given, is the value network's ``(sizes, params)`` in place of the game's estimate,
    its output kept within [``clip``, 1 - ``clip``].
    """

    def __init__(self, game, *, cache_slots: int = 2**20, star2: bool = True, history: bool = True,
                 chance_samples: int = 64, seed: int = 0, network: tuple[np.ndarray, np.ndarray] | None = None,
                 clip: float = network_kernel.DEFAULT_CLIP):
        self.game = game
        self.network, self.clip = network, clip
        self.kernel = compiled_kernel
        self._evaluation = compiled_evaluate
        listed = min(game.exact_chance_limit, LARGEST_LISTED)
        config = np.zeros(16, dtype=np.int64)
        k = self.kernel
        config[k.MASK], config[k.STAR2], config[k.HISTORY] = cache_slots - 1, int(star2), int(history)
        config[k.ACE_PRINTED], config[k.EXACT_LIMIT] = int(game.ace == "printed"), listed
        config[k.SAMPLES], config[k.SEED] = chance_samples, seed
        bounds = game.value_bounds()
        self.arrays = _take_memory(cache_slots, listed, chance_samples)
        config[k.BASE] = self.arrays.stats[k.GENERATION]  # what an earlier owner stored is not ours
        self.arrays.config[:] = config
        self.arrays.bounds[:] = (float(bounds.low), float(bounds.high))
        self.table = CompiledTable(k, self.arrays)
        weakref.finalize(self, _give_back, (cache_slots, listed, chance_samples), self.arrays)
        self.samples, self.seed = chance_samples, seed
        self._leaves: Leaves | None = None
        self._root: RolldownState | None = None
        self._oracle: TableOracle | None = None
        self._tables: TableIndex | None = None  # the running search's, with an oracle

    # ----- what it searches ------------------------------------------------------------------------
    def declines(self, state: RolldownState, oracle=None) -> str:
        """Why the Python search must answer ``state`` ('' when the compiled one can), probing ``oracle``
        (exact values from outside, None for none) at every decision node below the root as it would."""
        reason = packable(state)
        if reason:
            return reason
        if oracle is not None and not isinstance(oracle, TableOracle):
            return "the search probes exact values that compiled code cannot read (not the stored endgame tables)"
        game = self.game
        if game.objective == "match" and state.mode != "single" and game.horizon == "match":
            return "full matches (horizon=match) deal new rounds"
        if game.exact_chance_limit > LARGEST_LISTED:
            return f"chance nodes of more than {LARGEST_LISTED:,} outcomes are sampled or refused"
        leaves = leaves_of(game, state, network=self.network, clip=self.clip)
        if np.isnan(leaves.win_a).any() or np.isnan(leaves.win_b).any():
            return "the match equity tables cannot value every score this round may end with"
        self._leaves, self._root, self._oracle = leaves, state, oracle
        return ""

    # ----- a search ----------------------------------------------------------------------------------
    def begin(self, state: RolldownState) -> None:
        """A new search of ``state`` (after :meth:`declines` said ''): counters and history reset."""
        if self._root is not state and self.declines(state, self._oracle):
            raise GameError("the compiled search cannot search this position")
        stats = self.arrays.stats
        generation = stats[self.kernel.GENERATION]
        stats[:] = 0
        stats[self.kernel.GENERATION] = generation
        self.arrays.config[self.kernel.LEAVES_BASE] = generation  # this search's leaves may differ (a match's scores)
        self.arrays.history[:] = 0
        self._tables = None if self._oracle is None else TableIndex(self._oracle, state)
        self._words = pack(state)
        self._last_iteration = 0.0

    def iteration(self, actions: list, depth: int, deadline: float | None) -> tuple[dict, bool]:
        """Every root move's value (player A's) at ``depth``, and whether no line reached the depth
        (solved). Raises :class:`SearchTimeout` if the deadline passed first; Ctrl-C stops it too."""
        k, arrays = self.kernel, self.arrays
        tables = self._tables
        if tables is not None:  # the tables this depth reaches, loaded before the clock runs the search
            tables.reach(depth)
            arrays = arrays._replace(endgame_rows=tables.rows, endgame_counters=tables.counters)
            within_reach = int(tables.counters[WITHIN_REACH])
        horizon = int(arrays.stats[k.HORIZON])
        codes = np.array([action_code(a) for a in actions], dtype=np.int64)
        values = np.zeros(len(actions))
        arrays.stop[0] = 0
        dice, cards = self._words
        done: list[bool] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                done.append(k.root_values(dice, cards, codes, depth, arrays, self._leaves, values))
            except BaseException as error:  # noqa: BLE001 - re-raised in the calling thread
                failure.append(error)

        started = time.perf_counter()
        if deadline is None and (depth <= 2 or self._last_iteration < QUICK):
            run()  # quick (the last depth took under QUICK): no thread, Ctrl-C waits for it
            worker = None
        else:
            worker = threading.Thread(target=run, name="dicetree-compiled-search", daemon=True)
            worker.start()
        try:
            while worker is not None and worker.is_alive():
                wait = 0.05 if deadline is None else max(0.0, min(0.05, deadline - time.perf_counter()))
                worker.join(wait)
                if deadline is not None and time.perf_counter() > deadline:
                    arrays.stop[0] = 1
        except BaseException:  # Ctrl-C: stop the worker, then let the interrupt go on
            arrays.stop[0] = 1
            if worker is not None:
                worker.join()
            raise
        self._last_iteration = time.perf_counter() - started
        if tables is not None:
            tables.oracle.reachable += int(tables.counters[WITHIN_REACH]) - within_reach
        if failure:
            raise failure[0]
        if not done or not done[0]:
            arrays.stats[k.ABORTED] = 0
            raise SearchTimeout
        return dict(zip(actions, values.tolist())), int(arrays.stats[k.HORIZON]) == horizon

    nodes = property(lambda self: int(self.arrays.stats[self.kernel.NODES]), doc="nodes searched so far")
    sampled = property(lambda self: int(self.arrays.stats[self.kernel.SAMPLED]), doc="sampled Jokers expanded")
    table_probes = property(lambda self: 0 if self._tables is None else int(self._tables.counters[PROBES]),
                            doc="endgame-table probes so far (every decision node below the root, as the oracle's)")
    table_hits = property(lambda self: 0 if self._tables is None else int(self._tables.counters[HITS]),
                          doc="of those, the positions a stored table held")

    def evaluate(self, state: RolldownState) -> float:
        """Player A's leaf value of a decision position of the running search (the compiled evaluation:
        the principal line's leaves, without the Python estimate's cost)."""
        return float(self._evaluation(*pack(state), self._leaves))

    def chance_note(self) -> str:
        """How sampled Jokers were handled ('' when none was), as the Python sampler's note says it."""
        if not self.sampled:
            return ""
        return (f"{self.sampled:,} Joker chance node visit(s) had more than {self.game.exact_chance_limit:,} "
                f"outcomes: each estimated from {self.samples} samples of the compiled search's own generator "
                f"(seed {self.seed})")


def warm_up(game, started: float) -> None:
    """Compile (or load from numba's cache) every function now, with a small search of ``game``'s; where
    anything was compiled rather than loaded since ``started`` (a ``time.perf_counter()`` before this
    module was imported), say so once a process on stderr with the time it took."""
    global _reported
    with _compiled_once:
        if _reported is not None:
            return
        engine = CompiledSearch(game, cache_slots=2**8)
        probe = RolldownState(dice=((0, 0, 0, 0, 0, 6), (0, 0, 0, 0, 0, 4)), mover=0, hands=((12, JOKER), ()))
        if not engine.declines(probe):
            engine.begin(probe)
            engine.iteration(game.legal_actions(probe), 2, None)
            engine.table.peek(probe)
        functions = (compiled_kernel.root_values, compiled_kernel.node_value, compiled_kernel.peek_table)
        compiled = sum(sum(function.stats.cache_misses.values()) for function in functions)
        _reported = bool(compiled)
        if compiled:
            print(f"dicetree: compiled RolldownBeta's search in {time.perf_counter() - started:.1f} s (once: kept in "
                  f"{numba_cache_dir()})", file=sys.stderr)


__all__ = ["CompiledSearch", "CompiledTable", "warm_up"]
