"""RolldownBeta's match equity tables: the chance of winning a First to 50 or Nine rounds match from
every score, as backgammon players read theirs.

The tables come from the distribution of one round's outcome (:class:`RoundOutcomes`: who wins, the
round's starter or the other player, and how many points, the sides of the final pair) measured by
the engine's own play (``research/rolldown_match_outcomes.py``), by dynamic programming over the
scores (:func:`first50_table`, :func:`nine_table`):

* **First to 50** — ``first50[s][a // 2][b // 2]``: A's chance with A at ``a`` and B at ``b`` (both below 50;
  every round scores an even number, so only even scores occur) when player ``s`` starts the next
  round; 50 or more wins at once.
* **Nine rounds** — ``nine[r - 1][s][(d + 40 (r - 1)) // 2]``: A's chance before round ``r`` with A ahead by
  ``d`` points (|d| at most 40 (r - 1): what r - 1 rounds can give) and ``s`` starting round ``r``;
  after round nine the higher total wins and equal totals draw (1/2).

Each round is taken to be independent of the others and of the score, with the measured outcome
distribution: the tables leave out what the decks hold after several rounds (cards dealt leave a deck
until its reshuffle in round 10, so the players know more about each other's hands as rounds go by)
and that a match-aware player plays differently from the round-aware play they were measured with
(``results/rolldown-match/README.md`` measures the first).

The sampling error is carried through by the bootstrap: the measured counts resampled
(:func:`bootstrap_tables`), the tables recomputed for each resample, and each cell's standard deviation
over them stored beside it as its standard error.

The tables live in ``match_equity.json`` beside this module, versioned and with a SHA-256 of its
content that :func:`load_tables` checks (a damaged file is one :class:`MatchEquityError` line).

>>> outcomes = RoundOutcomes.from_pairs([(True, 24), (False, 16), (True, 40), (True, 8)])
>>> tables = MatchTables.from_outcomes(outcomes)
>>> tables.value("first50", (48, 30), 0, 5)  # A at 48 starts: wins at once (3/4), or else B at 46 starts...
0.8125
>>> tables.value("first50", (50, 30), 0, 5), tables.value("nine", (100, 100), 0, 10)
(1.0, 0.5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.datafile import payload_checksum, read_payload
from dicetree.solver.games.rolldown.state import MAX_ROUND_POINTS, NINE_ROUNDS, TARGET_SCORE, RolldownState

DATA_FILE = Path(__file__).with_name("match_equity.json")
FORMAT = "dicetree rolldown match equity"
VERSION = 1
POINTS: tuple[int, ...] = tuple(sorted({a + b for a in DIE_SIDES for b in DIE_SIDES}))
"""Every number of points a round can score (8 .. 32 even, and 40)."""
SCORE_CELLS = TARGET_SCORE // 2  # even scores 0 .. 48
NINE_SPAN = MAX_ROUND_POINTS * NINE_ROUNDS  # the largest lead nine rounds can give (360)
MEMO_SIZE = 1 << 16

if TYPE_CHECKING:  # numpy loads where tables are computed, not with the game (reading them needs none)
    import numpy as np


class MatchEquityError(GameError):
    """The match equity data file is missing, of another version, or damaged."""


class RoundOutcomes(NamedTuple):
    """Counted round outcomes: ``starter_wins[i]`` rounds won by their starter for :data:`POINTS` [i]
    points, ``other_wins[i]`` won by the other player.

    >>> RoundOutcomes.from_pairs([(True, 24), (False, 8)]).starter_share()
    0.5
    """

    starter_wins: tuple[int, ...]
    other_wins: tuple[int, ...]

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[bool, int]]) -> RoundOutcomes:
        """From (the starter won, points) of each round."""
        starter, other = [0] * len(POINTS), [0] * len(POINTS)
        for starter_won, points in pairs:
            (starter if starter_won else other)[POINTS.index(points)] += 1
        return cls(tuple(starter), tuple(other))

    @property
    def rounds(self) -> int:
        return sum(self.starter_wins) + sum(self.other_wins)

    def starter_share(self) -> float:
        """The share of rounds their starter won."""
        return sum(self.starter_wins) / self.rounds

    def mean_points(self) -> float:
        return sum(p * (s + o) for p, s, o in zip(POINTS, self.starter_wins, self.other_wins)) / self.rounds

    def probabilities(self) -> np.ndarray:
        """Shape (2, len(POINTS)): the starter's wins, then the other's, as shares of all rounds."""
        import numpy as np

        return np.array([self.starter_wins, self.other_wins], dtype=float) / self.rounds


# ----- dynamic programming over the scores -----------------------------------------------------------
def first50_table(q: np.ndarray) -> np.ndarray:
    """First to 50 for each outcome distribution in ``q`` (shape (R, 2, len(POINTS)), or one of shape
    (2, len(POINTS))): A's chance, shape (R, 2, 25, 25) (or (2, 25, 25)), at [s, a // 2, b // 2]."""
    import numpy as np

    single = q.ndim == 2
    q = q[None] if single else q
    steps = np.array(POINTS) // 2
    reach = SCORE_CELLS + steps[-1]
    # value[:, s, a, b] for A's and B's score cells up to 'reach': a cell at 50 or more is decided.
    value = np.zeros((q.shape[0], 2, reach + 1, reach + 1))
    value[:, :, SCORE_CELLS:, :] = 1.0  # A reached 50 (B cannot have as well: one side scores a round)
    starter, other = q[:, 0, :], q[:, 1, :]
    for a in range(SCORE_CELLS - 1, -1, -1):
        for b in range(SCORE_CELLS - 1, -1, -1):
            a_up, b_up = value[:, :, a + steps, b], value[:, :, a, b + steps]  # (R, next starter, points)
            # A starts: A wins as the starter, B as the other; the next round B starts (and vice versa).
            value[:, 0, a, b] = (starter * a_up[:, 1]).sum(1) + (other * b_up[:, 1]).sum(1)
            value[:, 1, a, b] = (starter * b_up[:, 0]).sum(1) + (other * a_up[:, 0]).sum(1)
    table = value[:, :, :SCORE_CELLS, :SCORE_CELLS]
    return table[0] if single else table


def nine_table(q: np.ndarray) -> np.ndarray:
    """Nine rounds for each outcome distribution in ``q`` (as :func:`first50_table`): A's chance, shape
    (R, 9, 2, 2 * NINE_SPAN + 1) (or without R), at [r - 1, s, d + NINE_SPAN] before round r with A ahead by d."""
    import numpy as np

    single = q.ndim == 2
    q = q[None] if single else q
    lead = np.arange(-NINE_SPAN, NINE_SPAN + 1)
    after = np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, 0.5))  # after round nine: totals decide
    later = np.broadcast_to(after, (q.shape[0], 2, lead.size))
    rounds = []
    last = lead.size - 1
    for _ in range(NINE_ROUNDS):
        now = np.zeros_like(later)
        for i, points in enumerate(POINTS):
            # a lead beyond the array is beyond what the rounds left can undo: its edge value holds
            up = later[:, :, np.minimum(np.arange(lead.size) + points, last)]
            down = later[:, :, np.maximum(np.arange(lead.size) - points, 0)]
            starter, other = q[:, 0, i][:, None], q[:, 1, i][:, None]
            now[:, 0] += starter * up[:, 1] + other * down[:, 1]  # A starts; B starts the next round
            now[:, 1] += starter * down[:, 0] + other * up[:, 0]
        rounds.append(now)
        later = now
    table = np.stack(rounds[::-1], axis=1)  # round 1 first
    return table[0] if single else table


def bootstrap_tables(outcomes: RoundOutcomes, resamples: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``resamples`` multinomial resamples of the measured outcome distribution (each as many rounds
    as measured), shape (resamples, 2, len(POINTS)), with both tables: (first50, nine) of each."""
    import numpy as np

    rng = np.random.default_rng(seed)
    q = outcomes.probabilities().ravel()
    draws = rng.multinomial(outcomes.rounds, q, size=resamples).reshape(resamples, 2, len(POINTS))
    resampled = draws / outcomes.rounds
    return first50_table(resampled), nine_table(resampled)


# ----- the tables as stored and read ------------------------------------------------------------------
def _nine_rows(table: np.ndarray) -> list[list[list[float]]]:
    """The reachable even leads of each round (|d| <= 40 (r - 1)), as stored."""
    return [[list(table[r, s, NINE_SPAN - 40 * r:NINE_SPAN + 40 * r + 1:2]) for s in (0, 1)]
            for r in range(NINE_ROUNDS)]


@dataclass(frozen=True)
class MatchTables:
    """Both tables (A's chance to win the match), their standard errors and the outcomes they came from.

    ``first50[s][i][j]``: A at 2i, B at 2j, ``s`` starts the next round. ``nine[r][s][k]``: before round
    r + 1, A ahead by 2k - 40 r, ``s`` starts it. The ``*_se`` fields have the same shapes.
    """

    outcomes: RoundOutcomes
    first50: tuple
    nine: tuple
    first50_se: tuple = ()
    nine_se: tuple = ()
    version: int = VERSION
    # after_round's answers: a search asks the same ones often (a cache, not part of the value)
    _memo: dict[tuple, tuple[float, float]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_outcomes(cls, outcomes: RoundOutcomes, resamples: int = 0, seed: int = 0) -> MatchTables:
        """Tables from ``outcomes``; with ``resamples``, standard errors by the bootstrap (else none)."""
        q = outcomes.probabilities()
        first50, nine = first50_table(q), nine_table(q)
        first50_se = nine_se = ()
        if resamples:
            boot50, boot9 = bootstrap_tables(outcomes, resamples, seed)
            first50_se, nine_se = _frozen(boot50.std(0)), _frozen(_nine_rows(boot9.std(0)))
        return cls(outcomes, _frozen(first50), _frozen(_nine_rows(nine)), first50_se, nine_se)

    def value(self, mode: str, scores: tuple[int, int], next_starter: int, next_round: int) -> float:
        """A's chance to win the match once a round has ended with ``scores`` (A, B), ``next_starter``
        to start round ``next_round``: exact where the match is over (1, 0, or 1/2 for a draw)."""
        return self._cell(mode, scores, next_starter, next_round, self.first50, self.nine)

    def after_round(self, state: RolldownState) -> tuple[float, float]:
        """A's chance to win the match once the round being played at ``state`` is over, if A wins it
        and if B does. The approximation: the final pair is any pair (one die a side) of the dice in
        play, all equally likely, so the winner scores the sides of that pair (exact with one pair left).

        >>> tables = MatchTables.from_outcomes(RoundOutcomes.from_pairs([(True, 24), (False, 16)]))
        >>> tables.after_round(RolldownState(dice=((0, 0, 5, 0, 0, 0), (3, 0, 0, 0, 0, 0)), mover=0,
        ...                                  mode="first50", scores=(30, 44)))  # d8 and d4: 12 points
        (0.5, 0.0)
        """
        a_sides = tuple(DIE_SIDES[slot] for slot, face in enumerate(state.dice[0]) if face)
        b_sides = tuple(DIE_SIDES[slot] for slot, face in enumerate(state.dice[1]) if face)
        key = (state.mode, state.scores, state.starter, state.round, a_sides, b_sides)
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= MEMO_SIZE:
                memo.clear()
            finals = Counter(s + t for s in a_sides for t in b_sides)
            pairs = len(a_sides) * len(b_sides)
            a, b = state.scores
            starter, next_round = 1 - state.starter, state.round + 1
            found = memo[key] = (
                sum(n * self.value(state.mode, (a + p, b), starter, next_round) for p, n in finals.items()) / pairs,
                sum(n * self.value(state.mode, (a, b + p), starter, next_round) for p, n in finals.items()) / pairs,
            )
        return found

    def standard_error(self, mode: str, scores: tuple[int, int], next_starter: int, next_round: int) -> float:
        """The bootstrap standard error of :meth:`value` (0 where the match is over)."""
        if not self.first50_se:
            raise MatchEquityError("these match equity tables carry no standard errors")
        return self._cell(mode, scores, next_starter, next_round, self.first50_se, self.nine_se, over=0.0)

    def _cell(self, mode: str, scores: tuple[int, int], starter: int, next_round: int, first50, nine,
              over: float | None = None) -> float:
        a, b = scores
        if mode == "first50":
            if a >= TARGET_SCORE or b >= TARGET_SCORE:
                return (1.0 if a >= TARGET_SCORE else 0.0) if over is None else over
            return first50[starter][a // 2][b // 2]
        if mode == "nine":
            lead = a - b
            if next_round > NINE_ROUNDS:
                return (1.0 if lead > 0 else 0.0 if lead < 0 else 0.5) if over is None else over
            reach = 40 * (next_round - 1)
            if abs(lead) > reach:  # more than the rounds so far can give: only in a hand-written table's use
                raise MatchEquityError(f"a lead of {lead} cannot arise before round {next_round}")
            return nine[next_round - 1][starter][(lead + reach) // 2]
        raise MatchEquityError(f"mode '{mode}' has no match equity table (a single round is the match)")

    def payload(self, extra: dict) -> dict:
        """The data file's content (with ``extra``: how the outcomes were measured), checksummed."""
        payload = {
            "format": FORMAT, "version": self.version, "points": list(POINTS),
            "starter_wins": list(self.outcomes.starter_wins), "other_wins": list(self.outcomes.other_wins),
            "first50": _rounded(self.first50), "nine": _rounded(self.nine),
            "first50_se": _rounded(self.first50_se), "nine_se": _rounded(self.nine_se), **extra,
        }
        payload["sha256"] = payload_checksum(payload)
        return payload


def _frozen(nested: Any) -> Any:  # nested tuples as deep as the input, a float at the leaves
    """Nested lists or an array as nested tuples of floats (a hashable, immutable table)."""
    if hasattr(nested, "tolist"):  # a numpy array
        nested = nested.tolist()
    if isinstance(nested, list | tuple):
        return tuple(_frozen(item) for item in nested)
    return float(nested)


def _rounded(nested):
    if isinstance(nested, tuple | list):
        return [_rounded(item) for item in nested]
    return round(nested, 6)


def _shape_ok(nested, shape: Sequence) -> bool:
    """Whether ``nested`` lists have ``shape``: an int per level, or a list of row lengths at the last."""
    if not isinstance(nested, list):
        return False
    size, rest = shape[0], shape[1:]
    if isinstance(size, int) and len(nested) != size:
        return False
    if not rest:
        return all(isinstance(v, int | float) and 0.0 <= v <= 1.0 for v in nested)
    return all(_shape_ok(item, rest) for item in nested)


def _nine_ok(nine) -> bool:
    return (isinstance(nine, list) and len(nine) == NINE_ROUNDS
            and all(_shape_ok(rows, (2, 40 * r + 1)) for r, rows in enumerate(nine)))


@lru_cache(maxsize=4)
def load_tables(path: Path | str = DATA_FILE) -> MatchTables:
    """The tables in the data file at ``path``, checked (format, version, checksum, shapes, values in [0, 1]).

    >>> tables = load_tables()
    >>> tables.value("first50", (0, 0), 0, 1) > 0.5 > tables.value("first50", (0, 0), 1, 1)
    True
    """
    where = f"match equity data {path}"
    payload = read_payload(path, FORMAT, VERSION, MatchEquityError, "match equity data")
    grid = (2, SCORE_CELLS, SCORE_CELLS)
    if (payload.get("points") != list(POINTS) or not _shape_ok(payload.get("first50"), grid)
            or not _shape_ok(payload.get("first50_se"), grid) or not _nine_ok(payload.get("nine"))
            or not _nine_ok(payload.get("nine_se"))):
        raise MatchEquityError(f"{where}: the tables' shapes or values do not match this dicetree's")
    try:
        outcomes = RoundOutcomes(tuple(int(n) for n in payload["starter_wins"]),
                                 tuple(int(n) for n in payload["other_wins"]))
    except (KeyError, TypeError, ValueError) as error:
        raise MatchEquityError(f"{where}: malformed outcome counts ({error})") from error
    if len(outcomes.starter_wins) != len(POINTS) or len(outcomes.other_wins) != len(POINTS):
        raise MatchEquityError(f"{where}: the outcome counts do not match this dicetree's points")
    return MatchTables(outcomes, _frozen(payload["first50"]), _frozen(payload["nine"]),
                       _frozen(payload["first50_se"]), _frozen(payload["nine_se"]))


__all__ = [
    "DATA_FILE", "POINTS", "MatchEquityError", "MatchTables", "RoundOutcomes", "bootstrap_tables",
    "first50_table", "load_tables", "nine_table", "payload_checksum",
]
