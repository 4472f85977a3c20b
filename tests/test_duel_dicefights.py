"""Duels of Dice Fights (`dicetree duel dicefights`): 2 and 4 players, rotated seats, shares, jobs."""

from __future__ import annotations

import doctest
import math
import random

from click.testing import CliRunner

import dicetree.solver.games.dicefights.policies as policies_module
from dicetree.cli.main import main
from dicetree.solver.games import load_game
from dicetree.solver.games.dicefights.policies import POLICIES, play_game
from dicetree.solver.match import Match
from dicetree.solver.results import GameRecord, format_match
from dicetree.solver.strategies import parse_strategy

TWO, FOUR = load_game("dicefights"), load_game("dicefights", players=4)


def outcomes(result):
    return [(r.deal, r.rotation, r.seats, r.scores, r.decisions, r.turns, r.stopped) for r in result.records]


def test_two_player_duel_runs_and_shares_sum_to_one():
    result = Match(TWO, ("solver:depth=1", "greedy"), games=4, seed=1).run()
    assert result.games == 4 and [r.seats for r in result.records] == [(0, 1), (1, 0)] * 2
    assert math.isclose(result.share(0) + result.share(1), 1.0)
    assert all(math.isclose(sum(r.scores), 1.0) for r in result.records)


def test_four_player_duel_rotates_every_seat_and_shares_sum_to_one():
    result = Match(FOUR, ("greedy", "attack", "random", "buy-dice"), games=8, seed=2).run()
    seats = [r.seats for r in result.records[:4]]
    assert seats == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    assert math.isclose(sum(result.share(i) for i in range(4)), 1.0)
    assert result.fair_share(0) == 0.25


def test_two_strategies_hold_two_seats_each_with_four_players():
    result = Match(FOUR, ("greedy", "random"), games=4, seed=3).run()
    assert [r.seats for r in result.records[:2]] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert math.isclose(result.share(0) + result.share(1), 1.0) and result.fair_share(0) == 0.5


def test_a_strategy_against_copies_of_itself_is_within_its_interval_of_the_fair_share():
    result = Match(FOUR, ("greedy",) * 4, games=40, seed=4).run()
    for i in range(4):
        low, high = result.interval(i)
        assert low <= 0.25 <= high


def test_jobs_do_not_change_the_games():
    one = Match(TWO, ("greedy", "attack"), games=8, seed=5).run(jobs=1)
    two = Match(TWO, ("greedy", "attack"), games=8, seed=5).run(jobs=2)
    assert outcomes(one) == outcomes(two)


def test_cli_two_and_four_players():
    runner = CliRunner()
    answer = runner.invoke(main, ["duel", "dicefights", "--a", "greedy", "--b", "random", "--games", "4", "--seed", "1"])
    assert answer.exit_code == 0, answer.output
    assert "fair share" in answer.output and "Seats rotated cyclically" in answer.output
    answer = runner.invoke(main, ["duel", "dicefights", "--a", "greedy", "--b", "attack", "--c", "random",
                                  "--d", "buy-dice", "--games", "4", "--rule", "players=4", "--jobs", "2"])
    assert answer.exit_code == 0, answer.output
    assert "D buy-dice" in answer.output and "25.0%" in answer.output


def test_bad_strategies_give_one_line_and_exit_2():
    runner = CliRunner()
    for args in (["--a", "greedy", "--b", "nonsense"], ["--a", "solver:depth=x", "--b", "greedy"],
                 ["--a", "greedy", "--b", "random", "--c", "attack", "--rule", "players=4"]):
        answer = runner.invoke(main, ["duel", "dicefights", *args, "--games", "4"])
        assert answer.exit_code == 2, answer.output
        assert len(answer.output.strip().splitlines()) == 1 and "Traceback" not in answer.output
    answer = runner.invoke(main, ["duel", "rolldown", "--a", "greedy", "--b", "random", "--c", "random"])
    assert answer.exit_code == 2 and "two strategies" in answer.output


def test_the_games_own_strategies_and_its_solver_options():
    assert str(parse_strategy("solver", TWO)) == "solver:depth=1,reroll=0"  # the game's own solver kind
    assert str(parse_strategy("buy-box", TWO)) == "buy-box"
    answer = CliRunner().invoke(main, ["duel", "dicefights", "--a", "exact", "--b", "greedy", "--games", "2"])
    assert answer.exit_code == 2 and "unknown strategy 'exact'" in answer.output and "buy-dice" in answer.output


def test_the_policies_play_through_the_one_play_loop():
    """A policy is a strategy and its games are the play loop's records: the same game whether
    played by the policies' helper or as a match of the game's buy-NAME kinds."""
    record = play_game(TWO, [POLICIES["dice"], POLICIES["attack"]], random.Random("7:dice:0"))
    assert isinstance(record, GameRecord) and record.seats == (0, 1)
    match = Match(TWO, ("buy-dice", "buy-attack"), games=2, seed=7).run()
    first = match.records[0]  # deal 0, buy-dice in seat 0: the same dice stream, the same choices
    assert (first.returns, first.turns, first.decisions) == (record.returns, record.turns, record.decisions)


def test_a_game_at_its_round_limit_is_shared_among_the_players_still_in():
    assert (TWO.turn_limit.turns, TWO.turn_limit.unit) == (300, "rounds")
    record = play_game(FOUR, [POLICIES["box"]] * 4, random.Random(1), max_rounds=3)
    assert record.stopped and record.turns == 3 and record.returns == (0.25,) * 4
    result = Match(TWO, ("buy-defense", "buy-box"), games=2, seed=1, turn_limit=2).run()
    assert all(r.stopped for r in result.records)
    assert "Note: 2 game(s) still running after 2 rounds were shared among the players still in" in format_match(result)


def test_docstrings():
    assert doctest.testmod(policies_module).failed == 0
