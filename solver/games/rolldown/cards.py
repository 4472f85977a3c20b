"""RolldownBeta's cards and dice: the codes the state uses and their notation letters.

A card is an int: Ace 1, 2..10, Jack 11, Queen 12, King 13, Joker 14, and :data:`UNKNOWN` for a
card whose face is not known (notation ``?``). Suits do nothing, so a deck of 27 is two of each
rank plus one Joker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
UNKNOWN = 15  # sorts after every real card, so '?' is written last in a hand

DIE_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""Each player's six dice, in slot order: slot i of a player's dice tuple holds the d{DIE_SIDES[i]}."""
SLOT_OF_SIDES = {sides: slot for slot, sides in enumerate(DIE_SIDES)}

CARD_LETTERS = {ACE: "A", 10: "T", JACK: "J", QUEEN: "Q", KING: "K", JOKER: "X", UNKNOWN: "?"}
CARD_LETTERS.update({n: str(n) for n in range(2, 10)})
CARD_OF_LETTER = {letter: code for code, letter in CARD_LETTERS.items()}
CARD_NAMES = {ACE: "Ace", JACK: "Jack", QUEEN: "Queen", KING: "King", JOKER: "Joker", UNKNOWN: "unknown"}
CARD_NAMES.update({n: str(n) for n in range(2, 11)})

DECK_COPIES: dict[int, int] = dict.fromkeys(range(ACE, KING + 1), 2)
DECK_COPIES[JOKER] = 1
DECK_SIZE = sum(DECK_COPIES.values())  # 27
HAND_SIZE = 3


def cards_text(cards: Iterable[int]) -> str:
    """Cards in notation (``QK``, ``??``), ``-`` for none."""
    text = "".join(CARD_LETTERS[c] for c in cards)
    return text or "-"


def full_deck() -> Counter:
    """One player's 27 cards as a multiset of ranks."""
    return Counter(DECK_COPIES)


def unseen_cards(known: Iterable[int]) -> Counter:
    """A player's 27 cards less ``known`` ones (discards and known hand cards)."""
    remaining = full_deck()
    remaining.subtract(c for c in known if c != UNKNOWN)
    return +remaining
