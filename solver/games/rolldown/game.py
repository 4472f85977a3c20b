"""RolldownBeta as a :class:`dicetree.solver.game.Game`: its declared type and rule options, the rules
(inherited from :class:`~dicetree.solver.games.rolldown.rules.RolldownRules`, so the searches' hot path has
no delegation), and notation, evaluation, hidden hands and the hooks delegated to their modules.

>>> game = Rolldown()
>>> s = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
>>> game.action_name(s, game.legal_actions(s)[0]), game.player_name(s.mover)
('d8xd4', 'A')
>>> game.format(game.observe(s, 0)), game.format(game.observe(s, 1))
('d6:2,d8:5/d4:3,d6:6 a QK/-', 'd6:2,d8:5/d4:3,d6:6 a ??/- seen:b')
>>> len(game.determinize(game.observe(s, 1)).states)  # the hands A may hold, as B sees it
104
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from dicetree.solver.game import Deals, Game, GameError, GameType
from dicetree.solver.games.rolldown.board import board as draw_board
from dicetree.solver.games.rolldown.cards import UNKNOWN
from dicetree.solver.games.rolldown.evaluation import DEFAULT_EVALUATION, EVALUATIONS, Estimate
from dicetree.solver.games.rolldown.evaluation import evaluate as evaluate_position
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.hands import possible_hands
from dicetree.solver.games.rolldown.notation import action_name, format_position, notation_help, parse_position
from dicetree.solver.games.rolldown.network_kernel import DEFAULT_CLIP
from dicetree.solver.games.rolldown.rules import RolldownRules
from dicetree.solver.games.rolldown.state import (
    ACE_VARIANTS,
    CAPTURE,
    DECIDE,
    HORIZONS,
    NOBODY,
    OBJECTIVE_SUMS,
    OBJECTIVES,
    RolldownState,
)
from dicetree.solver.rule_options import RuleOption
from dicetree.solver.strategies import (DEFAULT_SOLVER_DEPTH, MS_OPTION, SolverStrategy, StrategyKind, StrategySpec,
                                         depth_option)

if TYPE_CHECKING:  # tables, the study and the network load numpy: they load when asked for, not with the game
    from dicetree.solver.games.rolldown.network import NetworkModel
    from dicetree.solver.games.rolldown.study import EndgameStudy
    from dicetree.solver.games.rolldown.tablebase import Tablebase


class Rolldown(RolldownRules, Game):
    """RolldownBeta with fixed rule options.

    >>> Rolldown(objective="points").game_type.constant_sum, Rolldown().value_bounds()
    (0.0, ValueBounds(low=0.0, high=1.0))
    """

    game_type = GameType(
        short_name="rolldown", long_name="RolldownBeta", hidden_information=True, constant_sum=1.0,
        objectives=OBJECTIVES, exact_values="endgame tables", study="endgame study",
    )
    rule_options = (
        RuleOption("ace", "choice", "online", "the Ace: own die to its top face or an opponent's to 1 (online), "
                   "or either end on any die (printed)", choices=ACE_VARIANTS),
        RuleOption("objective", "choice", "round", "what a value means: winning the round, the round's expected "
                   "signed points (first50, nine), or winning the match", choices=OBJECTIVES),
        RuleOption("exact_chance_limit", "int", 4096, "chance nodes with more outcomes are sampled, not listed",
                   low=1, high=10**9),
        RuleOption("evaluation", "choice", DEFAULT_EVALUATION, "the search's leaf evaluation: the value network "
                   "learned from the tables (network: the strongest at equal time), a logistic model fitted to exact "
                   "endgame values (fitted: tens of times cheaper a leaf, for fast depth-limited runs) or the hand-made "
                   "one (heuristic)", choices=EVALUATIONS),
        RuleOption("horizon", "choice", "round", "with objective=match: the game ends with the round, valued by the "
                   "match equity tables (round), or plays every round to the match's end (match)", choices=HORIZONS),
    )
    num_players = 2

    def __init__(self, ace: str = "online", objective: str = "round", exact_chance_limit: int = 4096,
                 evaluation: str = DEFAULT_EVALUATION, horizon: str = "round", *, estimate: Estimate | None = None):
        """``estimate``, when given, is the leaf estimate in place of the ``evaluation`` rule's (not a
        rule: a benchmark's way to try an unshipped model or exact leaves, e.g.
        ``Rolldown(estimate=load_model(path).estimate)``; the frame around it, objectives and the
        finished round, stays :func:`~dicetree.solver.games.rolldown.evaluation.evaluate`'s)."""
        super().__init__(ace, objective, exact_chance_limit, horizon)
        if evaluation not in EVALUATIONS:
            raise GameError(f"unknown evaluation '{evaluation}': choose one of {', '.join(EVALUATIONS)}")
        self.evaluation = evaluation
        self._custom_estimate = estimate is not None  # the compiled search knows the rules' estimates only
        # The fitted model's data file is read and checked now (a damaged one is one line up front); the
        # network's (numpy, a 0.9 MB file) at the first leaf or compiled search, so that commands that only
        # read positions or rules (check, notation, rules) stay light. A damaged one is then one line too.
        self._network_model: NetworkModel | None = None
        if estimate is None and evaluation == "fitted":
            estimate = load_model().estimate
        elif estimate is None and evaluation == "network":
            estimate = self._first_network_estimate
        self._estimate = estimate
        if OBJECTIVE_SUMS[objective] != Rolldown.game_type.constant_sum:  # signed points add up to 0
            self.game_type = replace(Rolldown.game_type, constant_sum=OBJECTIVE_SUMS[objective])

    def __repr__(self) -> str:
        return f"Rolldown(ace={self.ace!r}, objective={self.objective!r})"

    # ----- notation ------------------------------------------------------------------------------
    def action_name(self, state: RolldownState, action) -> str:
        return action_name(state, action)

    def parse(self, text: str) -> RolldownState:
        return parse_position(text, self)

    def format(self, state: RolldownState) -> str:
        return format_position(state, self)

    def notation_help(self) -> str:
        return notation_help(self)

    def example_position(self) -> str:
        return "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a 5QK/8JX"

    # ----- hidden hands, evaluation -----------------------------------------------------------------
    def determinize(self, state: RolldownState, *, max_exact: int = 2000, samples: int = 200, seed: int = 0) -> Deals:
        return possible_hands(state, max_exact=max_exact, samples=samples, seed=seed)

    def evaluate(self, state: RolldownState, player: int) -> float:
        return evaluate_position(state, player, self, self._estimate)

    def network(self) -> NetworkModel | None:
        """The value network this game's leaves use (read and checked at the first call), or None where
        they use another evaluation (``--rule evaluation=``) or an estimate given by the caller."""
        if self.evaluation != "network" or self._custom_estimate:
            return None
        if self._network_model is None:
            from dicetree.solver.games.rolldown.network import load_network  # numpy only where it is chosen

            self._network_model = load_network()
        return self._network_model

    def _first_network_estimate(self, state: RolldownState, to_move: int) -> float:
        """The network's estimate, reading its data file first: then the network's own method serves."""
        model = self.network()
        assert model is not None  # chosen with evaluation="network" and no estimate of the caller's
        self._estimate = model.estimate
        return model.estimate(state, to_move)

    def describe_value(self) -> str:
        return {
            "round": "probability of winning the round",
            "points": "expected signed points of the round",
            "match": "probability of winning the match (a draw counts 1/2)",
        }[self.objective]

    # ----- hooks ---------------------------------------------------------------------------------
    board = draw_board  # Game.board: the position drawn (a function of game and state, so a method)

    def new_game(self, rng: random.Random) -> RolldownState:
        """A single round's start: the roll-off, the twelve dice and both hands drawn with ``rng``."""
        return self.new_match("single", rng=rng)

    def is_progress(self, state: RolldownState, action) -> bool:
        """Captures are RolldownBeta's progress moves."""
        return state.phase == DECIDE and action.kind == CAPTURE

    def observe(self, state: RolldownState, player: int) -> RolldownState:
        """What ``player`` sees of the complete position ``state``: the opponent's hand as unknown
        cards (``?``), everything else as it is. Seen by the player not on move, the position says
        so (``seen:a``: the mover's own cards are unknown there); ``determinize`` deals them."""
        hidden = (UNKNOWN,) * len(state.hands[1 - player])
        hands = (state.hands[0], hidden) if player == 0 else (hidden, state.hands[1])
        return state._replace(hands=hands, seen_by=NOBODY if player == state.mover else player)

    def exact_provider(self, tables_dir: str | None = None, *, required: bool = False) -> Tablebase | None:
        """The endgame tables of this Ace variant (they hold values of the round objective only)."""
        if self.objective != "round":
            if required:
                raise GameError("exact values of RolldownBeta come from endgame tables, which hold the round "
                                "objective only: drop --rule objective")
            return None
        from dicetree.cache.store import TableStore
        from dicetree.solver.games.rolldown.tablebase import Tablebase

        return Tablebase(TableStore(tables_dir), ace=self.ace)

    def compiled_search(self, *, cache_slots: int, star2: bool, history: bool, chance_samples: int, seed: int):
        """The compiled search (:mod:`dicetree.solver.games.rolldown.compiled_search`), or None where it
        cannot stand in for the Python one: an estimate given by the caller, numba missing or failing
        (said once on stderr, never a traceback)."""
        if self._custom_estimate:
            return None
        started = time.perf_counter()
        network = self.network()  # its arrays are read by the compiled search (a damaged file: one line, not a fallback)
        try:
            from dicetree.solver.games.rolldown.compiled_search import CompiledSearch, warm_up

            warm_up(self, started)
            engine = CompiledSearch(self, cache_slots=cache_slots, star2=star2, history=history,
                                    chance_samples=chance_samples, seed=seed,
                                    network=None if network is None else (network.sizes, network.params),
                                    clip=DEFAULT_CLIP if network is None else network.clip)
        except ModuleNotFoundError as error:
            if error.name != "numba":
                raise
            _say_once("dicetree: the compiled search needs numba (pip install numba): searching in Python")
            return None
        except Exception as error:  # noqa: BLE001 - numba's own errors: the Python search answers instead
            _say_once(f"dicetree: the compiled search failed ({type(error).__name__}: {str(error).splitlines()[0]}): "
                      "searching in Python")
            return None
        return engine

    def study(self) -> EndgameStudy:
        from dicetree.solver.games.rolldown.study import EndgameStudy

        return EndgameStudy(self.ace)

    def strategies(self) -> tuple:
        """``fitted:depth=N``, ``heuristic:depth=N`` and ``network:depth=N``: the depth-N search with that leaf
        evaluation whatever ``--rule evaluation`` says, so one duel can set two of them against each other; each
        takes ``ms=N`` as ``solver`` does (N ms of wall time a move, iterative deepening, depth the deepest:
        ``network:depth=12,ms=100`` against ``fitted:depth=12,ms=100`` compares them at equal time a move)."""
        return evaluation_kinds(self)


_said: set[str] = set()


def _say_once(line: str) -> None:
    """One line on stderr, once a process."""
    if line not in _said:
        _said.add(line)
        print(line, file=sys.stderr)


def evaluation_kinds(game: Rolldown) -> tuple[StrategyKind, ...]:
    """One strategy kind per leaf evaluation: the depth-N search of ``game`` with that evaluation."""

    def kind(name: str) -> StrategyKind:
        def make(_game, spec: StrategySpec) -> SolverStrategy:
            options = {**game.options(), "evaluation": name}
            return SolverStrategy(Rolldown(**options), spec)

        return StrategyKind(name, make, f"the depth-N search's best move with the {name} leaf evaluation (with "
                            "ms=N: N ms a move, at most depth N)", (depth_option(DEFAULT_SOLVER_DEPTH),),
                            quiet_options=(MS_OPTION,))

    return tuple(kind(name) for name in EVALUATIONS)


__all__ = ["Rolldown"]
