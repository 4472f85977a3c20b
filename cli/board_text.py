"""A position drawn in the terminal: :class:`dicetree.solver.board.Board` (what each game describes
for the explorer's pictures) as rich text, for ``dicetree play``.

Each player's zones are framed together (the frame bright where that player is to move): dice
as ``[d8 5]`` (``[d8 ×]`` taken, ``[d8 ·]`` not rolled yet; their notes left out), cards as ``[K]`` with their lines,
a hidden hand as ``[??]×3``, counters as ``points 3``.

    >>> from dicetree.solver.board import Board, Card, Counter, Die, Zone
    >>> board = Board("A to move", (Zone("dice", (Die(6, 5), Die(8, None)), owner="A", active=True),
    ...                             Zone("hand", (Card("Q"), Card("", face_down=True, count=2)), owner="B"),
    ...                             Zone("score", (Counter("points", "3"),), owner="B")))
    >>> print(board_text(board, width=40, colour=False))
    A to move
    ╭─ A ◀ to move ────────────────────────╮
    │ dice  [d6 5] [d8 ·]                  │
    ╰──────────────────────────────────────╯
    ╭─ B ──────────────────────────────────╮
    │ hand   [Q] [??]×2                    │
    │ score  points 3                      │
    ╰──────────────────────────────────────╯
"""

from __future__ import annotations

import io
from itertools import groupby

from rich.text import Text

from dicetree.solver.board import Board, Card, Counter, Die, Piece, Zone


def piece_markup(piece: Piece) -> str:
    """One piece as rich markup (faded where out of play, bold where chance is about to roll it)."""
    if isinstance(piece, Die):
        face = "·" if piece.face is None else str(piece.face)
        text = f"[d{piece.sides} {face}]" if piece.sides else f"[{face}]"  # its note ('rolled', 'taken'): the face says it
    elif isinstance(piece, Card):
        if piece.face_down:
            text = "[??]" + (f"×{piece.count}" if piece.count != 1 else "")
        else:
            printed = " " + "".join(str(die.face) for die in piece.dice) if piece.dice else ""  # its dice images
            text = f"[{piece.text}{printed}]" + (f" ({'; '.join(piece.lines)})" if piece.lines else "")
    else:
        assert isinstance(piece, Counter)
        text = f"{piece.label} {piece.value}"
    text = text.replace("[", r"\[")
    if getattr(piece, "dim", False):
        return f"[dim]{text}[/dim]"
    return f"[bold]{text}[/bold]" if getattr(piece, "highlight", False) else text


LINE_WIDTH = 60
"""A zone longer than this is drawn a piece a line."""


def zone_lines(zones: list[Zone]) -> list[str]:
    """A player's zones as lines of markup, each zone's title in a column."""
    width = max(len(zone.title) for zone in zones) + 2
    lines = []
    for zone in zones:
        long = sum(len(Text.from_markup(piece_markup(p)).plain) + 1 for p in zone.pieces) > LINE_WIDTH
        separator = "\n" + " " * width if long else " "
        lines.append(f"{zone.title:<{width}}" + separator.join(piece_markup(p) for p in zone.pieces).lstrip())
    return lines


def board_text(board: Board, width: int | None = None, colour: bool = True) -> str:
    """``board`` as terminal text (with colours where ``colour``)."""
    from rich.console import Console, Group
    from rich.panel import Panel

    parts: list = [Text(board.status, style="bold")]
    for owner, group in groupby(board.zones, key=lambda zone: zone.owner):
        zones = list(group)
        active = any(zone.active for zone in zones)
        title = (owner or "table") + (" ◀ to move" if active and owner else "")
        parts.append(Panel("\n".join(zone_lines(zones)), title=title, title_align="left",
                           border_style="bold cyan" if active else "dim", expand=True))
    console = Console(width=width or 80, color_system="standard" if colour else None, record=True,
                      file=io.StringIO(), highlight=False)  # recorded, not written
    console.print(Group(*parts))
    return console.export_text(styles=colour).rstrip()


__all__ = ["board_text", "piece_markup", "zone_lines"]
