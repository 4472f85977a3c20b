"""RolldownBeta, every rule: dice, captures, rerolls, the thirteen card kinds, rounds and modes.

Rules text: ``shared/rules/rolldown-beta.txt``. Players are 0 (A) and 1 (B).

:class:`RolldownRules` holds the rule methods the searches call on every node (whose turn, the
legal moves, a move's result, chance, returns); :class:`dicetree.solver.games.rolldown.game.Rolldown`
inherits them and adds notation, evaluation and the hooks, so the hot path has no delegation.
The state (:class:`~dicetree.solver.games.rolldown.state.RolldownState`) is a frozen value of small tuples,
so it is its own cache key. A turn is one decision; some decisions lead to a chance node first:

* capture ``d8xd6`` (my d8 takes their d6: the opponent's die shows the same number or less;
  not on a player's first turn of the round) — both dice leave play; the sixth capture ends the
  round and its maker wins it, scoring the sides of the final pair;
* reroll ``roll b.d6`` — chance rolls that die, then the turn ends;
* a card: ``7 a.d8`` (2..10, only on a die that can show it), ``J b.d4`` (to 1), ``K a.d20``
  (to its top face), ``A+ a.d8`` / ``A- b.d6`` (Ace: in the default *online* variant your own die to
  its top or an opponent's to 1; in the *printed* variant either end on any die), ``Q a.d8`` (Queen:
  chance rolls that die, then the same player chooses ``Q2 b.d6``, chance rolls it, turn ends), ``X``
  (Joker: chance rerolls every die in play). A card that changes nothing is legal and uses the turn.
  Which faces a set-face card may give a die is :func:`card_faces`, the one statement of those
  effects (the endgame tables read it too).

Interpretations the rule text leaves open (stated in docs/games/rolldown.md too):

* a played card goes onto its owner's discard pile at once; cards left in hand at the round's end
  follow it there, so a deck is empty after nine rounds and reshuffled from all 27 in round 10;
* each round's first player alternates from the round-1 starter (the roll-off, a chance node at
  the start of a match; on Play again the other player starts round 1: :meth:`RolldownRules.new_match`);
* the round's end, the scoring and a new deal are chance-free bookkeeping then one chance node
  that rolls all twelve dice and draws both hands (sampled only: it has ~10^18 outcomes).

Objectives (what :meth:`RolldownRules.returns` scores, chosen when the game is made):

* ``round`` (default) — the game ends with the round; the winner scores 1, the loser 0, so a
  value is the probability that a player wins the round;
* ``points`` — the game ends with the round; the winner scores the round's points, the loser
  minus them (values in [-40, 40]);
* ``match`` — the probability of winning the match: First to 50 (50 or more wins at once) or Nine
  rounds (higher total wins; equal totals draw, 1/2 each). With the default ``horizon="round"`` the
  game ends with the round too, valued by the match equity tables at the scores after it (exact where
  the match is over: :mod:`dicetree.solver.games.rolldown.match_equity`); with ``horizon="match"`` it plays
  on through every round to the mode's end (full matches). Single round ends with it.

>>> rules = RolldownRules()
>>> state = RolldownState(dice=((0, 2, 5, 0, 0, 0), (3, 6, 0, 0, 0, 0)), mover=0, hands=((13,), ()))
>>> rules.legal_actions(state)[:3]
[Capture(my_slot=2, their_slot=0, kind=0), SetFace(card=13, side=0, slot=1, face=6, kind=2), SetFace(card=13, side=0, slot=2, face=8, kind=2)]
>>> card_faces(ACE, 8, own=True, ace="online"), card_faces(ACE, 8, own=False, ace="printed"), card_faces(9, 8, True, "online")
((8,), (8, 1), ())
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence

from dicetree.solver.game import CHANCE, TERMINAL, GameError, TooManyOutcomes, ValueBounds
from dicetree.solver.games.rolldown.cards import (
    ACE,
    DECK_SIZE,
    DIE_SIDES,
    HAND_SIZE,
    JACK,
    JOKER,
    KING,
    QUEEN,
    UNKNOWN,
    unseen_cards,
)
from dicetree.solver.games.rolldown.match_equity import load_tables
from dicetree.solver.games.rolldown.state import (
    ACE_VARIANTS,
    DECIDE,
    JOKER_ACTION,
    JOKER_PLAY,
    JOKER_ROLL,
    MAX_ROUND_POINTS,
    HORIZONS,
    MODES,
    NINE_ROUNDS,
    OBJECTIVE_SUMS,
    OBJECTIVES,
    PLAYER_NAMES,
    QUEEN_PLAY,
    QUEEN_ROLL,
    QUEEN_SECOND,
    ROLL,
    ROUND_OVER,
    TARGET_SCORE,
    Action,
    Capture,
    QueenPlay,
    Reroll,
    RolldownState,
    SetFace,
)
from dicetree.solver.pov import PointOfView


def card_faces(card: int, sides: int, own: bool, ace: str) -> tuple[int, ...]:
    """The faces a set-face card (2..10, J, K, A) may put on a die with ``sides``, the mover's own
    (``own``) or the opponent's; ``()`` where it cannot be played on that die. The Ace's two ends
    come top first."""
    if card == KING:
        return (sides,)
    if card == JACK:
        return (1,)
    if card == ACE:
        if ace == "printed":
            return (sides, 1)
        return (sides,) if own else (1,)
    return (card,) if card <= sides else ()  # 2..10 only on a die that can show the number


def played_card(action: Action) -> int | None:
    """The card a decision plays, or None for a capture or a reroll."""
    if isinstance(action, SetFace):
        return action.card
    kind = action.kind
    return QUEEN if kind == QUEEN_PLAY else JOKER if kind == JOKER_PLAY else None


class RolldownRules:
    """RolldownBeta's rule methods with fixed options (the :class:`dicetree.solver.game.Game` interface's
    rule half; :class:`~dicetree.solver.games.rolldown.game.Rolldown` is the game)."""

    def __init__(self, ace: str = "online", objective: str = "round", exact_chance_limit: int = 4096,
                 horizon: str = "round"):
        if ace not in ACE_VARIANTS:
            raise GameError(f"unknown Ace variant '{ace}': choose one of {', '.join(ACE_VARIANTS)}")
        if objective not in OBJECTIVES:
            raise GameError(f"unknown objective '{objective}': choose one of {', '.join(OBJECTIVES)}")
        if horizon not in HORIZONS:
            raise GameError(f"unknown horizon '{horizon}': choose one of {', '.join(HORIZONS)}")
        self.ace = ace
        self.objective = objective
        self.horizon = horizon
        # the tables' data file is read (and checked) now, so a damaged one is one line up front
        self.equity = load_tables() if objective == "match" else None
        self.exact_chance_limit = exact_chance_limit
        self.pov = PointOfView(OBJECTIVE_SUMS[objective])

    # ----- whose turn ---------------------------------------------------------------------------
    def current_player(self, state: RolldownState) -> int:
        phase = state.phase
        if phase in (DECIDE, QUEEN_SECOND):
            return state.mover
        if phase == ROUND_OVER:
            return TERMINAL if self.ends_game(state) else CHANCE
        return CHANCE

    def ends_game(self, state: RolldownState) -> bool:
        """At ROUND_OVER: does the game (under this objective and horizon) end here?"""
        if self.objective != "match" or state.mode == "single" or self.horizon == "round":
            return True
        if state.mode == "first50":
            return max(state.scores) >= TARGET_SCORE
        return state.round >= NINE_ROUNDS

    # ----- decisions ----------------------------------------------------------------------------
    def legal_actions(self, state: RolldownState) -> list[Action]:
        if state.phase == QUEEN_SECOND:
            return [Reroll(side, slot) for side in (0, 1) for slot in state.dice_in_play(side)]
        if state.phase != DECIDE:
            return []
        me, them = state.mover, 1 - state.mover
        mine, theirs = state.dice[me], state.dice[them]
        actions: list[Action] = []
        if not state.first_turn[me]:
            for my_slot, my_face in enumerate(mine):
                if my_face:
                    actions.extend(
                        Capture(my_slot, their_slot)
                        for their_slot, their_face in enumerate(theirs)
                        if their_face and their_face <= my_face
                    )
        hand = state.hands[me]
        if UNKNOWN in hand:
            raise GameError(f"player {PLAYER_NAMES[me]}'s hand is not known: choose a hand before searching")
        targets = [(side, slot) for side in (0, 1) for slot in state.dice_in_play(side)]
        for card in sorted(set(hand)):
            actions.extend(self._card_actions(card, me, targets))
        actions.extend(Reroll(side, slot) for side, slot in targets)
        return actions

    def _card_actions(self, card: int, me: int, targets: list[tuple[int, int]]) -> list[Action]:
        if card == JOKER:
            return [JOKER_ACTION]
        if card == QUEEN:
            return [QueenPlay(side, slot) for side, slot in targets]
        ace = self.ace
        return [SetFace(card, side, slot, face) for side, slot in targets
                for face in card_faces(card, DIE_SIDES[slot], side == me, ace)]

    # ----- transitions ----------------------------------------------------------------------------
    def apply(self, state: RolldownState, action) -> RolldownState:
        phase = state.phase
        if phase == DECIDE:
            return self._apply_decision(state, action)
        if phase == QUEEN_SECOND:
            return state._replace(phase=ROLL, pending=(action.side, action.slot))
        if phase == ROLL:
            assert state.pending is not None  # a ROLL node always has its die
            side, slot = state.pending
            return _end_turn(state._replace(dice=_with_face(state.dice, side, slot, action), pending=None))
        if phase == QUEEN_ROLL:
            assert state.pending is not None
            side, slot = state.pending
            dice = _with_face(state.dice, side, slot, action)
            return state._replace(dice=dice, phase=QUEEN_SECOND, pending=None)
        if phase == JOKER_ROLL:
            return _end_turn(state._replace(dice=joker_dice(state, action)))
        if phase == ROUND_OVER and not self.ends_game(state):
            return _deal(state, action)
        raise GameError("the game is over: no action applies")

    def _apply_decision(self, state: RolldownState, action: Action) -> RolldownState:
        me = state.mover
        if isinstance(action, Capture):
            return _capture(state, action.my_slot, action.their_slot)
        if isinstance(action, Reroll):
            return state._replace(phase=ROLL, pending=(action.side, action.slot))
        card = played_card(action)
        assert card is not None  # every other decision plays a card
        played = state._replace(
            hands=_without_card(state.hands, me, card),
            discards=_with_discard(state.discards, me, (card,)),
        )
        if isinstance(action, SetFace):
            return _end_turn(played._replace(dice=_with_face(state.dice, action.side, action.slot, action.face)))
        if isinstance(action, QueenPlay):
            return played._replace(phase=QUEEN_ROLL, pending=(action.side, action.slot))
        return played._replace(phase=JOKER_ROLL)

    # ----- chance --------------------------------------------------------------------------------
    def chance_outcome_count(self, state: RolldownState) -> int:
        if state.phase in (ROLL, QUEEN_ROLL):
            assert state.pending is not None
            return DIE_SIDES[state.pending[1]]
        if state.phase == JOKER_ROLL:
            return math.prod(DIE_SIDES[slot] for side in (0, 1) for slot in state.dice_in_play(side))
        if state.phase == ROUND_OVER:
            return _deal_outcome_count(state)
        return 0

    def chance_outcomes(self, state: RolldownState) -> list[tuple[object, float]]:
        if state.phase in (ROLL, QUEEN_ROLL):
            assert state.pending is not None
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
            assert state.pending is not None
            return rng.randint(1, DIE_SIDES[state.pending[1]])
        if state.phase == JOKER_ROLL:
            return tuple(rng.randint(1, DIE_SIDES[slot]) for side in (0, 1) for slot in state.dice_in_play(side))
        if state.phase == ROUND_OVER:
            return _sample_deal(state, rng)
        raise GameError("not a chance node")

    # ----- results ---------------------------------------------------------------------------------
    def returns(self, state: RolldownState) -> tuple[float, float]:
        """A's return, and B's through the point of view (the returns add up to the objective's constant)."""
        a: float
        if self.objective == "points":
            a = state.round_points if state.round_winner == 0 else -state.round_points
        elif self.objective == "round" or state.mode == "single":
            a = 1.0 if state.round_winner == 0 else 0.0
        else:  # the match: exact where it is over, else the tables at the scores after the round
            assert self.equity is not None  # loaded for the match objective
            a = self.equity.value(state.mode, state.scores, 1 - state.starter, state.round + 1)
        return a, self.pov.flip(a)

    def value_bounds(self) -> ValueBounds:
        if self.objective == "points":
            return ValueBounds(-MAX_ROUND_POINTS, MAX_ROUND_POINTS)
        return ValueBounds(0.0, 1.0)

    def key(self, state: RolldownState) -> RolldownState:
        """The state itself, except that a face about to be rerolled is blanked (-1): it cannot
        affect anything, and sharing the key lets caches and solvers merge those positions (a
        measured 2.8 times fewer states for the exact solver with a Joker in hand)."""
        phase = state.phase
        if phase in (ROLL, QUEEN_ROLL):
            assert state.pending is not None
            side, slot = state.pending
            return state._replace(dice=_with_face(state.dice, side, slot, -1))
        if phase == JOKER_ROLL:
            mine, theirs = (tuple(-1 if f else 0 for f in row) for row in state.dice)
            return state._replace(dice=(mine, theirs))
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
        return self.next_round(before, rng)

    def next_round(self, state: RolldownState, rng: random.Random) -> RolldownState:
        """The next round's start after the finished round ``state``, dealt with ``rng``, whatever the
        objective (a match played round by round, or a deal of a given round number)."""
        if state.phase != ROUND_OVER:
            raise GameError("only a finished round (phase won:...) is followed by a deal")
        return _deal(state, _sample_deal(state, rng))


# ----- transitions as functions of the state (no rule options involved) ----------------------------
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


def joker_dice(state: RolldownState, faces: tuple[int, ...]):
    """Both players' dice once a Joker's outcome ``faces`` (every die in play, A's then B's) is rolled."""
    rows = [list(state.dice[0]), list(state.dice[1])]
    it = iter(faces)
    for side in (0, 1):
        for slot in state.dice_in_play(side):
            rows[side][slot] = next(it)
    return tuple(rows[0]), tuple(rows[1])


def _deck(state: RolldownState, side: int) -> Counter:
    """The cards in ``side``'s draw deck: its 27 less its discards and its hand."""
    return unseen_cards(state.discards[side] + state.hands[side])


def _deal_outcome_count(state: RolldownState) -> int:
    dice = math.prod(DIE_SIDES) ** 2
    hands = 1
    for side in (0, 1):
        deck = sum(_deck(state, side).values())
        hands *= math.comb(deck, HAND_SIZE) if deck >= HAND_SIZE else math.comb(DECK_SIZE, HAND_SIZE)
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


__all__ = ["RolldownRules", "card_faces", "joker_dice", "played_card"]
