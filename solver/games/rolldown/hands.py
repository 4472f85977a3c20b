"""Hidden hands: the concrete hands an unknown (``?``) card may be, and how likely each is.

Each player's unseen cards are their 27 less their discard pile and the known cards in their
hand; every set of physical cards is equally likely, so a hand of ranks is weighted by how many
ways the unseen cards make it. Small cases are enumerated exactly; large ones sampled.

>>> from dicetree.solver.games.rolldown import Rolldown
>>> game = Rolldown()
>>> deals = possible_hands(game.parse("d8:3/d6:5 a K/?"), max_exact=1000, samples=10, seed=0)
>>> deals.exact, len(deals.states), round(sum(deals.weights), 12)
(True, 14, 1.0)
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from dicetree.solver.game import Deals, PositionError
from dicetree.solver.games.rolldown.cards import UNKNOWN, unseen_cards
from dicetree.solver.games.rolldown.state import NOBODY, PLAYER_NAMES, RolldownState


def _hand_options(known: tuple[int, ...], unseen: Counter, unknown: int) -> list[tuple[tuple[int, ...], float]]:
    """Every way to fill ``unknown`` cards from ``unseen``, as (sorted hand, probability)."""
    total = sum(unseen.values())
    ranks = sorted(unseen)
    options = []
    for combo in itertools.combinations_with_replacement(ranks, unknown):
        taken = Counter(combo)
        ways = math.prod(math.comb(unseen[rank], n) for rank, n in taken.items())
        if ways:
            options.append((tuple(sorted(known + combo)), ways / math.comb(total, unknown)))
    return options


def possible_hands(state: RolldownState, *, max_exact: int, samples: int, seed: int) -> Deals:
    """The concrete positions that ``state``'s unknown cards allow, enumerated or sampled: every
    card known, nobody's partial view (an observation's ``seen_by`` is dropped)."""
    state = state._replace(seen_by=NOBODY)
    per_player = []
    notes = []
    for side in (0, 1):
        hand = state.hands[side]
        unknown = hand.count(UNKNOWN)
        known = tuple(c for c in hand if c != UNKNOWN)
        unseen = unseen_cards(state.discards[side] + known)
        if unknown > sum(unseen.values()):
            raise PositionError(
                f"{PLAYER_NAMES[side]}'s hand has {unknown} unknown cards but only {sum(unseen.values())} of its cards are unseen"
            )
        if unknown:
            per_player.append(_hand_options(known, unseen, unknown))
            notes.append(f"{PLAYER_NAMES[side]}'s {unknown} unknown card(s) from {sum(unseen.values())} unseen")
        else:
            per_player.append([(hand, 1.0)])
    combos = math.prod(len(options) for options in per_player)
    if combos == 1:
        return Deals((state,), (1.0,), True, "")
    if combos <= max_exact:
        every_state, every_weight = [], []
        for (hand_a, w_a), (hand_b, w_b) in itertools.product(*per_player):
            every_state.append(state._replace(hands=(hand_a, hand_b)))
            every_weight.append(w_a * w_b)
        description = f"{'; '.join(notes)}: averaged over all {combos} possible hands, weighted exactly"
        return Deals(tuple(every_state), tuple(every_weight), True, description)
    rng = random.Random(seed)
    drawn: Counter = Counter()
    for _ in range(samples):
        hands = tuple(_sample_hand(state, side, rng) for side in (0, 1))
        drawn[hands] += 1
    states = tuple(state._replace(hands=hands) for hands in drawn)
    weights = tuple(count / samples for count in drawn.values())
    description = (
        f"{'; '.join(notes)}: {combos:,} possible hands, too many to enumerate; "
        f"averaged over {samples} sampled hands (seed {seed}), {len(states)} distinct"
    )
    return Deals(states, weights, False, description)


def _sample_hand(state: RolldownState, side: int, rng: random.Random) -> tuple[int, ...]:
    hand = state.hands[side]
    known = tuple(c for c in hand if c != UNKNOWN)
    pool = list(unseen_cards(state.discards[side] + known).elements())
    return tuple(sorted(known + tuple(rng.sample(pool, hand.count(UNKNOWN)))))
