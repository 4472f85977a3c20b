"""A leaf evaluation of Roll For It! that knows the game: the race to 40 from each card's chances.

For each player and each face-up card, :func:`expected_rolls` gives the exact expected number of
the player's rolls to match the card's open images alone (every matching die placed, as a lone
player should), from the dice already on it and the dice free (small exact computations, cached);
a card that cannot be finished with the free dice is chased after a Take Back (six dice from
scratch). Two things come of it:

* **credit** — the points a player's dice on cards are already worth: each card's points times
  the share of a fresh chase already done (``1 - rolls now / rolls from scratch``);
* **points within reach** — a card worth the rest of the way to 40 finishes the race by itself,
  when its roll comes (the mover's rolled faces may already finish it).

A player's *race time*, in rounds, is the sooner of that finish and the rest (40 less score less
credit) at the table's pace (:attr:`Race.pace`), counted from when the player next rolls (the mover
first; a mover placing has used this turn's roll). Race times become win chances through a softmax
(:func:`win_chances`), sharper when little time is left: they are positive and sum to 1 (the game's
constant), so the same values serve two players and the paranoid or max^n readings of more.
Calibration against played games: ``results/rollforit/evaluation.md``.

>>> round(expected_rolls((6,), 1), 9)  # one image, one die: 1/6 a roll
6.0
>>> round(expected_rolls((1, 1), 2), 3), round(expected_rolls((1, 2, 3, 4, 5, 6), 6), 2)
(8.727, 7.93)
"""

from __future__ import annotations

import math
from functools import cache

from dicetree.solver.games.rollforit.rules import common, dice_on_cards, roll_outcomes, without
from dicetree.solver.games.rollforit.state import DICE_PER_PLAYER, FLIP, OVER, PLACE, TARGET, RollForItState, missing

SHARPNESS = 0.75
"""How sharply a lead in rounds turns into a win chance, divided by sqrt(1 + the players' mean race
time): a lead of a round counts more near the end, when little luck is left (fitted, see
``research/rollforit_evaluation.py``)."""
PACE_FACTOR = 2.0
"""A player's pace at the table relative to the deck's average fresh chase of one card (fitted)."""


def win_chances(times: list[float], sharpness: float = SHARPNESS) -> tuple[float, ...]:
    """Race times (rounds) to win chances: a softmax of ``-s * time``, ``s = sharpness / sqrt(1 + mean)``.

    >>> [round(v, 3) for v in win_chances([2.0, 3.0])], win_chances([1.0, 1.0, 1.0])[0] == 1 / 3
    ([0.599, 0.401], True)
    """
    scale = sharpness / math.sqrt(1.0 + sum(times) / len(times))
    best = min(times)
    weights = [math.exp(-scale * (t - best)) for t in times]
    total = sum(weights)
    return tuple(w / total for w in weights)


@cache
def match_distribution(need: tuple[int, ...], dice: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The faces of ``need`` that a roll of ``dice`` dice matches, with their probabilities."""
    found: dict[tuple[int, ...], float] = {}
    for faces, p in roll_outcomes(dice):
        matched = common(need, faces)
        found[matched] = found.get(matched, 0.0) + p
    return tuple(sorted(found.items()))


@cache
def expected_rolls(need: tuple[int, ...], dice: int) -> float:
    """Expected rolls for a lone player with ``dice`` free dice to match the images ``need``
    (ascending), placing every match; infinite when fewer dice than images are free."""
    if not need:
        return 0.0
    if dice < len(need):
        return math.inf
    stay = 0.0
    total = 1.0
    for matched, p in match_distribution(need, dice):
        if matched:
            total += p * expected_rolls(without(need, matched), dice - len(matched))
        else:
            stay = p
    return total / (1.0 - stay)


class Race:
    """The evaluation of one configured game (its cards and pace), with a cache of positions."""

    def __init__(self, game, sharpness: float = SHARPNESS, pace_factor: float = PACE_FACTOR):
        self.game = game
        self.sharpness = sharpness
        fresh = [card.points / expected_rolls(card.dice, DICE_PER_PLAYER) for card in game.cards]
        self.pace = pace_factor * sum(fresh) / len(fresh)
        self._cache: dict[RollForItState, tuple[float, ...]] = {}
        # A player's race time, while another moves, depends only on the cards, their own dice and
        # score and their place in the turn order: shared by every leaf of another player's turn.
        self._waiting: dict[tuple, float] = {}

    def values(self, state: RollForItState) -> tuple[float, ...]:
        """Every player's estimated win chance (summing to 1)."""
        known = self._cache.get(state)
        if known is not None:
            return known
        values = win_chances(self.race_times(state), self.sharpness)
        if len(self._cache) > 1 << 17:
            self._cache.clear()
        self._cache[state] = values
        return values

    def race_times(self, state: RollForItState) -> list[float]:
        return [self.race_time(state, p) for p in range(self.game.num_players)]

    def race_time(self, state: RollForItState, player: int) -> float:
        """Rounds until ``player`` reaches 40 (an estimate; 0 for one who has)."""
        game = self.game
        need = TARGET - state.scores[player]
        if need <= 0:
            return 0.0
        n = game.num_players
        if player == state.mover and state.phase in (PLACE, FLIP):
            # The rolled faces not placed yet go where the mover would put them; the roll is used.
            opens = [missing(game.cards[card].dice, on_card[player])
                     for card, on_card in zip(state.cards, state.placed)]
            opens, free = self._place_rolled(state, opens, DICE_PER_PLAYER - dice_on_cards(state, player))
            return self._time(state.cards, opens, free, need, 1.0)
        offset = ((player - state.mover) % n) / n
        mine = tuple(on_card[player] for on_card in state.placed)
        key = (state.cards, mine, need, offset)
        known = self._waiting.get(key)
        if known is None:
            if len(self._waiting) > 1 << 17:
                self._waiting.clear()
            opens = [missing(game.cards[card].dice, on) for card, on in zip(state.cards, mine)]
            free = DICE_PER_PLAYER - sum(len(on) for on in mine)
            known = self._waiting[key] = self._time(state.cards, opens, free, need, offset)
        return known

    def _time(self, cards: tuple[int, ...], opens: list, free: int, need: int, offset: float) -> float:
        """Rounds to 40 for a player ``need`` points short, with ``opens`` images open on the face-up
        ``cards`` and ``free`` dice, who rolls next after ``offset`` rounds."""
        game = self.game
        credit, finish = 0.0, math.inf
        for card, open_images in zip(cards, opens):
            images, points = game.cards[card].dice, game.cards[card].points
            fresh = expected_rolls(images, DICE_PER_PLAYER)
            rolls = min(expected_rolls(open_images, free), fresh)  # else after a Take Back
            credit += points * (1.0 - rolls / fresh)
            if points >= need:  # this card alone wins
                finish = min(finish, 0.0 if rolls == 0 else offset + rolls - 1)
        return min(finish, offset + max(0.0, need - credit) / self.pace)

    def _place_rolled(self, state: RollForItState, opens: list, free: int) -> tuple[list, int]:
        """The mover's open images and free dice once the rolled faces are placed greedily, each die
        once: on the card it advances most (points times the share of its open images filled) first.
        A card so finished gives its dice back (it is scored)."""
        opens, left = list(opens), state.rolled
        while left:
            gains = [(self.game.cards[card].points * len(common(o, left)) / len(o), i)
                     for i, (card, o) in enumerate(zip(state.cards, opens)) if o and common(o, left)]
            if not gains:
                break
            _, i = max(gains)
            now = common(opens[i], left)
            left = without(left, now)
            opens[i] = without(opens[i], now)
            free -= len(now)
            if not opens[i]:
                free += len(self.game.cards[state.cards[i]].dice)
        return opens, free


def evaluate(state: RollForItState, player: int, game) -> float:
    """``player``'s estimated win chance at ``state`` (within [0, 1]; the exact share when over)."""
    if state.phase == OVER:
        return 1.0 / len(state.winners) if player in state.winners else 0.0
    return game.race.values(state)[player]
