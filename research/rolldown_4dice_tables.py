"""Build the 4-dice tables (no cards) of a seeded random draw of signature pairs, so that the value
network's 4-dice measure (``benchmarks/rolldown_evaluation.py --dice 4``, which draws positions only from
stored tables) samples random 4-dice positions rather than the small dice built first.

Each pair draws each side's 4 dice from the six kinds uniformly (pairs met before, either way round,
are drawn again), as a random position does; the pair's table is built with its reverse (one batch) from
the stored 3-dice tables. Pairs whose two tables together exceed ``--max-positions`` are listed but not
built (the largest take hours and over 10 GiB here): the sample is then of the pairs below that size, and
the list says which were left out. A stopped build, run again, resumes (stored batches are kept).

Usage::

    nice -n 5 .venv/bin/python research/rolldown_4dice_tables.py --tables /work/tables --pairs 30 --seed 25 \\
        --max-positions 50000000 --build

Without ``--build`` it prints the draw and the estimate only.
"""

from __future__ import annotations

import argparse
import random
import time

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature

DICE = 4


def drawn_pairs(rng: random.Random, count: int) -> list[Signature]:
    """``count`` distinct signature pairs (a pair and its reverse are one), each side's dice drawn uniformly."""
    pairs: list[Signature] = []
    while len(pairs) < count:
        pair = Signature(tuple(rng.sample(DIE_SIDES, DICE)), tuple(rng.sample(DIE_SIDES, DICE)))
        if pair not in pairs and pair.swap() not in pairs:
            pairs.append(pair)
    return pairs


def batch_positions(pair: Signature) -> int:
    """Positions of the pair's table and its reverse (one table when the sides have the same dice)."""
    return pair.positions * (1 if pair.mine == pair.theirs else 2)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True, help="the tables folder (all 3-dice tables stored)")
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--max-positions", type=int, default=50_000_000,
                        help="build only pairs whose two tables hold at most this many positions")
    parser.add_argument("--build", action="store_true", help="build the chosen pairs (else print the plan)")
    args = parser.parse_args(argv)
    tablebase = Tablebase(TableStore(args.tables))
    pairs = drawn_pairs(random.Random(args.seed), args.pairs)
    chosen = [pair for pair in pairs if batch_positions(pair) <= args.max_positions]
    for number, pair in enumerate(pairs, 1):
        state = ("stored" if tablebase.has(pair) and tablebase.has(pair.swap())
                 else "to build" if pair in chosen else "left out (too large)")
        print(f"{number:2d}. {pair.name:<24} {batch_positions(pair):>12,} positions  {state}")
    todo = [pair for pair in chosen if not (tablebase.has(pair) and tablebase.has(pair.swap()))]
    print(f"{len(chosen)} of {len(pairs)} pairs within {args.max_positions:,} positions; "
          f"{len(todo)} to build, {sum(map(batch_positions, todo)):,} positions", flush=True)
    if not args.build:
        return
    for pair in todo:  # one pair at a time: a stop loses at most the pair in progress
        started = time.perf_counter()
        tablebase.build(roots=[pair])
        print(f"built {pair.name} in {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
