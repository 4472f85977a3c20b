"""RolldownBeta's round outcomes as the engine plays them, and the match equity tables built from them.

Issue 14, part 2. Many round starts are played by the engine against itself
(``solver:depth=1,all-seeing``: at depth 1 the search averaged over the opponent's possible hands picked
the all-seeing move in all 791 positions measured, ``results/rolldown-hidden/``, at a sixteenth of the
cost), each through :func:`dicetree.solver.match.play_game`, recording whether the round's starter won and
the points (the sides of the final pair):

* **round 1** — fresh decks (a First to 50 match's first deal; the roll-off picks the starter);
* **round 9, decks nearly spent** — each deck less 24 cards on its discard pile (what eight rounds
  deal: every card dealt is discarded by the round's end, so those are 24 cards drawn at random);
  what the tables leave out, measured.

Then the tables by dynamic programming (:mod:`dicetree.solver.games.rolldown.match_equity`) from the
round-1 outcomes, with bootstrap standard errors, are written to the package's data file
``solver/games/rolldown/match_equity.json``, and their heatmaps and summary to ``results/rolldown-match/``.

Each block of rounds is a cell kept in ``benchmarks/.cells/`` (a stopped run resumes). Run under
``nice -n 10``.

Usage::

    nice -n 10 .venv/bin/python research/rolldown_match_outcomes.py            # ~30 minutes on a loaded machine
    nice -n 10 .venv/bin/python research/rolldown_match_outcomes.py --quick    # ~1 minute (no data file)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import cell, write_report

from dicetree.solver.game import Game, State
from dicetree.solver.games.rolldown.cards import DIE_SIDES, full_deck
from dicetree.solver.games.rolldown.game import Rolldown
from dicetree.solver.games.rolldown.match_equity import DATA_FILE, POINTS, MatchTables, RoundOutcomes
from dicetree.solver.games.rolldown.state import ROUND_OVER, RolldownState
from dicetree.solver.match import play_game
from dicetree.solver.strategies import Strategy, make_strategy

BENCHMARK = "rolldown_match_outcomes"
RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-match"
ENGINE = "solver:depth=1,all-seeing"
BLOCK = 50  # rounds a cell
RESAMPLES = 400


class RoundPlay(Strategy):
    """A strategy made for the round objective that plays in a game of another objective (the same
    rules, other returns): it searches its own game, so ``play_game`` may score the round in points.

    >>> round_game = Rolldown()
    >>> play = RoundPlay(round_game, "greedy")
    >>> play.game is round_game and play.all_seeing is False
    True
    """

    def __init__(self, game: Game, spec: str):
        self.game = game
        self.inner = make_strategy(game, spec)
        self.all_seeing = self.inner.all_seeing

    def new_game(self, start: State | None) -> None:
        self.inner.new_game(start)

    def choose(self, game: Game, state: State, player: int, options: Sequence, rng: random.Random):
        return self.inner.choose(self.game, state, player, options, rng)


def round_start(rules: Rolldown, rng: random.Random, round_number: int, mode: str = "nine",
                scores: tuple[int, int] = (0, 0), starter: int | None = None) -> RolldownState:
    """The deal of round ``round_number`` of a ``mode`` match at ``scores`` with ``starter`` to start it
    (None: at random; round 1 of a First to 50 match: its roll-off). Each deck holds 27 less 3 cards a
    round played since its last shuffle, drawn at random: every dealt card is discarded by a round's end."""
    if round_number == 1 and starter is None:
        return rules.new_match("first50", rng)
    starter = rng.randrange(2) if starter is None else starter
    discards = []
    for _ in (0, 1):
        cards = list(full_deck().elements())
        rng.shuffle(cards)
        discards.append(tuple(sorted(cards[:3 * ((round_number - 1) % 9)])))
    before = RolldownState(dice=((0,) * 6, (0,) * 6), mover=starter, mode=mode, round=round_number - 1,
                           scores=scores, discards=tuple(discards), starter=1 - starter, phase=ROUND_OVER,
                           round_winner=starter)
    return rules.next_round(before, rng)


def play_block(round_number: int, block: int, seed: int, engine: str = ENGINE, rounds: int = BLOCK) -> dict:
    """``rounds`` round starts played by ``engine`` against itself; each round's (starter won, points)."""
    round_game, points_game = Rolldown(), Rolldown(objective="points")
    seats = (RoundPlay(round_game, engine), RoundPlay(round_game, engine))
    outcomes = []
    started = time.perf_counter()
    for index in range(rounds):
        tag = f"{seed}:{round_number}:{block}:{index}"
        start = round_start(round_game, random.Random(f"{tag}:start"), round_number)
        record = play_game(points_game, seats, (0, 1), start, random.Random(f"{tag}:dice"),
                           (random.Random(f"{tag}:a"), random.Random(f"{tag}:b")))
        a_points = record.returns[0]
        winner = 0 if a_points > 0 else 1
        outcomes.append([winner == start.starter, int(abs(a_points)), sum(record.decisions)])
    return {"round": round_number, "engine": engine, "outcomes": outcomes,
            "seconds": round(time.perf_counter() - started, 1)}


def gather(round_number: int, blocks: int, seed: int, rounds: int) -> list[list]:
    found = []
    for block in range(blocks):
        name = f"r{round_number}-b{block}-n{rounds}-{seed}"
        found.extend(cell(BENCHMARK, name, lambda block=block: play_block(round_number, block, seed,
                                                                          rounds=rounds))["outcomes"])
    return found


def share_interval(wins: int, n: int) -> tuple[float, float, float]:
    """A share with its 95% interval (normal approximation)."""
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return p, p - half, p + half


def summary(name: str, outcomes: RoundOutcomes) -> str:
    p, low, high = share_interval(sum(outcomes.starter_wins), outcomes.rounds)
    return f"| {name} | {outcomes.rounds} | {p:.1%} ({low:.1%} to {high:.1%}) | {outcomes.mean_points():.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blocks", type=int, default=20, help="blocks of 50 rounds from round 1")
    parser.add_argument("--late-blocks", type=int, default=4, help="blocks of 50 rounds from round 9")
    args = parser.parse_args()
    started = time.perf_counter()
    rounds = 4 if args.quick else BLOCK
    first = gather(1, 2 if args.quick else args.blocks, args.seed, rounds)
    late = gather(9, 1 if args.quick else args.late_blocks, args.seed, rounds)
    round1 = RoundOutcomes.from_pairs((won, points) for won, points, _ in first)
    round9 = RoundOutcomes.from_pairs((won, points) for won, points, _ in late)
    tables = MatchTables.from_outcomes(round1, resamples=RESAMPLES, seed=args.seed)
    elapsed = time.perf_counter() - started
    measured = {"engine": ENGINE, "rounds": round1.rounds, "seed": args.seed, "resamples": RESAMPLES,
                "command": "nice -n 10 .venv/bin/python research/rolldown_match_outcomes.py"}
    if not args.quick:
        DATA_FILE.write_text(json.dumps(tables.payload(measured), indent=None) + "\n")
        from rolldown_match_figures import draw_heatmaps

        draw_heatmaps(tables, RESULTS)
    # the leaf evaluation's approximation: the final pair any pair of the dice in play, equally likely
    pairs = Counter(s + t for s in DIE_SIDES for t in DIE_SIDES)
    uniform = [pairs[points] / len(DIE_SIDES) ** 2 for points in POINTS]
    shares = [(s + o) / round1.rounds for s, o in zip(round1.starter_wins, round1.other_wins)]
    distance = sum(abs(u - m) for u, m in zip(uniform, shares)) / 2
    rows = [f"| {points} | {s} | {o} | {m:.3f} | {u:.3f} |"
            for points, s, o, m, u in zip(POINTS, round1.starter_wins, round1.other_wins, shares, uniform)]
    markdown = "\n".join([
        "# RolldownBeta: round outcomes as the engine plays them",
        "",
        f"Engine `{ENGINE}` against itself, seed {args.seed}; each round a deal of its own.",
        "",
        "| rounds from | rounds | the starter wins (95% CI) | mean points |",
        "|---|---|---|---|",
        summary("round 1, full decks", round1),
        summary("round 9, 24 cards gone from each deck", round9),
        "",
        "Round 1 outcomes (the tables' input):",
        "",
        "| points | won by the starter | won by the other | share | share if the final pair were any pair, equally likely |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"The leaf evaluation's approximation of the final pair (any pair of the dice in play, equally likely) "
        f"against the measured points at the round start: mean {sum(p * u for p, u in zip(POINTS, uniform)):.2f} "
        f"against {round1.mean_points():.2f}, total variation distance {distance:.3f}.",
        "",
        f"{elapsed:.0f} s (cells kept from earlier runs count as 0); machine shared with three other helpers "
        f"(2 cores; load average {os.getloadavg()[0]:.1f} at the end). Command: "
        f"`nice -n 10 .venv/bin/python research/rolldown_match_outcomes.py{' --quick' if args.quick else ''}`.",
    ])
    write_report(RESULTS / ("outcomes-quick" if args.quick else "outcomes"), markdown,
                 {**measured, "round1": round1._asdict(), "round9": round9._asdict(),
                  "uniform_pair_points": dict(zip(POINTS, uniform)), "total_variation": distance})


if __name__ == "__main__":
    main()
