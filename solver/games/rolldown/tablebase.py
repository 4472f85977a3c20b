"""RolldownBeta endgame tables on disk: build, store, probe — what ``dicetree tablebase`` and
``best --exact`` use, and the oracle the search probes at every node the tables cover.

Tables come from :mod:`solver.games.rolldown.tables` (the vectorized builder) and live in a
:class:`cache.store.TableStore`, one file per signature, under the game name
``rolldown-<ace variant>`` (kept apart to be safe, though the builder finds the two variants give
equal values: the printed Ace's extra plays never beat the online ones; only the move lists differ).
Each table's metadata carries its statistics (:data:`STATISTICS`: the positions the mover wins
with a chance above 1/2), which ``tablebase stats`` sums; tables stored before the statistics were
the game's kept that count as the store's own ``above_half`` and are read the same.

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
from solver.games.rolldown.cards import UNKNOWN
from solver.games.rolldown.notation import action_name, format_position
from solver.games.rolldown.rules import RolldownRules
from solver.games.rolldown.state import ACE_VARIANTS, DECIDE, PLAYER_LETTERS, ROUND_POV, Action, RolldownState
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
from solver.limits import SearchStats
from solver.providers import Progress
from solver.ranking import rank_moves
from solver.rule_options import RuleOption
from solver.search import SearchResult

#: Builds on demand (``best --exact``) are refused beyond this many positions (about 4 GiB).
ON_DEMAND_LIMIT = 500_000_000
#: ``within_reach`` looks at positions with at most this many dice pairs and hand cards together.
REACH_PIECES = 8
#: The statistics each stored table carries (``metadata["statistics"]``), with their labels.
STATISTICS = {"above_half": "wins for the mover above 1/2"}


def table_statistics(values: np.ndarray) -> dict[str, int]:
    """The named counts of one table, stored with it (see :data:`STATISTICS`)."""
    return {"above_half": int(np.count_nonzero(values > 0.5))}


def stored_statistics(metadata: dict) -> dict[str, int]:
    """A stored table's statistics; a table from before they were the game's has its
    ``above_half`` at the top of its metadata, where the store used to count it."""
    if "statistics" in metadata:
        return metadata["statistics"]
    legacy = metadata.get("above_half")
    return {"above_half": legacy} if isinstance(legacy, int) and not isinstance(legacy, bool) else {}


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

    def oracle(self) -> Callable[[RolldownState], float | None] | None:
        """A probe from player 0's view, for :class:`solver.search.Searcher`'s ``oracle`` (``None``
        while no table is stored: nothing to probe)."""

        stored = [Signature.parse(meta["signature"]).dice for meta in self.store.list(self.game_name)]
        if not stored:
            return None
        most_dice = max(stored)

        def value_for_a(state: RolldownState) -> float | None:
            if state.pairs_left() > most_dice:  # cheaper than a signature for a sure miss
                self.probes += 1
                return None
            value = self.probe(state)
            return None if value is None else ROUND_POV.view(value, seen_by=state.mover, player=0)

        return value_for_a

    def move_values(self, state: RolldownState) -> list[tuple[Action, float]]:
        """Every legal move with its exact value for the mover (tables of the position's closure
        must be built: :meth:`ensure`)."""
        return move_values(self.closure_tables(Signature.of_state(state)), state, self.ace)

    def exact_result(self, state: RolldownState, limit: int = ON_DEMAND_LIMIT, progress=None) -> SearchResult:
        """Every move's exact value at ``state`` as a search result (building small missing
        tables first), for :func:`solver.analysis.analyse`'s ``exact``."""
        started = time.perf_counter()
        built = self.ensure(state, limit=limit, progress=progress)
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
                    "options": {"ace": self.ace}, "statistics": table_statistics(array),
                })
                self._loaded[signature] = array
        return tables

    # ----- the command line's provider interface (:class:`solver.providers.ExactValues`) ---------------
    build_parameters = (
        RuleOption("dice", "int", None, "at most this many dice a side", low=1, high=6),
        RuleOption("cards", "int", 0, "at most this many cards in each hand", low=0, high=3),
        RuleOption("max_positions", "int", 2_000_000_000, "refuse builds larger than this (the estimate is printed)",
                   low=1),
    )

    def build_from(self, values, progress: Progress | None = None) -> list[str]:
        """``dicetree tablebase build rolldown``: every table up to ``dice`` dice a side and ``cards`` a hand."""
        dice, cards = values.get("dice"), int(values.get("cards") or 0)
        if dice is None:
            raise GameError("a RolldownBeta table build needs --dice N (at most N dice a side)")
        estimate = estimate_build(int(dice), cards)
        limit = int(values.get("max_positions") or 2_000_000_000)
        if estimate.positions > limit:
            raise GameError(f"that build is {estimate}: more than --max-positions {limit:,}")
        lines = [f"Building {estimate} into {self.store.root}"]
        report = None
        if progress is not None:
            def report(done: int, total: int, batch) -> None:
                progress(done, total, f"{batch.signatures[0]:<16}")
        stats = self.build(max_dice=int(dice), max_cards=cards, progress=report).stats
        lines.append(f"Solved {stats.positions:,} new positions in {stats.seconds:.1f} s; largest residual "
                     f"{stats.max_residual:.1e} ({'converged' if stats.converged else 'NOT converged'})")
        return lines

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
                            f"{max(len(signature.my_hand), len(signature.their_hand))}`")
        value = self.probe(state)
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
            loss = "" if rank == 1 else f"{move['loss']:.6f}"  # how much worse: never negative, as in `best`
            lines.append(f"{rank:>3}  {move['move']:<12} {move['value']:.12f}  {loss}")
        return "\n".join(lines)

    def stats(self) -> list[str]:
        """What is stored, per Ace variant (``tablebase stats``)."""
        names = sorted({meta["game"] for meta in self.store.list()} & {f"rolldown-{a}" for a in ACE_VARIANTS})
        lines = [f"Tables in {self.store.root}"]
        if not names:
            lines.append("  none yet: `dicetree tablebase build rolldown --dice 2`")
        for name in names:
            figures = self.store.stats(name, statistics=stored_statistics)
            counts = "".join(
                f"{figures.statistics.get(key, 0):,} {label} "
                f"({figures.statistics.get(key, 0) / figures.positions if figures.positions else 0.0:.1%}), "
                for key, label in STATISTICS.items()
            )
            lines.append(
                f"  {name}: {figures.tables:,} tables, {figures.positions:,} positions, {counts}"
                f"built in {figures.build_time:.1f} s, {figures.bytes / 2**20:.1f} MiB on disk"
            )
            lines += [f"  corrupt: {path}: {problem}" for path, problem in figures.corrupt]
        return lines
