"""Drawing a :class:`~dicetree.solver.tree.DecisionTree` with Graphviz.

:func:`to_graphviz` turns the tree into a ``graphviz.Digraph`` (left to right; colour encodes
player 0's value on a red-white-blue scale with a legend; the best move's edge is bold, the others
grey with their loss; chance outcomes are dashed with their probability). :func:`write_tree`
always writes the ``.dot`` file and, for ``.svg``/``.png``/``.pdf``, renders it with Graphviz's
``dot`` program; where ``dot`` is missing it keeps the ``.dot`` file and says how to render it.

Besides the drawing attributes, the DOT file carries the tree's data for programs that read it
back: nodes have ``kind`` and ``value`` (player 0's, full precision), edges ``kind``,
``probability`` (outcomes) and ``loss`` (moves). Graphviz ignores attributes it does not know.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> from dicetree.solver.tree import TreeOptions, build_tree
    >>> game = load_game("rolldown")
    >>> tree = build_tree(game, game.parse("d8:5/d6:3 a -/-"), TreeOptions(depth=1))
    >>> "d8xd6" in to_graphviz(tree).source
    True
    >>> write_tree(tree, "/tmp/tree.svg").message  # doctest: +SKIP
    'wrote /tmp/tree.svg (and /tmp/tree.dot)'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import graphviz

from dicetree.solver.game import GameError
from dicetree.solver.tree import CHANCE_NODE, DECISION, END, HORIZON, MOVE, OTHER, DecisionTree

FORMATS = ("dot", "svg", "png", "pdf")
FONT = "Helvetica,Arial,sans-serif"
PALETTE = ("#e0785a", "#f8cdb8", "#f7f7f7", "#c6dcef", "#5d9fd0")
"""Red (low: good for player 1) through white to blue (high: good for player 0), light enough
for black text; a diverging scale readable with red-green colour blindness."""
POSITION_WIDTH = 26
"""Position strings are wrapped to lines of about this many characters."""


@dataclass(frozen=True)
class RenderResult:
    """What :func:`write_tree` wrote: always ``dot_path``; ``picture`` unless ``dot`` was missing."""

    dot_path: Path
    picture: Path | None
    message: str


# ----- colours and text ------------------------------------------------------------------------
def value_colour(value: float, low: float, high: float) -> str:
    """The fill colour of ``value`` on :data:`PALETTE`, interpolated between its stops.

    >>> value_colour(0.0, 0, 1), value_colour(0.5, 0, 1), value_colour(1.0, 0, 1)
    ('#e0785a', '#f7f7f7', '#5d9fd0')
    """
    t = 0.5 if high <= low else min(1.0, max(0.0, (value - low) / (high - low)))
    x = t * (len(PALETTE) - 1)
    i = min(int(x), len(PALETTE) - 2)
    f = x - i
    a, b = PALETTE[i], PALETTE[i + 1]
    channels = [round(int(a[k:k + 2], 16) * (1 - f) + int(b[k:k + 2], 16) * f) for k in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in channels)


def probability_text(p: float) -> str:
    """A probability as a small fraction where it is one (dice), else three decimals.

    >>> probability_text(0.375), probability_text(1 / 6), probability_text(0.0123456)
    ('3/8', '1/6', '0.012')
    """
    fraction = Fraction(p).limit_denominator(400)
    if abs(float(fraction) - p) < 1e-9 and fraction.denominator > 1:
        return f"{fraction.numerator}/{fraction.denominator}"
    return "1" if abs(p - 1) < 1e-9 else f"{p:.3f}"


def wrap_position(text: str, width: int = POSITION_WIDTH) -> list[str]:
    """A position string in lines of about ``width`` characters, broken after spaces, '/' or ','.

    >>> wrap_position("d4:1,d6:2,d8:5/d4:3,d6:6,d8:2 a QK/- ab", 16)
    ['d4:1,d6:2,d8:5/', 'd4:3,d6:6,d8:2 a', 'QK/- ab']
    """
    pieces: list[str] = []
    for word in text.split(" "):
        piece = ""
        for char in word:
            piece += char
            if char in "/,":
                pieces.append(piece)
                piece = ""
        pieces.append(piece + " ")
    lines, line = [], ""
    for piece in pieces:
        if line and len(line.rstrip()) + len(piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _value_text(tree: DecisionTree, value: float) -> str:
    return f"{value:.{tree.options.decimals}f}"


def _small(text: str, colour: str = "#333333", size: int = 8) -> str:
    return f'<FONT POINT-SIZE="{size}" COLOR="{colour}">{text}</FONT>'


def _position_html(position: str) -> str:
    return "<BR/>".join(html.escape(line) for line in wrap_position(position))


# ----- the drawing -------------------------------------------------------------------------------
def to_graphviz(tree: DecisionTree) -> graphviz.Digraph:
    """The tree as a Graphviz digraph (see the module docstring for the encoding)."""
    dot = graphviz.Digraph("tree", format="svg")
    dot.attr(rankdir="LR", nodesep="0.16", ranksep="0.3", fontname=FONT, bgcolor="white", newrank="true")
    dot.attr("node", fontname=FONT, fontsize="10", shape="box", style="rounded,filled", penwidth="0.8",
             color="#666666", margin="0.06,0.03", height="0.3")
    dot.attr("edge", fontname=FONT, fontsize="9", arrowsize="0.5", color="#a0a0a0", fontcolor="#555555")
    dot.node("legend", _legend(tree), shape="plaintext", style="", margin="0")
    for node, data in tree.graph.nodes(data=True):
        _draw_node(dot, tree, node, data)
    for u, v, data in tree.graph.edges(data=True):
        _draw_edge(dot, tree, u, v, data)
    return dot


def _draw_node(dot: graphviz.Digraph, tree: DecisionTree, node: int, data: dict) -> None:
    kind, value = data["kind"], data["value"]
    fill = value_colour(value, tree.low, tree.high)
    attrs = {"kind": kind, "value": repr(value), "fillcolor": fill, "tooltip": data.get("position") or kind}
    shown = _value_text(tree, value)
    if kind == DECISION:
        lines = [f"<B>{tree.players[data['player']]} to move</B> · {shown}", _small(_position_html(data["position"]))]
        if data["shown"] < data["moves"]:
            lines.append(_small(f"{data['shown']} of {data['moves']} moves shown", "#666666", 7))
        attrs.update(penwidth="1.4" if node == tree.root else "0.8")
    elif kind == HORIZON:  # compact: the position is in the tooltip, the edge says how it came
        estimate = "" if tree.options.exact else "≈"
        lines = [f"{estimate}{shown}"]
        attrs.update(style="filled", color="#999999", fontsize="8", height="0.2", margin="0.04,0.01")
    elif kind == END:
        if len(tree.players) == 2 and value >= tree.high:  # a one-player game has nobody to beat
            lines = [f"<B>{tree.players[0]} wins</B>"]
        elif len(tree.players) == 2 and value <= tree.low:
            lines = [f"<B>{tree.players[1]} wins</B>"]
        else:
            lines = [f"<B>end</B> · {shown}"]
        attrs.update(style="filled,bold", fontsize="8", height="0.2", margin="0.04,0.01")
    elif kind == CHANCE_NODE:
        lines = [f"avg {shown}"]
        if data.get("sampled"):
            lines.append(_small(f"{data['outcomes']} sampled outcomes", "#666666", 7))
        attrs.update(shape="ellipse", style="filled", margin="0.02,0.01", fontsize="9")
    elif kind == OTHER:
        lines = [f"{data['count']} rarer · avg {shown}" if data["groups"] > 1 else f"not drawn · {shown}"]
        attrs.update(shape="note", style="filled", fontsize="8", color="#999999", height="0.2", margin="0.04,0.01")
    else:  # pragma: no cover - every kind is drawn above
        raise ValueError(f"unknown node kind {kind!r}")
    dot.node(str(node), "<" + "<BR/>".join(lines) + ">", **attrs)


def _draw_edge(dot: graphviz.Digraph, tree: DecisionTree, u: int, v: int, data: dict) -> None:
    kind = data["kind"]
    if kind == MOVE:
        attrs = {"kind": kind, "loss": repr(data["loss"]), "tooltip": data["name"]}
        name = html.escape(data["name"])
        if data["best"]:
            label = f"<<B>{name}</B>>"
            attrs.update(penwidth="2.4", color="#222222", fontcolor="#000000", weight="3")
        else:
            # A loss is how much worse than the best (never negative), as in `best`'s table and JSON.
            loss = "tied" if data["tied"] else f"loss {data['loss']:.{tree.options.decimals}f}"
            label = f"<{name} {_small(loss, '#b03030' if not data['tied'] else '#555555', 9)}>"
            attrs.update(penwidth="0.9")
    else:
        names = ", ".join(data["outcomes"])
        tooltip = names if len(names) <= 600 else names[:597] + "..."
        if data.get("representative") and len(data["outcomes"]) > 1:
            tooltip += f" (subtree drawn for {data['representative']})"
        attrs = {"kind": kind, "probability": repr(data["probability"]), "tooltip": tooltip,
                 "style": "dashed", "penwidth": "0.9"}
        label = f"<{html.escape(data['name'])} {_small('p ' + probability_text(data['probability']), '#1f4e8c', 9)}>"
    dot.edge(str(u), str(v), label=label, **attrs)


def _legend(tree: DecisionTree) -> str:
    """An HTML-like table: what the tree is, the colour scale and the edge styles."""
    options = tree.options
    steps = [tree.low + (tree.high - tree.low) * k / 4 for k in range(5)]
    scale = "".join(
        f'<TD BGCOLOR="{value_colour(v, tree.low, tree.high)}" BORDER="1" COLOR="#888888" WIDTH="44">'
        f'<FONT POINT-SIZE="9">{v:g}</FONT></TD>' for v in steps
    )
    folded = f"outcome groups under p {options.min_prob:g} folded" if options.min_prob > 0 else "no outcomes folded"
    top = f"{options.top} best moves" if options.top is not None else "every move"
    if len(tree.players) == 2:
        worse, better = f"better for {tree.players[1]}", f"better for {tree.players[0]}"
    else:  # one player (no opponent to be better for), or more than two
        worse, better = "lower", "higher"
    rows = [
        f"<B>{html.escape(tree.game_name)}</B> {html.escape(tree.position)}",
        html.escape(f"{tree.method}; {top} per decision; {folded}"),
        html.escape(f"node value: {tree.value_meaning}, for {tree.players[0]}"),
        f'<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="2"><TR>{_cell(worse + " ")}{scale}'
        f'{_cell(" " + better)}</TR></TABLE>',
        "bold edge: the best move; grey edge: the move's loss for the mover",
        "dashed edge: chance outcomes with equal values, grouped, and their probability",
        *(html.escape(note) for note in tree.notes),
    ]
    text = "".join(f"<TR>{_cell(row)}</TR>" for row in rows)
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="1" CELLPADDING="2">{text}</TABLE>>'


def _cell(text: str) -> str:
    if text.startswith("<TABLE"):
        return f'<TD ALIGN="LEFT">{text}</TD>'
    return f'<TD ALIGN="LEFT"><FONT POINT-SIZE="9">{text}</FONT></TD>'


# ----- files -------------------------------------------------------------------------------------
def write_tree(tree: DecisionTree, path: str | Path) -> RenderResult:
    """Write ``tree`` to ``path`` (``.dot``, ``.svg``, ``.png`` or ``.pdf``); the ``.dot`` file is
    always written (next to the picture). Without Graphviz's ``dot`` program only the ``.dot``
    file is written and the message says how to render it."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise GameError(f"the output file must end in {', '.join('.' + f for f in FORMATS)}, not '{path.name}'")
    dot_path = path if fmt == "dot" else path.with_suffix(".dot")
    try:  # a library call may name a new folder; the command line refuses one first (dicetree.cli.options)
        dot_path.parent.mkdir(parents=True, exist_ok=True)
        dot_path.write_text(to_graphviz(tree).source, encoding="utf-8")
    except OSError as error:
        raise GameError(f"cannot write {dot_path}: {error.strerror or error}") from None
    if fmt == "dot":
        return RenderResult(dot_path, None, f"wrote {dot_path}")
    try:
        graphviz.render("dot", fmt, dot_path, outfile=path, quiet=True)
    except graphviz.ExecutableNotFound:
        return RenderResult(
            dot_path, None,
            f"Graphviz's 'dot' program is not installed, so only {dot_path} was written; render it with "
            f"`dot -T{fmt} {dot_path} -o {path}` (Debian: apt-get install graphviz)",
        )
    except graphviz.CalledProcessError as error:
        detail = (error.stderr or b"").decode(errors="replace").strip().splitlines()
        raise GameError(f"dot could not render {dot_path}: {detail[-1] if detail else error}") from None
    return RenderResult(dot_path, path, f"wrote {path} (and {dot_path})")


__all__ = ["FORMATS", "RenderResult", "probability_text", "to_graphviz", "value_colour", "wrap_position", "write_tree"]
