"""Roll For It! study 4: max^n against the paranoid reduction, at three and four players.

Both searches at depth 2 (``solver:depth=2,search=maxn`` and ``...,search=paranoid``) in one
:class:`dicetree.solver.match.Match` each (common random numbers: the games of a deal share the
start and the dice stream; the seats rotated so each strategy plays every seat):

* **three players** — max^n, paranoid and ``race`` (one ply on the evaluation) as the common third
  seat; what counts is max^n's share of the wins less paranoid's, paired by deal (95% interval,
  Student's t over the deals);
* **four players** — max^n and paranoid two seats each (fair share 50%);
* **agreement** — why the duels barely tell them apart: positions from games of ``race`` in every
  seat (every fourth decision with a choice), each searched at depth 2 by both; how often they pick
  the same move, and where they differ, what each search's own values say the other's pick loses.

Each finished deal is kept in ``benchmarks/.cells/rollforit_maxn/`` (a match log): a run stopped
half-way resumes from the deals it finished.

Usage::

    nice -n 5 .venv/bin/python research/rollforit_maxn.py --jobs 2     # about 10 CPU minutes
    nice -n 5 .venv/bin/python research/rollforit_maxn.py --jobs 2 --games3 30 --games4 16  # more deals
    .venv/bin/python research/rollforit_maxn.py --quick                # one deal each, a smoke test

Writes ``results/rollforit/maxn.{md,json}`` (``maxn-quick`` with ``--quick``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import CELLS, cell, write_report

from dicetree.solver.game import CHANCE, TERMINAL
from dicetree.solver.games.rollforit import RollForIt
from dicetree.solver.games.rollforit.strategies import RaceStrategy
from dicetree.solver.match import Match
from dicetree.solver.maxn import MaxnSearcher
from dicetree.solver.results import MatchLog, wilson_interval
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rollforit"
MAXN, PARANOID = "solver:depth=2,search=maxn", "solver:depth=2,search=paranoid"
MATCHES = {3: (MAXN, PARANOID, "race"), 4: (MAXN, PARANOID)}
"""Players -> the strategies in their seats (a depth-2 choice costs 0.15 to 0.35 CPU s: a three-player
game about 18 CPU s, a four-player one about 40)."""
GAMES = {3: 15, 4: 8}
"""Games at each count by default (``--games3``, ``--games4``): a rerun with more plays only the new
deals (a deal's games depend only on the seed and its index)."""


def paired_difference(result, first: int, second: int) -> tuple[float, float, float]:
    """The mean over deals of strategy ``first``'s share of the wins less ``second``'s, with its 95%
    interval (Student's t over the deals: common random numbers pair them)."""
    from scipy.stats import t

    by_deal: dict[int, float] = {}
    for record in result.records:
        by_deal[record.deal] = by_deal.get(record.deal, 0.0) + record.scores[first] - record.scores[second]
    rotations = len(result.specs)
    values = [v / rotations for v in by_deal.values()]
    n = len(values)
    mean = math.fsum(values) / n
    spread = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    if spread == 0:  # every deal the same: no spread to estimate, no interval claimed
        return mean, math.nan, math.nan
    half = float(t.ppf(0.975, n - 1)) * spread / math.sqrt(n)
    return mean, mean - half, mean + half


AGREEMENT_POSITIONS = 40
"""Positions a player count in the agreement part (a depth-2 search by each: about 0.5 CPU s)."""


def agreement(players: int, positions: int, seed: int) -> dict:
    """How often depth-2 max^n and paranoid pick the same move, over decisions of ``race`` games."""
    game = RollForIt(players=players)
    race, rng = RaceStrategy(), random.Random(f"{seed}:agreement:{players}")
    found: list = []
    while len(found) < positions:
        state, decisions = game.new_game(rng), 0
        while game.current_player(state) != TERMINAL and len(found) < positions:
            player = game.current_player(state)
            if player == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            options = game.legal_actions(state)
            decisions += 1
            if len(options) > 1 and decisions % 4 == 0:
                found.append(state)
            state = game.apply(state, race.choose(game, state, player, options, rng))
    maxn, paranoid = MaxnSearcher(game, cache_slots=2**18), Searcher(game, cache_slots=2**18)
    same, maxn_says, paranoid_says, cpu = 0, [], [], {"maxn": 0.0, "paranoid": 0.0}
    for state in found:
        started = time.process_time()
        by_maxn = {m.name: m.value for m in maxn.search(state, depth=2).moves}
        middle = time.process_time()
        by_paranoid = {m.name: m.value for m in paranoid.search(state, depth=2).moves}
        cpu["maxn"] += middle - started
        cpu["paranoid"] += time.process_time() - middle
        pick_maxn, pick_paranoid = max(by_maxn, key=by_maxn.get), max(by_paranoid, key=by_paranoid.get)
        if pick_maxn == pick_paranoid or by_maxn[pick_maxn] - by_maxn[pick_paranoid] < 1e-12:
            same += 1
        else:
            maxn_says.append(by_maxn[pick_maxn] - by_maxn[pick_paranoid])
            paranoid_says.append(by_paranoid[pick_paranoid] - by_paranoid[pick_maxn])
    low, high = wilson_interval(same, len(found))
    return {"players": players, "positions": len(found), "same": same, "low": low, "high": high,
            "maxn_loss_of_paranoid_pick": math.fsum(maxn_says) / len(maxn_says) if maxn_says else 0.0,
            "paranoid_loss_of_maxn_pick": math.fsum(paranoid_says) / len(paranoid_says) if paranoid_says else 0.0,
            "cpu_ms_per_search": {name: 1000 * total / len(found) for name, total in cpu.items()}}


def run_match(players: int, lineup: tuple[str, ...], games: int, seed: int, jobs: int, quick: bool) -> dict:
    """One match, resumed from its log; each strategy's share with its interval, the paired
    difference max^n less paranoid, and the time each took a decision."""
    game = RollForIt(players=players)
    match = Match(game, lineup, games=games, seed=seed)
    log_path = CELLS / "rollforit_maxn" / f"{players}p-{seed}{'-quick' if quick else ''}.jsonl"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = MatchLog(log_path, {"players": players, "strategies": list(lineup), "seed": seed})
    done = [record for record in log.finished_records(match.rotations) if record.deal < match.deals]
    if done:
        print(f"  {players} players: {len(done) // match.rotations} of {match.deals} deals kept from {log_path}")
    result = match.run(jobs=jobs, done=done, on_played=log.append_records)
    decisions, thinking = result.totals("decisions"), result.totals("thinking")
    rows = [{"strategy": str(spec), "share": result.share(i), "interval": list(result.interval(i)),
             "fair": result.fair_share(i), "decisions": int(decisions[i]),
             "ms_per_decision": 1000 * thinking[i] / max(1, decisions[i])} for i, spec in enumerate(result.specs)]
    mean, low, high = paired_difference(result, 0, 1)
    turns = sum(record.turns for record in result.records) / len(result.records)
    return {"players": players, "games": result.games, "deals": result.deals, "rows": rows,
            "maxn_less_paranoid": {"mean": mean, "low": low, "high": high}, "turns_per_game": turns}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one deal a match (a smoke test)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games3", type=int, default=GAMES[3], help="games at three players (a multiple of 3)")
    parser.add_argument("--games4", type=int, default=GAMES[4], help="games at four players (even)")
    parser.add_argument("--positions", type=int, default=AGREEMENT_POSITIONS,
                        help="positions a player count in the agreement part")
    args = parser.parse_args()
    counts = {3: args.games3, 4: args.games4}
    started = time.process_time(), time.perf_counter()
    data: dict = {"seed": args.seed, "matches": []}
    lines = []
    for players, lineup in MATCHES.items():
        games = len(lineup) if args.quick else counts[players]
        found = run_match(players, lineup, games, args.seed, args.jobs, args.quick)
        data["matches"].append(found)
        for row in found["rows"]:
            low, high = row["interval"]
            lines.append(f"| {players} | {found['games']} | {row['strategy']} | {row['share']:.1%} | "
                         f"{low:.1%} to {high:.1%} | {row['fair']:.1%} | {row['ms_per_decision']:,.0f} |")
        diff = found["maxn_less_paranoid"]
        spread = "every deal even: no spread" if math.isnan(diff["low"]) else \
            f"{diff['low']:+.1%} to {diff['high']:+.1%}"
        lines.append(f"| {players} | | **max^n less paranoid** (paired by deal) | **{diff['mean']:+.1%}** | "
                     f"{spread} | 0 | |")
    agree_lines = []
    for players in MATCHES:
        positions = 4 if args.quick else args.positions
        found = cell("rollforit_maxn", f"agreement-{players}p-{positions}-{args.seed}",
                     partial(agreement, players, positions, args.seed))
        data.setdefault("agreement", []).append(found)
        agree_lines.append(f"| {players} | {found['positions']} | {found['same'] / found['positions']:.0%} | "
                           f"{found['low']:.0%} to {found['high']:.0%} | {found['maxn_loss_of_paranoid_pick']:.4f} | "
                           f"{found['paranoid_loss_of_maxn_pick']:.4f} | {found['cpu_ms_per_search']['maxn']:,.0f} | "
                           f"{found['cpu_ms_per_search']['paranoid']:,.0f} |")
    data["cpu_seconds_main_process"] = round(time.process_time() - started[0], 1)
    data["seconds"] = round(time.perf_counter() - started[1], 1)
    command = (f"nice -n 5 .venv/bin/python research/rollforit_maxn.py --jobs {args.jobs} --seed {args.seed} "
               f"--games3 {args.games3} --games4 {args.games4} --positions {args.positions}"
               + (" --quick" if args.quick else ""))
    markdown = "\n".join([
        "# Roll For It!: max^n against the paranoid reduction",
        "",
        f"`{command}` ({data['seconds']:,.0f} s for this run: deals and cells finished by earlier runs of the "
        "command are read from `benchmarks/.cells/rollforit_maxn/`, not played again). Default deck (its faces are assumed) and "
        "rules; both searches at depth 2; common random numbers (a deal's games share the start and the "
        "dice), seats rotated. Shares of the wins with 95% intervals (Student's t over the deals); "
        "shared wins split.",
        "",
        "| players | games | strategy | win share | 95% interval | fair share | ms a decision (wall, shared machine) |",
        "|---|---|---|---|---|---|---|",
        *lines,
        "",
        "At three players `race` (one ply on the evaluation) holds the third seat of every game, so the two "
        "searches meet the same opponent; the line in bold is max^n's share less paranoid's, each deal's "
        "games together (a positive value favours max^n). Where both searches pick the same moves (below), "
        "a deal's games differ only by who sits where.",
        "",
        "## Agreement: do the two searches pick the same move?",
        "",
        "Positions from games of `race` in every seat (every fourth decision with a choice), each searched at "
        "depth 2 by both. Where the picks differ: what max^n's values say paranoid's pick loses, and what "
        "paranoid's values say max^n's pick loses (win chance, mean over those positions). CPU time of one "
        "depth-2 search by each (process time, so the machine's other load counts little).",
        "",
        "| players | positions | same move | 95% interval (Wilson) | max^n's loss of paranoid's pick | "
        "paranoid's loss of max^n's pick | CPU ms a search, max^n | CPU ms a search, paranoid |",
        "|---|---|---|---|---|---|---|---|",
        *agree_lines,
    ])
    write_report(RESULTS / ("maxn-quick" if args.quick else "maxn"), markdown, data)


if __name__ == "__main__":
    main()
