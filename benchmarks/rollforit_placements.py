"""Benchmark Roll For It!'s placement generator: placements per position and per second.

Positions where a player places rolled dice are collected from seeded random games (random moves
spread many dice over the cards, so these are harder than typical play) and from games of the
``human`` strategy, for 2, 4 and 8 players. For each, every legal decision is generated with the
generator's cache emptied first (a cold call, what a search meets at a new position), and the
count is checked against a brute force over every assignment of the rolled dice (each die to an
open image of a card, or to none), de-duplicated: the generator must list each placement once.

Usage::

    .venv/bin/python benchmarks/rollforit_placements.py            # ~30 s
    .venv/bin/python benchmarks/rollforit_placements.py --quick

Writes ``results/rollforit/placements.{md,json}``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from pathlib import Path

from report import write_report

from dicetree.solver.games.rollforit import RollForIt, rules
from dicetree.solver.games.rollforit.state import PLACE
from dicetree.solver.games.rollforit.strategies import HumanStrategy

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rollforit"


def seeded_positions(game: RollForIt, games: int, rng_name, keep, choose, limit: int = 3000) -> list:
    """The positions ``keep`` accepts along ``games`` seeded games (game ``g`` draws from
    ``random.Random(rng_name(g))``; ``choose(state, options, rng)`` plays each decision)."""
    found = []
    for g in range(games):
        rng = random.Random(rng_name(g))
        state = game.new_game(rng)
        for _ in range(limit):
            if game.is_terminal(state):
                break
            if game.is_chance(state):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            options = game.legal_actions(state)
            if keep(state):
                found.append(state)
            state = game.apply(state, choose(state, options, rng))
    return found


def place_positions(game: RollForIt, games: int, seed: int, human: bool) -> list:
    """Every PLACE position of ``games`` seeded games (random moves, or the human strategy)."""
    strategy = HumanStrategy()

    def choose(state, options, rng):
        return strategy.choose(game, state, state.mover, options, rng) if human else rng.choice(options)

    return seeded_positions(game, games, lambda g: f"{seed}|{g}|{human}", lambda s: s.phase == PLACE, choose)


def brute_force(state, game) -> int:
    """Distinct outcomes of giving each rolled die an open image of a card or none (scorings
    count once per card, as a scoring puts exactly the open images on one card)."""
    opens = [rules.open_images(state, i, state.mover, game) for i in range(len(state.cards))]
    seen = set()
    for targets in itertools.product(range(-1, len(opens)), repeat=len(state.rolled)):
        per_card = [[] for _ in opens]
        for face, target in zip(state.rolled, targets):
            if target >= 0:
                per_card[target].append(face)
        faces = [tuple(sorted(f)) for f in per_card]
        if any(rules.common(need, f) != f for need, f in zip(opens, faces)):
            continue
        scored = [i for i, (need, f) in enumerate(zip(opens, faces)) if f == need]
        if scored:  # a turn that scores starts with one scoring: one choice per card it can score
            seen.update(("score", state.cards[i]) for i in scored)
        else:
            seen.add(tuple(faces))
    return len(seen)


def measure(game: RollForIt, positions: list, check: int) -> dict:
    counts, seconds = [], 0.0
    for state in positions:
        rules.placements_of.cache_clear()
        rules.common.cache_clear()
        started = time.perf_counter()
        count = len(rules.legal_actions(state, game))
        seconds += time.perf_counter() - started
        counts.append(count)
    for state in positions[:check]:
        assert len(rules.legal_actions(state, game)) == brute_force(state, game), game.format(state)
    return {"positions": len(positions), "mean": statistics.fmean(counts), "median": statistics.median(counts),
            "max": max(counts), "placements_per_second": sum(counts) / seconds,
            "microseconds_per_position": 1e6 * seconds / len(positions), "checked_by_brute_force": min(check, len(positions))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games, check = (3, 20) if args.quick else (20, 200)
    rows, data = [], {"games": games, "seed": args.seed, "rows": []}
    for players in (2, 4, 8):
        game = RollForIt(players=players)
        for human in (False, True):
            result = measure(game, place_positions(game, games, args.seed, human), check)
            result.update(players=players, play="human" if human else "random")
            data["rows"].append(result)
            rows.append(f"| {players} | {result['play']} | {result['positions']:,} | {result['mean']:.1f} | "
                        f"{result['median']:g} | {result['max']:,} | {result['microseconds_per_position']:,.0f} | "
                        f"{result['placements_per_second']:,.0f} |")
    markdown = "\n".join([
        "# Roll For It!: the placement generator",
        "",
        f"Every position where a player places rolled dice in {games} seeded games per row (random moves, "
        "or the `human` strategy), generated cold (the generator's caches emptied before each). The count "
        "is each decision once: dice showing equal faces are interchangeable, a turn's scorings come one "
        "card at a time, then one placement that scores nothing. Counts checked against a brute force over "
        f"every die-to-image assignment on the first {check} positions of each row.",
        "",
        "| players | play | positions | decisions (mean) | median | max | µs a position | decisions a second |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ])
    write_report(RESULTS / ("placements-quick" if args.quick else "placements"), markdown, data)


if __name__ == "__main__":
    main()
