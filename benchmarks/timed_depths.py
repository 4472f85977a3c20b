"""How deep timed strategies (``ms=N``) search: the depth each answer reached and its wall time a move, at the
round start (each side's first decision of a game) and later, for a few deals of a duel per budget.

For choosing a duel's time a move before running it (results/rolldown-network section 4e): both strategies of
each game are given ``ms=<budget>`` over their own specs, and the games are played as ``dicetree duel`` plays
them (the same deals for a seed). Wall time depends on the machine and its load: one process, nothing else of
yours running beside it. Each game is played once; a stopped run starts again (it is minutes, not hours).

Usage::

    .venv/bin/python benchmarks/timed_depths.py rolldown --a network:depth=12,all-seeing \\
        --b fitted:depth=12,all-seeing --budgets 50,100,200 --deals 2 --seed 27 \\
        --output results/rolldown-network/timed-depths

Writes ``<output>.md`` and ``.json`` (without ``--output`` it only prints).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from report import write_report

from dicetree.solver.game import Action, Game, State
from dicetree.solver.games import load_game
from dicetree.solver.match import Duel
from dicetree.solver.strategies import SolverStrategy, Strategy, make_strategy, parse_strategy

OPENING = 1
"""A side's decisions of a game counted as its round start."""


@dataclass
class Timings:
    """One strategy's answers: (depth reached, wall seconds) at the round start and later."""

    opening: list[tuple[int, float]] = field(default_factory=list)
    later: list[tuple[int, float]] = field(default_factory=list)


class Recorded(Strategy):
    """A search-based strategy whose every answer's depth and wall time are recorded."""

    def __init__(self, inner: SolverStrategy, timings: Timings):
        self.inner, self.timings, self.all_seeing = inner, timings, inner.all_seeing
        self.decided = 0

    def new_game(self, start: State | None) -> None:
        self.decided = 0
        self.inner.new_game(start)

    def choose(self, game: Game, state: State, player: int, options: Sequence[Action], rng: random.Random) -> Action:
        before = self.inner.depths.copy()
        started = time.perf_counter()
        action = self.inner.choose(game, state, player, options, rng)
        seconds = time.perf_counter() - started
        (depth,) = (self.inner.depths - before).keys()
        (self.timings.opening if self.decided < OPENING else self.timings.later).append((depth, seconds))
        self.decided += 1
        return action


def timed(spec: str, ms: int) -> str:
    """``spec`` with ``ms=<ms>`` added to its options."""
    kind, _, rest = spec.partition(":")
    return f"{kind}:{','.join(filter(None, (f'ms={ms}', rest)))}"


def summary(answers: list[tuple[int, float]]) -> dict:
    """Decisions, the depths reached (depth: count), mean and largest wall ms."""
    depths = Counter(depth for depth, _ in answers)
    seconds = [s for _, s in answers]
    return {"decisions": len(answers), "depths": dict(sorted(depths.items())),
            "mean_ms": 1000 * statistics.fmean(seconds) if seconds else 0.0,
            "max_ms": 1000 * max(seconds) if seconds else 0.0}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--a", required=True, help="strategy A, without ms (e.g. network:depth=12,all-seeing)")
    parser.add_argument("--b", required=True, help="strategy B, as --a")
    parser.add_argument("--budgets", default="50,100,200", help="milliseconds a move, comma-separated")
    parser.add_argument("--deals", type=int, default=2, help="deals a budget (each played twice, seats swapped)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--output", default=None, help="results file stem (default: print only)")
    args = parser.parse_args(argv)
    game = load_game(args.game)
    budgets = [int(ms) for ms in args.budgets.split(",")]
    rows, data = [], {"game": args.game, "a": args.a, "b": args.b, "seed": args.seed, "deals": args.deals,
                      "load_average_before": os.getloadavg()[0], "budgets": {}}
    for ms in budgets:
        specs = [parse_strategy(timed(spec, ms), game) for spec in (args.a, args.b)]
        duel = Duel(game, specs[0], specs[1], games=2 * args.deals, seed=args.seed)
        timings = [Timings(), Timings()]
        strategies = []
        for spec, timing in zip(specs, timings):
            inner = make_strategy(game, spec)
            assert isinstance(inner, SolverStrategy), f"{spec} is not a search-based strategy"
            strategies.append(Recorded(inner, timing))
        for deal in range(args.deals):
            duel.play_deal(deal, strategies)
        data["budgets"][ms] = {}
        for spec, timing in zip(specs, timings):
            opening, later = summary(timing.opening), summary(timing.later)
            data["budgets"][ms][str(spec)] = {"opening": opening, "later": later}
            for when, figures in (("round start", opening), ("later", later)):
                depths = ", ".join(f"{depth}: {count}" for depth, count in figures["depths"].items())
                rows.append(f"| {ms} | {spec} | {when} | {figures['decisions']} | {depths} | "
                            f"{figures['mean_ms']:.1f} | {figures['max_ms']:.1f} |")
    data["load_average_after"] = os.getloadavg()[0]
    markdown = "\n".join([
        f"# Depths reached at a time a move ({args.game}, seed {args.seed}, {args.deals} deals a budget)", "",
        f"Load average (1 min) {data['load_average_before']:.2f} before, {data['load_average_after']:.2f} after. "
        "Wall time: figures depend on the machine and its load.", "",
        "| ms a move | strategy | when | answers | depth reached: answers | mean ms | largest ms |",
        "|---:|---|---|---:|---|---:|---:|",
        *rows, ""])
    if args.output:
        write_report(args.output, markdown, data)
    else:
        print(markdown)


if __name__ == "__main__":
    main()
