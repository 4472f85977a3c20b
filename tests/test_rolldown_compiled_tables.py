"""Endgame tables probed by RolldownBeta's compiled search (issue 24): with the same stored tables, the
compiled and the Python search give the same best moves, values (1e-12), exactness, principal lines,
node counts and table probes and hits, on seeded random positions with and without cards; tables stored
as float64 by older builds are read too; an oracle compiled code cannot read keeps the Python search.

Tables are built into a temporary folder (2 dice a side, and the card tables of two positions: seconds).
"""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest
from test_rolldown_compiled import agree, random_position

from dicetree.cache.packs import PackStore
from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import Rolldown, compiled_search
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature
from dicetree.solver.search import Searcher

WITH_CARDS = ("d6:2,d8:5/d4:3,d6:6 a QK/-", "d4:1,d10:5/d8:3,d20:6 b 7J/A")
JOKER = 14


@pytest.fixture(scope="module")
def tablebase(tmp_path_factory) -> Tablebase:
    base = Tablebase(TableStore(tmp_path_factory.mktemp("tables")))
    base.build(max_dice=2)
    base.build(roots=[Signature.of_state(Rolldown().parse(position)) for position in WITH_CARDS])
    return base


@pytest.mark.parametrize("ace", ["online", "printed"])
def test_searches_with_tables_agree(tablebase, ace):
    game = Rolldown(ace=ace)
    base = Tablebase(tablebase.store, ace)
    if ace == "printed":  # the printed Ace's tables: the 1- and 2-dice ones without cards
        base.build(max_dice=2)
    rng = random.Random(f"tables {ace}")
    hits = probes = equal_counts = 0
    positions = [game.parse(text) for text in WITH_CARDS] if ace == "online" else []
    for trial in range(12):
        dice = (2, 3)[trial % 2]
        state = random_position(rng, game, dice=dice, cards=trial % 3 == 0, first_turns=trial % 4 == 3)
        # no Joker: one on 4 dice or more is sampled, each search with its own generator (test_rolldown_compiled)
        positions.append(state._replace(hands=tuple(tuple(c for c in hand if c != JOKER) for hand in state.hands)))
    for state in positions:
        depth = 3 if state.pairs_left() <= 2 else 2
        oracle = base.oracle()
        compiled_nodes, python_nodes = agree(game, state, depth, oracle=oracle)
        equal_counts += compiled_nodes == python_nodes
        result = Searcher(game, compiled=True, cache_slots=2**18, oracle=oracle).search(state, depth=depth)
        hits, probes = hits + result.stats.table_hits, probes + result.stats.table_probes
    assert equal_counts >= 3 and 0 < hits < probes  # unequal counts only where a table collided (agree)


def test_principal_lines_and_exactness_with_tables(tablebase):
    game = Rolldown()
    state = game.parse(WITH_CARDS[0])
    python = Searcher(game, compiled=False, oracle=tablebase.oracle()).search(state, depth=5, lines=True)
    compiled = Searcher(game, compiled=True, oracle=tablebase.oracle()).search(state, depth=5, lines=True)
    assert compiled.pv == python.pv and compiled.lines == python.lines
    assert compiled.exact == python.exact and compiled.method == python.method
    assert compiled.stats.table_hits == python.stats.table_hits > 0


def test_reachable_probes_are_counted_alike(tablebase):
    # rolldown_tables_effect's oracle: tables of fewer dice than the position, probes within them counted
    from dicetree.solver.games.rolldown.tablebase import TableOracle

    game = Rolldown()
    state = game.parse("d4:1,d6:2,d8:5/d4:3,d6:6,d8:2 a -/-")
    searchers = [Searcher(game, compiled=compiled, cache_slots=2**18, oracle=TableOracle(tablebase, 2))
                 for compiled in (False, True)]
    python, compiled = (searcher.search(state, depth=2) for searcher in searchers)
    assert compiled.value == pytest.approx(python.value, abs=1e-12)
    counts = [(s.oracle.reachable, r.stats.table_hits, r.stats.table_probes) for s, r in zip(searchers, (python, compiled))]
    for reachable, hits, probes in counts:
        assert probes > reachable >= hits > 0
    # Equal where the Python table kept every entry. Which of its keys share a slot changes from process to
    # process (a state's hash mixes its strings' and None's, which vary by process), and a collision changes
    # its node and probe counts (by 3% at depth 3: one process in two failed a 1% tolerance); the compiled
    # table's slots do not vary (its own hash of the packed words), so neither do its counts.
    if not searchers[0].cache.overwrites + searchers[0].cache.rejected:
        assert counts[1] == counts[0] and compiled.stats.nodes == python.stats.nodes


def test_memory_a_finished_searcher_leaves_is_as_good_as_new(tablebase):
    # A finished compiled searcher's memory (transposition table, remembered evaluations) is handed to the
    # next searcher of its size (compiled_search's pool). A search with another evaluation fills it with the
    # same positions at other values; a search on that memory must count the same nodes and table probes
    # and find the same values and line as on new memory: what the earlier owner stored never counts.
    state = Rolldown().parse("d4:1,d6:2,d8:5/d4:3,d6:6,d8:2 a -/-")  # the 2-dice tables from depth 2 on

    def search(game: Rolldown) -> tuple[np.ndarray, tuple]:
        searcher = Searcher(game, compiled=True, cache_slots=2**12, oracle=tablebase.oracle())
        result = searcher.search(state, depth=3, lines=True)
        seen = (result.stats.nodes, result.stats.table_probes, result.stats.table_hits, result.pv,
                [(move.name, move.value) for move in result.moves])
        return searcher._compiled.arrays.table, seen

    compiled_search._spare.clear()
    new_memory, expected = search(Rolldown())
    compiled_search._spare.clear()
    used_memory, other = search(Rolldown(evaluation="heuristic"))
    gc.collect()  # a searcher gives its memory back when it is collected
    reused_memory, found = search(Rolldown())
    assert reused_memory is used_memory is not new_memory
    assert other[4] != expected[4]  # the earlier owner's values differ: had they leaked, so would these
    assert found == expected


def test_tables_stored_as_float64_are_read_too(tablebase, tmp_path):
    # What builds before fixed point stored (pack format 2 values): the same tables decoded, in a new folder.
    game = Rolldown()
    state = game.parse("d6:2,d8:5/d4:3,d6:6 b -/-")
    packs = PackStore(tmp_path)
    for signature in Signature.of_state(state), Signature.of_state(state).swap():
        packs.save(tablebase.game_name, signature.shard, signature.name,
                   {signature.name: np.asarray(tablebase.table(signature), dtype=np.float64)})
    float_base = Tablebase(TableStore(tmp_path))
    assert not hasattr(float_base.table(Signature.of_state(state)), "raw")  # plain float64 values
    agree(game, state, 3, oracle=float_base.oracle())


def test_an_oracle_compiled_code_cannot_read_keeps_the_python_search(tablebase):
    game = Rolldown()
    state = game.parse(WITH_CARDS[0])
    assert Searcher(game, compiled=True, oracle=tablebase.oracle()).compiled_for(state) is not None
    searcher = Searcher(game, compiled=True, oracle=lambda position: None)
    assert searcher.compiled_for(state) is None
    assert "cannot read" in searcher._compiled.declines(state, searcher.oracle)
