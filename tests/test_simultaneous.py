"""The simultaneous-move search on small games with answers worked out by hand: matrix games backed
up through chance and decision nodes, the depth cut-off, the paranoid reduction for three players."""

from __future__ import annotations

import pytest

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameError, ValueBounds, GameType
from dicetree.solver.simultaneous import SimultaneousSearcher, has_simultaneous_moves

RPS_WIN = {("R", "S"), ("P", "R"), ("S", "P")}


class TwoStage(Game):
    """Player 0 may ``quit`` (0.45) or ``play`` a 2x2 simultaneous game:
    (U,L) 1; (U,R) chance: 1/3 -> 0, 2/3 -> rock-paper-scissors (win 1, tie 1/2); (D,L) 0; (D,R) 0.6.
    With RPS worth 1/2, (U,R) is 1/3 and the 2x2 game's value is 9/19 (p = 9/19, q = 4/19)."""

    game_type = GameType("two-stage", "Two Stage", simultaneous=True)
    num_players = 2

    def __init__(self, rps_guess: float = 0.3):
        self.rps_guess = rps_guess  # what evaluate says of the RPS node

    def current_player(self, state):
        if state == "start":
            return 0
        if state in ("root", "rps"):
            return SIMULTANEOUS
        if state == "coin":
            return CHANCE
        return TERMINAL

    def legal_actions(self, state):
        return ["play", "quit"] if state == "start" else []

    def joint_actions(self, state):
        if state == "root":
            return (["U", "D"], ["L", "R"])
        return (["R", "P", "S"], ["R", "P", "S"])

    def chance_outcomes(self, state):
        return [("lose", 1 / 3), ("rps", 2 / 3)]

    def action_name(self, state, action):
        return action if isinstance(action, str) else "+".join(map(str, action))

    def apply(self, state, action):
        if state == "start":
            return "root" if action == "play" else "end:0.45"
        if state == "coin":
            return "end:0" if action == "lose" else "rps"
        if state == "root":
            return {("U", "L"): "end:1", ("U", "R"): "coin", ("D", "L"): "end:0", ("D", "R"): "end:0.6"}[action]
        a, b = action
        return "end:0.5" if a == b else "end:1" if (a, b) in RPS_WIN else "end:0"

    def returns(self, state):
        value = float(state.split(":")[1])
        return (value, 1 - value)

    def value_bounds(self):
        return ValueBounds(0.0, 1.0)

    def evaluate(self, state, player):
        guess = self.rps_guess if state == "rps" else 0.5
        return guess if player == 0 else 1 - guess

    def parse(self, text):
        return text

    def format(self, state):
        return state

    def notation_help(self):
        return "start, root, coin, rps or end:<value>"


class OddOneOut(Game):
    """Three players show heads or tails at once; one alone against two wins, three alike share."""

    game_type = GameType("odd-one-out", "Odd One Out", max_players=3, simultaneous=True, constant_sum=None)
    num_players = 3

    def current_player(self, state):
        return SIMULTANEOUS if state == "show" else TERMINAL

    def legal_actions(self, state):
        return []

    def joint_actions(self, state):
        return (["H", "T"],) * 3

    def action_name(self, state, action):
        return action

    def apply(self, state, action):
        return "".join(action)

    def returns(self, state):
        if len(set(state)) == 1:
            return (1 / 3,) * 3
        odd = next(i for i, c in enumerate(state) if state.count(c) == 1)
        return tuple(1.0 if i == odd else 0.0 for i in range(3))

    def value_bounds(self):
        return ValueBounds(0.0, 1.0)

    def parse(self, text):
        return text

    def format(self, state):
        return state

    def notation_help(self):
        return "show"


def test_a_simultaneous_node_backed_up_through_chance_has_its_closed_form_value():
    result = SimultaneousSearcher(TwoStage()).search("root", depth=2)
    p1, p2 = result.players
    assert result.node == "simultaneous" and result.exact
    assert p1.value == pytest.approx(9 / 19) and p2.value == pytest.approx(10 / 19)
    assert {c.name: c.probability for c in p1.choices} == pytest.approx({"U": 9 / 19, "D": 10 / 19})
    assert {c.name: c.probability for c in p2.choices} == pytest.approx({"L": 4 / 19, "R": 15 / 19})
    # Against the other's optimal mix every choice played scores the value.
    assert all(c.value == pytest.approx(9 / 19) for c in p1.choices)
    assert "exact zero-sum equilibrium" in result.method and result.approximation == ""


def test_the_depth_cut_off_uses_the_evaluation():
    # Depth 1: the RPS node is evaluated (0.3), so (U,R) is 0.2 and the value (0.6)/(1 - 0.2 + 0.6) = 3/7.
    result = SimultaneousSearcher(TwoStage(rps_guess=0.3)).search("root", depth=1)
    assert result.players[0].value == pytest.approx(3 / 7)
    assert not result.exact and result.depth == 1


def test_an_ordinary_decision_ranks_its_moves_with_the_matrix_values_below():
    result = SimultaneousSearcher(TwoStage()).search("start", depth=3)
    (mover,) = result.players
    assert result.node == "decision"
    assert [(c.name, c.probability) for c in mover.choices] == [("play", 1.0), ("quit", 0.0)]
    assert mover.choices[0].value == pytest.approx(9 / 19)
    assert mover.choices[1].loss == pytest.approx(9 / 19 - 0.45)


def test_iterative_deepening_stops_when_the_game_is_solved():
    result = SimultaneousSearcher(TwoStage()).search("root", time_limit=5)
    assert result.exact and result.depth == 2


def test_three_players_use_the_named_paranoid_reduction():
    result = SimultaneousSearcher(OddOneOut()).search("show", depth=1)
    assert result.approximation == "paranoid" and "paranoid reduction" in result.method
    # The two others can always make someone else the odd one: each player is guaranteed nothing.
    assert [answer.value for answer in result.players] == pytest.approx([0.0, 0.0, 0.0])
    assert len(result.players) == 3


def test_chance_and_terminal_roots_are_refused():
    searcher = SimultaneousSearcher(TwoStage())
    with pytest.raises(GameError, match="chance acts next"):
        searcher.search("coin", depth=1)
    with pytest.raises(GameError, match="game is over"):
        searcher.search("end:1", depth=1)


def test_results_serialize_with_strategies_and_a_principal_line():
    from dicetree.solver.analysis import simultaneous_json

    result = SimultaneousSearcher(TwoStage()).search("root", depth=2)
    answer = simultaneous_json(result, "twostage")
    assert answer["node"] == "simultaneous" and answer["depth"] == 2
    assert sum(answer["players"][0]["strategy"].values()) == pytest.approx(1)
    assert {"move", "value", "loss", "tied", "probability"} == set(answer["players"][1]["moves"][0])
    assert answer["pv"] and answer["pv"] == list(result.pv)


def test_only_games_declaring_simultaneous_moves_have_them():
    from dicetree.solver.games import load_game

    assert has_simultaneous_moves(TwoStage()) and has_simultaneous_moves(load_game("dicefights"))
    assert not has_simultaneous_moves(load_game("rolldown"))
