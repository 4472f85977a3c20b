"""Duels (solver/duel.py, `dicetree duel`): strategies, common random numbers, intervals, jobs."""

from __future__ import annotations

import doctest
import random

import pytest
from click.testing import CliRunner

import solver.duel as duel_module
from cli.main import main
from solver.duel import Duel, GreedyStrategy, parse_strategy, run_duel, wilson_interval
from solver.game import GameError
from solver.games import load_game

GAME = load_game("rolldown")
SMALL = "d8:5,d6:2/d6:3,d4:4 a -/-"  # two dice a side, no cards: short games
SMALL_CARD = "d8:5,d6:2/d6:3,d4:4 a K/-"


def outcomes(result):
    """What must not depend on how the games were run: every game's result and length."""
    return [(r.deal, r.a_seat, r.a_score, r.a_return, r.decisions, r.fallbacks, r.capped) for r in result.records]


def test_solver_beats_random_significantly_on_few_games():
    result = run_duel(GAME, "solver:depth=2", "random", games=20, seed=1, start=GAME.parse(SMALL_CARD))
    low, high = result.interval
    assert result.rate >= 0.8 and low > 0.5 and result.significant
    assert result.games == 20 and result.deals == 10
    assert [r.a_seat for r in result.records] == [0, 1] * 10  # each deal twice, seats swapped


def test_a_strategy_against_itself_lands_within_its_interval_of_half():
    result = run_duel(GAME, "random", "random", games=60, seed=3, start=GAME.parse(SMALL))
    low, high = result.interval
    assert low <= 0.5 <= high and not result.significant
    assert result.paired and 0 < high - low < 0.5


def test_common_random_numbers_mirror_a_deterministic_strategy():
    """Same start and same dice with the seats swapped: greedy against itself plays each deal's
    two games move for move alike, so every deal is split and the rate is exactly 1/2."""
    result = run_duel(GAME, "greedy", "greedy", games=16, seed=5)
    assert result.rate == 0.5 and result.deal_outcomes() == (0, 8, 0)
    for first, second in zip(result.records[::2], result.records[1::2]):
        assert first.decisions == second.decisions[::-1]  # A's moves in one are B's in the other
    low, high = result.interval  # no spread between deals: the Wilson interval of the games
    assert not result.paired and low < 0.5 < high


def test_jobs_give_the_same_games_as_one_process():
    one = run_duel(GAME, "solver:depth=1", "random", games=12, seed=7, jobs=1)
    two = run_duel(GAME, "solver:depth=1", "random", games=12, seed=7, jobs=2)
    assert outcomes(one) == outcomes(two) and one.interval == two.interval
    other_seed = run_duel(GAME, "solver:depth=1", "random", games=12, seed=8, jobs=1)
    assert outcomes(other_seed) != outcomes(one)


def test_greedy_captures_when_it_can():
    state = GAME.parse("d8:5,d6:2/d6:6,d4:4 a -/-")  # d8xd4 is the only capture; it is not the last pair
    strategy = GreedyStrategy(GAME, parse_strategy("greedy"))
    assert GAME.action_name(state, strategy.choose(state, random.Random(0))) == "d8xd4"


def test_exact_plays_exactly_where_small_and_says_where_not():
    small = run_duel(GAME, "exact", "random", games=4, seed=1, start=GAME.parse(SMALL))
    assert sum(r.fallbacks[0] for r in small.records) == 0
    assert "every one of its" in duel_module.format_duel(small)
    large = run_duel(GAME, "exact:max_states=500,fallback=1", "random", games=2, seed=1)
    fallbacks = sum(r.fallbacks[0] for r in large.records)
    assert fallbacks > 0
    assert f"{fallbacks:,} positions were too large for exact solving" in duel_module.format_duel(large)


def test_unknown_cards_of_a_given_position_are_dealt_per_deal():
    result = run_duel(GAME, "greedy", "random", games=4, seed=2, start=GAME.parse("d8:5,d6:2/d6:3,d4:4 a K/?"))
    assert result.games == 4


def test_games_that_run_too_long_are_draws_and_said_so():
    result = run_duel(GAME, "random", "random", games=4, seed=1, start=GAME.parse(SMALL), max_decisions=1)
    assert all(r.capped and r.a_score == 0.5 for r in result.records) and result.rate == 0.5
    assert "4 game(s) still running after 1 decisions were counted as draws" in duel_module.format_duel(result)


def test_strategy_specs():
    assert str(parse_strategy("solver")) == "solver:depth=2"
    assert str(parse_strategy("exact:fallback=1")) == "exact:max_states=20000,fallback=1"
    for bad, phrase in [("minimax", "unknown strategy"), ("solver:depth=0", "depth must be"),
                        ("solver:width=3", "unknown option"), ("random:depth=2", "options of random: none")]:
        with pytest.raises(GameError, match=phrase):
            parse_strategy(bad)
    with pytest.raises(GameError, match="even"):
        Duel(GAME, "random", "random", games=5)


def test_wilson_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84


# ----- the command ----------------------------------------------------------------------------------
def run(*args: str):
    return CliRunner().invoke(main, ["duel", "rolldown", *args])


def test_duel_command_reports_rate_interval_and_common_random_numbers():
    answer = run("--a", "greedy", "--b", "random", "--games", "8", "--seed", "1", "--position", SMALL, "--no-progress")
    assert answer.exit_code == 0, answer.output
    text = answer.output
    assert "Common random numbers" in text and "same dice sequence" in text and "seats swapped" in text
    assert "95% CI" in text and "A won" in text and "Verdict" in text


@pytest.mark.parametrize(
    "args, phrase",
    [
        (["--a", "alphabeta", "--b", "random"], "unknown strategy 'alphabeta'"),
        (["--a", "solver:depth=x", "--b", "random"], "depth must be a whole number"),
        (["--a", "random", "--b", "random", "--games", "7"], "must be even"),
        (["--a", "random", "--b", "random", "--position", "d6:7/d4:3 a -/-"], "cannot show 7"),
        (["--a", "random", "--b", "random", "--position", "-/- b -/- - single 0-0 1 -/- a won:a:12"], "game is over"),
        (["--a", "random", "--b", "random", "--jobs", "0"], "--jobs"),
        (["--b", "random"], "--a"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args, phrase):
    answer = run(*args, "--no-progress")
    assert answer.exit_code == 2, answer.output
    assert phrase in answer.output and "Traceback" not in answer.output
    if "Usage" not in answer.output:  # click's own usage errors print a usage line first
        assert len(answer.output.strip().splitlines()) == 1


def test_docstrings():
    assert doctest.testmod(duel_module).failed == 0
