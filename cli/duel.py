"""``dicetree duel GAME --a STRATEGY --b STRATEGY [--c ...]``: strategies play each other many times.

A game for two players only is a duel (A's win rate, each deal played twice with the seats
swapped); a game for more players is a match of two or more strategies (each strategy's share of
the wins against its fair share, the seats rotated). Both run :class:`dicetree.solver.match.Match`.

Usage::

    dicetree duel rolldown --a solver:depth=2 --b random --games 200 --seed 1 --jobs 2
    dicetree duel rolldown --a exact --b greedy --games 400 --position "d8:5,d6:2/d6:3,d4:4 a K/-"
    dicetree duel dicefights --a solver:depth=1 --b greedy --games 100 --seed 1
    dicetree duel dicefights --a greedy --b attack --c random --d buy-dice --games 80 --rule players=4
    dicetree duel rollforit --players 8 --a solver:depth=1 --b human --games 8
    dicetree duel rollforit --players 4 --a solver:depth=2,search=maxn --b solver:depth=2,search=paranoid --games 16
    dicetree duel dicefights --a solver:depth=1 --b greedy --games 400 --workers 4
    dicetree duel rolldown --a fitted:depth=2 --b heuristic:depth=2 --games 2000 --scheduler tcp://10.0.0.5:8786
    dicetree duel rolldown --a network:depth=12,ms=100,all-seeing --b fitted:depth=12,ms=100,all-seeing --games 400
"""

from __future__ import annotations

import json

import click

from dicetree.cli.options import (PositionCommand, cluster_options, game_argument, load_for_position, load_with_rules,
                                  rule_option, writable_output)
from dicetree.cli.progress import progress_bar
from dicetree.solver.game import GameError
from dicetree.solver.json_contracts import versioned
from dicetree.solver.rule_options import split_rule
from dicetree.solver.match import Duel, Match
from dicetree.solver.multiplayer import DEFAULT_SEARCH, SEARCHES
from dicetree.solver.parallel import Workers
from dicetree.solver.results import MatchLog, format_duel, format_match
from dicetree.solver.strategies import SIMULTANEOUS_KINDS, TURN_KINDS

_BUILT_IN = (
    f"{', '.join(kind.usage() for kind in TURN_KINDS)} where players take turns; "
    f"{', '.join(kind.usage() for kind in SIMULTANEOUS_KINDS)} where they choose at once; a game may offer "
    "more (an unknown name lists the game's). With 3+ players taking turns, solver and exact take "
    f"search={'|'.join(SEARCHES)} (default {DEFAULT_SEARCH}). Each strategy sees its own "
    "player's view; where the game hides "
    "cards the searches average over hands=N possible hands (default 16), and ',all-seeing' lets one see them. "
    "The search-based kinds take ms=N: N ms of wall time a move (iterative deepening, depth the deepest; 0, the "
    "default: none); a timed duel is not reproducible game for game: run it in one process (no --jobs, whose "
    "processes compete for the CPU), on as quiet a machine as can be"
)


@click.command(cls=PositionCommand)
@game_argument
@click.option("--a", "spec_a", required=True, metavar="STRATEGY", help=f"Strategy A: {_BUILT_IN}.")
@click.option("--b", "spec_b", required=True, metavar="STRATEGY", help="Strategy B (as --a).")
@click.option("--c", "spec_c", metavar="STRATEGY", help="Strategy C (games for more than two players).")
@click.option("--d", "spec_d", metavar="STRATEGY", help="Strategy D (as --c).")
@click.option("--e", "spec_e", metavar="STRATEGY", help="Strategy E (as --c).")
@click.option("--f", "spec_f", metavar="STRATEGY", help="Strategy F (as --c).")
@click.option("--games", type=int, default=200, show_default=True, metavar="N",
              help="Games to play: a multiple of the number of strategies, each deal being played once per "
                   "rotation of the seats (two strategies: twice, seats swapped).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the deals and dice (same seed, same games).")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True, metavar="N", help="Worker processes.")
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (schema dicetree.duel/1) instead of the report.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), metavar="FILE", callback=writable_output,
              help="Keep every finished deal in FILE (JSON lines); run again with the same options and FILE to "
                   "resume: only the deals it lacks are played.")
@click.option("--position", metavar="POSITION", help="Play every deal from this position instead of random starts.")
@click.option("--players", type=click.IntRange(1), metavar="N",
              help="How many players sit at the table (the same as --rule players=N, for games that declare it); "
                   "the strategies share the seats equally.")
@rule_option
@click.option("--no-progress", is_flag=True,
              help="No progress (a bar on a terminal, else a line every few seconds on stderr).")
def duel(game_name, spec_a, spec_b, spec_c, spec_d, spec_e, spec_f, games, seed, jobs, workers, scheduler, as_json,
         log_path, position, players, rules, no_progress) -> None:
    """Play strategies against each other in GAME and report each one's win rate with a 95% interval.

    \b
    Example:
      dicetree duel rolldown --a solver:depth=1 --b random --games 40
    """
    where = Workers(jobs=jobs, workers=workers, scheduler=scheduler)  # checked before any game
    if players is not None:
        if any(split_rule(text)[0] == "players" for text in rules):
            raise GameError("give --players or --rule players=N, not both")
        rules = rules + (f"players={players}",)
    game, start = load_for_position(game_name, rules, position) if position is not None else \
        (load_with_rules(game_name, rules), None)
    specs = [spec for spec in (spec_a, spec_b, spec_c, spec_d, spec_e, spec_f) if spec is not None]
    if game.game_type.max_players == 2:
        if len(specs) != 2:
            raise GameError(f"{game_name} duels are between two strategies: give --a and --b only")
        match: Match = Duel(game, spec_a, spec_b, games=games, seed=seed, start=start)  # checked before any game
        report = format_duel
    else:
        match = Match(game, tuple(specs), games=games, seed=seed, start=start)
        report = format_match
    log = done = None
    if log_path is not None:
        log = MatchLog(log_path, {"game": game.name, "rules": {k: str(v) for k, v in game.options().items()},
                                  "strategies": [str(spec) for spec in match.specs], "seed": seed, "games": games,
                                  "start": game.format(start) if start is not None else ""})
        done = log.finished_records(match.rotations)
        if done and not as_json:
            click.echo(f"resuming: {len(done) // match.rotations:,} of {match.deals:,} deals already played "
                       f"(from {log_path})", err=True)
    played = len(done or ())
    with progress_bar(" vs ".join(str(spec) for spec in match.specs), enabled=not no_progress) as progress:
        def advance(count: int) -> None:
            nonlocal played
            played += count
            progress(played, games, "")

        result = match.run(jobs=where, on_progress=advance, done=done or (),
                           on_played=log.append_records if log is not None else None)
    click.echo(json.dumps(versioned("duel", result.to_json()), indent=2) if as_json else report(result))
