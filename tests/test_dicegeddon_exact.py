"""Exact values of small Dicegeddon battles (cyclic: defence can go on forever) with the exact
solver's certificate, and `dicetree best dicegeddon` through the existing Searcher."""

from __future__ import annotations

from fractions import Fraction

import pytest
import numpy as np
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.exact import solve
from dicetree.solver.games import load_game
from dicetree.solver.games.dicegeddon import CanonicalDicegeddon
from dicetree.solver.games.dicegeddon.armies import StudyConfig, legal_armies, run_army_study
from dicetree.solver.games.dicegeddon.rules import canonical
from dicetree.solver.games.dicegeddon.state import PLACE
from dicetree.solver.search import Searcher

GAME = load_game("dicegeddon")


@pytest.mark.parametrize(
    "position, states, value",
    [
        ("d4:3a/d4:3a a 20", 213, 0.512),
        ("d6:5a/d4:4a a 20", 317, 0.633188132),
        ("d4:3a,d6:5a/d6:6a a 20", 7051, 0.785640186),
    ],
)
def test_small_battles_are_solved_with_a_certificate(position, states, value):
    solution = solve(GAME, GAME.parse(position))
    assert solution.num_states == states
    assert solution.value(solution.root) == pytest.approx(value, abs=1e-9)
    assert solution.residual < 1e-12 and solution.certified
    assert solution.iterations.cyclic_components >= 1  # the battles really cycle


def test_d4_against_d4_is_64_over_125():
    solution = solve(GAME, GAME.parse("d4:3a/d4:3a a 20"))
    assert Fraction(solution.value(solution.root)).limit_denominator(1000) == Fraction(64, 125)


def test_symmetric_opening_is_even_and_variants_solve():
    solution = solve(GAME, GAME.parse("d4:?/d4:? - 20 setup"))
    assert solution.value(solution.root) == pytest.approx(0.5, abs=1e-12) and solution.certified
    for game in (load_game("dicegeddon", several_defenders=True), load_game("dicegeddon", mulligan=True)):
        solution = solve(game, game.parse("d4:?/d6:? - 20 setup"))
        assert solution.certified and solution.residual < 1e-12
        assert 0 < solution.value(solution.root) < 1


def test_searcher_depth_one_agrees_on_a_forced_win():
    # A's d20 (exploding) against B's lone d4 showing 1: attacking wins unless the d20 rolls 1
    state = GAME.parse("d20:19a/d4:1a a 20")
    result = Searcher(GAME, cache_slots=2**12).search(state, depth=1)
    assert result.best.name == "A1>1"


def test_cli_best_ranks_the_steps():
    out = CliRunner().invoke(main, ["best", "dicegeddon", "d4:3a,d6:5a,d10:7r/d6:6a,d8:2r a 20", "--depth", "2"])
    assert out.exit_code == 0, out.output
    for move in ("R1>3", "A2>1", "D1"):
        assert move in out.output
    bad = CliRunner().invoke(main, ["best", "dicegeddon", "d6:7a/d6:6a a 20"])
    assert bad.exit_code != 0 and "cannot show 7" in bad.output


def test_opening_value_decomposes_by_hand():
    # d4 against d10: the d4 is active with 3 or 4 (1/2), the d10 with 9 or 10 (1/5).
    # Both bust: a draw (0.4 * 1/2); only the d10 busts: A wins (0.5 * 0.8); only the d4: A loses;
    # both active (0.1): the battles, the lower total moving first (here always A's d4).
    opening = solve(GAME, GAME.parse("d4:?/d10:? - 20 setup"))
    battles = 0.0
    for a in (3, 4):
        for b in (9, 10):
            battle = GAME.parse(f"d4:{a}a/d10:{b}a a 20")
            battles += Fraction(1, 4 * 10) * solve(GAME, battle).value(battle)
    assert opening.value(opening.root) == pytest.approx(0.2 + 0.4 + battles, abs=1e-12)
    assert opening.value(opening.root) == pytest.approx(0.616469586052, abs=1e-11)


def _study_config(armies, **options):
    game = load_game("dicegeddon", army_size=8)
    return StudyConfig(8, game.dice, False, False, tuple(armies), game_class=type(game), **options)


def test_army_study_of_size_8_is_symmetric_and_has_an_equilibrium():
    game = load_game("dicegeddon", army_size=8)
    assert legal_armies(8, game.dice) == [(4,), (6,), (8,), (4, 4)]
    study = run_army_study(_study_config([(4,), (6,), (8,)]))
    assert study.exact.all() and study.certified and study.residual < 1e-12
    assert np.allclose(study.matrix + study.matrix.T, 1.0)
    # d4 beats d6 beats d8 (bigger single dice bust more often): d4 is the pure equilibrium
    assert study.matrix[0, 1] > 0.5 and study.matrix[1, 2] > 0.5 and study.row_strategy == (1.0, 0.0, 0.0)
    # the symmetry the study relies on: B's side of d4-d6 solved directly
    direct = solve(game, game.start((6,), (4,)))
    assert direct.value(direct.root) == pytest.approx(1 - study.matrix[0, 1], abs=1e-12)


def test_sampled_cells_have_intervals_around_the_exact_values_and_any_jobs_agree():
    armies = [(4,), (4, 4), (8,)]
    exact = run_army_study(_study_config(armies))
    sampled = run_army_study(_study_config(armies, exact_limit=0, games=200, seed=3))
    assert not sampled.exact[np.triu_indices(3)].any()
    for cell in sampled.cells:
        assert cell.method == "sampled" and cell.games == 200 and cell.low <= cell.value <= cell.high
        # one die a side leaves no choice worth the name: self-play is exact play, within sampling error
        assert cell.low - 0.02 <= exact.matrix[cell.row, cell.col] <= cell.high + 0.02
    assert np.allclose(sampled.matrix + sampled.matrix.T, 1.0)
    in_parallel = run_army_study(_study_config(armies, exact_limit=0, games=200, seed=3), jobs=2)
    assert [(c.row, c.col, c.value, c.low, c.high) for c in in_parallel.cells] == [
        (c.row, c.col, c.value, c.low, c.high) for c in sampled.cells]
    assert 0 <= sampled.robustness.min() and sampled.robustness.max() <= 1


def test_canonical_dice_order_merges_states_and_keeps_values():
    plain, merged = load_game("dicegeddon"), CanonicalDicegeddon()
    a = solve(plain, plain.start((4,), (4, 4)))
    b = solve(merged, merged.start((4,), (4, 4)))
    assert (a.num_states, b.num_states) == (4625, 2598)
    assert b.value(b.root) == pytest.approx(a.value(a.root), abs=1e-12) and b.certified
    # renumbering: B's dice swapped, the defence and the pending attack follow them
    state = plain.parse("d4:2a/d6:5a*,d4:4a*>1 a 20 attack:1>2")
    assert plain.format(canonical(state)) == "d4:2a/d4:4a*>2,d6:5a* a 20 attack:1>1"


def test_several_defenders_adds_only_dominated_placements():
    # Asked for: a position whose value changes with several_defenders. There is none. Say A's
    # used d4 (X) has one defender D1 and A places a second defender D2. The stack
    # (D1 and D2 both in front of X) is never better than the chain D2 > D1 > X, and the chain is
    # always legal in the base game, because the front die of a chain is used, active and has no
    # defender. In both cases the attacker must beat D1 and D2 before X. The chain forces the order
    # (D2 first), while the stack lets the attacker pick either one (both can be attacked). Either
    # way every defence ends when the owner's next turn starts. So the variant only adds moves that
    # are dominated, for both players, and the values agree to the last bit.
    position = "d4:4a*,d4:2a,d4:3a/d6:6a a 20"  # A's used d4 (4) and two unused d4s against a d6 (6)
    base, several = CanonicalDicegeddon(), CanonicalDicegeddon(several_defenders=True)
    a, b = solve(base, base.parse(position)), solve(several, several.parse(position))
    for solution in (a, b):
        assert solution.certified and solution.residual < 1e-12
    assert (a.num_states, b.num_states) == (17113, 18793)
    assert a.value(a.root) == pytest.approx(0.885559281314579, abs=1e-9)
    assert b.value(b.root) == pytest.approx(a.value(a.root), abs=1e-12)
    # each placement where the variant allows a stack: the best stack never beats the best
    # base-legal placement, and in some placements it is strictly worse
    stack_options = strictly_worse = 0
    for state in b.graph.states:
        if state.phase != PLACE:
            continue
        defended = {d.defends for d in state.dice[state.mover] if d.defends >= 0}
        moves = b.move_values(state)
        stacks = [m.value for m in moves if m.action.target in defended]
        if not stacks:
            continue
        legal = [m.value for m in moves if m.action.target not in defended]
        stack_options += 1
        assert max(stacks) <= max(legal) + 1e-12
        strictly_worse += max(stacks) < max(legal) - 1e-9
    assert stack_options > 0 and strictly_worse > 0


def test_chains_of_defenders_change_exact_values():
    # A's used d6 shows 1; two unused d4s (3) can defend it against B's d6 (6). With chains the
    # second d4 may stand in front of the first defender; without, it must stand alone.
    position = "d6:1a*,d4:3a,d4:3a/d6:6a a 20"
    chained = CanonicalDicegeddon()
    unchained = CanonicalDicegeddon(chains=False)
    a, b = solve(chained, chained.parse(position)), solve(unchained, unchained.parse(position))
    assert a.certified and b.certified
    assert (a.num_states, b.num_states) == (67170, 56802)
    assert a.value(a.root) == pytest.approx(0.912791547, abs=1e-8)
    assert b.value(b.root) == pytest.approx(0.909090174, abs=1e-8)
