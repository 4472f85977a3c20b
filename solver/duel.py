"""Duels: two strategies play many games against each other, with common random numbers.

Strategies (:func:`parse_strategy` reads them from text):

* ``random`` — a legal move chosen uniformly;
* ``greedy`` — a capture when there is one (the best of them), else the best one-ply move by the
  game's evaluation (a depth-1 :class:`~solver.search.Searcher` search);
* ``solver:depth=N`` — the depth-N search's best move (default depth 2);
* ``exact[:max_states=N,fallback=D]`` — the exact solver's recommended move
  (:func:`solver.exact.solve`) where the position's state graph has at most N states (default
  20,000); larger positions (or ones with a chance node too large to list) are played by
  ``solver:depth=D`` (default 2) and counted, and the report says how many.

Every strategy sees the whole position, both hands included (perfect information).

**Common random numbers.** Deal ``i`` (a random round start from ``seed``, or the given position)
is played twice with the seats swapped: A plays player 0 in the first game and player 1 in the
second. Both games use the same start and the same stream of chance outcomes (a
``random.Random`` seeded from the seed and the deal), so the luck of the dice largely cancels and
the difference that remains is the strategies'. The confidence interval is computed over deals
(each deal's mean score is one observation), which is what the pairing buys: a narrower interval
than the same number of independent games.

**Parallel and deterministic.** Each deal depends only on the seed and its index, so ``jobs``
worker processes give the same games and the same result as one.

Usage::

    >>> from solver.games import load_game
    >>> game = load_game("rolldown")
    >>> result = run_duel(game, "greedy", "random", games=4, seed=1,
    ...                   start=game.parse("d8:5,d6:2/d6:3,d4:4 a -/-"))
    >>> result.games, len(result.records)
    (4, 4)
    >>> 0 <= result.rate <= 1
    True
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING

from solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, State
from solver.search import Searcher

if TYPE_CHECKING:
    from solver.exact import ExactSolution

STRATEGIES = "random, greedy, solver:depth=N, exact[:max_states=N,fallback=D]"
DEFAULT_SOLVER_DEPTH = 2
DEFAULT_EXACT_STATES = 20_000
MAX_DECISIONS = 2_000
"""A game still running after this many decisions is stopped and counted as a draw."""
CONFIDENCE = 0.95


# ----- strategies ------------------------------------------------------------------------------
def _rolldown_capture(game: Game, state: State, action: Action) -> bool:
    from solver.games.rolldown.rules import CAPTURE

    return action[0] == CAPTURE


CAPTURE_TESTS: dict[str, Callable[[Game, State, Action], bool]] = {"rolldown": _rolldown_capture}
"""Per game: is this move a capture? (``greedy`` prefers captures where the game has them.)"""


@dataclass(frozen=True)
class StrategySpec:
    """A strategy by name with its options, e.g. ``solver:depth=3``."""

    kind: str
    options: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        if not self.options:
            return self.kind
        return f"{self.kind}:" + ",".join(f"{key}={value}" for key, value in self.options)

    def option(self, key: str, default: int) -> int:
        return dict(self.options).get(key, default)


_OPTIONS: dict[str, dict[str, int]] = {
    "random": {},
    "greedy": {},
    "solver": {"depth": DEFAULT_SOLVER_DEPTH},
    "exact": {"max_states": DEFAULT_EXACT_STATES, "fallback": DEFAULT_SOLVER_DEPTH},
}
_LIMITS = {"reroll": (0, 1), "depth": (1, 12), "fallback": (1, 12), "max_states": (1, 50_000_000)}


def parse_strategy(text: str, kinds: dict[str, dict[str, int]] | None = None, names: str = STRATEGIES) -> StrategySpec:
    """``random``, ``greedy``, ``solver:depth=3``, ``exact:max_states=5000,fallback=1`` (or a kind
    of ``kinds``, with its options and their defaults; ``names`` lists them for the error).

    >>> str(parse_strategy("solver:depth=3")), str(parse_strategy("solver"))
    ('solver:depth=3', 'solver:depth=2')
    """
    kinds = _OPTIONS if kinds is None else kinds
    kind, _, rest = text.strip().partition(":")
    if kind not in kinds:
        raise GameError(f"unknown strategy '{text}': choose {names}")
    options = dict(kinds[kind])
    for item in filter(None, rest.split(",")):
        key, equals, value = item.partition("=")
        if key not in options or not equals:
            known = ", ".join(f"{k}=N" for k in options) or "none"
            raise GameError(f"strategy '{text}': unknown option '{item}' (options of {kind}: {known})")
        low, high = _LIMITS[key]
        if not value.isdigit() or not low <= int(value) <= high:
            raise GameError(f"strategy '{text}': {key} must be a whole number from {low} to {high:,}, not '{value}'")
        options[key] = int(value)
    return StrategySpec(kind, tuple(options.items()))


class Strategy(ABC):
    """Chooses a move for the player to move; sees the whole state."""

    def __init__(self, game: Game, spec: StrategySpec):
        self.game, self.spec = game, spec

    def new_game(self, start: State) -> None:
        """Called before each game with its start (strategies that keep per-game knowledge reset it)."""

    @abstractmethod
    def choose(self, state: State, rng: random.Random) -> Action:
        """The move at ``state`` (``rng`` is this player's own stream for this game)."""

    def take_fallbacks(self) -> int:
        """Decisions since the last call that could not be played as the strategy says (exact)."""
        return 0


class RandomStrategy(Strategy):
    def choose(self, state: State, rng: random.Random) -> Action:
        return rng.choice(list(self.game.legal_actions(state)))


class SolverStrategy(Strategy):
    """The best move of a depth-limited search (``depth`` from the spec; greedy uses depth 1)."""

    def __init__(self, game: Game, spec: StrategySpec, depth: int | None = None):
        super().__init__(game, spec)
        self.depth = depth if depth is not None else spec.option("depth", DEFAULT_SOLVER_DEPTH)
        self.searcher = Searcher(game, cache_slots=2**18 if self.depth > 1 else 2**12)

    def choose(self, state: State, rng: random.Random) -> Action:
        return self.searcher.search(state, depth=self.depth).best.action


class GreedyStrategy(SolverStrategy):
    """The best capture if there is one, else the best one-ply move."""

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec, depth=1)
        self.is_capture = CAPTURE_TESTS.get(game.name)

    def choose(self, state: State, rng: random.Random) -> Action:
        moves = self.searcher.search(state, depth=1).moves
        if self.is_capture is not None:
            for move in moves:  # best first
                if self.is_capture(self.game, state, move.action):
                    return move.action
        return moves[0].action


class ExactStrategy(Strategy):
    """The exact solver's move where the position is small enough, else a search's (counted).

    A solution covers every state reachable from the position it was solved from, so each game
    first tries to solve its start (then every decision of the game is exact), and otherwise the
    position at each decision until one is small enough. Solutions (and positions found too large)
    are remembered by the position solved, so the two games of a deal, or every game from a given
    position, solve it once; what a game does depends only on its own moves, never on the games
    played before it (``--jobs`` relies on it).
    """

    REMEMBERED = 16

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec)
        self.max_states = spec.option("max_states", DEFAULT_EXACT_STATES)
        self.fallback = SolverStrategy(game, spec, depth=spec.option("fallback", DEFAULT_SOLVER_DEPTH))
        self.solution: ExactSolution | None = None
        self.start: State | None = None
        self.fallbacks = 0
        self._solved: OrderedDict[Hashable, ExactSolution] = OrderedDict()
        self._too_large: OrderedDict[Hashable, None] = OrderedDict()

    def new_game(self, start: State) -> None:
        self.solution, self.start = None, start

    def choose(self, state: State, rng: random.Random) -> Action:
        if self.start is not None:  # the game's first decision: try to solve the whole game
            self.solution, self.start = self._solve(self.start), None
        if self.solution is None or self.game.key(state) not in self.solution.graph.index:
            self.solution = self._solve(state)
            if self.solution is None:
                self.fallbacks += 1
                return self.fallback.choose(state, rng)
        return self.solution.best_action(state)

    def _solve(self, state: State) -> ExactSolution | None:
        from solver.exact import solve

        key = self.game.key(state)
        if key in self._solved:
            self._solved.move_to_end(key)
            return self._solved[key]
        if key in self._too_large:
            return None
        try:
            solution = solve(self.game, state, max_states=self.max_states)
        except GameError:  # too many states, or a chance node that can only be sampled
            _remember(self._too_large, key, None, 100 * self.REMEMBERED)
            return None
        _remember(self._solved, key, solution, self.REMEMBERED)
        return solution

    def take_fallbacks(self) -> int:
        count, self.fallbacks = self.fallbacks, 0
        return count


def _remember(memory: OrderedDict, key: Hashable, value: object, size: int) -> None:
    memory[key] = value
    if len(memory) > size:
        memory.popitem(last=False)


def make_strategy(game: Game, spec: StrategySpec | str) -> Strategy:
    """A strategy object for ``game`` from its spec."""
    spec = parse_strategy(spec) if isinstance(spec, str) else spec
    kinds: dict[str, Callable[[Game, StrategySpec], Strategy]] = {
        "random": RandomStrategy, "greedy": GreedyStrategy, "solver": SolverStrategy, "exact": ExactStrategy,
    }
    return kinds[spec.kind](game, spec)


# ----- playing ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """One game of a duel: ``a_seat`` is the player A played; ``a_score`` 1, 1/2 or 0."""

    deal: int
    a_seat: int
    a_score: float
    a_return: float
    decisions: tuple[int, int]  # (A's, B's)
    thinking: tuple[float, float]  # seconds (A's, B's)
    fallbacks: tuple[int, int]  # exact: decisions played by the fallback search
    capped: bool  # stopped after MAX_DECISIONS, counted as a draw


@dataclass(frozen=True)
class Duel:
    """A duel, checked when made: ``games`` (even: ``games / 2`` deals, each played twice with
    the seats swapped) of strategy ``a`` against ``b`` from random round starts
    (``game.new_match``) or from ``start``. Picklable: worker processes get a copy.

    >>> from solver.games import load_game
    >>> Duel(load_game("rolldown"), "greedy", "random", games=3)
    Traceback (most recent call last):
    ...
    solver.game.GameError: --games must be even and at least 2 (each deal is played twice, seats swapped), not 3
    """

    game: Game
    a: StrategySpec | str
    b: StrategySpec | str
    games: int
    seed: int = 0
    start: State | None = None
    max_decisions: int = MAX_DECISIONS

    def __post_init__(self) -> None:
        for name in ("a", "b"):
            spec = getattr(self, name)
            if isinstance(spec, str):
                object.__setattr__(self, name, parse_strategy(spec))
        game = self.game
        if self.games < 2 or self.games % 2:
            raise GameError(
                f"--games must be even and at least 2 (each deal is played twice, seats swapped), not {self.games}"
            )
        if game.num_players != 2:
            raise GameError(f"duels are for two-player games; {game.name} has {game.num_players} players")
        if self.start is None and not callable(getattr(game, "new_match", None)):
            raise GameError(f"{game.name} has no random round starts: give a position")
        if self.start is not None and game.current_player(self.start) == TERMINAL:
            raise GameError(f"the game is over at '{game.format(self.start)}': there is nothing to play")

    @property
    def deals(self) -> int:
        return self.games // 2

    def make_strategies(self) -> tuple[Strategy, Strategy]:
        return make_strategy(self.game, self.a), make_strategy(self.game, self.b)

    def play_deal(self, deal: int, strategies: tuple[Strategy, Strategy]) -> list[GameRecord]:
        return play_deal(self, deal, strategies)

    def run(self, jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> DuelResult:
        """Play every game in ``jobs`` processes (the same result for any ``jobs``);
        ``on_progress(n)`` is called as ``n`` more games end."""
        started = time.perf_counter()
        records = play_all(self, jobs, on_progress)
        records.sort(key=lambda r: (r.deal, r.a_seat))
        result = DuelResult(
            game_name=self.game.name, spec_a=self.a, spec_b=self.b, seed=self.seed,
            start=self.game.format(self.start) if self.start is not None else "", records=records, jobs=jobs,
            elapsed=time.perf_counter() - started, objective=getattr(self.game, "objective", ""),
        )
        capped = sum(r.capped for r in records)
        if capped:
            result.notes.append(
                f"{capped} game(s) still running after {self.max_decisions:,} decisions were counted as draws"
            )
        return result


def _start_of(duel: Duel, deal: int) -> State:
    """The deal's start: a random round start, or the given position (unknown cards dealt)."""
    rng = random.Random(f"{duel.seed}:start:{deal}")
    game = duel.game
    if duel.start is None:
        return game.new_match(rng=rng)
    deals = game.determinize(duel.start, max_exact=0, samples=1, seed=rng.randrange(2**31))
    return deals.states[0]


def play_deal(duel: Duel, deal: int, strategies: tuple[Strategy, Strategy]) -> list[GameRecord]:
    """Both games of a deal (A as player 0, then as player 1), with the same chance stream."""
    start = _start_of(duel, deal)
    return [play_game(duel, deal, start, a_seat, strategies) for a_seat in (0, 1)]


def play_game(duel: Duel, deal: int, start: State, a_seat: int,
              strategies: tuple[Strategy, Strategy]) -> GameRecord:
    """One game of ``duel`` from ``start`` with strategy A as player ``a_seat``; chance draws from
    the deal's own stream (``seed:dice:deal``), so games of one deal see the same dice."""
    game = duel.game
    dice = random.Random(f"{duel.seed}:dice:{deal}")  # the same in both games of the deal
    seats = (strategies[0], strategies[1]) if a_seat == 0 else (strategies[1], strategies[0])
    rngs = tuple(random.Random(f"{duel.seed}:{'AB'[s]}:{deal}:{a_seat}") for s in (0, 1))
    for strategy in strategies:
        strategy.new_game(start)
    decisions, thinking = [0, 0], [0.0, 0.0]
    state, capped = start, False
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, dice))
            continue
        if player == SIMULTANEOUS or player not in (0, 1):
            raise GameError("duels are for two players taking turns")
        if sum(decisions) >= duel.max_decisions:
            capped = True
            break
        side = 0 if player == a_seat else 1  # 0: strategy A, 1: strategy B
        started = time.perf_counter()
        action = seats[player].choose(state, rngs[side])
        thinking[side] += time.perf_counter() - started
        decisions[side] += 1
        state = game.apply(state, action)
    if capped:  # a draw
        bounds = game.value_bounds()
        score, a_return = 0.5, (bounds.low + bounds.high) / 2
    else:
        returns = game.returns(state)
        a_return, b_return = returns[a_seat], returns[1 - a_seat]
        score = 1.0 if a_return > b_return else 0.0 if a_return < b_return else 0.5
    return GameRecord(
        deal=deal, a_seat=a_seat, a_score=score, a_return=float(a_return), decisions=(decisions[0], decisions[1]),
        thinking=(thinking[0], thinking[1]), fallbacks=(strategies[0].take_fallbacks(), strategies[1].take_fallbacks()),
        capped=capped,
    )


def play_all(match: Duel | Match, jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> list:
    """Every deal of ``match`` (a :class:`Duel` or a :class:`Match`: anything with ``deals``,
    ``make_strategies()`` and ``play_deal(deal, strategies)``) in ``jobs`` processes; the records in
    the order they came (each deal depends only on the seed and its index: the same for any ``jobs``).
    ``on_progress(n)`` is called as ``n`` more games end."""
    if jobs < 1:
        raise GameError(f"--jobs must be at least 1, not {jobs}")
    records: list = []
    report = on_progress or (lambda n: None)
    if jobs == 1:
        strategies = match.make_strategies()
        for deal in range(match.deals):
            played = match.play_deal(deal, strategies)
            records.extend(played)
            report(len(played))
        return records
    chunk = max(1, min(8, match.deals // (jobs * 8)))
    batches = [list(range(i, min(i + chunk, match.deals))) for i in range(0, match.deals, chunk)]
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(match,)) as pool:
        for future in as_completed([pool.submit(_play_in_worker, batch) for batch in batches]):
            played = future.result()
            records.extend(played)
            report(len(played))
    return records


# Worker processes build their strategies once (per process), then play the deals they are sent.
_worker: tuple[Duel | Match, tuple[Strategy, ...]] | None = None


def _init_worker(match: Duel | Match) -> None:
    global _worker
    _worker = (match, match.make_strategies())


def _play_in_worker(deals: list[int]) -> list:
    assert _worker is not None
    match, strategies = _worker
    return [record for deal in deals for record in match.play_deal(deal, strategies)]


# ----- results ---------------------------------------------------------------------------------
@dataclass
class DuelResult:
    """All games of a duel, A's win rate and its confidence interval (see the module notes)."""

    game_name: str
    spec_a: StrategySpec
    spec_b: StrategySpec
    seed: int
    start: str  # the position, or '' for random round starts
    records: list[GameRecord]
    jobs: int
    elapsed: float
    objective: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def deals(self) -> int:
        return self.games // 2

    @property
    def score(self) -> float:
        """A's points: a win 1, a draw 1/2."""
        return math.fsum(r.a_score for r in self.records)

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    def deal_scores(self) -> list[float]:
        """A's mean score in each deal (0, 1/4 .. 1), in deal order."""
        by_deal: dict[int, list[float]] = {}
        for record in self.records:
            by_deal.setdefault(record.deal, []).append(record.a_score)
        return [sum(scores) / len(scores) for _, scores in sorted(by_deal.items())]

    def _deal_mean_and_spread(self) -> tuple[float, float, int]:
        return mean_and_spread(self.deal_scores())

    @property
    def paired(self) -> bool:
        """Whether :attr:`interval` is the paired one (the deals' scores vary, so their spread
        can be estimated)."""
        return self._deal_mean_and_spread()[1] > 0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of A's win rate over deals (Student's t on the deals' mean
        scores). Where every deal scored the same there is no spread to estimate: the Wilson
        interval of the games instead."""
        return deal_interval(self.deal_scores(), self.score, self.games)

    @property
    def unpaired_interval(self) -> tuple[float, float]:
        """The Wilson score interval treating every game as independent (for comparison)."""
        return wilson_interval(self.score, self.games)

    @property
    def significant(self) -> bool:
        low, high = self.interval
        return not low <= 0.5 <= high

    def by_seat(self, a_seat: int) -> tuple[float, int]:
        """A's points and games when A played player ``a_seat``."""
        mine = [r for r in self.records if r.a_seat == a_seat]
        return math.fsum(r.a_score for r in mine), len(mine)

    def deal_outcomes(self) -> tuple[int, int, int]:
        """Deals A won both games of, deals split (or drawn), deals B won both of."""
        scores = self.deal_scores()
        return sum(s == 1 for s in scores), sum(0 < s < 1 for s in scores), sum(s == 0 for s in scores)


def mean_and_spread(scores: list[float]) -> tuple[float, float, int]:
    """The mean, the sample standard deviation and the number of ``scores``."""
    n = len(scores)
    mean = math.fsum(scores) / n if n else 0.0
    spread = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    return mean, spread, n


def deal_interval(deal_scores: list[float], points: float, games: int) -> tuple[float, float]:
    """The 95% interval of a score rate paired by deal: Student's t on the deals' mean scores; where
    every deal scored the same (no spread to estimate), the Wilson interval of ``points`` in ``games``."""
    mean, spread, n = mean_and_spread(deal_scores)
    if spread == 0:
        return wilson_interval(points, games)
    from scipy.stats import t

    half = float(t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * spread / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def wilson_interval(successes: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ----- running ---------------------------------------------------------------------------------
def run_duel(
    game: Game,
    a: StrategySpec | str,
    b: StrategySpec | str,
    *,
    games: int,
    seed: int = 0,
    start: State | None = None,
    jobs: int = 1,
    max_decisions: int = MAX_DECISIONS,
    on_progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """``Duel(...).run(jobs, on_progress)`` in one call (see :class:`Duel`)."""
    duel = Duel(game, a, b, games=games, seed=seed, start=start, max_decisions=max_decisions)
    return duel.run(jobs=jobs, on_progress=on_progress)


def format_duel(result: DuelResult) -> str:
    """The duel's report: setup, the common-random-numbers note, A's win rate with its interval."""
    a, b = str(result.spec_a), str(result.spec_b)
    objective = f" (objective {result.objective})" if result.objective else ""
    starts = f"from the position {result.start}" if result.start else "from random round starts"
    low, high = result.interval
    u_low, u_high = result.unpaired_interval
    won2, split, lost2 = result.deal_outcomes()
    seat_a, seat_b = result.by_seat(0), result.by_seat(1)
    moves = [sum(r.decisions[s] for r in result.records) for s in (0, 1)]
    thinking = [math.fsum(r.thinking[s] for r in result.records) for s in (0, 1)]
    per_move = [1000 * thinking[s] / moves[s] if moves[s] else 0.0 for s in (0, 1)]
    length = sum(moves) / result.games
    if result.significant:
        verdict = f"A ({a}) is {'stronger' if result.rate > 0.5 else 'weaker'}: the 95% interval excludes 50%"
    else:
        verdict = "no significant difference: the 95% interval contains 50%"
    method = "paired by deal, Student's t" if result.paired else "Wilson interval of the games: every deal scored the same"
    lines = [
        f"Duel on {result.game_name}{objective}: A = {a}, B = {b}",
        f"{result.games:,} games {starts}: {result.deals:,} deals (seed {result.seed}), each played twice",
        "Common random numbers: both games of a deal have the same start and the same dice sequence (one seeded",
        "  stream per deal) with the seats swapped, so the dice's luck largely cancels between the strategies.",
        "Every strategy sees both hands (perfect information).",
        "",
        f"A won {_points(result.score)} of {result.games:,} games: {result.rate:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}, {method})",
        f"  as independent games the interval would be {u_low:.1%} to {u_high:.1%}",
        f"  A as player a: {_points(seat_a[0])}/{seat_a[1]:,}   as player b: {_points(seat_b[0])}/{seat_b[1]:,}",
        f"  deals won twice by A: {won2}, split: {split}, won twice by B: {lost2}",
        f"Verdict: {verdict}.",
        "",
        f"Moves: A {moves[0]:,} ({per_move[0]:.1f} ms each), B {moves[1]:,} ({per_move[1]:.1f} ms each); "
        f"{length:.1f} decisions a game; {result.elapsed:.1f} s with {result.jobs} process{'es' if result.jobs > 1 else ''}",
    ]
    for side, spec in ((0, result.spec_a), (1, result.spec_b)):
        if spec.kind == "exact":
            fallbacks = sum(r.fallbacks[side] for r in result.records)
            head = f"{'AB'[side]} = {spec}: "
            if not fallbacks:
                lines.append(head + f"every one of its {moves[side]:,} decisions was solved exactly")
                continue
            lines.append(
                head + f"{moves[side] - fallbacks:,} of {moves[side]:,} decisions solved exactly; {fallbacks:,} "
                f"positions were too large for exact solving (more than {spec.option('max_states', DEFAULT_EXACT_STATES):,} "
                f"states, or a chance node too large to list) and were played by "
                f"solver:depth={spec.option('fallback', DEFAULT_SOLVER_DEPTH)}"
            )
    lines += [f"Note: {note}" for note in result.notes]
    return "\n".join(lines)


def _points(score: float) -> str:
    return f"{score:g}" if score != int(score) else f"{int(score):,}"


# ----- games with simultaneous moves (Dice Fights): two or more strategies ------------------------
DEFAULT_SIMULTANEOUS_DEPTH = 1
SIMULTANEOUS_KINDS: dict[str, dict[str, int]] = {
    "random": {}, "greedy": {}, "attack": {}, "solver": {"depth": DEFAULT_SIMULTANEOUS_DEPTH, "reroll": 0},
    **{f"buy-{name}": {} for name in ("dice", "attack", "defense", "gold", "box", "random", "solver")},
}
SIMULTANEOUS_STRATEGIES = (
    "random, greedy (greedy buyer), attack (always-attack), solver:depth=N[,reroll=1] (the simultaneous "
    "search at purchase and target nodes, default depth 1; re-rolls kept unless reroll=1), buy-NAME (a fixed purchase policy: NAME dice, attack, defense, gold, box, random, solver)"
)


class SimultaneousStrategy(Strategy):
    """Chooses one player's option at a simultaneous node (sees the whole state)."""

    def choose(self, state: State, rng: random.Random) -> Action:
        raise GameError("this strategy plays games with simultaneous moves")

    @abstractmethod
    def choose_for(self, state: State, player: int, options: Sequence, rng: random.Random) -> Action:
        """``player``'s choice among ``options`` at the simultaneous node ``state``."""


class PolicyStrategy(SimultaneousStrategy):
    """A fixed policy of :mod:`solver.games.dicefights.policies`."""

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec)
        from solver.games.dicefights.policies import DUEL_POLICIES, POLICIES

        self.policy = POLICIES[spec.kind[4:]] if spec.kind.startswith("buy-") else DUEL_POLICIES[spec.kind]

    def choose_for(self, state: State, player: int, options: Sequence, rng: random.Random) -> Action:
        return self.policy.choose(self.game, state, player, options, rng)


class SimultaneousSolverStrategy(SimultaneousStrategy):
    """The depth-N :class:`~solver.simultaneous.SimultaneousSearcher` search at the purchase and
    target nodes, the player's optimal mixed strategy sampled (3+ players: the paranoid
    reduction's). Re-roll nodes are searched only with ``reroll=1``, else the dice are kept as by the
    fixed policies: a re-roll node's matrix grows with the dice (one search takes ~50 s with 9-11
    dice a side at depth 1), too slow for duels of many games."""

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec)
        from solver.simultaneous import SimultaneousSearcher

        self.depth = spec.option("depth", DEFAULT_SIMULTANEOUS_DEPTH)
        self.searcher = SimultaneousSearcher(game, cache_limit=200_000)
        self._last: tuple[Hashable, object] | None = None  # the seats of one node share its search
        self.search_rerolls = bool(spec.option("reroll", 0))

    def choose_for(self, state: State, player: int, options: Sequence, rng: random.Random) -> Action:
        from solver.games.dicefights.rules import KEEP, REROLL

        if state.phase == REROLL and not self.search_rerolls:
            return KEEP
        key = self.game.key(state)
        if self._last is None or self._last[0] != key:
            self._last = (key, self.searcher.search(state, depth=self.depth))
        from solver.simultaneous import sample_choice

        return sample_choice(self._last[1], player, rng)


def make_simultaneous_strategy(game: Game, spec: StrategySpec | str) -> SimultaneousStrategy:
    spec = parse_strategy(spec, SIMULTANEOUS_KINDS, SIMULTANEOUS_STRATEGIES) if isinstance(spec, str) else spec
    return SimultaneousSolverStrategy(game, spec) if spec.kind == "solver" else PolicyStrategy(game, spec)


@dataclass(frozen=True)
class MatchRecord:
    """One game of a match. ``seats[p]`` is the strategy (its index) in seat ``p``; per strategy:
    ``scores`` its points (the returns of its seats: a win 1, a shared win 1/k), ``decisions`` and
    ``thinking`` (seconds)."""

    deal: int
    rotation: int
    seats: tuple[int, ...]
    scores: tuple[float, ...]
    decisions: tuple[int, ...]
    thinking: tuple[float, ...]
    rounds: int
    stopped: bool  # still running after MAX_ROUNDS rounds: shared among the players still in


@dataclass(frozen=True)
class Match:
    """Two or more strategies in a game with simultaneous moves (Dice Fights), for any number of
    players, checked when made. With ``k`` strategies and ``n`` players (``k`` divides ``n``), the
    seats hold the strategies in turn (A B .. A B ..), and every deal is played ``k`` times with the
    strategies rotated one seat on (rotation ``r``: seat ``p`` plays strategy ``(p + r) mod k``), so
    each strategy plays every seat once per deal. The games of a deal share the start and one seeded
    dice stream (common random numbers; each strategy has its own choice stream). Two strategies and
    two players: exactly a :class:`Duel`'s seat swap.

    >>> from solver.games import load_game
    >>> Match(load_game("dicefights", players=4), ("greedy", "attack", "random"), games=6)
    Traceback (most recent call last):
    ...
    solver.game.GameError: 4 players need 2 or 4 strategies (each holds the same number of seats), not 3
    """

    game: Game
    specs: tuple[StrategySpec | str, ...]
    games: int
    seed: int = 0
    start: State | None = None

    def __post_init__(self) -> None:
        from solver.games.dicefights import DiceFights

        if not isinstance(self.game, DiceFights):
            raise GameError(f"duels of two or more strategies with simultaneous moves are for Dice Fights, not {self.game.name}")
        specs = tuple(parse_strategy(s, SIMULTANEOUS_KINDS, SIMULTANEOUS_STRATEGIES) if isinstance(s, str) else s
                      for s in self.specs)
        object.__setattr__(self, "specs", specs)
        n, k = self.game.num_players, len(specs)
        if k < 2 or n % k:
            counts = [str(d) for d in range(2, n + 1) if n % d == 0]
            choices = " or ".join(counts) if len(counts) < 3 else ", ".join(counts[:-1]) + " or " + counts[-1]
            raise GameError(f"{n} players need {choices} strategies (each holds the same number of seats), not {k}")
        if self.games < k or self.games % k:
            raise GameError(f"--games must be a multiple of {k} (each deal is played {k} times, seats rotated), "
                            f"not {self.games}")
        if self.start is not None and self.game.current_player(self.start) == TERMINAL:
            raise GameError(f"the game is over at '{self.game.format(self.start)}': there is nothing to play")

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

    def make_strategies(self) -> tuple[SimultaneousStrategy, ...]:
        made: dict[StrategySpec, SimultaneousStrategy] = {}  # equal specs share one (stateless between games)
        return tuple(made.setdefault(spec, make_simultaneous_strategy(self.game, spec)) for spec in self.specs)

    def play_deal(self, deal: int, strategies: tuple[SimultaneousStrategy, ...]) -> list[MatchRecord]:
        return [self._play_game(deal, rotation, strategies) for rotation in range(self.rotations)]

    def _play_game(self, deal: int, rotation: int, strategies: tuple[SimultaneousStrategy, ...]) -> MatchRecord:
        from solver.games.dicefights.policies import play_game

        k, seats = self.rotations, self.lineup(rotation)
        decisions, thinking = [0] * k, [0.0] * k
        rngs = [random.Random(f"{self.seed}:{'ABCDEF'[i]}:{deal}:{rotation}") for i in range(k)]

        class Seat:  # play_game's policy interface: the seat's strategy with its own stream and clock
            def __init__(self, index: int):
                self.index = index

            def choose(self, game, state, player, options, rng):
                started = time.perf_counter()
                action = strategies[self.index].choose_for(state, player, options, rngs[self.index])
                thinking[self.index] += time.perf_counter() - started
                decisions[self.index] += 1
                return action

        dice = random.Random(f"{self.seed}:dice:{deal}")  # the same in every game of the deal
        outcome = play_game(self.game, [Seat(i) for i in seats], dice, state=self.start, choice_rng=dice)
        scores = [0.0] * k
        for player, index in enumerate(seats):
            scores[index] += outcome.returns[player]
        return MatchRecord(deal, rotation, seats, tuple(scores), tuple(decisions), tuple(thinking),
                           outcome.rounds, outcome.stopped)

    def run(self, jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> MatchResult:
        """Play every game in ``jobs`` processes (the same result for any ``jobs``)."""
        started = time.perf_counter()
        records = play_all(self, jobs, on_progress)
        records.sort(key=lambda r: (r.deal, r.rotation))
        return MatchResult(self.game.name, self.game.num_players, self.specs, self.seed,
                           self.game.format(self.start) if self.start is not None else "", records, jobs,
                           time.perf_counter() - started)


@dataclass
class MatchResult:
    """All games of a match; each strategy's win share with its 95% interval paired by deal."""

    game_name: str
    players: int
    specs: tuple[StrategySpec, ...]
    seed: int
    start: str
    records: list[MatchRecord]
    jobs: int
    elapsed: float

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def deals(self) -> int:
        return self.games // len(self.specs)

    def points(self, index: int) -> float:
        return math.fsum(r.scores[index] for r in self.records)

    def share(self, index: int) -> float:
        """Strategy ``index``'s share of the wins (draws split): the shares add up to 1."""
        return self.points(index) / self.games if self.games else 0.0

    def fair_share(self, index: int) -> float:
        """Its seats over the players: 1/players with one strategy a seat."""
        return 1 / len(self.specs)

    def deal_scores(self, index: int) -> list[float]:
        by_deal: dict[int, list[float]] = {}
        for record in self.records:
            by_deal.setdefault(record.deal, []).append(record.scores[index])
        return [sum(scores) / len(scores) for _, scores in sorted(by_deal.items())]

    def interval(self, index: int) -> tuple[float, float]:
        """95% interval of the share over deals (Student's t; Wilson where every deal scored the same)."""
        return deal_interval(self.deal_scores(index), self.points(index), self.games)


def format_match(result: MatchResult) -> str:
    """The match's report: setup, how seats rotated, each strategy's share against the fair share."""
    k, n = len(result.specs), result.players
    letters = "ABCDEF"[:k]
    names = ", ".join(f"{letters[i]} = {spec}" for i, spec in enumerate(result.specs))
    starts = f"from the position {result.start}" if result.start else "from the start"
    rotations = ", ".join(" ".join(letters[(p + r) % k] for p in range(n)) for r in range(k))
    lines = [
        f"Duel on {result.game_name} ({n} players): {names}",
        f"{result.games:,} games {starts}: {result.deals:,} deals (seed {result.seed}), each played {k} times",
        f"Seats rotated cyclically, one seat on per game of a deal (seats P1..P{n}): {rotations};",
        "  so every strategy plays every seat equally often" + (f" (each holds {n // k} seats a game)." if n > k else "."),
        "Common random numbers: the games of a deal have the same start and one seeded dice stream (aligned",
        "  until the strategies' purchases make the dice counts differ); each strategy has its own choice stream.",
        "Every strategy sees the whole position. Shared wins are split: the shares add up to 100%.",
        "",
        f"{'strategy':<28} {'win share':>9}  {'95% CI':<15} {'fair share':>10}  verdict",
    ]
    for i, spec in enumerate(result.specs):
        share, (low, high), fair = result.share(i), result.interval(i), result.fair_share(i)
        verdict = "above fair" if low > fair else "below fair" if high < fair else "fair share within CI"
        lines.append(f"{letters[i] + ' ' + str(spec):<28} {share:>9.1%}  {low:>5.1%} to {high:<6.1%} {fair:>10.1%}  {verdict}")
    moves = [sum(r.decisions[i] for r in result.records) for i in range(k)]
    thinking = [math.fsum(r.thinking[i] for r in result.records) for i in range(k)]
    per_move = ", ".join(f"{letters[i]} {1000 * thinking[i] / moves[i] if moves[i] else 0:.2f}" for i in range(k))
    rounds = sum(r.rounds for r in result.records) / result.games
    lines += [
        "(95% CI: Student's t over the deals' mean scores; Wilson where every deal scored the same.)",
        "",
        f"Choices: {sum(moves):,} ({per_move} ms each); {rounds:.1f} rounds a game; "
        f"{result.elapsed:.1f} s with {result.jobs} process{'es' if result.jobs > 1 else ''}",
    ]
    stopped = sum(r.stopped for r in result.records)
    if stopped:
        lines.append(f"Note: {stopped} game(s) still running after 300 rounds were shared among the players still in")
    return "\n".join(lines)


__all__ = [
    "Match", "MatchRecord", "MatchResult", "SIMULTANEOUS_STRATEGIES", "format_match", "play_all",
    "Duel", "DuelResult", "GameRecord", "STRATEGIES", "Strategy", "StrategySpec", "format_duel", "make_strategy",
    "parse_strategy", "run_duel", "wilson_interval",
]
