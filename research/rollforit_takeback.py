"""Roll For It! study 2: when Take Back pays, by dice on cards and the images they still leave open.

Positions are taken from seeded two-player games of the ``human`` strategy: every turn start where
the mover has dice on cards (Take Back is a choice). The solver (:class:`dicetree.solver.search.Searcher`,
depth ``--depth`` decisions: the choice, then the roll with every placement, then the evaluation)
ranks roll against Take Back. Positions are grouped by the mover's dice on cards (so 6 less that
are free) and by the images those cards still leave open for the mover; each cell gives how often
Take Back is the better choice and by how much on average (win chance).

Usage::

    .venv/bin/python research/rollforit_takeback.py            # ~2 minutes
    .venv/bin/python research/rollforit_takeback.py --quick

Writes ``results/rollforit/takeback.{md,json,png}``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import write_report
from rollforit_placements import seeded_positions

from dicetree.solver.figures import heatmap
from dicetree.solver.games.rollforit import RollForIt, rules
from dicetree.solver.games.rollforit.state import TURN, TurnChoice
from dicetree.solver.games.rollforit.strategies import HumanStrategy
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rollforit"
MAX_OPEN = 12  # open images of the cards the mover is on, grouped at 12 and above


def turn_starts(game: RollForIt, games: int, seed: int) -> list:
    """Turn starts with the mover's dice on cards, from seeded games of ``human``."""
    human = HumanStrategy()
    return seeded_positions(
        game, games, lambda g: f"{seed}|{g}",
        lambda state: state.phase == TURN and rules.dice_on_cards(state, state.mover),
        lambda state, options, rng: human.choose(game, state, state.mover, options, rng), limit=4000)


def cell_of(state, game) -> tuple[int, int]:
    """(dice on cards, images still open on the cards the mover has dice on)."""
    on = rules.dice_on_cards(state, state.mover)
    opened = sum(len(rules.open_images(state, i, state.mover, game))
                 for i, on_card in enumerate(state.placed) if on_card[state.mover])
    return on, min(opened, MAX_OPEN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=1)
    args = parser.parse_args()
    game = RollForIt()
    positions = turn_starts(game, 6 if args.quick else 60, args.seed)
    rng = random.Random(args.seed)
    if len(positions) > (60 if args.quick else 900):
        positions = rng.sample(positions, 60 if args.quick else 900)
    searcher = Searcher(game, cache_slots=2**18)
    cells: dict[tuple[int, int], list[float]] = defaultdict(list)
    started = time.perf_counter()
    for state in positions:
        values = {m.action: m.value for m in searcher.search(state, depth=args.depth).moves}
        gain = values[TurnChoice(True)] - values[TurnChoice(False)]
        cells[cell_of(state, game)].append(gain)
    seconds = time.perf_counter() - started
    share = np.full((6, MAX_OPEN), np.nan)
    notes = [["" for _ in range(MAX_OPEN)] for _ in range(6)]
    rows = []
    for (on, opened), gains in sorted(cells.items()):
        pays = sum(g > 0 for g in gains) / len(gains)
        share[on - 1, opened - 1] = pays
        notes[on - 1][opened - 1] = f"{pays:.0%}\n{len(gains)}"
        rows.append(f"| {on} | {6 - on} | {opened}{'+' if opened == MAX_OPEN else ''} | {len(gains)} | {pays:.0%} | "
                    f"{sum(gains) / len(gains):+.3f} |")
    heatmap(RESULTS / ("takeback-quick.png" if args.quick else "takeback.png"), share, list(range(1, 7)),
            [f"{k}{'+' if k == MAX_OPEN else ''}" for k in range(1, MAX_OPEN + 1)],
            title=f"How often Take Back is better than rolling (depth-{args.depth} solver; cell: share, positions)",
            xlabel="images still open on the cards the mover's dice are on", ylabel="mover's dice on cards",
            cbar_label="share of positions where Take Back is better", annotations=notes, cmap="RdBu")
    data = {"seed": args.seed, "depth": args.depth, "positions": len(positions), "seconds": round(seconds, 1),
            "cells": {f"{on},{opened}": gains for (on, opened), gains in sorted(cells.items())}}
    markdown = "\n".join([
        "# Roll For It!: when Take Back pays",
        "",
        f"{len(positions)} turn starts with the mover's dice on cards, from seeded two-player games of `human` "
        f"(seed {args.seed}), each ranked by the depth-{args.depth} solver (the choice, the roll with every "
        "placement, then the evaluation). Grouped by the mover's dice on cards and the images still open on "
        "those cards; 'pays' is the share of positions where Take Back is the better choice, 'gain' its mean "
        "value over rolling (win chance).",
        "",
        "| dice on cards | dice free | images open | positions | Take Back pays | mean gain |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"{seconds:.0f} s of search.",
    ])
    write_report(RESULTS / ("takeback-quick" if args.quick else "takeback"), markdown, data)


if __name__ == "__main__":
    main()
