"""``dicetree play GAME [POSITION]``: play against the engine at a prompt, then review your moves.

Usage::

    dicetree play rolldown                       # a fresh deal; you are the first player, the engine 5 s a move
    dicetree play rolldown --example --seat B --time 1
    dicetree play dicefights --seat P2 --depth 1

The board is drawn in the terminal as your seat sees it (:mod:`dicetree.cli.board_text`: the dice
with their faces, the cards, the scores), with the position's notation under it. At your turn type
a move by its name: the legal moves are listed grouped (``7: a.d8 a.d10 ...``), or, where there are
many (Roll For It!'s placements), counted with a few examples; ``moves`` lists them all, ``?`` or
``hint`` gives the engine's advice (the moves ranked, each with its loss, never negative), ``undo``
takes back your last move (and what followed it), ``quit`` stops. At a chance node ``roll`` (or an
empty line) draws an outcome, or type one (``b.d6=3``) for a game on a real table. Where players
choose at once each of your seats is asked for its choice. A bad line gets one line of error and the
game goes on. At the end every move you made is reviewed against the engine's best, with its loss.

What the engine's seats hide (its hand) never reaches the screen: the board, the notation, the
outcomes of chance and the engine's own moves are shown as your seat sees them.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

import click

from dicetree.cli.options import (DEFAULT_TIME, PositionCommand, default_limits, game_argument, load_with_rules,
                                  rule_option, tables_option)
from dicetree.solver.advice import Advice, advise, choices_of
from dicetree.solver.game import Game, GameError, State
from dicetree.solver.players import player_seat
from dicetree.solver.session import CHANCE_KIND, DECISION, JOINT_SEPARATOR, TERMINAL_KIND, Line
from dicetree.solver.simultaneous import SimultaneousResult, sample_choice

HELP = "a move by its name; moves lists them; ? or hint for the engine's advice; undo takes your last move back; quit stops"
LISTED_MOVES = 40
"""More legal moves than this are counted (with a few examples), not listed, until ``moves`` is typed."""
RANKED_MOVES = 10
"""The engine's advice lists this many moves, best first."""
ADVICE = ("?", "hint")


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
        show(line, min(humans))
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
                line = _engine_move(line, node.mover, engine, min(humans))
            else:
                line = _simultaneous(line, humans, engine, rng, choices)
        except Quit:
            click.echo("stopped.")
            return line, choices
        except GameError as error:
            click.echo(f"error: {' '.join(str(error).split())}")  # one line, and the game goes on
        for index in [i for i in choices if i >= line.cursor]:  # undone
            del choices[index]


def show(line: Line, viewer: int) -> None:
    """The board as ``viewer`` sees it, drawn, and its notation (what that seat sees, no more)."""
    game = line.game
    seen = game.observe(line.state, viewer)
    board = game.board(seen)
    if board is not None:
        from dicetree.cli.board_text import board_text

        click.echo(board_text(board, colour=sys.stdout.isatty()))
    click.echo(f"position: {game.format(seen)}")


def hides_from(line: Line, viewer: int) -> bool:
    """Whether ``viewer`` sees less than the whole position (another seat's hidden hand)."""
    return line.game.observe(line.state, viewer) != line.state


def moves_text(moves: tuple[str, ...] | list[str], everything: bool = False) -> str:
    """The legal moves, short: grouped by their first word (``7: a.d8 a.d10``) where that groups
    them, and where there are more than :data:`LISTED_MOVES` (and not ``everything``), counted with a
    few examples and how to list them.

    >>> print(moves_text(["d6xd8", "X", "7 a.d8", "7 b.d8", "roll a.d4"]))
    5 moves:
      d6xd8 X
      7: a.d8 b.d8
      roll: a.d4
    >>> moves_text([f"G{i:02d}:6,G27:1" for i in range(50)])
    '50 moves, e.g. G00:6,G27:1  G01:6,G27:1  G02:6,G27:1: type one as shown, or `moves` to list them all'
    """
    apart = "  " if any("," in move for move in moves) else ", "  # moves written with commas: spaces between
    if len(moves) > LISTED_MOVES and not everything:
        return f"{len(moves)} moves, e.g. {apart.join(moves[:3])}: type one as shown, or `moves` to list them all"
    heads: dict[str, list[str]] = {}
    for move in moves:
        head, _, rest = move.partition(" ")
        heads.setdefault(head + ":" if rest else "", []).append(rest or move)  # one-word moves together
    plural = "s" if len(moves) != 1 else ""
    if len(heads) == len(moves) or len(heads) == 1:  # nothing to group
        return f"{len(moves)} move{plural}: {apart.join(moves)}"
    return "\n".join([f"{len(moves)} move{plural}:"] + [f"  {head} {' '.join(rest)}".replace("   ", "  ", 1)
                                                         for head, rest in sorted(heads.items(), key=lambda h: h[0] != "")])


def _advice(line: Line, player: int, engine: Engine) -> None:
    """The engine's advice for ``player`` (on what that seat sees): the best moves ranked."""
    click.echo(format_ranking(choices_of(engine.advice(line.state, player), player)))


def _chance(line: Line, rng: random.Random, humans: set[int], choices: Choices) -> Line:
    viewer = min(humans)
    show(line, viewer)
    text = _prompt("roll (or an outcome)")
    if text in ("", "roll"):
        line = line.roll(rng)
    elif text in ADVICE:
        click.echo(line.node().text())
        return line
    elif text == "undo":
        return _undo(line, humans, choices)
    else:
        line = line.play(text)
    # an outcome's name may tell what is hidden from this seat (the engine's cards dealt): then only
    # the board, as the seat sees it, shows what happened
    click.echo(f"  {line.moves[-1]}" if not hides_from(line, viewer) else "  rolled")
    return line


def _human_move(line: Line, player: int, engine: Engine, humans: set[int], choices: Choices) -> Line:
    show(line, player)
    click.echo(f"{line.game.player_name(player)} to move: {moves_text(line.node().moves)}")
    text = _prompt(line.game.player_name(player))
    if text in ADVICE:
        _advice(line, player, engine)
        return line
    if text == "moves":
        click.echo(moves_text(line.node().moves, everything=True))
        return line
    if text == "undo":
        return _undo(line, humans, choices)
    return line.play(text) if text else line  # an empty line shows the position again


def _undo(line: Line, humans: set[int], choices: Choices) -> Line:
    """Back to before the person's last move (what the engine and chance did after it goes too); the
    board is shown again at the next prompt, as the person's seat sees it."""
    mine = [i for i, mover in enumerate(line.movers[:line.cursor]) if mover in humans or i in choices]
    if not mine:
        raise GameError("nothing of yours to undo")
    undone = line.moves[mine[-1]]
    while line.cursor > mine[-1]:
        line = line.undo()
    click.echo(f"undone: back before your move {undone}")
    return line


def _engine_move(line: Line, player: int, engine: Engine, viewer: int) -> Line:
    moves = choices_of(engine.advice(line.state, player), player)
    best = moves[0]
    # its values come from what its seat sees: shown only where that is no more than the person sees
    others = "" if hides_from(line, viewer) else ", ".join(f"{m.name} {m.value:.3f}" for m in moves[1:4])
    value = "" if hides_from(line, viewer) else f" (value {best.value:.3f}{'; then ' + others if others else ''})"
    click.echo(f"{line.game.player_name(player)} plays {best.name}{value}")
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
            if text in ADVICE:
                _advice(line, player, engine)
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


def format_ranking(moves, top: int = RANKED_MOVES) -> str:
    """The engine's advice: the ``top`` moves best first, each with its value and its loss against the
    best (never negative), and how many more there are.

    >>> from types import SimpleNamespace as M
    >>> print(format_ranking([M(name="K a.d4", value=0.61, loss=0.0), M(name="roll", value=0.6, loss=0.01)]))
    The engine advises (value for you; loss against the best):
      1. K a.d4            0.6100  best
      2. roll              0.6000  loss 0.0100
    """
    lines = ["The engine advises (value for you; loss against the best):"]
    lines += [f"{rank:>3}. {m.name:<16} {m.value:>7.4f}  {'best' if rank == 1 else f'loss {max(0.0, m.loss):.4f}'}"
              for rank, m in enumerate(moves[:top], 1)]
    if len(moves) > top:
        lines.append(f"     ... and {len(moves) - top} more moves")
    return "\n".join(lines)


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
