"""Endless play that did not settle in RolldownBeta's tables (issue 15): the batches, before and after.

The README's build of 2 dice a side with a card a hand warned "endless play not settled after 8
rounds" for nine batches. This solves each of them (first table named on the command line, or
the nine) twice in memory from the same children: with the code of a git revision (default
``a385aaf``, before the fix, loaded from ``git show``) and with the code of the working tree;
counts the rounds each needed (and whether they settled) and the positions whose values differ
by more than 1e-9 and the largest difference. Tables of one hand pair (``--exact``, default the
issue's ``d4d20-d10d12.-6``, and in each batch the one that changed most) are checked against
:mod:`dicetree.solver.exact`'s strategy iteration, which reads no table. Writes ``results/endless-play/settle.md`` and ``.json``.

    .venv/bin/python research/rolldown_endless_settle.py                 # the nine batches (about 4 min)
    .venv/bin/python research/rolldown_endless_settle.py d4d20-d10d12.-A  # one
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from dicetree.solver.exact import solve
from dicetree.solver.games.rolldown import tables as current
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.game import Rolldown
from dicetree.solver.games.rolldown.state import RolldownState
from dicetree.solver.games.rolldown.tables import Batch, Signature, all_signatures, build_tables, plan_batches

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "endless-play"
CHANGED = 1e-9
UNSETTLED = ["d4d20-d10d12.-A", "d4d20-d10d12.8-J", "d4d20-d12d20.5-T", "d4d20-d12d20.4-J", "d4d20-d12d20.6-9",
             "d4d20-d12d20.9-6", "d4d20-d12d20.T-5", "d4d20-d12d20.X-A", "d4d20-d8d10.Q-7"]


WHY = """## Why they did not settle

The issue's position: `d4d20-d10d12.-6` (B holds a 6), A's d4 any face and d20 7 (or 8) against d10 5 and d12 5,
A to move, A's value 0.2190790863 (`dicetree best rolldown "d4:1,d20:7/d10:5,d12:5 a -/6" --exact`). A's d4 can
capture nothing: A rerolls it (0.219; the next best, rerolling the d20, 0.163) and B, ahead at 0.781, rerolls it
back (`roll b.d4`): a loop. B's way out is `roll b.d20` when the d4 shows 1 (rerolling A's d20 for a face of 1 to 5,
which B's d10 or d12 then takes); at d4 2 to 4 it is worth less (0.774, 0.751, 0.703), so B passes until the d4
shows 1. The d20:7 and d20:8 positions are two such loops with **one way out for both**, and its value, a mean
over A's d20 faces, reads both loops' values (1/20 each). The game value has both loops exactly at their way out
(B leaves for sure: no endless play, all values the equations' own); any higher value for a loop is also a
solution of the equations (the loop holds itself up), value iteration's answer among them depending on its path.

Value iteration left the d20:8 loop 2.3e-6 above the way out and the d20:7 loop on it (tied within 1e-14).
The d20:8 loop was found (no best move there ends play), set to 1/2 and solved again by plain iteration: it came
back up to its way out, but that way out still read the d20:7 loop's old value, which nothing brought down (a loop
worth more than its way out is a solution too), so d20:8 settled 9.5e-7 *below* d20:7, whose way out had dropped
with it: now the d20:7 loop was above its way out and was found in the next round. The rounds took turns, the gap
shrinking 2.3e-6, 9.5e-7, 1.5e-7, 2.4e-8, 3.9e-9, 6.3e-10, 9.9e-11, 1.4e-11 (above the 1e-11 tie in round 8:
the warning; a 9th round would have settled). The loop detection, the tolerance and the cards were not at fault,
and the values were already close: within 4e-10 of strategy iteration's before, within 5e-12 after (below).

The fix (`_solve_batch`): each round restarts **every loop found so far** from the draw, not only the new ones, so
loops that share a way out come up to it together, from below (plain iteration never passes a way out from the
draw's side), and the next check finds no loop. It costs one index array of the positions found (a few thousand
at most here), no table-sized temporary; the float and lean paths are the same code.

What is still not handled (unchanged): the loop check asks whether best play *may* end (some choice of best moves
reaches a capture or a card), not whether the player ahead can force it against the other's choice among tied best
moves; a loop the player behind can keep to among tied moves is only caught where `forcible_draws` applies.
""".splitlines()


def module_at(revision: str):
    """The tables module as it was at ``revision`` (its imports are absolute: the rest is today's)."""
    text = subprocess.run(["git", "show", f"{revision}:solver/games/rolldown/tables.py"], cwd=ROOT,
                          check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / f"tables_{revision}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"tables_{revision}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def rounds_of(module, batch: Batch, deps) -> tuple[dict, object, bool]:
    """Solve ``batch`` with ``module``'s solver: its tables, stats and whether endless play settled."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out, stats = module.solve_batch(batch, deps, kernel="numpy")
    return out, stats, not any("not settled" in str(w.message) for w in caught)


def exact_tables(sig: Signature, ace: str = "online") -> tuple[np.ndarray, np.ndarray]:
    """The tables of ``sig`` and of its swap (each in its own axes, as the builder makes them) by
    strategy iteration (:func:`dicetree.solver.exact.solve`, which scores endless play as a draw
    too) on every position reachable from one of ``sig``'s: no table is read, so this checks the
    tables' scoring of endless play independently. For small signatures only (the graph is
    explored whole: 2 dice a side and a card take about 6 s)::

        >>> mine, theirs = exact_tables(Signature((4,), (6,)))
        >>> round(float(mine[0, 2]), 12), round(float(theirs[0, 2]), 12)  # d4:1 against d6:3; d6:1 against d4:3
        (0.142857142857, 0.4)
    """
    n = sig.dice

    def state(index: tuple[int, ...], mover: int) -> RolldownState:
        faces = [[0] * len(DIE_SIDES), [0] * len(DIE_SIDES)]
        for player, sides, at in ((0, sig.mine, index[:n]), (1, sig.theirs, index[n:])):
            for side, face in zip(sides, at):
                faces[player][DIE_SIDES.index(side)] = face + 1
        return RolldownState(dice=(tuple(faces[0]), tuple(faces[1])), mover=mover, hands=(sig.my_hand, sig.their_hand))

    game = Rolldown(ace=ace, exact_chance_limit=max(4096, sig.positions))  # a Joker rerolls every die at once
    solution = solve(game, state((0,) * (2 * n), 0))
    mine = np.empty(sig.shape)
    theirs = np.empty(sig.swap().shape)
    for index in np.ndindex(*sig.shape):
        mine[index] = solution.value(state(index, 0))  # player 0's value: the mover's in sig's table
        theirs[index[n:] + index[:n]] = 1 - solution.value(state(index, 1))
    return mine, theirs


def measure(first: str, plan: list[Batch], old, exact: list[str]) -> dict:
    """Both solves of the batch whose first table is ``first``, side by side."""
    batch = next(b for b in plan if b.a_sig(0).name == first)
    deps = build_tables(roots=list(batch.dependencies()), workers=1, kernel="numpy")
    started = time.perf_counter()
    before, stats_before, settled_before = rounds_of(old, batch, deps)
    after, stats_after, settled_after = rounds_of(current, batch, deps)
    seconds = time.perf_counter() - started
    diffs = [np.abs(np.asarray(after[sig]) - np.asarray(before[sig])) for sig in after]
    row = {
        "batch": batch.name, "hand_pairs": len(batch.hands), "positions": batch.positions,
        "before": {"settled": settled_before, "rescored": stats_before.endless, "draws": stats_before.draws,
                   "updates64": stats_before.updates64},
        "after": {"settled": settled_after, "rescored": stats_after.endless, "draws": stats_after.draws,
                  "updates64": stats_after.updates64},
        "positions_changed": int(sum(np.count_nonzero(d > CHANGED) for d in diffs)),
        "largest_change": float(max(d.max() for d in diffs)),
        "seconds_both": round(seconds, 1),
    }
    # strategy iteration on the table that changed most (and on the issue's, where it is in the batch)
    changed = max(after, key=lambda sig: float(np.abs(np.asarray(after[sig]) - np.asarray(before[sig])).max()))
    row["exact"] = []
    named = [Signature.parse(name) for name in exact]
    for sig in dict.fromkeys(min(s, s.swap()) for s in [changed] + [s for s in named if s in after]):  # a table with its swap
        a, b = exact_tables(sig)
        check = {"table": sig.name, "positions": a.size + b.size}
        for label, out in (("before", before), ("after", after)):
            check[label] = max(float(np.abs(np.asarray(out[sig]) - a).max()),
                               float(np.abs(np.asarray(out[sig.swap()]) - b).max()))
        row["exact"].append(check)
    return row


def report(rows: list[dict], revision: str, load: tuple[float, float]) -> str:
    lines = [
        "# Endless play that did not settle (issue 15): the batches before and after the fix",
        "",
        f"Each batch solved twice in memory from the same children (numpy kernel, one thread): with the code at `{revision}`",
        "(before) and with the working tree's (after). \"Rescored\" counts the positions found in a loop over all rounds",
        f"(the solver's `BatchStats.endless`). Measured {time.strftime('%Y-%m-%d %H:%M')} by",
        "`.venv/bin/python research/rolldown_endless_settle.py`, "
        f"load average {load[0]:.1f} before and {load[1]:.1f} after on {os.cpu_count()} CPUs.",
        "",
        *WHY,
        "",
        "| batch | hand pairs | settled before / after | rescored before / after | float64 updates before / after "
        f"| positions changed (> {CHANGED:g}) | largest change |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        b, a = r["before"], r["after"]
        yes = lambda flag: "yes" if flag else "**no**"  # noqa: E731
        lines.append(f"| `{r['batch']}` | {r['hand_pairs']} | {yes(b['settled'])} / {yes(a['settled'])} | "
                     f"{b['rescored']:,} / {a['rescored']:,} | {b['updates64']:,} / {a['updates64']:,} | "
                     f"{r['positions_changed']:,} of {r['positions']:,} | {r['largest_change']:.1e} |")
    lines += ["", "Against strategy iteration (`exact_tables`: `solver/exact.py` on every position reachable, no table",
              "read), the table of each batch that changed most and its swap, and the issue's `d4d20-d10d12.-6`:", "",
              "| table and its swap | positions | largest difference before | after |", "|---|---:|---:|---:|"]
    for r in rows:
        for e in r["exact"]:
            lines.append(f"| `{e['table']}` | {e['positions']:,} | {e['before']:.1e} | {e['after']:.1e} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batches", nargs="*", default=UNSETTLED, help="first tables of the batches (default: the nine)")
    parser.add_argument("--revision", default="a385aaf", help="the code before (a git revision)")
    parser.add_argument("--exact", nargs="*", default=["d4d20-d10d12.-6"], help="tables also checked by strategy iteration")
    args = parser.parse_args()
    load_before = os.getloadavg()
    old = module_at(args.revision)
    plan = [b for level in plan_batches(all_signatures(2, 1)) for b in level]
    rows = []
    for first in args.batches:
        rows.append(measure(first, plan, old, args.exact))
        r = rows[-1]
        print(f"{r['batch']}: settled {r['before']['settled']} -> {r['after']['settled']}, "
              f"{r['positions_changed']} positions changed, largest {r['largest_change']:.1e}"
              + "".join(f", {e['table']} exact {e['before']:.1e} -> {e['after']:.1e}" for e in r["exact"]), flush=True)
    text = report(rows, args.revision, (load_before[0], os.getloadavg()[0]))
    if args.batches == UNSETTLED:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "settle.md").write_text(text)
        (OUT / "settle.json").write_text(json.dumps(rows, indent=2) + "\n")
    print(text)


if __name__ == "__main__":
    sys.exit(main())
