"""Tables and pictures of studies, for every game: labelled CSV tables and annotated heatmaps.

>>> import tempfile, os
>>> p = write_csv(os.path.join(tempfile.mkdtemp(), "t.csv"), [[0.5, 1.0]], [1], [1, 2], "faces")
>>> open(p).read().splitlines()
['faces,1,2', '1,0.500000000000,1.000000000000']
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def write_csv(path: Path | str, matrix: Sequence[Sequence] | np.ndarray, row_labels: Sequence, col_labels: Sequence,
              corner: str = "") -> Path:
    """A table with labelled rows and columns; floats with 12 decimals."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([corner, *col_labels])
        for label, row in zip(row_labels, matrix):
            writer.writerow([label, *(f"{v:.12f}" if isinstance(v, float | np.floating) else v for v in row)])
    return path


def heatmap(path: Path | str, matrix: np.ndarray, row_labels: Sequence, col_labels: Sequence, *, title: str,
            xlabel: str, ylabel: str, cbar_label: str, annotations: Sequence[Sequence[str]] | None = None,
            fmt: str = "{:.2f}", cmap: str = "RdBu", vmin: float | None = 0.0, vmax: float | None = 1.0,
            ax=None):
    """A heatmap with a colour bar and each cell annotated (``fmt`` of its value, or ``annotations``).

    ``vmin``/``vmax`` None centre a diverging scale on 0 (for differences). Written to ``path``
    unless ``ax`` is given (then drawn there and nothing is saved). Returns the image.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matrix = np.asarray(matrix, dtype=float)
    if vmin is None or vmax is None:
        bound = float(np.nanmax(np.abs(matrix))) or 1.0
        vmin, vmax = -bound, bound
    rows, cols = matrix.shape
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(max(4.5, 0.62 * cols + 2.2), max(3.5, 0.45 * rows + 1.6)))
    image = ax.imshow(matrix, cmap=cmap, vmin=vmin, vmax=vmax, origin="lower", aspect="auto")
    long_labels = max(len(str(c)) for c in col_labels) > 5
    ax.set_xticks(range(cols), [str(c) for c in col_labels], rotation=90 if long_labels else 0)
    ax.set_yticks(range(rows), [str(r) for r in row_labels])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    size = 8 if max(rows, cols) <= 8 else 7
    for r in range(rows):
        for c in range(cols):
            text = annotations[r][c] if annotations is not None else fmt.format(round(matrix[r, c], 10) + 0.0)  # no "-0.00"
            red, green, blue, _ = image.cmap(image.norm(matrix[r, c]))
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
            ax.text(c, r, text, ha="center", va="center", fontsize=size, color="white" if dark else "black")
    ax.figure.colorbar(image, ax=ax, label=cbar_label, fraction=0.05)
    if own:
        fig.tight_layout()
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=130)
        plt.close(fig)
    return image
