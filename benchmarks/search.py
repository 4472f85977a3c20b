"""Benchmark of the expectiminimax search on RolldownBeta (issue 2, part 7).

On a fixed set of positions from 6 dice a side down to 1, each at a fixed depth, it measures for
four configurations of :class:`dicetree.solver.search.Searcher` side by side in one run — Star2 + cache (the
default), Star1 + cache, Star2 without cache, Star1 without cache — and for plain
:func:`dicetree.solver.search.expectimax` where it finishes in reasonable time:

* **nodes** searched (every iteration of the iterative deepening; the searcher's own count),
* **time** (wall clock, and this process's CPU time) and **nodes per second** (nodes / wall time),
* the **effective branching factor** in two forms:
  ``EBF d/d-1`` = nodes of the depth-d iteration / nodes of the depth-(d-1) iteration (the growth
  of the last deepening step), and ``N^(1/d)`` = nodes of the depth-d iteration (for expectimax
  its whole tree) to the power 1/d (the mean branching per decision level, chance levels included),
* the **cache hit rate**: transposition-table probes that found an entry for the same position
  (at any depth: such an entry at least orders the moves; its value is used only at the same
  depth in the same iteration), over all probes,

and reports each configuration's nodes and time as **ratios against the default measured in the
same run**. The machine may be shared and noisy, so the configurations are interleaved: position
by position, in an order rotated from one round to the next; a configuration whose first run took
under 0.3 s runs 5 times, under 2 s 3 times, otherwise once, and the medians are reported. Every
run uses a fresh :class:`Searcher` (an empty cache), after a garbage collection.

It also checks that every configuration returns the same root move values (to 1e-9) as the
default and as expectimax where that ran; the exit status is 1 if any differ.

Usage::

    .venv/bin/python benchmarks/search.py            # the full benchmark (3-6 minutes on 2 cores)
    .venv/bin/python benchmarks/search.py --quick    # a smoke run of a few seconds
    .venv/bin/python benchmarks/search.py --out DIR  # write search-benchmark.{md,json} into DIR

Outputs: ``results/search-benchmark.md`` and ``results/search-benchmark.json``.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dicetree.solver.games import load_game  # noqa: E402
from dicetree.solver.search import Searcher, expectimax  # noqa: E402

TOLERANCE = 1e-9
"""Root move values of every configuration must agree to this."""


@dataclass(frozen=True)
class Position:
    label: str
    text: str
    depth: int
    expectimax: bool  # run plain expectimax too (only where it takes seconds, not minutes)


# The fixed set: the round-start example (``load_game("rolldown").example_position()`` when this was
# written), then 5 down to 1 dice a side with a few cards. Depths are chosen so the whole run takes
# 3-6 minutes on the project's 2-core machine; expectimax runs where it takes under ~30 s.
POSITIONS = [
    Position("6 dice (round start)", "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a 5QK/8JX",
             2, True),
    Position("5 dice", "d4:2,d6:5,d8:3,d10:8,d20:15/d6:4,d8:7,d10:2,d12:9,d20:6 b 7A/QX", 3, False),
    Position("4 dice", "d6:3,d10:6,d12:10,d20:4/d4:4,d8:6,d12:7,d20:17 a JK/9", 3, True),
    Position("3 dice", "d8:6,d12:3,d20:9/d6:2,d10:10,d20:12 b QA/5", 3, True),
    Position("2 dice (Queen)", "d6:2,d8:5/d4:3,d6:6 a QK/-", 4, True),
    Position("2 dice (Joker)", "d4:3,d10:7/d6:5,d8:2 a K/X", 3, False),
    Position("1 die", "d20:14/d8:8 b Q/X", 4, False),
]
QUICK_POSITIONS = [
    Position("6 dice (round start)", POSITIONS[0].text, 1, True),
    Position("2 dice (Queen)", POSITIONS[4].text, 2, True),
    Position("1 die", POSITIONS[6].text, 2, True),
]

DEFAULT = "Star2 + cache"
CONFIGS = {  # name: (star2, use_cache)
    DEFAULT: (True, True),
    "Star1 + cache": (False, True),
    "Star2, no cache": (True, False),
    "Star1, no cache": (False, False),
}
EXPECTIMAX = "expectimax"


def repeats_for(seconds: float, max_repeats: int) -> int:
    """How many runs a configuration gets, from the time of its first run."""
    wanted = 5 if seconds < 0.3 else 3 if seconds < 2.0 else 1
    return max(1, min(wanted, max_repeats))


# ----- one run ---------------------------------------------------------------------------------
@dataclass
class Run:
    nodes: int
    wall: float
    cpu: float
    iteration_nodes: list[int]  # nodes of each completed iteration (expectimax: one)
    depth: int  # the depth reached (less than asked if the search solved the position earlier)
    probes: int
    hits: int
    values: dict[str, float]  # root move name -> value for the mover
    best: str
    sampled: int = 0  # chance nodes too large to list, estimated from samples


class _CountingGame:
    """The game, counting the nodes :func:`expectimax` enters (one ``current_player`` call each).

    The other methods are bound as instance attributes, so the only cost is one Python call a node.
    """

    def __init__(self, game):
        self._game = game
        self.nodes = 0
        current_player = game.current_player

        def counted(state):
            self.nodes += 1
            return current_player(state)

        self.current_player = counted
        for name in ("legal_actions", "apply", "returns", "evaluate", "chance_outcome_count",
                     "chance_outcomes", "sample_chance", "format", "exact_chance_limit"):
            setattr(self, name, getattr(game, name))

    def __getattr__(self, name):
        return getattr(self._game, name)


def run_searcher(game, state, depth: int, star2: bool, use_cache: bool) -> Run:
    gc.collect()
    # The Python search's configurations (the compiled one has its own benchmark: rolldown_compiled.py)
    searcher = Searcher(game, star2=star2, use_cache=use_cache, compiled=False)
    cumulative: list[int] = []
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = searcher.search(state, depth=depth, on_iteration=lambda r: cumulative.append(r.stats.nodes))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    iteration_nodes = [b - a for a, b in zip([0] + cumulative, cumulative)]
    stats = result.stats
    return Run(
        nodes=stats.nodes, wall=wall, cpu=cpu, iteration_nodes=iteration_nodes, depth=result.depth,
        probes=stats.cache_probes, hits=stats.cache_hits,
        values={move.name: move.value for move in result.moves}, best=result.best.name,
        sampled=stats.sampled_chance_nodes,
    )


def run_expectimax(game, state, depth: int) -> Run:
    """Each root move's expectimax value at depth - 1 (as the searcher's root does), mover's view."""
    gc.collect()
    counting = _CountingGame(game)
    mover = game.current_player(state)
    bounds = game.value_bounds()
    values: dict[str, float] = {}
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for action in game.legal_actions(state):
        value = expectimax(counting, game.apply(state, action), depth - 1)
        values[game.action_name(state, action)] = value if mover == 0 else bounds.low + bounds.high - value
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    nodes = counting.nodes + 1  # and the root
    best = max(values, key=values.__getitem__)
    return Run(nodes=nodes, wall=wall, cpu=cpu, iteration_nodes=[nodes], depth=depth, probes=0, hits=0,
               values=values, best=best)


# ----- one position, every configuration --------------------------------------------------------
@dataclass
class Summary:
    name: str
    runs: int
    nodes: int
    nodes_varied: bool
    wall: float  # medians over the runs
    cpu: float
    depth: int
    iteration_nodes: list[int]
    hit_rate: float | None
    best: str
    sampled: int
    walls: list[float] = field(default_factory=list)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.wall if self.wall > 0 else 0.0

    @property
    def ebf_ratio(self) -> float | None:
        it = self.iteration_nodes
        return it[-1] / it[-2] if len(it) >= 2 and it[-2] else None

    @property
    def ebf_root(self) -> float:
        return self.iteration_nodes[-1] ** (1.0 / self.depth)


def summarize(name: str, runs: list[Run]) -> Summary:
    nodes = [run.nodes for run in runs]
    first = runs[0]
    return Summary(
        name=name, runs=len(runs), nodes=int(statistics.median_low(nodes)), nodes_varied=len(set(nodes)) > 1,
        wall=statistics.median(run.wall for run in runs), cpu=statistics.median(run.cpu for run in runs),
        depth=first.depth, iteration_nodes=first.iteration_nodes,
        hit_rate=first.hits / first.probes if first.probes else None, best=first.best, sampled=first.sampled,
        walls=[run.wall for run in runs],
    )


def measure_position(game, position: Position, index: int, max_repeats: int, with_expectimax: bool,
                     log=print) -> dict:
    state = game.parse(position.text)
    names = list(CONFIGS) + ([EXPECTIMAX] if position.expectimax and with_expectimax else [])
    runs: dict[str, list[Run]] = {name: [] for name in names}
    wanted = dict.fromkeys(names, 1)
    round_ = 0
    while any(len(runs[name]) < wanted[name] for name in names):
        shift = (index + round_) % len(names)  # rotate the order: no configuration always runs first
        for name in names[shift:] + names[:shift]:
            if len(runs[name]) >= wanted[name]:
                continue
            if name == EXPECTIMAX:
                run = run_expectimax(game, state, position.depth)
            else:
                star2, use_cache = CONFIGS[name]
                run = run_searcher(game, state, position.depth, star2, use_cache)
            runs[name].append(run)
            log(f"  {position.label}: {name:<16} {run.nodes:>12,} nodes {run.wall:8.2f} s")
        if round_ == 0:
            wanted = {name: repeats_for(runs[name][0].wall, max_repeats) for name in names}
        round_ += 1

    summaries = {name: summarize(name, runs[name]) for name in names}
    # Every configuration's root values against the default's (and every run's against its first).
    reference = runs[DEFAULT][0].values
    checks = {}
    for name in names:
        worst = 0.0
        same_moves = True
        for run in runs[name]:
            if set(run.values) != set(reference):
                same_moves = False
                continue
            worst = max(worst, max(abs(run.values[m] - reference[m]) for m in reference))
        checks[name] = {"same_moves": same_moves, "max_difference": worst,
                        "agree": same_moves and worst <= TOLERANCE}
    default = summaries[DEFAULT]
    ratios = {
        name: {"nodes": s.nodes / default.nodes, "time": s.wall / default.wall if default.wall else None,
               "cpu": s.cpu / default.cpu if default.cpu else None}
        for name, s in summaries.items() if name != DEFAULT
    }
    return {
        "position": position, "state": state, "moves": len(reference), "summaries": summaries,
        "checks": checks, "ratios": ratios, "values": reference,
    }


# ----- reporting ---------------------------------------------------------------------------------
def _fmt_int(n: int) -> str:
    return f"{n:,}"


def _fmt_time(t: float) -> str:
    return f"{t:.3f}" if t < 1 else f"{t:.2f}" if t < 100 else f"{t:.1f}"


def _fmt_ratio(r: float | None) -> str:
    if r is None:
        return "—"
    return f"{r:.3f}" if r < 0.1 else f"{r:.2f}" if r < 100 else f"{r:,.0f}"


def _fmt_opt(x: float | None, spec: str) -> str:
    return "—" if x is None else format(x, spec)


def table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    """A markdown table padded so it also reads as plain text."""
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)) + " |"

    rule = "| " + " | ".join(("-" * (w - 1) + ":") if r else "-" * w for w, r in zip(widths, right)) + " |"
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def main_table(results: list[dict]) -> str:
    header = ["position", "depth", "configuration", "runs", "nodes", "time s", "CPU s", "nodes/s",
              "EBF d/d-1", "N^(1/d)", "cache hits"]
    right = [False, True, False, True, True, True, True, True, True, True, True]
    rows = []
    for res in results:
        pos = res["position"]
        for name, s in res["summaries"].items():
            depth = f"{s.depth}" if s.depth == pos.depth else f"{s.depth} (solved)"
            rows.append([
                pos.label, depth, name, str(s.runs), _fmt_int(s.nodes) + ("*" if s.nodes_varied else ""),
                _fmt_time(s.wall), _fmt_time(s.cpu), _fmt_int(round(s.nodes_per_second)),
                _fmt_opt(s.ebf_ratio, ".1f"), f"{s.ebf_root:.1f}",
                "—" if s.hit_rate is None else f"{100 * s.hit_rate:.1f}%",
            ])
    return table(header, rows, right)


def ratio_table(results: list[dict]) -> tuple[str, dict]:
    others = [name for name in CONFIGS if name != DEFAULT] + [EXPECTIMAX]
    header = ["position", "depth"] + [f"{name} {what}" for name in others for what in ("nodes", "time")]
    right = [False, True] + [True] * (2 * len(others))
    rows = []
    logs: dict[str, dict[str, list[float]]] = {name: {"nodes": [], "time": []} for name in others}
    for res in results:
        row = [res["position"].label, str(res["position"].depth)]
        for name in others:
            ratio = res["ratios"].get(name)
            if ratio is None:
                row += ["—", "—"]
                continue
            row += [_fmt_ratio(ratio["nodes"]), _fmt_ratio(ratio["time"])]
            logs[name]["nodes"].append(ratio["nodes"])
            if ratio["time"]:
                logs[name]["time"].append(ratio["time"])
        rows.append(row)
    geo = {name: {what: _geomean(v) for what, v in d.items()} for name, d in logs.items()}
    row = ["geometric mean", ""]
    for name in others:
        row += [_fmt_ratio(geo[name]["nodes"]), _fmt_ratio(geo[name]["time"])]
    rows.append(row)
    return table(header, rows, right), geo


def _geomean(values: Sequence[float]) -> float | None:
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def findings(results: list[dict], geo: dict) -> str:
    """The paragraphs of what the figures show, written from the figures."""
    def ratio(res, name, what="nodes"):
        r = res["ratios"].get(name)
        return None if r is None else r[what]

    def spread(name, what="nodes"):
        pairs = [(ratio(res, name, what), res["position"].label) for res in results if ratio(res, name, what)]
        lo, hi = min(pairs), max(pairs)
        return f"{_fmt_ratio(lo[0])}× on {lo[1]} to {_fmt_ratio(hi[0])}× on {hi[1]}"

    def listing(items):
        return ", ".join(f"{label} ({_fmt_ratio(r)}×)" for label, r in items)

    parts = []
    s1, s2n, s1n = "Star1 + cache", "Star2, no cache", "Star1, no cache"
    # Star2 against Star1, with the cache.
    fewer = [(res["position"].label, ratio(res, s1)) for res in results if ratio(res, s1) < 1]
    text = (f"**Star2 against Star1** (both with the cache): Star1 searched {_fmt_ratio(geo[s1]['nodes'])}× the "
            f"nodes of Star2 (geometric mean over the positions; {spread(s1)}) and took "
            f"{_fmt_ratio(geo[s1]['time'])}× the time.")
    if fewer:
        text += (f" Star1 searched fewer nodes than Star2 on {listing(fewer)}: there Star2's probes (the first "
                 "move of each decision child of a chance node) cost more than the cut-offs they bought.")
    parts.append(text)
    # Star2 against Star1, without the cache.
    per = [(res["position"].label, ratio(res, s1n) / ratio(res, s2n)) for res in results]
    worse = [(label, r) for label, r in per if r < 1]
    text = (f"**Without the cache**, Star1 searched {_fmt_ratio(_geomean([r for _, r in per]))}× the nodes of Star2 "
            "(geometric mean).")
    if worse:
        text += (f" But Star1 searched fewer nodes than Star2 on {listing(worse)}: a probe searches a child's first "
                 "move, and when the probes do not cut the chance node off, the full search searches that move "
                 "again — without a table, from scratch.")
    parts.append(text)
    # The cache.
    hits = "; ".join(f"{res['position'].label} {100 * (res['summaries'][DEFAULT].hit_rate or 0):.0f}%"
                     for res in results)
    parts.append(
        f"**The cache**: without it Star2 searched {_fmt_ratio(geo[s2n]['nodes'])}× the nodes "
        f"({spread(s2n)}) and took {_fmt_ratio(geo[s2n]['time'])}× the time. The default's hit rate, by "
        f"position: {hits}. Positions recur within one search because rerolls and cards bring dice back to "
        "faces they showed before, and iterative deepening searches the same positions again one level deeper."
    )
    # Speed per node, and how far time follows nodes.
    nps_cache = _geomean([res["summaries"][DEFAULT].nodes_per_second / res["summaries"][s2n].nodes_per_second
                          for res in results if res["summaries"][s2n].nodes_per_second])
    all_nps = [(s.nodes_per_second, res["position"].label, name) for res in results
               for name, s in res["summaries"].items()]
    lo, hi = min(all_nps), max(all_nps)
    text = (f"**Speed**: from {_fmt_int(round(lo[0]))} nodes/s ({lo[2]}, {lo[1]}) to {_fmt_int(round(hi[0]))} "
            f"nodes/s ({hi[2]}, {hi[1]}). Star2 with the cache ran at {_fmt_ratio(nps_cache)}× the node rate of "
            "Star2 without it (geometric mean)")
    if nps_cache is not None and nps_cache < 0.95:
        text += ": the table's probes and stores cost time at every node."
    elif nps_cache is not None and nps_cache > 1.05:
        text += (": the nodes the table answers are cheap ones (a probe, no move generation), which more than "
                 "pays for its probes and stores.")
    else:
        text += ": the table's probes and stores cost little against the rest of a node."
    per_node = [ratio(res, name, "time") / ratio(res, name) for res in results for name in res["ratios"]
                if name != EXPECTIMAX and ratio(res, name, "time")]
    if per_node and 0.67 <= min(per_node) and max(per_node) <= 1.5:
        text += (f" Time ratios roughly follow node ratios (time ratio / node ratio between {min(per_node):.2f} and "
                 f"{max(per_node):.2f} for the searcher's configurations): what pruning and the cache save in "
                 "nodes they mostly save in time.")
    elif per_node:
        text += (f" Time ratios and node ratios part ways (time ratio / node ratio between {min(per_node):.2f} and "
                 f"{max(per_node):.2f} for the searcher's configurations): the cost of a node differs between "
                 "configurations, or the timing was noisy.")
    parts.append(text)
    ex = [res for res in results if EXPECTIMAX in res["ratios"]]
    if ex:
        parts.append(
            f"**Plain expectimax** (run on {len(ex)} of {len(results)} positions) searched "
            f"{_fmt_ratio(geo[EXPECTIMAX]['nodes'])}× the default's nodes ({spread(EXPECTIMAX)}) and took "
            f"{_fmt_ratio(geo[EXPECTIMAX]['time'])}× its time."
        )
    ebf = [(res["summaries"][DEFAULT].ebf_root, res["summaries"][s1n].ebf_root, res["position"].label)
           for res in results]
    parts.append(
        "**Branching** (N^(1/d), default against Star1 without cache): "
        + "; ".join(f"{label} {a:.1f} against {b:.1f}" for a, b, label in ebf) + "."
    )
    return "\n\n".join(parts)


def values_check(results: list[dict], with_expectimax: bool) -> tuple[bool, float, str]:
    """Whether every configuration returned the default's root values, the largest difference, the text."""
    checks = [(res, name, c) for res in results for name, c in res["checks"].items()]
    agree = all(c["agree"] for _, _, c in checks)
    worst = max(c["max_difference"] for _, _, c in checks)
    who = "every configuration" + (" (and expectimax where it ran)" if with_expectimax else "")
    if agree:
        return agree, worst, (
            f"**Values check: passed.** On every position {who} returned the same root move values as the default, "
            f"run by run: {len(checks)} configuration-position pairs, largest difference {worst:.1e} "
            f"(tolerance {TOLERANCE:g})."
        )
    bad = [(res, name, c) for res, name, c in checks if not c["agree"]]
    text = (
        f"**Values check: FAILED.** Not {who} returned the default's root move values (tolerance {TOLERANCE:g}): "
        + "; ".join(f"{res['position'].label}: {name} (largest difference {c['max_difference']:.2g}"
                    f"{', different moves' if not c['same_moves'] else ''})" for res, name, c in bad)
        + "."
    )
    sampled = {res["position"].label for res in results
               if any(s.sampled for s in res["summaries"].values())}
    bad_labels = {res["position"].label for res, _, _ in bad}
    if bad_labels <= sampled:
        rest = [c["max_difference"] for res, _, c in checks if res["position"].label not in sampled]
        text += (
            " Every disagreement is on a position where the search estimated chance nodes from samples"
            + (f"; on the others the largest difference was {max(rest):.1e}." if rest else ".")
            + " A cause found when this benchmark was written: `Searcher` keeps one sample per cache key "
            "(`game.key`, which for RolldownBeta blanks the faces a Joker is about to reroll), while "
            "`chance_distribution` seeds each sample from the full position string, so Joker nodes that share a "
            "key share whichever sample the search drew first — it depends on the search order — and expectimax "
            "draws another. Seeding the sample from the key instead made the configurations agree on these positions."
        )
    return agree, worst, text


def machine() -> dict:
    info = {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
    }
    try:
        info["nproc"] = int(subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout)
    except (OSError, ValueError, subprocess.CalledProcessError):
        pass
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        info["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                        text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    info["hash_seed"] = os.environ.get("PYTHONHASHSEED", "random")
    return info


def write_reports(out: Path, results: list[dict], meta: dict, quick: bool) -> tuple[Path, Path, str]:
    main = main_table(results)
    ratios, geo = ratio_table(results)
    agree, worst, check_text = values_check(results, meta["expectimax"])
    varied = any(s.nodes_varied for res in results for s in res["summaries"].values())
    load0, load1 = meta["load_before"], meta["load_after"]

    positions = "\n".join(
        f"- **{res['position'].label}** (depth {res['position'].depth}, {res['moves']} root moves"
        + (", expectimax too" if EXPECTIMAX in res["summaries"] else "") + f"): `{res['position'].text}`"
        for res in results
    )
    sampled = [f"{res['position'].label} ({res['summaries'][DEFAULT].sampled})" for res in results
               if res["summaries"][DEFAULT].sampled]
    m = meta["machine"]
    md = f"""# Search benchmark: expectiminimax on RolldownBeta{' (quick smoke run)' if quick else ''}

Measured {m['date']} by `benchmarks/search.py{' --quick' if quick else ''}` on {m['nproc']} CPUs \
({m.get('cpu', 'unknown CPU')}), {m['implementation']} {m['python']}, {m['platform']}, commit {m.get('commit', '?')}.
Load average (1 min) {load0:.2f} before and {load1:.2f} after; this process got {meta['cpu_share']:.2f} of a core \
(CPU time / wall time). Total wall time {meta['wall']:.0f} s.

## What was measured

RolldownBeta, single round (a value is the probability that the player to move wins the round), \
Ace variant online, Joker chance nodes of more than 4,096 outcomes estimated from 64 seeded samples, \
no endgame tables. The positions, each searched to a fixed depth (decisions; chance events do not count):

{positions}

Configurations: **{DEFAULT}** (the default of `dicetree best`), **Star1 + cache**, **Star2, no cache**, \
**Star1, no cache** — all `Searcher` with iterative deepening from depth 1, move ordering and the history \
heuristic, a 2^20-slot transposition table where cached — and **expectimax**, the plain reference \
(`dicetree.solver.search.expectimax` on each root move at depth d − 1; no pruning, no cache, no iterative deepening).

- **nodes**: nodes entered, every iteration included (the searcher's count; for expectimax, counted by a \
wrapper that adds one Python call a node, about 6% of its time). `*` marks counts that differed between runs.
- **time s**: median wall-clock time of the runs; **CPU s**: median CPU time of this process; \
**nodes/s** = nodes / time s.
- **EBF d/d-1**: nodes of the depth-d iteration / nodes of the depth-(d−1) iteration — the growth of the \
last deepening step (not for expectimax, which runs once). **N^(1/d)**: nodes of the depth-d iteration \
(expectimax: its whole tree) to the power 1/d — the mean branching per decision level, chance levels \
included; lower means less of the tree searched.
- **cache hits**: share of transposition-table probes that found an entry for the same position. An entry \
found at another depth or in an earlier iteration only orders the moves; its value is used only at the \
same depth in the same iteration.
- **How**: one process; configurations interleaved position by position, in an order rotated from round to \
round; a configuration whose first run took under 0.3 s ran {repeats_for(0, meta['max_repeats'])} times, \
under 2 s {repeats_for(1, meta['max_repeats'])} times, otherwise once \
(**runs**); medians reported. Each run builds a fresh `Searcher` (empty cache) after a garbage collection; \
a depth-1 warm-up ran first. Ratios compare figures measured in the same run.

## Results

{main}

## Ratios against {DEFAULT} (same run)

Nodes and wall time of each configuration divided by those of {DEFAULT} on the same position \
(above 1: more than the default).

{ratios}

{check_text}

## What the figures show

{findings(results, geo)}

Notes: the machine is shared (see the load averages), so times carry noise that the interleaving and \
the ratios reduce but do not remove; node counts do not depend on the machine. \
{'Sampled chance nodes (Joker rerolls of many dice) in the default search: ' + ', '.join(sampled) + '. ' if sampled else ''}\
Python randomizes string hashes per process (PYTHONHASHSEED={m['hash_seed']}), so which positions collide in the \
table, and with it the node counts of the cached configurations, can change slightly from one process to the next; \
within this run they were {'NOT ' if varied else ''}identical across repeats.
"""
    data = {
        "benchmark": "search",
        "quick": quick,
        "machine": m,
        "load_before": load0,
        "load_after": load1,
        "cpu_share": meta["cpu_share"],
        "wall_seconds": meta["wall"],
        "tolerance": TOLERANCE,
        "all_values_agree": agree,
        "max_value_difference": worst,
        "definitions": {
            "nodes": "nodes entered, every iteration of the iterative deepening included",
            "wall_seconds": "median wall-clock time over the runs",
            "cpu_seconds": "median CPU time of this process over the runs",
            "nodes_per_second": "nodes / wall_seconds",
            "ebf_ratio": "nodes of the depth-d iteration / nodes of the depth-(d-1) iteration",
            "ebf_root": "nodes of the depth-d iteration (expectimax: its tree) ** (1/d)",
            "cache_hit_rate": "transposition-table probes finding an entry for the same position / probes",
            "ratios": "configuration / default (Star2 + cache), same position, same run",
        },
        "configurations": {name: {"star2": s2, "cache": c} for name, (s2, c) in CONFIGS.items()}
        | {EXPECTIMAX: {"star2": False, "cache": False, "plain": True}},
        "positions": [
            {
                "label": res["position"].label,
                "position": res["position"].text,
                "depth": res["position"].depth,
                "root_moves": res["moves"],
                "root_values": res["values"],
                "results": {
                    name: {
                        "runs": s.runs, "nodes": s.nodes, "nodes_varied": s.nodes_varied,
                        "wall_seconds": s.wall, "cpu_seconds": s.cpu, "wall_seconds_each": s.walls,
                        "nodes_per_second": s.nodes_per_second, "depth_reached": s.depth,
                        "iteration_nodes": s.iteration_nodes, "ebf_ratio": s.ebf_ratio, "ebf_root": s.ebf_root,
                        "cache_hit_rate": s.hit_rate, "best": s.best, "sampled_chance_nodes": s.sampled,
                    }
                    for name, s in res["summaries"].items()
                },
                "ratios_to_default": res["ratios"],
                "values_check": res["checks"],
            }
            for res in results
        ],
        "geometric_mean_ratios": geo,
    }
    out.mkdir(parents=True, exist_ok=True)
    md_path, json_path = out / "search-benchmark.md", out / "search-benchmark.json"
    md_path.write_text(md)
    json_path.write_text(json.dumps(data, indent=2) + "\n")
    printed = f"{main}\n\nRatios against {DEFAULT}:\n\n{ratios}\n\n{check_text}"
    return md_path, json_path, printed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--out", type=Path, default=ROOT / "results", help="folder for the reports")
    parser.add_argument("--max-repeats", type=int, default=None,
                        help="runs of a fast configuration at most (default 5; 3 with --quick)")
    parser.add_argument("--no-expectimax", action="store_true", help="skip plain expectimax")
    args = parser.parse_args(argv)

    game = load_game("rolldown", evaluation="fitted")  # the figures of results/ were measured with it: comparable
    positions = QUICK_POSITIONS if args.quick else POSITIONS
    log = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731

    max_repeats = args.max_repeats or (3 if args.quick else 5)
    load_before = os.getloadavg()[0]
    wall0, cpu0 = time.perf_counter(), time.process_time()
    warm = game.parse(positions[0].text)  # imports, first calls: not measured
    for star2, use_cache in CONFIGS.values():
        run_searcher(game, warm, 1, star2, use_cache)
    run_expectimax(game, warm, 1)

    results = []
    for index, position in enumerate(positions):
        log(f"{position.label}, depth {position.depth}: {position.text}")
        results.append(measure_position(game, position, index, max_repeats, not args.no_expectimax, log))
    wall = time.perf_counter() - wall0
    meta = {
        "machine": machine(), "load_before": load_before, "load_after": os.getloadavg()[0],
        "cpu_share": (time.process_time() - cpu0) / wall if wall else 0.0, "wall": wall,
        "expectimax": not args.no_expectimax, "max_repeats": max_repeats,
    }
    md_path, json_path, printed = write_reports(args.out, results, meta, args.quick)
    print(printed)
    print(f"\nwrote {md_path} and {json_path}")
    agree = all(c["agree"] for res in results for c in res["checks"].values())
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
