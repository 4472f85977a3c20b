"""Calibrate Roll For It!'s leaf evaluation against played games: Brier score against a coin.

Games are played through the one play loop (:func:`dicetree.solver.match.play_game`) with the game's own
``human`` strategy in every seat (it needs no evaluation, so the labels do not depend on the model
being measured); a recording wrapper keeps every decision position. Each position is labelled with
the mover's final share of the win. The evaluation's estimate of the mover's win chance is scored
by the Brier score, against the no-knowledge forecast 1/N ("a coin" for two players: 0.25). The
two constants of the model (``SHARPNESS``, ``PACE_FACTOR`` in the evaluation module) are chosen
on the first half of the games by a small grid and checked on the second half.

Usage::

    .venv/bin/python research/rollforit_evaluation.py            # 2 and 4 players, ~1 minute
    .venv/bin/python research/rollforit_evaluation.py --quick    # a smoke test

Writes ``results/rollforit/evaluation.{md,json}``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import write_report

from dicetree.solver.games.rollforit import RollForIt, evaluation
from dicetree.solver.games.rollforit.strategies import HumanStrategy
from dicetree.solver.match import play_game
from dicetree.solver.strategies import Strategy

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rollforit"
SHARPNESS_GRID = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)
PACE_GRID = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0)


class Recorder(Strategy):
    """Plays as the strategy it wraps and keeps (state, mover) of every decision."""

    def __init__(self, inner: Strategy, seen: list):
        self.inner, self.seen = inner, seen

    def choose(self, game, state, player, options, rng):
        self.seen.append(state)
        return self.inner.choose(game, state, player, options, rng)


def labelled_positions(game: RollForIt, games: int, seed: int, every: int) -> list[list[tuple]]:
    """Per game: (position, mover's share of the win) for every ``every``-th decision."""
    out = []
    for g in range(games):
        seen: list = []
        seats = [Recorder(HumanStrategy(), seen)]
        start = game.new_game(random.Random(f"{seed}|{g}"))
        record = play_game(game, seats, (0,) * game.num_players, start, random.Random(f"{seed}|{g}|dice"),
                           (random.Random(0),))
        out.append([(s, record.returns[s.mover]) for s in seen[::every]])
    return out


class ScoreOnly(evaluation.Race):
    """The baseline that knows only the scores and the turn order: no card, no die on a card."""

    def race_time(self, state, player):
        n = self.game.num_players
        return ((player - state.mover) % n) / n + max(0, 40 - state.scores[player]) / self.pace


def brier(times: list[list[float]], labels: list[float], movers: list[int], sharpness: float) -> float:
    """The Brier score of the mover's win chance from the race times at ``sharpness``."""
    errors = [(evaluation.win_chances(t, sharpness)[m] - y) ** 2 for t, y, m in zip(times, labels, movers)]
    return sum(errors) / len(errors)


def fit(game: RollForIt, train: list[tuple], check: list[tuple]) -> dict:
    """Brier scores on ``check`` of the module's constants and of the grid's best on ``train``."""
    def times_of(positions, pace, model=evaluation.Race):
        race = model(game, pace_factor=pace)
        return [race.race_times(s) for s, _ in positions]

    labels = {name: ([y for _, y in ps], [s.mover for s, _ in ps]) for name, ps in (("train", train), ("check", check))}
    grid = {}
    for pace in PACE_GRID:
        times = times_of(train, pace)
        for k in SHARPNESS_GRID:
            grid[(k, pace)] = brier(times, *labels["train"], k)
    best = min(grid, key=grid.__getitem__)
    current = (evaluation.SHARPNESS, evaluation.PACE_FACTOR)
    return {"grid": grid, "best": best, "current": current,
            "fitted": brier(times_of(check, best[1]), *labels["check"], best[0]),
            "module": brier(times_of(check, current[1]), *labels["check"], current[0]),
            "score_only": min(brier(times_of(check, pace, ScoreOnly), *labels["check"], k)
                              for pace in PACE_GRID for k in SHARPNESS_GRID)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = 40 if args.quick else 200
    rows, data = [], {"games_per_count": games, "seed": args.seed, "strategy": "human in every seat", "counts": {}}
    started = time.perf_counter()
    for players in (2, 4):
        game = RollForIt(players=players)
        played = labelled_positions(game, games, args.seed, every=3)
        train = [p for g in played[: games // 2] for p in g]
        check = [p for g in played[games // 2:] for p in g]
        coin = sum((1 / players - y) ** 2 for _, y in check) / len(check)
        result = fit(game, train, check)
        grid, best, current, fitted, now, scores_only = (
            result[k] for k in ("grid", "best", "current", "fitted", "module", "score_only"))
        rows.append(f"| {players} | {len(train):,} / {len(check):,} | {coin:.4f} | {scores_only:.4f} | {now:.4f} | "
                    f"{best[0]:g}, {best[1]:g} | {fitted:.4f} |")
        data["counts"][players] = {"train_positions": len(train), "check_positions": len(check), "coin": coin,
                                   "module": {"sharpness": current[0], "pace": current[1], "brier": now},
                                   "fitted": {"sharpness": best[0], "pace": best[1], "brier": fitted},
                                   "score_only_best_on_check": scores_only,
                                   "grid": {f"{k},{v}": b for (k, v), b in grid.items()}}
    data["seconds"] = round(time.perf_counter() - started, 1)
    markdown = "\n".join([
        "# Roll For It!: calibration of the leaf evaluation",
        "",
        f"{games} games per player count, `human` in every seat (seed {args.seed}); every third decision "
        "position, labelled with the mover's final share of the win. Brier score of the mover's estimated "
        "win chance (lower is better) against the no-knowledge forecast 1/N; constants fitted on the first "
        "half of the games by a grid, scored on the second half.",
        "",
        "| players | positions (fit / check) | 1/N forecast | scores only | module's constants | fitted sharpness, pace | fitted |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "'Scores only' is the same race without cards (40 less the score at the table's pace, the turn "
        "order), its constants chosen on the check half itself (a bound in its favour): what the cards add.",
        "",
        f"Module constants: SHARPNESS = {evaluation.SHARPNESS}, PACE_FACTOR = {evaluation.PACE_FACTOR}. "
        f"{data['seconds']} s.",
    ])
    write_report(RESULTS / ("evaluation-quick" if args.quick else "evaluation"), markdown, data)


if __name__ == "__main__":
    main()
