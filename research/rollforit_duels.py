"""Roll For It! study 3: the first player's advantage and the strength of the strategies, 2 to 8 players.

Two kinds of match:

* **turn order** — ``human`` in every seat (:func:`dicetree.solver.match.play_game`, one game a deal, as
  every rotation would play the same game); each game's win is credited to the place in the turn
  order (1st to move, 2nd, ...) of its winner (shared wins split), so the table shows how much
  moving first is worth at each player count (fair: 1/N each);
* **strength** — :class:`dicetree.solver.match.Match` (common random numbers, seats rotated): ``race`` (one
  ply on the evaluation) against ``human`` (and ``random`` where the count leaves a seat), and at
  2, 4 and 8 players ``solver:depth=1`` (the search; paranoid beyond two players) against
  ``race``; each strategy's share of the wins with a 95% interval (Student's t over the deals),
  against its fair share. The solver's matches are kept as cells (``benchmarks/.cells/``): a run
  stopped half-way resumes from those finished.

Usage::

    .venv/bin/python research/rollforit_duels.py            # a few minutes
    .venv/bin/python research/rollforit_duels.py --quick

Writes ``results/rollforit/duels.{md,json}`` and ``duels.png`` (the turn-order table as a heatmap).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import cell, write_report

from dicetree.solver.figures import heatmap
from dicetree.solver.games.rollforit import RollForIt
from dicetree.solver.games.rollforit.strategies import HumanStrategy
from dicetree.solver.match import Match, play_game

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rollforit"
COUNTS = (2, 3, 4, 5, 6, 7, 8)


def turn_order(players: int, games: int, seed: int) -> dict:
    """Win shares by place in the turn order, ``human`` everywhere, with 95% intervals."""
    game = RollForIt(players=players)
    shares, turns = [[] for _ in range(players)], []
    for deal in range(games):
        start = game.new_game(random.Random(f"{seed}:start:{deal}"))
        record = play_game(game, (HumanStrategy(),), (0,) * players, start, random.Random(f"{seed}:dice:{deal}"),
                           (random.Random(0),))
        turns.append(record.turns)
        for place in range(players):
            shares[place].append(record.returns[(start.mover + place) % players])
    out = []
    for values in shares:
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
        out.append((mean, half))
    return {"shares": out, "games": games, "turns": statistics.fmean(turns) / players}


def strength(players: int, games: int, seed: int) -> dict:
    """Each strategy's win share (95% interval, Student's t over deals) in race vs human (vs random)."""
    lineup = {3: ("race", "human", "random"), 5: ("race",) + ("human",) * 4, 7: ("race",) + ("human",) * 6}.get(
        players, ("race", "human"))
    game = RollForIt(players=players)
    k = len(lineup)
    return shares(Match(game, lineup, games=games - games % k, seed=seed).run(), lineup)


def shares(result, lineup: tuple[str, ...]) -> dict:
    """Each strategy's share of a match's wins, with its 95% interval and fair share."""
    rows = []
    for index, spec in enumerate(lineup):
        low, high = result.interval(index)
        rows.append({"strategy": spec, "share": result.share(index), "low": low, "high": high,
                     "fair": result.fair_share(index)})
    return {"lineup": lineup, "games": result.games, "rows": rows}


SOLVER_GAMES = {2: 40, 4: 24, 8: 16}
"""The solver's duels against ``race``: games at each count (a depth-1 choice costs 40 to 60 ms)."""


def solver_strength(players: int, games: int, seed: int) -> dict:
    """``solver:depth=1`` (paranoid beyond two players) against ``race``, seats shared equally."""
    game = RollForIt(players=players)
    lineup = ("solver:depth=1", "race")
    return shares(Match(game, lineup, games=games, seed=seed).run(jobs=2), lineup)


def strength_lines(players: int, duel: dict) -> list[str]:
    """The table rows of one strength match: each strategy's share (its seats together)."""
    lines = []
    for name in dict.fromkeys(duel["lineup"]):
        rows = [row for row in duel["rows"] if row["strategy"] == name]
        share, fair = sum(r["share"] for r in rows), sum(r["fair"] for r in rows)
        interval = f"{rows[0]['low']:.1%} to {rows[0]['high']:.1%}" if len(rows) == 1 else f"({len(rows)} seats)"
        lines.append(f"| {players} | {' / '.join(duel['lineup'])} | {duel['games']} | {name} | "
                     f"{share:.1%} | {interval} | {fair:.1%} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    order_games, strength_games = (8, 8) if args.quick else (200, 70)
    started = time.perf_counter()
    data = {"seed": args.seed, "turn_order": {}, "strength": {}}
    order_rows, strength_rows = [], []
    table = np.full((len(COUNTS), max(COUNTS)), np.nan)
    for i, players in enumerate(COUNTS):
        order = turn_order(players, order_games, args.seed)
        data["turn_order"][players] = order
        cells = ", ".join(f"{m:.1%} ± {h:.1%}" for m, h in order["shares"])
        order_rows.append(f"| {players} | {order['games']} | {order['turns']:.1f} | {1 / players:.1%} | {cells} |")
        table[i, :players] = [m for m, _ in order["shares"]]
        duels = [strength(players, strength_games, args.seed)]
        if players in SOLVER_GAMES:
            games = 4 if args.quick else SOLVER_GAMES[players]
            duels.append(cell("rollforit_duels", f"solver-{players}-{games}-{args.seed}",
                              partial(solver_strength, players, games, args.seed)))
        data["strength"][players] = duels
        for duel in duels:
            strength_rows.extend(strength_lines(players, duel))
    data["seconds"] = round(time.perf_counter() - started, 1)
    heatmap(RESULTS / ("duels-quick.png" if args.quick else "duels.png"), table, list(COUNTS),
            list(range(1, max(COUNTS) + 1)), title="Win share by place in the turn order (human in every seat)",
            xlabel="place in the turn order (1 = moves first)", ylabel="players", cbar_label="win share",
            annotations=[["" if np.isnan(v) else f"{v:.0%}" for v in row] for row in table], cmap="viridis",
            vmin=0.0, vmax=0.6)
    markdown = "\n".join([
        "# Roll For It!: the first player's advantage and the strength of the strategies",
        "",
        f"Seed {args.seed}; default deck and rules (gold deck for 2-4 players, both for 5-8). Shares with 95% "
        "intervals; shared wins split.",
        "",
        "## Turn order (`human` in every seat)",
        "",
        "| players | games | rounds a game | fair | win share by place in the turn order (1st, 2nd, ...) |",
        "|---|---|---|---|---|",
        *order_rows,
        "",
        "## Strength (each deal played once per rotation of the seats)",
        "",
        "| players | lineup | games | strategy | win share | 95% CI | fair share |",
        "|---|---|---|---|---|---|---|",
        *strength_rows,
        "",
        f"{data['seconds']} s.",
    ])
    write_report(RESULTS / ("duels-quick" if args.quick else "duels"), markdown, data)


if __name__ == "__main__":
    main()
