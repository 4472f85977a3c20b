"""RolldownBeta, every rule: dice, captures, rerolls, the thirteen card kinds, rounds and modes.

Rules text: ``shared/rules/rolldown-beta.txt``. Players are 0 (A) and 1 (B).

The state (:class:`RolldownState`) is a frozen value of small tuples, so it is its own cache key.
A turn is one decision; some decisions lead to a chance node first:

* capture ``d8xd6`` (my d8 takes their d6: the opponent's die shows the same number or less;
  not on a player's first turn of the round) — both dice leave play; the sixth capture ends the
  round and its maker wins it, scoring the sides of the final pair;
* reroll ``roll b.d6`` — chance rolls that die, then the turn ends;
* a card: ``7 a.d8`` (2..10, only on a die that can show it), ``J b.d4`` (to 1), ``K a.d20``
  (to its top face), ``A+ a.d8`` / ``A- b.d6`` (Ace: in the default *online* variant your own die to
  its top or an opponent's to 1; in the *printed* variant either end on any die), ``Q a.d8`` (Queen:
  chance rolls that die, then the same player chooses ``Q2 b.d6``, chance rolls it, turn ends), ``X``
  (Joker: chance rerolls every die in play). A card that changes nothing is legal and uses the turn.

Interpretations the rule text leaves open (stated in the README too):

* a played card goes onto its owner's discard pile at once; cards left in hand at the round's end
  follow it there, so a deck is empty after nine rounds and reshuffled from all 27 in round 10;
* each round's first player alternates from the round-1 starter (the roll-off, a chance node at
  the start of a match; on Play again the other player starts round 1: :meth:`Rolldown.new_match`);
* the round's end, the scoring and a new deal are chance-free bookkeeping then one chance node
  that rolls all twelve dice and draws both hands (sampled only: it has ~10^18 outcomes).

Objectives (what :meth:`Rolldown.returns` scores, chosen when the game is made):

* ``round`` (default) — the game ends with the round; the winner scores 1, the loser 0, so a
  value is the probability that a player wins the round;
* ``points`` — the game ends with the round; the winner scores the round's points, the loser
  minus them (values in [-40, 40]);
* ``match`` — play on through every round to the mode's end: First to 50 (50 or more wins at
  once) or Nine rounds (higher total wins; equal totals draw, 1/2 each). Single round ends with it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from solver.game import (
    CHANCE,
    TERMINAL,
    Game,
    GameError,
    GameType,
    PositionError,
    TooManyOutcomes,
    ValueBounds,
)
from solver.rule_options import RuleOption
from solver.games.rolldown.cards import (
    ACE,
    CARD_LETTERS,
    DIE_SIDES,
    HAND_SIZE,
    JACK,
    JOKER,
    KING,
    QUEEN,
    UNKNOWN,
    full_deck,
    unseen_cards,
)

# ----- phases: what happens next at a state ----------------------------------------------------
DECIDE = 0  # the mover chooses an action
ROLL = 1  # chance rolls the pending die, then the turn ends (a reroll, or the Queen's second)
QUEEN_ROLL = 2  # chance rolls the Queen's first die, then the mover decides QUEEN_SECOND
QUEEN_SECOND = 3  # the mover chooses the Queen's second die
JOKER_ROLL = 4  # chance rerolls every die in play, then the turn ends
ROUND_OVER = 5  # the round has been won (winner/points set); next: a new deal or the match end

MODES = ("single", "first50", "nine")
OBJECTIVES = ("round", "points", "match")
ACE_VARIANTS = ("online", "printed")
TARGET_SCORE = 50
NINE_ROUNDS = 9
MAX_ROUND_POINTS = 2 * max(DIE_SIDES)

# ----- action kinds (an action is a small tuple whose first item is its kind) -------------------
CAPTURE, REROLL, SET, QUEEN_PLAY, JOKER_PLAY = range(5)
# SET covers every card that puts a die on a chosen face: (SET, card, side, slot, face)


class RolldownState(NamedTuple):
    """One RolldownBeta position. Immutable and canonical: equal positions are equal values.

    A named tuple rather than a frozen dataclass: searches create one per node, and a tuple is
    built about four times faster (1.3 us against 4.8 us measured for a one-field change).

    ``dice[p][i]`` is the face of player p's d{DIE_SIDES[i]}, 0 once it has been captured.
    ``hands[p]`` and ``discards[p]`` are sorted card codes (``UNKNOWN`` for ``?``).
    ``first_turn[p]`` is True until player p's first turn of the round has ended.
    ``pending`` is the die (side, slot) a ROLL/QUEEN_ROLL chance node rolls, else None.
    ``round_winner``/``round_points`` describe the round just won (phase ROUND_OVER), else -1/0.
    """

    dice: tuple[tuple[int, ...], tuple[int, ...]]
    mover: int
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    first_turn: tuple[bool, bool] = (False, False)
    mode: str = "single"
    scores: tuple[int, int] = (0, 0)
    round: int = 1
    discards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    starter: int = 0
    phase: int = DECIDE
    pending: tuple[int, int] | None = None
    round_winner: int = -1
    round_points: int = 0

    def dice_in_play(self, side: int) -> list[int]:
        """Slots of ``side``'s dice still in play."""
        return [slot for slot, face in enumerate(self.dice[side]) if face]

    def pairs_left(self) -> int:
        return sum(1 for face in self.dice[0] if face)


def die_name(side: int, slot: int) -> str:
    return f"{'ab'[side]}.d{DIE_SIDES[slot]}"


def _with_face(dice, side: int, slot: int, face: int):
    row = list(dice[side])
    row[slot] = face
    return (tuple(row), dice[1]) if side == 0 else (dice[0], tuple(row))


def _without_card(hands, side: int, card: int):
    row = list(hands[side])
    row.remove(card)
    return (tuple(row), hands[1]) if side == 0 else (hands[0], tuple(row))


def _with_discard(discards, side: int, cards: Sequence[int]):
    row = tuple(sorted(discards[side] + tuple(cards)))
    return (row, discards[1]) if side == 0 else (discards[0], row)


class Rolldown(Game):
    """RolldownBeta's rules with fixed options.

    >>> game = Rolldown()
    >>> s = game.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    >>> game.action_name(s, game.legal_actions(s)[0])
    'd8xd4'
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
    )
    num_players = 2

    def __init__(self, ace: str = "online", objective: str = "round", exact_chance_limit: int = 4096):
        if ace not in ACE_VARIANTS:
            raise GameError(f"unknown Ace variant '{ace}': choose one of {', '.join(ACE_VARIANTS)}")
        if objective not in OBJECTIVES:
            raise GameError(f"unknown objective '{objective}': choose one of {', '.join(OBJECTIVES)}")
        self.ace = ace
        self.objective = objective
        self.exact_chance_limit = exact_chance_limit
        if objective == "points":  # signed points: the two returns add up to 0
            self.game_type = replace(Rolldown.game_type, constant_sum=0.0)

    def __repr__(self) -> str:
        return f"Rolldown(ace={self.ace!r}, objective={self.objective!r})"

    def player_name(self, player: int) -> str:
        return "AB"[player]

    def new_game(self, rng: random.Random) -> RolldownState:
        """A single round's start: the roll-off, the twelve dice and both hands drawn with ``rng``."""
        return self.new_match("single", rng=rng)

    def is_progress(self, state: RolldownState, action) -> bool:
        """Captures are RolldownBeta's progress moves."""
        return action[0] == CAPTURE

    def exact_provider(self, tables_dir: str | None = None, *, required: bool = False):
        """The endgame tables of this Ace variant (they hold values of the round objective only)."""
        if self.objective != "round":
            if required:
                raise GameError("exact values of RolldownBeta come from endgame tables, which hold the round "
                                "objective only: drop --rule objective")
            return None
        from cache.store import TableStore
        from solver.games.rolldown.tablebase import Tablebase

        return Tablebase(TableStore(tables_dir), ace=self.ace)

    def study(self):
        from solver.games.rolldown.study import EndgameStudy

        return EndgameStudy(self.ace)

    # ----- whose turn ---------------------------------------------------------------------------
    def current_player(self, state: RolldownState) -> int:
        phase = state.phase
        if phase == DECIDE or phase == QUEEN_SECOND:
            return state.mover
        if phase == ROUND_OVER:
            return TERMINAL if self._ends_game(state) else CHANCE
        return CHANCE

    def _ends_game(self, state: RolldownState) -> bool:
        """At ROUND_OVER: does the game (under this objective) end here?"""
        if self.objective != "match" or state.mode == "single":
            return True
        if state.mode == "first50":
            return max(state.scores) >= TARGET_SCORE
        return state.round >= NINE_ROUNDS

    # ----- decisions ----------------------------------------------------------------------------
    def legal_actions(self, state: RolldownState) -> list[tuple]:
        if state.phase == QUEEN_SECOND:
            return [(REROLL, side, slot) for side in (0, 1) for slot in state.dice_in_play(side)]
        if state.phase != DECIDE:
            return []
        me, them = state.mover, 1 - state.mover
        mine, theirs = state.dice[me], state.dice[them]
        actions: list[tuple] = []
        if not state.first_turn[me]:
            for my_slot, my_face in enumerate(mine):
                if my_face:
                    actions.extend(
                        (CAPTURE, my_slot, their_slot)
                        for their_slot, their_face in enumerate(theirs)
                        if their_face and their_face <= my_face
                    )
        hand = state.hands[me]
        if UNKNOWN in hand:
            raise GameError(f"player {'AB'[me]}'s hand is not known: choose a hand before searching")
        targets = [(side, slot) for side in (0, 1) for slot in state.dice_in_play(side)]
        for card in sorted(set(hand)):
            actions.extend(self._card_actions(card, me, targets))
        actions.extend((REROLL, side, slot) for side, slot in targets)
        return actions

    def _card_actions(self, card: int, me: int, targets: list[tuple[int, int]]) -> list[tuple]:
        if card == JOKER:
            return [(JOKER_PLAY,)]
        if card == QUEEN:
            return [(QUEEN_PLAY, side, slot) for side, slot in targets]
        actions = []
        for side, slot in targets:
            top = DIE_SIDES[slot]
            if card == KING:
                actions.append((SET, card, side, slot, top))
            elif card == JACK:
                actions.append((SET, card, side, slot, 1))
            elif card == ACE:
                if self.ace == "printed" or side == me:
                    actions.append((SET, card, side, slot, top))
                if self.ace == "printed" or side != me:
                    actions.append((SET, card, side, slot, 1))
            elif card <= top:  # 2..10 only on a die that can show the number
                actions.append((SET, card, side, slot, card))
        return actions

    def action_name(self, state: RolldownState, action) -> str:
        if state.phase in (ROLL, QUEEN_ROLL):
            side, slot = state.pending
            return f"{die_name(side, slot)}={action}"
        if state.phase == JOKER_ROLL:
            return _joker_outcome_name(state, action)
        if state.phase == ROUND_OVER:
            return "deal"
        kind = action[0]
        if kind == CAPTURE:
            return f"d{DIE_SIDES[action[1]]}xd{DIE_SIDES[action[2]]}"
        if kind == REROLL:
            prefix = "Q2" if state.phase == QUEEN_SECOND else "roll"
            return f"{prefix} {die_name(action[1], action[2])}"
        if kind == SET:
            _, card, side, slot, face = action
            letter = CARD_LETTERS[card]
            if card == ACE:
                letter += "+" if face == DIE_SIDES[slot] else "-"
            return f"{letter} {die_name(side, slot)}"
        if kind == QUEEN_PLAY:
            return f"Q {die_name(action[1], action[2])}"
        return "X"

    # ----- transitions ----------------------------------------------------------------------------
    def apply(self, state: RolldownState, action) -> RolldownState:
        phase = state.phase
        if phase == DECIDE:
            return self._apply_decision(state, action)
        if phase == QUEEN_SECOND:
            return state._replace(phase=ROLL, pending=(action[1], action[2]))
        if phase == ROLL:
            side, slot = state.pending
            return _end_turn(state._replace(dice=_with_face(state.dice, side, slot, action), pending=None))
        if phase == QUEEN_ROLL:
            side, slot = state.pending
            dice = _with_face(state.dice, side, slot, action)
            return state._replace(dice=dice, phase=QUEEN_SECOND, pending=None)
        if phase == JOKER_ROLL:
            return _end_turn(state._replace(dice=_joker_dice(state, action)))
        if phase == ROUND_OVER and not self._ends_game(state):
            return _deal(state, action)
        raise GameError("the game is over: no action applies")

    def _apply_decision(self, state: RolldownState, action) -> RolldownState:
        kind = action[0]
        me = state.mover
        if kind == CAPTURE:
            return _capture(state, action[1], action[2])
        if kind == REROLL:
            return state._replace(phase=ROLL, pending=(action[1], action[2]))
        card = JOKER if kind == JOKER_PLAY else QUEEN if kind == QUEEN_PLAY else action[1]
        played = state._replace(
            hands=_without_card(state.hands, me, card),
            discards=_with_discard(state.discards, me, (card,)),
        )
        if kind == SET:
            _, _, side, slot, face = action
            return _end_turn(played._replace(dice=_with_face(state.dice, side, slot, face)))
        if kind == QUEEN_PLAY:
            return played._replace(phase=QUEEN_ROLL, pending=(action[1], action[2]))
        return played._replace(phase=JOKER_ROLL)

    # ----- chance --------------------------------------------------------------------------------
    def chance_outcome_count(self, state: RolldownState) -> int:
        if state.phase in (ROLL, QUEEN_ROLL):
            return DIE_SIDES[state.pending[1]]
        if state.phase == JOKER_ROLL:
            return math.prod(DIE_SIDES[slot] for side in (0, 1) for slot in state.dice_in_play(side))
        if state.phase == ROUND_OVER:
            return _deal_outcome_count(state)
        return 0

    def chance_outcomes(self, state: RolldownState) -> list[tuple[object, float]]:
        if state.phase in (ROLL, QUEEN_ROLL):
            sides = DIE_SIDES[state.pending[1]]
            return [(face, 1.0 / sides) for face in range(1, sides + 1)]
        count = self.chance_outcome_count(state)
        if state.phase == JOKER_ROLL and count <= self.exact_chance_limit:
            ranges = [range(1, DIE_SIDES[slot] + 1) for side in (0, 1) for slot in state.dice_in_play(side)]
            return [(faces, 1.0 / count) for faces in itertools.product(*ranges)]
        if count:
            raise TooManyOutcomes(f"this chance node has {count:,} outcomes: sample it")
        return []

    def sample_chance(self, state: RolldownState, rng: random.Random):
        if state.phase in (ROLL, QUEEN_ROLL):
            return rng.randint(1, DIE_SIDES[state.pending[1]])
        if state.phase == JOKER_ROLL:
            return tuple(rng.randint(1, DIE_SIDES[slot]) for side in (0, 1) for slot in state.dice_in_play(side))
        if state.phase == ROUND_OVER:
            return _sample_deal(state, rng)
        raise GameError("not a chance node")

    # ----- results ---------------------------------------------------------------------------------
    def returns(self, state: RolldownState) -> tuple[float, float]:
        if self.objective == "points":
            points = state.round_points
            return (points, -points) if state.round_winner == 0 else (-points, points)
        if self.objective == "round" or state.mode == "single":
            return (1.0, 0.0) if state.round_winner == 0 else (0.0, 1.0)
        a, b = state.scores
        return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)

    def value_bounds(self) -> ValueBounds:
        if self.objective == "points":
            return ValueBounds(-MAX_ROUND_POINTS, MAX_ROUND_POINTS)
        return ValueBounds(0.0, 1.0)

    def describe_value(self) -> str:
        return {
            "round": "probability of winning the round",
            "points": "expected signed points of the round",
            "match": "probability of winning the match (a draw counts 1/2)",
        }[self.objective]

    def key(self, state: RolldownState) -> RolldownState:
        """The state itself, except that a face about to be rerolled is blanked (-1): it cannot
        affect anything, and sharing the key lets caches and solvers merge those positions (a
        measured 2.8 times fewer states for the exact solver with a Joker in hand)."""
        phase = state.phase
        if phase == ROLL or phase == QUEEN_ROLL:
            side, slot = state.pending
            return state._replace(dice=_with_face(state.dice, side, slot, -1))
        if phase == JOKER_ROLL:
            return state._replace(dice=tuple(tuple(-1 if f else 0 for f in row) for row in state.dice))
        return state

    # ----- starting positions --------------------------------------------------------------------
    def new_match(self, mode: str = "single", rng: random.Random | None = None, first: int | None = None):
        """A match's first position: ``first`` starts round 1 (Play again: the other player), or
        the roll-off decides (``rng``). Dice are rolled and hands drawn with ``rng``."""
        if mode not in MODES:
            raise GameError(f"unknown mode '{mode}': choose one of {', '.join(MODES)}")
        if first not in (None, 0, 1):
            raise GameError(f"first must be 0 (A), 1 (B) or None (a roll-off), not {first!r}")
        rng = rng or random.Random()
        if first is None:
            first = rng.randrange(2)  # the roll-off: each player equally likely to go first
        before = RolldownState(dice=((0,) * 6, (0,) * 6), mover=first, mode=mode, round=0,
                               starter=1 - first, phase=ROUND_OVER, round_winner=first)
        return _deal(before, _sample_deal(before, rng))

    # ----- notation, evaluation ----------------------------------------------------------------------
    def parse(self, text: str) -> RolldownState:
        from solver.games.rolldown.notation import parse_position

        state = parse_position(text)
        if self.objective == "points" and state.mode == "single":
            raise PositionError("a single round keeps no points: --rule objective=points applies to first50 and nine")
        return state

    def format(self, state: RolldownState) -> str:
        from solver.games.rolldown.notation import format_position

        return format_position(state)

    def notation_help(self) -> str:
        from solver.games.rolldown.notation import NOTATION_HELP

        return NOTATION_HELP

    def example_position(self) -> str:
        return "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a 5QK/8JX"

    def determinize(self, state: RolldownState, *, max_exact: int = 2000, samples: int = 200, seed: int = 0):
        from solver.games.rolldown.hands import possible_hands

        return possible_hands(state, max_exact=max_exact, samples=samples, seed=seed)

    def evaluate(self, state: RolldownState, player: int) -> float:
        from solver.games.rolldown.evaluation import evaluate

        return evaluate(self, state, player)


# ----- transitions as functions of the state (no rules options involved) ----------------------------
def _end_turn(state: RolldownState) -> RolldownState:
    me = state.mover
    first_turn = (False, state.first_turn[1]) if me == 0 else (state.first_turn[0], False)
    return state._replace(mover=1 - me, first_turn=first_turn, phase=DECIDE, pending=None)


def _capture(state: RolldownState, my_slot: int, their_slot: int) -> RolldownState:
    me = state.mover
    dice = _with_face(state.dice, me, my_slot, 0)
    dice = _with_face(dice, 1 - me, their_slot, 0)
    if any(dice[0]):
        return _end_turn(state._replace(dice=dice))
    points = DIE_SIDES[my_slot] + DIE_SIDES[their_slot]
    scores = state.scores
    if state.mode != "single":
        scores = (scores[0] + points, scores[1]) if me == 0 else (scores[0], scores[1] + points)
    # Leftover cards are shown, then go face up onto their owner's discard pile.
    discards = _with_discard(_with_discard(state.discards, 0, state.hands[0]), 1, state.hands[1])
    return state._replace(
        dice=dice, hands=((), ()), discards=discards, scores=scores, first_turn=(False, False),
        mover=1 - state.starter, phase=ROUND_OVER, pending=None, round_winner=me, round_points=points,
    )


def _joker_dice(state: RolldownState, faces: tuple[int, ...]):
    rows = [list(state.dice[0]), list(state.dice[1])]
    it = iter(faces)
    for side in (0, 1):
        for slot in state.dice_in_play(side):
            rows[side][slot] = next(it)
    return tuple(rows[0]), tuple(rows[1])


def _joker_outcome_name(state: RolldownState, faces: tuple[int, ...]) -> str:
    dice = _joker_dice(state, faces)
    return " ".join(
        "ab"[side] + ":" + ",".join(str(dice[side][slot]) for slot in state.dice_in_play(side)) for side in (0, 1)
    )


def _deck(state: RolldownState, side: int) -> Counter:
    """The cards in ``side``'s draw deck: its 27 less its discards and its hand."""
    return unseen_cards(state.discards[side] + state.hands[side])


def _deal_outcome_count(state: RolldownState) -> int:
    dice = math.prod(DIE_SIDES) ** 2
    hands = 1
    for side in (0, 1):
        deck = sum(_deck(state, side).values())
        hands *= math.comb(deck, HAND_SIZE) if deck >= HAND_SIZE else math.comb(27, HAND_SIZE)
    return dice * hands


def _draw(deck: Counter, discards: tuple[int, ...], rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Draw a hand; an empty deck is reshuffled from its own discards. Returns (hand, discards)."""
    cards = list(deck.elements())
    rng.shuffle(cards)
    hand = []
    for _ in range(HAND_SIZE):
        if not cards:
            cards = list(discards)
            discards = ()
            rng.shuffle(cards)
        hand.append(cards.pop())
    return tuple(sorted(hand)), discards


def _sample_deal(state: RolldownState, rng: random.Random):
    dice = tuple(tuple(rng.randint(1, s) for s in DIE_SIDES) for _ in (0, 1))
    hand_a, discards_a = _draw(_deck(state, 0), state.discards[0], rng)
    hand_b, discards_b = _draw(_deck(state, 1), state.discards[1], rng)
    return dice, (hand_a, hand_b), (discards_a, discards_b)


def _deal(state: RolldownState, outcome) -> RolldownState:
    dice, hands, discards = outcome
    if any(UNKNOWN in d for d in discards):
        raise GameError("unknown cards cannot be dealt")
    starter = 1 - state.starter
    return RolldownState(
        dice=dice, mover=starter, hands=hands, first_turn=(True, True), mode=state.mode,
        scores=state.scores, round=state.round + 1, discards=discards, starter=starter,
    )


__all__ = ["Rolldown", "RolldownState", "die_name", "full_deck"]
