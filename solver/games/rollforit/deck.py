"""Roll For It! cards as data: a validated, user-editable deck file (``--rule deck=FILE``).

The rule text prints no card's images, so the cards come from a JSON file. The default,
``deck.json`` next to this module, states its sources and what it assumes (the point values and the
number of images per card follow public descriptions; which faces each card shows is invented).
A file looks like::

    {"about": "any comment",
     "cards": [{"id": "G01", "deck": "gold", "points": 2, "dice": [1, 1]},
               {"id": "S01", "deck": "silver", "points": 15, "dice": [1, 2, 3, 4, 5, 6]}]}

Each card: ``id`` (a letter then up to 7 letters or digits, unique), ``deck`` (gold or silver),
``points`` (a whole number, 0 or more), ``dice`` (its images: 1 to 6 faces, each 1..6, repeats
allowed). Any other key of a card, or at the top level other than ``about``, ``sources``,
``assumptions`` and ``cards``, is an error: a misspelt key would otherwise be ignored silently.

Usage::

    >>> deck = load_deck()
    >>> len(deck.cards), deck.cards[0]
    (60, Card(id='G01', deck='gold', points=2, dice=(1, 1)))
    >>> load_deck_text('{"cards": [{"id": "X1", "deck": "gold", "points": 3, "dice": [7]}]}', "x.json")
    Traceback (most recent call last):
    ...
    dicetree.solver.games.rollforit.deck.DeckError: deck file x.json: card X1: face 7 is not a die face (1 to 6)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from dicetree.solver.game import GameError
from dicetree.solver.games.rollforit.state import DICE_PER_PLAYER, FACES
from dicetree.solver.rule_options import shorten

DEFAULT_DECK_FILE = Path(__file__).with_name("deck.json")
DECK_NAMES = ("gold", "silver")
CARD_KEYS = ("id", "deck", "points", "dice")
TOP_KEYS = ("about", "sources", "assumptions", "cards")
CARD_ID = re.compile(r"[A-Za-z][A-Za-z0-9]{0,7}$")


class DeckError(GameError):
    """A deck file that is missing, not JSON, or holds an impossible card."""


class Card(NamedTuple):
    """One card: its id, its deck (gold or silver), its points and its dice images (ascending)."""

    id: str
    deck: str
    points: int
    dice: tuple[int, ...]


class Deck(NamedTuple):
    """Every card of a deck file, in the file's order, where it came from, and what the file says of
    its sources and assumptions (its ``sources`` and ``assumptions`` lists)."""

    cards: tuple[Card, ...]
    source: str
    default: bool
    sources: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()

    def of(self, decks: tuple[str, ...]) -> tuple[Card, ...]:
        """The cards of the named decks, in the file's order."""
        return tuple(card for card in self.cards if card.deck in decks)


def load_deck(path: str | Path | None = None) -> Deck:
    """The deck in ``path`` (a JSON file), or the default file; :class:`DeckError` if invalid."""
    file = Path(path) if path is not None else DEFAULT_DECK_FILE
    name = shorten(str(path)) if path is not None else DEFAULT_DECK_FILE.name
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise DeckError(f"deck file {name} cannot be read: {error.strerror or error}") from None
    deck = load_deck_text(text, name)
    return deck._replace(default=path is None)


def load_deck_text(text: str, name: str = "(text)") -> Deck:
    """The deck a JSON text describes (``name`` for messages); :class:`DeckError` if invalid."""
    where = f"deck file {name}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise DeckError(f"{where} is not JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise DeckError(f"{where} must be a JSON object with a list \"cards\"")
    extra = [key for key in data if key not in TOP_KEYS]
    if extra:
        raise DeckError(f"{where}: unknown key '{shorten(str(extra[0]))}' (allowed: {', '.join(TOP_KEYS)})")
    cards = []
    seen: set[str] = set()
    for number, entry in enumerate(data["cards"], 1):
        card = _card(entry, number, where)
        if card.id in seen:
            raise DeckError(f"{where}: card {card.id} appears twice (ids must be unique)")
        seen.add(card.id)
        cards.append(card)
    if not cards:
        raise DeckError(f"{where} holds no card")
    return Deck(tuple(cards), name, False, _texts(data, "sources", where), _texts(data, "assumptions", where))


def _texts(data: dict, key: str, where: str) -> tuple[str, ...]:
    """A list of sentences of the file (``sources``, ``assumptions``), or () where it has none."""
    texts = data.get(key, [])
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise DeckError(f"{where}: \"{key}\" must be a list of texts")
    return tuple(texts)


def _card(entry: Any, number: int, where: str) -> Card:
    if not isinstance(entry, dict):
        raise DeckError(f"{where}: card number {number} must be an object with {', '.join(CARD_KEYS)}")
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not CARD_ID.match(card_id):
        raise DeckError(f"{where}: card number {number} needs an id of a letter then up to 7 letters or digits, "
                        f"not {shorten(json.dumps(card_id))}")
    label = f"{where}: card {card_id}"
    extra = [key for key in entry if key not in CARD_KEYS]
    if extra:
        raise DeckError(f"{label}: unknown key '{shorten(str(extra[0]))}' (a card has {', '.join(CARD_KEYS)})")
    deck = entry.get("deck")
    if deck not in DECK_NAMES:
        shown = "no deck" if deck is None else f"deck {shorten(json.dumps(deck))}"
        raise DeckError(f"{label} is in {shown}: its deck must be gold or silver")
    points = entry.get("points")
    if not isinstance(points, int) or isinstance(points, bool):
        raise DeckError(f"{label}: points must be a whole number, not {shorten(json.dumps(points))}")
    if points < 0:
        raise DeckError(f"{label} has negative points ({points})")
    dice = entry.get("dice")
    if not isinstance(dice, list):
        raise DeckError(f"{label}: dice must be a list of faces 1 to 6, not {shorten(json.dumps(dice))}")
    if not dice:
        raise DeckError(f"{label} has no dice images")
    for face in dice:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= FACES:
            raise DeckError(f"{label}: face {shorten(json.dumps(face))} is not a die face (1 to {FACES})")
    if len(dice) > DICE_PER_PLAYER:
        raise DeckError(f"{label} has {len(dice)} images: more than a player's {DICE_PER_PLAYER} dice")
    return Card(card_id, deck, points, tuple(sorted(dice)))
