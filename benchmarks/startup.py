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
import platform
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
from cli.main import main
try:
    main.main(sys.argv[1:], prog_name="dicetree")
except SystemExit:
    pass
print(",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def wall_time(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def heavy_modules(args: list[str]) -> str:
    result = subprocess.run([sys.executable, "-c", _MODULES.format(heavy=HEAVY), *args], capture_output=True,
                            text=True, cwd=ROOT)
    return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (medians are reported)")
    runs = parser.parse_args().runs
    dicetree = str(Path(sys.executable).with_name("dicetree"))
    rows = []
    for args in LIGHT + OTHERS:
        base, own = [], []
        for _ in range(runs):  # interleaved: the same load for both
            base.append(wall_time([sys.executable, "-c", "pass"]))
            own.append(wall_time([dicetree, *args]))
        rows.append((args, statistics.median(base), statistics.median(own), heavy_modules(args), args in LIGHT))
    lines = [
        "# Start-up of the `dicetree` commands",
        "",
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by `benchmarks/startup.py --runs {runs}` on "
        f"Python {platform.python_version()}: medians of {runs} fresh processes, each beside `python -c pass` "
        f"run just before it. Light commands should be at most {LIGHT_BUDGET} s above it.",
        "",
        "| command | python -c pass | dicetree | above | heavy libraries loaded | light |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for args, base, own, heavy, light in rows:
        verdict = ("ok" if own - base <= LIGHT_BUDGET else "OVER") if light else ""
        lines.append(f"| `dicetree {' '.join(args)}` | {base:.3f} s | {own:.3f} s | {own - base:+.3f} s | "
                     f"{heavy or 'none'} | {verdict} |")
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.write_text(text)
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
