"""Duels of Dice Fights (`dicetree duel dicefights`): 2 and 4 players, rotated seats, shares, jobs."""

from __future__ import annotations

import math

from click.testing import CliRunner

from cli.main import main
from solver.duel import Match
from solver.games import load_game

TWO, FOUR = load_game("dicefights"), load_game("dicefights", players=4)


def outcomes(result):
    return [(r.deal, r.rotation, r.seats, r.scores, r.decisions, r.rounds, r.stopped) for r in result.records]


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
