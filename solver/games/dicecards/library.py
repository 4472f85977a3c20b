"""The library of Dice Cards: the kinds of card, and the cards file that configures them.

A cards file (JSON; the default is ``cards.json`` next to this module, ``--rule cards=FILE``
another) lists cards; each entry names its ``kind`` (a :class:`~dicetree.solver.games.dicecards.cards.Card`
subclass) and gives what the printed card shows: its layout and its point values. The printed
values are not public, so **every number in the default file is an assumption** a user may edit;
the file is validated when it is read, and an impossible card is one line::

    {"about": "...",
     "cards": [
       {"kind": "cells", "name": "Doubles", "code": "DBL",
        "groups": ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6"], "points": [3, 3, 3, 3, 3, 3], "bonus": 5,
        "source": "...", "assumed": "..."},
       ...]}

Keys every entry may have: ``kind``, ``name``, ``code`` (required), ``all_or_nothing``,
``in_order`` (kinds that know it), ``source``, ``assumed``; the rest belong to the kind:

* ``cells`` — ``groups``: a list of groups, each a space-separated list of cells, each cell a
  need (``B6``, ``R3``, ``D4``, ``T9``, ``9``, ``4-5``: see :func:`~dicetree.solver.games.dicecards.cards.parse_need`);
  a group scores ``points[i]`` and gives ``tickets[i]`` (default 0) once all its cells are marked,
  ``bonus`` more when every group is; ``in_order``: cells are marked in the listed order.
  Solitaire, Yin & Yang, Hopscotch and Doubles are cells cards, and so is any card of your own
  that is boxes to fill.
* ``bingo`` — ``grid``: rows of cells (an n x n square); a line (row, column, diagonal) complete
  is a Bingo worth ``line_points`` and ``line_tickets``; with ``disjoint`` (default true) Bingos may
  not share a cell (the count is the most disjoint lines, as a player claims them best); a full
  card (Blackout) adds ``blackout_points``.
* ``sudoku`` — ``need``: how many of each number 1..6 the empty boxes take (the printed givens
  fix the solution); ``points`` when complete. Numbers may be moved while fixing (the FAQ), so
  only how many of each number are recorded matters; a number no box still needs cannot be recorded.
* ``pyramid`` — ``rows``: the boxes of each row, bottom first; every row must add up to the same
  number (any 1..12 per box); ``points[i]`` when row i is complete.
* ``polyomino`` — ``columns``: each column's need (default ``D1`` .. ``D6``); ``points[k]`` when
  row k (bottom first) is full, so as many rows as points; a brick falls to the bottom of its column.

A kind of your own: subclass :class:`~dicetree.solver.games.dicecards.cards.Card`, give it ``kind`` and a
``from_entry`` classmethod, and call :func:`register_kind`; or name it in a cards file as
``"kind": "module:Class"`` (the module is imported: it must be on the Python path).

>>> library = load_library()
>>> [card.code for card in library.cards]
['SOL', 'SUD', 'BB', 'BG', 'HOP', 'DBL', 'YY', 'RP', 'PR']
>>> library["DBL"].max_points(), library["BB"].max_tickets()
(23, 3)
>>> parse_library({"cards": [{"kind": "bingo", "name": "B", "code": "B", "grid": ["2 3 13", "4 5 6", "7 8 9"],
...                            "line_points": 1}]}, "mine.json")
Traceback (most recent call last):
...
dicetree.solver.games.dicecards.cards.CardError: cards file 'mine.json', card 1 (B): grid: '13': a number from two dice is 1..12
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from dicetree.solver.games.dicecards.cards import MAX_NUMBER, Card, CardError, Need, Slot, need_text, parse_need
from dicetree.solver.games.dicecards.state import FACES
from dicetree.solver.rule_options import shorten

DEFAULT_CARDS_FILE = Path(__file__).with_name("cards.json")
COMMON_KEYS = ("kind", "name", "code", "all_or_nothing", "in_order", "source", "assumed")


# ----- reading one entry of a cards file ---------------------------------------------------------------
class Entry:
    """One card's entry of a cards file, read key by key; every error is one line naming the card.

    >>> Entry({"points": [1, -2]}, "card 1").wholes("points")
    Traceback (most recent call last):
    ...
    dicetree.solver.games.dicecards.cards.CardError: card 1: points: -2 is negative (points and tickets are whole numbers >= 0)
    """

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where
        self.used: set[str] = set()

    def error(self, message: str) -> CardError:
        return CardError(f"{self.where}: {message}")

    def get(self, key: str, default: Any = ..., kinds: tuple[type, ...] = (object,), what: str = "") -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise self.error(f"has no '{key}'")
            return default
        value = self.data[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise self.error(f"{key} must be {what}, not {shorten(json.dumps(value))}")
        return value

    def text(self, key: str, default: Any = ...) -> str:
        return self.get(key, default, (str,), "text")

    def flag(self, key: str, default: bool) -> bool:
        return self.get(key, default, (bool,), "true or false")

    def whole(self, key: str, default: Any = ...) -> int:
        value = self.get(key, default, (int,), "a whole number")
        if value < 0:
            raise self.error(f"{key}: {value} is negative (points and tickets are whole numbers >= 0)")
        return value

    def wholes(self, key: str, count: int | None = None, default: Any = ...) -> tuple[int, ...]:
        value = self.get(key, default, (list,), "a list of whole numbers")
        if value is default and not isinstance(value, list):
            return value
        numbers = []
        for item in value:
            if not isinstance(item, int) or isinstance(item, bool):
                raise self.error(f"{key} must be a list of whole numbers, not {shorten(json.dumps(value))}")
            if item < 0:
                raise self.error(f"{key}: {item} is negative (points and tickets are whole numbers >= 0)")
            numbers.append(item)
        if count is not None and len(numbers) != count:
            raise self.error(f"{key} has {len(numbers)} numbers: the card has {count}")
        return tuple(numbers)

    def texts(self, key: str, default: Any = ...) -> tuple[str, ...]:
        value = self.get(key, default, (list,), "a list of texts")
        if value is default and not isinstance(value, list):
            return value
        if not value or not all(isinstance(item, str) for item in value):
            raise self.error(f"{key} must be a non-empty list of texts, not {shorten(json.dumps(value))}")
        return tuple(value)

    def common(self) -> dict[str, Any]:
        """The keywords every card takes (name, code, flags, source, assumptions)."""
        return {
            "name": self.text("name"), "code": self.text("code"), "all_or_nothing": self.flag("all_or_nothing", False),
            "in_order": self.flag("in_order", False), "source": self.text("source", ""),
            "assumed": self.text("assumed", ""),
        }

    def finish(self) -> None:
        """Refuse keys nobody read (a misspelt key would otherwise be silently ignored)."""
        unknown = sorted(set(self.data) - self.used - {"kind"})
        if unknown:
            raise self.error(f"unknown key '{shorten(unknown[0])}' for a {self.data.get('kind')} card")


def _needs(texts: Iterable[str], what: str) -> tuple[Need, ...]:
    needs = []
    for text in texts:
        try:
            needs.append(parse_need(text))
        except CardError as error:
            raise CardError(f"{what}: {error}") from None
    return tuple(needs)


# ----- cards whose state is a set of marked cells (a bit mask) ----------------------------------------------------
class MaskCard(Card[int]):
    """A card of distinct cells, each taking one need; its state is the bit mask of marked cells."""

    def __init__(self, name: str, code: str, cells: Sequence[Need], **common: Any) -> None:
        super().__init__(name, code, **common)
        self.cells = tuple(cells)
        texts = [need_text(need) for need in self.cells]
        repeated = next((text for text in texts if texts.count(text) > 1), None)
        if repeated is not None:
            raise CardError(f"card '{self.name}': cell {repeated} appears twice (cells are told apart by their number)")
        if not self.cells:
            raise CardError(f"card '{self.name}' has no cells")
        self.texts = tuple(texts)
        self.full = (1 << len(self.cells)) - 1

    def start(self) -> int:
        return 0

    def slots(self, marks: int) -> tuple[Slot, ...]:
        free = [i for i in range(len(self.cells)) if not marks >> i & 1]
        if self.in_order:
            free = free[:1]
        return tuple(Slot(self.texts[i], self.cells[i], marks | 1 << i) for i in free)

    def is_complete(self, marks: int) -> bool:
        return marks == self.full

    def rolls_used(self, marks: int) -> int:
        return bin(marks).count("1")

    def format_marks(self, marks: int) -> str:
        return ",".join(self.texts[i] for i in range(len(self.cells)) if marks >> i & 1) or "-"

    def parse_marks(self, text: str) -> int:
        if text == "-":
            return 0
        marks = 0
        for word in text.split(","):
            try:
                index = self.texts.index(need_text(parse_need(word)))
            except (CardError, ValueError):
                raise self.marks_error(text, f"names no cell of the card (its cells: {', '.join(self.texts)})") from None
            if marks >> index & 1:
                raise self.marks_error(text, f"marks {self.texts[index]} twice")
            marks |= 1 << index
        if self.in_order and marks & (marks + 1):
            raise self.marks_error(text, f"skips a cell: the card is filled in order ({', '.join(self.texts)})")
        return marks


class CellsCard(MaskCard):
    """Groups of cells; a group scores (and gives tickets) once all its cells are marked.

    >>> doubles = CellsCard("Doubles", "DBL", ["1-1", "2-2"], points=[3, 3], bonus=1)
    >>> marks = doubles.parse_marks("2-2")
    >>> [slot.label for slot in doubles.slots(marks)], doubles.score(marks), doubles.score(3)
    (['1-1'], 3, 7)
    """

    kind = "cells"
    supports_order = True

    def __init__(self, name: str, code: str, groups: Sequence[str], points: Sequence[int],
                 tickets: Sequence[int] | None = None, bonus: int = 0, **common: Any) -> None:
        cells: list[Need] = []
        self.group_masks: list[int] = []
        for group in groups:
            words = str(group).split()
            if not words:
                raise CardError(f"card '{name}': a group has no cells")
            needs = _needs(words, f"card '{name}': groups")
            self.group_masks.append(sum(1 << (len(cells) + i) for i in range(len(needs))))
            cells += needs
        super().__init__(name, code, cells, **common)
        self.points = _counted(points, len(self.group_masks), self.name, "points")
        self.ticket_values = _counted(tickets or [0] * len(self.group_masks), len(self.group_masks), self.name, "tickets")
        self.bonus = _counted([bonus], 1, self.name, "bonus")[0]

    @classmethod
    def from_entry(cls, entry: Entry) -> CellsCard:
        return cls(groups=entry.texts("groups"), points=entry.wholes("points"), tickets=entry.wholes("tickets", default=None),
                   bonus=entry.whole("bonus", 0), **entry.common())

    def raw_points(self, marks: int) -> int:
        done = sum(points for mask, points in zip(self.group_masks, self.points) if marks & mask == mask)
        return done + (self.bonus if marks == self.full else 0)

    def tickets(self, marks: int) -> int:
        return sum(count for mask, count in zip(self.group_masks, self.ticket_values) if marks & mask == mask)

    def max_points(self) -> int:
        return sum(self.points) + self.bonus

    def max_tickets(self) -> int:
        return sum(self.ticket_values)


def _counted(values: Sequence[int], count: int, name: str, what: str) -> tuple[int, ...]:
    values = tuple(values)
    if len(values) != count:
        raise CardError(f"card '{name}': {what} has {len(values)} numbers: the card has {count}")
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise CardError(f"card '{name}': {what} must be whole numbers >= 0, not {shorten(repr(list(values)))}")
    return values


class BingoCard(MaskCard):
    """An n x n grid; a complete row, column or diagonal is a Bingo, a full card a Blackout.

    >>> bingo = BingoCard("Bingo", "BG", ["2 3 4", "5 6 7", "8 9 10"], line_points=4, line_tickets=1,
    ...                   blackout_points=8)
    >>> marks = bingo.parse_marks("2,3,4,6,10")     # the top row and the diagonal: they share the 2
    >>> bingo.raw_points(marks), bingo.tickets(marks), bingo.raw_points(bingo.full)
    (4, 1, 20)
    """

    kind = "bingo"

    def __init__(self, name: str, code: str, grid: Sequence[str], line_points: int, line_tickets: int = 0,
                 blackout_points: int = 0, disjoint: bool = True, **common: Any) -> None:
        rows = [str(row).split() for row in grid]
        size = len(rows)
        if size < 2 or any(len(row) != size for row in rows):
            raise CardError(f"card '{name}': the grid must be a square of at least 2 x 2 cells")
        super().__init__(name, code, _needs([cell for row in rows for cell in row], f"card '{name}': grid"), **common)
        self.line_points, self.line_tickets, self.blackout_points = _counted(
            [line_points, line_tickets, blackout_points], 3, self.name, "line_points, line_tickets, blackout_points")
        self.disjoint = bool(disjoint)
        cell = lambda r, c: 1 << (r * size + c)  # noqa: E731
        lines = [sum(cell(r, c) for c in range(size)) for r in range(size)]
        lines += [sum(cell(r, c) for r in range(size)) for c in range(size)]
        lines += [sum(cell(i, i) for i in range(size)), sum(cell(i, size - 1 - i) for i in range(size))]
        self.lines = tuple(lines)

    @classmethod
    def from_entry(cls, entry: Entry) -> BingoCard:
        return cls(grid=entry.texts("grid"), line_points=entry.whole("line_points"),
                   line_tickets=entry.whole("line_tickets", 0), blackout_points=entry.whole("blackout_points", 0),
                   disjoint=entry.flag("disjoint", True), **entry.common())

    def bingos(self, marks: int) -> int:
        """How many Bingos the marks make (with ``disjoint``: the most lines sharing no cell)."""
        complete = [line for line in self.lines if marks & line == line]
        if not self.disjoint:
            return len(complete)
        return _most_disjoint(tuple(complete), 0)

    def raw_points(self, marks: int) -> int:
        return self.line_points * self.bingos(marks) + (self.blackout_points if marks == self.full else 0)

    def tickets(self, marks: int) -> int:
        return self.line_tickets * self.bingos(marks)


def _most_disjoint(lines: tuple[int, ...], used: int) -> int:
    """The most of ``lines`` that share no cell with each other nor with ``used`` (a tiny search)."""
    best = 0
    for i, line in enumerate(lines):
        if not line & used:
            best = max(best, 1 + _most_disjoint(lines[i + 1:], used | line))
    return best


# ----- cards with a state of counts ---------------------------------------------------------------------------------
class SudokuCard(Card[tuple[int, ...]]):
    """A Sudoku whose empty boxes need ``need[v-1]`` of each number v; any number 1..6 (a die, or a
    total of at most 6) fits while some box still needs it. The state: how many of each are recorded.

    >>> sudoku = SudokuCard("Sudoku", "SUD", need=[1, 0, 0, 0, 0, 2], points=10, all_or_nothing=True)
    >>> marks = sudoku.parse_marks("6")
    >>> [slot.label for slot in sudoku.slots(marks)], sudoku.score(marks), sudoku.score((1, 0, 0, 0, 0, 2))
    (['1', '6'], 0, 10)
    """

    kind = "sudoku"

    def __init__(self, name: str, code: str, need: Sequence[int], points: int, **common: Any) -> None:
        super().__init__(name, code, **common)
        self.need = _counted(need, FACES, self.name, "need")
        if not any(self.need):
            raise CardError(f"card '{self.name}': need asks for no number")
        self.points = _counted([points], 1, self.name, "points")[0]

    @classmethod
    def from_entry(cls, entry: Entry) -> SudokuCard:
        return cls(need=entry.wholes("need", FACES), points=entry.whole("points"),
                   **{**entry.common(), "all_or_nothing": entry.flag("all_or_nothing", True)})

    def start(self) -> tuple[int, ...]:
        return (0,) * FACES

    def slots(self, marks: tuple[int, ...]) -> tuple[Slot, ...]:
        return tuple(Slot(str(v + 1), Need("N", v + 1), marks[:v] + (marks[v] + 1,) + marks[v + 1:])
                     for v in range(FACES) if marks[v] < self.need[v])

    def raw_points(self, marks: tuple[int, ...]) -> int:
        return self.points if self.is_complete(marks) else 0

    def is_complete(self, marks: tuple[int, ...]) -> bool:
        return marks == self.need

    def rolls_used(self, marks: tuple[int, ...]) -> int:
        return sum(marks)

    def format_marks(self, marks: tuple[int, ...]) -> str:
        return "".join(str(v + 1) * count for v, count in enumerate(marks)) or "-"

    def parse_marks(self, text: str) -> tuple[int, ...]:
        if text == "-":
            return self.start()
        if not all(ch in "123456" for ch in text) or list(text) != sorted(text):
            raise self.marks_error(text, "must be the numbers recorded, as digits 1..6 in increasing order (e.g. 1136)")
        marks = tuple(text.count(str(v + 1)) for v in range(FACES))
        extra = next((v + 1 for v in range(FACES) if marks[v] > self.need[v]), None)
        if extra is not None:
            raise self.marks_error(text, f"records more {extra}s than the boxes take ({self.need[extra - 1]})")
        return marks

    def max_points(self) -> int:
        return self.points

    def max_tickets(self) -> int:
        return 0


class PyramidCard(Card[tuple[tuple[int, int], ...]]):
    """Rows of boxes (``rows``: their sizes, bottom first) that must all add up to the same number.

    A box takes any number 1..12. A row is complete when all its boxes are filled; it may only be
    completed at the sum the complete rows share, and a number is refused when no common sum
    1..12 would remain possible (a partial row needs at least 1 more for each empty box). The
    state: each row's (boxes filled, their sum).

    >>> pyramid = PyramidCard("Reverse Pyramid", "RP", rows=[1, 2], points=[2, 3])
    >>> marks = pyramid.parse_marks("1:7/1:5")
    >>> [slot.label for slot in pyramid.slots(marks)], pyramid.score(marks)
    (['2:2'], 2)
    """

    kind = "pyramid"

    def __init__(self, name: str, code: str, rows: Sequence[int], points: Sequence[int], **common: Any) -> None:
        super().__init__(name, code, **common)
        self.rows = _counted(rows, len(tuple(rows)), self.name, "rows")
        if not self.rows or min(self.rows) < 1 or max(self.rows) > MAX_NUMBER:
            raise CardError(f"card '{self.name}': rows are 1 to {MAX_NUMBER} boxes each (a box holds at least 1)")
        self.points = _counted(points, len(self.rows), self.name, "points")

    @classmethod
    def from_entry(cls, entry: Entry) -> PyramidCard:
        return cls(rows=entry.wholes("rows"), points=entry.wholes("points"), **entry.common())

    def start(self) -> tuple[tuple[int, int], ...]:
        return ((0, 0),) * len(self.rows)

    def feasible(self, marks: tuple[tuple[int, int], ...]) -> bool:
        """Whether one sum 1..12 fits every complete row and is still open to every partial one."""
        complete = {total for (filled, total), size in zip(marks, self.rows) if filled == size}
        least = max((total + size - filled for (filled, total), size in zip(marks, self.rows) if filled < size),
                    default=1)
        if len(complete) > 1:
            return False
        if complete:
            return least <= next(iter(complete)) <= MAX_NUMBER
        return least <= MAX_NUMBER

    def slots(self, marks: tuple[tuple[int, int], ...]) -> tuple[Slot, ...]:
        found = []
        for row, ((filled, total), size) in enumerate(zip(marks, self.rows)):
            if filled == size:
                continue
            others = [(f, t, n) for i, ((f, t), n) in enumerate(zip(marks, self.rows)) if i != row]
            complete = {t for f, t, n in others if f == n}
            least = max((t + n - f for f, t, n in others if f < n), default=1)
            if len(complete) > 1:
                continue
            highest = next(iter(complete)) if complete else MAX_NUMBER  # the largest common sum still open
            if least > highest:
                continue
            if filled + 1 == size:  # this number completes the row: at the common sum
                low, high = (highest, highest) if complete else (least, MAX_NUMBER)
                numbers = range(max(1, low - total), high - total + 1)
            else:  # the row's other empty boxes need at least 1 each
                numbers = range(1, highest - total - (size - filled - 1) + 1)
            found += [Slot(f"{row + 1}:{number}", Need("N", number),
                           marks[:row] + ((filled + 1, total + number),) + marks[row + 1:]) for number in numbers]
        return tuple(found)

    def raw_points(self, marks: tuple[tuple[int, int], ...]) -> int:
        return sum(points for (filled, _), size, points in zip(marks, self.rows, self.points) if filled == size)

    def is_complete(self, marks: tuple[tuple[int, int], ...]) -> bool:
        return all(filled == size for (filled, _), size in zip(marks, self.rows))

    def rolls_used(self, marks: tuple[tuple[int, int], ...]) -> int:
        return sum(filled for filled, _ in marks)

    def format_marks(self, marks: tuple[tuple[int, int], ...]) -> str:
        if not self.rolls_used(marks):
            return "-"
        return "/".join(f"{filled}:{total}" if filled else "-" for filled, total in marks)

    def parse_marks(self, text: str) -> tuple[tuple[int, int], ...]:
        if text == "-":
            return self.start()
        words = text.split("/")
        if len(words) != len(self.rows):
            raise self.marks_error(text, f"must give its {len(self.rows)} rows, bottom first, as filled:sum or -")
        marks = []
        for word, size in zip(words, self.rows):
            if word == "-":
                marks.append((0, 0))
                continue
            filled_text, colon, total_text = word.partition(":")
            if not (colon and _canonical(filled_text) and _canonical(total_text)):
                raise self.marks_error(text, f"has a row '{shorten(word)}': write boxes filled:their sum, e.g. 2:9")
            filled, total = int(filled_text), int(total_text)
            if not 1 <= filled <= size or not filled <= total <= MAX_NUMBER:
                raise self.marks_error(text, f"has a row '{word}' that cannot be: {size} boxes, a sum of at most 12")
            marks.append((filled, total))
        marks_tuple = tuple(marks)
        if not self.feasible(marks_tuple):
            raise self.marks_error(text, "has rows that can no longer add up to one sum")
        if self.format_marks(marks_tuple) != text:
            raise self.marks_error(text, f"is not written canonically ({self.format_marks(marks_tuple)})")
        return marks_tuple

    def max_points(self) -> int:
        return sum(self.points)

    def max_tickets(self) -> int:
        return 0


def _canonical(text: str) -> bool:
    return text.isdigit() and text.isascii() and (text == "0" or text[0] != "0")


class PolyominoCard(Card[tuple[int, ...]]):
    """Columns that fill from the bottom (gravity): a number fitting column c's need drops a brick
    there; row k scores ``points[k]`` once every column is at least k high. The state: the heights.

    >>> rows = PolyominoCard("Polyomino Rows", "PR", columns=["D1", "D2"], points=[2, 5])
    >>> marks = rows.parse_marks("21")
    >>> [slot.label for slot in rows.slots(marks)], rows.score(marks)
    (['D2'], 2)
    """

    kind = "polyomino"

    def __init__(self, name: str, code: str, points: Sequence[int], columns: Sequence[str] | None = None,
                 **common: Any) -> None:
        super().__init__(name, code, **common)
        self.columns = _needs(columns or [f"D{v}" for v in range(1, FACES + 1)], f"card '{self.name}': columns")
        self.texts = tuple(need_text(need) for need in self.columns)
        if len(set(self.texts)) != len(self.texts):
            raise CardError(f"card '{self.name}': two columns take the same number")
        self.points = _counted(points, len(tuple(points)), self.name, "points")
        self.height = len(self.points)
        if not 1 <= self.height <= 9:
            raise CardError(f"card '{self.name}': points gives each row's value, bottom first: 1 to 9 rows")

    @classmethod
    def from_entry(cls, entry: Entry) -> PolyominoCard:
        return cls(points=entry.wholes("points"), columns=entry.texts("columns", None), **entry.common())

    def start(self) -> tuple[int, ...]:
        return (0,) * len(self.columns)

    def slots(self, marks: tuple[int, ...]) -> tuple[Slot, ...]:
        return tuple(Slot(self.texts[c], self.columns[c], marks[:c] + (marks[c] + 1,) + marks[c + 1:])
                     for c in range(len(marks)) if marks[c] < self.height)

    def raw_points(self, marks: tuple[int, ...]) -> int:
        return sum(self.points[:min(marks)])

    def is_complete(self, marks: tuple[int, ...]) -> bool:
        return min(marks) == self.height

    def rolls_used(self, marks: tuple[int, ...]) -> int:
        return sum(marks)

    def format_marks(self, marks: tuple[int, ...]) -> str:
        return "".join(map(str, marks)) if any(marks) else "-"

    def parse_marks(self, text: str) -> tuple[int, ...]:
        if text == "-":
            return self.start()
        if len(text) != len(self.columns) or not all(ch.isdigit() and int(ch) <= self.height for ch in text):
            raise self.marks_error(text, f"must be the {len(self.columns)} column heights, digits 0..{self.height}")
        marks = tuple(int(ch) for ch in text)
        if not any(marks):
            raise self.marks_error(text, "is an empty card: write -")
        return marks

    def max_points(self) -> int:
        return sum(self.points)

    def max_tickets(self) -> int:
        return 0


# ----- kinds and the library ------------------------------------------------------------------------------------------
KINDS: dict[str, type[Card]] = {}
"""Card kinds by the name a cards file uses (``cells``, ``bingo``, ...)."""


def register_kind(cls: type[Card]) -> type[Card]:
    """Make a Card subclass (with ``kind`` and ``from_entry``) available to cards files; returns it
    (so it can decorate the class)."""
    if not cls.kind or not hasattr(cls, "from_entry"):
        raise CardError(f"{cls.__name__} needs a kind name and a from_entry classmethod to be read from a cards file")
    KINDS[cls.kind] = cls
    return cls


for _kind in (CellsCard, BingoCard, SudokuCard, PyramidCard, PolyominoCard):
    register_kind(_kind)


def kind_class(kind: str, where: str) -> type[Card]:
    """The Card class of ``kind``: a registered name, or ``module:Class`` of a plug-in (imported)."""
    if kind in KINDS:
        return KINDS[kind]
    module_name, colon, class_name = kind.partition(":")
    if not colon:
        raise CardError(f"{where}: unknown kind '{shorten(kind)}' (kinds: {', '.join(KINDS)}, or module:Class)")
    try:
        cls = getattr(import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise CardError(f"{where}: cannot load the card kind '{shorten(kind)}': {shorten(str(error))}") from None
    if not (isinstance(cls, type) and issubclass(cls, Card) and hasattr(cls, "from_entry")):
        raise CardError(f"{where}: '{shorten(kind)}' is not a Card subclass with a from_entry classmethod")
    return cls


class CardLibrary:
    """The cards a game may deal, in file order, found by code (``library["SOL"]``).

    ``source`` is the file they came from, ``assumed`` True for the built-in default.
    """

    def __init__(self, cards: Iterable[Card], source: str = "(built in)", assumed: bool = False) -> None:
        self.cards = tuple(cards)
        self.source = source
        self.assumed = assumed
        self.by_code: dict[str, Card] = {}
        names: set[str] = set()
        for card in self.cards:
            if not isinstance(card, Card):
                raise CardError(f"{shorten(repr(card))} is not a Card")
            if card.code in self.by_code:
                raise CardError(f"two cards have the code {card.code} ({self.by_code[card.code].name}, {card.name})")
            if card.name.lower() in names:
                raise CardError(f"two cards are named '{card.name}' (each card once: the box's two copies are one card)")
            self.by_code[card.code] = card
            names.add(card.name.lower())
        if not self.cards:
            raise CardError("a library needs at least one card")

    def __getitem__(self, code: str) -> Card:
        return self.by_code[code]

    def __contains__(self, code: object) -> bool:
        return code in self.by_code

    def __repr__(self) -> str:
        return f"CardLibrary({self.source!r}: {', '.join(self.by_code)})"

    def with_cards(self, *cards: Card) -> CardLibrary:
        """This library and ``cards`` (a plug-in of your own): a new library, checked the same way."""
        return CardLibrary(self.cards + cards, f"{self.source} + {', '.join(c.code for c in cards)}", self.assumed)

    def codes(self) -> str:
        return ", ".join(self.by_code)


def load_library(path: str | Path | None = None) -> CardLibrary:
    """The cards in ``path`` (a JSON cards file), or the default file; :class:`CardError` if invalid."""
    file = Path(path) if path is not None else DEFAULT_CARDS_FILE
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise CardError(f"cannot read the cards file '{shorten(str(file))}': {error.strerror or error}") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except json.JSONDecodeError as error:
        raise CardError(f"cards file '{shorten(str(file))}' is not JSON: {error.msg} at line {error.lineno} "
                        f"column {error.colno}") from None
    except CardError as error:
        raise CardError(f"cards file '{shorten(str(file))}': {error}") from None
    return parse_library(data, "the built-in cards.json, its values assumed" if path is None else str(file),
                         assumed=path is None)


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = next((key for key in keys if keys.count(key) > 1), None)
    if repeated is not None:
        raise CardError(f"the key '{shorten(repeated)}' appears twice in one object")
    return dict(pairs)


def parse_library(data: object, source: str, assumed: bool = False) -> CardLibrary:
    """A library from a decoded cards file (an object with ``cards`` and optionally ``about``)."""
    where = f"cards file '{shorten(source)}'"
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardError(f"{where} must hold a JSON object with a 'cards' list")
    unknown = sorted(set(data) - {"cards", "about"})
    if unknown:
        raise CardError(f"{where}: unknown key '{shorten(unknown[0])}' (keys: cards, about)")
    cards = []
    for number, item in enumerate(data["cards"], 1):
        name = item.get("name") if isinstance(item, dict) else None
        label = name if isinstance(name, str) else "?"
        entry_where = f"{where}, card {number} ({shorten(label, 40)})"
        if not isinstance(item, dict):
            raise CardError(f"{entry_where} must be a JSON object")
        entry = Entry(item, entry_where)
        try:
            cls = kind_class(entry.text("kind"), entry_where)
            card = cls.from_entry(entry)  # type: ignore[attr-defined]  # register_kind made sure it has one
            entry.finish()
        except CardError as error:
            message = str(error)
            raise CardError(message if message.startswith(entry_where) else f"{entry_where}: {_plain(message, label)}") from None
        cards.append(card)
    try:
        return CardLibrary(cards, source, assumed)
    except CardError as error:
        raise CardError(f"{where}: {error}") from None


def _plain(message: str, name: str) -> str:
    """A card's own message without the card's name (the file's location already names it)."""
    return message.removeprefix(f"card '{name}': ")

