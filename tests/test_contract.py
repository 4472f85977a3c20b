"""The game contract, checked on every registered game (as OpenSpiel's ``random_sim_test``).

Seeded random playouts from each game's example position and from fresh starts
(``Game.new_game``); at every state visited:

* who acts is a player, CHANCE, SIMULTANEOUS or TERMINAL, as the declared type allows;
* a chance node's outcomes have positive probabilities summing to 1 (where it lists them);
* ``parse(format(s)) == s``, with the same key (stable: the same position always has the same key);
* decisions have unique names, each parsing back to its action; simultaneous options too, per player;
* returns and ``evaluate`` stay within the declared bounds, and returns add up to the declared constant;
* the same seed gives the same playout.

A new game gets all of this by registering in :mod:`dicetree.solver.games`.
"""

from __future__ import annotations

import math
import pickle
import random

import pytest

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameError, GameType
from dicetree.solver.games import GAMES, game_class, game_names, load_game
from dicetree.solver.rule_options import RuleOption

PLAYOUTS = 3
MAX_STEPS = 400
LISTED_OUTCOMES = 5_000  # chance nodes with more outcomes than this are only sampled here


def _check_state(game: Game, state, seen_keys: dict) -> None:
    kind = game.game_type
    player = game.current_player(state)
    assert player in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= player < game.num_players, player
    if player == SIMULTANEOUS:
        assert kind.simultaneous, "a SIMULTANEOUS node in a game whose type declares none"
    text = game.format(state)
    again = game.parse(text)
    assert again == state, (text, again, state)
    assert game.format(again) == text
    key = game.key(state)  # a key may merge positions that play the same (a die about to be rerolled)
    assert game.key(again) == key and hash(game.key(again)) == hash(key)
    assert game.key(game.parse(seen_keys.setdefault(text, text))) == key
    bounds = game.value_bounds()
    if player == TERMINAL:
        returns = game.returns(state)
        assert len(returns) == game.num_players
        assert all(bounds.low - 1e-9 <= r <= bounds.high + 1e-9 for r in returns), returns
        if kind.constant_sum is not None:
            assert math.fsum(returns) == pytest.approx(kind.constant_sum, abs=1e-9), returns
        return
    if player >= 0 or player == SIMULTANEOUS or (player == CHANCE and kind.evaluates_chance):
        for p in range(game.num_players):
            value = game.evaluate(state, p)
            assert bounds.low - 1e-9 <= value <= bounds.high + 1e-9, (text, p, value)
    if player >= 0:
        actions = list(game.legal_actions(state))
        assert actions, f"a player decides at {text} with no legal move"
        names = [game.action_name(state, a) for a in actions]
        assert len(set(names)) == len(names), f"action names repeat at {text}: {names}"
        for action, name in zip(actions, names):
            assert game.parse_action(state, name) == action
    elif player == SIMULTANEOUS:
        options = game.joint_actions(state)
        assert len(options) == game.num_players
        for player_options in options:
            names = [game.action_name(state, a) for a in player_options]
            assert len(set(names)) == len(names), f"option names repeat at {text}: {names}"
    elif player == CHANCE and game.chance_outcome_count(state) <= min(LISTED_OUTCOMES, game.exact_chance_limit):
        outcomes = game.chance_outcomes(state)
        assert outcomes and all(p > 0 for _, p in outcomes), text
        assert math.fsum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-9), text


def _step(game: Game, state, rng: random.Random):
    player = game.current_player(state)
    if player == CHANCE:
        return game.apply(state, game.sample_chance(state, rng))
    if player == SIMULTANEOUS:
        return game.apply(state, tuple(rng.choice(list(o)) if o else None for o in game.joint_actions(state)))
    return game.apply(state, rng.choice(list(game.legal_actions(state))))


def playout(game: Game, start, seed: int, check: bool = True) -> list[str]:
    """The positions of one seeded random playout from ``start`` (checked as it goes)."""
    rng = random.Random(seed)
    state, seen, visited = start, {}, []
    for _ in range(MAX_STEPS):
        if check:
            _check_state(game, state, seen)
        visited.append(game.format(state))
        if game.current_player(state) == TERMINAL:
            break
        state = _step(game, state, rng)
    return visited


def _starts(game: Game, seed: int) -> list:
    starts = []
    if game.example_position():
        starts += game.determinize(game.parse(game.example_position()), max_exact=0, samples=1, seed=seed).states
    starts.append(game.new_game(random.Random(seed)))
    return starts


@pytest.fixture(params=game_names())
def game(request) -> Game:
    return load_game(request.param)


def test_every_game_declares_its_type_and_options(game):
    cls = type(game)
    assert isinstance(cls.game_type, GameType)
    assert GAMES[cls.game_type.short_name].endswith(":" + cls.__name__)
    assert game.game_type.min_players <= game.num_players <= game.game_type.max_players
    assert game.objective in game.game_type.objectives
    assert all(isinstance(option, RuleOption) for option in cls.rule_options)
    names = [option.name for option in cls.rule_options]
    assert len(set(names)) == len(names)
    defaults = {o.name: o.default for o in cls.rule_options if o.default is not None}
    assert repr(load_game(cls.game_type.short_name, **defaults)) == repr(game)  # the defaults are the defaults
    with pytest.raises(GameError, match="no rule option 'no_such_option'"):
        load_game(cls.game_type.short_name, no_such_option="1")


def test_every_game_has_an_example_and_fresh_starts(game):
    assert game.parse(game.example_position()) is not None
    first, second = game.new_game(random.Random(7)), game.new_game(random.Random(7))
    assert first == second
    assert game.player_name(0) != game.player_name(1)


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_random_playouts_keep_the_contract(game, seed):
    for start in _starts(game, seed):
        playout(game, start, seed)


def test_the_same_seed_gives_the_same_playout(game):
    start = game.new_game(random.Random(3))
    assert playout(game, start, 11, check=False) == playout(game, start, 11, check=False)


def test_a_game_travels_to_worker_processes(game):
    """Duels and studies send the game to worker processes (local or a dask cluster): it must pickle,
    and the copy must play exactly as the original."""
    copy = pickle.loads(pickle.dumps(game))
    assert repr(copy) == repr(game)
    start = game.new_game(random.Random(5))
    assert playout(copy, start, 13, check=False) == playout(game, start, 13, check=False)


def test_observations_and_hidden_information(game):
    state = game.parse(game.example_position())
    for player in range(game.num_players):
        seen = game.observe(state, player)
        assert game.format(seen)  # a position the game can write down
        if not game.game_type.hidden_information:
            assert seen == state
    deals = game.determinize(state, max_exact=50, samples=8, seed=1)
    assert math.fsum(deals.weights) == pytest.approx(1.0)
    assert all(game.format(s) for s in deals.states)


def test_registered_names_load():
    for name in game_names():
        assert game_class(name).game_type.short_name == name


def test_options_report_the_configured_values(game):
    values = game.options()
    assert list(values) == [option.name for option in type(game).rule_options]
    rebuilt = load_game(game.game_type.short_name, **{k: v for k, v in values.items() if v is not None})
    assert repr(rebuilt) == repr(game)
