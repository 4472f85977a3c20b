"""The card interface of Dice Cards: what a card is, which numbers of a roll it takes, what it scores.

The rule text describes no card in full: every card carries its own rules. So a card is a plug-in,
an object of a :class:`Card` subclass, and the engine (:mod:`dicetree.solver.games.dicecards.rules`) knows
only this interface:

* **its state** — a small hashable value (an int bit mask, a tuple of counts) saying what is
  marked on it; :meth:`Card.start` is the empty card;
* **which numbers it accepts and where** — :meth:`Card.slots` lists, for a state, every place a
  number may be recorded now: a :class:`Slot` with a label (how moves name it), the
  :class:`Need` (which number of a roll fits: a Black or Red die, either die, the total, either of
  them, or both dice at once) and the card's state after it. The engine prices every need against
  the roll (:func:`price`: the tickets it costs to change the dice), so tickets work the same on
  every card and a card never sees the dice;
* **in order** — :attr:`Card.in_order`: a card that says so offers only its next box;
* **what it scores and when** — :meth:`Card.raw_points` is what the marks are worth now (a row,
  a column, a pair scores the moment it is complete); :meth:`Card.score` applies
  **All-or-Nothing** (:attr:`Card.all_or_nothing`): nothing unless :meth:`Card.is_complete`;
* **the tickets it gives** — :meth:`Card.tickets`: how many it has given in a state (never fewer
  after a record: the engine credits the difference);
* its notation — :meth:`Card.format_marks` / :meth:`Card.parse_marks` (no spaces, no ``=``), and
  :meth:`Card.rolls_used`, the rolls recorded on it (each record is one roll, even one of two numbers).

Needs are written as in the cards file: ``B6`` (the Black die showing 6), ``R3`` (the Red die),
``D4`` (either die, never the total), ``T9`` (the total of both dice), ``9`` (any number: either
die or the total, as most cards take) and ``4-5`` (both dice at once, a 4 and a 5 in either colour):

>>> [need_text(parse_need(text)) for text in ("B6", "r3", "D4", "T9", "9", "5-4")]
['B6', 'R3', 'D4', 'T9', '9', '4-5']
>>> price(parse_need("R5"), black=6, red=3), price(parse_need("12"), black=6, red=3)
(2, 3)
>>> parse_need("13")
Traceback (most recent call last):
...
dicetree.solver.games.dicecards.cards.CardError: '13': a number from two dice is 1..12

A card of your own: subclass :class:`Card` (seven small methods; the library's kinds in
:mod:`dicetree.solver.games.dicecards.library` are examples), or write it as data, a ``cells`` card, in a
cards file. Lucky Sevens here marks up to three totals of 7, 2 points each::

    >>> class LuckySevens(Card):
    ...     kind = "lucky-sevens"
    ...     def start(self): return 0
    ...     def slots(self, marks): return (Slot("7", Need("T", 7), marks + 1),) if marks < 3 else ()
    ...     def raw_points(self, marks): return 2 * marks
    ...     def is_complete(self, marks): return marks == 3
    ...     def rolls_used(self, marks): return marks
    ...     def format_marks(self, marks): return str(marks)
    ...     def parse_marks(self, text): return self.whole_marks(text, 0, 3)
    >>> card = LuckySevens("Lucky Sevens", "L7", source="my own card")
    >>> card.slots(card.start()), card.max_points()
    ((Slot(label='7', need=Need(kind='T', first=7, second=0), after=1),), 6)

Give it to the game with the library: ``DiceCards(cards=load_library().with_cards(card))``
(see :mod:`dicetree.solver.games.dicecards.game`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Hashable, Iterator
from functools import cache
from typing import ClassVar, Generic, NamedTuple, TypeVar, cast

from dicetree.solver.game import GameError, PositionError
from dicetree.solver.games.dicecards.state import FACES
from dicetree.solver.rule_options import shorten

MAX_NUMBER = 2 * FACES
"""The largest number two dice make (their total); a single die makes at most FACES."""
NEED_KINDS = "BRDTNP"
"""B: the Black die, R: the Red die, D: either die, T: the total, N: any number (a die or the total),
P: both dice at once (a pair, either colour)."""


Marks = TypeVar("Marks", bound=Hashable)
"""A card's state: each kind of card has its own (an int bit mask, a tuple of counts, ...)."""


class CardError(GameError):
    """A card that cannot be: a bad cards file, an impossible number, a plug-in that breaks the interface."""


class Need(NamedTuple):
    """Which number of a roll fits a slot: ``kind`` (one of :data:`NEED_KINDS`) and the number
    (``first``), or for a pair (``P``) the two numbers ``first <= second``."""

    kind: str
    first: int
    second: int = 0


class Slot(NamedTuple):
    """A place on a card where a number may be recorded now: ``label`` (unique among a state's
    slots: how the move is named), the ``need`` and the card's state ``after`` it."""

    label: str
    need: Need
    after: Hashable


def parse_need(text: str) -> Need:
    """A need from its text (``B6``, ``R3``, ``D4``, ``T9``, ``9``, ``4-5``); :class:`CardError` if impossible."""
    raw = str(text).strip()
    word = raw.upper()
    if "-" in word:
        left, _, right = word.partition("-")
        if not (_digits(left) and _digits(right)):
            raise CardError(f"'{shorten(raw)}': both dice are written like 4-5")
        a, b = sorted((int(left), int(right)))
        if not (1 <= a and b <= FACES):
            raise CardError(f"'{shorten(raw)}': a die shows 1..{FACES}")
        return Need("P", a, b)
    kind, digits = (word[0], word[1:]) if word[:1] in ("B", "R", "D", "T") else ("N", word)
    if not _digits(digits):
        raise CardError(f"'{shorten(raw)}' is not a number of a roll (B6, R3, D4, T9, 9 or 4-5)")
    number = int(digits)
    if kind in "BRD" and not 1 <= number <= FACES:
        raise CardError(f"'{shorten(raw)}': a die shows 1..{FACES}")
    if kind == "T" and not 2 <= number <= MAX_NUMBER:
        raise CardError(f"'{shorten(raw)}': a total of two dice is 2..{MAX_NUMBER}")
    if kind == "N" and not 1 <= number <= MAX_NUMBER:
        raise CardError(f"'{shorten(raw)}': a number from two dice is 1..{MAX_NUMBER}")
    return Need(kind, number)


def _digits(text: str) -> bool:
    """One to two decimal digits without a leading zero (the canonical form of a number)."""
    return text.isdigit() and text.isascii() and len(text) <= 2 and not (len(text) > 1 and text[0] == "0")


def need_text(need: Need) -> str:
    """The canonical text of a need (``parse_need`` reads it back)."""
    if need.kind == "P":
        return f"{need.first}-{need.second}"
    return f"{'' if need.kind == 'N' else need.kind}{need.first}"


@cache
def price(need: Need, black: int, red: int) -> int:
    """The tickets it takes to make the roll ``black``, ``red`` fit ``need``: 1 per 1 a number is
    changed, never taking a die above 6 or below 1 (so a total moves within 2..12 and a die
    within 1..6). A die-only number above 6, or a total of 1, cannot be made: a huge price."""
    kind, a, b = need
    if kind == "B":
        return abs(black - a)
    if kind == "R":
        return abs(red - a)
    if kind == "P":
        return min(abs(black - a) + abs(red - b), abs(black - b) + abs(red - a))
    die = min(abs(black - a), abs(red - a)) if a <= FACES else IMPOSSIBLE
    if kind == "D":
        return die
    total = abs(black + red - a) if 2 <= a <= MAX_NUMBER else IMPOSSIBLE
    return total if kind == "T" else min(die, total)


IMPOSSIBLE = 10**6
"""The price of a need no roll can be changed into."""


class Card(ABC, Generic[Marks]):
    """One card: its rules as an object (see the module docstring for the interface).

    ``name`` is the printed name, ``code`` the short name positions and moves use (letters and
    digits, 1 to 5 characters), ``source`` where its description comes from and ``assumed`` what
    is assumed where the source is silent. Subclasses set :attr:`kind` (their name in a cards
    file) and implement the abstract methods; :meth:`from_entry` reads one from a cards file.
    """

    kind: ClassVar[str] = ""
    supports_order: ClassVar[bool] = False
    """Whether the kind knows an "in order" rule (others refuse ``in_order=True``)."""

    def __init__(self, name: str, code: str, *, all_or_nothing: bool = False, in_order: bool = False,
                 source: str = "", assumed: str = "") -> None:
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise CardError(f"a card's name is 1 to 40 characters, not {shorten(repr(name))}")
        self.name = name.strip()
        if not (isinstance(code, str) and 1 <= len(code) <= 5 and code.isascii() and code.isalnum()
                and code[0].isalpha() and code == code.upper()):
            raise CardError(f"card '{self.name}': its code is 1 to 5 capital letters or digits, first a letter, "
                            f"not {shorten(repr(code))}")
        self.code = code
        if in_order and not self.supports_order:
            raise CardError(f"card '{self.name}': a {self.kind} card has no in-order rule")
        self.all_or_nothing = bool(all_or_nothing)
        self.in_order = bool(in_order)
        self.source = str(source)
        self.assumed = str(assumed)
        self._slots: dict[Marks, tuple[Slot, ...]] = {}
        self._most: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, {self.code!r})"

    # ----- the interface -----------------------------------------------------------------------
    @abstractmethod
    def start(self) -> Marks:
        """The empty card's state."""

    @abstractmethod
    def slots(self, marks: Marks) -> tuple[Slot, ...]:
        """Every place a number may be recorded in state ``marks`` (empty when the card is full)."""

    @abstractmethod
    def raw_points(self, marks: Marks) -> int:
        """What the marks score now, before All-or-Nothing."""

    @abstractmethod
    def is_complete(self, marks: Marks) -> bool:
        """Whether everything on the card is filled (what All-or-Nothing asks for)."""

    @abstractmethod
    def rolls_used(self, marks: Marks) -> int:
        """How many rolls are recorded on the card."""

    @abstractmethod
    def format_marks(self, marks: Marks) -> str:
        """The marks as notation text (no spaces, no ``=``; ``-`` for an empty card is the custom)."""

    @abstractmethod
    def parse_marks(self, text: str) -> Marks:
        """The state ``format_marks`` wrote; :class:`PositionError` for text that is no state of this card."""

    def tickets(self, marks: Marks) -> int:
        """Tickets the card has given in state ``marks`` (default: none)."""
        return 0

    # ----- what the engine uses ---------------------------------------------------------------------
    def score(self, marks: Marks) -> int:
        """The points the card scores at the end in state ``marks``: All-or-Nothing scores only when complete."""
        if self.all_or_nothing and not self.is_complete(marks):
            return 0
        return self.raw_points(marks)

    def open_slots(self, marks: Marks) -> tuple[Slot, ...]:
        """:meth:`slots`, remembered per state (a card's slots never change)."""
        known = self._slots.get(marks)
        if known is None:
            known = self._slots[marks] = tuple(self.slots(marks))
        return known

    def reachable(self, limit: int = 1_000_000) -> Iterator[Marks]:
        """Every state the card can reach from :meth:`start` (breadth first); :class:`CardError`
        beyond ``limit`` states."""
        first = self.start()
        seen = {first}
        queue = deque([first])
        while queue:
            marks = queue.popleft()
            yield marks
            for slot in self.open_slots(marks):
                after = cast(Marks, slot.after)  # a slot leads to another state of this card
                if after not in seen:
                    if len(seen) >= limit:
                        raise CardError(f"card '{self.name}' has more than {limit:,} states")
                    seen.add(after)
                    queue.append(after)

    def max_points(self) -> int:
        """The most the card can score (over every state it can reach; remembered)."""
        if "points" not in self._most:
            self._most["points"] = max(self.score(marks) for marks in self.reachable())
        return self._most["points"]

    def max_tickets(self) -> int:
        """The most tickets the card can give (remembered)."""
        if "tickets" not in self._most:
            self._most["tickets"] = max(self.tickets(marks) for marks in self.reachable())
        return self._most["tickets"]

    def describe(self) -> str:
        """One line: code, name, the flags, source and assumptions."""
        flags = [flag for flag, on in (("All-or-Nothing", self.all_or_nothing), ("in order", self.in_order)) if on]
        extra = f" ({', '.join(flags)})" if flags else ""
        return f"{self.code:<4} {self.name}{extra}: {self.source} Assumed: {self.assumed}".rstrip()

    # ----- helpers for subclasses ------------------------------------------------------------------
    def marks_error(self, text: str, why: str) -> PositionError:
        """The one-line error for marks ``text`` that are no state of this card."""
        return PositionError(f"card {self.code} ({self.name}): '{shorten(text)}' {why}")

    def whole_marks(self, text: str, low: int, high: int) -> int:
        """Marks that are one whole number in ``low..high`` (canonical: no leading zero)."""
        if not (text.isdigit() and text.isascii() and (text == "0" or text[0] != "0")) or not low <= int(text) <= high:
            raise self.marks_error(text, f"must be a whole number {low}..{high}")
        return int(text)
