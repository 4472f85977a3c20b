"""What RolldownBeta's hidden hand costs, and how often averaging over hands changes the move.

Two measurements (issue 14, part 3):

* **The cost of not seeing** — the same strategy seeing only its own hand (its search averaged over
  ``hands`` possible opponent hands, "perfect-information Monte Carlo") against itself seeing both
  hands (``all-seeing``), from random round starts, common random numbers (each deal twice, seats
  swapped), with the 95% interval of the seeing-only side's win rate.
* **How often the move changes** — positions met in those games (every decision of the first
  ``positions`` deals, the mover's view): the averaged search's best move against the all-seeing
  search's best on the true position, same depth; the share that differ and the all-seeing
  search's loss for the averaged move (what the hidden hand makes the mover give up, as the
  all-seeing search values it).

Each measurement is a cell kept in ``benchmarks/.cells/`` (a stopped run resumes); a duel also keeps
every finished deal in ``benchmarks/.cells/rolldown_hidden_hands/<cell>.jsonl``, so a duel stopped
half-way resumes with the deals it lacks.

Usage::

    .venv/bin/python research/rolldown_hidden_hands.py             # about 30 minutes on 2 shared cores (the depth-1 cells take an hour more when not kept)
    .venv/bin/python research/rolldown_hidden_hands.py --quick     # ~1 minute

Writes ``results/rolldown-hidden/hidden-hands.{md,json}``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

from report import CELLS, cell, write_report

from dicetree.solver.analysis import analyse
from dicetree.solver.games import load_game
from dicetree.solver.match import Duel
from dicetree.solver.results import MatchLog
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-hidden"


def duel_cell(depth: int, hands: int, games: int, seed: int, log_name: str, turn_limit: int | None = None) -> dict:
    """The seeing-only strategy (A) against the all-seeing one (B), each finished deal kept in a log;
    a game still running after ``turn_limit`` decisions (default: the game's) is a draw."""
    game = load_game("rolldown")
    a, b = f"solver:depth={depth},hands={hands}", f"solver:depth={depth},all-seeing"
    log_path = CELLS / "rolldown_hidden_hands" / f"{log_name}.jsonl"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log = MatchLog(log_path, {"a": a, "b": b, "games": games, "seed": seed, "turn_limit": turn_limit})
    result = Duel(game, a, b, games=games, seed=seed, turn_limit=turn_limit).run(jobs=2, done=log.finished_records(2),
                                                          on_played=log.append_records)
    low, high = result.interval()
    return {"a": a, "b": b, "games": result.games, "rate": result.rate, "low": low, "high": high,
            "seconds": round(result.elapsed, 1), "turn_limit": result.turn_limit.turns,
            "stopped": sum(1 for record in result.records if record.stopped)}


def positions_cell(depth: int, hands: int, deals: int, seed: int) -> dict:
    """Averaged against all-seeing best moves on the positions of ``deals`` greedy games."""
    game = load_game("rolldown")
    searcher = Searcher(game, cache_slots=2**18)
    rng = random.Random(f"{seed}:positions")
    compared = differ = 0
    losses = []
    for deal in range(deals):
        state = game.new_game(random.Random(f"{seed}:start:{deal}"))
        while not game.is_terminal(state):
            if game.is_chance(state):
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            mover = game.current_player(state)
            seeing = searcher.search(state, depth=depth)
            view = game.observe(state, mover)
            averaged = analyse(game, view, depth=depth, searcher=searcher, hands_exact=hands, hand_samples=hands,
                               seed=rng.randrange(2**31))
            if len(game.legal_actions(state)) > 1:
                compared += 1
                value_of = {m.name: m.value for m in seeing.moves}
                if averaged.best != seeing.best.name:
                    differ += 1
                losses.append(seeing.value - value_of[averaged.best])
            state = game.apply(state, seeing.best.action)
    return {"positions": compared, "differ": differ, "mean_loss": statistics.fmean(losses) if losses else 0.0,
            "worst_loss": max(losses, default=0.0), "depth": depth, "hands": hands, "deals": deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    # (depth, hands, games or deals): a depth-2 decision averaged over 16 hands costs about 6 s here,
    # so the depth-2 duel (A averaging over 4 hands) is kept to what finishes in about an hour. Two
    # depth-2 searches can reroll back and forth for ever (endless play, a draw): at 2,000 decisions one
    # such game took most of 50 minutes, so the depth-2 duel stops games at 300 (a round takes 40 to 120).
    duel_plan = ((1, 16, 8, None),) if args.quick else ((1, 16, 200, None), (2, 4, 24, 300))
    move_plan = ((1, 16, 2), (2, 16, 2)) if args.quick else ((1, 16, 20), (2, 16, 6))
    duels = [cell("rolldown_hidden_hands", name, lambda depth=depth, hands=hands, games=games, name=name, limit=limit:
                  duel_cell(depth, hands, games, args.seed, name, limit))
             for depth, hands, games, limit in duel_plan
             for name in [f"duel-d{depth}-h{hands}-{games}-{args.seed}" + (f"-t{limit}" if limit else "")]]
    moves = [cell("rolldown_hidden_hands", f"moves-d{depth}-h{hands}-{deals}-{args.seed}",
                  lambda depth=depth, hands=hands, deals=deals: positions_cell(depth, hands, deals, args.seed))
             for depth, hands, deals in move_plan]
    duel_rows = [f"| `{d['a']}` | `{d['b']}` | {d['games']} | {d['rate']:.1%} | {d['low']:.1%} to {d['high']:.1%} "
                 f"| {d.get('turn_limit', 2000):,}" + (f" ({d['stopped']} stopped)" if 'stopped' in d else "") + " |" for d in duels]
    move_rows = [f"| {m['depth']} | {m['hands']} | {m['deals']} | {m['positions']} | {m['differ']} ({m['differ'] / max(m['positions'], 1):.1%}) "
                 f"| {m['mean_loss']:.4f} | {m['worst_loss']:.4f} |" for m in moves]
    markdown = "\n".join([
        "# RolldownBeta: what the hidden hand costs",
        "",
        f"Seed {args.seed}; single rounds from random round starts; objective `round` (win probability).",
        "",
        "## The same strategy, seeing only its own hand (A) or both (B)",
        "",
        "Common random numbers: each deal twice, seats swapped; 95% interval of A's win rate, paired by deal.",
        "",
        "| A | B | games | A's win rate | 95% CI | turn limit (games stopped there: draws) |",
        "|---|---|---|---|---|---|",
        *duel_rows,
        "",
        "## How often averaging over hands picks another move",
        "",
        "Every decision with a choice along the games counted (the all-seeing search's moves played): the best move "
        "of the search averaged over the opponent's possible hands, from the mover's view, against the best move "
        "of the same search seeing the true hand; the loss is the all-seeing search's value of its best less its "
        "value of the averaged pick.",
        "",
        "| depth | hands averaged | games | positions | different move | mean loss | worst loss |",
        "|---|---|---|---|---|---|---|",
        *move_rows,
        "",
        f"{time.perf_counter() - started:.0f} s (cells kept from earlier runs count as 0). Command: "
        f"`.venv/bin/python research/rolldown_hidden_hands.py{' --quick' if args.quick else ''}`.",
    ])
    write_report(RESULTS / ("hidden-hands-quick" if args.quick else "hidden-hands"), markdown,
                 {"seed": args.seed, "duels": duels, "moves": moves})


if __name__ == "__main__":
    main()
