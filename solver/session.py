"""The line played: a start position, the moves made from it, and the way back and forth along it.

What ``dicetree play`` and ``dicetree explore`` share, for any game on the :mod:`dicetree.solver.game`
interface: :func:`node_of` says what can happen at a position (who decides and with which moves,
the chance outcomes, each player's choices where players choose at once); :func:`parse_move` reads
a move, an outcome or a joint choice typed by a person; :class:`Line` is an immutable line of play
with a cursor, as an analysis board keeps one: playing a move after going back replaces the moves
that followed.

Usage::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> line = Line.start(game, game.parse("d8:5/d6:3 a -/-"))
    >>> line.node().kind, line.node().moves
    ('decision', ('d8xd6', 'roll a.d8', 'roll b.d6'))
    >>> line = line.play("roll b.d6")
    >>> line.node().kind, line.node().outcomes[:2]
    ('chance', (('b.d6=1', 0.16666666666666666), ('b.d6=2', 0.16666666666666666)))
    >>> line = line.play("b.d6=6").back()
    >>> line.moves, line.cursor, line.forward().position
    (('roll b.d6', 'b.d6=6'), 1, 'd8:5/d6:6 b -/-')

At a simultaneous node a joint move is one choice per choosing player, in player order, joined by
``' | '`` (``'keep | roll 1g'``).
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, GameError, IllegalMoveError, State, \
    TooManyOutcomes

DECISION, CHANCE_KIND, SIMULTANEOUS_KIND, TERMINAL_KIND = "decision", "chance", "simultaneous", "terminal"
JOINT_SEPARATOR = " | "
LISTED_OUTCOMES = 5_000
"""Chance nodes with more outcomes than this are offered as a roll only (their outcomes are not listed)."""


@dataclass(frozen=True)
class Node:
    """What can happen at one position, by name (for a person, a page or JSON).

    ``kind`` is ``'decision'``, ``'chance'``, ``'simultaneous'`` or ``'terminal'``; ``mover`` the
    deciding player's index (-1 otherwise) and ``mover_name`` the game's name for them; ``moves``
    the legal moves' names at a decision; ``outcomes`` (name, probability) pairs at a chance node
    (empty where there are more than :data:`LISTED_OUTCOMES`: ``outcome_count`` says how many);
    ``choices`` each player's options at a simultaneous node (empty for a player without choice);
    ``returns`` at the end."""

    position: str
    kind: str
    mover: int
    mover_name: str
    players: tuple[str, ...]
    moves: tuple[str, ...] = ()
    outcomes: tuple[tuple[str, float], ...] = ()
    outcome_count: int = 0
    choices: tuple[tuple[str, ...], ...] = ()
    returns: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position, "kind": self.kind, "mover": self.mover_name, "players": list(self.players),
            "moves": list(self.moves), "outcomes": [{"outcome": name, "probability": p} for name, p in self.outcomes],
            "outcome_count": self.outcome_count, "choices": [list(own) for own in self.choices],
            "returns": list(self.returns),
        }

    def text(self) -> str:
        """A few lines for a terminal: whose turn and what may be played."""
        if self.kind == TERMINAL_KIND:
            scores = ", ".join(f"{name} {value:g}" for name, value in zip(self.players, self.returns))
            return f"Game over: {scores}"
        if self.kind == DECISION:
            return f"{self.mover_name} to move: {', '.join(self.moves)}"
        if self.kind == CHANCE_KIND:
            listed = ", ".join(name for name, _ in self.outcomes[:12])
            more = f", ... ({self.outcome_count} outcomes)" if self.outcome_count > 12 else ""
            return f"Chance: roll, or give an outcome ({listed}{more})" if listed else \
                f"Chance: roll ({self.outcome_count:,} outcomes, too many to list)"
        lines = ["Players choose at once:"]
        lines += [f"  {name}: {', '.join(own)}" for name, own in zip(self.players, self.choices) if own]
        return "\n".join(lines)


def node_kind(game: Game, state: State) -> str:
    """``'decision'``, ``'chance'``, ``'simultaneous'`` or ``'terminal'``."""
    player = game.current_player(state)
    return {CHANCE: CHANCE_KIND, SIMULTANEOUS: SIMULTANEOUS_KIND, TERMINAL: TERMINAL_KIND}.get(player, DECISION)


def node_of(game: Game, state: State) -> Node:
    """What can happen at ``state`` (see :class:`Node`)."""
    player = game.current_player(state)
    kind = node_kind(game, state)
    node = partial(Node, game.format(state), kind, max(player, -1), game.player_name(player) if player >= 0 else "",
                   tuple(game.player_name(p) for p in range(game.num_players)))
    if kind == DECISION:
        return node(moves=tuple(game.action_name(state, a) for a in game.legal_actions(state)))
    if kind == CHANCE_KIND:
        count = game.chance_outcome_count(state)
        outcomes: tuple[tuple[str, float], ...] = ()
        if count <= LISTED_OUTCOMES:
            try:
                outcomes = tuple((game.action_name(state, o), float(p)) for o, p in game.chance_outcomes(state))
            except TooManyOutcomes:
                pass
        return node(outcomes=outcomes, outcome_count=count)
    if kind == SIMULTANEOUS_KIND:
        return node(choices=tuple(tuple(game.action_name(state, a) for a in own)
                                            for own in game.joint_actions(state)))
    return node(returns=tuple(float(r) for r in game.returns(state)))


def parse_move(game: Game, state: State, text: str) -> Action:
    """The action ``text`` names at ``state``: a legal move, a chance outcome, or at a simultaneous
    node one choice per choosing player joined by ``' | '``; :class:`IllegalMoveError` (one line) if none.

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("dicefights")
    >>> state = game.parse("3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll")
    >>> game.action_name(state, parse_move(game, state, "keep | roll 2g"))
    'A keep | B roll 2g'
    >>> parse_move(game, state, "keep")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.IllegalMoveError: give one choice for each of A, B, joined by ' | ' (e.g. 'keep | keep')
    """
    kind = node_kind(game, state)
    if kind == TERMINAL_KIND:
        raise IllegalMoveError(f"the game is over at '{game.format(state)}': no move can be played")
    if kind == CHANCE_KIND and game.chance_outcome_count(state) > LISTED_OUTCOMES:
        raise IllegalMoveError(f"this chance node has {game.chance_outcome_count(state):,} outcomes: "
                               "roll instead, or give the position after it")
    if kind != SIMULTANEOUS_KIND:
        return game.parse_action(state, text)
    options = game.joint_actions(state)
    choosing = [p for p, own in enumerate(options) if own]
    parts = [part.strip() for part in text.split(JOINT_SEPARATOR.strip())]
    if len(parts) != len(choosing):
        example = JOINT_SEPARATOR.join(game.action_name(state, options[p][0]) for p in choosing)
        raise IllegalMoveError(f"give one choice for each of {', '.join(game.player_name(p) for p in choosing)}, "
                               f"joined by '{JOINT_SEPARATOR}' (e.g. '{example}')")
    joint: list[Action | None] = [None] * len(options)
    for player, part in zip(choosing, parts):
        names = {game.action_name(state, a): a for a in options[player]}
        if part not in names:
            listed = ", ".join(list(names)[:12]) + (", ..." if len(names) > 12 else "")
            raise IllegalMoveError(f"'{part}' is not a choice of {game.player_name(player)} here; choices: {listed}")
        joint[player] = names[part]
    return tuple(joint)


@dataclass(frozen=True)
class Line:
    """A line of play from ``states[0]``: ``moves[i]`` (a name) led from ``states[i]`` to
    ``states[i + 1]``; ``cursor`` is the position shown. Every method returns a new line."""

    game: Game
    states: tuple[State, ...]
    moves: tuple[str, ...] = ()
    cursor: int = 0
    movers: tuple[int, ...] = field(default=())  # who played each move (a player, CHANCE or SIMULTANEOUS)

    @classmethod
    def start(cls, game: Game, state: State) -> Line:
        return cls(game, (state,))

    @classmethod
    def from_position(cls, game: Game, position: str) -> Line:
        """A line starting at a position string (one line :class:`~dicetree.solver.game.PositionError` if malformed)."""
        return cls.start(game, game.parse(position))

    @property
    def state(self) -> State:
        return self.states[self.cursor]

    @property
    def position(self) -> str:
        return self.game.format(self.state)

    def node(self) -> Node:
        return node_of(self.game, self.state)

    def play(self, text: str) -> Line:
        """The line with the move, outcome or joint choice ``text`` played at the cursor (what
        followed the cursor is replaced)."""
        return self.play_action(parse_move(self.game, self.state, text))

    def play_action(self, action: Action) -> Line:
        game, state = self.game, self.state
        mover = game.current_player(state)
        if mover == TERMINAL:
            raise IllegalMoveError(f"the game is over at '{game.format(state)}': no move can be played")
        name = game.action_name(state, action)
        keep = self.cursor + 1
        return Line(game, self.states[:keep] + (game.apply(state, action),), self.moves[:self.cursor] + (name,),
                    keep, self.movers[:self.cursor] + (mover,))

    def roll(self, rng: random.Random) -> Line:
        """The line with a chance outcome drawn with its probability."""
        if not self.game.is_chance(self.state):
            raise IllegalMoveError("there is nothing to roll here: a player decides")
        return self.play_action(self.game.sample_chance(self.state, rng))

    def back(self) -> Line:
        if self.cursor == 0:
            raise GameError("already at the start of the line")
        return Line(self.game, self.states, self.moves, self.cursor - 1, self.movers)

    def forward(self) -> Line:
        if self.cursor == len(self.moves):
            raise GameError("already at the end of the line")
        return Line(self.game, self.states, self.moves, self.cursor + 1, self.movers)

    def undo(self) -> Line:
        """Back one move, forgetting it."""
        line = self.back()
        return Line(line.game, line.states[:line.cursor + 1], line.moves[:line.cursor], line.cursor,
                    line.movers[:line.cursor])

    def _repr_html_(self) -> str:
        """Jupyter shows the position, whose turn and what may be played, and the line so far."""
        node = self.node()
        played = " ".join(f"<b>{html.escape(m)}</b>" if i == self.cursor - 1 else html.escape(m)
                          for i, m in enumerate(self.moves))
        board = self.game.board(self.state)  # the game's drawing of the position, where it has one
        rows = [*([board.svg()] if board is not None else []), f"<code>{html.escape(node.position)}</code>",
                html.escape(node.text()).replace("\n", "<br>"),
                f"<small>line: {played or '(start)'}</small>"]
        return f"<div><b>{html.escape(self.game.game_type.long_name)}</b><br>" + "<br>".join(rows) + "</div>"


__all__ = ["CHANCE_KIND", "DECISION", "JOINT_SEPARATOR", "LISTED_OUTCOMES", "Line", "Node", "SIMULTANEOUS_KIND",
           "TERMINAL_KIND", "node_kind", "node_of", "parse_move"]
