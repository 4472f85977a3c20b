"""A decision tree as a picture that shows itself: SVG text for a page, and in Jupyter.

:class:`TreePicture` wraps a :class:`~dicetree.solver.tree.DecisionTree` drawn by :mod:`dicetree.solver.render` (the
same drawing as ``dicetree tree``: grouping, colour scale, legend). Jupyter shows it through
``_repr_svg_``, as python-chess boards show themselves::

    >>> from dicetree.solver.games import load_game
    >>> from dicetree.solver.tree import TreeOptions, build_tree
    >>> game = load_game("rolldown")
    >>> picture = TreePicture(build_tree(game, game.parse("d8:5/d6:3 a -/-"), TreeOptions(depth=1)))
    >>> picture.svg().lstrip().startswith("<?xml")  # doctest: +SKIP
    True
"""

from __future__ import annotations

from dataclasses import dataclass

from dicetree.solver.game import GameError
from dicetree.solver.render import to_graphviz
from dicetree.solver.tree import DecisionTree


@dataclass(frozen=True)
class TreePicture:
    """A built tree, drawn on demand."""

    tree: DecisionTree

    def svg(self) -> str:
        """The drawing as SVG text (one line of error where Graphviz's ``dot`` program is missing)."""
        import graphviz

        try:
            return to_graphviz(self.tree).pipe(format="svg").decode("utf-8")
        except graphviz.ExecutableNotFound:
            raise GameError("Graphviz's 'dot' program is not installed: trees cannot be drawn "
                            "(Debian: apt-get install graphviz)") from None

    def _repr_svg_(self) -> str:
        return self.svg()


__all__ = ["TreePicture"]
