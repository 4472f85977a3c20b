"""The value network's error at 5 dice a side, where no endgame table reaches, measured against deeper
searches of the same positions (issue 25).

A seeded sample of 5-dice positions (both sides' dice drawn from the six kinds, faces uniform, the mover
drawn too, nobody on a first turn: ``benchmarks/rolldown_evaluation.py``'s ``random_position``), one set
without cards and one with a single card in the mover's hand, is valued

* by each leaf evaluation alone (``network``, the shipped value network, and ``fitted``, the default):
  the *estimates* measured;
* by the compiled depth-limited search with each leaf evaluation, depths 1 to 3, and to depth 4 with
  ``fitted`` leaves (about 1.5 s CPU a position); ``--network-deep N`` also searches the first N positions
  of each set to depth 4 with ``network`` leaves (about 25 s CPU each: the network costs ~7 µs a leaf).

No exact value exists at 5 dice (the tables stop at 3 dice a side, and 8 of the 225 tables of 4), and
a search probing stored tables runs in Python, about 100 times slower: the *references* are the deep
searches, each carrying its leaves' error, shrunk by the averaging over the dice below. The report gives
every estimate's mean absolute error and bias against each reference, with 95% intervals (normal
approximation, positions independent), the paired difference of the two estimates' absolute errors, and
how far the references are from each other (depth 3 against 4 with the same leaves; ``fitted`` leaves
against ``network`` leaves at the same depth): an error no larger than the references' disagreement is
not resolved by them.

Positions are valued in chunks of ``--chunk``, each a cell kept in ``benchmarks/.cells/rolldown_fivedice/``:
a stopped run started again with the same arguments resumes after its last finished chunk.

Usage::

    nice -n 5 .venv/bin/python research/rolldown_fivedice.py --positions 300 --card-positions 150 --network-deep 60
    .venv/bin/python research/rolldown_fivedice.py --positions 4 --card-positions 2 --chunk 2 --quick   # no files

Writes ``results/rolldown-network/fivedice-error.{md,json}``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import cell, report_or_print
from rolldown_evaluation import random_position

from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.network import DATA_FILE as NETWORK_FILE
from dicetree.solver.results import mean_and_spread
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-network"
DICE = 5
LEAVES = ("network", "fitted")
SHALLOW_DEPTHS = (1, 2, 3)
DEEP = 4
Z95 = 1.96


def cpu_seconds() -> float:
    """This process's CPU time (steadier than the wall clock on a shared machine)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Valuer:
    """Values positions with each leaf evaluation, alone and by the compiled search to chosen depths."""

    def __init__(self) -> None:
        self.games = {name: Rolldown(evaluation=name) for name in LEAVES}
        self.searchers = {name: Searcher(game, cache_slots=2**20) for name, game in self.games.items()}

    def estimate(self, leaves: str, state) -> float:
        return self.games[leaves].evaluate(state, state.mover)

    def search(self, leaves: str, state, depth: int) -> tuple[float, float]:
        """The depth-``depth`` search's value of ``state`` for its mover, and the CPU seconds it took."""
        started = cpu_seconds()
        value = self.searchers[leaves].search(state, depth=depth).value
        return value, cpu_seconds() - started


def positions(seed: int, count: int, mover_cards: int) -> list:
    rng = random.Random(f"{seed}:fivedice:{mover_cards}")
    return [random_position(rng, DICE, mover_cards) for _ in range(count)]


def value_chunk(valuer: Valuer, states: list, deep_network: bool) -> list[dict]:
    """Every position's values: ``network 0``/``fitted 0`` the estimates, ``L d`` the depth-d search with L leaves."""
    rows = []
    for state in states:
        values: dict[str, float] = {}
        seconds: dict[str, float] = {}
        for leaves in LEAVES:
            values[f"{leaves} 0"] = valuer.estimate(leaves, state)
            depths = SHALLOW_DEPTHS + ((DEEP,) if leaves == "fitted" or deep_network else ())
            for depth in depths:
                values[f"{leaves} {depth}"], seconds[f"{leaves} {depth}"] = valuer.search(leaves, state, depth)
        rows.append({"position": valuer.games["fitted"].format(state), "values": values, "cpu_seconds": seconds})
    return rows


def mean_with_interval(numbers: list[float]) -> dict:
    mean, spread, n = mean_and_spread(numbers)
    half = Z95 * spread / n**0.5 if n > 1 else float("inf")
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": n}


def compare(rows: list[dict], estimate: str, reference: str) -> dict:
    """``estimate`` against ``reference`` over the rows holding both: mean absolute error and bias (estimate
    less reference), each with its 95% interval."""
    pairs = [(row["values"][estimate], row["values"][reference]) for row in rows
             if estimate in row["values"] and reference in row["values"]]
    return {"abs": mean_with_interval([abs(e - r) for e, r in pairs]),
            "bias": mean_with_interval([e - r for e, r in pairs])}


def paired_abs(rows: list[dict], first: str, second: str, reference: str) -> dict:
    """The mean of ``first``'s absolute error less ``second``'s against ``reference``, with its interval."""
    return mean_with_interval([abs(row["values"][first] - row["values"][reference])
                               - abs(row["values"][second] - row["values"][reference])
                               for row in rows if reference in row["values"]])


def interval_text(stat: dict, signed: bool = False) -> str:
    form = "{:+.4f}" if signed else "{:.4f}"
    return f"{form.format(stat['mean'])} ({form.format(stat['low'])} to {form.format(stat['high'])})"


def set_report(title: str, rows: list[dict]) -> tuple[list[str], dict]:
    # fitted leaves at depth 3 beside 4: each estimate is also compared with its own leaves at the same depth
    references = ["fitted 4", "fitted 3", "network 3"] + (["network 4"] if any("network 4" in r["values"] for r in rows)
                                                         else [])
    deep_count = sum(1 for r in rows if "network 4" in r["values"])
    lines = [f"## {title}: {len(rows)} positions", ""]
    data: dict = {"positions": len(rows), "network_depth4_positions": deep_count, "references": {}, "estimates": {}}

    lines += ["### How far the references are from each other", "",
              "| pair | positions | mean abs difference (95% interval) | mean difference, first less second |",
              "|---|---:|---|---|"]
    agreement = [("fitted 3", "fitted 4"), ("network 2", "network 3"), ("network 3", "network 4"),
                 ("network 3", "fitted 3"), ("network 3", "fitted 4"), ("network 4", "fitted 4")]
    for first, second in agreement:
        stats = compare(rows, first, second)
        if stats["abs"]["n"] == 0:
            continue
        data["references"][f"{first} ~ {second}"] = stats
        lines.append(f"| depth {first.split()[1]} {first.split()[0]} ~ depth {second.split()[1]} {second.split()[0]} "
                     f"| {stats['abs']['n']} | {interval_text(stats['abs'])} | {interval_text(stats['bias'], True)} |")

    lines += ["", "### The estimates' error against each reference", "",
              "Mean absolute error and bias (estimate less reference) in win probability, 95% intervals; the last "
              "column is the network's absolute error less `fitted`'s, paired by position (negative: the network "
              "is closer).", "",
              "| reference | positions | network: abs error | bias | fitted: abs error | bias | network less fitted |",
              "|---|---:|---|---|---|---|---|"]
    for reference in references:
        net, fit = compare(rows, "network 0", reference), compare(rows, "fitted 0", reference)
        difference = paired_abs(rows, "network 0", "fitted 0", reference)
        data["estimates"][reference] = {"network": net, "fitted": fit, "network_less_fitted": difference}
        depth, leaves = reference.split()[1], reference.split()[0]
        lines.append(f"| depth {depth}, {leaves} leaves | {net['abs']['n']} | {interval_text(net['abs'])} | "
                     f"{interval_text(net['bias'], True)} | {interval_text(fit['abs'])} | "
                     f"{interval_text(fit['bias'], True)} | {interval_text(difference, True)} |")

    seconds: dict[str, list[float]] = {}
    for row in rows:
        for key, value in row["cpu_seconds"].items():
            seconds.setdefault(key, []).append(value)
    data["cpu_seconds_per_search"] = {key: sum(v) / len(v) for key, v in seconds.items()}
    lines += ["", "CPU seconds a search (mean): " + ", ".join(
        f"depth {key.split()[1]} {key.split()[0]} {sum(v) / len(v):.2f}" for key, v in sorted(seconds.items())), ""]
    return lines, data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300, help="positions without cards (default 300)")
    parser.add_argument("--card-positions", type=int, default=150,
                        help="positions with one card in the mover's hand (default 150)")
    parser.add_argument("--network-deep", type=int, default=0,
                        help="also search the first N positions of each set to depth 4 with network leaves (default 0)")
    parser.add_argument("--chunk", type=int, default=25, help="positions a kept cell (default 25)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: print the report, keep and write nothing")
    args = parser.parse_args(argv)

    network_sha = hashlib.sha256(NETWORK_FILE.read_bytes()).hexdigest()
    valuer = Valuer()
    started = time.perf_counter()
    sets = {}
    for title, count, cards in (("No cards", args.positions, 0), ("One card in the mover's hand", args.card_positions, 1)):
        states = positions(args.seed, count, cards)
        rows: list[dict] = []
        for start in range(0, count, args.chunk):
            chunk = states[start:start + args.chunk]
            deep = start < args.network_deep
            name = (f"cards{cards}-seed{args.seed}-from{start}-n{len(chunk)}{'-network4' if deep else ''}"
                    f"-{network_sha[:12]}")
            compute = lambda chunk=chunk, deep=deep: {"rows": value_chunk(valuer, chunk, deep)}  # noqa: E731
            found = compute() if args.quick else cell("rolldown_fivedice", name, compute)
            rows.extend(found["rows"])
            print(f"  {title}: {len(rows)}/{count} positions ({time.perf_counter() - started:.0f} s)", flush=True)
        sets[title] = rows

    command = (f"nice -n 5 .venv/bin/python research/rolldown_fivedice.py --positions {args.positions} "
               f"--card-positions {args.card_positions} --network-deep {args.network_deep} --chunk {args.chunk} "
               f"--seed {args.seed}")
    lines = ["# The value network's error at 5 dice a side, against deeper searches (issue 25)", "",
             f"`{command}`", "",
             f"Network: `solver/games/rolldown/value_network.json`, SHA-256 `{network_sha}`. Positions of 5 dice a side "
             "(kinds and faces uniform, mover drawn, nobody on a first turn). `network 0` and `fitted 0` are the "
             "leaf evaluations alone; a reference *depth d, L leaves* is the compiled search's value to depth d with "
             "L at its leaves (no tables). Values are the mover's chance of winning the round.", ""]
    data: dict = {"command": command, "network_sha256": network_sha, "seed": args.seed, "sets": {}}
    for title, rows in sets.items():
        if not rows:
            continue
        section, data["sets"][title] = set_report(title, rows)
        lines += section
        data["sets"][title]["rows"] = rows
    lines.append(f"{time.perf_counter() - started:.0f} s wall in this run (kept chunks are read back, not timed again).")
    markdown = "\n".join(lines)
    report_or_print(RESULTS / "fivedice-error", markdown, data, quick=args.quick)


if __name__ == "__main__":
    main()
