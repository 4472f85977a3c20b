"""``dicetree study rolldown --mine D --theirs D -o NAME``: exact values over every pair of faces.

Each side lists its dice; exactly one die a side has no face (rows: the mover's, columns: the
opponent's); the others are fixed with a face (``d4:3``). See :mod:`solver.study`.

Usage::

    dicetree study rolldown --mine d8 --theirs d6 -o results/studies/d8-d6
    dicetree study rolldown --mine d8 --theirs d6 --hand K/- -o results/studies/d8-d6-K
    dicetree study rolldown --mine d8,d4:3 --theirs d6,d10:7 --tables /tmp/tables -o two-dice

Writes NAME.csv and NAME.png (values), NAME-moves.csv and NAME-moves.png (the best move of each
cell) and, when ``--hand`` holds cards, NAME-gain.csv and NAME-gain.png: the value with those
hands minus the value with no cards (what the cards are worth).
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from cache.store import TableStore
from cli.options import ace_option, tables_option
from solver.game import GameError
from solver.games.rolldown.tablebase import Tablebase
from solver.study import StudySpec, run_study, write_study

NO_CARDS = "-/-"


@click.command()
@click.argument("game_name", metavar="GAME", type=click.Choice(["rolldown", "dicegeddon"]))
@click.option("--mine", help="rolldown: the mover's dice, e.g. d8 or d8,d4:3 (one without a face: the rows).")
@click.option("--theirs", help="rolldown: the opponent's dice, e.g. d6 or d6,d10:7 (one without a face: the columns).")
@click.option("--army-size", type=click.IntRange(4), help="dicegeddon: every legal army of this size against every other.")
@click.option("--mulligan", is_flag=True, help="dicegeddon: with the mulligan variant.")
@click.option("--several-defenders", is_flag=True, help="dicegeddon: with the several-defenders variant.")
@click.option("--no-chains", is_flag=True, help="dicegeddon: a defender may not be defended (rule chains=false).")
@click.option("--hand", default=NO_CARDS, show_default=True, help="Hands as mover's/opponent's, e.g. K/- or QK/5.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="NAME: writes NAME.csv, NAME.png, NAME-moves.{csv,png} (and NAME-gain.{csv,png} with cards).")
@click.option("--exact-limit", type=click.IntRange(0), default=None,
              help="dicegeddon: pairings with a larger estimated state graph are sampled, not solved "
                   "[default: 120,000].")
@click.option("--strategy", default=None, metavar="STRATEGY",
              help="dicegeddon: the strategy both sides play in sampled pairings [default: solver:depth=1].")
@click.option("--games", type=click.IntRange(2), default=400, show_default=True,
              help="dicegeddon: games per sampled pairing (half with each army as player A).")
@click.option("--seed", type=int, default=0, show_default=True, help="dicegeddon: seed of the sampled games.")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="dicegeddon: worker processes (the same result for any number).")
@click.option("--pairing", metavar="ARMY/ARMY",
              help="dicegeddon: only this pairing (e.g. d20/d4,d4,d4,d4,d4), exact if small enough, else "
                   "sampled with --games over --jobs processes; no files are written.")
@ace_option
@tables_option
def study(game_name, mine, theirs, army_size, mulligan, several_defenders, no_chains, hand, output, exact_limit, strategy,
          games, seed, jobs, pairing, ace, tables_dir) -> None:
    """Exact studies: RolldownBeta values over every pair of faces of one die against another,
    with the best move of each; Dicegeddon armies against each other, with the optimal mix."""
    if game_name == "dicegeddon":
        if army_size is None:
            raise GameError("a Dicegeddon study needs --army-size")
        _army_study(army_size, mulligan, several_defenders, not no_chains, Path(output) if output else None,
                    exact_limit, strategy, games, seed, jobs, pairing)
        return
    if not mine or not theirs or not output:
        raise GameError("a RolldownBeta study needs --mine, --theirs and -o NAME")
    spec = StudySpec.parse(mine, theirs, hand)
    base = Tablebase(TableStore(tables_dir), ace=ace)
    solved = run_study(spec, base)
    baseline = None
    if spec.hand.replace("-", "").replace("/", ""):
        baseline = run_study(StudySpec(spec.mine, spec.theirs, NO_CARDS), base)
    stem = Path(output)
    if stem.suffix in (".csv", ".png"):
        stem = stem.with_suffix("")
    written = write_study(stem, solved, baseline)
    values = solved.values
    click.echo(f"{spec.title}: {values.size} positions, mover's mean win probability {values.mean():.4f} "
               f"(min {values.min():.4f}, max {values.max():.4f}); tables in {base.store.root}")
    for path in written:
        click.echo(f"wrote {path}")


def _pairing(game, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    from solver.games.dicegeddon.rules import parse_army

    halves = text.split("/")
    if len(halves) != 2:
        raise GameError(f"--pairing takes two armies as ARMY/ARMY, e.g. d20/d4,d4,d4,d4,d4, not '{text}'")
    armies = tuple(parse_army(half) for half in halves)
    for army in armies:
        game.check_army(army)
    return armies


def _army_study(army_size: int, mulligan: bool, several_defenders: bool, chains: bool, stem: Path | None,
                exact_limit, strategy,
                games: int, seed: int, jobs: int, pairing: str | None) -> None:
    """Every legal army against every other (exact where small, else sampled) and the Nash mix."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from solver.duel import parse_strategy
    from solver.games.dicegeddon import armies as study_module
    from solver.games.dicegeddon.rules import Dicegeddon

    game = Dicegeddon(army_size=army_size, mulligan=mulligan, several_defenders=several_defenders, chains=chains)
    variant = "".join(f" ({name})" for name, on in (("mulligan", mulligan), ("several defenders", several_defenders),
                                                     ("no chains", not chains)) if on)
    strategy = str(parse_strategy(strategy or study_module.DEFAULT_STRATEGY))
    if games % 2:
        raise GameError(f"--games must be even (each deal is played with each army as player A), not {games}")
    if pairing is not None:
        armies = _pairing(game, pairing)
    else:
        if stem is None:
            raise GameError("an army study needs -o NAME (or --pairing A/B for one pairing)")
        armies = tuple(study_module.legal_armies(army_size, game.dice))
    config = study_module.StudyConfig(
        army_size, game.dice, mulligan, several_defenders, armies, strategy=strategy, games=games, seed=seed,
        exact_limit=study_module.EXACT_LIMIT if exact_limit is None else exact_limit, chains=chains)
    if pairing is not None:
        started = time.perf_counter()
        cell = (study_module.solve_cell(config, 0, 1) if config.is_exact(0, 1)
                else study_module.sample_cell(config, 0, 1, jobs=jobs))
        names = " against ".join(study_module.army_name(a) for a in armies)
        how = (f"exact ({cell.states:,} states, residual {cell.residual:.1e}, certified: {cell.certified})"
               if cell.method == "exact" else
               f"95% CI {cell.low:.4f} to {cell.high:.4f}, {cell.games:,} games of {strategy} self-play")
        click.echo(f"{names}{variant}: {cell.value:.4f} for the first army; {how}; "
                   f"{time.perf_counter() - started:.1f} s")
        return
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=not console.is_terminal, transient=True) as progress:
        task = progress.add_task(f"army size {army_size}", total=len(armies) * (len(armies) + 1) // 2)
        result = study_module.run_army_study(config, jobs=jobs, on_cell=lambda cell: progress.advance(task))
    title = f"Dicegeddon, army size {army_size}{variant}: A's win probability"
    for path in study_module.write_army_study(stem.with_suffix("") if stem.suffix else stem, result, title):
        click.echo(f"wrote {path}")
    click.echo(study_module.summary(result))
