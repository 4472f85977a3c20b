"""Match play: strategies in the seats of a game, many games, with common random numbers.

:func:`play_game` is THE play loop: every played game of dicetree (duels, matches, studies that
sample, a game's own benchmarks) goes through it. Chance draws from one stream, each strategy
chooses from its own; at a simultaneous node every player with a choice is asked; a game still
running at its :class:`~dicetree.solver.game.TurnLimit` is stopped and scored by ``Game.stopped_returns``.

A :class:`Match` seats ``k`` strategies among ``n`` players (``k`` divides ``n``): the seats hold
the strategies in turn (A B .. A B ..), and every deal is played ``k`` times with the strategies
rotated one seat on (rotation ``r``: seat ``p`` plays strategy ``(p + r) mod k``), so each plays
every seat once per deal. **Common random numbers**: the games of a deal share their start (a
random start from ``game.new_game``, or the given position with its unknown cards dealt) and one
seeded stream of chance outcomes, so the luck of the dice largely cancels and the difference that
remains is the strategies'. A :class:`Duel` is the two-seat case: each deal twice, seats swapped.

**What a seat sees.** Each strategy chooses from its own player's observation
(:meth:`~dicetree.solver.game.Game.observe`) — in RolldownBeta its own hand, not the opponent's — unless
its spec says ``all-seeing`` (:mod:`dicetree.solver.strategies`).

**Parallel and deterministic.** Each deal depends only on the seed and its index, so ``jobs``
worker processes give the same games and the same result as one.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> result = run_duel(game, "greedy", "random", games=4, seed=1,
    ...                   start=game.parse("d8:5,d6:2/d6:3,d4:4 a -/-"))
    >>> result.games, [r.seats for r in result.records]
    (4, [(0, 1), (1, 0), (0, 1), (1, 0)])
    >>> 0 <= result.rate <= 1
    True
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, replace
from typing import cast

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameError, State
from dicetree.solver.parallel import Workers, made_once
from dicetree.solver.results import GameRecord, MatchResult, letters, seat_scores
from dicetree.solver.strategies import Strategy, StrategySpec, make_strategy, parse_strategy


# ----- one game ------------------------------------------------------------------------------------
def play_game(
    game: Game,
    strategies: Sequence[Strategy],
    lineup: Sequence[int],
    start: State,
    chance: random.Random,
    choices: Sequence[random.Random],
    *,
    turn_limit: int | None = None,
    deal: int = 0,
    rotation: int = 0,
) -> GameRecord:
    """One game from ``start``: seat ``p`` is played by ``strategies[lineup[p]]``, which chooses
    from ``choices[lineup[p]]`` (several strategies may share one stream); chance draws from
    ``chance``. After ``turn_limit`` turns (default: the game's) the game is stopped.

    >>> import random
    >>> from dicetree.solver.games import load_game
    >>> from dicetree.solver.strategies import RandomStrategy
    >>> game = load_game("rolldown")
    >>> seats = (RandomStrategy(), RandomStrategy())
    >>> record = play_game(game, seats, (0, 1), game.parse("d8:5/d6:3 a -/-"), random.Random(1),
    ...                    (random.Random(2), random.Random(3)))
    >>> record.scores, record.decisions, record.stopped
    ((1.0, 0.0), (1, 0), False)
    """
    if len(lineup) != game.num_players:
        raise GameError(f"{game.num_players} players need {game.num_players} seats, not {len(lineup)}")
    limit = game.turn_limit.turns if turn_limit is None else turn_limit
    count = len(strategies)
    decisions, thinking = [0] * count, [0.0] * count
    hides = game.game_type.hidden_information
    for strategy in strategies:
        strategy.new_game(start if strategy.all_seeing or not hides else None)

    def choose(state: State, player: int, options: Sequence) -> object:
        index = lineup[player]
        strategy = strategies[index]
        seen = state if strategy.all_seeing or not hides else game.observe(state, player)
        started = time.perf_counter()
        action = strategy.choose(game, seen, player, options, choices[index])
        thinking[index] += time.perf_counter() - started
        decisions[index] += 1
        return action

    state, turns, stopped = start, 0, False
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if game.starts_turn(state):
            if turns >= limit:
                stopped = True
                break
            turns += 1
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, chance))
        elif player == SIMULTANEOUS:  # every player with a choice; None for one without
            joint = tuple(choose(state, p, own) if own else None for p, own in enumerate(game.joint_actions(state)))
            state = game.apply(state, joint)
        else:
            state = game.apply(state, choose(state, player, game.legal_actions(state)))
    returns = tuple(float(r) for r in (game.stopped_returns(state) if stopped else game.returns(state)))
    scores = [0.0] * count
    for seat, points in enumerate(seat_scores(returns)):
        scores[lineup[seat]] += points
    return GameRecord(
        deal=deal, rotation=rotation, seats=tuple(lineup), returns=returns, scores=tuple(scores),
        decisions=tuple(decisions), thinking=tuple(thinking),
        fallbacks=tuple(strategy.take_fallbacks() for strategy in strategies), turns=turns, stopped=stopped,
    )


# ----- a match -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """``games`` games of the strategies ``specs`` in ``game`` (see the module notes), from random
    starts or from ``start``; ``turn_limit`` overrides the game's. Checked when made; picklable
    (worker processes get a copy).

    >>> from dicetree.solver.games import load_game
    >>> Match(load_game("dicefights", players=4), ("greedy", "attack", "random"), games=6)
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: 4 players need 2 or 4 strategies (each holds the same number of seats), not 3
    """

    game: Game
    specs: tuple[StrategySpec | str, ...]
    games: int
    seed: int | str = 0
    start: State | None = None
    turn_limit: int | None = None

    def __post_init__(self) -> None:
        game = self.game
        specs = tuple(parse_strategy(s, game) if isinstance(s, str) else s for s in self.specs)
        object.__setattr__(self, "specs", specs)  # from here on every spec is parsed: see strategy_specs
        n, k = game.num_players, len(specs)
        if n < 2:
            raise GameError(f"{game.game_type.long_name} is played here by one player: strategies play each other "
                            "in games of two or more players")
        if k < 2 or n % k:
            counts = [str(d) for d in range(2, n + 1) if n % d == 0]
            choices = " or ".join(counts) if len(counts) < 3 else ", ".join(counts[:-1]) + " or " + counts[-1]
            raise GameError(f"{n} players need {choices} strategies (each holds the same number of seats), not {k}")
        if self.games < k or self.games % k:
            if k == 2:
                raise GameError(f"--games must be even and at least 2 (each deal is played twice, seats swapped), "
                                f"not {self.games}")
            raise GameError(f"--games must be a multiple of {k} (each deal is played {k} times, seats rotated), "
                            f"not {self.games}")
        if self.turn_limit is not None and self.turn_limit < 1:
            raise GameError(f"the turn limit must be at least 1, not {self.turn_limit}")
        if self.start is None:
            game.new_game(random.Random(0))  # a game without random starts says so (one line)
        elif game.current_player(self.start) == TERMINAL:
            raise GameError(f"the game is over at '{game.format(self.start)}': there is nothing to play")

    @property
    def rotations(self) -> int:
        return len(self.specs)

    @property
    def deals(self) -> int:
        return self.games // self.rotations

    def lineup(self, rotation: int) -> tuple[int, ...]:
        """The strategy in each seat in that rotation."""
        k = self.rotations
        return tuple((p + rotation) % k for p in range(self.game.num_players))

    @property
    def strategy_specs(self) -> tuple[StrategySpec, ...]:
        """:attr:`specs`, which may be given as texts, as they are once made (parsed when the match is)."""
        return cast("tuple[StrategySpec, ...]", self.specs)

    def make_strategies(self) -> tuple[Strategy, ...]:
        """One strategy object per spec; equal specs share one where the strategy is ``shareable``."""
        made: dict[StrategySpec, Strategy] = {}
        strategies = []
        for spec in self.strategy_specs:
            strategy = made[spec] if spec in made else make_strategy(self.game, spec)
            if strategy.shareable:
                made[spec] = strategy
            strategies.append(strategy)
        return tuple(strategies)

    def start_of(self, deal: int) -> State:
        """The deal's start: a random start, or the given position (unknown cards dealt)."""
        rng = random.Random(f"{self.seed}:start:{deal}")
        game = self.game
        if self.start is None:
            return game.new_game(rng)
        if not game.game_type.hidden_information:
            return self.start
        return game.determinize(self.start, max_exact=0, samples=1, seed=rng.randrange(2**31)).states[0]

    def play(self, deal: int, rotation: int, strategies: Sequence[Strategy]) -> GameRecord:
        """One game of the deal: the strategies seated by ``rotation``, the deal's chance stream
        (``seed:dice:deal``, the same in every game of the deal) and each strategy's own stream."""
        streams = [random.Random(f"{self.seed}:{letter}:{deal}:{rotation}") for letter in letters(self.rotations)]
        return play_game(self.game, strategies, self.lineup(rotation), self.start_of(deal),
                         random.Random(f"{self.seed}:dice:{deal}"), streams, turn_limit=self.turn_limit,
                         deal=deal, rotation=rotation)

    def play_deal(self, deal: int, strategies: Sequence[Strategy]) -> list[GameRecord]:
        return [self.play(deal, rotation, strategies) for rotation in range(self.rotations)]

    def run(self, jobs: int | Workers = 1, on_progress: Callable[[int], None] | None = None,
            done: Sequence[GameRecord] = (), on_played: Callable[[list[GameRecord]], None] | None = None) -> MatchResult:
        """Play every game in ``jobs`` processes, or where a :class:`Workers` says (the same result
        either way);
        ``on_progress(n)`` is called as ``n`` more games end. ``done`` are the records of deals
        already played (a resumed match: those deals are not played again); ``on_played(records)``
        receives the records of deals as they finish (to keep them)."""
        started = time.perf_counter()
        finished = {record.deal for record in done}
        records = list(done) + play_all(self, jobs, on_progress, [d for d in range(self.deals) if d not in finished],
                                        on_played)
        records.sort(key=lambda r: (r.deal, r.rotation))
        game = self.game
        limit = game.turn_limit if self.turn_limit is None else replace(game.turn_limit, turns=self.turn_limit)
        return MatchResult(
            game_name=game.name, players=game.num_players, specs=self.strategy_specs, seed=self.seed,
            start=game.format(self.start) if self.start is not None else "", records=records,
            jobs=jobs.jobs if isinstance(jobs, Workers) else jobs,
            where=jobs.where if isinstance(jobs, Workers) and jobs.on_dask else "",
            elapsed=time.perf_counter() - started, turn_limit=limit, objective=game.objective,
            hidden_information=game.game_type.hidden_information,
        )


class Duel(Match):
    """A match of two strategies ``a`` and ``b`` in a two-player game: ``games`` (even: ``games / 2``
    deals) with each deal played twice, A as player 0 and then as player 1.

    >>> from dicetree.solver.games import load_game
    >>> Duel(load_game("rolldown"), "greedy", "random", games=3)
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: --games must be even and at least 2 (each deal is played twice, seats swapped), not 3
    """

    def __init__(self, game: Game, a: StrategySpec | str, b: StrategySpec | str, games: int, seed: int | str = 0,
                 start: State | None = None, turn_limit: int | None = None):
        super().__init__(game, (a, b), games, seed, start, turn_limit)

    @property
    def a(self) -> StrategySpec:
        return self.strategy_specs[0]

    @property
    def b(self) -> StrategySpec:
        return self.strategy_specs[1]


def run_duel(
    game: Game,
    a: StrategySpec | str,
    b: StrategySpec | str,
    *,
    games: int,
    seed: int | str = 0,
    start: State | None = None,
    jobs: int = 1,
    turn_limit: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """``Duel(...).run(jobs, on_progress)`` in one call (see :class:`Duel`)."""
    return Duel(game, a, b, games, seed, start, turn_limit).run(jobs=jobs, on_progress=on_progress)


# ----- every deal, in one or more processes ----------------------------------------------------------
def play_all(match: Match, jobs: int | Workers = 1, on_progress: Callable[[int], None] | None = None,
             deals: Sequence[int] | None = None,
             on_played: Callable[[list[GameRecord]], None] | None = None) -> list[GameRecord]:
    """Every deal of ``match`` (or those of ``deals``) in ``jobs`` processes or where a
    :class:`Workers` says; the records in the order they came (each deal depends only on the seed
    and its index: the same wherever it runs). ``on_progress(n)`` is called as ``n`` more games end,
    ``on_played(records)`` with them."""
    workers = jobs if isinstance(jobs, Workers) else Workers(jobs=jobs)
    todo = list(range(match.deals)) if deals is None else list(deals)
    records: list[GameRecord] = []

    def finished(played: list[GameRecord]) -> None:
        records.extend(played)
        if on_played is not None:
            on_played(played)
        if on_progress is not None:
            on_progress(len(played))

    with workers.executor() as pool:
        if pool is None:
            strategies = match.make_strategies()
            for deal in todo:
                finished(match.play_deal(deal, strategies))
            return records
        chunk = max(1, min(8, len(todo) // (workers.processes * 8)))
        batches = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
        key = f"match-{uuid.uuid4().hex}"  # this run's strategies, made once in each worker process
        for future in as_completed([pool.submit(_play_in_worker, match, key, batch) for batch in batches]):
            finished(future.result())
    return records


def _play_in_worker(match: Match, key: str, deals: list[int]) -> list[GameRecord]:
    """In a worker process: play ``deals`` with the strategies made once there for this run."""
    strategies = made_once(key, match.make_strategies)
    return [record for deal in deals for record in match.play_deal(deal, strategies)]


__all__ = ["Duel", "Match", "play_all", "play_game", "run_duel"]
