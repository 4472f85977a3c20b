"""How often RolldownBeta's depth-limited search picks the exact best move, per leaf evaluation.

Random positions of ``--dice`` dice a side (each side's dice drawn from the six kinds, faces
uniform, the mover drawn too; nobody on a first turn), optionally with one card in the mover's
hand (``--mover-cards 1``: one of the 27 physical cards, uniformly), are searched to each
``--depths`` with the endgame tables switched off (no oracle: every leaf is the evaluation's; with
``--probe-below``, probing the tables of fewer dice a side than the positions have, as ``best`` does), once
per evaluation (``--rule evaluation=...``), and the chosen move is looked up in the exact move
values of the tables: it is *exact* when its exact value is the best one (to 1e-9), and its *loss*
is the best exact value less its own, in win probability. The tables each position needs are built
into ``--tables`` first (3 dice without cards: ``dicetree tablebase build rolldown --dice 3``, about
2.2 GiB; with a card, each position's own closure, about 2 million positions, on demand, and packs
of it stored before endless play was scored as a draw solved again). With 4 dice or more (or
``--stored-only``) positions are drawn only from the tables stored (a folder still being built:
redrawn until one is), and nothing is built. ``--model NAME=PATH`` adds an evaluation ``NAME``: the
fitted model of another data file (``research/rolldown_evaluation_fit.py --model-out``), or the value
network of one (``research/rolldown_network_train.py --out``).

Two kinds of evaluation measure what accuracy a leaf evaluation needs: their leaves are exact
values from the tables (:class:`dicetree.solver.games.rolldown.exact_leaves.ExactLeaves`) with an
error of a chosen size. ``oracle-noise:SIGMA[:SEED]``: plus a normal error of sigma SIGMA in win
probability, fixed per position by SEED (default 1), clipped to [0, 1]; ``oracle-mix:LAMBDA[:MODEL]``:
plus LAMBDA times the shipped fitted model's error (``exact + LAMBDA * (fitted - exact)``), or that of
the ``--model`` named MODEL (``oracle-mix:1:MODEL`` is MODEL, its leaves' error measured). Their rows
add the mean absolute error of the leaves the searches evaluated (``leaf error``); 0 gives exact
leaves (and an exact best move at any depth).

Reported per evaluation and depth: exact best moves with their 95% (Wilson) interval, the mean
loss with its 95% interval (normal approximation), the worst loss, the mean error of the search's
root value against the exact value, and the time per search; and why choices miss: how many of
the misses are *close calls* (the chosen move within ``CLOSE`` = 0.005 of the exact best), how
many positions are close calls whatever is chosen (the exact best and second-best values within
``CLOSE``), and the share of the total loss that the misses losing more than ``CLOSE`` make. Every (position, evaluation, depth)
result is appended to ``<output>.partial.jsonl`` as it is found, so a stopped run resumes.

Usage::

    .venv/bin/python benchmarks/rolldown_evaluation.py --positions 200 --depths 2,3
    .venv/bin/python benchmarks/rolldown_evaluation.py --positions 200 --depths 2 --mover-cards 1
    .venv/bin/python benchmarks/rolldown_evaluation.py --positions 60 --dice 4 --depths 2 --evaluations fitted,fitted3 \
        --model fitted3=results/rolldown-evaluation/fitted_evaluation_3dice.json
    .venv/bin/python benchmarks/rolldown_evaluation.py --positions 200 --depths 2 \
        --evaluations oracle-noise:0,oracle-noise:0.01,oracle-mix:0.25 --output results/rolldown-evaluation/leaf-accuracy
    .venv/bin/python benchmarks/rolldown_evaluation.py --positions 10 --depths 2 --quick   # no files

Writes ``results/rolldown-evaluation/accuracy-<dice>dice[-card].{md,json}``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from report import write_report

from dicetree.cache.store import TableStore
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES
from dicetree.solver.games.rolldown.exact_leaves import ExactLeaves
from dicetree.solver.games.rolldown.fitted import load_model
from dicetree.solver.games.rolldown.network import FORMAT as NETWORK_FORMAT
from dicetree.solver.games.rolldown.network import load_network
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature
from dicetree.solver.results import mean_and_spread, wilson_interval
from dicetree.solver.search import Searcher

RESULTS = Path(__file__).resolve().parent.parent / "results" / "rolldown-evaluation"
EVALUATIONS = ("fitted", "heuristic")
TIE = 1e-9
CLOSE = 0.005
DECK = [card for card, copies in DECK_COPIES.items() for _ in range(copies)]


def random_position(rng: random.Random, dice: int, mover_cards: int) -> RolldownState:
    """A position of ``dice`` dice a side, faces uniform, ``mover_cards`` cards in the mover's hand."""
    rows = []
    for _ in (0, 1):
        slots = set(rng.sample(range(len(DIE_SIDES)), dice))
        rows.append(tuple(rng.randint(1, sides) if slot in slots else 0 for slot, sides in enumerate(DIE_SIDES)))
    mover = rng.randrange(2)
    hand = tuple(sorted(rng.sample(DECK, mover_cards)))
    hands = (hand, ()) if mover == 0 else ((), hand)
    return RolldownState(dice=tuple(rows), mover=mover, hands=hands)


@dataclass(frozen=True)
class Outcome:
    """One search of one position: the move chosen, its loss against the exact best, and figures."""

    position: str
    evaluation: str
    depth: int
    move: str
    exact: bool
    loss: float
    value_error: float  # the search's root value less the exact value of the position
    seconds: float
    nodes: int
    gap: float  # the exact best value less the best value of a move that is not an exact best (0: all tie)
    leaf_error: float | None = None  # exact leaves with an error: the mean abs error of the leaves evaluated


def stored_positions(rng: random.Random, count: int, dice: int, mover_cards: int, tablebase: Tablebase):
    """``count`` of :func:`random_position`'s positions whose own table is stored (the rest redrawn), for
    tables that are being built: the sample is of the stored tables only."""
    states = []
    while len(states) < count:
        state = random_position(rng, dice, mover_cards)
        if tablebase.has(Signature.of_state(state)):
            states.append(state)
    return states


def exact_leaves(name: str, tablebase: Tablebase, models: dict[str, str]) -> ExactLeaves | None:
    """The exact leaves with an error that evaluation ``name`` asks for (``oracle-noise:SIGMA[:SEED]``,
    ``oracle-mix:LAMBDA[:MODEL]``, MODEL one of ``models``), or None for any other name."""
    kind, _, spec = name.partition(":")
    if kind == "oracle-noise":
        sigma, _, seed = spec.partition(":")
        return ExactLeaves(tablebase, noise=float(sigma), seed=int(seed or 1))
    if kind == "oracle-mix":
        share, _, model = spec.partition(":")
        return ExactLeaves(tablebase, mix=float(share), model=model_estimate(models[model]) if model else None)
    return None


def evaluation_game(name: str, models: dict[str, str], leaves: ExactLeaves | None = None) -> Rolldown:
    """The game whose search uses evaluation ``name``: ``fitted``, ``heuristic``, one of ``models`` (a
    fitted model's data file other than the shipped one), or ``leaves`` (:func:`exact_leaves`)."""
    if leaves is not None:
        return Rolldown(estimate=leaves.estimate)
    if name in models:
        return Rolldown(estimate=model_estimate(models[name]))
    return Rolldown(evaluation=name)


def model_estimate(path: str):
    """The estimate of the data file at ``path``: a value network's, or a fitted model's."""
    if json.loads(Path(path).read_text()).get("format") == NETWORK_FORMAT:
        return load_network(path).estimate
    return load_model(path).estimate


def measure(game: Rolldown, searcher: Searcher, state: RolldownState, exact: dict, depth: int,
            evaluation: str, leaves: ExactLeaves | None = None) -> Outcome:
    if leaves is not None:
        leaves.reset()
    started = time.perf_counter()
    result = searcher.search(state, depth=depth)
    seconds = time.perf_counter() - started
    best = max(exact.values())
    chosen = exact[result.best.name]
    others = [v for v in exact.values() if v < best - TIE]
    return Outcome(game.format(state), evaluation, depth, result.best.name, chosen >= best - TIE,
                   best - chosen, result.value - best, seconds, result.stats.nodes, best - max(others, default=best),
                   None if leaves is None else leaves.mean_abs_error)


def summary(outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    hits = sum(o.exact for o in outcomes)
    low, high = wilson_interval(hits, n)
    loss, spread, _ = mean_and_spread([o.loss for o in outcomes])
    half = 1.96 * spread / n**0.5 if n else 0.0
    return {
        "positions": n, "exact": hits, "exact_share": hits / n if n else 0.0, "exact_interval": [low, high],
        "mean_loss": loss, "mean_loss_interval": [max(0.0, loss - half), loss + half],
        "worst_loss": max((o.loss for o in outcomes), default=0.0),
        "mean_abs_value_error": sum(abs(o.value_error) for o in outcomes) / n if n else 0.0,
        "mean_abs_leaf_error": (sum(o.leaf_error for o in outcomes) / n
                                if n and all(o.leaf_error is not None for o in outcomes) else None),
        "seconds_per_search": sum(o.seconds for o in outcomes) / n if n else 0.0,
        "nodes_per_search": sum(o.nodes for o in outcomes) / n if n else 0.0,
        "misses": n - hits,
        "close_misses": sum(1 for o in outcomes if not o.exact and o.loss <= CLOSE),
        "close_positions": sum(1 for o in outcomes if o.gap <= CLOSE),
        "wide_miss_loss_share": (sum(o.loss for o in outcomes if o.loss > CLOSE) / total
                                 if (total := sum(o.loss for o in outcomes)) else 0.0),
    }


def paired(first: list[Outcome], second: list[Outcome]) -> dict:
    """Two evaluations on the same positions: how often they choose alike, the positions only one gets
    exact, and the mean of the first's loss less the second's with its 95% interval (normal)."""
    n = len(first)
    difference, spread, _ = mean_and_spread([a.loss - b.loss for a, b in zip(first, second)])
    half = 1.96 * spread / n**0.5 if n else 0.0
    return {"positions": n, "same_move": sum(a.move == b.move for a, b in zip(first, second)),
            "exact_only_first": sum(a.exact and not b.exact for a, b in zip(first, second)),
            "exact_only_second": sum(b.exact and not a.exact for a, b in zip(first, second)),
            "loss_difference": difference, "loss_difference_interval": [difference - half, difference + half]}


def wanted_tables(dice: int) -> list[Signature]:
    """The tables of ``dice`` dice a side without cards."""
    kinds = list(itertools.combinations(DIE_SIDES, dice))
    return [Signature(mine, theirs) for mine in kinds for theirs in kinds]


def load_partial(path: Path) -> dict[tuple[str, str, int], Outcome]:
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                outcome = Outcome(**json.loads(line))
                done[(outcome.position, outcome.evaluation, outcome.depth)] = outcome
    return done


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--dice", type=int, default=3, help="dice a side")
    parser.add_argument("--mover-cards", type=int, default=0, choices=(0, 1, 2, 3))
    parser.add_argument("--depths", default="2,3", help="search depths, comma-separated")
    parser.add_argument("--evaluations", default=",".join(EVALUATIONS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", default=None, help="table folder (default: $DICETREE_TABLES, else the cache)")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=PATH",
                        help="an evaluation NAME (for --evaluations) from the fitted model's or value network's data file at PATH")
    parser.add_argument("--stored-only", action="store_true", help="draw only positions whose table is stored "
                        "(for a folder being built; the default with 4 dice or more)")
    parser.add_argument("--pairs", choices=("all", "first"), default="all", help="side-by-side rows for every "
                        "two evaluations, or only the first against each other one")
    parser.add_argument("--probe-below", action="store_true", help="the searches probe the tables of fewer dice "
                        "a side than the positions have (as `best` does; default: no tables in the search)")
    parser.add_argument("--quick", action="store_true", help="print only: no results files, no checkpoint")
    parser.add_argument("--output", default=None)
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    evaluations = args.evaluations.split(",")
    stem = Path(args.output or RESULTS / f"accuracy-{args.dice}dice{'-card' if args.mover_cards else ''}")
    partial = stem.with_name(stem.name + ".partial.jsonl")
    done = {} if args.quick else load_partial(partial)
    started = time.perf_counter()

    models = dict(item.split("=", 1) for item in args.model)
    rng = random.Random(args.seed)
    tablebase = Tablebase(TableStore(args.tables), ace="online")
    if args.stored_only or args.dice >= 4:
        states = stored_positions(rng, args.positions, args.dice, args.mover_cards, tablebase)
    else:
        states = [random_position(rng, args.dice, args.mover_cards) for _ in range(args.positions)]
    leaves = {name: exact_leaves(name, tablebase, models) for name in evaluations}
    games = {name: evaluation_game(name, models, leaves[name]) for name in evaluations}
    searchers = {(name, depth): Searcher(game, cache_slots=2**18) for name, game in games.items() for depth in depths}
    if args.probe_below:
        from rolldown_tables_effect import SmallerTables  # here: that benchmark imports this one

        for searcher in searchers.values():
            searcher.oracle = SmallerTables(tablebase, args.dice - 1)
    outcomes: dict[tuple[str, int], list[Outcome]] = {key: [] for key in searchers}
    with (open(partial, "a") if not args.quick else open("/dev/null", "w")) as checkpoint:
        for k, state in enumerate(states):
            text = games[evaluations[0]].format(state)
            exact = None
            for (name, depth), searcher in searchers.items():
                outcome = done.get((text, name, depth))
                if outcome is None:
                    if exact is None:
                        tablebase.ensure(state)
                        if any(state.hands):  # the card tables' own folder: packs stored before endless
                            tablebase.build(roots=[Signature.of_state(state)])  # play was scored are solved again
                        exact = {games[name].action_name(state, a): v for a, v in tablebase.move_values(state)}
                    outcome = measure(games[name], searcher, state, exact, depth, name, leaves[name])
                    checkpoint.write(json.dumps(asdict(outcome)) + "\n")
                    checkpoint.flush()
                outcomes[(name, depth)].append(outcome)
            if (k + 1) % 25 == 0:
                print(f"{k + 1}/{len(states)} positions, {time.perf_counter() - started:.0f} s", flush=True)

    stored = sum(1 for s in wanted_tables(args.dice) if tablebase.has(s)) if args.stored_only or args.dice >= 4 else None
    report = {"stored_tables": stored, "models": models, "dice": args.dice, "mover_cards": args.mover_cards, "seed": args.seed, "positions": args.positions,
              "results": {f"{name} depth {depth}": summary(found) for (name, depth), found in outcomes.items()}}
    cards = ", one card in the mover's hand" if args.mover_cards == 1 else (
        f", {args.mover_cards} cards in the mover's hand" if args.mover_cards else ", no cards")
    command = (f"`.venv/bin/python benchmarks/rolldown_evaluation.py --positions {args.positions} --dice {args.dice} "
               f"--mover-cards {args.mover_cards} --depths {args.depths} --evaluations {args.evaluations} "
               f"--seed {args.seed}" + "".join(f" --model {item}" for item in args.model)
               + (" --stored-only" if args.stored_only else "") + (" --probe-below" if args.probe_below else "")
               + (f" --pairs {args.pairs}" if args.pairs != "all" else "") + "`")
    lines = [f"# RolldownBeta: the search's best move against exact values, {args.dice} dice a side{cards}", "",
             f"{command} ({time.perf_counter() - started:.0f} s, "
             + (f"the search probing the tables of at most {args.dice - 1} dice a side" if args.probe_below
                else "tables off in the search") + ", exact move values "
             "from the endgame tables). Loss: the exact best move's winning chance less the chosen move's."
             + (f" Positions drawn only from the {stored} tables of {args.dice} dice a side without cards stored "
                "(the rest redrawn)." if stored is not None else "")
             + "".join(f" `{name}`: the model in `{path}`." for name, path in models.items()), "",
             "| evaluation | depth | positions | exact best move | 95% interval | mean loss | 95% interval | "
             "worst loss | mean abs value error | mean abs leaf error | s / search | nodes / search |",
             "|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|---:|"]
    for key, s in report["results"].items():
        name, _, depth = key.partition(" depth ")
        leaf = "–" if s["mean_abs_leaf_error"] is None else f"{s['mean_abs_leaf_error']:.4f}"
        lines.append(
            f"| {name} | {depth} | {s['positions']} | {s['exact']} ({s['exact_share']:.1%}) | "
            f"{s['exact_interval'][0]:.1%} – {s['exact_interval'][1]:.1%} | {s['mean_loss']:.4f} | "
            f"{s['mean_loss_interval'][0]:.4f} – {s['mean_loss_interval'][1]:.4f} | {s['worst_loss']:.3f} | "
            f"{s['mean_abs_value_error']:.3f} | {leaf} | {s['seconds_per_search']:.3f} | {s['nodes_per_search']:,.0f} |")
    lines += ["", f"Why choices miss (close: within {CLOSE} of the exact best).", "",
              "| evaluation | depth | misses | close misses | positions whose best two moves are close | "
              "share of the loss from wider misses |", "|---|---:|---:|---:|---:|---:|"]
    for key, s in report["results"].items():
        name, _, depth = key.partition(" depth ")
        lines.append(f"| {name} | {depth} | {s['misses']} | {s['close_misses']} | {s['close_positions']} | "
                     f"{s['wide_miss_loss_share']:.0%} |")
    report["paired"] = {f"{a} against {b} depth {depth}": paired(outcomes[(a, depth)], outcomes[(b, depth)])
                        for depth in depths for a, b in itertools.combinations(evaluations, 2)
                        if args.pairs == "all" or a == evaluations[0]}
    lines += ["", "Side by side on the same positions (loss difference: the first's loss less the second's).", "",
              "| evaluations | depth | same move | exact only with the first | only with the second | "
              "loss difference | 95% interval |", "|---|---:|---:|---:|---:|---:|---|"]
    for key, s in report["paired"].items():
        pair, _, depth = key.partition(" depth ")
        lines.append(f"| {pair} | {depth} | {s['same_move']} of {s['positions']} | {s['exact_only_first']} | "
                     f"{s['exact_only_second']} | {s['loss_difference']:+.4f} | "
                     f"{s['loss_difference_interval'][0]:+.4f} – {s['loss_difference_interval'][1]:+.4f} |")
    text = "\n".join(lines) + "\n"
    if args.quick:
        print(text)
    else:
        write_report(stem, text, report)


if __name__ == "__main__":
    main()
