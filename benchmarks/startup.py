"""Start-up of every ``dicetree`` command beside ``python -c pass``, and the heavy libraries each loads.

Usage::

    .venv/bin/python benchmarks/startup.py            # prints the table, writes results/startup.md
    .venv/bin/python benchmarks/startup.py --runs 9

Each command runs ``--runs`` times in a fresh process, interleaved with ``python -c pass`` so both
see the same load; the table gives the medians and the difference. Light commands (``--help``,
``notation``, ``rules``) should be at most :data:`LIGHT_BUDGET` seconds above ``python -c pass``.
Which heavy libraries a command imports is read in a separate run (``sys.modules`` at exit).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "startup.md"
HEAVY = ("numpy", "scipy", "networkx", "rich", "graphviz", "matplotlib")
LIGHT_BUDGET = 0.3
"""Seconds a light command may take above ``python -c pass``."""
LIGHT = [["--help"], ["help", "best"]] + [[command, game] for game in
                                           ("rolldown", "dicefights", "dicegeddon", "dicecards", "rollforit")
                                           for command in ("notation", "rules")]
OTHERS = [["best", "--help"], ["check", "rolldown", "d8:5/d6:3 a -/-"], ["duel", "--help"], ["tree", "--help"],
          ["tablebase", "--help"], ["study", "--help"]]
_MODULES = """
import sys
from dicetree.cli.main import main
try:
    main.main(sys.argv[1:], prog_name="dicetree")
except SystemExit:
    pass
print(",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def timed(command: list[str]) -> tuple[float, float]:
    """The wall time and the CPU time (user + system) of ``command`` run in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def heavy_modules(args: list[str]) -> str:
    result = subprocess.run([sys.executable, "-c", _MODULES.format(heavy=HEAVY), *args], capture_output=True,
                            text=True, cwd=ROOT)
    return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (medians are reported)")
    runs = parser.parse_args().runs
    dicetree = str(Path(sys.executable).with_name("dicetree"))
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    busy = load > cores
    rows = []
    for args in LIGHT + OTHERS:
        base, own = [], []
        for _ in range(runs):  # interleaved: the same load for both
            base.append(timed([sys.executable, "-c", "pass"]))
            own.append(timed([dicetree, *args]))
        medians = [statistics.median(t[k] for t in times) for times in (base, own) for k in (0, 1)]
        rows.append((args, *medians, heavy_modules(args), args in LIGHT))
    lines = [
        "# Start-up of the `dicetree` commands",
        "",
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `benchmarks/startup.py --runs {runs}` on "
        f"Python {platform.python_version()}, {cores} cores, load average {load:.1f}: medians of {runs} fresh "
        f"processes, each beside `python -c pass` run just before it; wall time and CPU time (user + system). "
        f"Light commands should be at most {LIGHT_BUDGET} s above `python -c pass`; the verdict compares "
        + ("CPU times, as the machine was busy (its wall times measure the load)." if busy else "wall times."),
        "",
        "| command | python -c pass: wall, CPU | dicetree: wall, CPU | above: wall, CPU | heavy libraries loaded | light |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for args, base_wall, base_cpu, own_wall, own_cpu, heavy, light in rows:
        above = own_cpu - base_cpu if busy else own_wall - base_wall
        verdict = ("ok" if above <= LIGHT_BUDGET else "OVER") if light else ""
        lines.append(f"| `dicetree {' '.join(args)}` | {base_wall:.3f} s, {base_cpu:.3f} s | {own_wall:.3f} s, "
                     f"{own_cpu:.3f} s | {own_wall - base_wall:+.3f} s, {own_cpu - base_cpu:+.3f} s | "
                     f"{heavy or 'none'} | {verdict} |")
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text)
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
