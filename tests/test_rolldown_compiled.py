"""RolldownBeta's compiled search against the Python one (issue 24): the packed rules, the compiled
evaluations and the search agree on seeded random positions; sampled Jokers, which cannot agree
exactly, are tested for what must hold; the hook, the fallback and the time limit.

numba's cache is a temporary folder (tests/conftest.py); the first run compiles (about a minute).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicetree.solver.analysis import analyse
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown import network_kernel as kernel
from dicetree.solver.games.rolldown.compiled_evaluation import evaluate, leaves_of
from dicetree.solver.games.rolldown.compiled_rules import (
    MAX_ACTIONS,
    apply_decision,
    apply_joker_index,
    apply_roll,
    cache_key,
    legal_actions,
    outcome_count,
)
from dicetree.solver.games.rolldown.compiled_search import CompiledSearch
from dicetree.solver.games.rolldown.packed import action_code, decode_action, pack, unpack
from dicetree.solver.games.rolldown.state import (
    DECIDE,
    JOKER_ROLL,
    QUEEN_SECOND,
    ROUND_OVER,
    RolldownState,
)
from dicetree.solver.search import Searcher

JOKER, QUEEN = 14, 12


def random_position(rng: random.Random, game: Rolldown, *, dice: int, cards: bool, mode: str = "single",
                    first_turns: bool = False) -> RolldownState:
    """A decision position with ``dice`` dice a side (random faces), random hands or none."""
    slots = [sorted(rng.sample(range(6), dice)) for _ in (0, 1)]
    faces = tuple(tuple(rng.randint(1, sides) if slot in slots[side] else 0
                        for slot, sides in enumerate((4, 6, 8, 10, 12, 20))) for side in (0, 1))
    deck = [rank for rank in range(1, 14) for _ in range(2)] + [JOKER]
    hands = tuple(tuple(sorted(rng.sample(deck, rng.randint(0, 3)))) if cards else () for _ in (0, 1))
    first = (rng.random() < 0.5, rng.random() < 0.5) if first_turns else (False, False)
    scores, round_number = (0, 0), 1
    if mode != "single":
        scores, round_number = (rng.randrange(40), rng.randrange(40)), rng.randint(5, 8)
    return RolldownState(dice=faces, mover=rng.randrange(2), hands=hands, first_turn=first, mode=mode,
                         scores=scores, round=round_number)


def walk(rng: random.Random, game: Rolldown, state: RolldownState, steps: int) -> RolldownState:
    """Random moves and chance outcomes from ``state`` (stopping before the round ends)."""
    for _ in range(steps):
        if game.current_player(state) >= 0:
            child = game.apply(state, rng.choice(game.legal_actions(state)))
        else:
            child = game.apply(state, game.sample_chance(state, rng))
        if child.phase == ROUND_OVER:
            break
        state = child
    return state


@pytest.mark.parametrize("ace", ["online", "printed"])
def test_packed_rules_are_the_python_rules(ace):
    game = Rolldown(ace=ace)
    rng = random.Random(24)
    out = np.zeros(MAX_ACTIONS, dtype=np.int64)
    slots = np.zeros(12, dtype=np.int64)
    seen_phases = set()
    for _ in range(400):
        start = random_position(rng, game, dice=rng.randint(1, 6), cards=rng.random() < 0.7, first_turns=True)
        state = walk(rng, game, start, rng.randrange(4))
        words = pack(state)
        assert unpack(words, start) == state
        assert (cache_key(*words), words[1]) == pack(game.key(state))
        seen_phases.add(state.phase)
        if state.phase in (DECIDE, QUEEN_SECOND):
            actions = game.legal_actions(state)
            count = legal_actions(words[0], words[1], int(ace == "printed"), out)
            assert [decode_action(int(code)) for code in out[:count]] == actions
            for action in actions:
                assert decode_action(action_code(action)) == action
                child = game.apply(state, action)
                dice, cards, winner, points = apply_decision(*words, action_code(action))
                if child.phase == ROUND_OVER:
                    assert (winner, points) == (child.round_winner, child.round_points)
                else:
                    assert winner == -1 and unpack((dice, cards), start) == child
        else:
            count = outcome_count(*words, slots)
            assert count == game.chance_outcome_count(state)
            if count <= game.exact_chance_limit:
                for index, (outcome, _) in enumerate(game.chance_outcomes(state)):
                    if state.phase == JOKER_ROLL:
                        rolled = sum(1 for row in state.dice for face in row if face)
                        child = apply_joker_index(*words, slots, rolled, index)
                    else:
                        child = apply_roll(*words, index)
                    assert unpack(child, start) == game.apply(state, outcome)
    assert seen_phases >= {DECIDE, QUEEN_SECOND, 1, 2, JOKER_ROLL}


def random_network() -> tuple[np.ndarray, np.ndarray]:
    sizes = np.array([kernel.INPUT_LENGTH, 16, 8, 1], dtype=np.int64)
    return sizes, np.random.default_rng(25).normal(0.0, 0.3, kernel.parameter_count(sizes))


def network_game(objective: str = "round") -> Rolldown:
    """The Python game valued by the same network, through the kernel's pure-Python functions."""
    sizes, params = random_network()
    raw, scratch = [0] * kernel.RAW_LENGTH, np.zeros(2 * kernel.INPUT_LENGTH)

    def estimate(state, to_move):
        kernel.raw_position(state, to_move, raw)
        return kernel.network_estimate(raw, sizes, params, scratch)

    return Rolldown(objective=objective, estimate=estimate)


@pytest.mark.parametrize("objective", ["round", "points", "match"])
@pytest.mark.parametrize("evaluation", ["fitted", "heuristic", "network"])
def test_compiled_evaluations_equal_the_python_ones(objective, evaluation):
    network = random_network() if evaluation == "network" else None
    game = network_game(objective) if network else Rolldown(objective=objective, evaluation=evaluation)
    rng = random.Random(hash((objective, evaluation)) % 1000)
    raw = np.zeros(kernel.RAW_LENGTH, dtype=np.int64)
    for _ in range(300):
        mode = rng.choice(["single", "first50", "nine"])
        state = random_position(rng, game, dice=rng.randint(1, 6), cards=rng.random() < 0.7, mode=mode,
                                first_turns=True)
        state = walk(rng, game, state, rng.randrange(3))
        if state.phase not in (DECIDE, QUEEN_SECOND):
            continue
        leaves = leaves_of(game, state, network=network)
        assert abs(evaluate(*pack(state), leaves) - game.evaluate(state, 0)) <= 1e-12 * max(1.0, abs(game.evaluate(state, 0)))
        if network:  # the raw vector the compiled code fills is raw_position's
            mover = state.mover if state.phase == DECIDE else 1 - state.mover
            kernel.raw_position(state, mover, raw)
            assert np.array_equal(leaves.raw, raw)


def agree(game: Rolldown, state: RolldownState, depth: int, network=None, **options) -> tuple[int, int]:
    """Search ``state`` both ways with fresh searchers; the same best move (or a tie), every move's value
    within 1e-12; node counts (and endgame-table probes and hits, with an ``oracle`` among the options)
    equal where neither transposition table had a collision. Returns the node counts. With ``network``,
    the compiled search evaluates it (the Python game must too)."""
    python = Searcher(game, compiled=False, cache_slots=2**18, **options)
    compiled = Searcher(game, compiled=True, cache_slots=2**18, **options)
    if network is not None:  # what the network's rule option will hand over (issue 25)
        compiled._compiled = CompiledSearch(game, cache_slots=2**18, network=network, **options)
    assert compiled.compiled_for(state) is not None
    expected, found = python.search(state, depth=depth), compiled.search(state, depth=depth)
    values = {move.name: move.value for move in expected.moves}
    assert {move.name: move.value for move in found.moves}.keys() == values.keys()
    scale = max(1.0, max(abs(v) for v in values.values()))
    for move in found.moves:
        assert abs(move.value - values[move.name]) <= 1e-12 * scale, (game.format(state), move.name)
    assert found.best.name in {move.name for move in expected.moves if move.value >= expected.value - 1e-12 * scale}
    assert found.depth == expected.depth and found.exact == expected.exact
    collisions = python.cache.overwrites + python.cache.rejected + sum(compiled._compiled.table.counters()[k]
                                                                       for k in ("overwrites", "rejected"))
    if not collisions:
        assert found.stats.nodes == expected.stats.nodes
        assert (found.stats.table_probes, found.stats.table_hits) == (expected.stats.table_probes,
                                                                       expected.stats.table_hits)
    return found.stats.nodes, expected.stats.nodes


@pytest.mark.parametrize("ace", ["online", "printed"])
@pytest.mark.parametrize("objective", ["round", "points", "match"])
def test_the_compiled_search_agrees_with_the_python_search(ace, objective):
    game = Rolldown(ace=ace, objective=objective)
    rng = random.Random(f"{ace}{objective}")
    equal_counts = 0
    for trial in range(10):
        dice = 1 + trial % 6
        mode = "single" if objective != "match" else rng.choice(["first50", "nine"])
        state = random_position(rng, game, dice=dice, cards=trial % 2 == 0, mode=mode, first_turns=trial % 3 == 0)
        depth = 3 if dice <= 2 else 2 if dice <= 4 else 1
        compiled_nodes, python_nodes = agree(game, state, depth)
        equal_counts += compiled_nodes == python_nodes
    assert equal_counts >= 5  # collisions in a 2^18 table are rare at these sizes


def test_star1_without_history_and_the_heuristic_agree_too():
    game = Rolldown(evaluation="heuristic")
    rng = random.Random(3)
    for dice in (2, 3):
        state = random_position(rng, game, dice=dice, cards=True)
        agree(game, state, 2, star2=False, history=False)


def test_the_value_network_is_searched_alike():
    game = network_game()
    rng = random.Random(5)
    for dice in (2, 3, 6):  # no cards at 6 dice: a Joker there would be sampled (see the Joker's test)
        agree(game, random_position(rng, game, dice=dice, cards=dice < 6), 2 if dice < 6 else 1,
              network=random_network())


def test_the_rule_option_hands_the_shipped_network_to_the_compiled_search():
    game = Rolldown(evaluation="network")  # the shipped weights file, as `--rule evaluation=network` reads it
    rng = random.Random(7)
    for dice in (2, 4):
        agree(game, random_position(rng, game, dice=dice, cards=True), 2)
    assert Searcher(game, compiled=True).compiled_for(random_position(rng, game, dice=3, cards=False)).network is not None


def test_hidden_hands_averaged_agree():
    # Two dice a side, so that a Joker in a dealt hand has few enough outcomes to be listed (at three, its
    # outcomes are sampled, each search from its own generator: values would differ by the sampling error).
    game = Rolldown()
    state = game.observe(game.parse("d6:2,d8:5/d4:3,d6:6 a QK/7J"), 0)
    python = analyse(game, state, depth=2, searcher=Searcher(game, compiled=False))
    compiled = analyse(game, state, depth=2, searcher=Searcher(game, compiled=True))
    assert [m.name for m in compiled.moves] == [m.name for m in python.moves]
    for ours, theirs in zip(compiled.moves, python.moves):
        assert abs(ours.value - theirs.value) <= 1e-12
    assert compiled.stats.nodes == pytest.approx(python.stats.nodes, rel=0.05)


def test_a_listed_joker_agrees_and_a_sampled_one_keeps_what_must_hold():
    # Listed (576 outcomes, within exact_chance_limit), the Joker's every outcome is searched: the same values.
    state = Rolldown().parse("d4:1,d6:2/d4:3,d6:6 a X/-")
    agree(Rolldown(), state, 2)
    # Sampled (beyond exact_chance_limit), each search draws 64 outcomes with its own generator (Python
    # seeds random.Random with the position's text, which compiled code cannot), so values differ by the
    # sampling error. What must hold: the compiled sample is the same on every visit and in every search
    # (repeatable values), every move not leading to the Joker has the same value, the note says so.
    game = Rolldown(exact_chance_limit=100)
    python = Searcher(game, compiled=False).search(state, depth=2)
    first = Searcher(game, compiled=True).search(state, depth=2)
    again = Searcher(game, compiled=True).search(state, depth=2)
    assert [(m.name, m.value) for m in first.moves] == [(m.name, m.value) for m in again.moves]
    assert "compiled search's own generator" in first.method and first.stats.sampled_chance_nodes > 0
    values = {m.name: m.value for m in python.moves}
    for move in first.moves:
        tolerance = 0.1 if move.name == "X" else 1e-12
        assert abs(move.value - values[move.name]) <= tolerance, move.name


def test_the_python_search_is_kept_where_the_compiled_one_cannot_answer(monkeypatch):
    game = Rolldown()
    state = game.parse("d6:2,d8:5/d4:3,d6:6 a -/-")
    assert Searcher(game, compiled=True).compiled_for(state) is not None
    assert Searcher(game, compiled=False).compiled_for(state) is None
    assert Searcher(network_game()).compiled_for(state) is None  # an estimate the rules do not name
    assert Searcher(game, oracle=lambda s: None).compiled_for(state) is None  # values compiled code cannot read
    assert Searcher(game, use_cache=False).compiled_for(state) is None
    monkeypatch.setenv("DICETREE_SEARCH", "python")
    assert Searcher(game).compiled_for(state) is None
    monkeypatch.setenv("DICETREE_SEARCH", "")
    assert Searcher(game).compiled_for(state) is not None


def test_a_time_limit_keeps_the_last_completed_depth():
    game = Rolldown()
    state = game.parse(game.example_position())
    result = Searcher(game, compiled=True).search(state, time_limit=0.3)
    assert result.depth >= 1 and "time limit" in result.method
    assert result.stats.nodes > 0
