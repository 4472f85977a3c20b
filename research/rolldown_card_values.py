"""What each RolldownBeta card is worth in hand: exactly in small endgames, and played out from the round start.

Two measurements (issue 14, part 3):

* **Exact, 2 dice a side.** For each rank, the exact winning chance of the mover holding that one
  card (the opponent none) less the same dice without cards, averaged over every position of every
  table of 2 dice a side (the mover deciding, both past their first turn); and the same with the
  card in the opponent's hand. The tables with a card are built into ``--card-store`` where missing
  (about 60 million positions, a few minutes); the ones without are read from ``--tables``.
* **Played out from the round start** (six dice a side): for each of ``--deals`` random round starts
  (:meth:`Rolldown.new_game`), player A's dealt hand is cut to its first two cards, and the round is
  played once with those two only and once with each rank added as a third card (15 games a deal),
  the same dice stream in all of them (common random numbers), B's hand as dealt, both seats played
  by ``--strategy`` (default ``fitted:depth=1,all-seeing``: the question is the card, not the hidden
  hand). A rank's worth is A's win rate with it less A's win rate with two cards, with a 95%
  interval paired by deal (Student's t). A rank whose third copy the deal would not allow (both
  copies already in the hands) is still added: a single round draws no more cards.

Every deal's 15 results are kept in ``benchmarks/.cells/rolldown_card_values/`` as they finish, so a
stopped run resumes.

Usage::

    .venv/bin/python research/rolldown_card_values.py --tables /work/tables --card-store /work/tables-rdeval
    .venv/bin/python research/rolldown_card_values.py --deals 2 --quick      # a minute, no files

Writes ``results/rolldown-hidden/card-values.{md,json}``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))  # report.py, shared with the benchmarks

import numpy as np
from report import CELLS, report_or_print

from dicetree.cache.store import TableStore
from dicetree.solver.games import load_game
from dicetree.solver.games.rolldown.cards import CARD_LETTERS, CARD_NAMES, DECK_COPIES, DIE_SIDES
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature
from dicetree.solver.match import play_game
from dicetree.solver.results import deal_interval
from dicetree.solver.strategies import make_strategy, parse_strategy

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-hidden"
RANKS = sorted(DECK_COPIES)


def rank_name(rank: int) -> str:
    return CARD_NAMES.get(rank, CARD_LETTERS[rank])


def exact_card_values(tablebase: Tablebase, card_base: Tablebase) -> dict[int, dict[str, float]]:
    """Per rank: the mean exact gain of holding it (mover, then opponent) over the 2-dice tables."""
    dice = [Signature(m, t) for m in itertools.combinations(DIE_SIDES, 2) for t in itertools.combinations(DIE_SIDES, 2)]
    wanted = [Signature(sig.mine, sig.theirs, hands[0], hands[1]) for sig in dice for rank in RANKS
              for hands in (((rank,), ()), ((), (rank,)))]
    card_base.build(roots=wanted)
    out = {}
    for rank in RANKS:
        gains = {"mover": [0.0, 0], "opponent": [0.0, 0]}
        for sig in dice:
            bare = np.asarray(tablebase.table(sig), dtype=float)
            for who, with_card in (("mover", Signature(sig.mine, sig.theirs, (rank,), ())),
                                   ("opponent", Signature(sig.mine, sig.theirs, (), (rank,)))):
                values = np.asarray(card_base.table(with_card), dtype=float)
                gains[who][0] += float(np.sum(values - bare))
                gains[who][1] += bare.size
        out[rank] = {who: total / count for who, (total, count) in gains.items()}
    return out


def deal_results(game, strategy_spec: str, deal: int, seed: int) -> dict[str, float]:
    """A's score in the deal's 15 games: two cards (``"-"``) and each rank added as the third."""
    start = game.new_game(random.Random(f"{seed}:start:{deal}"))
    two = tuple(sorted(start.hands[0][:2]))
    strategies = [make_strategy(game, parse_strategy(strategy_spec, game)) for _ in (0, 1)]
    scores = {}
    for rank in [None] + RANKS:
        hand = two if rank is None else tuple(sorted(two + (rank,)))
        state = start._replace(hands=(hand, start.hands[1]))
        streams = [random.Random(f"{seed}:choice:{deal}:{side}") for side in (0, 1)]
        record = play_game(game, strategies, (0, 1), state, random.Random(f"{seed}:dice:{deal}"), streams)
        scores["-" if rank is None else CARD_LETTERS[rank]] = record.scores[0]
    return scores


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default=None, help="tables without cards, read (default: $DICETREE_TABLES)")
    parser.add_argument("--card-store", default=None, help="where the tables with a card are built (default: --tables)")
    parser.add_argument("--deals", type=int, default=24, help="round starts played out (15 games each)")
    parser.add_argument("--strategy", default="fitted:depth=1,all-seeing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="print only: no results, no exact part")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    game = load_game("rolldown")

    exact = {}
    if not args.quick:
        tablebase = Tablebase(TableStore(args.tables), ace="online")
        card_base = Tablebase(TableStore(args.card_store), ace="online") if args.card_store else tablebase
        exact = exact_card_values(tablebase, card_base)
        print(f"exact part done, {time.perf_counter() - started:.0f} s", flush=True)

    log = CELLS / "rolldown_card_values" / f"{args.strategy.replace(':', '_').replace(',', '_')}-{args.seed}.jsonl"
    kept = {}
    if log.exists() and not args.quick:
        for line in log.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                kept[entry["deal"]] = entry["scores"]
    log.parent.mkdir(parents=True, exist_ok=True)
    for deal in range(args.deals):
        if deal not in kept:
            kept[deal] = deal_results(game, args.strategy, deal, args.seed)
            if not args.quick:
                with log.open("a") as out:
                    out.write(json.dumps({"deal": deal, "scores": kept[deal]}) + "\n")
            print(f"deal {deal + 1}/{args.deals}, {time.perf_counter() - started:.0f} s", flush=True)
    deals = [kept[d] for d in range(args.deals)]

    played = {}
    for rank in RANKS:
        letter = CARD_LETTERS[rank]
        gains = [d[letter] - d["-"] for d in deals]
        # the interval of a mean gain in [-1, 1]: shifted to [0, 1] for the deal interval, and back
        low, high = deal_interval([(g + 1) / 2 for g in gains], sum((g + 1) / 2 for g in gains), len(gains))
        played[letter] = {"win_rate": sum(d[letter] for d in deals) / len(deals), "gain": sum(gains) / len(gains),
                          "low": 2 * low - 1, "high": 2 * high - 1}
    two_cards = sum(d["-"] for d in deals) / len(deals)

    rows = []
    for rank in RANKS:
        letter = CARD_LETTERS[rank]
        p = played[letter]
        exact_cells = (f"{exact[rank]['mover']:+.4f} | {exact[rank]['opponent']:+.4f}" if exact else "– | –")
        rows.append(f"| {rank_name(rank)} | {exact_cells} | {p['win_rate']:.1%} | {p['gain']:+.3f} | "
                    f"{p['low']:+.3f} to {p['high']:+.3f} |")
    markdown = "\n".join([
        "# RolldownBeta: what each card is worth in hand", "",
        f"Seed {args.seed}; {args.deals} round starts played out 15 times each by `{args.strategy}` on both "
        f"seats (A with its first two dealt cards, then with each rank added); {time.perf_counter() - started:.0f} s "
        f"(deals kept from earlier runs count as 0; load average at the end {os.getloadavg()[0]:.1f} on 2 shared cores). "
        "Exact: the mean gain in the mover's winning chance over every position of the 2-dice-a-side tables "
        "(one card in a hand against none).", "",
        "| card | exact gain, in the mover's hand (2 dice) | in the opponent's | A's win rate, round start "
        "| gain over two cards | 95% interval (paired by deal) |",
        "|---|---:|---:|---:|---:|---|",
        *rows, "",
        f"A's win rate with its two cards only: {two_cards:.1%} over {len(deals)} games; the mean gain of a "
        f"third card over the 14 ranks: {sum(p['gain'] for p in played.values()) / len(played):+.3f}.", "",
        "Command: `.venv/bin/python research/rolldown_card_values.py --tables /work/tables "
        f"--card-store /work/tables-rdeval --deals {args.deals} --seed {args.seed}`.",
    ])
    data = {"seed": args.seed, "deals": args.deals, "strategy": args.strategy, "two_cards_win_rate": two_cards,
            "played": played, "exact_2dice": {CARD_LETTERS[r]: v for r, v in exact.items()}}
    report_or_print(RESULTS / "card-values", markdown, data, quick=args.quick)


if __name__ == "__main__":
    main()
