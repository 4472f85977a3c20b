"""What endgame tables one size down change in RolldownBeta's depth-limited search (issue 15).

``--positions`` random positions of ``--dice`` D dice a side (drawn as
``benchmarks/rolldown_evaluation.py`` draws them: each side's dice from the six kinds, faces
uniform, the mover drawn, no cards, nobody on a first turn) are searched to ``--depth`` twice with
the same evaluation and limits: once probing the tables of at most D-1 dice a side in ``--tables``
(as ``dicetree best rolldown --tables`` probes them: at every decision node below the root that a
table holds, its exact value stands for the subtree), once with no tables (``best --no-tables``).
Tables of D dice or more are never probed, so a D=4 run on a folder where the 4-dice build is
under way measures the 3-dice tables alone; at D=5 nothing larger than 4 dice exists anyway.

Reported: how often the best move differs (count, share, 95% Wilson interval; ties, where the
table-backed search values both choices within ``TIE``, counted apart), the change of the root
value (mean of its size, largest), what a change is worth as far as the better-informed search can
tell (the table-backed search's value of its own choice less its value of the other search's
choice: mean over the changed positions, largest), the table probes the searches made (every
decision node below the root), how many were of positions of at most D-1 dice a side (the ones a
table could hold) and how many hit, and seconds per search both ways (each search starts with the
fitted evaluation's memo empty: the second search of a position would otherwise find the first
one's leaves estimated already), with the load average while the positions were searched.

Where the positions' own tables are stored (a D=4 run while the 4-dice build is under way; never
at D=5), an exact check reads every move's exact value: how often each search chose an exact best
move, their mean exact loss, and whether each change of move was for the better. Those tables are
read without checking checksums, so the check writes no stamp beside them (the searches' probes read
the smaller tables as ``best`` does: each pack checked once, remembered in a stamp beside it).

The run is refused (one line, exit 2) unless every table of D-1 dice a side (and the smaller ones)
is stored; ``--allow-partial`` measures on what is there, and its report says "partial" in its
title. Each position is one cell (``benchmarks/report.py`` :func:`report.cell`, kept in
``benchmarks/.cells/rolldown_tables_effect/``), so a stopped run resumes; a partial run's cells are
named after how many tables were stored, so they are not mixed with a later run on more tables.

Usage::

    nice -n 10 .venv/bin/python benchmarks/rolldown_tables_effect.py --dice 4 --positions 100 --tables /work/tables
    nice -n 10 .venv/bin/python benchmarks/rolldown_tables_effect.py --dice 5 --positions 100 --tables /work/tables
    nice -n 10 .venv/bin/python benchmarks/rolldown_tables_effect.py --dice 5 --positions 300 --jobs 2 --tables /work/tables

``--jobs N`` searches N positions at once in local processes (the same cells, whichever process
computes them; each search's seconds then include the processes' sharing of the machine).

Writes ``results/tables-effect/effect-<D>dice[-partial].{md,json}``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import NamedTuple

from report import cell, write_report
from rolldown_evaluation import random_position

from dicetree.cache.store import TableStore
from dicetree.solver.advice import turn_engine
from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.evaluation import DEFAULT_EVALUATION, EVALUATIONS
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.tablebase import TableOracle, Tablebase
from dicetree.solver.games.rolldown.tables import Signature, all_signatures
from dicetree.solver.results import mean_and_spread, wilson_interval
from dicetree.solver.parallel import Workers, made_once
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "tables-effect"
BENCHMARK = "rolldown_tables_effect"
ROW = ("position", "move with tables", "move without", "value with tables", "value without",
       "worth of the change", "table hits", "probes within reach", "seconds with tables", "seconds without")
"""The columns of each position's row in the report's JSON."""
TIE = 1e-9
"""Two moves valued within this are a tie: a change of best move between them is worth nothing."""


class SmallerTables(TableOracle):
    """``best``'s table oracle limited to positions of at most ``most_dice`` dice a side, counting
    the probes of such positions (``reachable``: the ones a table could hold) as a searcher makes them.

    ``SmallerTables(base, 3)`` is what a search of 4-dice positions gets from complete 3-dice
    tables, whether or not some 4-dice tables are stored beside them. It is a
    :class:`~dicetree.solver.games.rolldown.tablebase.TableOracle`, so the compiled search reads
    its tables itself (and counts ``reachable`` alike)."""


@dataclass(frozen=True)
class Searched:
    """One search of one position: its choice and root value (the mover's view), every move's value
    best first, and what it cost."""

    move: str
    value: float
    ranking: tuple[tuple[str, float], ...]
    exact: bool  # every line ended or reached a table within the depth
    seconds: float
    nodes: int
    probes: int  # oracle calls: every decision node below the root (0 without tables)
    reachable: int  # of those, positions of at most D-1 dice a side
    hits: int

    @classmethod
    def from_cell(cls, data: dict) -> Searched:
        return cls(**{**data, "ranking": tuple((name, value) for name, value in data["ranking"])})


@dataclass(frozen=True)
class Effect:
    """One position searched with and without the tables."""

    position: str
    tables: Searched
    plain: Searched
    load: float  # the load average over 1 minute when the position was searched

    @classmethod
    def from_cell(cls, data: dict) -> Effect:
        return cls(data["position"], Searched.from_cell(data["tables"]), Searched.from_cell(data["plain"]),
                   data["load"])

    def row(self) -> list:
        """The figures of this position the report's JSON keeps (its cells keep every move's value)."""
        return [self.position, self.tables.move, self.plain.move, round(self.tables.value, 6),
                round(self.plain.value, 6), round(self.worth, 6), self.tables.hits, self.tables.reachable,
                round(self.tables.seconds, 4), round(self.plain.seconds, 4)]

    @property
    def changed(self) -> bool:
        return self.tables.move != self.plain.move

    @property
    def worth(self) -> float:
        """The table-backed search's value of its own choice less its value of the plain search's."""
        return self.tables.value - dict(self.tables.ranking)[self.plain.move]

    @property
    def value_change(self) -> float:
        return self.tables.value - self.plain.value


class ExactCheck(NamedTuple):
    """The exact values of a position's best move and of the two searches' choices (mover's view)."""

    best: float
    with_tables: float
    without: float


def exact_check(exact: Tablebase, effect: Effect, game: Rolldown) -> ExactCheck | None:
    """Where the tables of the position's own size hold it (its table and its swap stored, as part of
    a build of D dice a side may have them), the exact values of both choices; else None."""
    state = game.parse(effect.position)
    signature = Signature.of_state(state)
    if not (exact.has(signature) and exact.has(signature.swap())):
        return None
    try:
        values = {game.action_name(state, action): value for action, value in exact.move_values(state)}
    except KeyError:  # a smaller table its captures lead to is missing (partial tables)
        return None
    return ExactCheck(max(values.values()), values[effect.tables.move], values[effect.plain.move])


def exact_summary(checks: list[tuple[Effect, ExactCheck]]) -> dict:
    """How the two searches' choices fare against exact values, over the positions that have them."""
    n = len(checks)
    changed = [(e, c) for e, c in checks if e.changed]
    gains = [c.with_tables - c.without for _, c in changed]
    return {
        "positions": n,
        "exact_best_with_tables": sum(1 for _, c in checks if c.with_tables >= c.best - TIE),
        "exact_best_without": sum(1 for _, c in checks if c.without >= c.best - TIE),
        "mean_loss_with_tables": math.fsum(c.best - c.with_tables for _, c in checks) / n if n else 0.0,
        "mean_loss_without": math.fsum(c.best - c.without for _, c in checks) / n if n else 0.0,
        "changed": len(changed), "changed_better": sum(1 for g in gains if g > TIE),
        "changed_worse": sum(1 for g in gains if g < -TIE),
        "mean_exact_gain_of_change": math.fsum(gains) / len(gains) if gains else 0.0,
        "largest_exact_gain_of_change": max(gains, default=0.0),
        "largest_exact_loss_of_change": max(0.0, -min(gains, default=0.0)),
    }


def search_once(searcher: Searcher, state: RolldownState, depth: int, oracle: SmallerTables | None) -> Searched:
    """``searcher``'s search of ``state`` as a record. The fitted evaluation's remembered estimates
    (one memo for the whole process) are forgotten first, so the second search of a position does
    not find the first one's leaves estimated already: each starts as a fresh ``best`` would."""
    if oracle is not None:
        oracle.reachable = 0
    if getattr(searcher.game, "evaluation", None) == "fitted":
        load_model().forget()
    started = time.perf_counter()
    result = searcher.search(state, depth=depth)
    seconds = time.perf_counter() - started
    return Searched(result.best.name, result.value, tuple((m.name, m.value) for m in result.moves), result.exact,
                    seconds, result.stats.nodes, result.stats.table_probes,
                    oracle.reachable if oracle is not None else 0, result.stats.table_hits)


class PositionJob(NamedTuple):
    """One position's cell: what a worker process needs to search it both ways."""

    name: str
    position: str
    dice: int
    depth: int
    evaluation: str
    tables: str | None


def engines(dice: int, evaluation: str, tables: str | None) -> tuple[Rolldown, Searcher, SmallerTables, Searcher]:
    """The game, the searcher probing the tables of at most ``dice - 1`` dice a side (with its oracle)
    and the searcher without tables: made once per process."""
    game = Rolldown(evaluation=evaluation)
    with_tables = turn_engine(game, tables_dir=tables)
    oracle = SmallerTables(with_tables.tables, dice - 1)
    with_tables.searcher.oracle = oracle
    return game, with_tables.searcher, oracle, turn_engine(game, use_tables=False).searcher


def engines_key(dice: int, evaluation: str, tables: str | None) -> str:
    """Which engines a process keeps (:func:`~dicetree.solver.parallel.made_once`)."""
    return f"{BENCHMARK}-{dice}-{evaluation}-{tables}"


def measure_position(job: PositionJob) -> dict:
    """The cell of one position (kept in ``benchmarks/.cells/``: computed once), in whichever process runs it."""
    game, searcher, oracle, plain = made_once(engines_key(job.dice, job.evaluation, job.tables),
                                              lambda: engines(job.dice, job.evaluation, job.tables))

    def compute() -> dict:
        state = game.parse(job.position)
        return asdict(Effect(job.position, search_once(searcher, state, job.depth, oracle),
                             search_once(plain, state, job.depth, None), os.getloadavg()[0]))

    return cell(BENCHMARK, job.name, compute)


def missing_tables(base: Tablebase, most_dice: int) -> tuple[list[str], int]:
    """The tables of at most ``most_dice`` dice a side (no cards) not stored, and how many there are."""
    wanted = all_signatures(most_dice)
    return [sig.name for sig in wanted if not base.has(sig)], len(wanted)


def summary(effects: list[Effect]) -> dict:
    """The figures of one run (see the module's notes)."""
    n = len(effects)
    changed = [e for e in effects if e.changed]
    low, high = wilson_interval(len(changed), n)
    sizes = [abs(e.value_change) for e in effects]
    worths = [e.worth for e in changed]
    mean_size, spread, _ = mean_and_spread(sizes)

    def total(side: str, field: str) -> int:
        return sum(getattr(getattr(e, side), field) for e in effects)

    probes, reachable, hits = total("tables", "probes"), total("tables", "reachable"), total("tables", "hits")
    seconds_tables = math.fsum(e.tables.seconds for e in effects) / n if n else 0.0
    seconds_plain = math.fsum(e.plain.seconds for e in effects) / n if n else 0.0
    return {
        "positions": n, "changed": len(changed), "changed_share": len(changed) / n if n else 0.0,
        "changed_interval": [low, high], "changed_ties": sum(1 for w in worths if w <= TIE),
        "mean_abs_value_change": mean_size, "mean_abs_value_change_spread": spread,
        "largest_abs_value_change": max(sizes, default=0.0),
        "mean_signed_value_change": math.fsum(e.value_change for e in effects) / n if n else 0.0,
        "mean_worth_of_change": math.fsum(worths) / len(worths) if worths else 0.0,
        "largest_worth_of_change": max(worths, default=0.0),
        "mean_worth_per_position": math.fsum(worths) / n if n else 0.0,
        "table_probes": probes, "reachable_probes": reachable, "table_hits": hits,
        "hit_share_of_reachable": hits / reachable if reachable else 0.0,
        "exact_with_tables": sum(e.tables.exact for e in effects), "exact_without": sum(e.plain.exact for e in effects),
        "seconds_per_search_tables": seconds_tables, "seconds_per_search_plain": seconds_plain,
        "nodes_per_search_tables": total("tables", "nodes") / n if n else 0.0,
        "nodes_per_search_plain": total("plain", "nodes") / n if n else 0.0,
    }


def example_of(effects: list[Effect]) -> Effect | None:
    """The first position whose best move changed (not between tied moves, if another did)."""
    changed = [e for e in effects if e.changed]
    return next((e for e in changed if e.worth > TIE), changed[0] if changed else None)


def example_lines(effect: Effect, game: Rolldown, exact: Tablebase, top: int = 5) -> list[str]:
    """Both rankings of a position whose best move changed (the first ``top`` moves of each, and
    where the other search's choice stands), with every move's exact value where it is stored."""
    state = game.parse(effect.position)
    check = exact_check(exact, effect, game)
    values = ({game.action_name(state, action): value for action, value in exact.move_values(state)}
              if check is not None else {})
    lines = [f"Example, the first position whose best move changed: `{effect.position}` "
             f"({game.player_name(state.mover)} to move).", "",
             "| rank | with tables | value | exact | without tables | value | exact |",
             "|---:|---|---:|---:|---|---:|---:|"]
    names_t = [name for name, _ in effect.tables.ranking]
    names_p = [name for name, _ in effect.plain.ranking]
    ranks = sorted(set(range(min(top, len(names_t)))) | {names_t.index(effect.plain.move),
                                                         names_p.index(effect.tables.move)})
    for rank in ranks:
        (name_t, value_t), (name_p, value_p) = effect.tables.ranking[rank], effect.plain.ranking[rank]
        exact_t, exact_p = (f"{values[name]:.4f}" if name in values else "–" for name in (name_t, name_p))
        lines.append(f"| {rank + 1} | {name_t} | {value_t:.4f} | {exact_t} | {name_p} | {value_p:.4f} | {exact_p} |")
    return lines


def report_text(args: argparse.Namespace, data: dict, effects: list[Effect], game: Rolldown,
                exact: Tablebase) -> str:
    """The Markdown report of one run (``data``: what ``main`` writes as JSON)."""
    s, x = data["summary"], data["exact_check"]
    most, partial = args.dice - 1, data["partial"]
    smaller = f"{most} {'die' if most == 1 else 'dice'} a side"
    loads = sorted(e.load for e in effects)
    title = (f"# RolldownBeta: what {most}-dice endgame tables change in a depth-{args.depth} search of "
             f"{args.dice}-dice positions{' (partial tables)' if partial else ''}")
    command = (f"`nice -n 10 .venv/bin/python benchmarks/rolldown_tables_effect.py --dice {args.dice} --positions "
               f"{args.positions} --depth {args.depth} --evaluation {args.evaluation} --seed {args.seed} --tables "
               f"{args.tables}{' --allow-partial' if partial else ''}{f' --jobs {args.jobs}' if args.jobs > 1 else ''}`")
    lines = [title, "",
             f"{command}: {s['positions']} random positions of {args.dice} dice a side (no cards, faces uniform, "
             f"the mover drawn), each searched to depth {args.depth} with the {args.evaluation} evaluation twice: "
             f"probing the tables of at most {smaller} ({data['tables_stored']:,} of "
             f"{data['tables_wanted']:,} stored{', PARTIAL' if partial else ', all'}) and with none. "
             f"{data['seconds']:.0f} s in this run (cells kept from earlier runs not searched again); load average "
             f"over 1 minute while the positions were searched: {loads[0]:.2f} to {loads[-1]:.2f} (median "
             f"{statistics.median(loads):.2f}) on {os.cpu_count()} CPUs.", "",
             "| positions | best move changed | 95% interval | of which ties | mean change of root value | "
             "largest | mean worth of a change | largest | per position |",
             "|---:|---:|---|---:|---:|---:|---:|---:|---:|",
             f"| {s['positions']} | {s['changed']} ({s['changed_share']:.1%}) | {s['changed_interval'][0]:.1%} – "
             f"{s['changed_interval'][1]:.1%} | {s['changed_ties']} | {s['mean_abs_value_change']:.4f} | "
             f"{s['largest_abs_value_change']:.4f} | {s['mean_worth_of_change']:.4f} | "
             f"{s['largest_worth_of_change']:.4f} | {s['mean_worth_per_position']:.5f} |", "",
             f"| table probes | of positions with at most {smaller} | hits | hit share | exact searches "
             "with / without | s / search with tables | without | nodes / search with | without |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
             f"| {s['table_probes']:,} | {s['reachable_probes']:,} | {s['table_hits']:,} | "
             f"{s['hit_share_of_reachable']:.1%} | {s['exact_with_tables']} / {s['exact_without']} | "
             f"{s['seconds_per_search_tables']:.3f} | {s['seconds_per_search_plain']:.3f} | "
             f"{s['nodes_per_search_tables']:,.0f} | {s['nodes_per_search_plain']:,.0f} |", "",
             "Change of root value: its size, the table-backed search's root value less the plain one's "
             f"(signed mean {s['mean_signed_value_change']:+.4f}). Worth of a change: the table-backed search's value "
             "of its own choice less its value of the plain search's choice, over the positions whose move changed "
             f"(ties: within {TIE:g}); per position: the same summed over all positions and divided by them. Table "
             "probes: every decision node below the root, counted over both iterations of iterative deepening; "
             "hits: those a stored table answered.", ""]
    if x["positions"]:
        lines += [f"**Exact check**: {x['positions']} of the positions have their own {args.dice}-dice tables stored "
                  f"({data['own_size_stored']:,} of {data['own_size_wanted']:,} signatures of {args.dice} dice a "
                  "side), so every move's exact value is known there (read, never probed by the searches).", "",
                  "| positions | exact best chosen with tables | without | mean exact loss with tables | without | "
                  "changed | better | worse | mean exact gain of a change | largest gain | largest loss |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                  f"| {x['positions']} | {x['exact_best_with_tables']} | {x['exact_best_without']} | "
                  f"{x['mean_loss_with_tables']:.4f} | {x['mean_loss_without']:.4f} | {x['changed']} | "
                  f"{x['changed_better']} | {x['changed_worse']} | {x['mean_exact_gain_of_change']:.4f} | "
                  f"{x['largest_exact_gain_of_change']:.4f} | {x['largest_exact_loss_of_change']:.4f} |", ""]
    else:
        lines += [f"No position has its own {args.dice}-dice tables stored: no exact check.", ""]
    example = example_of(effects)
    if example is not None:
        lines += example_lines(example, game, exact)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dice", type=int, default=5, help="dice a side of the positions searched (2 to 6)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--evaluation", default=DEFAULT_EVALUATION, choices=EVALUATIONS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", default=None, help="table folder (default: $DICETREE_TABLES, else the cache)")
    parser.add_argument("--allow-partial", action="store_true",
                        help="measure even if some tables of D-1 dice a side are missing (the report says partial)")
    parser.add_argument("--output", default=None, help="report stem (default results/tables-effect/effect-<D>dice)")
    parser.add_argument("--jobs", type=int, default=1, help="local processes searching positions at once (cells "
                        "are kept whichever runs them; seconds per search then include the processes' sharing)")
    args = parser.parse_args(argv)
    if not 2 <= args.dice <= 6:
        print(f"--dice {args.dice}: positions need 2 to 6 dice a side (tables of one fewer)", file=sys.stderr)
        return 2
    if args.positions < 1 or args.depth < 1:
        print("--positions and --depth must be at least 1", file=sys.stderr)
        return 2
    try:
        workers = Workers(jobs=args.jobs)
        game, _, oracle, _ = made_once(engines_key(args.dice, args.evaluation, args.tables),
                                         lambda: engines(args.dice, args.evaluation, args.tables))
        base = oracle.base
        missing, wanted = missing_tables(base, args.dice - 1)
    except GameError as error:
        print(error, file=sys.stderr)
        return 2
    partial = bool(missing)
    if partial and not args.allow_partial:
        print(f"the tables of {args.dice - 1} dice a side in {base.store.root} are not all stored ({len(missing):,} of "
              f"{wanted:,} missing, e.g. {missing[0]}): build them (`dicetree tablebase build rolldown --dice "
              f"{args.dice - 1}`) or measure on what is there with --allow-partial", file=sys.stderr)
        return 2
    started = time.perf_counter()
    rng = random.Random(args.seed)
    states = [random_position(rng, args.dice, 0) for _ in range(args.positions)]
    stored = wanted - len(missing)
    suffix = f"-partial{stored}" if partial else ""
    jobs = [PositionJob(f"{args.dice}dice-depth{args.depth}-{args.evaluation}-seed{args.seed}-{k:04d}{suffix}",
                        game.format(state), args.dice, args.depth, args.evaluation, args.tables)
            for k, state in enumerate(states)]
    effects = []
    with workers.executor() as pool:
        for k, found in enumerate(map(measure_position, jobs) if pool is None else pool.map(measure_position, jobs)):
            effects.append(Effect.from_cell(found))
            if (k + 1) % 10 == 0:
                print(f"{k + 1}/{len(states)} positions, {time.perf_counter() - started:.0f} s", flush=True)
    # exact values where the position's own tables are stored (a D=4 run while the 4-dice build is
    # under way): read without checking checksums, so nothing (no stamp) is written to the folder
    exact = Tablebase(TableStore(base.store.root, verify="never"), ace=game.ace)
    checks = [(e, check) for e in effects if (check := exact_check(exact, e, game)) is not None]
    own_size = [sig for sig in all_signatures(args.dice) if sig.dice == args.dice]
    example = example_of(effects)
    data = {"dice": args.dice, "depth": args.depth, "evaluation": args.evaluation, "seed": args.seed,
            "tables": str(base.store.root), "partial": partial, "tables_stored": stored, "tables_wanted": wanted,
            "seconds": time.perf_counter() - started,
            "summary": summary(effects), "exact_check": exact_summary(checks),
            "own_size_stored": sum(exact.has(sig) for sig in own_size), "own_size_wanted": len(own_size),
            "example": asdict(example) if example is not None else None,
            "columns": list(ROW), "positions": [e.row() for e in effects]}
    stem = Path(args.output) if args.output else RESULTS / f"effect-{args.dice}dice{'-partial' if partial else ''}"
    write_report(stem, report_text(args, data, effects, game, exact), data)
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
