"""What every benchmark does last: print its report and keep it under ``results/`` as Markdown and JSON."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

CELLS = Path(__file__).resolve().parent / ".cells"
"""Where long benchmarks keep the cells they finished (not committed): a run stopped half-way
resumes from them. Delete a benchmark's folder to measure afresh."""


def write_report(stem: Path | str, markdown: str, data: dict) -> None:
    """Print ``markdown``, then write ``stem.md`` and ``stem.json`` (folders made as needed)."""
    print(markdown)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".md").write_text(markdown.rstrip("\n") + "\n")
    stem.with_suffix(".json").write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {stem.with_suffix('.md')} and {stem.with_suffix('.json')}")


def mean_half_width(values: np.ndarray) -> float:
    """The half-width of the 95% interval (normal approximation) of ``values``' mean (0 below two values).

    >>> round(mean_half_width(np.array([0.0, 1.0] * 50)), 4)
    0.0985
    """
    return float(1.96 * values.std(ddof=1) / len(values) ** 0.5) if len(values) > 1 else 0.0


def error_figures(predicted: np.ndarray, exact: np.ndarray) -> dict:
    """How far estimates are from exact values: their count, mean absolute error with its 95% interval's
    half-width, bias (mean signed error), 95th percentile and largest absolute error (None where there are no
    positions)."""
    error = predicted - exact
    some = len(exact) > 0
    return {"positions": int(len(exact)), "mean_abs_error": float(np.abs(error).mean()) if some else None,
            "mean_abs_error_half_width": mean_half_width(np.abs(error)) if some else None,
            "bias": float(error.mean()) if some else None,
            "p95_abs_error": float(np.quantile(np.abs(error), 0.95)) if some else None,
            "max_abs_error": float(np.abs(error).max()) if some else None}


def report_or_print(stem: Path | str, markdown: str, data: dict, *, quick: bool) -> None:
    """:func:`write_report`, except for a smoke run (``quick``), whose figures are only printed."""
    if quick:
        print(markdown)
    else:
        write_report(stem, markdown, data)


def cell(benchmark: str, name: str, compute: Callable[[], dict]) -> dict:
    """``compute()``'s result for one cell of ``benchmark``, kept in ``.cells/benchmark/name.json``:
    a rerun reads the cell instead of computing it again (written atomically, so a run killed while
    writing leaves no half cell)."""
    path = CELLS / benchmark / f"{name}.json"
    if path.exists():
        print(f"  {benchmark}/{name}: kept from an earlier run ({path})")
        return json.loads(path.read_text())
    value = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(value))
    os.replace(partial, path)
    return value
