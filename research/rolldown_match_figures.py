"""Heatmaps of RolldownBeta's match equity tables (one picture a mode), for ``results/rolldown-match/``.

Usage (from ``rolldown_match_outcomes.py``, or alone to redraw from the package's data file)::

    .venv/bin/python research/rolldown_match_figures.py
"""

from __future__ import annotations

from pathlib import Path

from dicetree.solver.figures import heatmap
from dicetree.solver.games.rolldown.match_equity import SCORE_CELLS, MatchTables, load_tables
from dicetree.solver.games.rolldown.state import NINE_ROUNDS

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-match"
LEADS = range(-80, 81, 8)  # the leads the Nine rounds picture shows (beyond them a match is nearly settled)
STARTERS = ("A starts the next round", "B starts the next round")


def draw_heatmaps(tables: MatchTables, folder: Path = RESULTS) -> list[Path]:
    """``first50.png`` and ``nine.png`` in ``folder``: A's chance to win the match, one panel per starter."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    scores = [2 * i for i in range(SCORE_CELLS)]
    fig, axes = plt.subplots(1, 2, figsize=(15, 6.6))
    for starter, ax in enumerate(axes):
        grid = tables.first50[starter]
        marks = [[f"{grid[i][j]:.2f}" if i % 5 == 0 and j % 5 == 0 else "" for j in range(SCORE_CELLS)]
                 for i in range(SCORE_CELLS)]
        heatmap(None, grid, scores, scores, title=f"First to 50: A's chance to win the match\n{STARTERS[starter]}",
                xlabel="B's score", ylabel="A's score", cbar_label="A wins the match", annotations=marks, ax=ax)
    fig.tight_layout()
    written.append(_save(fig, folder / "first50.png", plt))
    fig, axes = plt.subplots(2, 1, figsize=(13, 9))
    for starter, ax in enumerate(axes):
        rows = [[tables.value("nine", (max(lead, 0), max(-lead, 0)), starter, r + 1)
                 if abs(lead) <= 40 * r else float("nan") for lead in LEADS] for r in range(NINE_ROUNDS)]
        marks = [["" if value != value else f"{value:.2f}" for value in row] for row in rows]
        heatmap(None, rows, range(1, NINE_ROUNDS + 1), list(LEADS), annotations=marks, ax=ax,
                title=f"Nine rounds: A's chance to win the match before each round, {STARTERS[starter][:8]} it",
                xlabel="A's lead (points)", ylabel="round about to be played", cbar_label="A wins the match")
    fig.tight_layout()
    written.append(_save(fig, folder / "nine.png", plt))
    return written


def _save(fig, path: Path, plt) -> Path:
    fig.savefig(path, dpi=90)
    plt.close(fig)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")
    return path


if __name__ == "__main__":
    draw_heatmaps(load_tables())
