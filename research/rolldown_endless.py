"""What scoring endless play as a draw changes in RolldownBeta's endgame tables.

Builds the same tables twice in memory (numpy's kernel, one thread): as the builder makes them,
with endless play scored as a draw (:mod:`dicetree.solver.games.rolldown.endless`), and with it
left unscored (the values wherever value iteration stopped, as before the check existed); then
counts the tables and positions whose values differ by more than 1e-9 and the largest change.
Writes ``results/endless-play/README.md`` and ``.json``.

    .venv/bin/python research/rolldown_endless.py            # 3 dice without cards; 2 dice with a card, every 40th table
    .venv/bin/python research/rolldown_endless.py --quick    # 2 dice, every 200th card table
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from dicetree.solver.games.rolldown.tables import all_signatures, build_tables

OUT = Path(__file__).resolve().parent.parent / "results" / "endless-play"
CHANGED = 1e-9


def measure(label: str, roots: list) -> dict:
    """Both builds of what ``roots`` need, side by side: what differs, and where play loops."""
    started = time.perf_counter()
    scored = build_tables(roots=roots, workers=1, kernel="numpy")
    seconds = time.perf_counter() - started
    unscored = build_tables(roots=roots, workers=1, kernel="numpy", endless=False)
    changes = []
    for sig, table in scored.items():
        diff = np.abs(np.asarray(table) - np.asarray(unscored[sig]))
        changes.append((float(diff.max()), int(np.count_nonzero(diff > CHANGED)), sig.name))
    changes.sort(reverse=True)
    looping = [b for b in scored.stats.batches if b.endless or b.draws]
    return {
        "label": label, "roots": len(roots), "tables": len(scored), "positions": scored.stats.positions,
        "tables_changed": sum(1 for c in changes if c[0] > CHANGED),
        "positions_changed": sum(c[1] for c in changes),
        "largest_change": changes[0][0] if changes else 0.0,
        "largest_changes": [{"table": name, "change": change, "positions": count} for change, count, name in changes[:5]],
        "batches_looping": len(looping), "settled": sum(b.endless for b in looping),
        "draws": sum(b.draws for b in looping), "seconds_scored_build": round(seconds, 1),
    }


def report(rows: list[dict], load: tuple[float, float]) -> str:
    lines = [
        "# RolldownBeta's endgame tables: what scoring endless play as a draw changes",
        "",
        "RolldownBeta has no limit on rerolls, and a reroll of a die that matters to neither player is a pass in all",
        "but name, so best play can loop for ever; the rules do not say who wins such a round, and the tables'",
        "equations then have a whole interval of solutions. The tables score endless play as a draw, half a win to",
        "each (`solver/games/rolldown/endless.py`, docs/games/rolldown.md, \"How RolldownBeta is read\"). This compares, in memory",
        "and side by side, the tables as built with the tables left wherever value iteration stopped (as they were",
        f"built before the check existed). Measured {time.strftime('%Y-%m-%d %H:%M')} by "
        "`.venv/bin/python research/rolldown_endless.py`, "
        f"load average {load[0]:.1f} before and {load[1]:.1f} after on {os.cpu_count()} CPUs.",
        "",
        "| tables | roots | tables built | positions | batches where play loops | positions settled / left a draw "
        f"| tables changed (> {CHANGED:g}) | positions changed | largest change |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['label']} | {r['roots']:,} | {r['tables']:,} | {r['positions']:,} | {r['batches_looping']:,} | "
                     f"{r['settled']:,} / {r['draws']:,} | {r['tables_changed']:,} | {r['positions_changed']:,} "
                     f"({r['positions_changed'] / r['positions']:.2%}) | {r['largest_change']:.4f} |")
    lines += ["", "The largest changes (win probability for the mover):", ""]
    for r in rows:
        tops = ", ".join(f"`{c['table']}` {c['change']:.4f} ({c['positions']:,} positions)" for c in r["largest_changes"][:3])
        lines.append(f"- {r['label']}: {tops}")
    lines += [
        "",
        "\"Settled\" counts the positions found in a loop (summed over the rounds of scoring and solving again), \"left",
        "a draw\" those worth exactly 1/2 at the end, where both players prefer the loop to anything else. Changes",
        "reach beyond the loops: every position that can drift into one moves with it.",
        "",
        "Nine batches of the 2-dice, one-card build did not settle in 8 rounds before the rounds restarted every loop",
        "found so far (issue 15): why, and what the fix changed, in `settle.md` (`research/rolldown_endless_settle.py`).",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 dice without cards and every 200th card table")
    args = parser.parse_args()
    load_before = os.getloadavg()
    card_roots = [sig for sig in all_signatures(2, 1) if sig.dice == 2 and sig.cards]
    plans = ([("1 and 2 dice a side, no cards", all_signatures(2)),
              ("2 dice a side, one card in a hand: every 200th table", card_roots[::200])] if args.quick else
             [("1 to 3 dice a side, no cards", all_signatures(3)),
              ("2 dice a side, at most one card a hand: every 40th table", card_roots[::40])])
    rows = []
    for label, roots in plans:
        rows.append(measure(label, roots))
        print(f"{label}: {rows[-1]['tables_changed']} tables changed, largest {rows[-1]['largest_change']:.4f}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    text = report(rows, (load_before[0], os.getloadavg()[0]))
    if not args.quick:
        (OUT / "README.md").write_text(text)
        (OUT / "endless.json").write_text(json.dumps(rows, indent=2) + "\n")
    print(text)


if __name__ == "__main__":
    main()
