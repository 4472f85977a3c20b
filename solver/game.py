"""The uniform game interface that every search and solver in dicetree talks to.

A game is a *rules object* (:class:`Game`) plus *immutable, hashable state values*. The rules
object never changes during play; states are small frozen values (tuples of ints inside), so a
search derives children cheaply and uses states directly as cache keys. Nothing on the hot path
deep-copies anything: ``apply`` builds a new small value.

Who acts at a state is given by :meth:`Game.current_player`:

* ``0 .. num_players-1`` — a player decides (the same player may decide twice in a row, as with
  RolldownBeta's Queen: reroll, then choose the second die after seeing the first);
* :data:`CHANCE` — dice or cards decide; :meth:`Game.chance_outcomes` lists every outcome with its
  exact probability, or, where a node has too many outcomes to list, the game says so through
  :meth:`Game.chance_outcome_count` and offers :meth:`Game.sample_chance`;
* :data:`SIMULTANEOUS` — several players choose at once (Dice Fights); :meth:`Game.joint_actions`
  gives each player's options and :meth:`Game.apply` takes a tuple with one action per player;
* :data:`TERMINAL` — the game is over; :meth:`Game.returns` gives one value per player.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> state = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    >>> game.current_player(state)
    0
    >>> [game.action_name(state, a) for a in game.legal_actions(state)][:2]
    ['d8xd4', 'Q a.d6']
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dicetree.solver.players import player_name

if TYPE_CHECKING:
    from dicetree.solver.board import Board

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

State = Any
"""A game's state: an immutable, hashable value (each game documents its own)."""
Action = Hashable
"""A decision or a chance outcome: a small hashable value; :meth:`Game.action_name` reads it."""


class GameError(ValueError):
    """Base of every error that dicetree reports to a user as a one-line message."""


class PositionError(GameError):
    """A position string that is malformed or describes an impossible position."""


class IllegalMoveError(GameError):
    """A move that is not legal in the given position, or a move string that names none."""


class TooManyOutcomes(GameError):
    """Raised by :meth:`Game.chance_outcomes` where a chance node can only be sampled."""


@dataclass(frozen=True)
class ValueBounds:
    """The range every return and every evaluation of a game lies in (used by *-minimax)."""

    low: float
    high: float

    def clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))


@dataclass(frozen=True)
class TurnLimit:
    """How long a played game (a duel, a match) may go on: one still running after ``turns`` turns
    (what :meth:`Game.starts_turn` marks; ``unit`` names them for output) is stopped and scored by
    :meth:`Game.stopped_returns` (``scoring`` says how, for output)."""

    turns: int = 2_000
    unit: str = "decisions"
    scoring: str = "counted as draws"


@dataclass(frozen=True)
class Deals:
    """Concrete positions a position with hidden information may be, with weights summing to 1.

    ``exact`` says whether every possibility was enumerated (else they were sampled);
    ``description`` says how, for output ('' when nothing was hidden).
    """

    states: tuple[Any, ...]
    weights: tuple[float, ...]
    exact: bool
    description: str


@dataclass(frozen=True)
class CardList:
    """A configured game's cards as data (``dicetree rules GAME --cards``): the column names, one
    row per card (values printed as they are), where they come from (``source``) and what is said
    of them (``notes``: the data's sources and what it assumes)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    source: str
    notes: tuple[str, ...] = ()

    def to_text(self) -> str:
        """The cards as an aligned table, then the source and the notes."""
        cells = [self.columns] + [tuple(str(value) for value in row) for row in self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]
        lines += ["", f"{len(self.rows)} cards from {self.source}"] + [f"Note: {note}" for note in self.notes]
        return "\n".join(lines)


@dataclass(frozen=True)
class GameType:
    """The facts of a game, declared once by each game class (as OpenSpiel's ``GameType``).

    Searchers, solvers, duels and the command line read these facts, never a game's name:

    * ``short_name`` — the name on the command line (``dicetree best rolldown``); ``long_name`` for output;
    * ``min_players`` .. ``max_players`` — how many players it is for (``Game.num_players`` is the
      number of one configured game);
    * ``simultaneous`` — whether players choose at once (``SIMULTANEOUS`` nodes: matrix games);
    * ``hidden_information`` — whether positions may hide something (``Game.determinize``);
    * ``constant_sum`` — the returns of every terminal state add up to this, or ``None`` where they
      need not (then no value can be turned from one player's view to another's);
    * ``evaluates_chance`` — whether ``Game.evaluate`` also covers chance nodes (a search may cut off there);
    * ``objectives`` — what a value may mean (the ``objective`` rule option's choices, first the default);
    * ``exact_values`` — the provider of stored exact values it has (``'endgame tables'``), or '' for none
      (``Game.exact_provider`` returns it);
    * ``study`` — the title of the game's own study (``dicetree study``), or '' for none (``Game.study``).
    """

    short_name: str
    long_name: str
    min_players: int = 2
    max_players: int = 2
    simultaneous: bool = False
    hidden_information: bool = False
    constant_sum: float | None = 1.0
    evaluates_chance: bool = False
    objectives: tuple[str, ...] = ("win",)
    exact_values: str = ""
    study: str = ""

    def players_text(self) -> str:
        low, high = self.min_players, self.max_players
        if low == high:
            return "1 player" if low == 1 else f"{low} players"
        return f"{low} to {high} players"


def check_game(game: Game, purpose: str, *, max_players: int = 2, constant_sum: bool = True,
               turns: bool | None = None) -> None:
    """Refuse, in one line, a game whose declared facts do not fit ``purpose`` (e.g. 'expectiminimax
    search'): more than ``max_players`` players, two players whose returns are not constant-sum
    (``constant_sum``), or simultaneous moves where ``turns`` is True (taking turns where it is False).
    Every searcher, solver and duel checks this way before it starts, never by a game's name."""
    kind = game.game_type
    what = kind.long_name
    if game.num_players > max_players:
        raise GameError(f"{what} is played here by {game.num_players} players: {purpose} handles at most {max_players}")
    if constant_sum and game.num_players == 2 and kind.constant_sum is None:
        raise GameError(f"{what}'s returns are not constant-sum: {purpose} needs a constant-sum game")
    if turns is True and kind.simultaneous:
        raise GameError(f"in {what} players choose at once: {purpose} is for games where players take turns "
                        "(its choices are matrix games: `dicetree best` solves them)")
    if turns is False and not kind.simultaneous:
        raise GameError(f"in {what} players take turns: {purpose} is for games with simultaneous choices")


class Game(ABC):
    """Rules of one game with fixed options.

    Subclasses declare :attr:`game_type` (their facts) and :attr:`rule_options` (what a user may
    change, see :mod:`dicetree.solver.rule_options`) once, as class attributes.
    """

    game_type: GameType
    rule_options: tuple = ()
    num_players: int = 2
    #: Chance nodes with more outcomes than this are sampled rather than listed by searches.
    exact_chance_limit: int = 4096
    #: The depth ``dicetree best`` searches when given neither a depth nor a time; None: deepen for
    #: the default time. A game whose evaluation already looks ahead, and whose next depth would
    #: take far longer than that time, says 1 (its answer then comes at once).
    default_depth: int | None = None

    @property
    def name(self) -> str:
        """The game's command-line name (its type's ``short_name``)."""
        return self.game_type.short_name

    #: What a value means in this configured game (one of the type's ``objectives``; games with a
    #: choice set it from their ``objective`` rule option).
    objective: str = "win"

    def options(self) -> dict[str, Any]:
        """The value of every declared rule option of this configured game (attributes of the same name)."""
        return {option.name: getattr(self, option.name, option.default) for option in self.rule_options}

    # ----- whose turn -------------------------------------------------------------------------
    @abstractmethod
    def current_player(self, state: State) -> int:
        """A player index, or CHANCE, SIMULTANEOUS or TERMINAL."""

    def is_terminal(self, state: State) -> bool:
        return self.current_player(state) == TERMINAL

    def is_chance(self, state: State) -> bool:
        return self.current_player(state) == CHANCE

    # ----- decisions ----------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal decision of the player to move (empty at chance and terminal states)."""

    @abstractmethod
    def action_name(self, state: State, action: Action) -> str:
        """A short readable name of ``action`` (a decision or a chance outcome) at ``state``."""

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action whose name is ``text``; :class:`IllegalMoveError` if none is."""
        wanted = text.strip()
        actions = (
            self.legal_actions(state)
            if not self.is_chance(state)
            else [outcome for outcome, _ in self.chance_outcomes(state)]
        )
        for action in actions:
            if self.action_name(state, action) == wanted:
                return action
        names = ", ".join(self.action_name(state, a) for a in actions[:12])
        more = ", ..." if len(actions) > 12 else ""
        raise IllegalMoveError(f"'{wanted}' is not legal here; legal: {names}{more}")

    def joint_actions(self, state: State) -> tuple[Sequence[Action], ...]:
        """At a SIMULTANEOUS state, each player's options (an empty tuple for a player not choosing)."""
        raise NotImplementedError(f"{self.name} has no simultaneous moves")

    # ----- chance -------------------------------------------------------------------------------
    def chance_outcome_count(self, state: State) -> int:
        """How many outcomes the chance node has (may be huge: then only sampling is practical)."""
        return len(self.chance_outcomes(state))

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, float]]:
        """Every outcome of a chance node with its exact probability; they sum to 1.

        Raises :class:`TooManyOutcomes` where the node can only be sampled.
        """
        raise NotImplementedError

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """One outcome drawn with its probability (games with huge chance nodes override this)."""
        outcomes = self.chance_outcomes(state)
        pick = rng.random()
        total = 0.0
        for outcome, probability in outcomes:
            total += probability
            if pick < total:
                return outcome
        return outcomes[-1][0]

    # ----- transitions and results -------------------------------------------------------------
    @abstractmethod
    def apply(self, state: State, action: Action) -> State:
        """The state after ``action`` (a decision, a chance outcome, or a joint-action tuple)."""

    @abstractmethod
    def returns(self, state: State) -> tuple[float, ...]:
        """One value per player at a terminal state."""

    @abstractmethod
    def value_bounds(self) -> ValueBounds:
        """Bounds on every return (and every evaluation) for any player."""

    def key(self, state: State) -> Hashable:
        """A canonical key: two states share a key only if they are the same position.

        States are canonical frozen values, so by default the state is its own key.
        """
        return state

    # ----- notation ---------------------------------------------------------------------------
    @abstractmethod
    def parse(self, text: str) -> State:
        """The state a position string describes; :class:`PositionError` with a specific message."""

    @abstractmethod
    def format(self, state: State) -> str:
        """The canonical position string of ``state``: ``parse(format(s)) == s``."""

    @abstractmethod
    def notation_help(self) -> str:
        """Documentation of the position notation, with examples."""

    def example_position(self) -> str:
        """A built-in example position string for demos."""
        return ""

    def determinize(self, state: State, *, max_exact: int = 2000, samples: int = 200, seed: int = 0) -> Deals:
        """The fully known positions that ``state``'s hidden information allows (cards shown as
        unknown, say), enumerated where at most ``max_exact``, else ``samples`` drawn with ``seed``."""
        return Deals((state,), (1.0,), True, "")

    # ----- search support -----------------------------------------------------------------------
    def evaluate(self, state: State, player: int) -> float:
        """A heuristic value of a non-terminal ``state`` for ``player`` at a depth cut-off.

        Always within :meth:`value_bounds`. The default is the middle of the bounds.
        """
        bounds = self.value_bounds()
        return (bounds.low + bounds.high) / 2

    def describe_value(self) -> str:
        """What a value means, for output (e.g. 'probability that the mover wins the round')."""
        return "value for the player to move"

    def describe_answer(self, state: State, exact: bool) -> str:
        """What the values of an answer at ``state`` mean, ``exact`` or searched (a game whose values
        mean something else at some positions, or when exact, says so here; default :meth:`describe_value`)."""
        return self.describe_value()

    def value_uncertainty(self, state: State) -> float:
        """How far a value at ``state`` may be from the truth where the game's values are estimates
        (one standard deviation of the measured error, in the value's own unit), else 0: output
        then shows only the digits the values can tell and says so. The default: 0 (searched and
        exact values are exact to rounding)."""
        return 0.0

    # ----- standard hooks -----------------------------------------------------------------------
    def new_game(self, rng: random.Random) -> State:
        """A fresh start of a game (or a match, where the game has them), drawn with ``rng``: the
        deal, the roll-off, whatever chance decides before play. Games without random starts raise."""
        raise GameError(f"{self.game_type.long_name} has no random starts: give a position")

    def player_name(self, player: int) -> str:
        """How output names ``player``: ``'A'``, ``'B'``, ... by seat in every game
        (:mod:`dicetree.solver.players`, the one place players are named; games do not override it)."""
        return player_name(player)

    def is_progress(self, state: State, action: Action) -> bool:
        """Whether ``action`` is a forcing or progress move (a capture, say): greedy strategies prefer
        them. (The exact solver breaks ties by its own distance-to-the-end rank, which needs no hook.)
        The default: none is."""
        return False

    def observe(self, state: State, player: int) -> State:
        """What ``player`` sees of ``state``: the same position with what they cannot see hidden
        (an unknown card, say); a strategy given only its own view plays on this. The default:
        everything is seen."""
        return state

    #: The cap on the length of a played game (the one place a game declares it).
    turn_limit: TurnLimit = TurnLimit()

    def starts_turn(self, state: State) -> bool:
        """Whether reaching ``state`` in play starts one more turn of :attr:`turn_limit` (never
        asked at a terminal state). The default: every decision is a turn; a game counted in rounds
        says where a round starts."""
        return self.current_player(state) != CHANCE

    def stopped_returns(self, state: State) -> tuple[float, ...]:
        """The returns of a game stopped at its :attr:`turn_limit` at ``state``. The default, a draw:
        every player the middle of :meth:`value_bounds`."""
        bounds = self.value_bounds()
        return ((bounds.low + bounds.high) / 2,) * self.num_players

    def strategies(self) -> tuple:
        """The game's own kinds of strategy (:class:`dicetree.solver.strategies.StrategyKind` records), which
        duels offer besides the built-in ones (one of the same name replaces the built-in). The
        default: none."""
        return ()

    def exact_provider(self, tables_dir: str | None = None, *, required: bool = False):
        """The stored exact values the type declares (``exact_values``) for this configured game, or
        ``None`` where it has none; with ``required``, a game that has them but not under these rule
        options raises a one-line :class:`GameError` saying why. The provider answers ``oracle()``
        (a probe for the search, ``None`` while nothing is stored) and ``exact_result(state)``."""
        return None

    def compiled_search(self, *, cache_slots: int, star2: bool, history: bool, chance_samples: int, seed: int):
        """A compiled search for :class:`dicetree.solver.search.Searcher` to run where it applies, or
        ``None`` (the default: the Python search answers). It offers ``declines(state, oracle)`` (why it
        cannot search ``state`` probing the searcher's ``oracle``, '' when it can), ``begin(state)``,
        ``iteration(actions, depth, deadline)`` (player 0's value of each root move, and whether the
        search was exact), ``evaluate(state)`` (player 0's leaf value, as ``evaluate(state, 0)``),
        ``nodes``, ``table_probes``, ``table_hits``, ``sampled``, ``chance_note()`` and ``table`` (its transposition table, with the
        :class:`dicetree.cache.transposition.TranspositionTable` methods the searcher uses at the root)."""
        return None

    def board(self, state: State) -> Board | None:
        """``state`` drawn: a :class:`dicetree.solver.board.Board` (dice with their faces, cards, scores,
        whose turn) that the explorer and notebooks render. The default, ``None``: no drawing (the
        position string is shown instead)."""
        return None

    def study(self):
        """The game's own study (the type's ``study``), or ``None``: an object with ``parameters``
        (rule-option records that become ``dicetree study GAME`` options) and ``run(values, output)``."""
        return None

    # ----- what the game's data says of itself ---------------------------------------------------
    def assumptions(self) -> tuple[str, ...]:
        """What this configured game's data assumes that the rule text does not say (each a sentence
        that says how to give real data instead): ``rules``, ``notation`` and ``best`` print them.
        The default: nothing is assumed."""
        return ()

    def warnings(self) -> tuple[str, ...]:
        """Problems of this configuration that do not stop it from loading (a deck too small to reach
        the winning score, say): the command line prints each as ``warning: ...`` on stderr."""
        return ()

    def card_list(self) -> CardList | None:
        """The cards this configured game plays with, as data (``dicetree rules GAME --cards``), or
        ``None`` for a game without a card list."""
        return None
