"""Which purchase order wins Dice Fights? Duels between purchase policies, with 95% intervals.

The policies (:mod:`dicetree.solver.games.dicefights.policies`) differ only in what they buy — they all keep
their dice and attack whom they hurt most — so the results measure the purchase order:
``dice`` (Core Dice; once the Cache is empty, upgrades), ``attack`` / ``defense`` / ``gold`` (save
for that upgrade until its multiplier is at 4, then as ``dice``), ``box`` (save for the Game Box,
then as ``dice``), ``random``
(any purchase option) and ``solver`` (the purchase node solved one decision deep by the
simultaneous search with the game's evaluation; its mixed strategy sampled).

* **Two players**: every pair of policies plays ``--deals`` deals; a deal is two games from the
  start with the seats swapped and the same seeded dice stream (common random numbers: the streams
  stay aligned until the two games' purchases differ). A deal's score is the row policy's mean
  return over its two games (a win 1, a draw 1/2); the interval is mean +- 1.96 standard errors of
  the deal scores.
* **Four players**: each policy in one seat against three ``dice`` players, its seat rotating
  with the deal; the interval is over games; a fair share is 25%. (``solver`` is left out here:
  its paranoid search of a four-player purchase node is too slow for hundreds of games.)

Games still running after 300 rounds (defensive policies can stall) are stopped and shared among
the players still in; the tables count them.

Usage::

    .venv/bin/python research/dicefights_purchases.py                      # the study (~3 min on 2 cores)
    .venv/bin/python research/dicefights_purchases.py --deals 10 --out /tmp/df   # a quick look

Outputs in ``--out`` (default ``results/dicefights``): ``purchases.json`` (every number),
``purchases.md`` (the tables) and ``purchases.png`` (the chart).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path

from dicetree.solver.games.dicefights import DiceFights
from dicetree.solver.games.dicefights.policies import POLICIES, play_game
from dicetree.solver.parallel import Workers

TWO_PLAYER = ["dice", "attack", "defense", "gold", "box", "random", "solver"]
FOUR_PLAYER = ["dice", "attack", "defense", "gold", "box", "random"]
Z95 = 1.959963984540054


def interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval (clipped to [0, 1])."""
    mean = statistics.fmean(scores)
    half = Z95 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def two_player_pair(args: tuple[str, str, int, int]) -> dict:
    """``a`` against ``b``: ``deals`` deals of two games, seats swapped, same dice stream."""
    a, b, deals, seed = args
    game = DiceFights(players=2)
    scores, stopped, rounds = [], 0, []
    for deal in range(deals):
        total = 0.0
        for a_seat in (0, 1):
            seats = [POLICIES[a], POLICIES[b]] if a_seat == 0 else [POLICIES[b], POLICIES[a]]
            outcome = play_game(game, seats, random.Random(f"{seed}:{deal}:dice"),
                                choice_rng=random.Random(f"{seed}:{deal}:{a_seat}:choices"))
            total += outcome.returns[a_seat]
            stopped += outcome.stopped
            rounds.append(outcome.turns)
        scores.append(total / 2)
    mean, low, high = interval(scores)
    return {"a": a, "b": b, "deals": deals, "games": 2 * deals, "score": mean, "low": low, "high": high,
            "stopped": stopped, "mean_rounds": statistics.fmean(rounds)}


def four_player_policy(args: tuple[str, int, int]) -> dict:
    """``name`` in one seat (rotating) against three ``dice`` players."""
    name, games, seed = args
    game = DiceFights(players=4)
    scores, stopped, rounds = [], 0, []
    for number in range(games):
        seat = number % 4
        seats = [POLICIES["dice"]] * 4
        seats[seat] = POLICIES[name]
        outcome = play_game(game, seats, random.Random(f"{seed}:{number}:dice4"),
                            choice_rng=random.Random(f"{seed}:{number}:choices4"))
        scores.append(outcome.returns[seat])
        stopped += outcome.stopped
        rounds.append(outcome.turns)
    mean, low, high = interval(scores)
    return {"policy": name, "games": games, "score": mean, "low": low, "high": high, "stopped": stopped,
            "mean_rounds": statistics.fmean(rounds)}


def write_tables(out: Path, two: list[dict], four: list[dict], settings: dict) -> None:
    lines = [
        "# Dice Fights: purchase policies in duels",
        "",
        f"Made by `research/dicefights_purchases.py` ({settings['deals']} deals = {2 * settings['deals']} games a "
        f"pair, {settings['games4']} four-player games a policy, seed {settings['seed']}, "
        f"{settings['seconds']:.0f} s). Face layout: the default two of each symbol (an assumption).",
        "",
        "## Two players: the row policy's score against the column policy (95% interval)",
        "",
        "| policy | " + " | ".join(TWO_PLAYER) + " | mean |",
        "| --- | " + " | ".join("---:" for _ in TWO_PLAYER) + " | ---: |",
    ]
    cell = {(r["a"], r["b"]): r for r in two}
    for a in TWO_PLAYER:
        row, means = [], []
        for b in TWO_PLAYER:
            if a == b:
                row.append("-")
                continue
            r = cell.get((a, b))
            if r is None:
                r = cell[(b, a)]
                score, low, high = 1 - r["score"], 1 - r["high"], 1 - r["low"]
            else:
                score, low, high = r["score"], r["low"], r["high"]
            means.append(score)
            row.append(f"{score:.0%} ({low:.0%}-{high:.0%})")
        lines.append(f"| {a} | " + " | ".join(row) + f" | {statistics.fmean(means):.0%} |")
    stopped = sum(r["stopped"] for r in two)
    lines += ["", f"Games stopped at 300 rounds: {stopped} of {sum(r['games'] for r in two)}.", "",
              "## Four players: one policy against three `dice` players (fair share 25%)", "",
              "| policy | score | 95% interval | mean rounds | stopped |", "| --- | ---: | ---: | ---: | ---: |"]
    for r in four:
        lines.append(f"| {r['policy']} | {r['score']:.1%} | {r['low']:.1%} - {r['high']:.1%} | "
                     f"{r['mean_rounds']:.1f} | {r['stopped']} |")
    (out / "purchases.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def draw_chart(out: Path, two: list[dict], four: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    size = len(TWO_PLAYER)
    grid = np.full((size, size), np.nan)
    for r in two:
        i, j = TWO_PLAYER.index(r["a"]), TWO_PLAYER.index(r["b"])
        grid[i, j], grid[j, i] = r["score"], 1 - r["score"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2), gridspec_kw={"width_ratios": [1.15, 1]})
    image = left.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    left.set_xticks(range(size), TWO_PLAYER, rotation=30)
    left.set_yticks(range(size), TWO_PLAYER)
    for i in range(size):
        for j in range(size):
            if not np.isnan(grid[i, j]):
                left.text(j, i, f"{grid[i, j]:.0%}", ha="center", va="center", fontsize=8,
                          color="white" if abs(grid[i, j] - 0.5) > 0.3 else "black")
    left.set_title("Two players: row policy's score against column policy")
    figure.colorbar(image, ax=left, fraction=0.046)
    names = [r["policy"] for r in four]
    scores = [r["score"] for r in four]
    errors = [[r["score"] - r["low"] for r in four], [r["high"] - r["score"] for r in four]]
    right.bar(names, scores, yerr=errors, capsize=4, color="#4c72b0")
    right.axhline(0.25, color="grey", linestyle="--", label="fair share (25%)")
    right.set_ylim(0, 1)
    right.set_title("Four players: one policy against three 'dice' buyers")
    right.set_ylabel("score (win = 1, shared win = 1/k), 95% interval")
    right.legend()
    figure.tight_layout()
    figure.savefig(out / "purchases.png", dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="two-player deals a pair (two games each)")
    parser.add_argument("--games4", type=int, default=800, help="four-player games a policy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "results" / "dicefights")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    pairs = [(a, b, args.deals, args.seed) for i, a in enumerate(TWO_PLAYER) for b in TWO_PLAYER[i + 1:]]
    fours = [(name, args.games4, args.seed) for name in FOUR_PLAYER]
    with Workers(jobs=args.jobs).executor() as pool:  # Ctrl-C stops the workers too
        run = map if pool is None else pool.map
        two = list(run(two_player_pair, pairs))
        four = list(run(four_player_policy, fours))
    settings = {"deals": args.deals, "games4": args.games4, "seed": args.seed,
                "seconds": time.perf_counter() - started}
    (args.out / "purchases.json").write_text(
        json.dumps({"settings": settings, "two_players": two, "four_players": four}, indent=2) + "\n", encoding="utf-8")
    write_tables(args.out, two, four, settings)
    draw_chart(args.out, two, four)
    print((args.out / "purchases.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
