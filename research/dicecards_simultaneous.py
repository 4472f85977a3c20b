"""The information edge of recording in seat order, measured exactly on small two-player hands of Dice Cards.

The rule text has every player record each roll at the same time; the game's model lets the second
seat see the first seat's record of the same roll before making its own. This script solves small
two-player games (each player one small card, a few rolls, ``objective=win``) exactly three ways,
by backward induction over (both players' marks and tickets, rolls to go):

* **in turn** (the model): at each roll the first seat records, then the second, having seen it:
  ``max_a min_b M[a][b]``;
* **at once** (the rule text): each roll is a simultaneous choice, a zero-sum matrix game solved by
  :func:`dicetree.solver.matrix_game.solve_matrix_game` (``M`` is the first seat's win share after both
  records, so the value is that of the stochastic game of simultaneous moves, Shapley's recursion);
* **reversed** (the second seat records first and is seen): ``min_b max_a M[a][b]``.

The edge of seeing is ``at once - in turn`` (what the first seat loses to being seen). With the same
card in both hands the game at once is symmetric, so its value is exactly 0.5: the script checks it.
The in-turn value is checked against the engine's own exact solver
(:func:`dicetree.solver.analysis.solved_exactly` on ``DiceCards(players=2)``) on the first case.

Usage::

    .venv/bin/python research/dicecards_simultaneous.py            # prints, writes results/dicecards/simultaneous.md
"""

from __future__ import annotations

import argparse
import json
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicetree.solver.analysis import solved_exactly
from dicetree.solver.games.dicecards.game import OUTCOMES, DiceCards
from dicetree.solver.games.dicecards.rules import after_record, final_score, records
from dicetree.solver.games.dicecards.state import RECORD
from dicetree.solver.matrix_game import solve_matrix_game

CASES = (
    ("HOP=- t0", "HOP=- t0", 12), ("DBL=- t0", "DBL=- t0", 8), ("HOP=- t0", "DBL=- t0", 10), ("HOP=- t0", "HOP=- t0", 20),
    ("HOP=- DBL=- t0", "HOP=- DBL=- t0", 6),
    # Late Solitaire: each player lacks the Black 6 and the Red 6 (two columns), the first seat one
    # Hopscotch square ahead. A double 6 completes either column; the other then waits for its own die.
    ("SOL=R5,B4,B5,R4,B3,R2,B1,R3,B2,R1 HOP=1 t0", "SOL=R5,B4,B5,R4,B3,R2,B1,R3,B2,R1 HOP=- t0", 6),
    ("SOL=R5,B4,B5,R4,B3,R2,B1,R3,B2,R1 HOP=1 t0", "SOL=R5,B4,B5,R4,B3,R2,B1,R3,B2,R1 HOP=- t0", 12),
)
"""(first seat's hand, second seat's hand, rolls to go): small games, so that every state can be solved."""


class TwoSeats:
    """A two-player position (``first`` and ``second``: each seat's hand as position text) with
    ``rolls`` to go, solved by backward induction the three ways (values: the first seat's win share)."""

    def __init__(self, game: DiceCards, first: str, second: str, rolls: int) -> None:
        self.state = game.parse(f"{first} | {second} {game.rolls - rolls}/{game.rolls} roll")
        self.hands = tuple(game.hand(self.state, player) for player in (0, 1))
        self.rolls = rolls
        self.counts = {"matrix games": 0, "mixed": 0}
        self.value = lru_cache(maxsize=None)(self._value)

    def start(self) -> tuple:
        first, second = self.state.seat(0), self.state.seat(1)
        return first.marks, first.tickets, second.marks, second.tickets

    def share(self, marks_a, tickets_a, marks_b, tickets_b) -> float:
        a = (final_score(self.hands[0], marks_a, tickets_a), tickets_a)
        b = (final_score(self.hands[1], marks_b, tickets_b), tickets_b)
        return 1.0 if a > b else 0.5 if a == b else 0.0

    def _value(self, way: str, marks_a, tickets_a, marks_b, tickets_b, left: int) -> float:
        """Before a roll with ``left`` rolls to go."""
        if left == 0:
            return self.share(marks_a, tickets_a, marks_b, tickets_b)
        return sum(probability * self.at_roll(way, marks_a, tickets_a, marks_b, tickets_b, left, (o.black, o.red))
                   for o, probability in OUTCOMES)

    def at_roll(self, way: str, marks_a, tickets_a, marks_b, tickets_b, left: int, roll) -> float:
        """When ``roll`` is to be recorded by both seats (``left`` counts it)."""
        first, second = self.hands
        after_a = [after_record(first, marks_a, tickets_a, r) for r in records(first, marks_a, tickets_a, roll)]
        after_b = [after_record(second, marks_b, tickets_b, r) for r in records(second, marks_b, tickets_b, roll)]
        matrix = np.array([[self.value(way, ma, ta, mb, tb, left - 1) for mb, tb in after_b] for ma, ta in after_a])
        if way == "in turn":
            return float(matrix.min(axis=1).max())
        if way == "reversed":
            return float(matrix.max(axis=0).min())
        self.counts["matrix games"] += 1
        solution = solve_matrix_game(matrix)
        self.counts["mixed"] += solution.method == "linear program"
        return solution.value

    def solve(self) -> dict:
        started = time.perf_counter()
        found = {way: self.value(way, *self.start(), self.rolls) for way in ("in turn", "at once", "reversed")}
        return {**found, "edge": found["at once"] - found["in turn"], "states": self.value.cache_info().currsize,
                **self.counts, "seconds": time.perf_counter() - started}


def engine_check(game: DiceCards, first: str, second: str, rolls: int) -> tuple[float, float]:
    """The first seat's in-turn value at its first record (roll B4R2) by this script and by the engine."""
    seats = TwoSeats(game, first, second, rolls)
    state = seats.state._replace(phase=RECORD, roll=(4, 2))
    return seats.at_roll("in turn", *seats.start(), rolls, (4, 2)), solved_exactly(game, state).value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="results/dicecards/simultaneous", help="file stem for .md and .json")
    args = parser.parse_args()
    game = DiceCards(players=2, objective="win")
    mine, engine = engine_check(game, "HOP=- t0", "DBL=- t0", 6)
    print(f"check: in turn at the first record (HOP vs DBL, 6 rolls, B4R2): script {mine:.12f}, engine {engine:.12f}")
    assert abs(mine - engine) < 1e-9, "the script's in-turn recursion disagrees with the engine"
    rows = []
    for first, second, rolls in CASES:
        row = {"first": first, "second": second, "rolls": rolls, **TwoSeats(game, first, second, rolls).solve()}
        rows.append(row)
        print(f"{first} vs {second}, {rolls:>2} rolls: in turn {row['in turn']:.6f}  at once {row['at once']:.6f}  "
              f"reversed {row['reversed']:.6f}  edge {row['edge']:+.6f}  ({row['matrix games']:,} matrix games, "
              f"{row['mixed']:,} mixed, {row['seconds']:.1f} s)")
        if first == second:
            assert abs(row["at once"] - 0.5) < 1e-9, "a symmetric game at once must be worth 0.5"
    largest = max(rows, key=lambda row: abs(row["edge"]))
    lines = [
        "# Dice Cards: the information edge of recording in seat order",
        "",
        "Made by `.venv/bin/python research/dicecards_simultaneous.py` (exact; see its docstring). Two players,",
        "`objective=win` (the higher score, then more unused tickets; a tie shared), one card each, from",
        "empty cards. Values are the **first seat's** win share. *In turn* is the model (the second seat",
        "sees the first seat's record of the same roll), *at once* the rule text (simultaneous records,",
        "a matrix game each roll), *reversed* the first seat seeing the second's. Edge = at once - in turn.",
        "",
        "Check: the script's in-turn recursion and the engine's exact solver agree at HOP vs DBL, 6 rolls,",
        f"first record of B4R2: {mine:.12f} and {engine:.12f}.",
        "",
        "| first | second | rolls | in turn | at once | reversed | edge | matrix games (mixed) |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(f"| {row['first']} | {row['second']} | {row['rolls']} | {row['in turn']:.6f} | "
                     f"{row['at once']:.6f} | {row['reversed']:.6f} | {row['edge']:+.6f} | "
                     f"{row['matrix games']:,} ({row['mixed']:,}) |")
    lines += ["", f"Largest edge measured: {largest['edge']:+.6f} of a win ({largest['first']} vs {largest['second']}, "
              f"{largest['rolls']} rolls)."]
    text = "\n".join(lines) + "\n"
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text(text)
    out.with_suffix(".json").write_text(json.dumps({"check": [mine, engine], "cases": rows}, indent=1))
    print(f"wrote {out.with_suffix('.md')} and .json")


if __name__ == "__main__":
    main()
