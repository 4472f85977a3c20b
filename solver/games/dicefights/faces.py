"""Dice Fights' symbols and the face layout of its dice, read from a validated data file.

The rule text names the three symbols (Shield, Sword, Gold) but not which symbol each of a Core
Die's six faces carries. ``faces.json`` next to this module says it; its default — two Shields,
two Swords and two Gold — is an **assumption**, and a user can pass a file of their own::

    {"core": ["shield", "shield", "sword", "sword", "gold", "gold"],
     "box":  ["sword", "sword", "sword", "shield", "shield", "gold"]}

``core`` is required (six faces); ``box`` — the Game Box, bought for 30 Gold and rolled as a die
whose symbol counts 10 — is optional and defaults to the Core Die's layout (also an assumption:
the text gives the Box no faces either). ``about`` may hold a comment. Anything else is an error.

Usage::

    >>> layout = load_faces()
    >>> layout.describe()
    'Core Die: 2 Swords, 2 Shields, 2 Gold; Game Box: as a Core Die (default file: an assumption)'
    >>> [(counts, round(p, 4)) for counts, p in roll_distribution(2, layout.core_weights)][:2]
    [((0, 0, 2), 0.1111), ((0, 1, 1), 0.2222)]

A roll of ``n`` identical dice is a *count* of each symbol — ``(swords, shields, gold)`` — with
its multinomial probability: dice are interchangeable, so only the counts matter.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from dicetree.solver.game import GameError

SWORD, SHIELD, GOLD = 0, 1, 2
"""Symbols, in the order of the multipliers (Attack, Defense, Gold) and of every count tuple."""
SYMBOL_NAMES = ("sword", "shield", "gold")
SYMBOL_LETTERS = "adg"
"""Notation letters: a = Sword (attack), d = Shield (defense), g = Gold."""
FACES_PER_DIE = 6
DEFAULT_FACES_FILE = Path(__file__).with_name("faces.json")


class FacesError(GameError):
    """A face-layout file that is missing, not JSON, or not a valid layout."""


@dataclass(frozen=True)
class FaceLayout:
    """Which symbol each face of a Core Die and of the Game Box shows (six symbols each).

    ``core_weights`` / ``box_weights``: how many faces show each symbol, (swords, shields, gold).
    ``source`` is the file it came from; ``assumed`` is True for the built-in default.
    """

    core: tuple[int, ...]
    box: tuple[int, ...]
    source: str
    assumed: bool
    box_given: bool

    @property
    def core_weights(self) -> tuple[int, int, int]:
        return _weights(self.core)

    @property
    def box_weights(self) -> tuple[int, int, int]:
        return _weights(self.box)

    def describe(self) -> str:
        """One line, e.g. 'Core Die: 2 Swords, 2 Shields, 2 Gold; Game Box: as a Core Die (...)'."""
        box = _weights_text(self.box_weights) if self.box_given else "as a Core Die"
        origin = "default file: an assumption" if self.assumed else f"from {self.source}"
        return f"Core Die: {_weights_text(self.core_weights)}; Game Box: {box} ({origin})"


def load_faces(path: str | Path | None = None) -> FaceLayout:
    """The layout in ``path`` (a JSON file), or the default file; :class:`FacesError` if invalid."""
    file = Path(path) if path is not None else DEFAULT_FACES_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise FacesError(f"cannot read the face-layout file '{file}': {error.strerror or error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FacesError(
            f"face-layout file '{file}' is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    return parse_faces(data, str(file), assumed=path is None)


def parse_faces(data: object, source: str, assumed: bool = False) -> FaceLayout:
    """Validate a decoded layout (a dict with ``core``, optionally ``box`` and ``about``)."""
    if not isinstance(data, dict):
        raise FacesError(f"face-layout file '{source}' must hold a JSON object with a 'core' list")
    unknown = sorted(set(data) - {"core", "box", "about"})
    if unknown:
        raise FacesError(f"face-layout file '{source}': unknown key '{unknown[0]}' (keys: core, box, about)")
    if "core" not in data:
        raise FacesError(f"face-layout file '{source}' has no 'core' list of six faces")
    core = _faces(data["core"], "core", source)
    box = _faces(data["box"], "box", source) if data.get("box") is not None else core
    return FaceLayout(core=core, box=box, source=source, assumed=assumed, box_given=data.get("box") is not None)


def _faces(value: object, what: str, source: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise FacesError(f"face-layout file '{source}': '{what}' must be a list of six symbols")
    if len(value) != FACES_PER_DIE:
        raise FacesError(
            f"face-layout file '{source}': '{what}' has {len(value)} faces: a die has {FACES_PER_DIE}"
        )
    symbols = []
    for number, face in enumerate(value, 1):
        if not isinstance(face, str) or face.strip().lower() not in SYMBOL_NAMES:
            raise FacesError(
                f"face-layout file '{source}': '{what}' face {number} is {face!r}: use sword, shield or gold"
            )
        symbols.append(SYMBOL_NAMES.index(face.strip().lower()))
    return tuple(symbols)


def _weights(faces: tuple[int, ...]) -> tuple[int, int, int]:
    return (faces.count(SWORD), faces.count(SHIELD), faces.count(GOLD))


def _weights_text(weights: tuple[int, int, int]) -> str:
    names = ("Sword", "Shield", "Gold")
    return ", ".join(
        f"{count} {name}{'s' if count != 1 and name != 'Gold' else ''}" for count, name in zip(weights, names)
    )


@cache
def roll_distribution(dice: int, weights: tuple[int, int, int]) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """Every count ``(swords, shields, gold)`` that ``dice`` identical dice can show, with its exact
    multinomial probability (computed in integers, then divided); impossible counts are left out."""
    total = FACES_PER_DIE**dice
    outcomes = []
    for swords in range(dice + 1):
        for shields in range(dice - swords + 1):
            gold = dice - swords - shields
            ways = (
                math.comb(dice, swords) * math.comb(dice - swords, shields)
                * weights[0] ** swords * weights[1] ** shields * weights[2] ** gold
            )
            if ways:
                outcomes.append(((swords, shields, gold), ways / total))
    return tuple(outcomes)


def symbol_distribution(weights: tuple[int, int, int]) -> tuple[tuple[int, float], ...]:
    """The symbols one die shows, with their probabilities (zero-probability symbols left out)."""
    return tuple((symbol, count / FACES_PER_DIE) for symbol, count in enumerate(weights) if count)


__all__ = [
    "DEFAULT_FACES_FILE", "FaceLayout", "FacesError", "GOLD", "SHIELD", "SWORD", "SYMBOL_LETTERS",
    "SYMBOL_NAMES", "load_faces", "parse_faces", "roll_distribution", "symbol_distribution",
]
