"""Benchmark of the RolldownBeta endgame-table builder (issue 3, part 5: scale; issue 15: the store).

Targets, in wall time on the project's 2-core machine, peak memory under 8 GiB:

* every position with at most 3 dice a side and no cards (290,361,600 with three dice a side,
  292,381,600 with the one- and two-dice tables they need) in at most 2 minutes;
* every position with at most 2 dice a side and at most one card in each hand (454,500,000) in
  at most 5 minutes;
* end to end, as the documented commands run them (``dicetree tablebase build``: solve and store;
  then every stored value read back against its checksum), within 10% of the in-memory build:
  storing at most 10% of the whole. Beside it, how long ``tablebase stats``, ``tablebase probe``
  and ``best`` (with and without the tables) take from a fresh process with the tables stored.

Each build runs in a fresh child process, so its peak memory (the child's maximum resident set)
is its own; the in-memory build and the end-to-end one of each target run one after the other in
the same run. Also measured: numpy's copy bandwidth, from which the memory-bandwidth bound on
position updates per second follows, and the machine's load while building (the machine may be
shared with other jobs: the load average and the share of a core this process got are printed).

Usage::

    .venv/bin/python benchmarks/tablebase.py            # both targets, writes results/tablebase.{md,json}
    .venv/bin/python benchmarks/tablebase.py --quick    # a small build, to try the script
    .venv/bin/python benchmarks/tablebase.py --workers 1
    .venv/bin/python benchmarks/tablebase.py --target "2 dice, 1 card"   # one target; the others' figures kept
    .venv/bin/python benchmarks/tablebase.py --report-only               # the report again from the JSON
    nice -n 10 .venv/bin/python benchmarks/tablebase.py --kernels        # numpy's kernel against the fused one
    .venv/bin/python benchmarks/tablebase.py --four-dice /work/tables   # the 4-dice build's figures, as far as it went

``--kernels`` builds every table up to 3 dice a side twice in one process, one worker thread each
(so the figures are per core), with numpy's kernel (the builder before issue 15, part 3) and with
the fused one, and compares every value; its figures are kept in the JSON under ``kernels``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import resource
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGETS = {
    "3 dice, no cards": {"max_dice": 3, "max_cards": 0, "limit_seconds": 120},
    "2 dice, 1 card": {"max_dice": 2, "max_cards": 1, "limit_seconds": 300},
}
QUICK = {"2 dice, no cards (quick)": {"max_dice": 2, "max_cards": 0, "limit_seconds": 120}}
MEMORY_LIMIT = 8 * 2**30
STORE_SHARE_LIMIT = 0.10
#: what the documented probe and best commands ask, after a build (a position of the 2-dice tables)
PROBE_POSITION = "d6:2,d8:5/d4:3,d6:6 a -/-"
BEST_POSITION = "d6:2/d6:1 a -/-"
# Bytes one position update must move between memory and the core:
#  - a classical value-iteration update reads the other table's value and the position's constant
#    and writes the new value: 3 x 8 bytes;
#  - this builder's update reads the constant only (8 bytes): the reroll means it reads and writes
#    are smaller than the table and are reused from cache within a block.
CLASSICAL_BYTES = 24
MEANS_BYTES = 8


def copy_bandwidth(megabytes: int = 512, repeats: int = 5) -> float:
    """Bytes per second numpy moves copying a large float64 array (read + write counted)."""
    import numpy as np

    a = np.ones(megabytes * 2**20 // 8)
    b = np.empty_like(a)
    np.copyto(b, a)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        np.copyto(b, a)
        best = min(best, time.perf_counter() - started)
    return 2 * a.nbytes / best


def peak_rss_bytes() -> int:
    """This process's peak resident set (VmHWM: per address space, so not inherited from the
    parent the way getrusage's ru_maxrss is across fork and exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_build(max_dice: int, max_cards: int, workers: int | None) -> dict:
    """One build, in this process: figures as a dict."""
    import numpy as np

    from dicetree.solver.games.rolldown.cards import DIE_SIDES
    from dicetree.solver.games.rolldown.state import RolldownState
    from dicetree.solver.games.rolldown.tables import build_tables, estimate_build, probe

    estimate = estimate_build(max_dice, max_cards, workers=workers or os.cpu_count() or 1)
    last = [0.0]

    def progress(done: int, total: int, stats) -> None:
        now = time.perf_counter()
        if now - last[0] > 10 or done == total:
            last[0] = now
            print(f"  {done / total:6.1%} of {total:,} positions, {now - started:6.1f} s", file=sys.stderr, flush=True)

    load_before = os.getloadavg()
    cpu_before = time.process_time()
    started = time.perf_counter()
    tables = build_tables(max_dice, max_cards, progress=progress, workers=workers)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_before
    load_after = os.getloadavg()
    stats = tables.stats

    # probing: random positions of the largest tables, in memory
    rng = random.Random(1)
    sigs = sorted(tables, key=lambda s: -s.positions)[:20]
    probes = []
    for _ in range(2000):
        sig = rng.choice(sigs)
        rows = [[0] * 6, [0] * 6]
        for side, dice in ((0, sig.mine), (1, sig.theirs)):
            for sides in dice:
                rows[side][DIE_SIDES.index(sides)] = rng.randint(1, sides)
        state = RolldownState(dice=(tuple(rows[0]), tuple(rows[1])), mover=0, hands=(sig.my_hand, sig.their_hand))
        t0 = time.perf_counter()
        probe(tables, state)
        probes.append(time.perf_counter() - t0)

    batches = stats.batches
    by_table = sum(b.positions for b in batches)
    top_dice = sum(t.size for s, t in tables.items() if s.dice == max_dice)
    updates32 = sum(b.position_updates * b.updates32 / max(1, b.updates32 + b.updates64) for b in batches)
    return {
        "max_dice": max_dice,
        "max_cards": max_cards,
        "workers": workers or os.cpu_count(),
        "tables": len(tables),
        "positions": by_table,
        "positions_with_max_dice": top_dice,
        "estimate_positions": estimate.positions,
        "estimate_peak_bytes": estimate.peak_bytes,
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "position_updates": stats.updates,
        "float32_share_of_updates": updates32 / max(1, stats.updates),
        "updates_per_position": stats.updates / by_table,
        "max_residual": stats.max_residual,
        "converged": stats.converged,
        "batches": len(batches),
        "largest_batch_seconds": max(b.seconds for b in batches),
        "probe_microseconds_median": 1e6 * float(np.median(probes)),
        "probe_microseconds_max": 1e6 * max(probes),
        "peak_rss_bytes": peak_rss_bytes(),
        "load_before": load_before,
        "load_after": load_after,
    }


def compare_kernels(max_dice: int) -> dict:
    """Every table up to ``max_dice`` dice a side built twice in this process, one worker thread,
    with numpy's kernel and with the fused one: time, CPU, updates and the largest difference."""
    import numpy as np

    from dicetree.solver.games.rolldown.tables import build_tables, solve_batch, plan_batches, all_signatures

    solve_batch(plan_batches(all_signatures(1))[0][0], {}, kernel="fused")  # numba loaded and compiled first
    figures, built = {}, {}
    for kernel in ("numpy", "fused"):
        load_before = os.getloadavg()
        cpu_before = time.process_time()
        started = time.perf_counter()
        built[kernel] = tables = build_tables(max_dice, 0, workers=1, kernel=kernel)
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu_before
        figures[kernel] = {"wall_seconds": wall, "cpu_seconds": cpu, "position_updates": tables.stats.updates,
                           "sweeps_per_position": tables.stats.updates / tables.stats.positions,
                           "max_residual": tables.stats.max_residual, "load_before": load_before,
                           "load_after": os.getloadavg()}
        print(f"  {kernel}: {wall:.1f} s, CPU {cpu:.1f} s", file=sys.stderr, flush=True)
    figures["max_difference"] = max(float(np.abs(built["fused"][sig] - built["numpy"][sig]).max())
                                    for sig in built["numpy"])
    figures["positions"] = built["numpy"].stats.positions
    figures["max_dice"] = max_dice
    looping = [b for b in built["numpy"].stats.batches if b.endless or b.draws]
    figures["endless"] = {"batches": [b.signatures[0] for b in looping], "settled": sum(b.endless for b in looping),
                          "draws": sum(b.draws for b in looping)}
    return figures


def kernel_lines(k: dict) -> list[str]:
    """The kernels' comparison (``--kernels``) as report lines."""
    if not k:
        return []
    rows = []
    for kernel in ("numpy", "fused"):
        r = k[kernel]
        rows.append(f"| {kernel} | {r['wall_seconds']:.1f} s | {r['cpu_seconds']:.1f} s | {r['sweeps_per_position']:.1f} | "
                    f"{r['position_updates'] / r['cpu_seconds'] / 1e6:.0f} M | "
                    f"{k['numpy']['position_updates'] / r['cpu_seconds'] / 1e6:.0f} M | {r['max_residual']:.1e} | "
                    f"{r['load_before'][0]:.1f} / {r['load_after'][0]:.1f} |")
    ratio = k["numpy"]["cpu_seconds"] / k["fused"]["cpu_seconds"]
    return [
        "",
        f"**Kernels side by side** (measured {k.get('measured', '')} by `nice -n 10 benchmarks/tablebase.py --kernels`): "
        f"every table up to {k['max_dice']} dice a side ({k['positions']:,} positions), in memory, one worker thread "
        "each, in one process one after the other:",
        "",
        "| kernel | wall | CPU | sweeps / position | updates per CPU second | the same, counting numpy's updates "
        "| residual | load (1 min) before / after |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        *rows,
        "",
        f"The fused kernel takes {ratio:.2f} times less CPU than numpy's for the same build (target: 3, not met: "
        "for 3 and 4 dice a sweep is bound by the reroll means, 0.5 to 1.3 times the table's length, read and "
        "summed once per face of each outer die, more than by the constants); every value of the two builds "
        f"agrees within {k['max_difference']:.1e} (each build certifies a change below 1e-12 a sweep). One sweep "
        "from the same inputs agrees to 1e-15, and small builds within 5e-12 (tests/test_rolldown_tables.py).",
        *endless_lines(k.get("endless")),
    ]


def endless_lines(endless: dict | None) -> list[str]:
    """What the kernels' builds found of endless play (``--kernels``), as report lines."""
    if endless is None:
        return []
    where = ", ".join(endless["batches"]) or "none"
    return [
        "",
        f"**Endless play** (`solver/games/rolldown/endless.py`): batches where best play could loop for ever: {where}; "
        f"{endless['settled']:,} positions in such loops settled by scoring endless play as a draw, "
        f"{endless['draws']:,} left worth a draw (both players prefer the loop). Before endless play was scored "
        "the two kernels' builds differed by 1.8e-07 there, each stopped at another of the loop's many solutions "
        "(both about 1e-3 from the value with endless play scored as a draw).",
    ]


def dicetree(*args: str) -> tuple[float, str]:
    """Run the command line in a fresh process: its wall time and output (it must succeed)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dicetree.cli.main", *args], cwd=ROOT, check=True, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, done.stdout


def open_and_stats(folder: Path) -> tuple[float, float]:
    """In this process, on tables nothing has opened yet: the time to open them for probing (the
    search's oracle) and probe one position, and the time of the figures ``tablebase stats`` prints."""
    from dicetree.cache.store import TableStore
    from dicetree.solver.games.rolldown import Rolldown
    from dicetree.solver.games.rolldown.tablebase import Tablebase

    state = Rolldown().parse(PROBE_POSITION)
    started = time.perf_counter()
    oracle = Tablebase(TableStore(folder)).oracle()
    assert oracle is not None and oracle(state) is not None
    opening = time.perf_counter() - started
    started = time.perf_counter()
    Tablebase(TableStore(folder)).stats()
    return opening, time.perf_counter() - started


def run_end_to_end(max_dice: int, max_cards: int, workers: int | None) -> dict:
    """The documented commands on a fresh table folder: build (solve + store), then verify every
    stored value, stats, probe and ``best`` with and without the tables; figures as a dict."""
    from dicetree.cache.packs import PackStore

    folder = Path(tempfile.mkdtemp(prefix="dicetree-bench-tables-"))
    try:
        options = ["--tables", str(folder)]
        build_args = ["tablebase", "build", "rolldown", "--dice", str(max_dice), "--cards", str(max_cards), *options]
        load_before = os.getloadavg()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        build_wall, output = dicetree(*build_args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        build_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        load_after = os.getloadavg()
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        inside = float(re.search(r"new positions in ([\d.]+) s", output).group(1))
        solving, storing = (float(x) for x in re.search(r"\(([\d.]+) s solving and ([\d.]+) s storing", output).groups())
        started = time.perf_counter()
        problems = PackStore(folder).check("rolldown-online")
        verify = time.perf_counter() - started
        files = [p for p in folder.rglob("*") if p.is_file()]
        per_folder = max(sum(1 for _ in d.iterdir()) for d in [folder, *folder.rglob("*")] if d.is_dir())
        opening, stats_here = open_and_stats(folder)
        stats_wall, stats_text = dicetree("tablebase", "stats", *options)
        probe_wall, _ = dicetree("tablebase", "probe", "rolldown", PROBE_POSITION, *options)
        best_wall, _ = dicetree("best", "rolldown", BEST_POSITION, "--depth", "1", *options)
        bare_wall, _ = dicetree("best", "rolldown", BEST_POSITION, "--depth", "1", "--no-tables", *options)
        return {
            "command": "dicetree " + " ".join(build_args[:-2]),
            "build_output": output.strip().splitlines(),
            "build_wall_seconds": build_wall,
            "build_cpu_seconds": build_cpu,
            "build_seconds_inside": inside,
            "solving_seconds_summed": solving,
            "storing_seconds_summed": storing,
            "store_share": storing / (solving + storing),
            "verify_seconds": verify,
            "verify_problems": len(problems),
            "end_to_end_seconds": build_wall + verify,
            "files": len(files),
            "most_entries_in_a_folder": per_folder,
            "bytes": sum(p.stat().st_size for p in files),
            "open_and_first_probe_seconds": opening,
            "stats_seconds_in_process": stats_here,
            "stats_seconds": stats_wall,
            "stats_output": stats_text.strip().splitlines(),
            "probe_seconds": probe_wall,
            "best_seconds": best_wall,
            "best_no_tables_seconds": bare_wall,
            "peak_rss_bytes": peak,
            "load_before": load_before,
            "load_after": load_after,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def child(args) -> None:
    if args.kernels:
        figures = compare_kernels(args.max_dice)
    elif args.end_to_end:
        figures = run_end_to_end(args.max_dice, args.max_cards, args.workers)
    else:
        figures = run_build(args.max_dice, args.max_cards, args.workers)
    print(json.dumps(figures))


def describe_machine() -> dict:
    import numpy as np

    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "processor": platform.processor() or platform.machine(),
        "memory_bytes": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
    }


def process_cpu(pid: int) -> tuple[float, float]:
    """The CPU seconds process ``pid`` has used and the time (epoch seconds) it started."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                if line.startswith("btime"))
    return (int(fields[11]) + int(fields[12])) / ticks, boot + int(fields[19]) / ticks


#: a 4-dice position of the first table the build stores (d4 d6 d8 d10 on both sides)
FOUR_DICE_POSITION = "d4:2,d6:5,d8:1,d10:7/d4:3,d6:6,d8:8,d10:2 a -/-"
#: each probed from a fresh process: the first table stored, one of the largest (lean path), a mixed one
FOUR_DICE_POSITIONS = (
    FOUR_DICE_POSITION,
    "d8:3,d10:9,d12:4,d20:17/d8:6,d10:2,d12:11,d20:5 b -/-",
    "d4:4,d6:1,d12:9,d20:13/d6:3,d8:7,d10:10,d20:2 a -/-",
)
FRESH_PROBE = """
import sys, time
from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.tablebase import Tablebase
state = Rolldown().parse(sys.argv[2])
started = time.perf_counter()
value = Tablebase(TableStore(sys.argv[1])).oracle()(state)
print(time.perf_counter() - started, value)
"""


def fresh_probe(folder: Path, position: str) -> tuple[float, float]:
    """In a fresh process, after its imports: seconds to open the tables and probe ``position``, and the value."""
    done = subprocess.run([sys.executable, "-c", FRESH_PROBE, str(folder), position], cwd=ROOT, check=True,
                          text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seconds, value = done.stdout.split()
    if value == "None":  # its table is not stored (yet)
        raise LookupError(position)
    return float(seconds), float(value)


def four_dice_built(folder: Path, build_pid: int | None = None) -> dict:
    """Figures of the 4-dice tables stored under ``folder`` (``tablebase build rolldown --dice 4``,
    resumable: as far as it has gone), read from the packs' directories. With ``build_pid`` (the
    build running), the position updates of the packs it wrote per second of its CPU time."""
    from datetime import datetime
    from dicetree.cache.packs import PackStore
    from dicetree.solver.games.rolldown.tables import Signature, all_signatures, memory_plan, plan_batches

    batches = {batch.name: batch for batch in plan_batches(all_signatures(4))[-1]}
    figures = {"tables": 0, "positions": 0, "above_half": 0, "bytes": 0, "build_seconds": 0.0, "residual": 0.0,
               "position_updates": 0, "batches": 0, "lean_batches": 0, "largest_done": 0,
               "batches_planned": len(batches), "tables_planned": sum(len(b.signatures()) for b in batches.values()),
               "positions_planned": sum(b.positions for b in batches.values())}
    cpu, started = process_cpu(build_pid) if build_pid else (0.0, math.inf)
    figures["build_cpu_seconds"], figures["updates_by_that_build"] = cpu, 0
    created = []  # when each 4-dice pack was written, and how long its batch took before
    for info in PackStore(folder).packs("rolldown-online"):
        if Signature.parse(info.path.parent.name).dice != 4:
            continue
        batch = batches.get(info.path.name.removesuffix(".dtp"))
        written = datetime.fromisoformat(info.metadata["created"]).timestamp()
        build_time = float(info.metadata.get("build_time", 0.0))
        created.append((written, build_time))
        if batch is not None and written >= started:
            figures["updates_by_that_build"] += batch.elements * int(info.metadata.get("updates", 0))
        figures["batches"] += 1
        figures["tables"] += info.totals.tables
        figures["positions"] += info.totals.positions
        figures["above_half"] += info.totals.statistics.get("above_half", 0)
        figures["bytes"] += info.file_size
        figures["build_seconds"] += build_time
        figures["residual"] = max(figures["residual"], float(info.metadata.get("residual", 0.0)))
        if batch is not None:
            figures["position_updates"] += batch.elements * int(info.metadata.get("updates", 0))
            figures["lean_batches"] += memory_plan(batch).lean
            figures["largest_done"] = max(figures["largest_done"], batch.elements)
    if created:
        # the span from the first batch's start to the last pack written: the build's wall time
        # where it ran in one go (a build resumed across sessions spans the pause too)
        figures["first_started"] = min(at - seconds for at, seconds in created)
        figures["last_written"] = max(at for at, _ in created)
    if figures["batches"]:
        figures["fresh_probes"] = []
        for position in FOUR_DICE_POSITIONS:
            try:
                seconds, value = fresh_probe(folder, position)
            except LookupError:  # its table is not stored yet
                continue
            figures["fresh_probes"].append({"position": position, "seconds": seconds, "value": value})
        if figures["fresh_probes"]:
            first = figures["fresh_probes"][0]
            figures["fresh_probe_seconds"], figures["fresh_probe_value"] = first["seconds"], first["value"]
    figures["measured"] = time.strftime("%Y-%m-%d %H:%M")
    figures["load"] = os.getloadavg()
    return figures


def four_dice_lines(results: dict, four: dict) -> list[str]:
    """The 4-dice build as far as it has gone, and what 5 dice would take, from its throughput."""
    from dicetree.solver.games.rolldown.tables import (
        MEMORY_BUDGET, Batch, Signature, estimate_build, hands_up_to, memory_plan,
    )

    lines = []
    everything = estimate_build(4, 0)
    largest = Signature((8, 10, 12, 20), (8, 10, 12, 20))
    plan = memory_plan(Batch(largest.mine, largest.theirs, (((), ()),)))
    lines += [
        "",
        f"**Every position of 4 dice a side (no cards)**: {four.get('positions_planned', 0):,} positions in "
        f"{four.get('tables_planned', 0)} tables ({everything.positions:,} with the smaller tables they need), "
        f"the largest {largest.positions:,}; stored at 32 bits (fixed point over [0, 1], steps of 2.3e-10) "
        f"{everything.stored_bytes / 2**30:.0f} GiB instead of {everything.bytes / 2**30:.0f} GiB at float64. "
        f"Memory: each batch is planned within a budget of {MEMORY_BUDGET / 2**30:.1f} GiB shared by the batches "
        "solved at once (`memory_plan`): batches too large for the float path take the lean one (constants and "
        "tables as 32-bit fixed point, the swap's table not held where it is the table itself, Anderson's history "
        f"as deep as the budget allows): the largest batch plans at {plan.bytes / 2**30:.1f} GiB (Anderson depth "
        f"{plan.depth32} in float32, plain value iteration in float64), against about 43 GiB before.",
    ]
    if four.get("batches"):
        rate = four["position_updates"] / max(four["build_seconds"], 1e-9)
        cpu_rate = four["updates_by_that_build"] / four["build_cpu_seconds"] if four.get("build_cpu_seconds") else 0.0
        share = four["positions"] / four["positions_planned"]
        left = four["positions_planned"] - four["positions"]
        sweeps = four["position_updates"] / max(1, four["positions"])
        complete = four["batches"] >= four["batches_planned"]
        span = four.get("last_written", 0.0) - four.get("first_started", 0.0)
        lines += [
            "",
            (f"Built (`dicetree tablebase build rolldown --dice 4 --tables /work/tables`, all of it "
             f"in one run; figures read from the packs {four['measured']}, load {four['load'][0]:.1f} on {os.cpu_count()} CPUs):"
             if complete else
             f"Built so far (`dicetree tablebase build rolldown --dice 4 --tables /work/tables`, under `nice`, "
             f"resumable, still running; figures read from the packs {four['measured']}, load {four['load'][0]:.1f} "
             f"on {os.cpu_count()} CPUs):"),
            "",
            "| batches | tables | positions | share | wins for the mover above 1/2 | solving (summed over batches) "
            "| first batch started to last pack written | on disk | largest residual | sweeps / position "
            "| updates / s of batch time |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
            f"| {four['batches']} of {four['batches_planned']} | {four['tables']} of {four['tables_planned']} | "
            f"{four['positions']:,} | {share:.1%} | {four['above_half']:,} "
            f"({four['above_half'] / max(1, four['positions']):.1%}) | {four['build_seconds']:.0f} s | "
            f"{span / 3600:.2f} h | {four['bytes'] / 2**30:.2f} GiB | {four['residual']:.1e} | {sweeps:.1f} | "
            f"{rate / 1e6:.0f} M |",
            "",
        ]
        probes = four.get("fresh_probes") or [{"position": FOUR_DICE_POSITION, "value": four.get("fresh_probe_value",
                                               float("nan")), "seconds": four.get("fresh_probe_seconds", float("nan"))}]
        worst = max(p["seconds"] for p in probes)
        lines += [
            "From a fresh process (its imports done), opening the tables and probing one position"
            f" (target: 50 ms{', met' if worst < 0.05 else ', NOT met'}):",
            "",
            "| position | value for the side to move | open + probe |",
            "| --- | ---: | ---: |",
            *(f"| `{p['position']}` | {p['value']:.6f} | {1e3 * p['seconds']:.1f} ms |" for p in probes),
            "",
            "A pack's first probe after it is written checks its checksum once and stamps it (as `best` does), "
            "which takes seconds for the largest packs; the times above are of probes after that.",
            "",
            "`best` probes the 4-dice tables during its search and `--exact` reads a 4-dice position's exact "
            "values from them (`dicetree best rolldown \"<a position above>\" --tables /work/tables`).",
            "",
        ]
        if complete:
            lines.append(
                f"The largest batch has {four['largest_done']:,} positions a table ({four['lean_batches']} batches on the "
                "lean path). A batch's time is its wall time; up to two batches run at once in one process (two worker "
                "threads, within the memory budget)"
                + (f"; per second of the build process's CPU time it made {cpu_rate / 1e6:.0f} M position updates"
                   if cpu_rate else "") + ".")
        else:
            lines.append(
                f"The largest batch done so far has {four['largest_done']:,} positions a table ({four['lean_batches']} "
                f"batches on the lean path). At the same rate the {left:,} positions left take about "
                f"{left * sweeps / rate / 3600:.1f} hours of batch time (more: the largest batches iterate in float64 "
                "without Anderson's history, and their reroll means no longer fit in cache). A batch's time is its "
                "wall time, two batches at once in one process"
                + (f"; per second of the build process's CPU time (its whole run, batches in progress included) it "
                   f"made {cpu_rate / 1e6:.0f} M position updates" if cpu_rate else "") + ".")
        if cpu_rate:
            rate = cpu_rate  # what one core does: the fair measure for a cluster
        five_only = estimate_build(5, 0).positions - everything.positions
        largest5 = Signature((6, 8, 10, 12, 20), (6, 8, 10, 12, 20))
        means5 = sum(1 / d for d in largest5.shape)
        lean5 = 12 + 24 * means5  # fixed-point constants and table, three float64 vectors of means
        core_hours = five_only * sweeps / rate / 3600
        lines += [
            "",
            f"**5 dice a side, on paper**, from the 4-dice build's measured {rate / 1e6:.0f} M position updates a "
            f"second ({'of CPU time' if cpu_rate else 'of batch time'}) and {sweeps:.0f} sweeps a position: {five_only:,} positions, about "
            f"{core_hours:,.0f} core-hours, {core_hours / 64:,.1f} hours on a 64-core cluster and "
            f"{core_hours / 256:,.1f} on 256 if the work spread evenly; storage {five_only * 4 / 2**30:,.0f} GiB at 32 "
            f"bits. It does not spread evenly: the largest table ({largest5.positions:,} positions) is one batch, "
            f"about {largest5.positions * sweeps / rate / 3600:.0f} core-hours alone, and on the lean path it needs "
            f"{lean5:.0f} bytes a position, {largest5.positions * lean5 / 2**30:.0f} GiB: 5 dice need the largest "
            "tables split across workers (by blocks of the outermost die, exchanging the reroll means each sweep), "
            f"which this builder does not do. The first card in each hand multiplies positions, time and storage by "
            f"{len(hands_up_to(1)) ** 2} (every pair of hands of at most one card: {len(hands_up_to(1))} hands each).",
        ]
    return lines + tables_effect_lines()


def tables_effect_lines(folder: Path = ROOT / "results" / "tables-effect") -> list[str]:
    """What the tables one size down change in a depth-2 search, from ``benchmarks/rolldown_tables_effect.py``'s
    reports (5 dice against the 4-dice tables where measured, and 4 against 3)."""
    lines = []
    for dice in (5, 4):
        for stem in (f"effect-{dice}dice", f"effect-{dice}dice-partial"):  # a complete run's report first
            try:
                data = json.loads((folder / f"{stem}.json").read_text())
                break
            except (OSError, ValueError):
                continue
        else:
            continue
        s, low, high = data["summary"], *data["summary"]["changed_interval"]
        partial = (f", **partial**: {data['tables_stored']:,} of the {data['tables_wanted']:,} tables stored, "
                   f"{s['hit_share_of_reachable']:.1%} of the probes within their reach answered" if data["partial"] else "")
        text = (f"**What the {dice - 1}-dice tables buy {dice}-dice searches** (`benchmarks/rolldown_tables_effect.py "
                f"--dice {dice} --positions {s['positions']}`, `results/tables-effect/{stem}.md`{partial}): "
                f"{s['positions']:,} random {dice}-dice positions searched to depth {data['depth']} with the tables "
                f"of at most {dice - 1} dice a side and without: the best move changes in {s['changed']} "
                f"({s['changed_share']:.1%}, 95% interval {low:.1%} to {high:.1%}), the root value by "
                f"{s['mean_abs_value_change']:.3f} on average (largest {s['largest_abs_value_change']:.3f}); a change "
                f"is worth {s['mean_worth_of_change']:.3f} on average as the table-backed search values it; "
                f"{s['table_hits']:,} table hits, {s['seconds_per_search_tables']:.2f} s a search with the tables "
                f"against {s['seconds_per_search_plain']:.2f} s without.")
        exact = data.get("exact_check") or {}
        if exact.get("positions"):
            n = exact["positions"]
            text += (f" Where the positions' own tables are stored ({n:,}), the search with tables picks an exact "
                     f"best move in {exact['exact_best_with_tables'] / n:.1%} against "
                     f"{exact['exact_best_without'] / n:.1%}, mean exact loss {exact['mean_loss_with_tables']:.4f} "
                     f"against {exact['mean_loss_without']:.4f}; {exact['changed_better']} of the {exact['changed']} "
                     "changes there are for the better.")
        lines += ["", text]
    return lines


#: what the same command did with one file per table, when issue 15 was filed (not measured again)
BEFORE_PACKS = (
    "Before tables were packed (issue 15, measured when it was filed, not run again): `dicetree tablebase build "
    "rolldown --dice 2 --cards 1` printed \"Solved 412,226,368 new positions in 153.9 s\" and finished 54 minutes "
    "after it started, writing 58,725 files into one folder at about 15 a second, its progress bar at 100% "
    "throughout, the process growing to 6.7 GB; with those tables stored `tablebase stats` took 52.7 s and "
    "`best rolldown \"d6:2/d6:1 a -/-\" --depth 1` 20.3 s (1.3 s with `--no-tables`)."
)


def report(machine: dict, bandwidth: float, results: dict, limits: dict, stored: dict, measured: str,
           kernels: dict | None = None, four: dict | None = None) -> str:
    lines = [
        "# RolldownBeta endgame tables: build benchmark",
        "",
        f"Measured {measured} by `benchmarks/tablebase.py` on {machine['cpus']} CPUs, "
        f"{machine['memory_bytes'] / 2**30:.0f} GiB, Python {machine['python']}, numpy {machine['numpy']}.",
        f"numpy copy bandwidth: **{bandwidth / 1e9:.1f} GB/s** (read + write). Bound on position updates "
        f"per second: {bandwidth / MEANS_BYTES / 1e9:.2f} G/s at {MEANS_BYTES} B an update (this builder: it "
        f"reads a position's constant; the reroll means stay in cache), {bandwidth / CLASSICAL_BYTES / 1e9:.2f} "
        f"G/s at {CLASSICAL_BYTES} B (a classical update: read the other table's value and the constant, write "
        "the value).",
        "",
        "| build | positions | wall | target | CPU | updates / position | updates/s "
        "| ratio to bound (8 B / 24 B) | peak memory | residual | load (1 min) before / after |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for name, r in results.items():
        rate = r["position_updates"] / r["wall_seconds"]
        bandwidth = r.get("copy_bandwidth_bytes_per_second", bandwidth)  # a kept row's own machine state
        ok = "yes" if r["wall_seconds"] <= limits[name] and r["peak_rss_bytes"] < MEMORY_LIMIT else "NO"
        lines.append(
            f"| {name} | {r['positions']:,} | {r['wall_seconds']:.1f} s | {limits[name]} s ({ok}) | "
            f"{r['cpu_seconds']:.1f} s | {r['updates_per_position']:.1f} | {rate / 1e6:.0f} M | "
            f"{rate / (bandwidth / MEANS_BYTES):.3f} / {rate / (bandwidth / CLASSICAL_BYTES):.3f} | "
            f"{r['peak_rss_bytes'] / 2**30:.2f} GiB | {r['max_residual']:.1e} | "
            f"{r['load_before'][0]:.2f} / {r['load_after'][0]:.2f} |"
        )
    lines += ["", "Details:", ""]
    for name, r in results.items():
        lines.append(
            f"- **{name}**{' (measured ' + r['measured'] + ')' if 'measured' in r else ''}: "
            f"{r['tables']:,} tables in {r['batches']:,} batches, {r['workers']} worker threads; "
            f"{r['positions_with_max_dice']:,} positions in the {r['max_dice']}-dice tables; "
            f"{r['position_updates']:,} position updates ({r['float32_share_of_updates']:.0%} in float32), "
            f"the largest batch {r['largest_batch_seconds']:.1f} s; "
            f"CPU/wall {r['cpu_seconds'] / r['wall_seconds']:.2f}; "
            f"estimated peak {r['estimate_peak_bytes'] / 2**30:.2f} GiB; all converged: {r['converged']}; "
            f"probe in memory: median {r['probe_microseconds_median']:.1f} µs, "
            f"max {r['probe_microseconds_max']:.0f} µs."
        )
    busy = [f"{name} {r['load_before'][0]:.1f} to {r['load_after'][0]:.1f}, CPU/wall {r['cpu_seconds'] / r['wall_seconds']:.2f}"
            for name, r in results.items() if max(r["load_before"][0], r["load_after"][0]) > 2 * machine["cpus"]]
    if busy:
        lines += ["", f"**This run shared the machine with other jobs** (load average on {machine['cpus']} CPUs, and "
                  f"the share of the cores the build got: {'; '.join(busy)}): its wall times are not comparable with "
                  "an idle machine's; compare figures measured side by side in the same run."]
    if stored:
        cpu = [f"{name}: in memory {results[name]['cpu_seconds']:.1f} s, end to end {e['build_cpu_seconds']:.1f} s "
               f"({e['build_cpu_seconds'] / results[name]['cpu_seconds']:.2f})"
               for name, e in stored.items() if "build_cpu_seconds" in e]
        lines += [
            "",
            "End to end, as the documented commands run them, beside the in-memory build of the same target in the "
            "same run (`tablebase build` solves and stores each batch as one pack, then every stored value is read "
            "back against its checksum):",
            "",
            "| build | in memory | `tablebase build` (inside: start-up excluded) | verify | end to end "
            "| end to end / in memory | storing share of batch time | files | most in a folder | on disk | peak memory |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for name, e in stored.items():
            memory = results[name]["wall_seconds"]
            ok = "yes" if e["store_share"] <= STORE_SHARE_LIMIT else "NO"
            lines.append(
                f"| {name} | {memory:.1f} s | {e['build_wall_seconds']:.1f} s ({e['build_seconds_inside']:.1f} s) | "
                f"{e['verify_seconds']:.1f} s | "
                f"{e['end_to_end_seconds']:.1f} s | {e['end_to_end_seconds'] / memory:.2f} | "
                f"{e['store_share']:.1%} ({ok}: at most {STORE_SHARE_LIMIT:.0%}) | {e['files']:,} | "
                f"{e['most_entries_in_a_folder']:,} | {e['bytes'] / 2**30:.2f} GiB | {e['peak_rss_bytes'] / 2**30:.2f} GiB |"
            )
        if cpu:
            lines += ["", "CPU time of the build (fairer than wall time on a shared machine): " + "; ".join(cpu) + "."]
        lines += [
            "",
            "From a fresh process, with those tables stored:",
            "",
            f"| build | open for probing + first probe | stats figures | `tablebase stats` | `tablebase probe` "
            f"| `best \"{BEST_POSITION}\" --depth 1` | same, `--no-tables` |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for name, e in stored.items():
            lines.append(f"| {name} | {1e3 * e['open_and_first_probe_seconds']:.1f} ms | "
                         f"{1e3 * e['stats_seconds_in_process']:.0f} ms | {e['stats_seconds']:.2f} s | "
                         f"{e['probe_seconds']:.2f} s | {e['best_seconds']:.2f} s | {e['best_no_tables_seconds']:.2f} s |")
        lines += ["", "The first two columns are measured inside one process (no start-up); the others are whole "
                  "commands in fresh processes, start-up included (the command line's imports take most of it).",
                  "", BEFORE_PACKS]
        lines += [""] + [f"- **{name}**: `{e['command']}` printed: " + " / ".join(e["build_output"][1:])
                         + "; `tablebase stats`: " + e["stats_output"][-1].strip()
                         for name, e in stored.items()]
    lines += kernel_lines(kernels or {})
    lines += four_dice_lines(results, four or {})
    lines += [
        "",
        "An update is one table sweep touching every position once; updates / position counts the sweeps "
        "each table needed (float32 then float64, Anderson-accelerated, to a change below 1e-12 in float64). "
        "The machine may be shared with other jobs: the load averages show how busy it was, and CPU/wall "
        "the share of cores this build got (1 worker thread can use 1.0).",
        "",
    ]
    return "\n".join(lines)


def earlier_figures(out: Path, names: set[str]) -> dict[str, tuple[dict, dict | None]]:
    """The figures of ``names`` from the last report (``--target`` measures the others), each
    marked with the date it was measured."""
    try:
        payload = json.loads(out.with_suffix(".json").read_text())
    except (OSError, ValueError):
        return {}
    kept = {}
    for name in names & set(payload.get("results", {})):
        memory = dict(payload["results"][name])
        memory.setdefault("measured", payload.get("measured", "earlier"))
        kept[name] = (memory, payload.get("end_to_end", {}).get(name))
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a small build only, to try the script")
    parser.add_argument("--workers", type=int, default=None, help="worker threads (default: the CPUs)")
    parser.add_argument("--out", default=str(ROOT / "results" / "tablebase"), help="report path without suffix")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--max-dice", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument("--max-cards", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--end-to-end", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--kernels", action="store_true", help="numpy's kernel against the fused one (3 dice, in memory)")
    parser.add_argument("--four-dice", metavar="TABLES", help="the report again with the figures of the 4-dice "
                        "tables stored in TABLES (as far as that build has gone)")
    parser.add_argument("--build-pid", type=int, help="with --four-dice: the running build, for its CPU time")
    parser.add_argument("--no-store", action="store_true", help="the in-memory builds only")
    parser.add_argument("--report-only", action="store_true", help="write the report again from the last figures")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS),
                        help="measure only this target (repeatable); the others' figures are kept from the last report")
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    limits = {name: target["limit_seconds"] for name, target in {**TARGETS, **QUICK}.items()}
    out = Path(args.out)
    if args.report_only or args.kernels or args.four_dice:
        payload = json.loads(out.with_suffix(".json").read_text())
        if args.kernels:
            command = [sys.executable, __file__, "--child", "--kernels", "--max-dice", str(args.max_dice)]
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
            payload["kernels"] = json.loads(done.stdout.strip().splitlines()[-1])
            payload["kernels"]["measured"] = time.strftime("%Y-%m-%d %H:%M")
        if args.four_dice:
            payload["four_dice"] = four_dice_built(Path(args.four_dice), args.build_pid)
        out.with_suffix(".json").write_text(json.dumps(payload, indent=2) + "\n")
        out.with_suffix(".md").write_text(report(payload["machine"], payload["copy_bandwidth_bytes_per_second"],
                                                 payload["results"], limits, payload.get("end_to_end", {}),
                                                 payload["measured"][:16], payload.get("kernels", {}),
                                                 payload.get("four_dice", {})))
        return
    machine = describe_machine()
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth / 1e9:.1f} GB/s; load {os.getloadavg()}", file=sys.stderr)
    targets = QUICK if args.quick else {name: TARGETS[name] for name in args.target or TARGETS}
    results, stored = {}, {}
    kept = earlier_figures(out, set(TARGETS) - set(targets)) if not args.quick else {}
    for name, target in targets.items():
        for end_to_end in (False,) if args.no_store else (False, True):
            print(f"{name}: building {'end to end' if end_to_end else 'in memory'} ...", file=sys.stderr, flush=True)
            command = [sys.executable, __file__, "--child", "--max-dice", str(target["max_dice"]),
                       "--max-cards", str(target["max_cards"])] + (["--end-to-end"] if end_to_end else [])
            if args.workers:
                command += ["--workers", str(args.workers)]
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            figures["copy_bandwidth_bytes_per_second"] = bandwidth
            if end_to_end:
                stored[name] = figures
                print(f"{name}: end to end {figures['end_to_end_seconds']:.1f} s, storing "
                      f"{figures['store_share']:.1%} of batch time, {figures['files']:,} files", file=sys.stderr)
            else:
                results[name] = r = figures
                print(f"{name}: {r['positions']:,} positions in {r['wall_seconds']:.1f} s "
                      f"(CPU {r['cpu_seconds']:.1f} s), peak {r['peak_rss_bytes'] / 2**30:.2f} GiB", file=sys.stderr)
    for name, (memory, end_to_end) in kept.items():
        results[name] = memory
        if end_to_end:
            stored[name] = end_to_end
    results = {name: results[name] for name in TARGETS if name in results} if not args.quick else results
    try:  # the kernels' comparison and the 4-dice figures are measured on their own: kept
        earlier = json.loads(out.with_suffix(".json").read_text())
    except (OSError, ValueError):
        earlier = {}
    kernels, four = earlier.get("kernels", {}), earlier.get("four_dice", {})
    text = report(machine, bandwidth, results, limits, stored, time.strftime("%Y-%m-%d %H:%M"), kernels, four)
    print(text)
    if not args.quick:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".md").write_text(text)
        payload = {"machine": machine, "copy_bandwidth_bytes_per_second": bandwidth, "results": results,
                   "end_to_end": stored, "kernels": kernels, "four_dice": four,
                   "limits_seconds": limits, "measured": time.strftime("%Y-%m-%d %H:%M:%S")}
        out.with_suffix(".json").write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
