"""Benchmark of RolldownBeta's compiled search (issue 24) against the Python search, side by side in one run.

For each position and depth it runs the Python :class:`~dicetree.solver.search.Searcher`
(``compiled=False``) and the compiled one (``compiled=True``; the default of every command) with fresh
searchers (2^20-slot tables, as ``dicetree best``; the fitted model's memo of estimates emptied before each, as
a fresh process has it), in alternating order, and reports wall and CPU
time (medians: the Python search's of 3 runs under 2 s of CPU, else 1; the compiled search's of 5), nodes, and
the ratio of times; it checks that both give the
same best move and every move's value within 1e-12. Where the Python search would take too long
(``--python-limit``, default the round start at depth 4: 845 s in issue 24) its time is extrapolated
from its nodes per CPU second at the depth below and the compiled search's node count (the two count
nodes alike), and the report says so.

Then the same on ``benchmarks/search.py``'s positions at their depths (the issue's first target: cards,
Queens, sampled Jokers), each after one untimed compiled search of it. Then, against the OpenSpiel-style
baseline (plain :func:`~dicetree.solver.search.expectimax`: no pruning, no cache, as OpenSpiel's Python
``expectiminimax``), on the positions of
``benchmarks/search.py`` where that runs in seconds; and end to end: ``dicetree best rolldown
--example`` in its default 5 s (both hands seen, and B's hand hidden) with the depth reached, and
``dicetree duel rolldown --a solver:depth=2 --b random --games 100 --seed 1`` wall time, each with the
compiled search and with ``DICETREE_SEARCH=python`` (the duel in Python only with ``--python-duel``:
it took over 25 minutes in issue 24).

With endgame tables (:func:`with_tables`; skipped with one line when none is stored): the same
comparison with the stored tables probed, on the 2-dice example with cards at depth 5 (its 2-dice
tables), a 4-dice position without cards at depth 2 probing the 1-3-dice tables only (as
``results/rolldown-network``'s 4-dice measure does), and ``dicetree best rolldown "d6:2,d8:5/d4:3,d6:6 a
QK/-" --tables DIR`` end to end in its default 5 s, both ways. The tables are ``--tables DIR``'s, else
where ``dicetree`` looks (``$DICETREE_TABLES``, else the user's cache folder).

Usage::

    .venv/bin/python benchmarks/rolldown_compiled.py               # the full run (about 15 minutes)
    .venv/bin/python benchmarks/rolldown_compiled.py --quick       # a smoke run
    .venv/bin/python benchmarks/rolldown_compiled.py --out DIR     # report.md and figures.json into DIR
    .venv/bin/python benchmarks/rolldown_compiled.py --only tables --tables /work/tables  # that section alone

Outputs: ``results/compiled-search/report.md`` (first each of issue 24's speed targets, met or missed) and
``figures.json``; the section with endgame tables writes its own ``tables.md`` and ``tables.json`` there (so
either part may be run again alone).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.search import POSITIONS as SEARCH_POSITIONS  # noqa: E402
from dicetree.cache.store import TableStore  # noqa: E402
from dicetree.solver.games.rolldown import Rolldown  # noqa: E402
from dicetree.solver.games.rolldown.compiled_tables import TableIndex  # noqa: E402
from dicetree.solver.games.rolldown.fitted import load_model  # noqa: E402
from dicetree.solver.games.rolldown.tablebase import TableOracle, Tablebase  # noqa: E402
from dicetree.solver.search import Searcher, expectimax  # noqa: E402

EVALUATION = "fitted"
"""Issue 24 compares the searches with the fitted evaluation (its leaves compiled too), whatever the default:
every game and command here uses it."""
ROUND_START = "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a -/-"
SAME_DEPTH = [  # issue 24's table: (label, position, depth)
    ("2 dice", "d6:2,d8:5/d4:3,d6:6 a -/-", 5),
    ("3 dice", "d4:1,d6:2,d8:5/d4:3,d6:6,d8:2 a -/-", 4),
    ("round start", ROUND_START, 2),
    ("round start", ROUND_START, 3),
    ("round start", ROUND_START, 4),
]
QUICK_SAME_DEPTH = [SAME_DEPTH[0][:2] + (3,), SAME_DEPTH[2]]
BASELINE = [  # benchmarks/search.py's positions where its expectimax runs in seconds
    ("4 dice", "d6:3,d10:6,d12:10,d20:4/d4:4,d8:6,d12:7,d20:17 a JK/9", 3),
    ("3 dice", "d8:6,d12:3,d20:9/d6:2,d10:10,d20:12 b QA/5", 3),
    ("2 dice (Queen)", "d6:2,d8:5/d4:3,d6:6 a QK/-", 4),
]
QUICK_BASELINE = [BASELINE[2][:2] + (2,)]
SEARCH_BENCHMARK = [(p.label, p.text, p.depth) for p in SEARCH_POSITIONS]  # issue 24's first target, at their depths
QUICK_SEARCH_BENCHMARK = [(label, text, min(depth, 2)) for label, text, depth in SEARCH_BENCHMARK[-3:]]
TARGETS = {"ratio": 100.0, "baseline": 1000.0, "seen_depth": 4, "hidden_depth": 3, "duel_wall": 120.0}
"""Issue 24's speed targets: same-depth ratio to the Python searcher, to plain expectimax, the depth
``best --example`` reaches in 5 s with B's hand seen and hidden, the 100-game duel's wall seconds."""
TOLERANCE = 1e-12
WITH_TABLES = [  # (label, position, depth, most dice a side of the tables probed; None: all stored)
    ("2 dice with cards", "d6:2,d8:5/d4:3,d6:6 a QK/-", 5, None),
    ("4 dice, 1-3-dice tables", "d4:2,d6:5,d10:7,d20:13/d4:3,d6:4,d10:2,d20:9 a -/-", 2, 3),
    ("4 dice, 1-3-dice tables", "d4:2,d6:5,d10:7,d20:13/d4:3,d6:4,d10:2,d20:9 a -/-", 3, 3),
]
PREPARED = [("round start", ROUND_START), ("round start with cards", ROUND_START.replace("-/-", "5QK/8JX"))]
"""Positions whose preparation (finding and loading the tables each depth reaches) is timed."""
QUICK_WITH_TABLES = [WITH_TABLES[0][:2] + (3, None)]
COMPILED_RUNS = 5
"""The compiled search's time is the median of this many runs (the Python search's of up to 3)."""


def timed_search(game: Rolldown, state, depth: int, compiled: bool, oracle: TableOracle | None = None):
    """(result, wall s, CPU s) of one search with a fresh searcher (probing ``oracle``'s tables if given)."""
    searcher = Searcher(game, compiled=compiled, oracle=oracle)
    if compiled and searcher.compiled_for(state) is None:
        raise SystemExit(f"the compiled search declined {game.format(state)}")
    # Both searches start with no leaf estimate remembered, as a search in a fresh process does: the
    # compiled one forgets its memo at every search, the fitted model's memo outlives a Python search
    # (kept, a repeat of the round start at depth 2 took 0.075 s of CPU instead of 0.50).
    load_model().forget()
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = searcher.search(state, depth=depth)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def same_values(a, b) -> float:
    """The largest difference between two results' move values (and the best moves must tie, unless a
    sampled Joker makes the values estimates from different samples)."""
    values = {m.name: m.value for m in b.moves}
    worst = max(abs(m.value - values[m.name]) for m in a.moves)
    sampled = a.stats.sampled_chance_nodes or b.stats.sampled_chance_nodes
    if not sampled and a.best.name != b.best.name and abs(values[a.best.name] - b.value) > TOLERANCE:
        raise SystemExit(f"best moves differ: {a.best.name} against {b.best.name}")
    return worst


def measure(game: Rolldown, label: str, text: str, depth: int, python_limit: float, rates: dict) -> dict:
    state = game.parse(text)
    runs: dict[bool, list] = {True: [], False: []}
    extrapolated = False
    compiled_first = True
    for _ in range(3):
        for compiled in ((True, False) if compiled_first else (False, True)):
            if not compiled and rates.get(text, {}).get("skip"):
                continue
            runs[compiled].append(timed_search(game, state, depth, compiled))
        compiled_first = not compiled_first
        # CPU, not wall: under load a first Python search (which also fills the process's caches: 1.4 s
        # of CPU at the round start with cards, 0.24 s after) ran 6 s of wall and was the only sample
        if max(r[2] for side in runs.values() for r in side) > 2.0:
            break
        if not runs[False]:
            break
    while len(runs[True]) < COMPILED_RUNS:  # cheap: a single compiled run under load was up to 3 times its median
        runs[True].append(timed_search(game, state, depth, True))
    if not runs[False]:
        extrapolated = True
    row = {"position": label, "text": text, "depth": depth}
    c_wall = statistics.median(r[1] for r in runs[True])
    c_cpu = statistics.median(r[2] for r in runs[True])
    c_nodes = runs[True][0][0].stats.nodes
    row.update(compiled_wall=c_wall, compiled_cpu=c_cpu, compiled_nodes=c_nodes, runs=len(runs[True]),
               sampled=runs[True][0][0].stats.sampled_chance_nodes)
    if extrapolated:
        rate = rates[text]["nodes_per_cpu_s"]
        row.update(python_cpu=c_nodes / rate, python_wall=None, python_nodes=None, extrapolated=True,
                   max_difference=None)
    else:
        p_wall = statistics.median(r[1] for r in runs[False])
        p_cpu = statistics.median(r[2] for r in runs[False])
        p_nodes = runs[False][0][0].stats.nodes
        rates[text] = {"nodes_per_cpu_s": p_nodes / p_cpu}
        row.update(python_wall=p_wall, python_cpu=p_cpu, python_nodes=p_nodes, extrapolated=False,
                   max_difference=same_values(runs[True][0][0], runs[False][0][0]))
        if p_cpu * 25 > python_limit:  # the next depth costs about 20-40 times more: extrapolate it
            rates[text]["skip"] = True
    row["ratio_cpu"] = row["python_cpu"] / c_cpu
    row["ratio_wall"] = row["python_wall"] / c_wall if row["python_wall"] else None
    print(f"{label} depth {depth}: Python {row['python_cpu']:.3f} s CPU{' (extrapolated)' if extrapolated else ''}, "
          f"compiled {c_cpu:.4f} s CPU ({c_nodes:,} nodes): {row['ratio_cpu']:.0f}x", flush=True)
    return row


def warm(game: Rolldown, text: str) -> None:
    """One untimed compiled search of the position first (numba's cache loaded, the table's memory taken),
    so that no row pays for what the first search of a process pays."""
    Searcher(game, compiled=True).search(game.parse(text), depth=1)


def baseline(game: Rolldown, label: str, text: str, depth: int) -> dict:
    """Plain expectimax (every root move at depth - 1) against the compiled search at ``depth``."""
    state = game.parse(text)
    load_model().forget()  # cold, as timed_search's searches start
    gc.collect()
    cpu = time.process_time()
    values = {game.action_name(state, a): expectimax(game, game.apply(state, a), depth - 1)
              for a in game.legal_actions(state)}
    e_cpu = time.process_time() - cpu
    result, _, c_cpu = timed_search(game, state, depth, True)
    best = max(values.values()) if state.mover == 0 else min(values.values())
    row = {"position": label, "text": text, "depth": depth, "expectimax_cpu": e_cpu, "compiled_cpu": c_cpu,
           "ratio_cpu": e_cpu / c_cpu, "sampled": result.stats.sampled_chance_nodes,
           "best_agrees": abs((values[result.best.name] if state.mover == 0 else 1 - values[result.best.name])
                              - (best if state.mover == 0 else 1 - best)) <= 1e-9}
    print(f"expectimax {label} depth {depth}: {e_cpu:.2f} s CPU, compiled {c_cpu:.4f} s: {row['ratio_cpu']:.0f}x",
          flush=True)
    return row


def with_tables(game: Rolldown, base: Tablebase, quick: bool) -> dict:
    """The section with endgame tables: Python against compiled at equal depth, alternating, with the same
    tables probed (medians of 3 runs, or 1 where one took over 30 s), then ``best`` end to end."""
    rows = []
    for label, text, depth, most_dice in (QUICK_WITH_TABLES if quick else WITH_TABLES):
        state = game.parse(text)
        oracle = base.oracle()
        most = oracle.most_dice if most_dice is None else most_dice
        runs: dict[bool, list] = {True: [], False: []}
        for turn in range(3):
            for compiled in ((True, False) if turn % 2 == 0 else (False, True)):
                oracle = TableOracle(base, most)
                runs[compiled].append(timed_search(game, state, depth, compiled, oracle) + (oracle.reachable,))
            if max(r[1] for side in runs.values() for r in side) > 30.0:
                break
        python, compiled = runs[False][0][0], runs[True][0][0]
        row = {"position": label, "text": text, "depth": depth, "most_dice": most, "runs": len(runs[True])}
        for name, side in (("python", runs[False]), ("compiled", runs[True])):
            result = side[0][0]
            row.update({f"{name}_wall": statistics.median(r[1] for r in side),
                        f"{name}_cpu": statistics.median(r[2] for r in side), f"{name}_nodes": result.stats.nodes,
                        f"{name}_probes": result.stats.table_probes, f"{name}_hits": result.stats.table_hits,
                        f"{name}_within_reach": side[0][3]})
        row.update(ratio_cpu=row["python_cpu"] / row["compiled_cpu"], ratio_wall=row["python_wall"] / row["compiled_wall"],
                   max_difference=same_values(compiled, python), exact=compiled.exact, best=compiled.best.name)
        print(f"with tables: {label} depth {depth}: Python {row['python_cpu']:.3f} s CPU, compiled "
              f"{row['compiled_cpu']:.4f} s CPU: {row['ratio_cpu']:.0f}x; table hits {row['compiled_hits']:,} of "
              f"{row['compiled_probes']:,} probes (Python {row['python_hits']:,} of {row['python_probes']:,})", flush=True)
        rows.append(row)
    prepared = []
    for label, text in PREPARED:  # the first search in a process opens the packs; later ones find them open
        for attempt in ("first", "again"):
            index, times = TableIndex(base.oracle(), game.parse(text)), []
            for depth in range(1, 6):
                started = time.perf_counter()
                loaded = index.reach(depth)
                times.append((depth, time.perf_counter() - started, loaded))
            prepared.append({"position": label, "attempt": attempt, "depths": times})
            print(f"preparation, {label} ({attempt}): " + ", ".join(f"depth {d} {1000 * t:.1f} ms ({n} tables)"
                                                               for d, t, n in times), flush=True)
    ends = {}
    position = WITH_TABLES[0][1]
    for python in (False, True):
        wall, out, _ = command(["best", "rolldown", position, "--tables", str(base.store.root)], python)
        rate = re.search(r"([\d,]+) nodes/s", out)
        ends["python" if python else "compiled"] = {
            "wall": wall, "depth": depth_reached(out), "nodes_per_s": int(rate.group(1).replace(",", "")) if rate else None}
        print(f"best {position} --tables ({'Python' if python else 'compiled'}): depth {depth_reached(out)}, "
              f"{rate.group(1) if rate else '?'} nodes/s", flush=True)
    return {"tables": str(base.store.root), "most_dice_stored": base.oracle().most_dice, "rows": rows,
            "preparation": prepared, "best": ends}


def tables_report(section: dict, meta: dict) -> str:
    lines = [
        "# RolldownBeta's compiled search with endgame tables (issue 24)", "",
        f"Measured {meta['when']} by `benchmarks/rolldown_compiled.py{meta['args']}` on {meta['cpus']} CPUs, "
        f"CPython {meta['python']}, commit {meta['commit']}. Load average (1 min) {meta['load_before']:.2f} before, "
        f"{meta['load_after']:.2f} after: times are CPU seconds of this process (wall beside them), runs "
        "alternating in the same run.", "",
        f"Tables: `{section['tables']}` (up to {section['most_dice_stored']} dice a side stored). Fresh `Searcher` "
        "each run (2^20-slot table, fitted evaluation), `compiled=False` against `compiled=True`, both probing "
        "the same tables (a `TableOracle` of at most *tables* dice a side). The largest difference of any "
        "move's value between the two is shown; probes and hits are each search's own counts.", "",
        "| position | depth | tables | Python CPU s | Python wall s | compiled CPU s | compiled wall s | nodes Python | "
        "nodes compiled | hits / probes Python | hits / probes compiled | ratio (CPU) | ratio (wall) | max difference |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in section["rows"]:
        lines.append(
            f"| {r['position']} `{r['text']}` | {r['depth']} | ≤ {r['most_dice']} dice | {r['python_cpu']:.3f} | "
            f"{r['python_wall']:.3f} | {r['compiled_cpu']:.4f} | {r['compiled_wall']:.4f} | {r['python_nodes']:,} | "
            f"{r['compiled_nodes']:,} | {r['python_hits']:,} / {r['python_probes']:,} | "
            f"{r['compiled_hits']:,} / {r['compiled_probes']:,} | {r['ratio_cpu']:.0f}× | {r['ratio_wall']:.0f}× | "
            f"{r['max_difference']:.1e} |")
    lines += ["", "## Preparation: finding and loading the tables each iteration reaches", "",
              "Before each iteration the compiled search finds the stored tables that iteration can reach (the "
              "root's dice less a pair and its hands less a card per decision) and maps them; the milliseconds "
              "each depth added (cumulative tables loaded in brackets), the first time in this process (packs "
              "opened) and again (what a later search pays).", "",
              "| position | | " + " | ".join(f"depth {d}" for d, _, _ in section["preparation"][0]["depths"]) + " |",
              "| --- | --- | " + " | ".join("---:" for _ in section["preparation"][0]["depths"]) + " |"]
    for p in section["preparation"]:
        lines.append(f"| {p['position']} | {p['attempt']} | "
                     + " | ".join(f"{1000 * t:.1f} ms ({n})" for _, t, n in p["depths"]) + " |")
    lines += ["", "## End to end (fresh processes, wall time, default 5 s)", "",
              "| command | search | depth reached | nodes/s |", "| --- | --- | ---: | ---: |"]
    for name, r in section["best"].items():
        rate = "?" if r["nodes_per_s"] is None else f"{r['nodes_per_s']:,}"
        lines.append(f"| `dicetree best rolldown \"{WITH_TABLES[0][1]}\" --tables {section['tables']}` | "
                     f"{'Python (DICETREE_SEARCH=python)' if name == 'python' else 'compiled'} | {r['depth']} | {rate} |")
    return "\n".join(lines) + "\n"


def command(args: list[str], python: bool) -> tuple[float, str, str]:
    """(wall s, stdout, stderr) of a dicetree command in a fresh process."""
    env = dict(os.environ)
    if python:
        env["DICETREE_SEARCH"] = "python"
    else:
        env.pop("DICETREE_SEARCH", None)
    start = time.perf_counter()
    args = [*args, "--rule", f"evaluation={EVALUATION}"]
    done = subprocess.run([sys.executable, "-c", "from dicetree.cli.main import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"dicetree {' '.join(args)} failed: {done.stderr.strip()}")
    return elapsed, done.stdout, done.stderr


def depth_reached(output: str) -> int:
    found = re.findall(r"depth (\d+)", output)
    return int(found[0]) if found else 0


def end_to_end(quick: bool, python_duel: bool) -> dict:
    game = Rolldown(evaluation=EVALUATION)
    example = game.example_position()
    hidden = re.sub(r"/(\w+)$", lambda m: "/" + "?" * len(m.group(1)), example)
    rows = {}
    for label, position in (("seen", example), ("hidden", hidden)):
        for python in (False, True):
            wall, out, _ = command(["best", "rolldown", position, "--no-tables"], python)
            rows[f"best {label} {'python' if python else 'compiled'}"] = {"wall": wall, "depth": depth_reached(out)}
            print(f"best --example ({label}, {'Python' if python else 'compiled'}): depth {depth_reached(out)} "
                  f"in {wall:.1f} s", flush=True)
    games = "10" if quick else "100"
    duel = ["duel", "rolldown", "--a", "solver:depth=2", "--b", "random", "--games", games, "--seed", "1"]
    for python in ((False, True) if python_duel else (False,)):
        wall, out, _ = command(duel, python)
        rows[f"duel {'python' if python else 'compiled'}"] = {"wall": wall, "games": int(games)}
        print(f"duel of {games} games ({'Python' if python else 'compiled'}): {wall:.1f} s", flush=True)
    return rows


def verdict(met: bool) -> str:
    return "**met**" if met else "**missed**"


def targets(rows: list[dict], searched: list[dict], base: list[dict], ends: dict) -> list[str]:
    """The report's first section: each of issue 24's speed targets, met or missed, with the figure behind it."""
    lines = ["## Issue 24's targets", "", "| target | measured | |", "| --- | --- | --- |"]
    if searched:
        worst = min(searched, key=lambda r: r["ratio_cpu"])
        lines.append(f"| ≥ {TARGETS['ratio']:.0f}× the Python searcher at equal depth on `benchmarks/search.py`'s positions "
                     f"| {min(r['ratio_cpu'] for r in searched):.0f}×–{max(r['ratio_cpu'] for r in searched):.0f}× "
                     f"(lowest: {worst['position']}, depth {worst['depth']}) "
                     f"| {verdict(worst['ratio_cpu'] >= TARGETS['ratio'])} |")
    for depth in (3, 4):
        found = [r for r in rows if r["text"] == ROUND_START and r["depth"] == depth]
        if found:
            lines.append(f"| ≥ {TARGETS['ratio']:.0f}× at the round start, depth {depth} | {found[0]['ratio_cpu']:.0f}×"
                         f"{' (Python extrapolated)' if found[0]['extrapolated'] else ''} "
                         f"| {verdict(found[0]['ratio_cpu'] >= TARGETS['ratio'])} |")
    if base:
        low = min(r["ratio_cpu"] for r in base)
        lines.append(f"| ≥ {TARGETS['baseline']:,.0f}× plain `expectimax` (OpenSpiel-style) at equal depth "
                     f"| {low:.0f}×–{max(r['ratio_cpu'] for r in base):.0f}× | {verdict(low >= TARGETS['baseline'])} |")
    for hand, key in (("seen", "seen_depth"), ("hidden", "hidden_depth")):
        found = ends.get(f"best {hand} compiled")
        if found:
            lines.append(f"| `best rolldown --example` reaches depth ≥ {TARGETS[key]} in 5 s, B's hand {hand} "
                         f"| depth {found['depth']} | {verdict(found['depth'] >= TARGETS[key])} |")
    duel = ends.get("duel compiled")
    if duel and duel["games"] == 100:
        lines.append(f"| 100-game depth-2 duel in under {TARGETS['duel_wall']:.0f} s | {duel['wall']:.1f} s "
                     f"| {verdict(duel['wall'] < TARGETS['duel_wall'])} |")
    return lines + [""]


def same_depth_table(rows: list[dict]) -> list[str]:
    lines = [
        "| position | depth | Python CPU s | Python wall s | compiled CPU s | compiled wall s | nodes Python | "
        "nodes compiled | ratio (CPU) | ratio (wall) | max difference |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        ext = r["extrapolated"]
        lines.append(
            f"| {r['position']} | {r['depth']} | {r['python_cpu']:.2f}{' (extrapolated)' if ext else ''} | "
            f"{'—' if ext else format(r['python_wall'], '.2f')} | {r['compiled_cpu']:.4f} | {r['compiled_wall']:.4f} | "
            f"{'—' if ext else format(r['python_nodes'], ',')} | {r['compiled_nodes']:,} | {r['ratio_cpu']:.0f}× | "
            f"{'—' if ext else format(r['ratio_wall'], '.0f') + '×'} | "
            f"{'—' if ext else format(r['max_difference'], '.1e')} |")
    return lines


def report(rows: list[dict], searched: list[dict], base: list[dict], ends: dict, meta: dict) -> str:
    lines = [
        "# RolldownBeta's compiled search against the Python search (issue 24)", "",
        f"Measured {meta['when']} by `benchmarks/rolldown_compiled.py{meta['args']}` on {meta['cpus']} CPUs, "
        f"CPython {meta['python']}, commit {meta['commit']}. Load average (1 min) {meta['load_before']:.2f} before, "
        f"{meta['load_after']:.2f} after: the machine was shared, so times are CPU seconds of this process "
        "(wall times beside them), and ratios compare runs made in the same run, alternating.", "",
        *targets(rows, searched, base, ends),
        "## Same depth, same answers", "",
        "Fresh `Searcher` each run (2^20-slot table, fitted evaluation, no endgame tables): `compiled=False` "
        "against the compiled search. Same best move and every move's value within 1e-12 (the largest "
        "difference is shown); node counts differ only where the two tables (different hash functions) "
        "collided differently.", "",
        *same_depth_table(rows),
    ]
    if any(r["extrapolated"] for r in rows):
        lines += ["", "Extrapolated: the Python search's nodes per CPU second at the depth below times the "
                  "compiled search's node count at this depth (both count nodes alike)."]
    if searched:
        lines += ["", "## The search benchmark's positions", "",
                  "`benchmarks/search.py`'s `POSITIONS` at their depths (cards in hands, Jokers, Queens), measured as "
                  "above after one untimed compiled search of each position. Where a Joker has more outcomes than "
                  "`exact_chance_limit` both searches estimate it from 64 samples, but from different generators "
                  "(the Python search seeds from the position's text): there values and node counts differ by "
                  "sampling, and only the best move is checked (the rows with sampled Jokers say how many).", "",
                  *same_depth_table(searched)]
        sampled = [f"{r['position']} ({r['sampled']:,} sampled Joker visits)" for r in searched if r.get("sampled")]
        if sampled:
            lines += ["", "Sampled Jokers: " + ", ".join(sampled) + "."]
    lines += ["", "## Against the OpenSpiel-style baseline", "",
              "Plain `expectimax` (no pruning, no cache, no ordering: as OpenSpiel's Python `expectiminimax`) "
              "against the compiled search at the same depth, on `benchmarks/search.py`'s positions where "
              "expectimax runs in seconds.", "",
              "| position | depth | expectimax CPU s | compiled CPU s | ratio | same best move |",
              "| --- | ---: | ---: | ---: | ---: | --- |"]
    for r in base:
        lines.append(f"| {r['position']} `{r['text']}` | {r['depth']} | {r['expectimax_cpu']:.2f} | "
                     f"{r['compiled_cpu']:.4f} | {r['ratio_cpu']:.0f}× | {'yes' if r['best_agrees'] else 'no'} |")
    lines += ["", "## End to end (fresh processes, wall time)", "",
              "| command | search | wall s | depth reached |", "| --- | --- | ---: | ---: |"]
    for key, r in ends.items():
        what, *rest = key.split()
        if what == "best":
            lines.append(f"| `dicetree best rolldown <example> --no-tables` ({rest[0]} hand) | {rest[1]} | "
                         f"{r['wall']:.1f} | {r['depth']} |")
        else:
            lines.append(f"| `dicetree duel rolldown --a solver:depth=2 --b random --games {r['games']} --seed 1` | "
                         f"{rest[0]} | {r['wall']:.1f} | — |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of small depths")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "compiled-search")
    parser.add_argument("--python-limit", type=float, default=120.0,
                        help="CPU seconds a Python search may be expected to take before it is extrapolated")
    parser.add_argument("--python-duel", action="store_true", help="run the duel in Python too (25+ minutes)")
    parser.add_argument("--skip-end-to-end", action="store_true")
    parser.add_argument("--only", choices=["tables"], help="run one section alone: tables = with endgame tables")
    parser.add_argument("--tables", type=Path, default=None,
                        help="the endgame tables' folder (default: $DICETREE_TABLES, else the user's cache folder)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    game = Rolldown(evaluation=EVALUATION)
    Searcher(game, compiled=True).search(game.parse(ROUND_START), depth=1)  # compile or load first
    rows, searched, base, ends = [], [], [], {}
    if args.only is None:
        rates: dict = {}
        rows = [measure(game, *spec, args.python_limit, rates)
                for spec in (QUICK_SAME_DEPTH if args.quick else SAME_DEPTH)]
        for spec in (QUICK_SEARCH_BENCHMARK if args.quick else SEARCH_BENCHMARK):
            warm(game, spec[1])
            searched.append(measure(game, *spec, args.python_limit, rates))
        base = [baseline(game, *spec) for spec in (QUICK_BASELINE if args.quick else BASELINE)]
        ends = {} if args.skip_end_to_end else end_to_end(args.quick, args.python_duel)
    tablebase = Tablebase(TableStore(args.tables))
    section = None
    if tablebase.oracle() is None:
        print(f"no endgame tables stored in {tablebase.store.root}: the section with endgame tables is skipped "
              "(build them with `dicetree tablebase build rolldown --dice 3`, or pass --tables DIR)", flush=True)
    else:
        section = with_tables(game, tablebase, args.quick)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    meta = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "args": "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:])), "cpus": os.cpu_count(),
            "python": platform.python_version(), "commit": commit, "load_before": load_before,
            "load_after": os.getloadavg()[0]}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only is None:
        (args.out / "report.md").write_text(report(rows, searched, base, ends, meta))
        (args.out / "figures.json").write_text(json.dumps({"meta": meta, "same_depth": rows, "search_benchmark": searched,
                                                           "baseline": base, "end_to_end": ends}, indent=1) + "\n")
        print(f"wrote {args.out / 'report.md'}")
    if section is not None:
        (args.out / "tables.md").write_text(tables_report(section, meta))
        (args.out / "tables.json").write_text(json.dumps({"meta": meta, **section}, indent=1) + "\n")
        print(f"wrote {args.out / 'tables.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
