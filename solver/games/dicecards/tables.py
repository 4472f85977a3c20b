"""Dice Cards' exact values: each card's own solution kept in the table store, and small hands solved whole.

The game's provider of exact values (``Game.exact_provider``, the protocol
:class:`dicetree.solver.providers.ExactValues`), which the command line drives:

* ``dicetree tablebase build dicecards [--only SOL,HOP]`` solves every card of the library alone
  (the approximation's per-card solutions, :mod:`dicetree.solver.games.dicecards.approximation`) and keeps
  them in the store (``cache/store.py``: ``<tables>/dicecards/<code>-<fingerprint>-r<rolls>-p<prices>.dtt``;
  the fingerprint is of the card's definition, so an edited cards file is solved anew). The
  search's leaf evaluation then loads them instead of solving them again: ``best`` on a six-card
  position answers at once. A card not stored yet is solved and stored when first needed.
* ``dicetree best dicecards POSITION --exact`` and ``tablebase probe``: a hand small enough
  (at most :data:`EXACT_STATES` states: one card, or two or three small ones) is solved whole by
  backward induction over the rolls left, and every record gets its exact value. During a plain
  ``best`` the same solution answers the search's probes (:meth:`CardTables.oracle`), so a small
  hand is searched exactly.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from typing import Any

from dicetree.cache.store import TableStore, tables_flag
from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards.approximation import CardValues
from dicetree.solver.games.dicecards.cards import Card, card_states_from
from dicetree.solver.games.dicecards.induction import HandSolution, solve_hand
from dicetree.solver.games.dicecards.rules import record_name
from dicetree.solver.games.dicecards.state import OVER, RECORD, DiceCardsState
from dicetree.solver.rule_options import RuleOption, shorten
from dicetree.solver.limits import SearchStats
from dicetree.solver.providers import StoredSet, announce
from dicetree.solver.ranking import format_loss, rank_moves
from dicetree.solver.search import SearchResult

STORE_NAME = "dicecards"
EXACT_STATES = 200_000
"""Hands with more (marks, tickets) states are not solved whole."""


def fingerprint(card: Card) -> str:
    """12 hex digits of a hash of the card's definition (its class and public attributes)."""
    public = {key: value for key, value in sorted(vars(card).items()) if not key.startswith("_")}
    # Without the import root: cards of the built-in kinds keep the fingerprint (and so their stored
    # tables) they had before the packages were installed under ``dicetree``.
    module = type(card).__module__.removeprefix("dicetree.")
    text = f"{module}.{type(card).__qualname__}:{public!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def signature(card: Card, rolls: int, prices: tuple[float, ...]) -> str:
    """The stored table's name: ``SOL-<fingerprint>-r50-p0,1``."""
    return f"{card.code}-{fingerprint(card)}-r{rolls}-p{','.join(f'{p:g}' for p in prices)}"


class CardTables:
    """Stored per-card solutions and whole-hand exact values of one configured game."""

    build_parameters = (
        RuleOption("only", "text", None, "the cards to solve, as codes (e.g. SOL,HOP; default: every card)"),
    )

    def __init__(self, game, store: TableStore) -> None:
        self.game = game
        self.store = store
        self.loaded: dict[tuple[Card, int, tuple[float, ...]], CardValues] = {}
        self.solved: list[HandSolution] = []
        self.too_big: set[tuple[str, ...]] = set()

    # ----- per-card solutions -----------------------------------------------------------------------
    def card_values(self, card: Card, rolls: int, prices: tuple[float, ...]) -> CardValues:
        """The card's own solution: remembered, else from the store, else solved and stored."""
        known = self.loaded.get((card, rolls, prices))
        if known is not None:
            return known
        name = signature(card, rolls, prices)
        table = self.store.load(STORE_NAME, name)
        if table is not None:
            values = CardValues(table.array, [card.parse_marks(text) for text in table.metadata["states"]])
        else:
            started = time.perf_counter()
            values = CardValues.solve(card, rolls, prices)
            self.store.save(STORE_NAME, name, values.values, {
                "build_time": time.perf_counter() - started, "card": card.name, "code": card.code,
                "options": {"rolls": rolls, "prices": list(prices)},
                "states": [card.format_marks(state) for state in values.states],
                "statistics": {"card states": len(values.states)},
            })
        self.loaded[card, rolls, prices] = values
        return values

    def build_from(self, values: Mapping[str, Any], progress=None, say=None) -> list[str]:
        """``dicetree tablebase build dicecards``: solve and store every card (or those of ``only``); the
        plan goes to ``say(line)`` before the work where ``say`` is given, else first in the lines."""
        library = self.game.library
        only = values.get("only")
        codes = [code.strip() for code in only.split(",")] if only else list(library.by_code)
        unknown = [code for code in codes if code not in library]
        if unknown:
            raise GameError(f"unknown card '{shorten(unknown[0])}' (the cards: {library.codes()})")
        model = self.game.approximation
        plan = [f"Solving {len(codes)} cards alone over {self.game.rolls} rolls into {self.store.root}"]
        stored = sum(self.store.has(STORE_NAME, signature(library[code], model.rolls, model.prices)) for code in codes)
        if stored:
            plan.append(f"resuming: {stored} of {len(codes)} tables already stored")
        lines = announce(plan, say)
        for done, code in enumerate(codes):
            if progress is not None:
                progress(done, len(codes), code)
            started = time.perf_counter()
            solution = self.card_values(library[code], model.rolls, model.prices)
            lines.append(f"  {code:<5} {len(solution.states):>7,} states  {time.perf_counter() - started:.1f} s")
        if progress is not None:
            progress(len(codes), len(codes), "")
        return lines

    def stored(self) -> list[StoredSet]:
        """What is stored, as figures (``tablebase stats --json``)."""
        if not self.store.list(STORE_NAME):
            return []
        return [StoredSet(STORE_NAME, str(self.store.root / STORE_NAME), self.store.stats(STORE_NAME))]

    def damaged(self) -> list[tuple[str, str]]:
        """Every stored card solution that fails its checksum (all read): ``(path, problem)``."""
        return self.store.check(STORE_NAME)

    def stats(self) -> list[str]:
        """What is stored (``tablebase stats``)."""
        entries = self.store.list(STORE_NAME)
        figures = self.store.stats(STORE_NAME)
        lines = [f"Dice Cards card solutions in {self.store.root / STORE_NAME}"]
        if not entries:
            return lines + [f"  none yet: `dicetree tablebase build dicecards{tables_flag(self.store.root)}`"]
        for entry in entries:
            lines.append(f"  {entry['signature']}: {entry['card']}, {len(entry['states']):,} states")
        lines.append(f"  {figures.tables} tables, built in {figures.build_time:.1f} s, "
                     f"{figures.bytes / 2**20:.1f} MiB on disk")
        return lines + [f"  corrupt: {path}: {problem}" for path, problem in figures.corrupt]

    # ----- whole hands ---------------------------------------------------------------------------------
    def solution(self, state: DiceCardsState) -> HandSolution:
        """The exact solution of ``state``'s hand from its marks (or a stored one that covers it)."""
        left = self.game.rolls - state.rolls
        for solved in self.solved:
            if self._covers(solved, state, left):
                return solved
        game = self.game
        solved = solve_hand(game.hand(state), state.marks, state.tickets, left, objective=game.objective,
                            target=game.target, may_pass=game.may_pass, max_states=EXACT_STATES)
        self.solved.append(solved)
        return solved

    def _covers(self, solved: HandSolution, state: DiceCardsState, left: int) -> bool:
        return (tuple(card.code for card in solved.graph.cards) == state.cards and state.marks in solved.graph.index
                and state.tickets <= solved.max_tickets and left <= solved.rolls)

    def move_values(self, state: DiceCardsState) -> list[tuple[Any, float]]:
        """Every legal record with its exact value, best first (a RECORD state)."""
        if state.phase != RECORD:
            raise GameError("exact record values are for a position where a record is due (the dice shown)")
        if state.players > 1:
            raise GameError("exact record values are of one player's game: give that player's hand alone "
                            "(rule option players=1)")
        left = self.game.rolls - state.rolls
        return self.solution(state).record_values(state.marks, state.tickets, state.roll, left)

    def oracle(self):
        """A probe of exact values for the search: a small hand is solved whole at the first probe
        (the root), and positions it covers answered from it; other hands are not probed. None for
        a game of several players (the solutions are one player's)."""
        game = self.game
        if game.players > 1:
            return None

        def exact_value(state: DiceCardsState) -> float | None:
            if state.phase != RECORD:
                return None
            left = game.rolls - state.rolls
            if not any(self._covers(solved, state, left) for solved in self.solved):
                if state.cards in self.too_big or self._surely_too_big(state):
                    self.too_big.add(state.cards)
                    return None
                try:
                    self.solution(state)
                except GameError:
                    self.too_big.add(state.cards)
                    return None
            return self.move_values(state)[0][1]

        return exact_value

    def _surely_too_big(self, state: DiceCardsState) -> bool:
        """Whether the hand has more than :data:`EXACT_STATES` states from its marks."""
        return self.hand_size(state) is None

    def hand_size(self, state: DiceCardsState) -> int | None:
        """The (marks, tickets) states the hand can reach from the position's marks (what ``--exact``
        solves), or None where they are more than :data:`EXACT_STATES`. Counted from empty cards first
        (cheap: the cards' own solutions know their sizes); only a hand too big by that count has its
        cards' states from the marks enumerated, each card stopping the count as soon as it is too many."""
        hand = self.game.hand(state)
        width = 1 + state.tickets + sum(card.max_tickets() - card.tickets(m) for card, m in zip(hand, state.marks))
        model = self.game.approximation
        count = width
        for code in state.cards:
            count *= len(model.card(code).states)
        if count <= EXACT_STATES:
            return count
        count = width
        for card, marks in zip(hand, state.marks):
            count *= sum(1 for _ in card_states_from(card, marks, EXACT_STATES // count + 1))
            if count > EXACT_STATES:
                return None
        return count

    def within_reach(self, state: DiceCardsState) -> str:
        """For a depth-limited ``best``: "" or how ``--exact`` answers this position (one player's hand
        small enough from its marks)."""
        if state.phase != RECORD or self.game.players > 1:
            return ""
        size = self.hand_size(state)
        if size is None:
            return ""
        return f"the hand has {size:,} states from its marks: `--exact` solves it"

    def exact_result(self, state: DiceCardsState, progress=None) -> SearchResult:
        """Every record's exact value at ``state`` (``best --exact``); one line where the hand is too big.
        (Cards are solved in memory, each in well under a second: ``progress`` is not told.)"""
        started = time.perf_counter()
        try:
            ranked = self.move_values(state)
        except GameError as error:
            if "states" in str(error):
                raise GameError(f"{error} (one card, or two or three small ones, are solved whole): without "
                                "--exact the search answers") from None
            raise
        hand = self.game.hand(state)
        best = ranked[0][1]
        moves = rank_moves((record, record_name(hand, record), value) for record, value in ranked)
        solved = self.solution(state)
        return SearchResult(
            moves=moves, value=best, depth=0, pv=[moves[0].name], exact=True,
            method=(f"exact: backward induction over {self.game.rolls - state.rolls} rolls, "
                    f"{len(solved.graph.states) * solved.graph.width:,} states"),
            stats=SearchStats(elapsed=time.perf_counter() - started),
        )

    def answer(self, state: DiceCardsState) -> dict[str, Any]:
        """``tablebase probe``: the exact value of a RECORD state and of every record."""
        if state.phase == OVER:
            raise GameError("the game is over: nothing to record")
        ranked = self.move_values(state)
        hand = self.game.hand(state)
        best = ranked[0][1]
        return {"position": self.game.format(state), "value": best,
                "meaning": self.game.describe_answer(state, exact=True),
                "moves": [{"move": record_name(hand, r), "value": v, "loss": best - v} for r, v in ranked]}

    @staticmethod
    def describe_answer(answer: Mapping[str, Any]) -> str:
        lines = [answer["position"], f"{answer['meaning']}: {answer['value']:.6f}"]
        for rank, move in enumerate(answer["moves"], 1):
            loss = format_loss(move["loss"], rank, digits=6)
            lines.append(f"{rank:>3}  {move['move']:<14} {move['value']:.6f}  {loss}")
        return "\n".join(lines)

