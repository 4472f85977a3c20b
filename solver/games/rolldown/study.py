"""Endgame studies of RolldownBeta: the exact value of every pair of faces of one die against
another, with the best move of each, read from the endgame tables (:class:`Tablebase`).

Layout of a study
-----------------
A study is a 2-D grid. Each side names its dice in play as a comma-separated list; on each side
exactly one die is given **without** a face (the varying die), every other one **with** a face
(``d6:3``: fixed for the whole study). Rows are the faces of the mover's varying die, columns the
faces of the opponent's; the cell is the position with those faces, the given hands
(``mover's/opponent's``, as in the position notation) and the mover to move, after both players'
first turns. A value is the mover's exact probability of winning the round::

    --mine d8 --theirs d6                  8 x 6 cells, one die a side
    --mine d8,d4:3 --theirs d6,d10:7       the d8 against the d6, the d4 on 3 and the d10 on 7 fixed

Usage::

    >>> import tempfile
    >>> from dicetree.cache.store import TableStore
    >>> base = Tablebase(TableStore(tempfile.mkdtemp()))
    >>> study = run_study(StudySpec.parse("d8", "d6", "K/-"), base)
    >>> study.values.shape, round(float(study.values[1, 4]), 6), study.best[1][4]
    ((8, 6), 0.64, 'K a.d8')
    >>> plain = run_study(StudySpec.parse("d8", "d6"), base)
    >>> round(float((study.values - plain.values)[1, 4]), 6)   # what the King is worth at d8:2 / d6:5
    0.4

:func:`write_study` writes a study's tables and pictures (with :mod:`dicetree.solver.figures`);
:class:`EndgameStudy` is the game's study behind ``dicetree study rolldown``, and
``scripts/make_studies.py`` writes ``results/studies`` with these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np

from dicetree.cache.store import TableStore
from dicetree.solver.figures import heatmap, write_csv
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.notation import action_name, parse_position
from dicetree.solver.games.rolldown.rules import RolldownRules
from dicetree.solver.games.rolldown.state import Action, Capture, Reroll, RolldownState
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.providers import study_stem
from dicetree.solver.rule_options import RuleOption

NO_CARDS = "-/-"
#: Best moves are grouped for colouring: these kinds, in this order.
MOVE_KINDS = ("capture", "reroll mine", "reroll theirs", "card")
#: Moves within this of the best count as tied; the first of them in the rules' order is shown.
TIE = 1e-12


@dataclass(frozen=True)
class Die:
    """One die of a study: its sides and its fixed face, or None for the varying die."""

    sides: int
    face: int | None = None

    @property
    def text(self) -> str:
        return f"d{self.sides}" + ("" if self.face is None else f":{self.face}")


def parse_dice(text: str, who: str) -> tuple[Die, ...]:
    """``"d8"`` or ``"d6,d4:3"``: one side's dice, exactly one of them without a face.

    >>> parse_dice("d6,d4:3", "--mine")
    (Die(sides=6, face=None), Die(sides=4, face=3))
    >>> parse_dice("d6,d6", "--mine")
    Traceback (most recent call last):
    dicetree.solver.game.GameError: --mine: d6 is named twice (a player has one die of each kind)
    """
    dice: list[Die] = []
    for item in (part.strip() for part in text.split(",")):
        name, _, face_text = item.partition(":")
        if not name.startswith("d") or not name[1:].isdigit() or int(name[1:]) not in DIE_SIDES:
            raise GameError(f"{who}: unknown die '{item}' (dice are {', '.join(f'd{s}' for s in DIE_SIDES)})")
        sides = int(name[1:])
        if any(d.sides == sides for d in dice):
            raise GameError(f"{who}: d{sides} is named twice (a player has one die of each kind)")
        face = None
        if face_text:
            if not face_text.isdigit() or not 1 <= int(face_text) <= sides:
                raise GameError(f"{who}: '{item}' needs a face from 1 to {sides}")
            face = int(face_text)
        dice.append(Die(sides, face))
    free = [d for d in dice if d.face is None]
    if len(free) != 1:
        raise GameError(f"{who}: give exactly one die without a face (the one that varies), not {len(free)}")
    return tuple(dice)


@dataclass(frozen=True)
class StudySpec:
    """What a study covers: each side's dice (one varying) and the hands, ``mover's/opponent's``."""

    mine: tuple[Die, ...]
    theirs: tuple[Die, ...]
    hand: str = "-/-"

    @classmethod
    def parse(cls, mine: str, theirs: str, hand: str = "-/-") -> StudySpec:
        spec = cls(parse_dice(mine, "--mine"), parse_dice(theirs, "--theirs"), hand.strip() or "-/-")
        if len(spec.mine) != len(spec.theirs):
            raise GameError(f"both sides need as many dice: --mine has {len(spec.mine)}, --theirs {len(spec.theirs)}")
        if "?" in spec.hand:
            raise GameError("--hand: studies need known hands (no '?')")
        parse_position(spec.position(1, 1), RolldownRules())  # the notation checks the hands
        return spec

    @property
    def row_die(self) -> Die:
        return next(d for d in self.mine if d.face is None)

    @property
    def col_die(self) -> Die:
        return next(d for d in self.theirs if d.face is None)

    def position(self, row_face: int, col_face: int) -> str:
        """The cell's position in the notation: the mover is A."""

        def side(dice: Sequence[Die], face: int) -> str:
            return ",".join(f"d{d.sides}:{face if d.face is None else d.face}" for d in dice)

        return f"{side(self.mine, row_face)}/{side(self.theirs, col_face)} a {self.hand}"

    @property
    def title(self) -> str:
        mine = ",".join(d.text for d in self.mine)
        theirs = ",".join(d.text for d in self.theirs)
        return f"{mine} vs {theirs}, hands {self.hand}"


@dataclass
class Study:
    """A solved study: values (rows: my varying die's faces, columns: theirs) and best moves."""

    spec: StudySpec
    values: np.ndarray
    best: list[list[str]]
    kinds: np.ndarray  # index into MOVE_KINDS per cell
    positions: list[list[str]]

    @property
    def rows(self) -> list[int]:
        return list(range(1, self.spec.row_die.sides + 1))

    @property
    def cols(self) -> list[int]:
        return list(range(1, self.spec.col_die.sides + 1))


def _kind(action: Action) -> int:
    if isinstance(action, Capture):
        return MOVE_KINDS.index("capture")
    if isinstance(action, Reroll):
        return MOVE_KINDS.index("reroll mine" if action.side == 0 else "reroll theirs")
    return MOVE_KINDS.index("card")


def best_move(base: Tablebase, state: RolldownState) -> tuple[Action, float]:
    """The best legal move at ``state`` and its value (ties: the first in the rules' order)."""
    moves = base.move_values(state)
    top = max(value for _, value in moves)
    return next((action, value) for action, value in moves if value >= top - TIE)


def run_study(spec: StudySpec, base: Tablebase) -> Study:
    """Solve every cell of ``spec`` from ``base`` (building the tables it lacks first)."""
    rules = RolldownRules(ace=base.ace)
    rows, cols = spec.row_die.sides, spec.col_die.sides
    values = np.empty((rows, cols))
    kinds = np.empty((rows, cols), dtype=int)
    best: list[list[str]] = [[""] * cols for _ in range(rows)]
    positions: list[list[str]] = [[""] * cols for _ in range(rows)]
    base.ensure(parse_position(spec.position(1, 1), rules))  # every cell has the same signature
    for r in range(rows):
        for c in range(cols):
            positions[r][c] = spec.position(r + 1, c + 1)
            state = parse_position(positions[r][c], rules)
            action, _ = best_move(base, state)
            values[r, c] = base.probe(state)
            best[r][c] = action_name(state, action)
            kinds[r, c] = _kind(action)
    return Study(spec, values, best, kinds, positions)


# ----- output --------------------------------------------------------------------------------------
def moves_picture(path: Path | str, study: Study) -> None:
    """The best move of each cell, coloured by its kind (capture, reroll, card), named in the cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    colours = ["#4daf4a", "#a6cee3", "#fdbf6f", "#cab2d6"]
    rows, cols = study.values.shape
    fig, ax = plt.subplots(figsize=(max(5.0, 0.9 * cols + 2.5), max(3.5, 0.45 * rows + 1.6)))
    ax.imshow(study.kinds, cmap=ListedColormap(colours), vmin=-0.5, vmax=len(MOVE_KINDS) - 0.5, origin="lower",
              aspect="auto")
    size = 7
    for r in range(rows):
        for c in range(cols):
            ax.text(c, r, study.best[r][c], ha="center", va="center", fontsize=size)
    ax.set_xticks(range(cols), [str(c) for c in study.cols])
    ax.set_yticks(range(rows), [str(r) for r in study.rows])
    ax.set_xlabel(f"their d{study.spec.col_die.sides} (B)")
    ax.set_ylabel(f"my d{study.spec.row_die.sides} (A, to move)")
    ax.set_title(f"best move: {study.spec.title}", fontsize=10)
    ax.legend(handles=[Patch(color=c, label=k) for c, k in zip(colours, MOVE_KINDS)], loc="upper left",
              bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=130)
    plt.close(fig)


def write_study(stem: Path | str, study: Study, baseline: Study | None = None) -> list[Path]:
    """``STEM.csv`` (values), ``STEM-moves.csv`` and ``STEM-moves.png`` (best moves), ``STEM.png``
    (values), and with a ``baseline`` (the same dice, other hands) ``STEM-gain.{csv,png}``: the
    value minus the baseline's. Returns the files written."""
    stem = Path(stem)
    spec = study.spec
    row_name, col_name = f"my d{spec.row_die.sides} (A, to move)", f"their d{spec.col_die.sides} (B)"
    corner = f"d{spec.row_die.sides}\\d{spec.col_die.sides}"
    written = [
        write_csv(stem.with_name(stem.name + ".csv"), study.values, study.rows, study.cols, corner),
        write_csv(stem.with_name(stem.name + "-moves.csv"), study.best, study.rows, study.cols, corner),
    ]
    png = stem.with_name(stem.name + ".png")
    heatmap(png, study.values, study.rows, study.cols, title=f"P(mover wins): {spec.title}", xlabel=col_name,
            ylabel=row_name, cbar_label="probability that A (to move) wins the round")
    moves_png = stem.with_name(stem.name + "-moves.png")
    moves_picture(moves_png, study)
    written += [png, moves_png]
    if baseline is not None:
        gain = study.values - baseline.values
        written.append(write_csv(stem.with_name(stem.name + "-gain.csv"), gain, study.rows, study.cols, corner))
        gain_png = stem.with_name(stem.name + "-gain.png")
        heatmap(gain_png, gain, study.rows, study.cols, fmt="{:+.2f}", vmin=None, vmax=None, cmap="PuOr",
                title=f"hands {spec.hand} minus {baseline.spec.hand}: {spec.title}", xlabel=col_name,
                ylabel=row_name, cbar_label="change in A's win probability")
        written.append(gain_png)
    return written


# ----- the game's study: ``dicetree study rolldown`` ---------------------------------------------------
class EndgameStudy:
    """RolldownBeta's study (:class:`dicetree.solver.providers.Study`): a face-pair grid from the endgame tables."""

    title = "endgame study: exact values over every pair of faces of one die against another, with the best moves"
    parameters = (
        RuleOption("mine", "text", None, "the mover's dice, e.g. d8 or d8,d4:3 (one without a face: the rows)"),
        RuleOption("theirs", "text", None, "the opponent's dice, e.g. d6 or d6,d10:7 (one without a face: the columns)"),
        RuleOption("hand", "text", NO_CARDS, "hands as mover's/opponent's, e.g. K/- or QK/5"),
        RuleOption("output", "folder", None, "FOLDER: writes NAME.csv, NAME.png, NAME-moves.{csv,png} "
                   "(and NAME-gain.{csv,png} with cards) into FOLDER, NAME being its name"),
    )

    def __init__(self, ace: str = "online"):
        self.ace = ace

    def run(self, values: Mapping[str, object], progress=None) -> list[str]:
        mine, theirs, output = values.get("mine"), values.get("theirs"), values.get("output")
        if not mine or not theirs or not output:
            raise GameError("a RolldownBeta study needs --mine, --theirs and -o FOLDER")
        spec = StudySpec.parse(str(mine), str(theirs), str(values.get("hand") or NO_CARDS))
        base = Tablebase(TableStore(cast("str | None", values.get("tables_dir"))), ace=self.ace)  # a path or None
        solved = run_study(spec, base)
        baseline = None
        if spec.hand.replace("-", "").replace("/", ""):
            baseline = run_study(StudySpec(spec.mine, spec.theirs, NO_CARDS), base)
        written = write_study(study_stem(output), solved, baseline)
        v = solved.values
        lines = [f"{spec.title}: {v.size} positions, mover's mean win probability {v.mean():.4f} "
                 f"(min {v.min():.4f}, max {v.max():.4f}); tables in {base.store.root}"]
        return lines + [f"wrote {path}" for path in written]
