"""Which Dicegeddon army to pick: exact win probabilities of every legal army against every other
from the opening roll, and the optimal mixed choice (a Nash equilibrium of the matrix game).

Usage::

    dicetree study dicegeddon --army-size 12 -o results/dicegeddon/army-12 --jobs 2

A cell is the row army's win probability against the column army from the opening roll (a draw
counts 1/2). Small pairings (:func:`estimated_states` up to ``exact_limit``) are solved exactly by
:func:`dicetree.solver.exact.solve` of ``game.start(row army, column army)``, with its certificate, using
:class:`CanonicalDicegeddon` (dice kept in a sorted order: fewer states, the same values). Larger
ones are *sampled*: both sides played by the same depth-limited solver strategy
(:class:`dicetree.solver.strategies.SolverStrategy`, its leaf evaluation fitted to exact values), each deal twice
on one seeded dice stream with the row army first as A then as B, and a 95% interval. The opening
is symmetric (the lower active total moves first whoever is A; ties are a fair roll-off), so
``M[j][i] = 1 - M[i][j]``: only the upper triangle is computed. The optimal mixed choice of army
is the Nash equilibrium of the matrix (:func:`dicetree.solver.matrix_game.solve_matrix_game`, an LP); where
cells are sampled, the equilibria of matrices redrawn within the sampling error say how firm it is.

>>> legal_armies(10, (4, 6, 8, 10, 12, 20))
[(4,), (6,), (8,), (10,), (4, 4), (4, 6)]
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from concurrent.futures import as_completed
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from dicetree.solver.match import Duel
from dicetree.solver.results import ResumeLog, deal_interval
from dicetree.solver.strategies import parse_strategy
from dicetree.solver.exact import solve
from dicetree.solver.game import GameError
from dicetree.solver.figures import heatmap, write_csv
from dicetree.solver.games.dicegeddon.rules import DicegeddonRules, parse_dice
from dicetree.solver.games.dicegeddon.rules import army_text as army_name
from dicetree.solver.matrix_game import solve_matrix_game
from dicetree.solver.parallel import CLUSTER_OPTIONS, Workers
from dicetree.solver.pov import PointOfView
from dicetree.solver.providers import study_stem
from dicetree.solver.rule_options import RuleOption, shorten


def legal_armies(army_size: int, dice) -> list[tuple[int, ...]]:
    """Every non-empty multiset of ``dice`` (sides) with at most ``army_size`` sides, sorted by the
    number of dice, then by sides (so a study's matrix reads from few dice to many)."""
    dice = sorted(dice)
    out = []

    def extend(army: list[int], start: int, total: int) -> None:
        if army:
            out.append(tuple(army))
        for k in range(start, len(dice)):
            if total + dice[k] <= army_size:
                extend(army + [dice[k]], k, total + dice[k])

    extend([], 0, 0)
    return sorted(out, key=lambda army: (len(army), army))


def estimated_states(army_a, army_b) -> int:
    """A rough size of the exact state graph of a battle from the opening: the product of twice each
    die's sides times the square of the number of dice (measured within a factor of two of the
    canonical graph's size on battles of 3 to 4 dice; a d4,d6 mirror has 226,815 states, this says
    147,456). Used to decide which cells of a study are solved exactly."""
    return math.prod(2 * s for s in (*army_a, *army_b)) * (len(army_a) + len(army_b)) ** 2


EXACT_LIMIT = 120_000  # cells whose estimated_states is larger are sampled
DEFAULT_STRATEGY = "solver:depth=1"


@dataclass(frozen=True)
class StudyConfig:
    """What a study computes, picklable for worker processes: the game's options, the armies, which
    cells are solved exactly (``exact_limit`` on :func:`estimated_states`; ``max_states`` caps a
    solve, a larger one is sampled instead) and how the others are sampled (``games`` per cell,
    half with the row army as player A, half as B, both sides played by ``strategy``). ``game_class``
    is the game they are played in (``Dicegeddon``; its ``canonical()`` is solved)."""

    army_size: int
    dice: tuple[int, ...]
    mulligan: bool
    several_defenders: bool
    armies: tuple[tuple[int, ...], ...]
    exact_limit: int = EXACT_LIMIT
    max_states: int = 2_000_000
    strategy: str = DEFAULT_STRATEGY
    games: int = 400
    seed: int = 0
    chains: bool = True
    game_class: type[DicegeddonRules] = field(kw_only=True)

    def game(self, canonical: bool = False) -> DicegeddonRules:
        game = self.game_class(army_size=self.army_size, dice=self.dice, mulligan=self.mulligan, chains=self.chains,
                               several_defenders=self.several_defenders, armies=(self.armies[0], self.armies[0]))
        return game.canonical() if canonical else game  # type: ignore[attr-defined]  # game_class: Dicegeddon's

    def is_exact(self, i: int, j: int) -> bool:
        return estimated_states(self.armies[i], self.armies[j]) <= self.exact_limit


@dataclass(frozen=True)
class Cell:
    """The row army's win probability against the column army (a draw counts 1/2) with its 95%
    interval: exact (``low == value == high``; ``states`` solved, the certificate) or sampled
    (``games`` games, the interval paired by deal: Student's t over the deals' mean scores)."""

    row: int
    col: int
    value: float
    low: float
    high: float
    method: str  # "exact" or "sampled"
    states: int = 0
    residual: float = 0.0
    certified: bool = True
    games: int = 0
    capped: int = 0  # sampled games stopped at the decision cap (counted as draws)
    seconds: float = 0.0


def solve_cell(config: StudyConfig, i: int, j: int) -> Cell:
    """One cell of the study: exact if small enough (and the solve fits ``max_states``), else sampled."""
    started = time.perf_counter()
    if config.is_exact(i, j):
        game = config.game(canonical=True)
        try:
            solution = solve(game, game.start(config.armies[i], config.armies[j]), max_states=config.max_states)
        except GameError:
            pass  # too many states after all: sample it
        else:
            value = solution.value(solution.root)
            return Cell(i, j, value, value, value, "exact", states=solution.num_states, residual=solution.residual,
                        certified=solution.certified, seconds=time.perf_counter() - started)
    return replace(sample_cell(config, i, j), seconds=time.perf_counter() - started)


def sample_cell(config: StudyConfig, i: int, j: int, jobs: int | Workers = 1) -> Cell:
    """Self-play of ``config.strategy`` on both sides: each deal is played twice on the same seeded
    dice stream, the row army first as player A, then as player B (the opening is symmetric, so
    both games estimate the same probability). ``jobs`` processes (or a :class:`Workers`) share the
    deals (the same result wherever they run: each deal depends only on the seed and its number)."""
    deals = config.games // 2
    workers = jobs if isinstance(jobs, Workers) else Workers(jobs=jobs)
    with workers.executor() as pool:
        if pool is None:
            deal_scores, capped = play_deals(config, i, j, 0, deals)
        else:
            parts_count = 8 * workers.processes
            chunks = [(k * deals // parts_count, (k + 1) * deals // parts_count) for k in range(parts_count)]
            parts = list(pool.map(play_deals, *zip(*[(config, i, j, lo, hi) for lo, hi in chunks if hi > lo])))
            deal_scores = [score for scores, _ in parts for score in scores]
            capped = sum(c for _, c in parts)
    points = 2 * math.fsum(deal_scores)
    low, high = deal_interval(deal_scores, points, 2 * len(deal_scores))
    return Cell(i, j, points / (2 * len(deal_scores)), low, high, "sampled", games=2 * len(deal_scores),
                capped=capped)


def play_deals(config: StudyConfig, i: int, j: int, first_deal: int, end_deal: int) -> tuple[list[float], int]:
    """The row army's mean score in each deal of ``first_deal:end_deal``, and how many games hit the cap."""
    game = config.game()
    seed = f"{config.seed}:{army_name(config.armies[i])}:{army_name(config.armies[j])}"
    as_a, as_b = (Duel(game, config.strategy, config.strategy, games=2, seed=seed, start=game.start(*armies))
                  for armies in ((config.armies[i], config.armies[j]), (config.armies[j], config.armies[i])))
    strategies = as_a.make_strategies()
    deal_scores, capped = [], 0
    for deal in range(first_deal, end_deal):
        first = as_a.play(deal, 0, strategies)  # strategy A as player 0 = the row army
        second = as_b.play(deal, 1, strategies)  # strategy A as player 1 = the row army
        deal_scores.append((first.scores[0] + second.scores[0]) / 2)
        capped += first.stopped + second.stopped
    return deal_scores, capped


@dataclass
class ArmyStudy:
    config: StudyConfig
    cells: list[Cell]  # the upper triangle (row <= column), solved or sampled
    matrix: np.ndarray  # row army's win probability against the column army
    low: np.ndarray  # 95% interval (equal to matrix where exact)
    high: np.ndarray
    exact: np.ndarray  # bool: the cell is exact
    row_strategy: tuple[float, ...]  # the optimal mixed choice of army
    value: float
    robustness: np.ndarray  # per army: share of resampled matrices whose equilibrium plays it
    seconds: float

    @property
    def armies(self) -> tuple[tuple[int, ...], ...]:
        return self.config.armies

    @property
    def residual(self) -> float:
        return max((c.residual for c in self.cells if c.method == "exact"), default=0.0)

    @property
    def certified(self) -> bool:
        return all(c.certified for c in self.cells if c.method == "exact")


def run_army_study(config: StudyConfig, jobs: int | Workers = 1, on_cell=None, resamples: int = 200,
                   done: Sequence[Cell] = ()) -> ArmyStudy:
    """Every cell of the upper triangle (the rest by symmetry: ``M[j][i] = 1 - M[i][j]``), in
    ``jobs`` processes or where a :class:`Workers` says (the same result either way), then the Nash equilibrium of the matrix
    (an LP) and, where cells are sampled, how often each army is played by the equilibrium of
    ``resamples`` matrices redrawn within the sampling error (normal, from each interval).
    ``on_cell(cell)`` is called as each cell is done; ``done`` are cells finished before (a resumed
    study: they are not computed again)."""
    started = time.perf_counter()
    n = len(config.armies)
    known = {(c.row, c.col) for c in done}
    pairs = sorted((ij for ij in itertools.combinations_with_replacement(range(n), 2) if ij not in known),
                   key=lambda ij: -estimated_states(config.armies[ij[0]], config.armies[ij[1]]))
    cells = list(done)
    with (jobs if isinstance(jobs, Workers) else Workers(jobs=jobs)).executor() as pool:
        finished = (solve_cell(config, i, j) for i, j in pairs) if pool is None else (
            future.result() for future in as_completed([pool.submit(solve_cell, config, i, j) for i, j in pairs]))
        for cell in finished:
            cells.append(cell)
            if on_cell is not None:
                on_cell(cell)
    cells.sort(key=lambda c: (c.row, c.col))
    pov = PointOfView.of(config.game())  # M[j][i] is the column army's view of M[i][j]
    matrix, low, high = np.full((n, n), 0.5), np.full((n, n), 0.5), np.full((n, n), 0.5)
    exact = np.ones((n, n), dtype=bool)
    for c in cells:
        matrix[c.row, c.col], low[c.row, c.col], high[c.row, c.col] = c.value, c.low, c.high
        matrix[c.col, c.row], low[c.col, c.row], high[c.col, c.row] = pov.flip(c.value), pov.flip(c.high), \
            pov.flip(c.low)
        exact[c.row, c.col] = exact[c.col, c.row] = c.method == "exact"
    nash = solve_matrix_game(matrix - 0.5)
    robustness = _resampled_support(matrix, low, high, exact, resamples, config.seed, pov)
    return ArmyStudy(config, cells, matrix, low, high, exact, nash.row_strategy, nash.value + 0.5, robustness,
                     time.perf_counter() - started)


def _resampled_support(matrix, low, high, exact, resamples: int, seed: int, pov: PointOfView) -> np.ndarray:
    """Per army, the share of redrawn matrices (sampled cells ~ normal within their interval, kept
    antisymmetric) whose equilibrium gives it a probability above 1e-6."""
    n = len(matrix)
    if exact.all() or resamples == 0:
        return (np.asarray(solve_matrix_game(matrix - 0.5).row_strategy) > 1e-6).astype(float)
    rng = np.random.default_rng(seed)
    upper = np.triu(~exact, 1) | (np.eye(n, dtype=bool) & ~exact)
    sigma = (high - low) / (2 * 1.959964)
    played = np.zeros(n)
    for _ in range(resamples):
        drawn = matrix.copy()
        noise = rng.normal(0.0, 1.0, size=(n, n)) * sigma
        drawn[upper] = np.clip(matrix[upper] + noise[upper], 0.0, 1.0)
        drawn = np.where(np.triu(np.ones((n, n), dtype=bool), 1), drawn, pov.flip(drawn.T))
        np.fill_diagonal(drawn, 0.5)
        played += np.asarray(solve_matrix_game(drawn - 0.5).row_strategy) > 1e-6
    return played / resamples


def write_army_study(stem: Path | str, study: ArmyStudy, title: str) -> list[Path]:
    """NAME.csv (the matrix), NAME.png (heatmap; sampled cells marked ≈), NAME-cells.csv (every
    solved or sampled cell: value, interval, method, states or games, residual) and NAME-nash.csv
    (the optimal mixed army, and how often resampled matrices' equilibria play each army)."""
    stem = Path(stem)
    names = [army_name(a) for a in study.armies]
    written = [write_csv(stem.with_suffix(".csv"), study.matrix.tolist(), names, names, "A army \\ B army")]
    annotations = [[("" if study.exact[r, c] else "≈") + f"{study.matrix[r, c]:.2f}" for c in range(len(names))]
                   for r in range(len(names))]
    if not study.exact.all():
        title += "\n(≈: sampled by self-play of " + study.config.strategy + ", the rest exact)"
    heatmap(stem.with_suffix(".png"), study.matrix, names, names, title=title, xlabel="B's army",
            ylabel="A's army", cbar_label="A's win probability", annotations=annotations)
    written.append(stem.with_suffix(".png"))
    cells_path = stem.parent / f"{stem.name}-cells.csv"
    rows = [[names[c.col], c.value, c.low, c.high, c.method, c.states, c.games, c.capped, f"{c.residual:.1e}",
             c.certified, round(c.seconds, 2)] for c in study.cells]
    write_csv(cells_path, rows, [names[c.row] for c in study.cells],
              ["B army", "A win probability", "low 95%", "high 95%", "method", "states", "games",
               "capped games", "residual", "certified", "seconds"], "A army")
    written.append(cells_path)
    nash_path = stem.parent / f"{stem.name}-nash.csv"
    write_csv(nash_path, [[p, float(r)] for p, r in zip(study.row_strategy, study.robustness)], names,
              ["probability", "played in resampled equilibria"], "army")
    written.append(nash_path)
    return written


def summary(study: ArmyStudy) -> str:
    """A few lines: what was exact and what sampled, the optimal mix and how robust it is."""
    names = [army_name(a) for a in study.armies]
    exact = [c for c in study.cells if c.method == "exact"]
    sampled = [c for c in study.cells if c.method == "sampled"]
    lines = [f"{len(names)} armies, {len(study.cells)} pairings: {len(exact)} exact"
             + (f" (largest residual {study.residual:.1e}, certified: {study.certified})" if exact else "")
             + (f", {len(sampled)} sampled by self-play of {study.config.strategy} "
                f"({study.config.games} games each, widest 95% interval "
                f"+/-{max((c.high - c.low) / 2 for c in sampled):.3f})" if sampled else "")]
    mix = ", ".join(f"{names[k]} {p:.4f}" for k, p in enumerate(study.row_strategy) if p > 1e-9)
    lines.append(f"optimal mixed choice of army: {mix}")
    if sampled:
        robust = ", ".join(f"{names[k]} {r:.0%}" if r >= 0.01 else f"{names[k]} <1%"
                           for k in np.argsort(-study.robustness) if (r := study.robustness[k]) > 0)
        lines.append(f"armies played by the equilibria of 200 matrices redrawn within the sampling error: {robust}")
    lines.append(f"{study.seconds:.1f} s")
    return "\n".join(lines)


# ----- the game's study: ``dicetree study dicegeddon`` ------------------------------------------------
class DicegeddonStudy:
    """Dicegeddon's study (:class:`dicetree.solver.providers.Study`): every legal army against every other,
    played in ``game_class`` (the game passes itself: this module is below it)."""

    title = "army study: every legal army of a size against every other from the opening roll, and the optimal mix"
    parameters = (
        RuleOption("army_size", "int", None, "every legal army of this size against every other", low=4, high=1000),
        RuleOption("mulligan", "bool", False, "with the mulligan variant"),
        RuleOption("several_defenders", "bool", False, "with the several-defenders variant"),
        RuleOption("chains", "bool", True, "a defender may not be defended (rule chains=false)"),
        RuleOption("output", "folder", None, "FOLDER: writes NAME.csv, NAME.png, NAME-cells.csv and NAME-nash.csv "
                   "into FOLDER, NAME being its name"),
        RuleOption("exact_limit", "int", None, f"pairings with a larger estimated state graph are sampled, not "
                   f"solved [default: {EXACT_LIMIT:,}]", low=0),
        RuleOption("strategy", "text", None, f"the strategy both sides play in sampled pairings [default: "
                   f"{DEFAULT_STRATEGY}]"),
        RuleOption("games", "int", 400, "games per sampled pairing (half with each army as player A)", low=2),
        RuleOption("seed", "int", 0, "seed of the sampled games"),
        RuleOption("jobs", "int", 1, "worker processes (the same result for any number)", low=1, high=256),
        RuleOption("pairing", "text", None, "only this pairing (e.g. d20/d4,d4,d4,d4,d4), exact if small enough, "
                   "else sampled with --games over --jobs processes; no files are written"),
        *CLUSTER_OPTIONS,
    )

    def __init__(self, game_class: type[DicegeddonRules]):
        self.game_class = game_class

    def run(self, values, progress=None) -> list[str]:
        army_size = values.get("army_size")
        if army_size is None:
            raise GameError("a Dicegeddon study needs --army-size")
        mulligan, several, chains = bool(values.get("mulligan")), bool(values.get("several_defenders")), \
            bool(values.get("chains", True))
        games, pairing = int(values.get("games") or 400), values.get("pairing")
        jobs = Workers.of(values, jobs=int(values.get("jobs") or 1))  # checked before any work
        output = values.get("output")
        game = self.game_class(army_size=army_size, mulligan=mulligan, several_defenders=several, chains=chains)
        variant = "".join(f" ({name})" for name, on in (("mulligan", mulligan), ("several defenders", several),
                                                         ("no chains", not chains)) if on)
        strategy = str(parse_strategy(values.get("strategy") or DEFAULT_STRATEGY, game))
        if games % 2:
            raise GameError(f"--games must be even (each deal is played with each army as player A), not {games}")
        armies: tuple[tuple[int, ...], ...]
        if pairing is not None:
            armies = _pairing(game, str(pairing))
        else:
            if not output:
                raise GameError("an army study needs -o FOLDER (or --pairing A/B for one pairing)")
            armies = tuple(legal_armies(army_size, game.dice))
        exact_limit = values.get("exact_limit")
        config = StudyConfig(army_size, game.dice, mulligan, several, armies, strategy=strategy, games=games,
                             seed=int(values.get("seed") or 0),
                             exact_limit=EXACT_LIMIT if exact_limit is None else int(exact_limit), chains=chains,
                             game_class=self.game_class)
        if pairing is not None:
            started = time.perf_counter()
            cell = solve_cell(config, 0, 1) if config.is_exact(0, 1) else sample_cell(config, 0, 1, jobs=jobs)
            names = " against ".join(army_name(a) for a in armies)
            how = (f"exact ({cell.states:,} states, residual {cell.residual:.1e}, certified: {cell.certified})"
                   if cell.method == "exact" else
                   f"95% CI {cell.low:.4f} to {cell.high:.4f}, {cell.games:,} games of {strategy} self-play")
            return [f"{names}{variant}: {cell.value:.4f} for the first army; {how}; "
                    f"{time.perf_counter() - started:.1f} s"]
        total = len(armies) * (len(armies) + 1) // 2
        stem = study_stem(output)
        log = ResumeLog(stem.parent / f"{stem.name}-log.jsonl", _log_header(config))  # finished cells: resumable
        finished = [Cell(**entry) for entry in log.entries()]
        done = [len(finished)]

        def on_cell(cell) -> None:
            log.append([asdict(cell)])
            done[0] += 1
            if progress is not None:
                progress(done[0], total, f"army size {army_size}")

        result = run_army_study(config, jobs=jobs, on_cell=on_cell, done=finished)
        title = f"Dicegeddon, army size {army_size}{variant}: A's win probability"
        written = write_army_study(stem, result, title)
        resumed = [f"resumed: {len(finished)} of {total} pairings were read from {log.path}"] if finished else []
        return resumed + [f"wrote {path}" for path in written] + [f"finished pairings kept in {log.path}",
                                                                   summary(result)]


def _log_header(config: StudyConfig) -> dict:
    """What a study's log must match to be resumed: every parameter of the cells (the armies, the
    variant, how cells are solved or sampled)."""
    return {"army_size": config.army_size, "dice": list(config.dice), "mulligan": config.mulligan,
            "several_defenders": config.several_defenders, "chains": config.chains,
            "armies": [list(army) for army in config.armies], "exact_limit": config.exact_limit,
            "max_states": config.max_states, "strategy": config.strategy, "games": config.games, "seed": config.seed}


def _pairing(game: DicegeddonRules, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    halves = text.split("/")
    if len(halves) != 2:
        raise GameError(f"--pairing takes two armies as ARMY/ARMY, e.g. d20/d4,d4,d4,d4,d4, not '{shorten(text)}'")
    army_a, army_b = (parse_dice(half, "--pairing takes two armies as ARMY/ARMY: each army") for half in halves)
    for army in (army_a, army_b):
        game.check_army(army)
    return army_a, army_b
