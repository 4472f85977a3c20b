"""What played games say: the record of one game, a match's statistics with their intervals, and
the text reports of ``dicetree duel``.

A strategy's *score* in a game is its seats' points: a win 1, a win shared by ``k`` players ``1/k``
(the players with the highest return win), nothing otherwise; so the scores of a game add up to 1.
The games of a deal share their start and their dice (common random numbers), so a deal's mean
score is one observation: the 95% interval is Student's t over the deals (:func:`deal_interval`),
narrower than over independent games where the pairing cancels the dice's luck.

Usage::

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> [round(x, 4) for x in deal_interval([1.0, 0.5, 0.5, 0.0], points=4, games=8)]
    [0.0, 1.0]
    >>> seat_scores((0.0, 1.0, 1.0))
    (0.0, 0.5, 0.5)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any
from string import ascii_uppercase

from dicetree.solver.game import GameError, TurnLimit
from dicetree.solver.players import player_name
from dicetree.solver.strategies import StrategySpec

CONFIDENCE = 0.95


# ----- one game ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """One played game. ``seats[p]`` is the strategy (its index) in seat ``p``; ``returns`` are the
    seats' returns; per strategy: ``scores`` (its seats' points, see the module notes),
    ``decisions``, ``thinking`` (seconds) and ``fallbacks`` (decisions it could not play as it says:
    ``exact``). ``turns`` is the game's length in its :class:`~dicetree.solver.game.TurnLimit`'s unit;
    ``stopped`` says it was still running at the limit and scored by ``Game.stopped_returns``."""

    deal: int
    rotation: int
    seats: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    decisions: tuple[int, ...]
    thinking: tuple[float, ...]
    fallbacks: tuple[int, ...]
    turns: int
    stopped: bool

    def seat_of(self, index: int) -> int:
        """The (first) seat strategy ``index`` played."""
        return self.seats.index(index)


def seat_scores(returns: Sequence[float]) -> tuple[float, ...]:
    """Each seat's points: the highest return wins, a win shared by ``k`` seats scores ``1/k``."""
    best = max(returns)
    winners = sum(r == best for r in returns)
    return tuple(1 / winners if r == best else 0.0 for r in returns)


class ResumeLog:
    """An append-only log of finished pieces of a long computation (JSON lines), so that a stopped
    run resumes where it stopped: the first line names the work (its parameters), each further
    line is one finished piece. A log of other work is refused; a line cut by a stop is ignored.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp(dir="/tmp")) / "work.jsonl"
    >>> ResumeLog(path, {"size": 4}).append([{"cell": 1}, {"cell": 2}])
    >>> ResumeLog(path, {"size": 4}).entries()
    [{'cell': 1}, {'cell': 2}]
    >>> ResumeLog(path, {"size": 5})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: /tmp/.../work.jsonl is the log of other work (another size?): give another file, ...
    """

    def __init__(self, path: Path | str, work: dict):
        self.path = Path(path)
        self.work = work
        if not self.path.exists() or self.path.stat().st_size == 0:
            with self.path.open("w", encoding="utf-8") as log:
                log.write(json.dumps({"work": work}) + "\n")
            return
        with self.path.open(encoding="utf-8") as log:
            first = log.readline()
        try:
            stored = json.loads(first).get("work")
        except (ValueError, AttributeError):
            stored = None
        if stored != work:
            differ = sorted(k for k in work if not isinstance(stored, dict) or stored.get(k) != work[k])
            raise GameError(f"{self.path} is the log of other work (another {', '.join(differ) or 'kind'}?): give "
                            "another file, or delete it to start again")

    def entries(self) -> list[dict]:
        """Every finished piece, in the order they were logged."""
        found = []
        with self.path.open(encoding="utf-8") as log:
            next(log)
            for line in log:
                try:
                    found.append(json.loads(line))
                except ValueError:
                    continue  # the last line of a log stopped while it was written
        return found

    def append(self, entries: Sequence[dict]) -> None:
        """Log finished pieces (flushed to disk at once: a stop right after keeps them)."""
        with self.path.open("a", encoding="utf-8") as log:
            log.write("".join(json.dumps(entry) + "\n" for entry in entries))
            log.flush()
            os.fsync(log.fileno())


class MatchLog(ResumeLog):
    """A match's finished deals (``dicetree duel --log FILE``): each line one :class:`GameRecord`."""

    def finished_records(self, games_per_deal: int) -> list[GameRecord]:
        """The records of every deal whose games all finished."""
        by_deal: dict[int, dict[int, GameRecord]] = {}
        for fields in self.entries():
            values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}  # JSON
            record = GameRecord(**values)
            by_deal.setdefault(record.deal, {})[record.rotation] = record
        return [record for deal in sorted(by_deal) if len(by_deal[deal]) == games_per_deal
                for _, record in sorted(by_deal[deal].items())]

    def append_records(self, records: Sequence[GameRecord]) -> None:
        self.append([asdict(record) for record in records])


# ----- intervals -----------------------------------------------------------------------------------
def mean_and_spread(scores: list[float]) -> tuple[float, float, int]:
    """The mean, the sample standard deviation and the number of ``scores``."""
    n = len(scores)
    mean = math.fsum(scores) / n if n else 0.0
    spread = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
    return mean, spread, n


def deal_interval(deal_scores: list[float], points: float, games: int) -> tuple[float, float]:
    """The 95% interval of a score rate paired by deal: Student's t on the deals' mean scores; where
    every deal scored the same (no spread to estimate), the Wilson interval of ``points`` in ``games``."""
    mean, spread, n = mean_and_spread(deal_scores)
    if spread == 0:
        return wilson_interval(points, games)
    from scipy.stats import t

    half = float(t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * spread / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def wilson_interval(successes: float, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ----- a match's games -----------------------------------------------------------------------------
@dataclass
class MatchResult:
    """Every game of a match (a duel: two strategies), and each strategy's share of the points with
    its 95% interval paired by deal. Strategy ``0`` is A: :attr:`score` and :attr:`rate` are A's."""

    game_name: str
    players: int
    specs: tuple[StrategySpec, ...]
    seed: int | str
    start: str  # the position, or '' for random starts
    records: list[GameRecord]
    jobs: int
    elapsed: float
    turn_limit: TurnLimit = TurnLimit()
    objective: str = ""
    hidden_information: bool = False  # the game hides something from a player (what strategies see)
    where: str = ""  # a dask cluster it ran on ('' for local processes: see ``jobs``)

    @property
    def ran_on(self) -> str:
        """Where the games were played, in words."""
        return self.where or f"{self.jobs} process{'es' if self.jobs > 1 else ''}"

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def deals(self) -> int:
        return self.games // len(self.specs)

    def points(self, index: int = 0) -> float:
        """Strategy ``index``'s points in all games."""
        return math.fsum(r.scores[index] for r in self.records)

    def share(self, index: int = 0) -> float:
        """Strategy ``index``'s share of the points (draws split): the shares add up to 1."""
        return self.points(index) / self.games if self.games else 0.0

    @property
    def score(self) -> float:
        """A's points: a win 1, a draw 1/2."""
        return self.points(0)

    @property
    def rate(self) -> float:
        """A's share."""
        return self.share(0)

    def fair_share(self, index: int = 0) -> float:
        """Its seats over the players: every strategy holds as many seats."""
        return 1 / len(self.specs)

    def deal_scores(self, index: int = 0) -> list[float]:
        """Strategy ``index``'s mean score in each deal, in deal order."""
        by_deal: dict[int, list[float]] = {}
        for record in self.records:
            by_deal.setdefault(record.deal, []).append(record.scores[index])
        return [sum(scores) / len(scores) for _, scores in sorted(by_deal.items())]

    def interval(self, index: int = 0) -> tuple[float, float]:
        """95% interval of the share over deals (Student's t; Wilson where every deal scored the same)."""
        return deal_interval(self.deal_scores(index), self.points(index), self.games)

    def paired(self, index: int = 0) -> bool:
        """Whether :meth:`interval` is the paired one (the deals' scores vary, so their spread can be estimated)."""
        return mean_and_spread(self.deal_scores(index))[1] > 0

    def unpaired_interval(self, index: int = 0) -> tuple[float, float]:
        """The Wilson score interval treating every game as independent (for comparison)."""
        return wilson_interval(self.points(index), self.games)

    def significant(self, index: int = 0) -> bool:
        """Whether the interval excludes the fair share."""
        low, high = self.interval(index)
        return not low <= self.fair_share(index) <= high

    def by_seat(self, seat: int, index: int = 0) -> tuple[float, int]:
        """Strategy ``index``'s points and games when it played seat ``seat``."""
        mine = [r for r in self.records if r.seats[seat] == index]
        return math.fsum(r.scores[index] for r in mine), len(mine)

    def deal_outcomes(self, index: int = 0) -> tuple[int, int, int]:
        """Deals strategy ``index`` won every game of, deals split (or drawn), deals it won none of."""
        scores = self.deal_scores(index)
        return sum(s == 1 for s in scores), sum(0 < s < 1 for s in scores), sum(s == 0 for s in scores)

    def totals(self, name: str) -> list[float]:
        """Per strategy, the sum of the records' ``name`` (``decisions``, ``thinking``, ``fallbacks``)."""
        return [math.fsum(getattr(r, name)[i] for r in self.records) for i in range(len(self.specs))]

    def to_json(self) -> dict:
        """The match as one JSON object (``dicetree duel --json``): the setup, then per strategy its
        share of the points with the 95% interval, the fair share and the verdict."""
        return {
            "game": self.game_name,
            "players": self.players,
            "objective": self.objective,
            "start": self.start,
            "seed": self.seed,
            "games": self.games,
            "deals": self.deals,
            "strategies": [
                {
                    "letter": letter,
                    "strategy": str(spec),
                    "points": self.points(i),
                    "share": self.share(i),
                    "interval": list(self.interval(i)),
                    "paired": self.paired(i),
                    "fair_share": self.fair_share(i),
                    "significant": self.significant(i),
                    "decisions": int(self.totals("decisions")[i]),
                    "thinking": round(self.totals("thinking")[i], 4),
                    "fallbacks": int(self.totals("fallbacks")[i]),
                }
                for i, (letter, spec) in enumerate(zip(letters(len(self.specs)), self.specs))
            ],
            "jobs": self.jobs,
            "where": self.ran_on,
            "time": round(self.elapsed, 3),
            "notes": self.notes,
        }

    @property
    def notes(self) -> list[str]:
        """What the report must add: the games stopped at the turn limit."""
        stopped = sum(r.stopped for r in self.records)
        limit = self.turn_limit
        return [f"{stopped} game(s) still running after {limit.turns:,} {limit.unit} were {limit.scoring}"] if stopped else []


# ----- reports ------------------------------------------------------------------------------------
def letters(count: int) -> str:
    """The strategies' letters: A, B, C, ..."""
    return ascii_uppercase[:count]


def sight(result: MatchResult) -> str:
    """What the strategies saw, for a report."""
    if not result.hidden_information:
        return "Every strategy sees the whole position (the game hides nothing)."
    names = letters(len(result.specs))
    seeing = [names[i] for i, spec in enumerate(result.specs) if spec.all_seeing]
    own = "its own player's view (the opponent's hidden cards unknown; searches average over the possible hands)"
    if not seeing:
        return f"Every strategy sees {own}."
    if len(seeing) == len(result.specs):
        return "Every strategy is all-seeing: it sees the whole position, the hidden cards included."
    return f"{', '.join(seeing)} all-seeing (sees the hidden cards); the others see {own}."


def format_duel(result: MatchResult) -> str:
    """A duel's report (two strategies, two seats): setup, the common-random-numbers note, A's win
    rate with its interval."""
    a, b = str(result.specs[0]), str(result.specs[1])
    objective = f" (objective {result.objective})" if result.objective else ""
    starts = f"from the position {result.start}" if result.start else "from random round starts"
    low, high = result.interval()
    u_low, u_high = result.unpaired_interval()
    won2, split, lost2 = result.deal_outcomes()
    seat_a, seat_b = result.by_seat(0), result.by_seat(1)
    moves = [int(n) for n in result.totals("decisions")]
    thinking = result.totals("thinking")
    per_move = [1000 * thinking[s] / moves[s] if moves[s] else 0.0 for s in (0, 1)]
    length = sum(moves) / result.games
    if result.significant():
        verdict = f"A ({a}) is {'stronger' if result.rate > 0.5 else 'weaker'}: the 95% interval excludes 50%"
    else:
        verdict = "no significant difference: the 95% interval contains 50%"
    method = "paired by deal, Student's t" if result.paired() else "Wilson interval of the games: every deal scored the same"
    lines = [
        f"Duel on {result.game_name}{objective}: A = {a}, B = {b}",
        f"{result.games:,} games {starts}: {result.deals:,} deals (seed {result.seed}), each played twice",
        "Common random numbers: both games of a deal have the same start and the same dice sequence (one seeded",
        "  stream per deal) with the seats swapped, so the dice's luck largely cancels between the strategies.",
        sight(result),
        "",
        f"A won {_points(result.score)} of {result.games:,} games: {result.rate:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}, {method})",
        f"  as independent games the interval would be {u_low:.1%} to {u_high:.1%}",
        f"  A in seat A: {_points(seat_a[0])}/{seat_a[1]:,}   in seat B: {_points(seat_b[0])}/{seat_b[1]:,}",
        f"  deals won twice by A: {won2}, split: {split}, won twice by B: {lost2}",
        f"Verdict: {verdict}.",
        "",
        f"Moves: A {moves[0]:,} ({per_move[0]:.1f} ms each), B {moves[1]:,} ({per_move[1]:.1f} ms each); "
        f"{length:.1f} decisions a game; {result.elapsed:.1f} s with {result.ran_on}",
    ]
    fallbacks = [int(n) for n in result.totals("fallbacks")]
    for side, spec in enumerate(result.specs):
        if spec.kind != "exact":
            continue
        head = f"{'AB'[side]} = {spec}: "
        if not fallbacks[side]:
            lines.append(head + f"every one of its {moves[side]:,} decisions was solved exactly")
            continue
        lines.append(
            head + f"{moves[side] - fallbacks[side]:,} of {moves[side]:,} decisions solved exactly; {fallbacks[side]:,} "
            f"positions were too large for exact solving (more than {spec.option('max_states'):,} "
            f"states, or a chance node too large to list) and were played by "
            f"solver:depth={spec.option('fallback')}"
        )
    timed = [f"{'AB'[side]} {spec.option('ms'):,} ms" for side, spec in enumerate(result.specs) if spec.time_limit]
    if timed:
        lines.append(f"Timed: {', '.join(timed)} a move of wall time (iterative deepening, its depth the deepest): "
                     "the games depend on the machine and its load, so this duel is not reproducible game for game")
    lines += [f"Note: {note}" for note in result.notes]
    return "\n".join(lines)


def _points(score: float) -> str:
    return f"{score:g}" if score != int(score) else f"{int(score):,}"


def format_match(result: MatchResult) -> str:
    """A match's report: setup, how seats rotated, each strategy's share against the fair share."""
    k, n = len(result.specs), result.players
    names_of = letters(k)
    names = ", ".join(f"{names_of[i]} = {spec}" for i, spec in enumerate(result.specs))
    starts = f"from the position {result.start}" if result.start else "from the start"
    rotations = ", ".join(" ".join(names_of[(p + r) % k] for p in range(n)) for r in range(k))
    lines = [
        f"Duel on {result.game_name} ({n} players): {names}",
        f"{result.games:,} games {starts}: {result.deals:,} deals (seed {result.seed}), each played {k} times",
        f"Seats rotated cyclically, one seat on per game of a deal (the strategies in seats A..{player_name(n - 1)}): "
        f"{rotations};",
        "  so every strategy plays every seat equally often" + (f" (each holds {n // k} seats a game)." if n > k else "."),
        "Common random numbers: the games of a deal have the same start and one seeded dice stream (aligned",
        "  until the strategies' choices make the games differ); each strategy has its own choice stream.",
        sight(result) + " Shared wins are split: the shares add up to 100%.",
        "",
        f"{'strategy':<28} {'win share':>9}  {'95% CI':<15} {'fair share':>10}  verdict",
    ]
    for i, spec in enumerate(result.specs):
        share, (low, high), fair = result.share(i), result.interval(i), result.fair_share(i)
        verdict = "above fair" if low > fair else "below fair" if high < fair else "fair share within CI"
        lines.append(f"{names_of[i] + ' ' + str(spec):<28} {share:>9.1%}  {low:>5.1%} to {high:<6.1%} {fair:>10.1%}  {verdict}")
    moves, thinking = result.totals("decisions"), result.totals("thinking")
    per_move = ", ".join(f"{names_of[i]} {1000 * thinking[i] / moves[i] if moves[i] else 0:.2f}" for i in range(k))
    turns = sum(r.turns for r in result.records) / result.games
    lines += [
        "(95% CI: Student's t over the deals' mean scores; Wilson where every deal scored the same.)",
        "",
        f"Choices: {int(sum(moves)):,} ({per_move} ms each); {turns:.1f} {result.turn_limit.unit} a game; "
        f"{result.elapsed:.1f} s with {result.ran_on}",
    ]
    lines += [f"Note: {note}" for note in result.notes]
    return "\n".join(lines)


__all__ = [
    "CONFIDENCE", "GameRecord", "MatchLog", "MatchResult", "ResumeLog", "deal_interval", "format_duel", "format_match", "letters",
    "mean_and_spread", "seat_scores", "wilson_interval",
]
