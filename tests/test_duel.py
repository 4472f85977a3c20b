"""Duels (solver/strategies.py, solver/match.py, solver/results.py, `dicetree duel`): strategies,
the one play loop, common random numbers, intervals, jobs."""

from __future__ import annotations

import ast
import doctest
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import dicetree.solver.match as match_module
import dicetree.solver.results as results_module
import dicetree.solver.strategies as strategies_module
from dicetree.cli.duel import duel as duel_command
from dicetree.cli.main import main
from dicetree.solver.game import TERMINAL, Game, GameError, GameType, PositionError, ValueBounds
from dicetree.solver.games import GAMES, load_game
from dicetree.solver.match import Duel, run_duel
from dicetree.solver.results import format_duel, wilson_interval
from dicetree.solver.strategies import GreedyStrategy, make_strategy, parse_strategy

GAME = load_game("rolldown")
SMALL = "d8:5,d6:2/d6:3,d4:4 a -/-"  # two dice a side, no cards: short games
SMALL_CARD = "d8:5,d6:2/d6:3,d4:4 a K/-"
MIDDLE = "d8:5,d6:2,d12:4/d6:3,d4:4,d10:7 a K3/Q7"  # three dice and two cards a side: games of some length
ROOT = Path(__file__).resolve().parents[1]


def outcomes(result):
    """What must not depend on how the games were run: every game's result and length."""
    return [(r.deal, r.rotation, r.seats, r.scores, r.returns, r.decisions, r.fallbacks, r.turns, r.stopped)
            for r in result.records]


def test_solver_beats_random_significantly_on_few_games():
    result = run_duel(GAME, "solver:depth=2", "random", games=20, seed=1, start=GAME.parse(SMALL_CARD))
    low, high = result.interval()
    assert result.rate >= 0.8 and low > 0.5 and result.significant()
    assert result.games == 20 and result.deals == 10
    assert [r.seat_of(0) for r in result.records] == [0, 1] * 10  # each deal twice, seats swapped


def test_a_strategy_against_itself_lands_within_its_interval_of_half():
    result = run_duel(GAME, "random", "random", games=60, seed=3, start=GAME.parse(SMALL))
    low, high = result.interval()
    assert low <= 0.5 <= high and not result.significant()
    assert result.paired() and 0 < high - low < 0.5


def test_common_random_numbers_mirror_a_deterministic_strategy():
    """Same start and same dice with the seats swapped: greedy against itself plays each deal's
    two games move for move alike, so every deal is split and the rate is exactly 1/2. All-seeing, so
    that no sample of the hidden hands (drawn from each seat's own stream) can tip a close choice."""
    result = run_duel(GAME, "greedy:all-seeing", "greedy:all-seeing", games=16, seed=5, start=GAME.parse(MIDDLE))
    assert result.rate == 0.5 and result.deal_outcomes() == (0, 8, 0)
    for first, second in zip(result.records[::2], result.records[1::2]):
        assert first.decisions == second.decisions[::-1]  # A's moves in one are B's in the other
        assert first.returns == second.returns  # the same game, the strategies seated the other way
    low, high = result.interval()  # no spread between deals: the Wilson interval of the games
    assert not result.paired() and low < 0.5 < high


def test_jobs_give_the_same_games_as_one_process():
    start = GAME.parse(MIDDLE)
    one = run_duel(GAME, "solver:depth=1", "random", games=12, seed=7, jobs=1, start=start)
    two = run_duel(GAME, "solver:depth=1", "random", games=12, seed=7, jobs=2, start=start)
    assert outcomes(one) == outcomes(two) and one.interval() == two.interval()
    other_seed = run_duel(GAME, "solver:depth=1", "random", games=12, seed=8, jobs=1, start=start)
    assert outcomes(other_seed) != outcomes(one)


def test_greedy_prefers_the_games_progress_moves():
    state = GAME.parse("d8:5,d6:2/d6:6,d4:4 a -/-")  # d8xd4 is the only capture; it is not the last pair
    strategy = GreedyStrategy(GAME, parse_strategy("greedy", GAME))
    move = strategy.choose(GAME, state, 0, GAME.legal_actions(state), random.Random(0))
    assert GAME.action_name(state, move) == "d8xd4" and GAME.is_progress(state, move)


def test_exact_plays_exactly_where_small_and_says_where_not():
    small = run_duel(GAME, "exact", "random", games=4, seed=1, start=GAME.parse(SMALL))
    assert sum(r.fallbacks[0] for r in small.records) == 0
    assert "every one of its" in format_duel(small)
    large = run_duel(GAME, "exact:max_states=500,fallback=1", "random", games=2, seed=1)
    fallbacks = sum(r.fallbacks[0] for r in large.records)
    assert fallbacks > 0
    assert f"{fallbacks:,} positions were too large for exact solving" in format_duel(large)


def test_unknown_cards_of_a_given_position_are_dealt_per_deal():
    result = run_duel(GAME, "greedy", "random", games=4, seed=2, start=GAME.parse("d8:5,d6:2/d6:3,d4:4 a K/?"))
    assert result.games == 4


def test_games_that_run_too_long_are_draws_and_said_so():
    result = run_duel(GAME, "random", "random", games=4, seed=1, start=GAME.parse(SMALL), turn_limit=1)
    assert all(r.stopped and r.scores == (0.5, 0.5) and r.turns == 1 for r in result.records) and result.rate == 0.5
    assert "4 game(s) still running after 1 decisions were counted as draws" in format_duel(result)


def test_the_turn_limit_is_the_games_declaration():
    assert GAME.turn_limit.turns == 2_000 and GAME.turn_limit.unit == "decisions"  # the interface's default
    assert Duel(GAME, "random", "random", games=2).turn_limit is None  # None: the game's


def test_strategy_specs():
    assert str(parse_strategy("solver", GAME)) == "solver:depth=2,hands=16"  # RolldownBeta hides hands
    assert str(parse_strategy("solver:hands=4,all-seeing", GAME)) == "solver:depth=2,hands=4,all-seeing"
    assert str(parse_strategy("solver", load_game("dicegeddon"))) == "solver:depth=2"  # hides nothing
    assert str(parse_strategy("exact:fallback=1", GAME)) == "exact:max_states=20000,fallback=1"
    for bad, phrase in [("minimax", "unknown strategy"), ("solver:depth=0", "depth must be"),
                        ("solver:width=3", "unknown option"), ("random:depth=2", "options of random: none"),
                        ("buy-dice", "unknown strategy"), ("solver:all-seeing=1", "unknown option")]:  # another game's kind is not offered here
        with pytest.raises(GameError, match=phrase):
            parse_strategy(bad, GAME)
    with pytest.raises(GameError, match="even"):
        Duel(GAME, "random", "random", games=5)


def test_a_time_a_move_parses_and_is_named_only_when_set():
    timed = parse_strategy("solver:depth=12,ms=250", GAME)
    assert str(timed) == "solver:depth=12,ms=250,hands=16" and timed.time_limit == 0.25
    assert parse_strategy("solver:depth=3,ms=0", GAME) == parse_strategy("solver:depth=3", GAME)  # 0: untimed
    assert parse_strategy("solver:depth=3", GAME).time_limit is None
    assert str(parse_strategy("network:depth=12,ms=100,all-seeing", GAME)) == "network:depth=12,ms=100,all-seeing"
    assert str(parse_strategy("fitted:ms=5", GAME)) == "fitted:depth=2,ms=5"
    for bad in ("solver:ms=-1", "solver:ms=600001", "solver:ms=0.5", "fitted:ms=", "network:ms=x"):
        with pytest.raises(GameError, match="ms must be a whole number from 0 to 600,000"):
            parse_strategy(bad, GAME)
    with pytest.raises(GameError, match="unknown option 'ms=5'"):  # greedy searches depth 1: nothing to time
        parse_strategy("greedy:ms=5", GAME)


@pytest.mark.parametrize("spec", ["solver:depth=2,ms=600000", "solver:depth=2,ms=600000,all-seeing",
                                  "network:depth=2,ms=600000,all-seeing"])
def test_a_timed_strategy_plays_a_legal_move_and_stops_at_its_depth_cap(spec):
    """Ten minutes a move cannot run out on this small position: the search deepens to its cap and no further
    (the hidden hands' searches too, through analyse)."""
    state = GAME.parse(MIDDLE)
    strategy = make_strategy(GAME, spec)
    seen = state if strategy.all_seeing else GAME.observe(state, 0)
    move = strategy.choose(GAME, seen, 0, GAME.legal_actions(seen), random.Random(0))
    assert move in GAME.legal_actions(state)
    assert dict(strategy.depths) == {2: 1}
    untimed = make_strategy(GAME, spec.replace(",ms=600000", ""))
    assert untimed.choose(GAME, seen, 0, GAME.legal_actions(seen), random.Random(0)) == move


def test_a_timed_duel_says_it_is_not_reproducible_and_an_untimed_one_is_unchanged():
    untimed = run_duel(GAME, "solver:depth=1", "random", games=4, seed=1, start=GAME.parse(SMALL))
    assert [str(spec) for spec in untimed.specs] == ["solver:depth=1,hands=16", "random"]
    assert "Timed" not in format_duel(untimed) and "reproducible" not in format_duel(untimed)
    timed = run_duel(GAME, "solver:depth=3,ms=60000", "random", games=2, seed=1, start=GAME.parse(SMALL))
    assert "Timed: A 60,000 ms a move of wall time" in format_duel(timed)
    assert "not reproducible game for game" in format_duel(timed)


def test_every_registered_game_offers_random_and_solver_and_makes_them():
    for name in GAMES:
        game = load_game(name)
        for text in ("random", "solver:depth=1"):
            strategy = make_strategy(game, text)
            assert callable(strategy.choose)


def test_wilson_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84


# ----- a game without random starts --------------------------------------------------------------
class TakeAway(Game):
    """Two players take 1 or 2 counters from a pile in turn; who takes the last one wins. It has no
    random starts (the interface's default ``new_game``): a duel needs a position (``'5 a'``)."""

    game_type = GameType("take-away", "Take Away")

    def current_player(self, state):
        pile, mover = state
        return TERMINAL if pile == 0 else mover

    def legal_actions(self, state):
        return [take for take in (1, 2) if take <= state[0]] if state[0] else []

    def action_name(self, state, action):
        return f"take{action}"

    def apply(self, state, action):
        return (state[0] - action, 1 - state[1])

    def returns(self, state):
        winner = 1 - state[1]  # who took the last counter
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)

    def value_bounds(self):
        return ValueBounds(0.0, 1.0)

    def parse(self, text):
        pile, _, mover = text.partition(" ")
        if not pile.isdigit() or mover not in ("a", "b"):
            raise PositionError(f"a position is '<pile> <a or b>', not '{text}'")
        return (int(pile), "ab".index(mover))

    def format(self, state):
        return f"{state[0]} {'ab'[state[1]]}"

    def notation_help(self):
        return "<pile> <a or b>"


def test_a_registered_game_without_random_starts_needs_a_position(monkeypatch):
    monkeypatch.setitem(GAMES, "take-away", f"{__name__}:TakeAway")
    monkeypatch.setattr(duel_command.params[0].type, "choices", [*duel_command.params[0].type.choices, "take-away"])
    game = load_game("take-away")
    with pytest.raises(GameError, match="Take Away has no random starts: give a position"):
        Duel(game, "random", "greedy", games=2)
    runner = CliRunner()
    answer = runner.invoke(main, ["duel", "take-away", "--a", "random", "--b", "greedy", "--games", "2"])
    assert answer.exit_code == 2 and "Traceback" not in answer.output
    assert answer.output.strip().splitlines() == ["error: Take Away has no random starts: give a position"]
    answer = runner.invoke(main, ["duel", "take-away", "--a", "solver:depth=4", "--b", "random", "--games", "4",
                                  "--position", "5 a"])
    assert answer.exit_code == 0, answer.output
    assert "A won" in answer.output and "(objective win)" in answer.output


# ----- one play loop -----------------------------------------------------------------------------
def test_the_play_loop_is_written_once():
    """No module of solver/ or cli/ but solver/match.py loops over states drawing chance outcomes and
    applying moves: duels, matches and a game's own helpers all play through its play_game."""
    loops = []
    for path in [*(ROOT / "solver").rglob("*.py"), *(ROOT / "cli").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.While, ast.For)):
                calls = {n.func.attr for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
                if {"sample_chance", "apply", "current_player"} <= calls:
                    loops.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert loops == [f"solver/match.py:{_loop_line()}"], loops


def _loop_line() -> int:
    tree = ast.parse((ROOT / "solver" / "match.py").read_text())
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "play_game")
    return next(n.lineno for n in ast.walk(function) if isinstance(n, ast.While))


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
        (["--a", "network:depth=12,ms=-100", "--b", "random"], "ms must be a whole number from 0 to 600,000"),
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
    for module in (strategies_module, match_module, results_module):
        assert doctest.testmod(module).failed == 0, module.__name__
