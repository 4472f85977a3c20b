"""Dealing Dice Cards from the box, as the rule text says: two copies of every card, shuffled.

"Deal out 9 cards at random to each player. If a player receives a card they already have, deal
them a new one so they have 9 unique cards to choose from" (``shared/rules/dice-cards.txt``). The
box holds :data:`~dicetree.solver.games.dicecards.state.COPIES` of each card, so two players may
hold the same card, one player never twice. A copy a player already has is set aside and the next
card of the box dealt to them instead; a copy set aside goes to the next player who lacks it.

>>> from dicetree.solver.games.dicecards.library import load_library
>>> cards = load_library().cards
>>> hand = deal_from_box(cards, random.Random(1))[0]
>>> len(hand), len({card.code for card in hand})       # nine different cards of the box's eighteen
(9, 9)
>>> deal_from_box(cards, random.Random(1), players=3)
Traceback (most recent call last):
...
dicetree.solver.game.GameError: the box (2 copies of each of 9 cards) holds too few for 3 players of 9 different cards each
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards.cards import Card
from dicetree.solver.games.dicecards.state import COPIES, DEAL


def deal_from_box(cards: Sequence[Card], rng: random.Random, players: int = 1, size: int = DEAL,
                  copies: int = COPIES) -> list[list[Card]]:
    """Each of ``players`` dealt ``size`` different cards in turn, one card at a time, from a shuffled
    box of ``copies`` of each of ``cards``; one line where the box runs out."""
    box = [card for card in cards for _ in range(copies)]
    rng.shuffle(box)
    aside: list[Card] = []
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(size):
        for hand in hands:
            card = next((card for card in aside if card not in hand), None)
            if card is not None:  # a copy set aside earlier goes to the next player who lacks it
                aside.remove(card)
            while card is None and box:
                card = box.pop()
                if card in hand:  # a card the player already has: set aside, the next one dealt instead
                    aside.append(card)
                    card = None
            if card is None:
                raise GameError(f"the box ({copies} copies of each of {len(cards)} cards) holds too few for "
                                f"{players} player{'s' if players != 1 else ''} of {size} different cards each")
            hand.append(card)
    return hands
