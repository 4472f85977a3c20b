"""``dicetree play GAME [POSITION]``: play against the engine at a prompt, then review your moves.

Usage::

    dicetree play rolldown                       # a fresh deal; you are the first player, the engine 5 s a move
    dicetree play rolldown --example --seat B --time 1
    dicetree play dicefights --seat P2 --depth 1

At your turn type a move by its name; ``?`` ranks every move (the engine's view), ``undo`` takes back
your last move (and what followed it), ``quit`` stops. At a chance node ``roll`` (or an empty line)
draws an outcome, or type one (``b.d6=3``) for a game on a real table. Where players choose at
once each of your seats is asked for its choice. A bad line gets one line of error and the game goes
on. At the end every move you made is reviewed against the engine's best, with its loss.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import click

from dicetree.cli.options import (DEFAULT_TIME, PositionCommand, default_limits, game_argument, load_with_rules,
                                  rule_option, tables_option)
from dicetree.solver.advice import Advice, advise, choices_of
from dicetree.solver.game import Game, GameError, State
from dicetree.solver.players import player_seat
from dicetree.solver.ranking import loss_text
from dicetree.solver.session import CHANCE_KIND, DECISION, JOINT_SEPARATOR, TERMINAL_KIND, Line
from dicetree.solver.simultaneous import SimultaneousResult, sample_choice

HELP = "a move by its name; ? ranks the moves; undo takes your last move back; quit stops"


@dataclass
class Engine:
    """The engine's seats: its advice at a position (remembered, so ``?``, its own move and the review
    of the same position search once) at a depth or within a time."""

    game: Game
    depth: int | None
    time_limit: float | None
    seed: int
    tables_dir: str | None
    exact: bool = False
    memory: dict[tuple[str, int], Advice] = field(default_factory=dict)

    def advice(self, state: State, player: int) -> Advice:
        """Advice for ``player`` on what they see of ``state``."""
        seen = self.game.observe(state, player)
        key = (self.game.format(seen), player)
        if key not in self.memory:
            self.memory[key] = advise(self.game, seen, depth=self.depth, time_limit=self.time_limit, seed=self.seed,
                                      tables_dir=self.tables_dir, exact=self.exact)
        return self.memory[key]


@dataclass(frozen=True)
class Review:
    """One of the person's moves against the engine's best, from the mover's view."""

    position: str
    player: str
    move: str
    best: str
    value: float
    best_value: float

    @property
    def loss(self) -> float:
        """How much worse than the best (never negative: a move valued above the engine's best by
        rounding lost nothing)."""
        return max(0.0, self.best_value - self.value)


class Quit(Exception):
    """The person typed quit (or the input ended)."""


@click.command(cls=PositionCommand)
@game_argument
@click.argument("position", required=False)
@click.option("--example", is_flag=True, help="Start from the game's built-in example position.")
@click.option("--seat", "seats", multiple=True, metavar="PLAYER",
              help="A seat you play, by the game's name for it (A, P2, ...) or its number (repeatable; default "
                   "the first player; the engine plays the others).")
@click.option("--depth", type=click.IntRange(1, 64), help=f"The engine searches N decisions deep (default: the game's own depth, else {DEFAULT_TIME:g} s a move by "
                   "iterative deepening, as `best`).")
@click.option("--time", "time_limit", type=click.FloatRange(0.01), help="The engine thinks at most SECONDS a move.")
@click.option("--exact", is_flag=True, help="The engine plays exact values (stored ones where the game has them, else "
                                           "the whole state graph solved: small positions only).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deal, of rolls and of the engine.")
@tables_option
@rule_option
def play(game_name, position, example, seats, depth, time_limit, exact, seed, tables_dir, rules) -> None:
    """Play GAME against the engine from a fresh start, POSITION or --example, at a prompt."""
    game = load_with_rules(game_name, rules)
    if example and position is not None:
        raise GameError("give a POSITION or --example, not both")
    rng = random.Random(seed)
    if example:
        position = game.example_position()
    start = game.parse(position) if position is not None else game.new_game(rng)
    humans = {seat_of(game, text) for text in seats} or {0}
    depth, time_limit = default_limits(game, depth, time_limit)  # as `best`: a hidden hand makes depth 2 minutes long
    engine = Engine(game, depth, time_limit, seed, tables_dir, exact)
    names = ", ".join(game.player_name(p) for p in sorted(humans))
    strength = "exact values" if exact else f"depth {depth}" if depth else f"{time_limit:g} s a move"
    click.echo(f"{game.game_type.long_name}: you play {names}; the engine the rest ({strength}). Type: {HELP}.")
    line, choices = _play(game, Line.start(game, start), humans, engine, rng)
    if line.node().kind == TERMINAL_KIND:
        click.echo(line.node().text())
    reviews = review(engine, line, humans, choices)
    click.echo(format_review(reviews))


def seat_of(game: Game, text: str) -> int:
    """The player a ``--seat`` names: their name in any case (``B``, ``b``, ``P2``: as positions read
    players, :mod:`dicetree.solver.players`) or their number from 1."""
    wanted = text.strip()
    seat = player_seat(wanted, game.num_players)
    if seat is not None:
        return seat
    if wanted.isdigit() and 1 <= int(wanted) <= game.num_players:
        return int(wanted) - 1
    raise GameError(f"--seat {text!r} names no player: choose {', '.join(game.player_name(p) for p in range(game.num_players))}"
                    f" or 1..{game.num_players}")


def _prompt(label: str) -> str:
    """One line typed by the person; :class:`Quit` at the end of the input."""
    try:
        text = click.prompt(label, default="", show_default=False, prompt_suffix="> ")
    except click.Abort:
        raise Quit from None
    if text.strip().lower() in ("quit", "q", "exit"):
        raise Quit
    return text.strip()


Choices = dict[int, list[tuple[int, str]]]
"""At a simultaneous node of the line (by index), the choices the person made: (player, choice name)."""


def _play(game: Game, line: Line, humans: set[int], engine: Engine, rng: random.Random) -> tuple[Line, Choices]:
    """The prompt loop; returns the line played and the person's simultaneous choices."""
    choices: Choices = {}
    while True:
        node = line.node()
        if node.kind == TERMINAL_KIND:
            return line, choices
        try:
            if node.kind == CHANCE_KIND:
                line = _chance(line, rng, humans, choices)
            elif node.kind == DECISION and node.mover in humans:
                line = _human_move(line, node.mover, engine, humans, choices)
            elif node.kind == DECISION:
                line = _engine_move(line, node.mover, engine)
            else:
                line = _simultaneous(line, humans, engine, rng, choices)
        except Quit:
            click.echo("stopped.")
            return line, choices
        except GameError as error:
            click.echo(f"error: {' '.join(str(error).split())}")  # one line, and the game goes on
        for index in [i for i in choices if i >= line.cursor]:  # undone
            del choices[index]


def _chance(line: Line, rng: random.Random, humans: set[int], choices: Choices) -> Line:
    text = _prompt("roll (or an outcome)")
    if text in ("", "roll"):
        line = line.roll(rng)
    elif text == "?":
        click.echo(line.node().text())
        return line
    elif text == "undo":
        return _undo(line, humans, choices)
    else:
        line = line.play(text)
    click.echo(f"  {line.moves[-1]}")
    return line


def _human_move(line: Line, player: int, engine: Engine, humans: set[int], choices: Choices) -> Line:
    game = line.game
    click.echo(f"{game.format(game.observe(line.state, player))}")
    click.echo(line.node().text())
    text = _prompt(game.player_name(player))
    if text == "?":
        click.echo(format_ranking(choices_of(engine.advice(line.state, player), player)))
        return line
    if text == "undo":
        return _undo(line, humans, choices)
    return line.play(text) if text else line  # an empty line shows the position again


def _undo(line: Line, humans: set[int], choices: Choices) -> Line:
    """Back to before the person's last move (what the engine and chance did after it goes too)."""
    mine = [i for i, mover in enumerate(line.movers[:line.cursor]) if mover in humans or i in choices]
    if not mine:
        raise GameError("nothing of yours to undo")
    while line.cursor > mine[-1]:
        line = line.undo()
    click.echo(f"undone: back at {line.position}")
    return line


def _engine_move(line: Line, player: int, engine: Engine) -> Line:
    moves = choices_of(engine.advice(line.state, player), player)
    best = moves[0]
    others = ", ".join(f"{m.name} {m.value:.3f}" for m in moves[1:4])
    click.echo(f"{line.game.player_name(player)} plays {best.name} (value {best.value:.3f}"
               f"{'; then ' + others if others else ''})")
    return line.play_action(best.action)


def _simultaneous(line: Line, humans: set[int], engine: Engine, rng: random.Random, choices: Choices) -> Line:
    game, node = line.game, line.node()
    picked: list[str] = []
    mine: list[tuple[int, str]] = []
    for player, own in enumerate(node.choices):
        if not own:
            continue
        if player in humans:
            click.echo(f"{game.player_name(player)} chooses from: {', '.join(own)}")
            text = _prompt(game.player_name(player))
            if text == "undo":
                return _undo(line, humans, choices)
            if text == "?":
                click.echo(format_ranking(choices_of(engine.advice(line.state, player), player)))
                return line
            if not text:
                return line
            if text not in own:
                raise GameError(f"'{text}' is not a choice of {game.player_name(player)} here")
            mine.append((player, text))
            picked.append(text)
        else:
            answer = engine.advice(line.state, player)
            assert isinstance(answer, SimultaneousResult)
            picked.append(game.action_name(line.state, sample_choice(answer, player, rng)))
    index = line.cursor
    line = line.play(JOINT_SEPARATOR.join(picked))
    if mine:
        choices[index] = mine
    click.echo(f"  {line.moves[-1]}")
    return line


def review(engine: Engine, line: Line, humans: set[int], choices: Choices) -> list[Review]:
    """Each of the person's moves along ``line`` (up to its cursor) against the engine's best."""
    game = line.game
    made: list[tuple[State, int, str]] = []
    for index in range(line.cursor):
        state, mover, move = line.states[index], line.movers[index], line.moves[index]
        if mover in humans:
            made.append((state, mover, move))
        made += [(state, player, name) for player, name in choices.get(index, [])]
    reviews = []
    for state, player, move in made:
        ranked = choices_of(engine.advice(state, player), player)
        chosen = next(m for m in ranked if m.name == move)
        reviews.append(Review(game.format(game.observe(state, player)), game.player_name(player), move,
                              ranked[0].name, chosen.value, ranked[0].value))
    return reviews


def format_ranking(moves) -> str:
    """Ranked moves as lines: rank, name, value and loss."""
    return "\n".join(f"{rank:>3}  {m.name:<16} {m.value:>8.4f}  {loss_text(m, rank):>8}".rstrip()
                     for rank, m in enumerate(moves, 1))


def format_review(reviews: list[Review]) -> str:
    """The review: each move with the best and the loss, and the total."""
    if not reviews:
        return "Review: you made no move."
    lines = ["Review of your moves (value for the mover; loss against the engine's best):"]
    for number, item in enumerate(reviews, 1):
        verdict = "best" if item.loss <= 1e-9 else f"loss {item.loss:.4f} (best {item.best} {item.best_value:.4f})"
        lines.append(f"{number:>3}. {item.player} {item.move:<16} {item.value:.4f}  {verdict}")
    lines.append(f"Total loss {sum(r.loss for r in reviews):.4f} over {len(reviews)} moves")
    return "\n".join(lines)
