"""Dice Cards (CardLords, 2023): one player's 50-roll game on the :mod:`dicetree.solver.game` interface.

Rules text: ``shared/rules/dice-cards.txt``. Every roll of a Black and a Red die, each player
records one number on one of their six cards: a die, or the total of both, as the card allows.
After 50 rolls the cards score; unused tickets score 1 point for 2. The cards are plug-ins
(:mod:`dicetree.solver.games.dicecards.cards`), their layouts and printed values a data file
(:mod:`dicetree.solver.games.dicecards.library`, ``--rule cards=FILE``).

Usage::

    >>> game = DiceCards()
    >>> state = game.parse("HOP=1,2,3 DBL=- t0 3/50 B4R5")
    >>> [game.action_name(state, a) for a in game.legal_actions(state)]
    ['HOP:4-5']
    >>> game.format(game.apply(state, game.parse_action(state, "HOP:4-5")))
    'HOP=1,2,3,4-5 DBL=- t0 4/50 roll'

Readings where the text is silent
---------------------------------
1. **Players.** A position is one player's cards (1 to 6 of them, all different: the box's
   two copies let two players share a card, not one player hold it twice); six are played, fewer
   are allowed for analysis (one card alone is the case solved exactly). Other players do not
   change one's own best record for the expected score. With rule option ``players`` (2 to 6, as
   the box's copies allow: three with the built-in nine cards) every player records each shared
   roll on their own cards, in seat order (a record changes nothing for the others, so the order
   only lets a later player see an earlier one's record of the same roll); the highest final
   score wins, then the most unused tickets, else the win is shared (``objective=win``, the
   default for several players, is the chance of that). The rule text has everyone record at
   once; the seat order is a simplification whose information edge under ``objective=win`` is
   measured exactly on small two-player games (``research/dicecards_simultaneous.py``,
   ``results/dicecards/simultaneous.md``): nothing (0 of a win) in every game of one or two
   small cards each, where each roll's game has a pure equilibrium; 0.0042 of a win (0.73292 at
   once, 0.72871 in turn) to the later seat in a late Solitaire race of 6 rolls where a double 6
   leaves a choice best made at random (like matching pennies), 0.0013 over 12 rolls. Where the seat
   order matters the earlier seat's values are slightly pessimistic and the later seat's slightly
   optimistic; with ``objective=score`` it never matters.
2. **Rolls.** The Black and the Red die are told apart: 36 equally likely outcomes a roll;
   ``rolls`` (default 50) rolls a game.
3. **A record** is one number on one card (a die, or the total, as the card's box takes it); a
   box that takes both dice (Hopscotch's double squares, Doubles) takes them in one record, one
   roll. Within a card the box is the player's choice (the labels of the moves).
4. **Recording is compulsory where it is free.** "Every roll ... all players will record 1
   number": a roll that fits some card as rolled must be recorded. Where it fits only with
   tickets, the player may spend them or lose the roll; where it fits nothing, it is lost. A lost
   roll is counted in the rolls done and recorded nowhere. Rule option ``may_pass`` lets a player
   lose any roll.
5. **Tickets** change the number recorded, 1 ticket per 1 it moves, never taking a die above 6 or
   below 1: a die becomes any 1..6, a total any 2..12, for both dice the changes add up. They are
   spent only on the record they change; the tickets a card gives are credited after the record
   that earned them (usable from the next roll). A player starts with none; at the end each 2
   unused are 1 point (an odd one is worth nothing).
6. **All-or-Nothing** cards score only when complete; **in order** cards offer only their next
   box; every other card takes its boxes in any order and scores each part when it is complete.
7. **The value** is, with ``objective=score`` (the default), the expected final score (where a
   search stops short of the end, as estimated by the approximation's policy: its rollouts); with
   ``objective=rank``, the probability of a final score of at least ``target`` (90: Lord; the
   table: 87 Scholar, 84 Master, 81 Expert, 70 Novice).
8. **Setup.** :meth:`DiceCards.new_game` deals each player six different cards of the library at
   random, from two copies of each (the choice of 6 of 9 is not a move of the game: comparing
   choices is the study, :mod:`dicetree.solver.games.dicecards.study`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dicetree.solver.game import CHANCE, TERMINAL, Game, GameError, GameType, IllegalMoveError, ValueBounds
from dicetree.solver.games.dicecards.board import board as draw_board
from dicetree.solver.games.dicecards.cards import Card
from dicetree.solver.games.dicecards.library import CardLibrary, import_kinds, load_library
from dicetree.solver.games.dicecards.notation import format_position, notation_help, parse_position
from dicetree.solver.games.dicecards.rules import after_record, final_score, record_name, records
from dicetree.solver.games.dicecards.state import (
    COPIES, FACES, HAND, LOSE, OVER, RANKS, RECORD, ROLL, ROLLS, TICKETS_PER_POINT, DiceCardsState, Record, Roll,
    Seat,
)
from dicetree.solver.rule_options import RuleOption, shorten

if TYPE_CHECKING:  # numpy loads with the approximation, the tables and the study, when first used
    from dicetree.solver.games.dicecards.approximation import Approximation
    from dicetree.solver.games.dicecards.study import KeepSixStudy
    from dicetree.solver.games.dicecards.tables import CardTables

MAX_PLAYERS = 6
"""Players on the same rolls at most (the box's copies may allow fewer: three with the built-in nine cards)."""
DEAL_TRIES = 1000
"""Deals tried before giving up (three players on the built-in nine cards: about one in four works)."""
OUTCOMES = tuple((Roll(black, red), 1 / FACES**2) for black in range(1, FACES + 1) for red in range(1, FACES + 1))
"""A roll's 36 outcomes, each with probability 1/36."""


ESTIMATE_ERROR = 1.32
"""Points a six-card position's estimated expected score may be off (one standard deviation of
predicted minus scored over 100 six-card games, measured for the README)."""


class DiceCards(Game):
    """Dice Cards for one player with fixed rule options (see the module docstring's readings).

    ``cards`` is a cards file's path, a :class:`~dicetree.solver.games.dicecards.library.CardLibrary`
    (your own cards added with ``load_library().with_cards(...)``), or ``None`` for the built-in file.
    """

    game_type = GameType(
        short_name="dicecards", long_name="Dice Cards", min_players=1, max_players=MAX_PLAYERS, constant_sum=None,
        objectives=("score", "rank", "win"), exact_values="card solutions", study="which 6 of 9 cards to keep",
    )
    rule_options = (
        RuleOption("objective", "choice", None,
                   "score: the expected final score; rank: the probability of scoring at least target; win: the "
                   "probability of winning (several players; the default for them, score for one)",
                   choices=("score", "rank", "win")),
        RuleOption("target", "int", 90, "the score objective=rank aims at (90 Lord, 87 Scholar, 84 Master, "
                   "81 Expert, 70 Novice)", low=1, high=1000),
        RuleOption("rolls", "int", ROLLS, "rolls in a game", low=1, high=500),
        RuleOption("may_pass", "bool", False, "a player may lose a roll that fits a card as rolled"),
        RuleOption("cards", "file", None, "a cards file (JSON): the cards' layouts and printed values (built in: the 9 "
                   "of the game's 50 cards that public descriptions give, their point values assumed)"),
        RuleOption("evaluation", "choice", "cards", "a search's leaf values: cards (pieced together from exact "
                   "per-card solutions) or points (the points already held)", choices=("cards", "points")),
        RuleOption("players", "int", 1, "players on the same rolls, each on their own six cards, recording in seat "
                   "order (the rules have them record at once: results/dicecards/simultaneous.md measures the "
                   "difference)", low=1, high=MAX_PLAYERS),
        RuleOption("card_kinds", "text", None, "Python modules (comma-separated, on the Python path) that register "
                   "card kinds of your own, imported before the cards file is read (a cards file itself never "
                   "imports code)"),
    )
    num_players = 1
    default_depth = 1
    """``best`` searches one record deep (each leaf's value is the approximation's, which itself looks one
    record further): a second record deep costs about a hundred times as much (benchmarks/dicecards_best.py)."""

    def __init__(self, objective: str | None = None, target: int = 90, rolls: int = ROLLS, may_pass: bool = False,
                 cards: str | Path | CardLibrary | None = None, evaluation: str = "cards", players: int = 1,
                 card_kinds: str | None = None) -> None:
        self.players = self.num_players = self.rule_options[6].parse(players)
        self.objective = self.rule_options[0].parse(objective) or ("score" if self.players == 1 else "win")
        if self.objective == "win" and self.players == 1:
            raise GameError("objective=win needs another player to beat: give --rule players=2 (or more)")
        if self.objective == "win":  # the win shares of a game add up to 1
            self.game_type = replace(type(self).game_type, constant_sum=1.0)
        self.target = self.rule_options[1].parse(target)
        self.rolls = self.rule_options[2].parse(rolls)
        self.may_pass = self.rule_options[3].parse(may_pass)
        self.evaluation = self.rule_options[5].parse(evaluation)
        self.card_kinds = self.rule_options[7].parse(card_kinds) or None
        if self.card_kinds:  # the explicit route for card code: before the (data-only) cards file is read
            import_kinds(self.card_kinds)
        self.cards = cards
        self.library = cards if isinstance(cards, CardLibrary) else load_library(cards)
        best = sorted(((c.max_points(), c.max_tickets()) for c in self.library.cards), reverse=True)[:HAND]
        most_tickets = sum(sorted((c.max_tickets() for c in self.library.cards), reverse=True)[:HAND])
        self.max_score = sum(points for points, _ in best) + most_tickets // TICKETS_PER_POINT
        if self.players > 1 and self.players * HAND > COPIES * len(self.library.cards):
            raise GameError(f"{self.players} players need {self.players * HAND} cards: the box holds {COPIES} copies "
                            f"of each of {len(self.library.cards)} cards, enough for "
                            f"{COPIES * len(self.library.cards) // HAND} players")

    def __repr__(self) -> str:
        cards = "" if self.cards is None else f", cards={shorten(str(self.cards))!r}"
        players = (f", players={self.players}" if self.players > 1 else "") + (
            f", card_kinds={self.card_kinds!r}" if self.card_kinds else "")
        return (f"DiceCards(objective={self.objective!r}, target={self.target}, rolls={self.rolls}, "
                f"may_pass={self.may_pass}, evaluation={self.evaluation!r}{cards}{players})")

    def hand(self, state: DiceCardsState, player: int | None = None) -> tuple[Card, ...]:
        """The Card objects of ``player``'s cards (default: the player to record, else the first)."""
        seat = state.seat(state.turn if player is None else player)
        return tuple(self.library[code] for code in seat.cards)

    # ----- whose turn -------------------------------------------------------------------------------
    def current_player(self, state: DiceCardsState) -> int:
        return CHANCE if state.phase == ROLL else state.turn if state.phase == RECORD else TERMINAL

    def legal_actions(self, state: DiceCardsState) -> Sequence[Record]:
        if state.phase != RECORD:
            return []
        seat = state.seat(state.turn)
        return records(self.hand(state), seat.marks, seat.tickets, state.roll, self.may_pass)

    def action_name(self, state: DiceCardsState, action) -> str:
        if isinstance(action, Roll):
            return f"B{action.black}R{action.red}"
        return record_name(self.hand(state), action)

    def chance_outcomes(self, state: DiceCardsState):
        return OUTCOMES if state.phase == ROLL else ()

    def apply(self, state: DiceCardsState, action) -> DiceCardsState:
        if isinstance(action, Roll):
            if state.phase != ROLL:
                raise IllegalMoveError(f"no roll is due at '{self.format(state)}'")
            return state._replace(phase=RECORD, roll=(action.black, action.red))
        if state.phase != RECORD:
            raise IllegalMoveError(f"no record is due at '{self.format(state)}'")
        seat = state.seat(state.turn)
        marks, tickets = after_record(self.hand(state), seat.marks, seat.tickets, action)
        state = state.with_seat(state.turn, seat._replace(marks=marks, tickets=tickets))
        if state.turn + 1 < state.players:  # the next player records the same roll
            return state._replace(turn=state.turn + 1)
        done = state.rolls + 1
        return state._replace(rolls=done, phase=OVER if done >= self.rolls else ROLL, roll=(), turn=0)

    def returns(self, state: DiceCardsState) -> tuple[float, ...]:
        """Each player's final score (objective score), whether it reached the target (rank), or their
        share of the win (win: the highest score, then the most unused tickets; a tie left is shared)."""
        finals = [(final_score(self.hand(state, p), state.seat(p).marks, state.seat(p).tickets), state.seat(p).tickets)
                  for p in range(state.players)]
        if self.objective == "rank":
            return tuple(1.0 if score >= self.target else 0.0 for score, _ in finals)
        if self.objective == "win":
            best = max(finals)
            winners = finals.count(best)
            return tuple(1 / winners if final == best else 0.0 for final in finals)
        return tuple(float(score) for score, _ in finals)

    def value_bounds(self) -> ValueBounds:
        if self.objective in ("rank", "win"):
            return ValueBounds(0.0, 1.0)
        return ValueBounds(0.0, float(self.max_score))

    # ----- notation ------------------------------------------------------------------------------------
    def parse(self, text: str) -> DiceCardsState:
        return parse_position(text, self)

    def format(self, state: DiceCardsState) -> str:
        return format_position(state, self)

    def notation_help(self) -> str:
        return notation_help(self)

    def example_position(self) -> str:
        codes = [card.code for card in self.library.cards[:HAND]]
        example = {"SOL": "SOL=B6,R5", "SUD": "SUD=16", "BB": "BB=7,9", "BG": "BG=-", "HOP": "HOP=1,2"}
        hands = [" ".join(example.get(code, f"{code}=-") for code in codes) + " t0"]
        uses = dict.fromkeys(self.library.by_code, 0)
        for code in codes:
            uses[code] += 1
        for _ in range(self.players - 1):  # empty hands of the cards least held (the box has two of each)
            others = sorted(self.library.by_code, key=lambda code: uses[code])[:HAND]
            for code in others:
                uses[code] += 1
            hands.append(" ".join(f"{code}=-" for code in others) + " t0")
        state = self.parse(" | ".join(hands) + f" {min(8, self.rolls - 1)}/{self.rolls} roll")
        return self.format(state._replace(phase=RECORD, roll=(4, 2)))

    # ----- search support ------------------------------------------------------------------------------------
    @cached_property
    def approximation(self) -> Approximation:
        """The six-card approximation from exact per-card solutions (built when first used, so that
        `dicetree notation` and `rules` start without numpy)."""
        from dicetree.solver.games.dicecards.approximation import Approximation

        return Approximation(self.library, self.rolls)

    def evaluate(self, state: DiceCardsState, player: int) -> float:
        from dicetree.solver.games.dicecards.evaluation import evaluate

        return evaluate(state, player, self)

    def value_uncertainty(self, state: DiceCardsState) -> float:
        """The six-card estimate's measured error (predicted minus scored over 100 six-card games:
        -0.06 ± 1.32 points, README) for the expected score; 0 where the value is exact or a probability."""
        if self.objective != "score" or len(self.hand(state)) <= 1:
            return 0.0
        return ESTIMATE_ERROR

    def describe_value(self) -> str:
        if self.objective == "win":
            return ("probability of winning (the highest score, then the most unused tickets; a tie left is shared), "
                    "every player's score estimated")
        if self.objective == "rank":
            name = next((name for least, name in RANKS if least <= self.target), "")
            return f"probability of a final score of at least {self.target} ({name} or better)"
        if self.evaluation == "cards":
            return "expected final score (of six cards: under the approximation's policy, estimated by rollouts)"
        return "expected final score"

    def describe_answer(self, state: DiceCardsState, exact: bool) -> str:
        """What an answer's values at ``state`` are: exact values are the best play's, to the end, of the
        cards held (however many); searched ones rest on the leaf evaluation.

        >>> game = DiceCards()
        >>> game.describe_answer(game.parse("DBL=- t0 0/50 B3R3"), exact=True)
        'expected final score of the 1 card held and its tickets, exact: the best play to the end (backward induction)'
        """
        if self.objective == "win":
            return self.describe_value()
        cards = len(state.cards)
        held = f"of the {cards} card{'s' if cards != 1 else ''} held and {'its' if cards == 1 else 'their'} tickets"
        if self.objective == "rank":
            what = f"probability of a final score of at least {self.target} {held}"
        else:
            what = f"expected final score {held}"
        if exact:
            return f"{what}, exact: the best play to the end (backward induction)"
        if self.evaluation == "points":
            return f"{what}, estimated: the points already held at the search's leaves"
        return (f"{what}, estimated: the search's leaves valued by the approximation (exact per-card solutions "
                "pieced together, corrected by rollouts of its policy)")

    def new_game(self, rng: random.Random) -> DiceCardsState:
        """Six different cards for each player, dealt from a box of :data:`COPIES` of each card (a deal
        that leaves a later player fewer than six different cards is dealt again)."""
        size = min(HAND, len(self.library.cards))
        for _ in range(DEAL_TRIES):
            box = {card.code: COPIES for card in self.library.cards}
            seats = []
            for _ in range(self.players):
                left = [card for card in self.library.cards if box[card.code]]
                if len(left) < size:
                    break
                cards = rng.sample(left, size)
                for card in cards:
                    box[card.code] -= 1
                seats.append(Seat(tuple(c.code for c in cards), tuple(c.start() for c in cards), 0))
            else:
                first = seats[0]
                return DiceCardsState(first.cards, first.marks, 0, 0, ROLL, (), tuple(seats[1:]))
        raise GameError(f"no deal of {size} different cards each to {self.players} players was found")

    def exact_provider(self, tables_dir: str | None = None, *, required: bool = False) -> CardTables:
        """Stored per-card solutions (which the leaf evaluation then uses) and exact values of small
        hands (:mod:`dicetree.solver.games.dicecards.tables`)."""
        from dicetree.cache.store import TableStore
        from dicetree.solver.games.dicecards.tables import CardTables

        tables = CardTables(self, TableStore(tables_dir))
        self.approximation.solutions = tables
        return tables

    def strategies(self) -> tuple:
        """``cards``, ``race`` and ``points`` (:mod:`dicetree.solver.games.dicecards.strategies`): no search, any player count."""
        from dicetree.solver.games.dicecards.strategies import STRATEGY_KINDS

        return STRATEGY_KINDS

    def study(self) -> KeepSixStudy:
        """``dicetree study dicecards``: which 6 of a deal of 9 cards to keep (:mod:`dicetree.solver.games.dicecards.study`)."""
        from dicetree.solver.games.dicecards.study import KeepSixStudy

        return KeepSixStudy(self)

    board = draw_board  # Game.board: the position drawn (board.py)

    def is_progress(self, state: DiceCardsState, action) -> bool:
        """A record (rather than a lost roll)."""
        return isinstance(action, Record) and action.card != LOSE

    def options(self) -> dict[str, Any]:
        return {"objective": self.objective, "target": self.target, "rolls": self.rolls, "may_pass": self.may_pass,
                "cards": self.cards, "evaluation": self.evaluation, "players": self.players,
                "card_kinds": self.card_kinds}

