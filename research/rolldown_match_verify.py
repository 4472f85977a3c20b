"""Do RolldownBeta's match equity tables hold in play? Full matches from given scores against the tables.

Issue 14, part 2 (verify). From each of several score pairs (First to 50 and Nine rounds, either player
to start the next round) whole matches are played by the engine against itself with the round-aware play
the tables were measured with (``solver:depth=1,all-seeing``, objective ``round``), every round dealt from
decks that lose the cards dealt (as in a real match: the decks at the start are 27 less 3 cards a round
already played, drawn at random), through :func:`dicetree.solver.match.play_game` on
``Rolldown(objective="match", horizon="match")``. A's share of match wins (a draw counts 1/2), with its
95% interval, is set against the table's value and its bootstrap standard error: they agree where the
difference lies within 1.96 joint standard errors (the table's and, were the table right, the played
share's: sqrt(t (1 - t) / n)).

Each block of matches is a cell kept in ``benchmarks/.cells/`` (a stopped run resumes). Run under
``nice -n 10``.

Usage::

    nice -n 10 .venv/bin/python research/rolldown_match_verify.py            # ~40 minutes on a loaded machine
    nice -n 10 .venv/bin/python research/rolldown_match_verify.py --quick    # ~1 minute

Writes ``results/rolldown-match/verify.{md,json}``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import cell, write_report
from rolldown_match_outcomes import ENGINE, RESULTS, RoundPlay, round_start

from dicetree.solver.games.rolldown.game import Rolldown
from dicetree.solver.games.rolldown.match_equity import load_tables
from dicetree.solver.match import play_game

BENCHMARK = "rolldown_match_verify"
BLOCK = 20  # matches a cell
CHI2_95 = {10: 18.3, 11: 19.7, 12: 21.0}  # the 95th percentile of chi-squared by degrees of freedom


class Start(NamedTuple):
    """Where the matches start: ``mode``, the scores (A, B), who starts round ``round``."""

    mode: str
    scores: tuple[int, int]
    starter: int
    round: int

    @property
    def name(self) -> str:
        return f"{self.mode}-{self.scores[0]}-{self.scores[1]}-{'ab'[self.starter]}-r{self.round}"


STARTS = (  # mostly late in a match (few rounds to play), and each mode from its start
    Start("first50", (0, 0), 0, 1),
    Start("first50", (20, 30), 0, 3),
    Start("first50", (30, 20), 1, 3),
    Start("first50", (40, 40), 0, 5),
    Start("first50", (44, 30), 1, 5),
    Start("first50", (24, 42), 0, 4),
    Start("nine", (0, 0), 0, 1),
    Start("nine", (60, 40), 1, 6),
    Start("nine", (40, 70), 0, 7),
    Start("nine", (120, 100), 0, 8),
    Start("nine", (130, 110), 1, 9),
)


def play_block(start: Start, block: int, seed: int, matches: int = BLOCK) -> dict:
    """``matches`` full matches from ``start``: A's result in each (1, 1/2 or 0)."""
    round_game, match_game = Rolldown(), Rolldown(objective="match", horizon="match")
    seats = (RoundPlay(round_game, ENGINE), RoundPlay(round_game, ENGINE))
    results = []
    started = time.perf_counter()
    for index in range(matches):
        tag = f"{seed}:{start.name}:{block}:{index}"
        state = round_start(round_game, random.Random(f"{tag}:start"), start.round, start.mode, start.scores,
                            start.starter)
        record = play_game(match_game, seats, (0, 1), state, random.Random(f"{tag}:dice"),
                           (random.Random(f"{tag}:a"), random.Random(f"{tag}:b")))
        results.append(record.returns[0])
    return {"start": start.name, "results": results, "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blocks", type=int, default=2, help="blocks of 20 matches from each start")
    args = parser.parse_args()
    started = time.perf_counter()
    tables = load_tables()
    matches = 2 if args.quick else BLOCK
    blocks = 1 if args.quick else args.blocks
    played_from: dict[Start, list[float]] = {start: [] for start in STARTS}
    for block in range(blocks):  # every start a block before any gets the next: a run stopped early covers all
        for start in STARTS:
            name = f"{start.name}-b{block}-n{matches}-{args.seed}"
            played_from[start] += cell(BENCHMARK, name, lambda block=block, start=start: play_block(
                start, block, args.seed, matches))["results"]
    rows, data, agree = [], [], 0
    for start, results in played_from.items():
        n = len(results)
        played = statistics.fmean(results)
        played_se = statistics.pstdev(results) / math.sqrt(n)
        table = tables.value(start.mode, start.scores, start.starter, start.round)
        table_se = tables.standard_error(start.mode, start.scores, start.starter, start.round)
        # under the hypothesis that the table is right a match result varies as a win or loss with its chance
        joint = math.hypot(math.sqrt(table * (1 - table) / n), table_se)
        z = (played - table) / joint if joint else 0.0
        within = abs(z) <= 1.96
        agree += within
        rows.append(f"| {start.mode} | {start.scores[0]}-{start.scores[1]} | {'AB'[start.starter]} | {start.round} "
                    f"| {table:.3f} ± {table_se:.3f} | {n} | {played:.3f} ({played - 1.96 * played_se:.3f} to "
                    f"{played + 1.96 * played_se:.3f}) | {played - table:+.3f} | {z:+.2f} | {'yes' if within else 'no'} |")
        data.append({**start._asdict(), "table": table, "table_se": table_se, "matches": n, "played": played,
                     "played_se": played_se, "z": z, "within": within})
    elapsed = time.perf_counter() - started
    markdown = "\n".join([
        "# RolldownBeta: the match equity tables against full matches",
        "",
        f"Engine `{ENGINE}` against itself (round-aware play, as the tables were measured), seed {args.seed}; "
        "each match from the scores shown, the decks less 3 random cards a round already played; "
        "A's match result (a draw counts 1/2).",
        "",
        "| mode | scores A-B | starts the round | round | table ± SE | matches | played (95% CI) | difference | z | "
        "within 1.96 joint SE |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"**{agree} of {len(STARTS)}** starts agree within their intervals (about 95% of them should, by chance); "
        f"the sum of z squared is {sum(d['z'] ** 2 for d in data):.1f} over {len(STARTS)} starts (chi-squared with "
        f"{len(STARTS)} degrees of freedom: below {CHI2_95[len(STARTS)]} 95% of the time). Mean difference "
        f"{statistics.fmean(d['played'] - d['table'] for d in data):+.3f} (played less table).",
        "",
        f"{elapsed:.0f} s (cells kept from earlier runs count as 0); machine shared with three other helpers "
        f"(2 cores; load average {os.getloadavg()[0]:.1f} at the end). Command: "
        f"`nice -n 10 .venv/bin/python research/rolldown_match_verify.py{' --quick' if args.quick else ''}`.",
    ])
    write_report(RESULTS / ("verify-quick" if args.quick else "verify"), markdown, {"seed": args.seed, "starts": data})


if __name__ == "__main__":
    main()
