"""What a strategy sees in play: its own player's observation, unless its spec says all-seeing."""

from __future__ import annotations

import random

from dicetree.solver.games import load_game
from dicetree.solver.games.rolldown.cards import UNKNOWN
from dicetree.solver.match import Duel, play_game
from dicetree.solver.results import format_duel
from dicetree.solver.strategies import RandomStrategy, Strategy, make_strategy

GAME = load_game("rolldown")


class Spy(RandomStrategy):
    """A random strategy that keeps every position it was given."""

    def __init__(self):
        self.seen = []
        self.starts = []

    def new_game(self, start):
        self.starts.append(start)

    def choose(self, game, state, player, options, rng):
        self.seen.append((player, state))
        return super().choose(game, state, player, options, rng)


def play(spies, start, seed=0):
    return play_game(GAME, spies, (0, 1), GAME.parse(start), random.Random(seed), (random.Random(1), random.Random(2)))


def test_a_strategy_never_gets_the_opponents_hand():
    spies = (Spy(), Spy())
    for seed in range(6):
        play(spies, "d8:5,d6:2,d10:7/d6:3,d4:4,d12:9 a KQ/5J", seed)
    for spy in spies:
        assert spy.seen and spy.starts == [None] * 6  # the start shows both hands: not given
        for player, state in spy.seen:
            assert all(card == UNKNOWN for card in state.hands[1 - player])
            assert UNKNOWN not in state.hands[player]  # its own hand it sees


def test_an_all_seeing_strategy_gets_the_whole_position():
    spy = Spy()
    spy.all_seeing = True
    play((spy, Spy()), "d8:5,d6:2/d6:3,d4:4 a K/5")
    assert spy.starts[0] is not None and all(UNKNOWN not in state.hands[1] for _, state in spy.seen)


class Recorder(Strategy):
    """Another strategy's choices, kept."""

    def __init__(self, inner: Strategy):
        self.inner, self.moves = inner, []
        self.all_seeing = inner.all_seeing

    def choose(self, game, state, player, options, rng):
        self.moves.append(self.inner.choose(game, state, player, options, rng))
        return self.moves[-1]


def test_the_solver_plays_the_same_whatever_the_hidden_hand():
    """Rounds that differ only in B's hand: A's solver sees the same, so it chooses the same."""
    firsts = []
    for hand in ("5", "Q", "J"):
        solver = Recorder(make_strategy(GAME, "solver:depth=2,hands=4"))
        play((solver, RandomStrategy()), f"d8:5,d6:2/d6:3,d4:4 a K/{hand}")
        firsts.append(solver.moves[0])
    assert firsts[0] == firsts[1] == firsts[2]


def test_the_report_says_what_each_strategy_saw():
    start = GAME.parse("d8:5,d6:2/d6:3,d4:4 a K/5")
    own = format_duel(Duel(GAME, "random", "random", games=2, start=start).run())
    assert "Every strategy sees its own player's view" in own
    mixed = format_duel(Duel(GAME, "random:all-seeing", "random", games=2, start=start).run())
    assert "A all-seeing (sees the hidden cards); the others see its own player's view" in mixed
    plain = format_duel(Duel(load_game("dicegeddon"), "random", "random", games=2).run())
    assert "the game hides nothing" in plain
