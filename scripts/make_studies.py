"""Generate the endgame studies in ``results/studies/`` (issue 4, part 2), with exact values from
the RolldownBeta endgame tables (built into a temporary folder unless ``--tables`` says).

* ``pairings.{csv,png}``: every one-die-against-one-die endgame (36 pairings, no cards): the
  mover's win probability averaged over all face pairs, and over the face pairs where the mover
  cannot capture.
* ``card-worth.{csv,png}``: what one card in the mover's hand (K, J, Q, X, 5; the opponent holds
  none) adds to that average, per pairing.
* per-face studies made as ``dicetree study`` makes them: ``d8-d6``, ``d8-d6-K`` (with its gain),
  ``d6-d6-Q``, ``d12-d20-X`` and one with two dice a side, ``d8+d4-d6+d10``.

Usage::

    .venv/bin/python scripts/make_studies.py                     # writes results/studies/
    .venv/bin/python scripts/make_studies.py --out /tmp/studies --tables ~/.cache/dicetree/tables
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dicetree.cache.store import TableStore  # noqa: E402
from dicetree.solver.games.rolldown.cards import DIE_SIDES  # noqa: E402
from dicetree.solver.games.rolldown.tablebase import Tablebase  # noqa: E402
from dicetree.solver.figures import heatmap, write_csv  # noqa: E402
from dicetree.solver.games.rolldown.study import Study, StudySpec, run_study, write_study  # noqa: E402

CARDS = ("K", "J", "Q", "X", "5")
#: (file stem, --mine, --theirs, --hand) of the per-face studies.
FACE_STUDIES = (
    ("d8-d6", "d8", "d6", "-/-"),
    ("d8-d6-K", "d8", "d6", "K/-"),
    ("d6-d6-Q", "d6", "d6", "Q/-"),
    ("d12-d20-X", "d12", "d20", "X/-"),
    ("d8+d4-d6+d10", "d8,d4:3", "d6,d10:7", "-/-"),
)
DICE_LABELS = [f"d{s}" for s in DIE_SIDES]


def no_capture_mean(study: Study) -> float:
    """The mean value over the cells where the mover's varying die cannot capture (face below theirs)."""
    rows = np.array(study.rows)[:, None]
    cols = np.array(study.cols)[None, :]
    return float(study.values[rows < cols].mean())


def pairing_grid(base: Tablebase, hand: str) -> dict[tuple[int, int], Study]:
    """Every one-die-a-side study with ``hand``, keyed by (my sides, their sides)."""
    return {(m, t): run_study(StudySpec.parse(f"d{m}", f"d{t}", hand), base) for m in DIE_SIDES for t in DIE_SIDES}


def grid(studies: dict[tuple[int, int], Study], measure) -> np.ndarray:
    return np.array([[measure(studies[m, t]) for t in DIE_SIDES] for m in DIE_SIDES])


def make_pairings(out: Path, plain: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    mean_all = grid(plain, lambda s: float(s.values.mean()))
    mean_open = grid(plain, no_capture_mean)
    write_csv(out / "pairings.csv", [[*a, *b] for a, b in zip(mean_all, mean_open)], DICE_LABELS,
              [f"all:{d}" for d in DICE_LABELS] + [f"no-capture:{d}" for d in DICE_LABELS], "mine\\theirs")
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    common = {"xlabel": "their die (B)", "ylabel": "my die (A, to move)", "cbar_label": "P(A wins the round)", "fmt": "{:.3f}"}
    heatmap(None, mean_all, DICE_LABELS, DICE_LABELS, ax=axes[0],
            title="one die each, no cards: mean over all face pairs", **common)
    heatmap(None, mean_open, DICE_LABELS, DICE_LABELS, ax=axes[1],
            title="... over face pairs where A cannot capture", **common)
    fig.tight_layout()
    fig.savefig(out / "pairings.png", dpi=120)
    plt.close(fig)


def make_card_worth(out: Path, base: Tablebase, plain: dict) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    base_mean = grid(plain, lambda s: float(s.values.mean()))
    rows = []
    fig, axes = plt.subplots(2, 3, figsize=(16, 9.5))
    for ax, card in zip(axes.flat, CARDS):
        with_card = pairing_grid(base, f"{card}/-")
        gain = grid(with_card, lambda s: float(s.values.mean())) - base_mean
        best = grid(with_card, lambda s: float((s.values - plain[len(s.rows), len(s.cols)].values).max()))
        rows += [[card, f"d{m}", f"d{t}", float(gain[i, j]), float(best[i, j])]
                 for i, m in enumerate(DIE_SIDES) for j, t in enumerate(DIE_SIDES)]
        heatmap(None, gain, DICE_LABELS, DICE_LABELS, ax=ax, fmt="{:+.3f}", vmin=0.0, vmax=0.2, cmap="Purples",
                title=f"{card} in A's hand: mean gain over face pairs", xlabel="their die (B)",
                ylabel="my die (A, to move)", cbar_label="change in P(A wins)")
    axes.flat[-1].axis("off")
    fig.tight_layout()
    fig.savefig(out / "card-worth.png", dpi=110)
    plt.close(fig)
    write_csv(out / "card-worth.csv", [r[1:] for r in rows], [r[0] for r in rows],
              ["mine", "theirs", "mean_gain", "max_gain"], "card")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "studies")
    parser.add_argument("--tables", help="a table folder to use and fill (default: a temporary one)")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        base = Tablebase(TableStore(args.tables or scratch))
        args.out.mkdir(parents=True, exist_ok=True)
        plain = pairing_grid(base, "-/-")
        make_pairings(args.out, plain)
        make_card_worth(args.out, base, plain)
        for stem, mine, theirs, hand in FACE_STUDIES:
            spec = StudySpec.parse(mine, theirs, hand)
            baseline = None if hand == "-/-" else run_study(StudySpec(spec.mine, spec.theirs, "-/-"), base)
            write_study(args.out / stem, run_study(spec, base), baseline)
    print(f"wrote {len(list(args.out.iterdir()))} files to {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
