"""A position drawn: a small description each game fills from its state, and one renderer to SVG.

A game's :meth:`dicetree.solver.game.Game.board` hook describes what is on the table in these
values, knowing nothing of drawing: :class:`Die` (its number of sides and the face it shows),
:class:`Card` (face up with its text, or face down with a count: a hidden hand), :class:`Counter`
(a score, a life, tickets), laid out in :class:`Zone` rows (a player's dice, their hand, the cards
on the table) under a one-line status (whose turn, a roll pending, the end). :func:`board_svg` is
the one renderer: the explorer's page shows its SVG (``/api/position`` answers it), and a
:class:`Board` shows itself in Jupyter through ``_repr_svg_``, as python-chess boards do.

    >>> board = Board("A to move", (
    ...     Zone("dice", (Die(6, 5), Die(8, None, "rolling", highlight=True)), owner="A", active=True),
    ...     Zone("hand", (Card("Q"), Card("", face_down=True, count=2)), owner="B"),
    ... ))
    >>> board.to_json()["zones"][0]["pieces"][1]
    {'kind': 'die', 'sides': 8, 'face': None, 'note': 'rolling', 'colour': '', 'dim': False, 'highlight': True}
    >>> svg = board.svg()
    >>> svg.startswith("<svg") and 'class="die d8"' in svg and "×2" in svg
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from html import escape
from typing import Any


@dataclass(frozen=True)
class Die:
    """A die: its number of ``sides`` and the ``face`` it shows (a number, a symbol's text, or None
    while it is not rolled); ``note`` a caption below it (its number, 'reserve', 'taken'); ``colour``
    a fill where the game tells dice apart by colour ('black', 'red', or any CSS colour); ``dim``
    for a die out of play or used; ``highlight`` for the die chance is about to roll."""

    sides: int
    face: int | str | None
    note: str = ""
    colour: str = ""
    dim: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class Card:
    """A card: face up with its ``text`` (a rank, a code) and ``lines`` below it (what is marked on
    it, its points), or ``face_down`` (a hidden card: ``count`` of them drawn as one stack).
    ``dice`` are dice printed on its face (the images to match), drawn as dice are, small, under
    its text."""

    text: str
    lines: tuple[str, ...] = ()
    face_down: bool = False
    count: int = 1
    dim: bool = False
    highlight: bool = False
    dice: tuple[Die, ...] = field(default=(), repr=False)  # repr: a card's short form stays as it was


@dataclass(frozen=True)
class Counter:
    """A number with its label: a score, a life, tickets, rolls done."""

    label: str
    value: str


Piece = Die | Card | Counter
_KINDS = {Die: "die", Card: "card", Counter: "counter"}


@dataclass(frozen=True)
class Zone:
    """One row of the board: ``pieces`` under a ``title``. Consecutive zones of the same ``owner``
    (a player's name; '' for the table) are framed together, the frame marked where ``active``
    (that player is to move or to choose)."""

    title: str
    pieces: tuple[Piece, ...]
    owner: str = ""
    active: bool = False


@dataclass(frozen=True)
class Board:
    """A whole position: its ``status`` line (whose turn, what chance does next, who won) and its zones."""

    status: str
    zones: tuple[Zone, ...]

    def to_json(self) -> dict[str, Any]:
        """The description as JSON values (each piece with its ``kind``: die, card or counter)."""
        return {"status": self.status,
                "zones": [{"title": zone.title, "owner": zone.owner, "active": zone.active,
                           "pieces": [{"kind": _KINDS[type(piece)], **asdict(piece)} for piece in zone.pieces]}
                          for zone in self.zones]}

    def svg(self, width: int = 520) -> str:
        return board_svg(self, width)

    def _repr_svg_(self) -> str:
        return self.svg()


# ----- the renderer --------------------------------------------------------------------------------
DIE, CARD_W, CARD_H, GAP, TITLE_W, ROW_PAD, STATUS_H = 40, 38, 54, 8, 92, 6, 26
"""Sizes in pixels: a die's box, a card, the gap between pieces, the zone titles' column, ..."""
FRAME_GAP = 5
SMALL = 0.6
"""A faded card (a discard, one played) is drawn this much smaller."""
CAPTION = 12
"""A caption line's height (a die's note, a card's lines)."""
INK, MUTED, ACTIVE, FRAME = "#222", "#777", "#1f4e8c", "#c6dcef"
COLOURS = {"black": ("#222", "#fff"), "red": ("#c0392b", "#fff")}
"""Named die colours: (fill, ink)."""
PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)), 5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}
"""A six-sided die's pips, as offsets from its centre in units of a third of its face."""
CARD_DIE, CARD_DICE_ROW = 15, 3
"""A die printed on a card: its box in pixels, and how many make a row."""


def _text(x: float, y: float, text: str, size: float = 11, fill: str = INK, anchor: str = "middle",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}">{escape(text)}</text>')


def _outline(sides: int, cx: float, cy: float, r: float) -> str:
    """A die's outline by its number of sides: d4 a triangle, d6 a square, d8 a diamond, d10 a kite,
    d12 a pentagon, d20 a hexagon, any other a circle."""
    corners = {4: (3, -90), 8: (4, -90), 12: (5, -90), 20: (6, -90)}
    if sides == 6:
        return f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" rx="5"'
    if sides == 10:
        points = [(cx, cy - r), (cx + r, cy - r * 0.1), (cx, cy + r), (cx - r, cy - r * 0.1)]
    elif sides in corners:
        count, start = corners[sides]
        scale = r * (1.2 if sides == 4 else 1.05)
        points = [(cx + scale * math.cos(math.radians(start + 360 * i / count)),
                   cy + (r * 0.25 if sides == 4 else 0) + scale * math.sin(math.radians(start + 360 * i / count)))
                  for i in range(count)]
    else:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}"'
    return '<polygon points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"'


def _die_face(die: Die, cx: float, cy: float, r: float) -> list[str]:
    """A die's body centred at (cx, cy) with half-size ``r``: its outline, and its pips (a d6) or its
    face as text; the same drawing for a die in play and one printed on a card."""
    fill, ink = COLOURS.get(die.colour, (die.colour or "#fff", INK))
    stroke = "#e0785a" if die.highlight else INK
    dash = ' stroke-dasharray="4 3"' if die.highlight or die.face is None else ""
    scale = r / (DIE / 2 - 3)  # 1 for a die in play
    parts = [f'{_outline(die.sides, cx, cy, r)} fill="{fill}" stroke="{stroke}" stroke-width="{1.6 * max(scale, 0.6):.2g}"'
             f'{dash}/>']
    if isinstance(die.face, int) and die.sides == 6 and 1 <= die.face <= 6:
        unit = r / 2.2
        parts += [f'<circle cx="{cx + dx * unit:.1f}" cy="{cy + dy * unit:.1f}" r="{3 * max(scale, 0.45):.2g}" '
                  f'fill="{ink}"/>' for dx, dy in PIPS[die.face]]
    else:
        shown = "?" if die.face is None else str(die.face)
        size = (15 if len(shown) <= 2 else 11) * scale
        parts.append(_text(cx, cy + size / 2.8 + (3 * scale if die.sides == 4 else 0), shown, size, ink,
                           weight="bold"))
    return parts


def _die(die: Die, x: float, y: float) -> tuple[str, float]:
    """A die at (x, y), its caption below; its SVG and width."""
    cx, cy, r = x + DIE / 2, y + DIE / 2, DIE / 2 - 3
    faded = ' opacity="0.35"' if die.dim else ""
    parts = [f'<g class="die d{die.sides}"{faded}>', *_die_face(die, cx, cy, r)]
    caption = f"d{die.sides}" + (f" · {die.note}" if die.note else "")
    parts.append(_text(cx, y + DIE + CAPTION - 2, caption, 9, MUTED))
    parts.append(f"<title>d{die.sides}: {escape(str('not rolled' if die.face is None else die.face))}"
                 f"{escape(' · ' + die.note) if die.note else ''}</title></g>")
    return "".join(parts), max(DIE, 5.2 * len(caption))


def _card_size(card: Card) -> tuple[float, float]:
    """A card's width and height (without its lines): room for its text and its printed dice."""
    scale = SMALL if card.dim else 1
    width = max(CARD_W * scale, 7.0 * len(card.text) + 10)
    height = CARD_H * scale
    if card.dice and not card.face_down:
        rows = -(-len(card.dice) // CARD_DICE_ROW)
        width = max(width, min(len(card.dice), CARD_DICE_ROW) * (CARD_DIE + 3) + 9)
        height = max(height, 24 + rows * (CARD_DIE + 3) + 4)
    return width, height


def _card_dice(card: Card, x: float, y: float, width: float) -> list[str]:
    """The dice printed on a face-up card, in rows under its text, each drawn as a die is."""
    parts = []
    r = CARD_DIE / 2 - 1
    for index, die in enumerate(card.dice):
        row, column = divmod(index, CARD_DICE_ROW)
        in_row = min(CARD_DICE_ROW, len(card.dice) - row * CARD_DICE_ROW)
        left = x + (width - in_row * (CARD_DIE + 3) + 3) / 2
        cx = left + column * (CARD_DIE + 3) + CARD_DIE / 2
        cy = y + 24 + row * (CARD_DIE + 3) + CARD_DIE / 2
        parts += [f'<g class="card-die d{die.sides}">', *_die_face(die, cx, cy, r), "</g>"]
    return parts


def _card(card: Card, x: float, y: float) -> tuple[str, float]:
    """A card at (x, y) (a face-down stack: its back, with the count), its printed dice, its lines below."""
    width, height = _card_size(card)
    stroke = "#e0785a" if card.highlight else "#999"
    faded = ' opacity="0.45"' if card.dim else ""
    parts = [f'<g class="card{" face-down" if card.face_down else ""}"{faded}>']
    if card.face_down:
        for shift in range(min(card.count, 3) - 1, -1, -1):  # a stack: the backs offset behind each other
            parts.append(f'<rect x="{x + 3 * shift:.1f}" y="{y - 2 * shift:.1f}" width="{width:.1f}" '
                         f'height="{height:.1f}" rx="4" fill="#5d7fa8" stroke="#2c4a70"/>')
        parts.append(f'<rect x="{x + 5:.1f}" y="{y + 5:.1f}" width="{width - 10:.1f}" height="{height - 10:.1f}" '
                     'rx="2" fill="none" stroke="#c6dcef" stroke-dasharray="2 2"/>')
        parts.append(_text(x + width / 2, y + height / 2 + 5, f"×{card.count}", 13, "#fff", weight="bold"))
        width += 3 * (min(card.count, 3) - 1)
        title = f"{card.count} hidden card{'s' if card.count != 1 else ''}"
    else:
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" rx="4" fill="#fffdf5" '
                     f'stroke="{stroke}" stroke-width="1.4"/>')
        size = (16 if len(card.text) <= 2 else 12) * (0.75 if card.dim else 1)
        if card.dice:  # the text on top, the dice under it
            parts.append(_text(x + width / 2, y + 16, card.text, 12, weight="bold"))
            parts += _card_dice(card, x, y, width)
        else:
            parts.append(_text(x + width / 2, y + height / 2 + 5, card.text, size, weight="bold"))
        title = " · ".join((card.text, *card.lines))
    for number, line in enumerate(card.lines):
        parts.append(_text(x + width / 2, y + height + CAPTION * (number + 1) - 2, line, 9, MUTED))
    widest = max((5.4 * len(line) for line in card.lines), default=0)
    parts.append(f"<title>{escape(title)}</title></g>")
    return "".join(parts), max(width, widest)


def _counter(counter: Counter, x: float, y: float) -> tuple[str, float]:
    width = max(44.0, 7.5 * max(len(counter.value), 1) + 14, 5.6 * len(counter.label) + 8)
    return ('<g class="counter">'
            f'<rect x="{x:.1f}" y="{y + 6:.1f}" width="{width:.1f}" height="{DIE - 6}" rx="4" fill="#f3f6fa" '
            'stroke="#c6dcef"/>'
            f'{_text(x + width / 2, y + 28, counter.value, 15, weight="bold")}'
            f'{_text(x + width / 2, y + DIE + CAPTION - 2, counter.label, 9, MUTED)}</g>'), width


def _height(piece: Piece) -> float:
    """How tall a piece is with its captions."""
    if isinstance(piece, Card):
        return _card_size(piece)[1] + CAPTION * len(piece.lines) + (4 if piece.face_down else 0)
    return DIE + CAPTION


def board_svg(board: Board, width: int = 520) -> str:
    """The board as SVG text: the status on top, then each zone's title and its pieces, wrapped to ``width``.

    >>> print(board_svg(Board("Game over", ()))[:80])
    <svg xmlns="http://www.w3.org/2000/svg" class="board" width="520" height="34" vi
    """
    # each drawer takes its own kind of piece: the table pairs them, so a piece's type picks its drawer
    drawers: dict[type, Callable[[Any, float, float], tuple[str, float]]] = {Die: _die, Card: _card, Counter: _counter}
    body: list[str] = [_text(8, 18, board.status, 13, ACTIVE, anchor="start", weight="bold")]
    y = float(STATUS_H)
    frames: list[tuple[str, bool, float, float]] = []  # owner, active, top, bottom
    for zone in board.zones:
        if frames and frames[-1][3] == y and frames[-1][0] != zone.owner:
            y += FRAME_GAP  # frames of two players do not touch
        if zone.owner and (not frames or frames[-1][0] != zone.owner or frames[-1][3] != y):
            frames.append((zone.owner, zone.active, y, y))
        top = y + ROW_PAD
        x, line_height, row = float(TITLE_W), 0.0, []
        for piece in zone.pieces:
            drawn, piece_width = drawers[type(piece)](piece, x, top)
            if x > TITLE_W and x + piece_width > width - 4:  # wrap: this piece starts the next line
                top += line_height + GAP
                x, line_height = float(TITLE_W), 0.0
                drawn, piece_width = drawers[type(piece)](piece, x, top)
            row.append(drawn)
            x += piece_width + GAP
            line_height = max(line_height, _height(piece))
        if not zone.pieces:
            row.append(_text(TITLE_W, top + 16, "none", 10, MUTED, anchor="start"))
            line_height = 20
        owner = f"{zone.owner} · " if zone.owner and (not frames or frames[-1][2] == y) else ""
        body.append(_text(10, y + ROW_PAD + 16, owner + zone.title, 11, ACTIVE if zone.active else INK,
                          anchor="start", weight="bold" if zone.active else "normal"))
        body.extend(row)
        y = top + line_height + ROW_PAD
        if zone.owner and frames and frames[-1][0] == zone.owner:
            frames[-1] = (*frames[-1][:3], y)
    outlines = [f'<rect x="2" y="{top:.1f}" width="{width - 4}" height="{bottom - top:.1f}" rx="6" '
                f'fill="{"#eef4fb" if active else "#fff"}" stroke="{ACTIVE if active else FRAME}" '
                f'stroke-width="{2 if active else 1}"/>' for _, active, top, bottom in frames]
    height = int(y + 8)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">'
            f'<rect width="{width}" height="{height}" fill="#fafafa"/>' + "".join(outlines) + "".join(body) + "</svg>")


__all__ = ["Board", "Card", "Counter", "Die", "Piece", "Zone", "board_svg"]
