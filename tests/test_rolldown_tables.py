"""RolldownBeta endgame tables (``solver/games/rolldown/tables.py``).

Checked three independent ways: values worked out by hand (one die each, no cards), the rules
themselves one move deep (every legal move applied with ``Rolldown.apply``, its chance outcomes
listed, the Queen's second die chosen after the first roll, then the tables probed), and the
generic exact solver (``dicetree.solver.exact.solve``) on a few hundred positions of small builds.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import numpy as np
import pytest

from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.cards import ACE, DIE_SIDES, JOKER, KING, QUEEN
from dicetree.solver.games.rolldown.state import DECIDE, JOKER_PLAY, QUEEN_SECOND, ROUND_OVER, RolldownState
from dicetree.solver.games.rolldown.tables import (
    Signature,
    all_signatures,
    build_tables,
    estimate_build,
    move_values,
    probe,
    required_signatures,
)


@pytest.fixture(scope="module")
def one_die():
    return build_tables(1)


# ----- by hand -------------------------------------------------------------------------------------
def test_one_d4_each_by_hand(one_die):
    # V(a, b): the mover's d4 shows a, the opponent's d4 shows b. With a >= b the mover takes the
    # last pair: V = 1. With a < b the mover must reroll a die: their own (a' uniform on 1..4, then
    # the opponent moves at (b, a'): it captures when b >= a', else it is worth V(b, a') to it) or
    # the opponent's (b' uniform, then the opponent moves at (b', a)).
    #   V(1,4) = 0                                   every a' <= 4 and every b' >= 1 lets it capture
    #   V(2,4) = max(0, (1 - V(1,2)) / 4)            theirs: only b' = 1 < 2 helps
    #   V(3,4) = max(0, (2 - V(1,3) - V(2,3)) / 4)   theirs: b' = 1 or 2
    #   V(1,3) = max((1 - V(3,4)) / 4, 0)            own: only a' = 4 > 3 helps
    #   V(2,3) = max((1 - V(3,4)) / 4, (1 - V(1,2)) / 4)
    #   V(1,2) = max((2 - V(2,3) - V(2,4)) / 4, 0)   own: a' = 3 or 4
    # Solution: V(1,2) = V(3,4) = 3/7, V(1,3) = V(2,3) = V(2,4) = 1/7 (both rerolls tie at (2,3)).
    F = Fraction
    v = {(1, 2): F(3, 7), (3, 4): F(3, 7), (1, 3): F(1, 7), (2, 3): F(1, 7), (2, 4): F(1, 7), (1, 4): F(0)}
    assert v[2, 4] == max(0, (1 - v[1, 2]) / 4)
    assert v[3, 4] == max(0, (2 - v[1, 3] - v[2, 3]) / 4)
    assert v[1, 3] == max((1 - v[3, 4]) / 4, 0)
    assert v[2, 3] == max((1 - v[3, 4]) / 4, (1 - v[1, 2]) / 4)
    assert v[1, 2] == max((2 - v[2, 3] - v[2, 4]) / 4, 0)
    table = one_die[Signature((4,), (4,))]
    for a in range(1, 5):
        for b in range(1, 5):
            expected = 1.0 if a >= b else float(v[a, b])
            assert abs(table[a - 1, b - 1] - expected) < 1e-12, (a, b)


def test_one_die_tables_capture_the_last_pair(one_die):
    assert len(one_die) == 36
    for sig, table in one_die.items():
        faces_a = np.arange(1, sig.mine[0] + 1)[:, None]
        faces_b = np.arange(1, sig.theirs[0] + 1)[None, :]
        assert np.all(table[faces_a >= faces_b] == 1.0)
        assert np.all((table >= 0) & (table <= 1))
    assert one_die.stats.converged and one_die.stats.max_residual < 1e-12


# ----- the rules one move deep --------------------------------------------------------------------
def _value_after(game: Rolldown, tables, state, me: int) -> float:
    """Value for ``me`` of any state inside a turn, through the rules and the tables."""
    if state.phase == ROUND_OVER:
        return 1.0 if state.round_winner == me else 0.0
    if state.phase == DECIDE:
        value = probe(tables, state)
        return value if state.mover == me else 1.0 - value
    if state.phase == QUEEN_SECOND:  # the same player picks the second die after the first roll
        return max(_value_after(game, tables, game.apply(state, a), me) for a in game.legal_actions(state))
    return sum(p * _value_after(game, tables, game.apply(state, o), me) for o, p in game.chance_outcomes(state))


def _random_state(rng: random.Random, sig: Signature, mover: int) -> object:
    rows = [[0] * 6, [0] * 6]
    for side, dice in ((mover, sig.mine), (1 - mover, sig.theirs)):
        for sides in dice:
            rows[side][DIE_SIDES.index(sides)] = rng.randint(1, sides)
    hands = [(), ()]
    hands[mover], hands[1 - mover] = sig.my_hand, sig.their_hand
    return RolldownState(dice=(tuple(rows[0]), tuple(rows[1])), mover=mover, hands=tuple(hands))


@pytest.mark.parametrize("ace", ["online", "printed"])
def test_every_move_value_is_the_rules_one_move_deep(ace):
    game = Rolldown(ace=ace, exact_chance_limit=10**6)
    roots = [
        Signature((4, 6), (4, 8), (QUEEN,), (JOKER,)),
        Signature((6, 8), (4, 6), (ACE, KING), ()),
        Signature((4,), (20,), (QUEEN, ACE), (ACE,)),
        Signature((6, 10), (4, 12), (5, 11), (10,)),
    ]
    tables = build_tables(roots=roots, ace=ace)
    assert tables.stats.max_residual < 1e-12
    rng = random.Random(7)
    checked = 0
    for sig in sorted(tables, key=lambda s: s.name):
        if sig.positions > 2500 and sig not in roots:
            continue
        for _ in range(3):
            state = _random_state(rng, sig, rng.randrange(2))
            moves = move_values(tables, state)
            assert [a for a, _ in moves] == list(game.legal_actions(state))
            for action, value in moves:
                through_rules = _value_after(game, tables, game.apply(state, action), state.mover)
                assert abs(value - through_rules) < 1e-12, (sig.name, game.action_name(state, action))
            # the Bellman equation: the table holds the best move's value (up to the residual)
            assert abs(max(v for _, v in moves) - probe(tables, state)) < 1e-11
            checked += 1
    assert checked > 50


def test_the_queen_picks_the_second_die_after_the_first_roll():
    game = Rolldown()
    state = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    tables = build_tables(roots=[Signature.of_state(state)])
    values = {game.action_name(state, a): v for a, v in move_values(tables, state)}
    assert max(values, key=values.get) == "Q b.d6"
    assert values["Q b.d6"] > values["roll b.d6"] + 0.01  # two rerolls beat one
    # choosing the second die before the first roll (the same die for every outcome) is worse
    child = 1.0 - tables[Signature.of_state(state).card_child(QUEEN)].transpose(2, 3, 0, 1)
    index = (1, 4, 2, 5)  # a.d6=2, a.d8=5, b.d4=3, b.d6=6
    fixed_second = max(_double_mean(child, index, 3, second) for second in range(4))
    assert values["Q b.d6"] > fixed_second + 1e-6


def _double_mean(child: np.ndarray, index: tuple[int, ...], first: int, second: int) -> float:
    """Mean over rerolling ``first`` then ``second`` (a fixed choice) from ``index``."""
    total = 0.0
    for f in range(child.shape[first]):
        where = list(index)
        where[first] = f
        line = [slice(None) if k == second else where[k] for k in range(4)]
        total += child[tuple(line)].mean()
    return total / child.shape[first]


def test_the_joker_is_the_mean_of_the_whole_next_table():
    game = Rolldown()
    state = game.parse("d4:1,d6:3/d4:3,d8:2 a X/-")
    tables = build_tables(roots=[Signature.of_state(state)])
    joker = [v for a, v in move_values(tables, state) if a.kind == JOKER_PLAY]
    child = tables[Signature.of_state(state).card_child(JOKER)]
    assert len(joker) == 1 and abs(joker[0] - (1.0 - child.mean())) < 1e-15


def test_the_ace_variants():
    roots = [Signature((4, 6), (6, 8), (ACE,), ()), Signature((4, 6), (6, 8), (), (ACE,))]
    online = build_tables(roots=roots, ace="online")
    printed = build_tables(roots=roots, ace="printed")
    assert online.ace == "online" and printed.ace == "printed"
    assert set(online) == set(printed)
    for sig in online:
        # Values rise with the mover's faces and fall with the opponent's (a higher die of mine
        # leaves every capture open and closes some of theirs), so the printed Ace's extra plays
        # (my die to 1, theirs to its top) never beat the online ones: equal values.
        assert np.abs(printed[sig] - online[sig]).max() < 1e-12
        for axis in range(len(sig.shape)):
            steps = np.diff(online[sig], axis=axis)
            assert np.all(steps >= -1e-12) if axis < sig.dice else np.all(steps <= 1e-12)
    # online: the Ace takes the mover's own die to its top or the opponent's to 1, nothing else
    game = Rolldown()
    state = game.parse("d4:1,d6:3/d6:3,d8:2 a A/-")
    names = {game.action_name(state, a) for a, _ in move_values(online, state)}
    assert {"A+ a.d4", "A+ a.d6", "A- b.d6", "A- b.d8"} <= names
    assert not {"A- a.d4", "A+ b.d8"} & names
    printed_names = {game.action_name(state, a) for a, _ in move_values(printed, state)}
    assert {"A- a.d4", "A+ b.d8"} <= printed_names


# ----- the generic exact solver -------------------------------------------------------------------
EXACT_ROOTS = [
    ("online", "d4:2,d6:5/d4:1,d8:4 a -/-"),
    ("online", "d4:1,d6:3/d4:3,d8:2 a Q/X"),
    ("online", "d4:4,d8:3/d4:3,d6:6 b A/J"),
    ("printed", "d4:4,d8:3/d4:3,d6:6 b A/J"),
    ("online", "d6:2/d8:5 a QX/A"),
    ("online", "d6:2,d8:5/d4:3,d6:6 a 7K/-"),
]


@pytest.mark.parametrize("ace,position", EXACT_ROOTS)
def test_agrees_with_the_exact_solver(ace, position):
    exact = pytest.importorskip("dicetree.solver.exact")
    game = Rolldown(ace=ace)
    root = game.parse(position)
    solution = exact.solve(game, root)
    tables = build_tables(roots=[Signature.of_state(root)], ace=ace)
    states = [
        s for s in solution.graph.states if s.phase == DECIDE and not any(s.first_turn) and s.pairs_left()
    ]
    rng = random.Random(position)
    sample = rng.sample(states, min(60, len(states)))
    for state in sample:
        assert abs(probe(tables, state) - solution.value_for(state, state.mover)) < 1e-9, game.format(state)
    for state in sample[:10]:
        ours = {game.action_name(state, a): v for a, v in move_values(tables, state)}
        theirs = {m.name: m.value for m in solution.move_values(state)}
        assert ours.keys() == theirs.keys()
        assert all(abs(ours[name] - theirs[name]) < 1e-9 for name in ours)


# ----- signatures, probing, building ------------------------------------------------------------------
def test_signature_names_are_file_names_and_round_trip():
    game = Rolldown()
    sigs = all_signatures(2, 1)
    names = {sig.name for sig in sigs}
    assert len(names) == len(sigs)
    for sig in sigs[::97] + [Signature((4, 8), (6, 10), (QUEEN, KING), (5,))]:
        assert re.fullmatch(r"[A-Za-z0-9.-]+", sig.name)
        assert Signature.parse(sig.name) == sig
        assert sig.swap().swap() == sig
    assert Signature((4, 8), (6, 10), (QUEEN, KING), (5,)).name == "d4d8-d6d10.QK-5"
    assert Signature((12,), (20,), (), (JOKER,)).name == "d12-d20.-X"
    state = game.parse("d6:2,d8:5/d4:3,d6:6 b QK/7")
    assert Signature.of_state(state).name == "d4d6-d6d8.7-QK"
    assert Signature.parse("d8d4-d6d4.KQ-") == Signature((4, 8), (4, 6), (QUEEN, KING))
    for bad in ("d4-", "d4-d6d8", "d5-d6", "d4d4-d4d6", "d4-d6.QQQ-", "d4-d6.XX-", "d4-d6.Z-", "d4-d6.?-"):
        with pytest.raises(GameError):
            Signature.parse(bad)


def test_probe_refuses_positions_outside_the_tables(one_die):
    game = Rolldown()
    with pytest.raises(GameError, match="first turn"):
        probe(one_die, game.parse("d4:1,d6:2,d8:3,d10:4,d12:5,d20:6/d4:1,d6:2,d8:3,d10:4,d12:5,d20:6 a 234/567 ab"))
    with pytest.raises(GameError, match="not a chance"):
        probe(one_die, game.parse("d8:2/d6:5 a -/- - single 0-0 1 -/- a roll:a.d8"))
    with pytest.raises(GameError, match="both hands known"):
        probe(one_die, game.parse("d8:2/d6:5 a -/?"))
    with pytest.raises(KeyError, match="d8-d6.K-"):
        probe(one_die, game.parse("d8:2/d6:5 a K/-"))
    assert probe(one_die, game.parse("d8:2/d6:5 b -/-")) == 1.0  # b's d6 takes a's d8


def test_estimates_match_builds():
    built = build_tables(2, 0)
    estimate = estimate_build(2, 0)
    assert estimate.signatures == len(built) == 261
    assert estimate.positions == sum(t.size for t in built.values()) == built.stats.positions
    assert estimate.bytes == estimate.positions * 8 and estimate.peak_bytes > estimate.bytes
    assert estimate_build(3, 0).positions == 292_381_600  # 290,361,600 of them with 3 dice a side
    assert estimate_build(2, 1).positions == 454_500_000
    roots = [Signature((4, 6), (6, 8), (QUEEN,), (ACE,))]
    small = estimate_build(roots=roots)
    assert small.signatures == len(required_signatures(roots))
    assert "positions" in str(small)


def test_build_options_give_the_same_tables():
    roots = [Signature((6, 8), (4, 10), (QUEEN,), ())]
    reference = build_tables(roots=roots, workers=1)
    seen = []
    variants = [
        build_tables(roots=roots, workers=2, progress=lambda done, total, stats: seen.append((done, total))),
        build_tables(roots=roots, workers=1, float32=False, anderson=0),
    ]
    assert seen and seen[-1][0] == seen[-1][1] == reference.stats.positions
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    for tables in variants:
        assert tables.keys() == reference.keys()
        for sig in reference:
            assert np.abs(tables[sig] - reference[sig]).max() < 1e-11
    # existing tables are reused, not rebuilt; tables of the other Ace variant are refused
    again = build_tables(roots=roots + [Signature((4, 8), (6, 10))], tables=reference)
    assert all(again[sig] is reference[sig] for sig in reference)
    with pytest.raises(GameError):
        build_tables(roots=roots, tables=reference, ace="printed")


def test_blocks_smaller_than_a_table_give_the_same_tables(monkeypatch):
    # Big tables (three dice a side) are swept in blocks of a few leading axes, with the means
    # along those axes summed across blocks: force that path on small tables and compare.
    import dicetree.solver.games.rolldown.tables as module

    roots = [Signature((6, 8), (4, 10), (QUEEN,), (5,))]
    reference = build_tables(roots=roots, kernel="numpy")
    for block in (7, 50, 300):
        monkeypatch.setattr(module, "BLOCK_ELEMENTS", block)
        blocked = build_tables(roots=roots, kernel="numpy")
        assert max(np.abs(blocked[s] - reference[s]).max() for s in reference) < 1e-11


# ----- the fused kernel and the lean path ---------------------------------------------------------
def test_the_fused_sweep_is_numpys_to_rounding():
    # one update from the same inputs, on shapes with batches, uneven dice and the plane of the
    # last two axes: the same means (only the order of additions differs), the same table
    from dicetree.cache.packs import FIXED_SCALE, encode_fixed
    from dicetree.solver.games.rolldown.fused import FusedKernel
    from dicetree.solver.games.rolldown.tables import _Kernel

    rng = np.random.default_rng(3)
    for shape in [(1, 4, 6), (3, 8, 4, 6, 10), (2, 6, 4, 20, 8, 12, 4)]:
        for op in ("max", "min"):
            reference, fused = _Kernel(shape, np.float64, op), FusedKernel(shape, np.float64, op)
            const = rng.random(shape)
            inputs = rng.random(reference.length)
            want, got = np.empty(reference.length), np.empty(fused.length)
            table_want, table_got = np.empty(shape), np.empty(shape)
            reference.run(const, inputs, want, table_want)
            fused.run(const, inputs, got, table_got)
            assert np.array_equal(table_want, table_got) and np.abs(want - got).max() < 1e-15
            fixed = encode_fixed(const)  # fixed-point constants in, fixed-point table out
            table_fixed = np.empty(shape, np.uint32)
            fused.run(fixed, inputs, got, table_fixed)
            reference.run(fixed / FIXED_SCALE, inputs, want, table_want)
            assert np.abs(want - got).max() < 1e-15 and np.array_equal(table_fixed, encode_fixed(table_want))


def test_fused_and_lean_builds_agree_with_the_numpy_builder():
    roots = [Signature((6, 8), (4, 10), (QUEEN,), (5,)), Signature((4, 6, 8), (6, 10, 12))]
    reference = build_tables(roots=roots, workers=1, kernel="numpy")
    fused = build_tables(roots=roots, workers=2, kernel="fused")
    lean = build_tables(roots=roots, workers=2, kernel="fused", lean=True)
    assert reference.keys() == fused.keys() == lean.keys()
    assert fused.stats.converged and lean.stats.converged
    # both converge to 1e-12 a sweep: each is within about 1.6e-12 of the fixed point
    assert max(np.abs(fused[sig] - reference[sig]).max() for sig in reference) < 5e-12
    # the lean path's constants and tables are 32-bit fixed point (steps of 2.3e-10)
    assert max(np.abs(np.asarray(lean[sig]) - reference[sig]).max() for sig in reference) < 5e-10
    state = Rolldown().parse("d4:2,d6:5,d8:1/d6:3,d10:9,d12:4 a -/-")
    assert abs(probe(lean, state) - probe(reference, state)) < 5e-10


def test_the_largest_four_dice_batches_fit_the_memory_budget():
    from dicetree.solver.games.rolldown.tables import MEMORY_BUDGET, memory_plan, plan_batches

    plans = [memory_plan(batch) for level in plan_batches(all_signatures(4)) for batch in level]
    assert max(plan.bytes for plan in plans) <= MEMORY_BUDGET < 12 * 2**30
    assert any(plan.lean for plan in plans) and not memory_plan(plan_batches(all_signatures(3))[-1][0]).lean


def test_endless_rerolls_are_scored_as_a_draw_and_so_broken_by_the_player_a_draw_does_not_suit():
    """With d6:5 d20:7 against d10:6 d12:6 d20:6, A's d4 can capture nothing and be captured by
    anything: A rerolls it (every other move is worse) and B could reroll it back for ever. Before
    endless play was scored, the tables stopped anywhere in the interval of solutions that loop
    leaves (the numpy and fused kernels 1.8e-7 apart); scored as a draw, the loop is worth 1/2 to B,
    less than B's best capture, so B captures and A's value is one minus that capture's."""
    game = Rolldown()
    tables = build_tables(roots=[Signature((4, 6, 20), (10, 12, 20))], workers=1, kernel="numpy")
    batch = next(b for b in tables.stats.batches if b.signatures[0] == "d4d6d20-d10d12d20")
    assert batch.endless == 8 and batch.draws == 0 and batch.converged
    values = {face: probe(tables, game.parse(f"d4:{face},d6:5,d20:7/d10:6,d12:6,d20:6 a -/-")) for face in range(1, 5)}
    assert max(values.values()) - min(values.values()) < 1e-12  # the d4's face changes nothing
    after = game.parse("d4:1,d6:5,d20:7/d10:6,d12:6,d20:6 b -/-")  # A has rerolled the d4: B to move
    captures = [v for a, v in move_values(tables, after) if "x" in game.action_name(after, a)]
    assert abs(values[1] - (1 - max(captures))) < 1e-12
    assert abs(values[1] - 0.1238172655) < 1e-9


def test_loops_left_by_the_same_reroll_settle_together_and_match_strategy_iteration(monkeypatch):
    """Issue 15. With d4 d20:7 against d10:5 d12:5 and B holding a 6, A rerolls the d4 (a pass) and
    B, ahead, rerolls it back; B leaves that loop, and the one with d20:8, by rerolling A's d20 when
    the d4 shows 1: one way out for both, which reads both loops' values. Value iteration had left the
    d20:8 loop 2.3e-6 above it; rescored from the draw alone, it came back below the d20:7 loop,
    which was then left above its own way out, and so on: the rounds took turns between the two and
    did not settle in 8. Every loop found so far now starts again from the draw, so both come up
    to their way out together; the values are strategy iteration's (no table read), on both paths."""
    import importlib
    import warnings
    from pathlib import Path

    from dicetree.solver.games.rolldown.tables import Batch, solve_batch

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "research"))
    exact_tables = importlib.import_module("rolldown_endless_settle").exact_tables  # strategy iteration, no table

    batch = Batch((4, 20), (10, 12), (((), (6,)),))
    sig = batch.a_sig(0)
    children = build_tables(roots=list(batch.dependencies()), workers=1, kernel="numpy")
    mine, theirs = exact_tables(sig)
    for lean in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # "endless play not settled" would fail here
            solved, stats = solve_batch(batch, children, kernel="numpy" if not lean else "auto", lean=lean)
        assert stats.endless and stats.draws == 0 and stats.converged
        tolerance = 5e-10 if lean else 2e-11  # fixed point's step 2.3e-10; 1e-12 a sweep, slowly contracting
        assert np.abs(np.asarray(solved[sig]) - mine).max() < tolerance
        assert np.abs(np.asarray(solved[sig.swap()]) - theirs).max() < tolerance
    # A's value in both loops: B leaves them by the same reroll, so they are worth the same
    assert abs(mine[0, 6, 4, 4] - 0.2190790863191) < 1e-12 and abs(mine[3, 7, 4, 4] - mine[0, 6, 4, 4]) < 1e-12
