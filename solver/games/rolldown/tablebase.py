"""RolldownBeta endgame tables on disk: build, store, probe — what ``dicetree tablebase`` and
``best --exact`` use, and the oracle the search probes at every node the tables cover.

Tables come from :mod:`dicetree.solver.games.rolldown.tables` (the vectorized builder) and live in the
store's packed layout (:class:`dicetree.cache.packs.PackStore`) under the game name ``rolldown-<ace
variant>`` (kept apart to be safe, though the builder finds the two variants give equal values:
the printed Ace's extra plays never beat the online ones; only the move lists differ). Each batch
the builder solves is one pack, in the folder of its pair of dice sets (:attr:`Signature.shard`),
so a build of 58,725 tables writes 1,207 files in 141 folders. Each table carries its statistics
(:data:`STATISTICS`: the positions the mover wins with a chance above 1/2), which ``tablebase
stats`` sums, and each pack its batch's time, counted once. Values are stored as 32-bit fixed
point over [0, 1] (:func:`as_stored`: within 1.2e-10 of the solver's float64, half the bytes, so
every position of 4 dice a side takes 46 GiB), decoded where read; tables stored at float64 by
earlier builds (pack format 2) still load, and the builder reads either kind.

A build stores each batch as soon as it is solved and skips the batches already stored, so a
build stopped at any moment (even by SIGKILL) and started again ends with the same tables as one
that ran through. With ``workers`` or ``scheduler`` it runs as a task graph on ``dask.distributed``
(one task a batch, each waiting for the batches whose tables it reads); the workers read and write
the table folder themselves, so a cluster's workers must share it (a shared file system).
Tables stored one file each (before packs) are refused with one line that says how to rebuild.

>>> import tempfile
>>> from dicetree.cache.store import TableStore
>>> from dicetree.solver.games.rolldown import Rolldown
>>> base = Tablebase(TableStore(tempfile.mkdtemp()))
>>> _ = base.build(max_dice=1)
>>> state = Rolldown().parse("d8:2/d6:5 a -/-")
>>> round(base.probe(state), 6)
0.24
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping

import numpy as np

from dicetree.cache.packs import FixedPointTable, PackStore, PackWriter, encode_fixed
from dicetree.cache.store import TableStore, tables_flag
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import UNKNOWN
from dicetree.solver.games.rolldown.notation import action_name, format_position
from dicetree.solver.games.rolldown.state import ACE_VARIANTS, DECIDE, PLAYER_LETTERS, ROUND_POV, Action, RolldownState
from dicetree.solver.games.rolldown.tables import (
    DEFAULT_TOLERANCE,
    STORED_BYTES,
    Batch,
    BatchStats,
    BuildEstimate,
    BuildStats,
    ProgressFn,
    Signature,
    estimate_build,
    move_values,
    plan_batches,
    required_signatures,
    run_plan,
    solve_batch,
    state_index,
    wanted_signatures,
)
from dicetree.solver.limits import SearchStats
from dicetree.solver.parallel import CLUSTER_OPTIONS, Workers
from dicetree.solver.providers import Progress, StoredSet, announce
from dicetree.solver.ranking import format_loss, rank_moves
from dicetree.solver.rule_options import RuleOption
from dicetree.solver.search import SearchResult

#: Builds on demand (``best --exact``) are refused beyond this many positions (about 4 GiB).
ON_DEMAND_LIMIT = 500_000_000
#: ``within_reach`` looks at positions with at most this many dice pairs and hand cards together.
REACH_PIECES = 8
#: The statistics each stored table carries (``metadata["statistics"]``), with their labels.
STATISTICS = {"above_half": "wins for the mover above 1/2"}


def table_statistics(values: np.ndarray | FixedPointTable) -> dict[str, int]:
    """The named counts of one table, stored with it (see :data:`STATISTICS`); of fixed point, the
    values as stored (above 1/2 from the code 2**31 on)."""
    if isinstance(values, FixedPointTable):
        return {"above_half": int(np.count_nonzero(values.raw >= 2**31))}
    return {"above_half": int(np.count_nonzero(values > 0.5))}


def as_stored(values: np.ndarray | FixedPointTable) -> FixedPointTable:
    """A solved table as it is stored: 32-bit fixed point over [0, 1] (within 1.2e-10)."""
    return values if isinstance(values, FixedPointTable) else FixedPointTable(encode_fixed(values))


def covered(state: RolldownState) -> bool:
    """Whether tables can hold ``state``: the mover decides, no first turn pending, hands known."""
    return (
        state.phase == DECIDE
        and not any(state.first_turn)
        and UNKNOWN not in state.hands[0]
        and UNKNOWN not in state.hands[1]
    )


class Tablebase:
    """The stored tables of one Ace variant, loaded lazily (memory-mapped)."""

    def __init__(self, store: TableStore | None = None, ace: str = "online"):
        self.store = store or TableStore()
        self.packs = PackStore(self.store.root, verify=self.store.verify)
        self.ace = ace
        self.game_name = f"rolldown-{ace}"
        self._loaded: dict[Signature, np.ndarray | FixedPointTable] = {}
        self._layout_checked = False
        self.probes = 0
        self.hits = 0

    def _check_layout(self) -> None:
        """Refuse, in one line, a folder of tables stored one file each (the layout before packs)."""
        if self._layout_checked:
            return
        old = self.packs.legacy_tables(self.game_name)
        if old:
            raise GameError(self._legacy_line(old))
        self._layout_checked = True

    def _legacy_line(self, old: list[str]) -> str:
        sigs = [Signature.parse(name) for name in old]
        dice = max(sig.dice for sig in sigs)
        cards = max(max(len(sig.my_hand), len(sig.their_hand)) for sig in sigs)
        return (f"the {len(old):,} tables in {self.packs.folder(self.game_name)} are stored one file each, a layout "
                f"this dicetree no longer reads: remove that folder and rebuild them with "
                f"`dicetree tablebase build rolldown --dice {dice} --cards {cards}{tables_flag(self.store.root)}`")

    # ----- probing -------------------------------------------------------------------------------
    def table(self, signature: Signature) -> np.ndarray | FixedPointTable | None:
        """The table of ``signature``, or None if it has not been built."""
        found = self._loaded.get(signature)
        if found is None:
            self._check_layout()
            found = self.packs.load(self.game_name, signature.shard, signature.name)
            if found is not None:
                self._loaded[signature] = found
        return found

    def has(self, signature: Signature) -> bool:
        """Whether the table of ``signature`` is stored (its values not read)."""
        if signature in self._loaded:
            return True
        self._check_layout()
        return self.packs.has(self.game_name, signature.shard, signature.name)

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

    def oracle(self) -> TableOracle | None:
        """A probe from player 0's view, for :class:`dicetree.solver.search.Searcher`'s ``oracle`` (``None``
        while no table is stored: nothing to probe). Costs a listing of the shards' folders: their
        packs are read when a position first needs one."""
        self._check_layout()
        stored = self.packs.shards(self.game_name)
        if not stored:
            return None
        return TableOracle(self, max(shard.partition("-")[0].count("d") for shard in stored))  # dice a side

    def move_values(self, state: RolldownState) -> list[tuple[Action, float]]:
        """Every legal move with its exact value for the mover (tables of the position's closure
        must be built: :meth:`ensure`)."""
        return move_values(self.tables(), state, self.ace)

    def exact_result(self, state: RolldownState, progress: Progress | None = None,
                     limit: int = ON_DEMAND_LIMIT) -> SearchResult:
        """Every move's exact value at ``state`` as a search result (building small missing
        tables first: ``progress(done, total, 'positions')`` as batches are stored), for
        :func:`dicetree.solver.analysis.analyse`'s ``exact``."""
        started = time.perf_counter()
        report = None if progress is None else (lambda done, total, batch: progress(done, total, "positions"))
        built = self.ensure(state, limit=limit, progress=report)
        moves = rank_moves((action, action_name(state, action), value) for action, value in self.move_values(state))
        how = f"built on demand: {built}" if built else "from stored tables"
        return SearchResult(
            moves=moves, value=moves[0].value, depth=0, pv=[moves[0].name],
            method=f"exact: endgame tables, value iteration to {DEFAULT_TOLERANCE:g} ({how})",
            stats=SearchStats(table_probes=1, table_hits=1, elapsed=time.perf_counter() - started), exact=True,
        )

    def within_reach(self, state: RolldownState, limit: int = ON_DEMAND_LIMIT) -> str:
        """For a depth-limited answer (``best`` without ``--exact``): what ``--exact`` would do here,
        or "" where tables cannot hold ``state`` or would be built only on request. Positions with
        more than :data:`REACH_PIECES` dice pairs and cards are not looked at: listing the tables
        they need takes seconds (a round start's would take minutes)."""
        if not covered(state) or state.pairs_left() + len(state.hands[0]) + len(state.hands[1]) > REACH_PIECES:
            return ""
        todo = self.missing(Signature.of_state(state))
        if not todo:
            return "the endgame tables hold this position: `--exact` reads its exact values"
        estimate = estimate_build(roots=todo)
        if estimate.positions > limit:
            return ""
        return f"`--exact` gives exact values (it builds the missing endgame tables first: {estimate.positions:,} positions)"

    # ----- building -------------------------------------------------------------------------------
    def tables(self) -> StoredTables:
        """The stored tables as a read-only mapping ``{Signature: array}``, each read when first asked."""
        return StoredTables(self)

    def missing(self, root: Signature) -> list[Signature]:
        return [sig for sig in required_signatures([root]) if not self.has(sig)]

    def ensure(self, state: RolldownState, limit: int = ON_DEMAND_LIMIT, progress=None) -> BuildEstimate | None:
        """Build and store whatever tables ``state`` needs; refuse (GameError, with the size)
        beyond ``limit`` positions. Returns the estimate of what was built, None if nothing."""
        if not covered(state):
            raise GameError(
                "exact values cover positions where the mover decides, both have had their first turn "
                "and both hands are known"
            )
        root = Signature.of_state(state)
        if root.positions > limit and not self.has(root):  # refused at once: listing the closure takes a minute
            raise GameError(
                f"exact values here need the table {root.name} of {root.positions:,} positions "
                f"({root.positions * STORED_BYTES / 2**30:,.0f} GiB stored) and the tables below it: beyond what is "
                f"built on demand ({limit:,} positions); search instead (`--depth` or `--time`)"
            )
        todo = self.missing(root)
        if not todo:
            return None
        estimate = estimate_build(roots=todo)
        if estimate.positions > limit:
            raise GameError(
                f"exact values here need {estimate}: beyond what is built on demand "
                f"({limit:,} positions); build them with `dicetree tablebase build` or search instead"
            )
        self.build(roots=todo, progress=progress)
        return estimate

    def build(self, max_dice: int | None = None, max_cards: int = 0, *, roots=None, progress: ProgressFn | None = None,
              workers: int | None = None, scheduler: str | None = None) -> BuildStats:
        """Build and store every table with up to ``max_dice`` dice a side and ``max_cards`` cards a
        hand (or what ``roots`` need), skipping the batches already stored; the build's figures.

        In this process (a thread a CPU) by default; with ``workers``, on a ``dask.distributed``
        ``LocalCluster`` of that many worker processes; with ``scheduler``, on the cluster whose
        scheduler is at that address (its workers must see this table folder)."""
        self._check_layout()
        wanted = wanted_signatures(max_dice, max_cards, roots)
        self.packs.clean(self.game_name)  # temporary files of killed writers, once per build
        # smallest first: a build stopped and resumed (a 4-dice build spans sessions) loses at most
        # the batches in progress, which are then the smallest left
        plan = [sorted((batch for batch in level if not self.settled(batch)), key=lambda batch: batch.elements)
                for level in plan_batches(wanted)]
        plan = [level for level in plan if level]
        stats = BuildStats()
        if not plan:
            return stats
        if scheduler is not None or workers is not None:
            _run_on_dask(self, plan, stats, progress, workers, scheduler)
        else:
            with self.packs.writer() as writer:  # the disk syncs while the next batches are solved
                run_plan(plan, lambda batch: self.solve_and_store(batch, writer), stats, progress=progress,
                         level_done=writer.flush)
        self.packs.record_build(self.game_name, {
            "seconds": round(stats.seconds, 3), "batches": len(stats.batches), "positions": stats.positions,
            "where": scheduler or (f"LocalCluster of {workers}" if workers else "in process"),
            "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        })
        return stats

    def settled(self, batch: Batch) -> bool:
        """Whether ``batch`` is stored with its endless play checked (packs built before endless play
        was scored as a draw are solved again by the next build, starting from their values)."""
        if not all(self.has(sig) for sig in batch.signatures()):
            return False
        sig = batch.a_sig(0)
        return "endless" in (self.packs.metadata(self.game_name, sig.shard, sig.name) or {})

    def solve_and_store(self, batch: Batch, writer: PackWriter | None = None) -> BatchStats:
        """Solve one batch from the stored tables it reads and store it as one pack (committed
        later if a ``writer`` is given). The pack's ``build_time`` is its batch's solving time. A batch
        stored already (without the endless-play check) is solved again from its stored values."""
        tables = self.tables()
        start = tables if all(self.has(sig) for sig in batch.signatures()) else None
        solved, stats = solve_batch(batch, tables, self.ace, start=start)
        started = time.perf_counter()
        stored = {sig.name: as_stored(array) for sig, array in solved.items()}
        del solved
        (writer or self.packs).save(self.game_name, batch.shard, batch.name, stored, {
            "build_time": stats.seconds, "tolerance": DEFAULT_TOLERANCE, "residual": stats.residual,
            "updates": stats.updates64 + stats.updates32, "options": {"ace": self.ace},
            "endless": stats.endless, "draws": stats.draws,
        }, statistics={name: table_statistics(array) for name, array in stored.items()})
        stats.store_seconds = time.perf_counter() - started
        return stats

    # ----- the command line's provider interface (:class:`dicetree.solver.providers.ExactValues`) ---------------
    build_parameters = (
        RuleOption("dice", "int", None, "at most this many dice a side", low=1, high=6),
        RuleOption("cards", "int", 0, "at most this many cards in each hand", low=0, high=3),
        RuleOption("max_positions", "int", 2_000_000_000, "refuse builds larger than this (the estimate is printed)",
                   low=1),
        *CLUSTER_OPTIONS,  # a cluster's workers must see the same table folder
    )

    def build_from(self, values, progress: Progress | None = None, say=None) -> list[str]:
        """``dicetree tablebase build rolldown``: every table up to ``dice`` dice a side and ``cards`` a
        hand. The plan (and, on a rerun, how much is stored already) goes to ``say(line)`` before the
        work starts where ``say`` is given, else first in the lines returned."""
        dice, cards = values.get("dice"), int(values.get("cards") or 0)
        if dice is None:
            raise GameError("a RolldownBeta table build needs --dice N (at most N dice a side)")
        estimate = estimate_build(int(dice), cards)
        limit = int(values.get("max_positions") or 2_000_000_000)
        if estimate.positions > limit:
            raise GameError(f"that build is {estimate}: more than --max-positions {limit:,}")
        plan = [f"Building {estimate.signatures:,} tables, {estimate.positions:,} positions "
                f"({estimate.stored_bytes / 2**30:.2f} GiB stored at 32 bits; a working set of about "
                f"{estimate.working_bytes / 2**30:.2f} GiB) into {self.store.root}"]
        self._check_layout()
        stored = sum(self.has(sig) for sig in wanted_signatures(int(dice), cards))
        if stored:
            plan.append(f"resuming: {stored:,} of {estimate.signatures:,} tables already stored")
        lines = announce(plan, say)
        report = None
        if progress is not None:
            def report(done: int, total: int, batch) -> None:
                progress(done, total, f"{batch.signatures[0]:<16}")
        workers = values.get("workers")
        stats = self.build(max_dice=int(dice), max_cards=cards, progress=report, scheduler=values.get("scheduler"),
                           workers=None if workers is None else int(workers))
        solving = sum(b.seconds for b in stats.batches)
        storing = sum(b.store_seconds for b in stats.batches)
        lines.append(f"Solved {stats.positions:,} new positions in {stats.seconds:.1f} s ({solving:.1f} s solving and "
                     f"{storing:.1f} s storing {len(stats.batches):,} batches); largest residual "
                     f"{stats.max_residual:.1e} ({'converged' if stats.converged else 'NOT converged'})")
        checked = [b for b in stats.batches if b.endless is not None]
        looping = [b for b in checked if b.endless or b.draws]
        if looping or len(checked) < len(stats.batches):
            lines.append(f"Endless play (scored as a draw): {sum(b.endless or 0 for b in checked):,} positions settled in "
                         f"{len(looping):,} batches, {sum(b.draws or 0 for b in checked):,} left worth a draw"
                         + (f"; {len(stats.batches) - len(checked):,} batches on the lean path not checked"
                            if len(checked) < len(stats.batches) else ""))
        return lines

    def damaged(self) -> list[tuple[str, str]]:
        """Every stored pack whose values do not match their checksums (all read): ``(path, problem)``."""
        return self.packs.check(self.game_name)

    def answer(self, state: RolldownState) -> dict:
        """The stored exact value of ``state`` and of every move (``tablebase probe``)."""
        if not covered(state):
            raise GameError("tables hold positions where the mover decides, both players have had their first "
                            "turn and both hands are known")
        signature = Signature.of_state(state)
        missing = self.missing(signature)
        if missing:
            raise GameError(f"{len(missing)} table(s) this position needs are not built (e.g. {missing[0].name}): "
                            f"run `dicetree tablebase build rolldown --dice {signature.dice} --cards "
                            f"{max(len(signature.my_hand), len(signature.their_hand))}{tables_flag(self.store.root)}`")
        value = self.probe(state)
        assert value is not None  # covered, and its tables are built
        ranked = sorted(self.move_values(state), key=lambda item: -item[1])
        moves = [{"move": action_name(state, a), "value": v, "loss": value - v} for a, v in ranked]
        return {"position": format_position(state), "signature": signature.name,
                "mover": PLAYER_LETTERS[state.mover], "value": value, "moves": moves}

    @staticmethod
    def describe_answer(answer) -> str:
        mover = answer["mover"].upper()
        lines = [f"{answer['position']}   table {answer['signature']}",
                 f"{mover} to move; exact probability of winning the round, for {mover}: {answer['value']:.12f}"]
        for rank, move in enumerate(answer["moves"], 1):
            loss = format_loss(move["loss"], rank, digits=6)  # how much worse: never negative, as in `best`
            lines.append(f"{rank:>3}  {move['move']:<12} {move['value']:.12f}  {loss}")
        return "\n".join(lines)

    def stored(self) -> list[StoredSet]:
        """What is stored, per Ace variant, as figures (``tablebase stats --json``)."""
        found = []
        for ace in ACE_VARIANTS:
            base = Tablebase(self.store, ace)
            if base.packs.shards(base.game_name):
                found.append(StoredSet(base.game_name, str(base.packs.folder(base.game_name)),
                                       base.packs.stats(base.game_name)))
        return found

    def stats(self) -> list[str]:
        """What is stored, per Ace variant (``tablebase stats``): reads the packs' directories only."""
        lines = [f"Tables in {self.store.root}"]
        found = False
        for ace in ACE_VARIANTS:
            base = Tablebase(self.store, ace)
            old = base.packs.legacy_tables(base.game_name)
            if old:
                found = True
                lines.append(f"  {base.game_name}: {base._legacy_line(old)}")
                continue
            if not base.packs.shards(base.game_name):
                continue
            found = True
            figures = base.packs.stats(base.game_name)
            builds = base.packs.builds(base.game_name)
            seconds = sum(b["seconds"] for b in builds if isinstance(b.get("seconds"), (int, float)))
            # Only a build that ran to its end records itself: one stopped and resumed says so.
            wall = (f"{seconds:.1f} s by {len(builds)} finished build{'s' * (len(builds) != 1)}, stopped ones not "
                    f"counted (" if builds else "builds stopped before their end (")
            counts = "".join(
                f"{figures.statistics.get(key, 0):,} {label} "
                f"({figures.statistics.get(key, 0) / figures.positions if figures.positions else 0.0:.1%}), "
                for key, label in STATISTICS.items()
            )
            lines.append(
                f"  {base.game_name}: {figures.tables:,} tables, {figures.positions:,} positions, {counts}"
                f"built in {wall}{figures.build_time:.1f} s of solving summed over batches), "
                f"{figures.bytes / 2**20:.1f} MiB on disk"
            )
            lines += [f"  corrupt: {path}: {problem}" for path, problem in figures.corrupt]
            if not figures.corrupt:
                lines.append(base._endless_line(figures))
        if not found:
            lines.append(f"  none yet: `dicetree tablebase build rolldown --dice 2{tables_flag(self.store.root)}`")
        return lines


    @staticmethod
    def _endless_line(figures) -> str:
        """What the packs' metadata say of endless play (scored as a draw, :mod:`.endless`)."""
        settled, draws = figures.counts.get("endless"), figures.counts.get("draws")
        settled_total, looping = (settled.total, settled.nonzero) if settled else (0, 0)
        line = (f"    endless play (a draw): {settled_total:,} positions settled in "
                f"{looping:,} pack{'s' * (looping != 1)}, {draws.total if draws else 0:,} left worth a draw")
        unchecked = figures.files - (settled.files if settled else 0)
        if unchecked:
            line += f"; {unchecked:,} pack{'s' * (unchecked != 1)} built before it was checked (the next build settles them)"
        return line


class TableOracle:
    """The stored tables of ``base`` as a search's oracle: player 0's exact value of a position with at
    most ``most_dice`` dice a side that a stored table holds, else None (:meth:`Tablebase.oracle`).

    RolldownBeta's compiled search reads the same tables itself (:mod:`.compiled_tables`) where its
    searcher probes one of these. ``reachable`` counts the probes of positions within ``most_dice``
    (those a table could hold), whichever search made them.

    >>> import tempfile
    >>> from dicetree.solver.games.rolldown import Rolldown
    >>> base = Tablebase(TableStore(tempfile.mkdtemp()))
    >>> _ = base.build(max_dice=1)
    >>> oracle = base.oracle()
    >>> round(oracle(Rolldown().parse("d8:2/d6:5 a -/-")), 6), oracle.most_dice, oracle.reachable
    (0.24, 1, 1)
    """

    def __init__(self, base: Tablebase, most_dice: int):
        self.base = base
        self.most_dice = most_dice
        self.reachable = 0

    def __call__(self, state: RolldownState) -> float | None:
        if state.pairs_left() > self.most_dice:  # cheaper than a signature for a sure miss
            self.base.probes += 1
            return None
        self.reachable += 1
        value = self.base.probe(state)
        return None if value is None else ROUND_POV.view(value, seen_by=state.mover, player=0)


class StoredTables(Mapping):
    """A :class:`Tablebase`'s stored tables as ``{Signature: array}``, each read when first asked
    (what :func:`~dicetree.solver.games.rolldown.tables.move_values` and the builder read)."""

    def __init__(self, base: Tablebase):
        self.base = base
        self.ace = base.ace

    def __getitem__(self, signature: Signature) -> np.ndarray | FixedPointTable:
        table = self.base.table(signature)
        if table is None:
            raise KeyError(f"no table for {signature.name}")
        return table

    def __contains__(self, signature) -> bool:
        return isinstance(signature, Signature) and self.base.has(signature)

    def __iter__(self) -> Iterator[Signature]:
        raise TypeError("stored tables are looked up by signature, not listed")

    def __len__(self) -> int:
        raise TypeError("stored tables are looked up by signature, not counted")


# ----- building on dask.distributed ---------------------------------------------------------------
_worker_bases: dict[tuple[str, str], Tablebase] = {}
_worker_lock = threading.Lock()


def solve_and_store_task(root: str, ace: str, batch: Batch, *after: BatchStats) -> BatchStats:
    """A dask task: solve ``batch`` from the tables under ``root`` and store it there (``after``:
    the batches it reads, only waited for). Each worker process keeps one :class:`Tablebase` a folder."""
    with _worker_lock:
        base = _worker_bases.get((root, ace))
        if base is None:
            base = _worker_bases[(root, ace)] = Tablebase(TableStore(root), ace)
    return base.solve_and_store(batch)


def _run_on_dask(base: Tablebase, plan: list[list[Batch]], stats: BuildStats, progress: ProgressFn | None,
                 workers: int | None, scheduler: str | None) -> None:
    """Run ``plan`` as a task graph: one task a batch, depending on the batches that make its inputs."""
    from distributed import as_completed

    started = time.perf_counter()
    with Workers(workers=workers, scheduler=scheduler).client() as client:
        made_by: dict[Signature, object] = {}
        futures = []
        root = str(base.store.root.resolve())
        for level in plan:
            for batch in level:
                after = {id(f): f for f in (made_by.get(sig) for sig in batch.dependencies()) if f is not None}
                future = client.submit(solve_and_store_task, root, base.ace, batch, *after.values(),
                                       key=f"rolldown-{base.ace}-{batch.name}", retries=1)
                made_by.update((sig, future) for sig in batch.signatures())
                futures.append(future)
        total = sum(b.positions for level in plan for b in level)
        done = 0
        for future in as_completed(futures):
            try:
                batch_stats = future.result()
            except KeyError as error:  # a worker did not find a table another one stored
                raise GameError(f"a cluster worker misses a table ({error.args[0]}): do all workers see the table "
                                f"folder {root}?") from None
            stats.batches.append(batch_stats)
            done += batch_stats.positions
            if progress is not None:
                progress(done, total, batch_stats)
        stats.positions += total
    stats.seconds += time.perf_counter() - started
