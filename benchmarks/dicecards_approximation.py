"""Dice Cards: how good is the six-card approximation? Its gap to exact, and against simple policies.

1. **Gap to exact**, on every hand small enough to solve whole (one card; two cards up to
   ``--max-states`` states): the exact expected score of the hand from the start against the exact
   expected score of the approximation's policy (evaluated exactly, no sampling:
   :meth:`~dicetree.solver.games.dicecards.induction.HandGraph.follow`), for 50 rolls and for a short game
   where the cards compete for rolls (``--short`` rolls).
2. **Six-card games**: random deals of six library cards, each played by the approximation, by a
   greedy policy (the record that scores most now, the fewest tickets spent) and at random, on the
   same dice (common random numbers); mean final score with 95% intervals, paired differences,
   and the approximation's rank distribution.
3. **Honest values**: the approximation's value of a position (the relaxation's, and the
   estimate corrected by rollouts of its policy, which ``best`` prints) against the exact
   value of its policy on the small hands, and against the score its policy then made on the
   six-card games, at the start and half-way (mean difference with a 95% interval).

Usage::

    .venv/bin/python benchmarks/dicecards_approximation.py            # about a few minutes
    .venv/bin/python benchmarks/dicecards_approximation.py --games 60 --short 12

Writes ``results/dicecards/approximation.md``, ``.json`` and ``approximation-gaps.csv``.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import write_report  # noqa: E402
from dicetree.solver.game import TERMINAL  # noqa: E402
from dicetree.solver.games.dicecards import DiceCards  # noqa: E402
from dicetree.solver.games.dicecards.approximation import ROLL_PRICES, ROLLOUTS, Approximation  # noqa: E402
from dicetree.solver.games.dicecards.induction import card_graph, hand_graph  # noqa: E402
from dicetree.solver.games.dicecards.rules import final_score  # noqa: E402
from dicetree.solver.games.dicecards.state import RANKS, Roll, rank_of  # noqa: E402
from dicetree.solver.games.dicecards.strategies import most_points  # noqa: E402
from dicetree.solver.games.dicecards.study import mean_interval  # noqa: E402

RESULTS = ROOT / "results" / "dicecards"


def gaps(game: DiceCards, rolls: int, max_states: int) -> list[dict]:
    """The approximation's loss against exact on every one- and two-card hand of at most ``max_states``."""
    library = game.library
    model = Approximation(library, rolls)
    sizes = {card.code: len(card_graph(card, card.start()).states) for card in library.cards}
    hands = [(code,) for code in sizes]
    hands += [pair for pair in itertools.combinations(sizes, 2) if sizes[pair[0]] * sizes[pair[1]] <= max_states]
    rows = []
    for codes in hands:
        started = time.perf_counter()
        cards = tuple(library[code] for code in codes)
        graph = hand_graph(cards, tuple(card.start() for card in cards), 0)
        final = graph.final("score", 0)
        exact = float(graph.backward(rolls, final)[rolls][0, 0])
        policy = float(graph.follow(rolls, final, model.preference(graph))[rolls][0, 0])
        start = game.parse(" ".join(f"{code}=-" for code in codes) + f" t0 0/{rolls} roll")
        rows.append({"hand": "+".join(codes), "rolls": rolls, "states": len(graph.states), "exact": round(exact, 4),
                     "approximation": round(policy, 4), "loss": round(exact - policy, 4),
                     "relaxation": round(model.value(start), 4), "predicted": round(model.estimate(start), 4),
                     "seconds": round(time.perf_counter() - started, 2)})
        print(f"  {rows[-1]}", flush=True)
    return rows


def play(game: DiceCards, hand: tuple[str, ...], dice: list[tuple[int, int]], choose, rng,
         half_way: list | None = None) -> int:
    """The final score of one game; the position half-way (before roll rolls / 2) appended to ``half_way``."""
    state = game.parse(" ".join(f"{code}=-" for code in hand) + f" t0 0/{game.rolls} roll")
    for number, (black, red) in enumerate(dice):
        if half_way is not None and number == game.rolls // 2:
            half_way.append(state)
        state = game.apply(state, Roll(black, red))
        options = list(game.legal_actions(state))
        state = game.apply(state, options[0] if len(options) == 1 else choose(game, state, options, rng))
    assert game.current_player(state) == TERMINAL
    return final_score(game.hand(state), state.marks, state.tickets)


def six_card_games(game: DiceCards, games: int, seed: int) -> dict:
    model = game.approximation
    policies = {
        "approximation": lambda g, s, options, rng: model.ranked(s, g.may_pass)[0][0],
        "greedy": lambda g, s, options, rng: most_points(g, s, options),
        "random": lambda g, s, options, rng: rng.choice(options),
    }
    codes = [card.code for card in game.library.cards]
    scores: dict[str, list[int]] = {name: [] for name in policies}
    deals = random.Random(seed)
    started = time.perf_counter()
    predictions: dict[str, list[float]] = {"relaxation": [], "predicted": [], "relaxation, half-way": [],
                                           "predicted, half-way": []}
    for number in range(games):
        hand = tuple(deals.sample(codes, 6))
        dice = [(deals.randint(1, 6), deals.randint(1, 6)) for _ in range(game.rolls)]
        for name, choose in policies.items():
            half_way: list = []
            scores[name].append(play(game, hand, dice, choose, random.Random(seed * 1000 + number), half_way))
            if name == "approximation":
                start = game.parse(" ".join(f"{code}=-" for code in hand) + f" t0 0/{game.rolls} roll")
                for when, state in (("", start), (", half-way", half_way[0])):
                    model.corrections.clear()  # as a fresh `best` would: measured from the position itself
                    predictions["relaxation" + when].append(model.value(state))
                    predictions["predicted" + when].append(model.estimate(state))
        if number % 20 == 0:
            print(f"  game {number}: {[scores[name][-1] for name in policies]}", flush=True)
    summary = {name: mean_interval(values) for name, values in scores.items()}
    paired = {other: mean_interval([a - b for a, b in zip(scores["approximation"], scores[other])])
              for other in ("greedy", "random")}
    ranks = {name: sum(1 for s in scores["approximation"] if rank_of(s) == name) / games for _, name in RANKS}
    spread = math.sqrt(sum((s - summary["approximation"][0]) ** 2 for s in scores["approximation"]) / (games - 1))
    made = scores["approximation"]
    honesty = {name: mean_interval([p - s for p, s in zip(values, made)]) for name, values in predictions.items()}
    return {"games": games, "seed": seed, "seconds": round(time.perf_counter() - started, 1), "scores": scores,
            "summary": summary, "paired": paired, "ranks": ranks, "spread": spread, "predictions": predictions,
            "honesty": honesty}


def markdown(gap_rows: list[dict], six: dict, args) -> str:
    lines = ["# Dice Cards: the six-card approximation, measured", "",
             f"Approximation: exact per-card solutions with a price on rolls (prices {list(ROLL_PRICES)}, the "
             "least dual value), tickets shared by a knapsack, one step of lookahead, values corrected by "
             f"{ROLLOUTS} rollouts of the policy "
             "(`solver/games/dicecards/approximation.py`). Cards: the built-in file (its values are assumptions).",
             "", f"Reproduce: `.venv/bin/python benchmarks/dicecards_approximation.py --games {args.games} "
             f"--short {args.short} --max-states {args.max_states} --seed {args.seed}`", "",
             "## Gap to exact (expected final score; the policy evaluated exactly)", ""]
    for rolls in sorted({row["rolls"] for row in gap_rows}, reverse=True):
        rows = [row for row in gap_rows if row["rolls"] == rolls]
        losses = [row["loss"] for row in rows]
        worst = max(rows, key=lambda row: row["loss"])
        lines.append(f"- {rolls} rolls, {len(rows)} hands: mean loss {sum(losses) / len(losses):.4f} points, worst "
                     f"{worst['loss']:.4f} ({worst['hand']}: exact {worst['exact']:.3f}, approximation "
                     f"{worst['approximation']:.3f})")
    lines += ["", "Its values against the exact value of its own policy (what they claim to estimate):", ""]
    for rolls in sorted({row["rolls"] for row in gap_rows}, reverse=True):
        rows = [row for row in gap_rows if row["rolls"] == rolls and "+" in row["hand"]]
        for name, label in (("relaxation", "relaxation"), ("predicted", "corrected by rollouts")):
            errors = [row[name] - row["approximation"] for row in rows]
            worst = max(rows, key=lambda row: abs(row[name] - row["approximation"]))
            lines.append(f"- {rolls} rolls, {len(rows)} pairs, {label}: mean error {sum(errors) / len(errors):+.3f}, "
                         f"mean size {sum(map(abs, errors)) / len(errors):.3f}, worst "
                         f"{worst[name] - worst['approximation']:+.3f} ({worst['hand']})")
    lines += ["", "Every hand: `approximation-gaps.csv`.", "",
              f"## Six-card games ({six['games']} random deals, the same dice for every policy)", "",
              "| policy | mean final score | 95% interval |", "|---|---:|---:|"]
    for name, (mean, half) in six["summary"].items():
        lines.append(f"| {name} | {mean:.2f} | ±{half:.2f} |")
    lines += ["", "Paired differences (approximation minus the other, same deal and dice):", ""]
    for name, (mean, half) in six["paired"].items():
        lines.append(f"- against {name}: {mean:+.2f} ± {half:.2f} points")
    lines += ["", "Predicted against scored (the approximation's value of a position less the score its policy "
              "then made on the benchmark's dice, mean and 95% interval; the correction measured afresh at each "
              "position, as `best` does):", "",
              "| value | at | predicted - scored |", "|---|---|---:|"]
    for name, (mean, half) in six["honesty"].items():
        what, _, when = name.partition(", ")
        label = "relaxation" if what == "relaxation" else "corrected by rollouts"
        lines.append(f"| {label} | {when or 'the start'} | {mean:+.2f} ± {half:.2f} |")
    lines += ["", f"Standard deviation of the approximation's final score: {six['spread']:.1f} points.", "",
              "Rank distribution of the approximation's games: " +
              ", ".join(f"{name} {share:.0%}" for name, share in six["ranks"].items()), ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="six-card games per policy")
    parser.add_argument("--short", type=int, default=15, help="rolls of the short game of the gap measurement")
    parser.add_argument("--max-states", type=int, default=50_000, help="largest two-card hand solved exactly")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = DiceCards()
    print("gap to exact:", flush=True)
    gap_rows = gaps(game, game.rolls, args.max_states) + gaps(DiceCards(rolls=args.short), args.short, args.max_states)
    print("six-card games:", flush=True)
    six = six_card_games(game, args.games, args.seed)
    RESULTS.mkdir(parents=True, exist_ok=True)
    with open(RESULTS / "approximation-gaps.csv", "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(gap_rows[0]))
        writer.writeheader()
        writer.writerows(gap_rows)
    data = {"gaps": gap_rows, "six_cards": {k: v for k, v in six.items() if k not in ("scores", "predictions")},
            "predictions": six["predictions"],
            "scores": six["scores"], "args": vars(args)}
    write_report(RESULTS / "approximation", markdown(gap_rows, six, args), data)


if __name__ == "__main__":
    main()
