"""What a value network's size costs the compiled search (issue 24), which evaluates it at every leaf: the
compiled search's nodes per CPU second from one position, with the ``fitted`` evaluation and with each network
data file given, side by side in one run (searches alternate; the median of ``--repeats``).

Usage::

    .venv/bin/python benchmarks/rolldown_network_leaf_cost.py --network shipped=solver/games/rolldown/value_network.json \\
        --network wide=/tmp/wide.json --output results/rolldown-network/leaf-cost

Writes ``<output>.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from report import write_report

from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.network import load_network
from dicetree.solver.search import Searcher

ROUND_START = "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a -/-"  # rolldown_compiled.py's


def network_game(path: str) -> Rolldown:
    """A game whose compiled search evaluates the network in ``path`` at its leaves."""
    game = Rolldown(evaluation="network")
    game._network_model = load_network(path)  # what both searches read (its format checked), not the shipped one
    return game


def timed_search(game: Rolldown, position: str, depth: int) -> tuple[int, float]:
    """Nodes and CPU seconds of one search with a fresh compiled searcher."""
    searcher = Searcher(game, compiled=True)
    state = game.parse(position)
    searcher.search(state, depth=1)  # compiles (once a process) and sizes the tables outside the clock
    searcher = Searcher(game, compiled=True)
    started = time.process_time()
    result = searcher.search(state, depth=depth)
    return result.stats.nodes, time.process_time() - started


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", action="append", default=[], metavar="NAME=PATH", help="a network data file")
    parser.add_argument("--position", default=ROUND_START)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", default=None, help="results file stem (default: print only)")
    args = parser.parse_args(argv)
    games = {"fitted": Rolldown(evaluation="fitted")}
    games.update({name: network_game(path) for name, path in (item.split("=", 1) for item in args.network)})
    runs: dict[str, list[tuple[int, float]]] = {name: [] for name in games}
    for _ in range(args.repeats):
        for name, game in games.items():
            runs[name].append(timed_search(game, args.position, args.depth))
    rows = {}
    for name, found in runs.items():
        rate = statistics.median(nodes / seconds for nodes, seconds in found)
        model = games[name].network()
        sizes = model.sizes.tolist() if model is not None else None
        rows[name] = {"sizes": sizes, "nodes": found[0][0], "nodes_per_cpu_second": rate,
                      "microseconds_per_node": 1e6 / rate}
    base = rows["fitted"]["microseconds_per_node"]
    lines = ["# The compiled search's node rate with each leaf evaluation", "",
             f"`benchmarks/rolldown_network_leaf_cost.py {' '.join(f'--network {n}' for n in args.network)} "
             f"--depth {args.depth}` from `{args.position}`, median of {args.repeats} searches each, alternating.", "",
             "| evaluation | layers | nodes | nodes / CPU s | µs / node | µs / node over `fitted` |",
             "|---|---|---:|---:|---:|---:|"]
    for name, row in rows.items():
        layers = "-".join(map(str, row["sizes"])) if row["sizes"] else "logistic"
        lines.append(f"| {name} | {layers} | {row['nodes']:,} | {row['nodes_per_cpu_second']:,.0f} | "
                     f"{row['microseconds_per_node']:.2f} | {row['microseconds_per_node'] - base:+.2f} |")
    text = "\n".join(lines) + "\n"
    if args.output:
        write_report(args.output, text, {"position": args.position, "depth": args.depth, "results": rows})
    else:
        print(text)


if __name__ == "__main__":
    main()
