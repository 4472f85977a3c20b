"""RolldownBeta position strings and move names: parse, validate, and write the canonical form.

See :data:`NOTATION_HELP` (also printed by ``dicetree notation rolldown``).

>>> from dicetree.solver.games.rolldown.rules import RolldownRules
>>> rules = RolldownRules()
>>> state = parse_position("d8:5,d6:2/d6:6,d4:3 a KQ/-", rules)
>>> format_position(state, rules), action_name(state, rules.legal_actions(state)[0])
('d6:2,d8:5/d4:3,d6:6 a QK/-', 'd8xd4')
>>> parse_position("d6:02/d4:3 a -/-", rules)
Traceback (most recent call last):
...
dicetree.solver.game.PositionError: '02' in 'd6:02' has a leading zero: write 2 (a position has one spelling)
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from dicetree.solver.game import PositionError
from dicetree.solver.games.rolldown.cards import (
    ACE,
    CARD_LETTERS,
    CARD_NAMES,
    CARD_OF_LETTER,
    DECK_COPIES,
    DECK_SIZE,
    DIE_SIDES,
    HAND_SIZE,
    JOKER,
    QUEEN,
    SLOT_OF_SIDES,
    UNKNOWN,
    cards_text,
)
from dicetree.solver.games.rolldown.rules import RolldownRules, joker_dice
from dicetree.solver.games.rolldown.state import (
    DECIDE,
    JOKER_ROLL,
    MODES,
    NINE_ROUNDS,
    NOBODY,
    PHASE_NAMES,
    PLAYER_LETTERS,
    PLAYER_NAMES,
    QUEEN_ROLL,
    QUEEN_SECOND,
    ROLL,
    ROUND_OVER,
    TARGET_SCORE,
    Capture,
    QueenPlay,
    Reroll,
    RolldownState,
    SetFace,
)
from dicetree.solver.players import not_a_player, player_seat
from dicetree.solver.rule_options import shorten

NOTATION_HELP = """\
RolldownBeta position notation (space-separated fields; the ones in [] are optional):

  <A dice>/<B dice> <mover> <A hand>/<B hand> [<first-turn> <mode> <scores> <round> <A discards>/<B discards> <starter> <phase>] [seen:<player>]

  dice        comma-separated d<sides>:<face> for the dice still in play, e.g. d6:2,d8:5
              (sides 4, 6, 8, 10, 12, 20; one die of each kind a player; both sides equally many)
  mover       a or b: who acts now
  hands       A's cards / B's cards: 2-9, T (10), J, Q, K, A, X (Joker), ? (a card not known),
              - for none; at most 3. The mover knows their own cards: a position is what the mover
              sees (the opponent's cards may be ?), or all of it
  first-turn  players who have not yet had their first turn this round: ab, a, b or -   (default -)
              (they still hold the 3 cards dealt; the mover may have played one this turn)
  mode        single, first50 or nine                                                  (default single)
  scores      A-B points so far, e.g. 12-30 (a single round keeps none)               (default 0-0)
  round       the round number (1 in a single round, 1..9 in nine rounds)             (default 1)
  discards    each player's face-up discard pile, cards as above (no ?)                (default -/-)
  starter     who went first this round, a or b    (default: the mover when first-turn is ab, the
              other player when first-turn names only the mover, otherwise a)
  phase       what happens next                                                          (default -)
                -            the mover chooses an action
                roll:a.d8    chance rolls A's d8 (a reroll, or a Queen's second reroll); the turn ends
                queen:b.d6   chance rolls B's d6 for a Queen; then the mover chooses the second die
                q2           the mover chooses the Queen's second die
                joker        chance rerolls every die in play
                won:a:24     A made the last capture and won the round for 24 points (dice -/-)
  seen:a      last, only in what the other player sees of the mover's turn (the mover's cards ?)

A deck holds two of each rank and one Joker: a hand and its owner's discards together may not
hold more, nor more than the rounds so far have dealt (3 a round; the deck is reshuffled in round
10). A Queen or Joker being played is already on the mover's discard pile. Scores must be
reachable in the rounds already finished: each gave its winner the sides of two dice (8 to 32,
or 40). Numbers have no leading zeros. The canonical form drops optional fields that have their
default, from the end.

Moves (mover's view): d8xd6 (my d8 takes their d6, which shows the same or less), roll b.d6,
  7 a.d8 (set to 7), J b.d4 (to 1), K a.d20 (to its top), A+ a.d8 / A- b.d6 (Ace to top / to 1),
  Q a.d8 then Q2 b.d6 (Queen: two rerolls, the second chosen after seeing the first), X (Joker).

Examples:
  d6:2,d8:5/d4:3,d6:6 a QK/-
      A to move with a Queen and a King, B has no cards; two dice a side.
  d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 b ???/5QK ab
      A round start: B moves first with 5, Q and K and does not know A's hand (neither may capture yet).
  d20:14/d8:8 b -/- - first50 44-38 7 AA259JQQK/3456789TTJQ
      First to 50, round 7: the last pair; B to move.
"""

# ASCII digits only ([0-9], not \d): int() of other Unicode digits would accept non-canonical text
_DIE_TOKEN = re.compile(r"d([0-9]+):([0-9]+)$")
_SCORES = re.compile(r"([0-9]+)-([0-9]+)$")
_PENDING = re.compile(r"(roll|queen):([abAB])\.d([0-9]+)$")
_WON = re.compile(r"won:([abAB]):([0-9]+)$")
_ROUND = re.compile(r"[0-9]+$")
SEEN_PREFIX = "seen:"
MAX_FIELDS = 10  # dice, mover, hands, first-turn, mode, scores, round, discards, starter, phase
MAX_DIGITS = 9  # longer numbers are refused before int() (which refuses over 4300 digits itself)
ROUND_POINTS = frozenset(a + b for a in DIE_SIDES for b in DIE_SIDES)
"""Every number of points a round can score: the sides of two dice (8..32 even, and 40)."""
ROUNDS_PER_DECK = DECK_SIZE // HAND_SIZE  # 9: then the deck is reshuffled from the discards


def parse_position(text: str, game: RolldownRules) -> RolldownState:
    """Parse and validate a position string for ``game`` (its objective: points need a match);
    :class:`PositionError` says precisely what is wrong."""
    fields = text.split()
    seen_by = NOBODY
    if fields and fields[-1].startswith(SEEN_PREFIX):
        seen_by = _player(fields.pop()[len(SEEN_PREFIX):], "seen")
    misplaced = next((f for f in fields if f.startswith(SEEN_PREFIX)), None)
    if misplaced:
        raise PositionError(f"'{shorten(misplaced)}' goes last in a position")
    if len(fields) < 3:
        raise PositionError(
            f"a RolldownBeta position needs at least 3 fields (dice, mover, hands), got {len(fields)}: '{shorten(text)}'"
        )
    if len(fields) > MAX_FIELDS:
        raise PositionError(
            f"unknown field '{shorten(fields[MAX_FIELDS])}': a position has at most {MAX_FIELDS} fields"
        )
    dice_f, mover_f, hands_f, *given = fields
    optional: list[str | None] = [*given, *[None] * (MAX_FIELDS - len(fields))]
    first_f, mode_f, scores_f, round_f, discards_f, starter_f, phase_f = optional

    mover = _player(mover_f, "mover")
    phase, pending, round_winner, round_points = _phase(phase_f or "-")
    dice = _dice_pair(dice_f, allow_empty=phase == ROUND_OVER)
    hands = _card_pair(hands_f, "hands", allow_unknown=True)
    first_turn = _first_turn(first_f or "-")
    mode = mode_f or "single"
    if mode not in MODES:
        raise PositionError(f"unknown mode '{shorten(mode)}': choose single, first50 or nine")
    scores = _scores(scores_f or "0-0")
    round_number = _round(round_f or "1")
    discards = _card_pair(discards_f or "-/-", "discards", allow_unknown=False)
    starter = _player(starter_f, "starter") if starter_f else _default_starter(first_turn, mover)

    state = RolldownState(
        dice=dice, mover=mover, hands=hands, first_turn=first_turn, mode=mode, scores=scores,
        round=round_number, discards=discards, starter=starter, phase=phase, pending=pending,
        round_winner=round_winner, round_points=round_points, seen_by=seen_by,
    )
    _check_consistency(state)
    if game.objective == "points" and state.mode == "single":
        raise PositionError("a single round keeps no points: --rule objective=points applies to first50 and nine")
    return state


def format_position(state: RolldownState, game: RolldownRules | None = None) -> str:
    """The canonical position string of ``state`` (the same under every rule option of ``game``)."""
    dice = "/".join(
        ",".join(f"d{DIE_SIDES[slot]}:{face}" for slot, face in enumerate(row) if face) or "-" for row in state.dice
    )
    fields = [dice, PLAYER_LETTERS[state.mover], "/".join(cards_text(h) for h in state.hands)]
    optional = [
        ("".join(PLAYER_LETTERS[p] for p in (0, 1) if state.first_turn[p]) or "-", "-"),
        (state.mode, "single"),
        (f"{state.scores[0]}-{state.scores[1]}", "0-0"),
        (str(state.round), "1"),
        ("/".join(cards_text(d) for d in state.discards), "-/-"),
        (PLAYER_LETTERS[state.starter], PLAYER_LETTERS[_default_starter(state.first_turn, state.mover)]),
        (_phase_text(state), "-"),
    ]
    while optional and optional[-1][0] == optional[-1][1]:
        optional.pop()
    seen = [] if state.seen_by == NOBODY else [SEEN_PREFIX + PLAYER_LETTERS[state.seen_by]]
    return " ".join(fields + [value for value, _ in optional] + seen)


def notation_help(game: RolldownRules | None = None) -> str:
    """The notation's documentation, with examples (``dicetree notation rolldown``)."""
    return NOTATION_HELP


# ----- move names ----------------------------------------------------------------------------------
def die_name(side: int, slot: int) -> str:
    """``a.d8``: player ``side``'s die in ``slot``."""
    return f"{PLAYER_LETTERS[side]}.d{DIE_SIDES[slot]}"


def action_name(state: RolldownState, action) -> str:
    """The name of a decision or a chance outcome at ``state`` (``d8xd6``, ``Q2 b.d6``, ``b.d6=3``, ``deal``)."""
    phase = state.phase
    if phase in (ROLL, QUEEN_ROLL):
        assert state.pending is not None  # a roll's chance node has its die
        return f"{die_name(*state.pending)}={action}"
    if phase == JOKER_ROLL:
        dice = joker_dice(state, action)
        return " ".join(
            PLAYER_LETTERS[side] + ":" + ",".join(str(dice[side][slot]) for slot in state.dice_in_play(side))
            for side in (0, 1)
        )
    if phase == ROUND_OVER:
        return "deal"
    if isinstance(action, Capture):
        return f"d{DIE_SIDES[action.my_slot]}xd{DIE_SIDES[action.their_slot]}"
    if isinstance(action, Reroll):
        prefix = "Q2" if phase == QUEEN_SECOND else "roll"
        return f"{prefix} {die_name(action.side, action.slot)}"
    if isinstance(action, SetFace):
        letter = CARD_LETTERS[action.card]
        if action.card == ACE:  # which end
            letter += "+" if action.face == DIE_SIDES[action.slot] else "-"
        return f"{letter} {die_name(action.side, action.slot)}"
    if isinstance(action, QueenPlay):
        return f"Q {die_name(action.side, action.slot)}"
    return "X"


# ----- fields ------------------------------------------------------------------------------------
def _player(token: str, what: str) -> int:
    """The player ``token`` names: written ``a`` or ``b`` (capitals here are cards), read in every
    form :mod:`dicetree.solver.players` reads (``A``, ``P1``)."""
    seat = player_seat(token, len(PLAYER_LETTERS))
    if seat is None:
        raise PositionError(not_a_player(shorten(token), len(PLAYER_LETTERS), what))
    return seat


def _default_starter(first_turn: tuple[bool, bool], mover: int) -> int:
    if all(first_turn):
        return mover
    if first_turn[mover]:
        return 1 - mover
    return 0


def _dice_pair(token: str, allow_empty: bool):
    halves = token.split("/")
    if len(halves) != 2:
        raise PositionError(f"dice field must be '<A dice>/<B dice>', got '{shorten(token)}'")
    rows = tuple(_dice(half, PLAYER_NAMES[i]) for i, half in enumerate(halves))
    counts = [sum(1 for f in row if f) for row in rows]
    if counts[0] != counts[1]:
        raise PositionError(
            f"A has {counts[0]} dice in play and B has {counts[1]}: every capture removes one of each, so they must be equal"
        )
    if counts[0] == 0 and not allow_empty:
        raise PositionError("no dice in play: only a won round (phase won:...) has none")
    if counts[0] and allow_empty:
        raise PositionError("a won round has no dice in play: write the dice as -/-")
    return rows


def _dice(text: str, player: str) -> tuple[int, ...]:
    faces = [0] * len(DIE_SIDES)
    if text == "-":
        return tuple(faces)
    for token in text.split(","):
        match = _DIE_TOKEN.match(token)
        if not match:
            raise PositionError(f"{player}'s die '{shorten(token)}' is not of the form d<sides>:<face>, e.g. d8:5")
        sides, face = _number(match.group(1), token), _number(match.group(2), token)
        if sides not in SLOT_OF_SIDES:
            raise PositionError(f"{player} has no d{sides}: the dice are d4, d6, d8, d10, d12 and d20")
        if not 1 <= face <= sides:
            raise PositionError(f"{player}'s d{sides} cannot show {face}: its faces are 1 to {sides}")
        slot = SLOT_OF_SIDES[sides]
        if faces[slot]:
            raise PositionError(f"{player}'s d{sides} is listed twice: each player has one die of each kind")
        faces[slot] = face
    return tuple(faces)


def _card_pair(token: str, what: str, allow_unknown: bool):
    halves = token.split("/")
    if len(halves) != 2:
        raise PositionError(f"{what} field must be '<A cards>/<B cards>', got '{shorten(token)}'")
    return tuple(_cards(half, PLAYER_NAMES[i], what, allow_unknown) for i, half in enumerate(halves))


def _cards(text: str, player: str, what: str, allow_unknown: bool) -> tuple[int, ...]:
    if text == "-":
        return ()
    if not text:
        raise PositionError(f"{player}'s {what} are written as nothing: write - for no cards")
    cards = []
    for letter in text:
        code = CARD_OF_LETTER.get(letter)
        if code is None:
            raise PositionError(
                f"'{shorten(letter)}' in {player}'s {what} is not a card: use 2-9, T, J, Q, K, A, X"
                + (", ? or -" if allow_unknown else " or -")
            )
        if code == UNKNOWN and not allow_unknown:
            raise PositionError(f"{player}'s {what} are face up: '?' is not allowed there")
        cards.append(code)
    if what == "hands" and len(cards) > HAND_SIZE:
        raise PositionError(f"{player}'s hand has {len(cards)} cards: a hand holds at most {HAND_SIZE}")
    return tuple(sorted(cards))


def _first_turn(token: str) -> tuple[bool, bool]:
    if token == "-":
        return (False, False)
    token = token.lower()  # A and B read as a and b, as everywhere
    if not token or set(token) - {"a", "b"} or len(set(token)) != len(token):
        raise PositionError(f"first-turn must be ab, a, b or -, got '{shorten(token)}'")
    return ("a" in token, "b" in token)


def _scores(token: str) -> tuple[int, int]:
    match = _SCORES.match(token)
    if not match:
        raise PositionError(f"scores must be <A>-<B> with whole numbers, e.g. 12-30, got '{shorten(token)}'")
    return _number(match.group(1), token), _number(match.group(2), token)


def _round(token: str) -> int:
    if not _ROUND.match(token) or _number(token, token) < 1:
        raise PositionError(f"round must be a whole number from 1, got '{shorten(token)}'")
    return int(token)


def _number(digits: str, token: str) -> int:
    """The value of ``digits`` (ASCII, matched by the caller) from ``token``, in its one spelling."""
    if len(digits) > MAX_DIGITS:
        raise PositionError(f"number '{shorten(digits)}' in '{shorten(token)}' is too long: at most {MAX_DIGITS} digits")
    if len(digits) > 1 and digits[0] == "0":
        raise PositionError(
            f"'{digits}' in '{shorten(token)}' has a leading zero: write {int(digits)} (a position has one spelling)"
        )
    return int(digits)


def _phase(token: str):
    """(phase, pending die, round winner, round points) from the phase field."""
    if token == "-":
        return DECIDE, None, -1, 0
    if token == PHASE_NAMES[QUEEN_SECOND]:
        return QUEEN_SECOND, None, -1, 0
    if token == PHASE_NAMES[JOKER_ROLL]:
        return JOKER_ROLL, None, -1, 0
    match = _PENDING.match(token)
    if match:
        sides = _number(match.group(3), token)
        if sides not in SLOT_OF_SIDES:
            raise PositionError(
                f"phase '{shorten(token)}' names a d{sides}: the dice are d4, d6, d8, d10, d12 and d20"
            )
        phase = PHASE_NAMES.index(match.group(1))
        return phase, (_player(match.group(2), "the die's owner"), SLOT_OF_SIDES[sides]), -1, 0
    match = _WON.match(token)
    if match:
        return ROUND_OVER, None, _player(match.group(1), "the round's winner"), _number(match.group(2), token)
    raise PositionError(
        f"unknown phase '{shorten(token)}': use -, roll:a.d8, queen:a.d8, q2, joker or won:a:24"
    )


def _phase_text(state: RolldownState) -> str:
    phase = state.phase
    if phase in (DECIDE, QUEEN_SECOND, JOKER_ROLL):
        return PHASE_NAMES[phase]
    if phase == ROUND_OVER:
        return f"{PHASE_NAMES[phase]}:{PLAYER_LETTERS[state.round_winner]}:{state.round_points}"
    assert state.pending is not None  # the rest are rolls of one die
    return f"{PHASE_NAMES[phase]}:{die_name(*state.pending)}"


# ----- the position as a whole ---------------------------------------------------------------------
def cards_drawn(round_number: int) -> int:
    """How many cards a player's deck has dealt since it was last shuffled, by round ``round_number``
    (3 a round; the deck is empty after 9 rounds and reshuffled from all 27 in round 10).

    >>> cards_drawn(1), cards_drawn(9), cards_drawn(10)
    (3, 27, 3)
    """
    return HAND_SIZE * ((round_number - 1) % ROUNDS_PER_DECK + 1)


def _check_consistency(state: RolldownState) -> None:
    _check_cards(state)
    _check_view(state)
    if state.pending is not None:
        side, slot = state.pending
        if not state.dice[side][slot]:
            raise PositionError(f"phase names {die_name(side, slot)}, which is not in play")
    _check_played_card(state)
    if any(state.first_turn):
        _check_first_turns(state)
    if state.phase == ROUND_OVER:
        _check_round_over(state)
    _check_mode(state)
    if state.phase == ROUND_OVER and state.mover != 1 - state.starter:
        raise PositionError(
            f"after a won round the mover is the next round's first player, {PLAYER_LETTERS[1 - state.starter]} "
            f"(this round's starter was {PLAYER_LETTERS[state.starter]})"
        )


def _check_cards(state: RolldownState) -> None:
    drawn = cards_drawn(state.round)
    for p, player in enumerate(PLAYER_NAMES):
        counts = Counter(c for c in state.hands[p] + state.discards[p] if c != UNKNOWN)
        for card, count in sorted(counts.items()):
            if count > DECK_COPIES[card]:
                copies = "copy" if DECK_COPIES[card] == 1 else "copies"
                raise PositionError(
                    f"{player} holds {count} x {CARD_NAMES[card]} in hand and discards: a deck has {DECK_COPIES[card]} {copies}"
                )
        held = len(state.hands[p]) + len(state.discards[p])
        if held > DECK_SIZE:
            raise PositionError(f"{player} has more cards in hand and discards than a {DECK_SIZE}-card deck")
        if held > drawn:
            since = " since the reshuffle" if state.round > ROUNDS_PER_DECK else ""
            raise PositionError(
                f"{player} has {held} cards in hand and discards, but by round {state.round} only {drawn} have "
                f"been dealt{since} ({HAND_SIZE} a round)"
            )


def _check_view(state: RolldownState) -> None:
    """A player knows their own cards: the mover's, or the viewer's of an observation (``seen:``)."""
    mover, viewer = PLAYER_NAMES[state.mover], state.seen_by
    if viewer == state.mover:
        raise PositionError(
            f"seen:{PLAYER_LETTERS[viewer]} names the mover: a position is the mover's view already, drop it"
        )
    if viewer == NOBODY and UNKNOWN in state.hands[state.mover]:
        hands = "/".join(cards_text(h) for h in state.hands)
        raise PositionError(
            f"{mover} is to move but {mover}'s own hand is unknown in '{hands}' (hands are written A/B): "
            f"write {mover}'s cards, or end with seen:{PLAYER_LETTERS[1 - state.mover]} for what the other player sees"
        )
    if viewer != NOBODY and UNKNOWN in state.hands[viewer]:
        raise PositionError(
            f"seen:{PLAYER_LETTERS[viewer]} is {PLAYER_NAMES[viewer]}'s view, but {PLAYER_NAMES[viewer]}'s own hand "
            "is unknown: a player knows their own cards"
        )


def _check_played_card(state: RolldownState) -> None:
    """A Queen or a Joker in play lies on the mover's discard pile already."""
    needed = {QUEEN_ROLL: QUEEN, QUEEN_SECOND: QUEEN, JOKER_ROLL: JOKER}.get(state.phase)
    if needed is not None and needed not in state.discards[state.mover]:
        raise PositionError(
            f"phase {PHASE_NAMES[state.phase]} follows a {CARD_NAMES[needed]} played by "
            f"{PLAYER_NAMES[state.mover]}, but {PLAYER_NAMES[state.mover]}'s discards hold none"
        )


def _check_first_turns(state: RolldownState) -> None:
    mover = state.mover
    letters = "".join(PLAYER_LETTERS[p] for p in (0, 1) if state.first_turn[p])
    if state.first_turn[1 - mover] and not state.first_turn[mover]:
        raise PositionError(
            f"first-turn says {PLAYER_LETTERS[1 - mover]} has not moved yet, but {PLAYER_LETTERS[mover]} has and "
            "is to move again"
        )
    if state.pairs_left() != len(DIE_SIDES):
        raise PositionError("first-turn is set but dice have been captured: nobody may capture on a first turn")
    # Whoever still has a first turn to finish moves no earlier than the one who has not:
    # with ab the mover went first this round; with only the mover the other player did.
    expected = mover if all(state.first_turn) else 1 - mover
    if state.starter != expected:
        raise PositionError(
            f"starter {PLAYER_LETTERS[state.starter]} is inconsistent with first-turn {letters} and mover "
            f"{PLAYER_LETTERS[mover]}: {PLAYER_LETTERS[expected]} went first this round"
        )
    # Before their first turn ends a player holds the cards dealt, less the one the mover may be playing.
    for p in (0, 1):
        if not state.first_turn[p]:
            continue
        held = len(state.hands[p])
        if p != mover or state.phase == DECIDE:
            allowed: tuple[int, ...] = (HAND_SIZE,)
        elif state.phase == ROLL:
            allowed = (HAND_SIZE, HAND_SIZE - 1)  # a reroll, or a Queen's second die
        else:
            allowed = (HAND_SIZE - 1,)  # a Queen or the Joker is being played
        if held not in allowed:
            expected_cards = " or ".join(map(str, allowed))
            raise PositionError(
                f"{PLAYER_NAMES[p]} has not finished a first turn this round (first-turn {letters}), so holds "
                f"{expected_cards} cards of the {HAND_SIZE} dealt, not {held}"
            )


def _check_round_over(state: RolldownState) -> None:
    if any(state.hands):
        raise PositionError("after a won round the hands are on the discard piles: write the hands as -/-")
    if state.round_points not in ROUND_POINTS:
        raise PositionError(
            f"a round scores the sides of two dice ({', '.join(map(str, sorted(ROUND_POINTS)))}), "
            f"not {state.round_points}"
        )


def _check_mode(state: RolldownState) -> None:
    mode, scores, round_number = state.mode, state.scores, state.round
    if mode == "single":
        if scores != (0, 0):
            raise PositionError("a single round keeps no points: scores must be 0-0")
        if round_number != 1:
            raise PositionError("a single round is round 1")
    elif mode == "nine":
        if round_number > NINE_ROUNDS:
            raise PositionError(f"nine rounds has no round {round_number}")
    elif max(scores) >= TARGET_SCORE and state.phase != ROUND_OVER:
        raise PositionError(f"a score of {max(scores)} has already won First to 50: the match is over")
    if mode == "single":
        return
    before = list(scores)  # the scores when this round began
    if state.phase == ROUND_OVER:
        winner = PLAYER_NAMES[state.round_winner]
        if scores[state.round_winner] < state.round_points:
            raise PositionError(
                f"{winner} won {state.round_points} points this round but has only {scores[state.round_winner]}"
            )
        before[state.round_winner] -= state.round_points
        if mode == "first50" and max(before) >= TARGET_SCORE:
            raise PositionError(
                f"a score of {max(before)} before this round had already won First to 50: the match was over"
            )
    for p, player in enumerate(PLAYER_NAMES):
        if before[p] % 2:
            raise PositionError(
                f"{player}'s score {scores[p]} cannot be made: every round scores an even number of points"
            )
    finished = round_number - 1
    if not _scores_possible(before[0], before[1], finished):
        raise PositionError(
            f"scores {before[0]}-{before[1]} before round {round_number} cannot come from {finished} finished "
            f"round{'s' if finished != 1 else ''}: each round gives its winner the sides of two dice "
            f"({min(ROUND_POINTS)} to {max(ROUND_POINTS)} points)"
        )


def _scores_possible(a: int, b: int, rounds: int) -> bool:
    """Can ``rounds`` finished rounds, each scoring a pair's sides for its winner, total a-b?"""
    if not min(ROUND_POINTS) * rounds <= a + b <= max(ROUND_POINTS) * rounds:
        return False  # also bounds ``rounds`` below (First to 50 and Nine rounds keep it small)
    return any(a in _round_sums(won) and b in _round_sums(rounds - won) for won in range(rounds + 1))


@cache
def _round_sums(rounds: int) -> frozenset[int]:
    """Every total that exactly ``rounds`` won rounds can score."""
    if rounds == 0:
        return frozenset({0})
    return frozenset(total + points for total in _round_sums(rounds - 1) for points in ROUND_POINTS)


__all__ = ["NOTATION_HELP", "action_name", "cards_drawn", "die_name", "format_position", "notation_help",
           "parse_position"]
