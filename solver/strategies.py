"""Strategies: how a seat of a played game chooses its moves, and the text that names one.

A strategy is named by a spec (:func:`parse_strategy`): a kind and its options, ``solver:depth=3``.
The built-in kinds fit every game of the kind they are for:

* games where players take turns: ``random`` (a legal move chosen uniformly), ``greedy`` (the best
  progress move by a depth-1 search, :meth:`~dicetree.solver.game.Game.is_progress`, else the best one-ply
  move by the game's evaluation), ``solver:depth=N`` (the depth-N search's best move, default 2;
  ``ms=N`` gives it N milliseconds a move instead, see below; with three or more players also
  ``search=maxn`` or ``search=paranoid``, :mod:`dicetree.solver.multiplayer`, default paranoid) and
  ``exact[:max_states=N,fallback=D]`` (the exact solver's move where the position's state graph has
  at most N states, default 20,000; else ``solver:depth=D``, default 2, and counted);
* games where players choose at once: ``random`` (any of the player's options) and
  ``solver:depth=N`` (the simultaneous search's optimal mixed strategy sampled, default depth 1).

A game adds kinds of its own, or replaces a built-in one of the same name, through
:meth:`~dicetree.solver.game.Game.strategies` (a tuple of :class:`StrategyKind`).

**A time a move.** ``ms=N`` (:data:`MS_OPTION`, 0 = none, the default) gives a search-based kind N
milliseconds of wall time a move, as ``best --time`` and ``play`` search: iterative deepening until the
time is up, the answer of the deepest depth completed, ``depth`` then being the deepest it may go
(``solver:depth=12,ms=100`` for no practical cap; depth 1 always completes, whatever the time). Wall
time depends on the machine and its load, so a timed duel is **not reproducible game for game** (the
same seed can give other games), and two timed strategies should not share the machine with other
work (nor ``--jobs`` processes with each other) when their strength is compared. A spec names ``ms``
only when it is set, so an untimed spec, its report and its log read as before.

**What a strategy sees.** In play (:func:`dicetree.solver.match.play_game`) a strategy is given its own
player's observation (:meth:`~dicetree.solver.game.Game.observe`: RolldownBeta hides the opponent's hand),
and the search-based kinds average their moves' values over the positions the observation allows
(:func:`dicetree.solver.analysis.analyse`, "perfect-information Monte Carlo"; ``hands=N`` positions at most,
sampled beyond). The word ``all-seeing`` among a spec's options (``solver:depth=2,all-seeing``) gives
the old play on the whole position, the hidden cards included, named so in every report.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> spec = parse_strategy("solver:depth=3", game)
    >>> str(spec), spec.option("depth"), spec.all_seeing
    ('solver:depth=3,hands=16', 3, False)
    >>> str(parse_strategy("solver:depth=3,all-seeing", game))
    'solver:depth=3,hands=16,all-seeing'
    >>> timed = parse_strategy("solver:depth=12,ms=100", game)
    >>> str(timed), timed.time_limit, spec.time_limit
    ('solver:depth=12,ms=100,hands=16', 0.1, None)
    >>> state = game.parse("d8:5,d6:2/d6:6,d4:4 a -/-")
    >>> greedy = make_strategy(game, "greedy")
    >>> game.action_name(state, greedy.choose(game, state, 0, game.legal_actions(state), random.Random(0)))
    'd8xd4'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dicetree.solver.game import Action, Game, GameError, State
from dicetree.solver.multiplayer import DEFAULT_SEARCH, SEARCH_HELP, SEARCHES, turn_searcher
from dicetree.solver.ranking import MoveValue
from dicetree.solver.rule_options import RuleOption, shorten


def check_searchable(game: Game) -> None:
    """:func:`dicetree.solver.search.check_searchable`, loading the search only when a strategy is checked."""
    from dicetree.solver.search import check_searchable as check

    check(game)


if TYPE_CHECKING:  # the searchers and the exact solver load when a strategy is made (numpy, scipy, networkx)
    from dicetree.solver.analysis import Analysis
    from dicetree.solver.exact import ExactSolution
    from dicetree.solver.search import SearchResult
    from dicetree.solver.simultaneous import SimultaneousResult

DEFAULT_SOLVER_DEPTH = 2
DEFAULT_SIMULTANEOUS_DEPTH = 1
DEFAULT_EXACT_STATES = 20_000
DEFAULT_MS = 0
"""No time a move: a search-based strategy searches to its ``depth`` (:data:`MS_OPTION`)."""
DEFAULT_HANDS = 16
"""Positions a search-based strategy averages over where its player's view hides information: few,
as it decides at every turn of every game (``best`` averages over many more)."""
ALL_SEEING = "all-seeing"


@dataclass(frozen=True)
class StrategySpec:
    """A strategy by kind with its options (every option of the kind, defaults filled in)."""

    kind: str
    options: tuple[tuple[str, int | str], ...] = ()
    all_seeing: bool = False
    """Plays on the whole position, what its player cannot see included (see the module notes)."""

    def __str__(self) -> str:
        items = [f"{key}={value}" for key, value in self.options] + (["all-seeing"] if self.all_seeing else [])
        return f"{self.kind}:" + ",".join(items) if items else self.kind

    def option(self, key: str, default: int | None = None) -> int:
        """A whole-number option's value (``default`` where the spec has none)."""
        value = dict(self.options).get(key, default)
        if value is None:
            raise GameError(f"strategy {self} has no option {key}")
        if not isinstance(value, int):
            raise GameError(f"strategy {self}: option {key} is {value}, not a number")
        return value

    def choice(self, key: str, default: str) -> str:
        """A choice option's value (``default`` where the spec has none: a game that does not read it)."""
        return str(dict(self.options).get(key, default))

    @property
    def time_limit(self) -> float | None:
        """Seconds a move from ``ms`` (:data:`MS_OPTION`), None where the spec sets none."""
        ms = self.option("ms", DEFAULT_MS)
        return ms / 1000 if ms else None


class Strategy(ABC):
    """How a seat plays: asked at each of its decisions for one of the player's options.

    A strategy object plays one or more seats of one game after another. Those that keep nothing
    between decisions that could change a choice say ``shareable``: then equal specs of a match
    share one object (a search-based one keeps caches and per-game state: one object a strategy).
    """

    shareable: bool = False
    all_seeing: bool = False
    """Given the whole position in play rather than its player's observation (set from the spec)."""

    def new_game(self, start: State | None) -> None:  # noqa: B027 - a hook: most strategies keep nothing
        """Called before each game with its start, or None where the start holds what the strategy
        may not see (strategies that keep per-game knowledge reset it)."""

    @abstractmethod
    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        """``player``'s move at ``state``, one of ``options`` (the legal actions where players take
        turns, the player's own options at a simultaneous node); ``rng`` is the strategy's own stream."""

    def take_fallbacks(self) -> int:
        """Decisions since the last call that could not be played as the strategy says (exact)."""
        return 0


@dataclass(frozen=True)
class StrategyKind:
    """A kind of strategy a spec may name: its integer ``options`` (rule-option records with their
    default and range), one line of ``help``, and ``make(game, spec)``, which builds one for a game.
    ``check(game)`` (if given) refuses, in one line, a game the kind does not fit."""

    name: str
    make: Callable[[Game, StrategySpec], Strategy]
    help: str
    options: tuple[RuleOption, ...] = ()
    check: Callable[[Game], None] | None = None
    hidden_options: tuple[RuleOption, ...] = ()
    """Options that only games with hidden information read (a spec has them only there)."""
    many_options: tuple[RuleOption, ...] = ()
    """Options that only games of three or more players read (a spec has them only there)."""
    quiet_options: tuple[RuleOption, ...] = ()
    """Options whose default means off (``ms=0``): a spec holds them only when set to something else, so
    specs, reports and logs that do not set them read as before the option existed."""

    def declared(self, hidden: bool = False, many: bool = False) -> tuple[RuleOption, ...]:
        """The options a spec of this kind may have (``hidden``: for a game that hides information;
        ``many``: for a game of three or more players)."""
        return (self.options + self.quiet_options + (self.hidden_options if hidden else ())
                + (self.many_options if many else ()))

    def usage(self, hidden: bool = False, many: bool = False) -> str:
        """``solver:depth=N``, ``exact[:max_states=N,fallback=N]`` (``hidden``: for a game that hides
        information, whose specs take :attr:`hidden_options` and ``all-seeing`` too; ``many``: for a
        game of three or more players, whose specs take :attr:`many_options`)."""
        options = self.declared(hidden, many)
        if not options:
            return self.name
        return f"{self.name}:" + ",".join(f"{option.name}={_placeholder(option)}" for option in options)

    def parse(self, text: str, rest: str, hidden: bool = False, many: bool = False) -> StrategySpec:
        """The spec with ``rest`` (``depth=3,reroll=1``) read over the defaults; ``hidden``: for a
        game that hides information (:attr:`hidden_options` and ``all-seeing`` allowed); ``many``:
        for a game of three or more players (:attr:`many_options` allowed)."""
        options = self.declared(hidden, many)
        declared = {option.name: option for option in options}
        values = {option.name: option.default for option in options}
        all_seeing = False
        for item in filter(None, rest.split(",")):
            if item == ALL_SEEING and hidden:
                all_seeing = True
                continue
            key, equals, value = item.partition("=")
            if key not in declared or not equals:
                known = ", ".join(f"{k}={_placeholder(o)}" for k, o in declared.items()) or "none"
                raise GameError(f"strategy '{shorten(text)}': unknown option '{shorten(item)}' "
                                f"(options of {self.name}: {known})")
            if declared[key].kind == "choice":
                if value not in declared[key].choices:
                    raise GameError(f"strategy '{shorten(text)}': {key} must be {' or '.join(declared[key].choices)}, "
                                    f"not '{shorten(value)}'")
                values[key] = value
                continue
            low, high = declared[key].low, declared[key].high
            assert low is not None and high is not None  # a strategy's options are whole numbers (int_option)
            if not value.isdigit() or not low <= int(value) <= high:
                raise GameError(f"strategy '{shorten(text)}': {key} must be a whole number from {low} to {high:,}, "
                                f"not '{shorten(value)}'")
            values[key] = int(value)
        for option in self.quiet_options:
            if values[option.name] == option.default:
                del values[option.name]
        return StrategySpec(self.name, tuple(values.items()), all_seeing)


def _placeholder(option: RuleOption) -> str:
    """What a usage line shows for an option's value: N for a number, the choices joined by '|'."""
    return "|".join(option.choices) if option.kind == "choice" else "N"


def int_option(name: str, default: int, low: int, high: int, help: str) -> RuleOption:
    """An integer option of a strategy kind."""
    return RuleOption(name, "int", default, help, low=low, high=high)


# ----- the built-in strategies --------------------------------------------------------------------
class RandomStrategy(Strategy):
    """One of the player's options, uniformly."""

    shareable = True

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(options))


class SolverStrategy(Strategy):
    """The best move of a depth-limited search (``depth`` from the spec; greedy uses depth 1); on a
    position with hidden information, of the search averaged over the ``hands`` positions it may be.
    With ``ms`` in the spec, the deepest search completed within that time a move, ``depth`` at most
    (see the module notes); :attr:`depths` counts the depths its answers reached."""

    def __init__(self, game: Game, spec: StrategySpec, depth: int | None = None):
        self.depth = depth if depth is not None else spec.option("depth", DEFAULT_SOLVER_DEPTH)
        self.time_limit = spec.time_limit
        self.hands = spec.option("hands", DEFAULT_HANDS) if game.game_type.hidden_information else 1
        search = spec.choice("search", DEFAULT_SEARCH) if game.num_players > 2 else None
        self.searcher = turn_searcher(game, search, cache_slots=2**18 if self.depth > 1 else 2**12)
        self.depths: Counter[int] = Counter()
        """How many answers reached each depth (under ``ms``, how deep its time let it go)."""

    def ranked(self, game: Game, state: State, depth: int, rng: random.Random) -> list[MoveValue]:
        """Every move of ``state`` ranked, best first (averaged over what the position hides)."""
        if self.all_seeing or not game.game_type.hidden_information:
            answer: SearchResult | Analysis = self.searcher.search(state, depth=depth, time_limit=self.time_limit)
        else:
            from dicetree.solver.analysis import analyse

            seed = rng.randrange(2**31)  # the strategy's own stream picks the sampled positions
            answer = analyse(game, state, depth=depth, time_limit=self.time_limit, searcher=self.searcher,
                             hands_exact=self.hands, hand_samples=self.hands, seed=seed)
        self.depths[answer.depth] += 1
        return answer.moves

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        return self.ranked(game, state, self.depth, rng)[0].action


class GreedyStrategy(SolverStrategy):
    """The best progress move (:meth:`~dicetree.solver.game.Game.is_progress`: a capture, say) if there is
    one, else the best one-ply move."""

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec, depth=1)

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        moves = self.ranked(game, state, 1, rng)  # best first
        return next((move.action for move in moves if game.is_progress(state, move.action)), moves[0].action)


class ExactStrategy(Strategy):
    """The exact solver's move where the position is small enough, else a search's (counted).

    A solution covers every state reachable from the position it was solved from, so each game
    first tries to solve its start (then every decision of the game is exact), and otherwise the
    position at each decision until one is small enough. Solutions (and positions found too large)
    are remembered by the position solved, so the games of a deal, or every game from a given
    position, solve it once; what a game does depends only on its own moves, never on the games
    played before it (``--jobs`` relies on it).
    """

    REMEMBERED = 16

    def __init__(self, game: Game, spec: StrategySpec):
        self.game = game
        self.max_states = spec.option("max_states", DEFAULT_EXACT_STATES)
        self.fallback = SolverStrategy(game, spec, depth=spec.option("fallback", DEFAULT_SOLVER_DEPTH))
        self.solution: ExactSolution | None = None
        self.start: State | None = None
        self.fallbacks = 0
        self._solved: OrderedDict[Hashable, ExactSolution] = OrderedDict()
        self._too_large: OrderedDict[Hashable, None] = OrderedDict()

    def new_game(self, start: State | None) -> None:
        self.solution, self.start = None, start

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        if game.game_type.hidden_information and len(game.determinize(state, max_exact=2, samples=2).states) > 1:
            self.fallbacks += 1  # the position hides something: no one solution is the game's
            return self.fallback.choose(game, state, player, options, rng)
        if self.start is not None:  # the game's first decision: try to solve the whole game
            self.solution, self.start = self._solve(self.start), None
        if self.solution is None or game.key(state) not in self.solution.graph.index:
            self.solution = self._solve(state)
            if self.solution is None:
                self.fallbacks += 1
                return self.fallback.choose(game, state, player, options, rng)
        return self.solution.best_action(state)

    def _solve(self, state: State) -> ExactSolution | None:
        key = self.game.key(state)
        if key in self._solved:
            self._solved.move_to_end(key)
            return self._solved[key]
        if key in self._too_large:
            return None
        from dicetree.solver.exact import solve

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


class SimultaneousSolverStrategy(Strategy):
    """The depth-N :class:`~dicetree.solver.simultaneous.SimultaneousSearcher` search at each simultaneous
    node, the player's optimal mixed strategy sampled (3+ players: the paranoid reduction's). One
    object may play several seats: the seats of one node share its search."""

    shareable = True

    def __init__(self, game: Game, spec: StrategySpec):
        from dicetree.solver.simultaneous import SimultaneousSearcher

        self.depth = spec.option("depth", DEFAULT_SIMULTANEOUS_DEPTH)
        self.searcher = SimultaneousSearcher(game, cache_limit=200_000)
        self._last: tuple[Hashable, SimultaneousResult] | None = None

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        key = game.key(state)
        if self._last is None or self._last[0] != key:
            self._last = (key, self.searcher.search(state, depth=self.depth))
        from dicetree.solver.simultaneous import sample_choice

        return sample_choice(self._last[1], player, rng)


def depth_option(default: int) -> RuleOption:
    """The ``depth`` option of a search-based kind."""
    return int_option("depth", default, 1, 12, "decisions searched (with ms, the deepest searched)")


MS_OPTION = int_option("ms", DEFAULT_MS, 0, 600_000,
                       "milliseconds of wall time a move, 0 for none: iterative deepening within it, depth the "
                       "deepest (a timed duel is not reproducible game for game)")
"""The ``ms`` option of the search-based kinds (a :attr:`StrategyKind.quiet_options`: see the module notes)."""


SEARCH_OPTION = RuleOption("search", "choice", DEFAULT_SEARCH, SEARCH_HELP, choices=SEARCHES)
"""The ``search`` option of the search-based kinds (read only by games of three or more players)."""

HANDS_OPTION = int_option("hands", DEFAULT_HANDS, 1, 10_000,
                          "positions averaged where the game hides information (enumerated up to N, else N sampled)")
"""The ``hands`` option of the search-based kinds (read only by games with hidden information)."""

TURN_KINDS = (
    StrategyKind("random", lambda game, spec: RandomStrategy(), "a legal move, uniformly"),
    StrategyKind("greedy", GreedyStrategy, "the best progress move, else the best one-ply move",
                 check=check_searchable, hidden_options=(HANDS_OPTION,)),
    StrategyKind("solver", SolverStrategy, "the depth-N search's best move (with ms=N: N ms a move, at most depth N)",
                 (depth_option(DEFAULT_SOLVER_DEPTH),), check=check_searchable, hidden_options=(HANDS_OPTION,),
                 many_options=(SEARCH_OPTION,), quiet_options=(MS_OPTION,)),
    StrategyKind("exact", ExactStrategy, "the exact solver's move where at most max_states states, else "
                 "solver:depth=fallback",
                 (int_option("max_states", DEFAULT_EXACT_STATES, 1, 50_000_000, "states solved at most"),
                  int_option("fallback", DEFAULT_SOLVER_DEPTH, 1, 12, "the search's depth elsewhere")),
                 check=check_searchable, many_options=(SEARCH_OPTION,)),
)
"""The built-in kinds for games where players take turns."""

SIMULTANEOUS_KINDS = (
    StrategyKind("random", lambda game, spec: RandomStrategy(), "any of the player's options, uniformly"),
    StrategyKind("solver", SimultaneousSolverStrategy, "the simultaneous search's mixed strategy, sampled",
                 (depth_option(DEFAULT_SIMULTANEOUS_DEPTH),)),
)
"""The built-in kinds for games where players choose at once."""


def strategy_kinds(game: Game | None) -> dict[str, StrategyKind]:
    """The kinds a spec may name for ``game``: the built-in ones for its type, then its own
    (:meth:`~dicetree.solver.game.Game.strategies`; one of the same name replaces the built-in). Without a
    game: the built-in kinds for games where players take turns."""
    simultaneous = game is not None and game.game_type.simultaneous
    kinds = {kind.name: kind for kind in (SIMULTANEOUS_KINDS if simultaneous else TURN_KINDS)}
    if game is not None:
        kinds.update((kind.name, kind) for kind in game.strategies())
    return kinds


def strategy_names(game: Game | None) -> str:
    """The kinds of :func:`strategy_kinds` as a spec would name them, for help and errors.

    >>> strategy_names(None)
    'random, greedy, solver:depth=N,ms=N, exact:max_states=N,fallback=N'
    """
    hidden = game is not None and game.game_type.hidden_information
    many = game is not None and game.num_players > 2
    names = ", ".join(kind.usage(hidden, many) for kind in strategy_kinds(game).values())
    return names + f" (each may add ',{ALL_SEEING}': it then sees the hidden cards)" if hidden else names


def parse_strategy(text: str, game: Game | None = None) -> StrategySpec:
    """The spec ``text`` names, every option of its kind filled in (one line if it names no kind of
    :func:`strategy_kinds`, has an unknown option or a value out of range, or the kind does not fit
    the game).

    >>> str(parse_strategy("solver:depth=3")), str(parse_strategy("exact:fallback=1"))
    ('solver:depth=3', 'exact:max_states=20000,fallback=1')
    >>> parse_strategy("minimax")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: unknown strategy 'minimax': choose random, greedy, solver:depth=N,ms=N, exact:max_states=N,fallback=N
    """
    kinds = strategy_kinds(game)
    name, _, rest = text.strip().partition(":")
    if name not in kinds:
        raise GameError(f"unknown strategy '{shorten(text)}': choose {strategy_names(game)}")
    kind = kinds[name]
    if game is not None and kind.check is not None:
        kind.check(game)
    return kind.parse(text, rest, hidden=game is not None and game.game_type.hidden_information,
                      many=game is not None and game.num_players > 2)


def make_strategy(game: Game, spec: StrategySpec | str) -> Strategy:
    """A strategy object for ``game`` from its spec (text is parsed first)."""
    spec = parse_strategy(spec, game) if isinstance(spec, str) else spec
    kinds = strategy_kinds(game)
    if spec.kind not in kinds:
        raise GameError(f"unknown strategy '{spec}': choose {strategy_names(game)}")
    strategy = kinds[spec.kind].make(game, spec)
    if spec.all_seeing:  # only games with hidden information allow it (a game's own kinds may be frozen)
        strategy.all_seeing = True
    return strategy


__all__ = [
    "DEFAULT_EXACT_STATES", "DEFAULT_MS", "DEFAULT_SIMULTANEOUS_DEPTH", "MS_OPTION", "DEFAULT_SOLVER_DEPTH", "ExactStrategy", "GreedyStrategy",
    "RandomStrategy", "SIMULTANEOUS_KINDS", "SimultaneousSolverStrategy", "SolverStrategy", "Strategy",
    "StrategyKind", "StrategySpec", "TURN_KINDS", "depth_option", "int_option", "make_strategy", "parse_strategy",
    "strategy_kinds", "strategy_names",
]
