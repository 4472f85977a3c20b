"""Roll For It! Deluxe: what may be done in a position and what follows (pure functions of states).

Every function takes the configured game (``game``: its ``cards``, ``num_players``, ``slots`` and
the readings ``ending``, ``deck_out``, ``stuck``) as its last argument; :mod:`dicetree.solver.games.rollforit.game`
delegates to them. The readings are documented in the package's game module.

Placements are enumerated once each: dice showing equal faces are interchangeable, so a choice is
*which faces go on which card*, never which die. A turn's placing is written in a canonical order
that loses no choice: first the cards the mover scores, one at a time (each :class:`Complete` puts
exactly the faces still open on one card; the card is scored, every die on it returns to its owner,
and a new card is flipped, a chance node), then at most one :class:`Place` of dice that score
nothing, which ends the turn. Placing a die that scores nothing earlier in the turn would give the
same position with less known (it stays where it is whatever is flipped), so nothing is lost.

>>> from dicetree.solver.games.rollforit.state import Roll
>>> [round(p, 4) for faces, p in roll_outcomes(2)][:3]
[0.0278, 0.0556, 0.0556]
>>> len(roll_outcomes(6))
462
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache, lru_cache
from itertools import product

from dicetree.solver.game import CHANCE, TERMINAL
from dicetree.solver.games.rollforit.state import (
    DICE_PER_PLAYER, FACES, FLIP, OVER, PLACE, ROLL, TARGET, TURN, Complete, Flip, Place, Roll, RollForItState,
    TurnChoice, missing,
)


# ----- multisets of faces (ascending tuples) -----------------------------------------------------
@lru_cache(maxsize=1 << 16)
def common(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The faces two ascending multisets share: (1, 1, 3), (1, 3, 3) -> (1, 3)."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            out.append(a[i])
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return tuple(out)


def without(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``a`` less the faces of ``b`` (a sub-multiset of ``a``)."""
    return missing(a, b)


@cache
def sub_multisets(faces: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every sub-multiset of an ascending multiset, the empty one first, each once."""
    counts = sorted(Counter(faces).items())
    subs = []
    for take in product(*(range(count + 1) for _, count in counts)):
        subs.append(tuple(face for (face, _), k in zip(counts, take) for _ in range(k)))
    return tuple(sorted(subs, key=lambda s: (len(s), s)))


@cache
def roll_outcomes(dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every roll of ``dice`` six-sided dice as ascending faces with its multinomial probability."""
    outcomes = []
    total = FACES**dice
    for faces in _ascending(dice, 1):
        ways = math.factorial(dice)
        for count in Counter(faces).values():
            ways //= math.factorial(count)
        outcomes.append((faces, ways / total))
    return tuple(outcomes)


def _ascending(length: int, low: int):
    if length == 0:
        yield ()
        return
    for face in range(low, FACES + 1):
        for rest in _ascending(length - 1, face):
            yield (face,) + rest


# ----- reading a position ------------------------------------------------------------------------
def dice_on_cards(state: RollForItState, player: int) -> int:
    """How many of ``player``'s dice lie on face-up cards."""
    return sum(len(on_card[player]) for on_card in state.placed)


def open_images(state: RollForItState, index: int, player: int, game) -> tuple[int, ...]:
    """The images of face-up card ``state.cards[index]`` that ``player`` has not matched yet."""
    return missing(game.cards[state.cards[index]].dice, state.placed[index][player])


def current_player(state: RollForItState) -> int:
    if state.phase == OVER:
        return TERMINAL
    if state.phase in (ROLL, FLIP):
        return CHANCE
    return state.mover


# ----- decisions --------------------------------------------------------------------------------
def legal_actions(state: RollForItState, game) -> list:
    """The mover's choices: at TURN roll/pass and Take Back; at PLACE each card to score, then each
    placement that scores nothing (most dice first, 'none' last)."""
    if state.phase == TURN:
        on_cards = dice_on_cards(state, state.mover)
        if on_cards == 0:
            return [TurnChoice(False)]
        if on_cards == DICE_PER_PLAYER and game.stuck == "take_back":
            return [TurnChoice(True)]
        return [TurnChoice(False), TurnChoice(True)]
    if state.phase == PLACE:
        return scoring_moves(state, game) + list(placements(state, game))
    return []


def scoring_moves(state: RollForItState, game) -> list[Complete]:
    """One :class:`Complete` for each face-up card the rolled dice finish for the mover, most points first."""
    moves = []
    for index, card in enumerate(state.cards):
        need = open_images(state, index, state.mover, game)
        if common(need, state.rolled) == need:
            moves.append(Complete(card, need))
    moves.sort(key=lambda move: -game.cards[move.card].points)
    return moves


def placements(state: RollForItState, game) -> tuple[Place, ...]:
    """Every placement of rolled dice that scores no card, each once (most dice placed first; the
    empty placement, 'none', last)."""
    targets = tuple((card, open_images(state, index, state.mover, game)) for index, card in enumerate(state.cards))
    return placements_of(targets, state.rolled)


@lru_cache(maxsize=1 << 16)
def placements_of(targets: tuple[tuple[int, tuple[int, ...]], ...], rolled: tuple[int, ...]) -> tuple[Place, ...]:
    """The non-scoring placements of the faces ``rolled`` on ``targets`` ((card, open images) pairs)."""
    found: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
    chosen: list[tuple[int, tuple[int, ...]]] = []

    def place(k: int, left: tuple[int, ...]) -> None:
        if k == len(targets):
            found.append(tuple(chosen))
            return
        card, need = targets[k]
        for sub in sub_multisets(common(need, left)):
            if sub == need:
                continue  # that would score the card: a Complete
            if sub:
                chosen.append((card, sub))
                place(k + 1, without(left, sub))
                chosen.pop()
            else:
                place(k + 1, left)

    place(0, rolled)
    found.sort(key=lambda p: -sum(len(faces) for _, faces in p))  # stable: 'none' ends the list
    return tuple(Place(p) for p in found)


def is_legal(state: RollForItState, action, game) -> bool:
    """Whether ``action`` is one of the choices (or chance outcomes) at ``state``, checked directly."""
    phase = state.phase
    if phase == TURN:
        return isinstance(action, TurnChoice) and action in legal_actions(state, game)
    if phase == ROLL:
        free = DICE_PER_PLAYER - dice_on_cards(state, state.mover)
        return (isinstance(action, Roll) and len(action.faces) == free
                and all(1 <= f <= FACES for f in action.faces) and tuple(sorted(action.faces)) == action.faces)
    if phase == FLIP:
        return isinstance(action, Flip) and 0 <= action.card and bool(state.deck >> action.card & 1)
    if phase != PLACE:
        return False
    if isinstance(action, Complete):
        if action.card not in state.cards:
            return False
        need = open_images(state, state.cards.index(action.card), state.mover, game)
        return action.faces == need and common(need, state.rolled) == need
    if not isinstance(action, Place):
        return False
    left = state.rolled
    cards = [card for card, _ in action.placements]
    if cards != sorted(set(cards)):
        return False
    for card, faces in action.placements:
        if card not in state.cards or not faces:
            return False
        need = open_images(state, state.cards.index(card), state.mover, game)
        if common(need, faces) != faces or faces == need or common(left, faces) != faces:
            return False
        left = without(left, faces)
    return True


def can_place(state: RollForItState, game) -> bool:
    """Whether some rolled die matches an image the mover has still open on a face-up card."""
    return any(common(open_images(state, i, state.mover, game), state.rolled) for i in range(len(state.cards)))


# ----- chance ------------------------------------------------------------------------------------
def chance_outcomes(state: RollForItState, game) -> list:
    if state.phase == ROLL:
        return list(_rolls(DICE_PER_PLAYER - dice_on_cards(state, state.mover)))
    if state.phase == FLIP:
        cards = deck_cards(state.deck)
        return [(Flip(card), 1.0 / len(cards)) for card in cards]
    return []


@cache
def _rolls(dice: int) -> tuple[tuple[Roll, float], ...]:
    return tuple((Roll(faces), p) for faces, p in roll_outcomes(dice))


def deck_cards(deck: int) -> list[int]:
    """The card indices of a deck bit mask, ascending."""
    cards, index = [], 0
    while deck:
        if deck & 1:
            cards.append(index)
        deck >>= 1
        index += 1
    return cards


# ----- transitions --------------------------------------------------------------------------------
def apply(state: RollForItState, action, game) -> RollForItState:
    """The position after ``action`` (a decision or a chance outcome) at ``state``."""
    phase = state.phase
    if phase == TURN:
        if action.take_back:
            placed = tuple(_set(on_card, state.mover, ()) for on_card in state.placed)
            return state._replace(placed=placed, phase=ROLL)
        if dice_on_cards(state, state.mover) == DICE_PER_PLAYER:
            return end_turn(state, game)  # a pass: no die to roll
        return state._replace(phase=ROLL)
    if phase == ROLL:
        rolled = state._replace(rolled=action.faces, phase=PLACE)
        return rolled if can_place(rolled, game) else end_turn(rolled, game)
    if phase == PLACE:
        if isinstance(action, Complete):
            return _score(state, action, game)
        on_cards = list(state.placed)
        for card, faces in action.placements:
            index = state.cards.index(card)
            on_cards[index] = _set(on_cards[index], state.mover, tuple(sorted(on_cards[index][state.mover] + faces)))
        return end_turn(state._replace(placed=tuple(on_cards)), game)
    if phase == FLIP:
        index = sum(1 for card in state.cards if card < action.card)
        empty = ((),) * game.num_players
        flipped = state._replace(
            cards=state.cards[:index] + (action.card,) + state.cards[index:],
            placed=state.placed[:index] + (empty,) + state.placed[index:],
            deck=state.deck & ~(1 << action.card),
        )
        return _go_on(flipped, game)
    raise ValueError(f"no action at a finished game: {action!r}")


def _set(on_card: tuple, player: int, faces: tuple[int, ...]) -> tuple:
    return on_card[:player] + (faces,) + on_card[player + 1:]


def _score(state: RollForItState, move: Complete, game) -> RollForItState:
    """The mover scores ``move.card``: its points are theirs, every die on it goes back to its owner."""
    index = state.cards.index(move.card)
    scores = list(state.scores)
    scores[state.mover] += game.cards[move.card].points
    state = state._replace(
        cards=state.cards[:index] + state.cards[index + 1:],
        placed=state.placed[:index] + state.placed[index + 1:],
        scores=tuple(scores),
        rolled=without(state.rolled, move.faces),
    )
    if game.ending == "at_once" and scores[state.mover] >= TARGET:
        return game_over(state, (state.mover,))
    if state.deck:
        return state._replace(phase=FLIP)
    if game.deck_out == "end" or not state.cards:
        return game_over(state, most_points(state.scores))
    return _go_on(state, game)


def _go_on(state: RollForItState, game) -> RollForItState:
    """After a scored card is replaced: place more rolled dice if any can go somewhere, else the turn ends."""
    if state.rolled and can_place(state._replace(phase=PLACE), game):
        return state._replace(phase=PLACE)
    return end_turn(state, game)


def end_turn(state: RollForItState, game) -> RollForItState:
    """The mover's turn ends (unplaced dice go back to their hand); the next player to the left begins."""
    following = (state.mover + 1) % game.num_players
    if game.ending == "end_of_round" and following == state.starter and max(state.scores) >= TARGET:
        return game_over(state, most_points(state.scores))
    return state._replace(mover=following, phase=TURN, rolled=())


def most_points(scores: tuple[int, ...]) -> tuple[int, ...]:
    """The players with the most points (several: a shared win)."""
    top = max(scores)
    return tuple(p for p, score in enumerate(scores) if score == top)


def game_over(state: RollForItState, winners: tuple[int, ...]) -> RollForItState:
    return state._replace(phase=OVER, mover=0, rolled=(), winners=winners)


def returns(state: RollForItState, game) -> tuple[float, ...]:
    """Each player's share of the win: 1 for a sole winner, 1/k each for k who share it."""
    share = 1.0 / len(state.winners)
    return tuple(share if p in state.winners else 0.0 for p in range(game.num_players))


def key(state: RollForItState, game) -> RollForItState:
    """The state with rolled faces that can never be placed this turn dropped: of each face at most
    as many as the mover's open images on face-up cards and the images of every card still in
    the deck show (cards flipped this turn are the only new images). Positions that differ only in
    such dice play the same, so searches and the exact solver see them once."""
    if not state.rolled:
        return state
    room: Counter[int] = Counter()
    for index in range(len(state.cards)):
        room.update(open_images(state, index, state.mover, game))
    for card in deck_cards(state.deck):
        room.update(game.cards[card].dice)
    kept: list[int] = []
    used: Counter[int] = Counter()
    for face in state.rolled:
        if used[face] < room[face]:
            used[face] += 1
            kept.append(face)
    return state if len(kept) == len(state.rolled) else state._replace(rolled=tuple(kept))


def is_progress(state: RollForItState, action) -> bool:
    """Scoring a card is progress; so is placing dice (not Take Back, not placing none)."""
    return isinstance(action, Complete) or (isinstance(action, Place) and bool(action.placements))
