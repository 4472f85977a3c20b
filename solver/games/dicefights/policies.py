"""Dice Fights' own strategies: fixed policies and its solver, as duels and studies offer them.

A :class:`Policy` is a strategy (:class:`dicetree.solver.strategies.Strategy`) that answers each
simultaneous node for one player by a chooser per kind of node: a re-roll, a target, a purchase.
The purchase policies (:data:`PURCHASE_POLICIES`) differ only in what they buy; they all keep their
dice (no re-roll) and point at the opponent they hurt most (the lowest Life on a tie), so a duel
between them measures the purchase order alone:

* ``dice`` — as many Core Dice as the Gold allows; once the Cache is empty, upgrades;
* ``attack`` / ``defense`` / ``gold`` — save for that upgrade and buy it until its multiplier is
  at 4 (the last purchase's change goes on Core Dice), then as ``dice``;
* ``box`` — save for the Game Box while it is in the Cache, then as ``dice``;
* ``random`` — any of the purchase options, uniformly;
* ``solver`` — the purchase node solved by :class:`dicetree.solver.simultaneous.SimultaneousSearcher`
  (depth 1: the purchases, then the game's evaluation), its mixed strategy sampled.

:data:`STRATEGY_KINDS` are the kinds ``dicetree duel dicefights`` offers besides the built-in
``random`` (the game's :meth:`~dicetree.solver.game.Game.strategies`): ``greedy``, ``attack``, ``buy-NAME``
and its own ``solver`` (the built-in simultaneous solver, the dice kept unless ``reroll=1``).
A played game stops after :data:`TURN_LIMIT` rounds (defensive policies can stall); the players
still in share it.

Usage::

    >>> import random
    >>> from dicetree.solver.games.dicefights import DiceFights
    >>> game = DiceFights()
    >>> record = play_game(game, [POLICIES["dice"], POLICIES["attack"]], random.Random(1))
    >>> record.returns in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)), record.turns > 0
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from dicetree.solver.game import Action, Game, TurnLimit
from dicetree.solver.games.dicefights.faces import SHIELD, SWORD
from dicetree.solver.games.dicefights.rules import DiceFightsRules, hardest_hit
from dicetree.solver.games.dicefights.state import (
    BUY,
    KEEP,
    MAX_MULTIPLIER,
    NO_OWNER,
    REROLL,
    ROLL,
    TARGET,
    Bundle,
    DiceFightsState,
    Reroll,
    Target,
)
from dicetree.solver.match import play_game as play
from dicetree.solver.results import GameRecord
from dicetree.solver.strategies import (
    DEFAULT_SIMULTANEOUS_DEPTH,
    SimultaneousSolverStrategy,
    Strategy,
    StrategyKind,
    StrategySpec,
    depth_option,
    int_option,
)

TURN_LIMIT = TurnLimit(300, "rounds", "shared among the players still in")
"""A played game still going after this many rounds is stopped (the game's ``turn_limit``)."""
MAX_ROUNDS = TURN_LIMIT.turns

Chooser = Callable[[Game, DiceFightsState, int, Sequence, random.Random], Action]
"""(game, state, player, the player's options, rng) -> one of the options."""


# ----- a played game's length (the game's turn_limit, starts_turn and stopped_returns) ---------------
def starts_round(state: DiceFightsState) -> bool:
    """A round starts at its roll."""
    return state.phase == ROLL


def shared_among_players_in(state: DiceFightsState) -> tuple[float, ...]:
    """A stopped game's returns: the players still in share the win."""
    alive = state.alive()
    share = 1.0 / len(alive)
    return tuple(share if p in alive else 0.0 for p in range(state.players))


# ----- choosers ----------------------------------------------------------------------------------
def keep_dice(game: Game, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
    """Re-roll nothing."""
    return KEEP


def hardest_hit_target(game: Game, state: DiceFightsState, player: int, options: Sequence[Target],
                       rng: random.Random) -> Target:
    """The opponent this attack hurts most (against their Shields); the lowest Life on a tie."""
    rules = cast(DiceFightsRules, game)  # Dice Fights' choosers are given Dice Fights
    defense = [rules.symbol_value(state, p, SHIELD) for p in range(state.players)]
    victim = hardest_hit(rules.symbol_value(state, player, SWORD), defense, state.life, [t.victim for t in options])
    return Target(victim)


def _first(field: str) -> Chooser:
    """Save for one upgrade kind until it is at 4; then Core Dice."""
    index = ("attack", "defense", "gold").index(field)

    def choose(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
        mult = state.mults[player][index]
        if mult >= MAX_MULTIPLIER:
            return most_dice(game, state, player, options, rng)
        only = [b for b in options if not b.box and sum(b[1:4]) == b[1 + index]]  # that upgrade alone (or none)
        # The most upgrades; the Gold left saved for the next one, or on Core Dice once at 4.
        return max(only, key=lambda b: (b[1 + index], b.dice if mult + b[1 + index] == MAX_MULTIPLIER else -b.dice))

    choose.__doc__ = f"Save for {field} upgrades until the multiplier is at 4; then Core Dice."
    return choose


def most_dice(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """As many Core Dice as affordable; once the Cache is empty, the most upgrades affordable
    (Attack before Defense before Gold), never the Box."""
    if state.cache() > 0:
        return max((b for b in options if b == Bundle(dice=b.dice)), key=lambda b: b.dice)
    return max((b for b in options if not b.box), key=lambda b: (b.attack + b.defense + b.gold, b.attack, b.defense))


def box_saver(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """The Game Box as soon as affordable (with Core Dice from what is left); save while it is in
    the Cache; once it is gone, Core Dice."""
    if state.box != NO_OWNER:
        return most_dice(game, state, player, options, rng)
    boxes = [b for b in options if b.box and not sum(b[1:4])]
    return max(boxes, key=lambda b: b.dice) if boxes else Bundle()


def any_option(game: Game, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
    """Any option, uniformly."""
    return rng.choice(list(options))


def solved_purchase(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle],
                    rng: random.Random) -> Bundle:
    """The purchase node solved one decision deep; the player's mixed strategy sampled."""
    from dicetree.solver.simultaneous import SimultaneousSearcher, sample_choice  # the LP solver loads when it is used

    choice = sample_choice(SimultaneousSearcher(game).search(state, depth=1), player, rng)
    return cast(Bundle, choice)  # one of the purchase node's options


def greedy_purchase(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle],
                    rng: random.Random) -> Bundle:
    """Spend as much Gold as possible now (the costliest bundle; more Core Dice, then Attack, on a tie)."""
    return max(options, key=lambda b: (b.cost, b.dice, b.attack, b.defense))


def attack_purchase(game: Game, state: DiceFightsState, player: int, options: Sequence[Bundle],
                    rng: random.Random) -> Bundle:
    """As many Attack upgrades as affordable (the menu stops at 4), the rest on Core Dice; never save."""
    plain = [b for b in options if not (b.defense or b.gold or b.box)]
    return max(plain, key=lambda b: (b.attack, b.dice))


def reroll_for_swords(game: Game, state: DiceFightsState, player: int, options: Sequence[Reroll],
                      rng: random.Random) -> Reroll:
    """Re-roll every die not showing a Sword (the Box too, unless it shows one)."""
    swords, shields, gold = state.rolled[player]
    box = 1 if state.box == player and state.box_face != SWORD else 0
    wanted = Reroll(0, shields, gold, box)
    return wanted if wanted in options else KEEP


# ----- strategies --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Policy(Strategy):
    """How one player plays: a chooser per kind of simultaneous node. It keeps nothing between
    choices, so one policy plays any number of seats of any Dice Fights game."""

    name: str
    purchase: Chooser
    reroll: Chooser = keep_dice
    target: Chooser = hardest_hit_target
    shareable = True

    def choose(self, game: Game, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
        chooser = {REROLL: self.reroll, TARGET: self.target, BUY: self.purchase}[state.phase]
        return chooser(game, state, player, options, rng)


class DiceFightsSolver(SimultaneousSolverStrategy):
    """The simultaneous search at the purchase and target nodes (its optimal mixed strategy sampled).
    Re-roll nodes are searched only with ``reroll=1``, else the dice are kept as by the fixed
    policies: a re-roll node's matrix grows with the dice (one search takes ~50 s with 9-11 dice a
    side at depth 1), too slow for duels of many games."""

    def __init__(self, game: Game, spec: StrategySpec):
        super().__init__(game, spec)
        self.search_rerolls = bool(spec.option("reroll"))

    def choose(self, game: Game, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
        if state.phase == REROLL and not self.search_rerolls:
            return KEEP
        return super().choose(game, state, player, options, rng)


PURCHASE_POLICIES: dict[str, Chooser] = {
    "dice": most_dice,
    "attack": _first("attack"),
    "defense": _first("defense"),
    "gold": _first("gold"),
    "box": box_saver,
    "random": any_option,
    "solver": solved_purchase,
}
POLICIES: dict[str, Policy] = {name: Policy(name, chooser) for name, chooser in PURCHASE_POLICIES.items()}
DUEL_POLICIES: dict[str, Policy] = {
    "greedy": Policy("greedy", greedy_purchase),
    "attack": Policy("attack", attack_purchase, reroll=reroll_for_swords),
}
"""The fixed strategies ``greedy`` (greedy buyer: keeps its dice, hits hardest and spends the most
Gold it can each round) and ``attack`` (always-attack: re-rolls every die not showing a Sword, hits
hardest and buys Attack upgrades whenever affordable, the rest on Core Dice)."""


def _fixed(policy: Policy) -> Callable[[Game, StrategySpec], Strategy]:
    return lambda game, spec: policy


STRATEGY_KINDS: tuple[StrategyKind, ...] = (
    StrategyKind("greedy", _fixed(DUEL_POLICIES["greedy"]), "greedy buyer: spends the most Gold it can"),
    StrategyKind("attack", _fixed(DUEL_POLICIES["attack"]), "always-attack: re-rolls for Swords, buys Attack"),
    StrategyKind("solver", DiceFightsSolver, "the simultaneous search at purchase and target nodes; re-rolls "
                 "kept unless reroll=1",
                 (depth_option(DEFAULT_SIMULTANEOUS_DEPTH), int_option("reroll", 0, 0, 1, "search re-roll nodes"))),
    *(StrategyKind(f"buy-{name}", _fixed(policy), f"the {name} purchase policy") for name, policy in POLICIES.items()),
)
"""Dice Fights' strategy kinds (what ``DiceFights.strategies()`` returns)."""


def play_game(
    game: Game,
    policies: Sequence[Strategy],
    rng: random.Random,
    state: DiceFightsState | None = None,
    max_rounds: int | None = None,
    choice_rng: random.Random | None = None,
) -> GameRecord:
    """One game through the play loop (:func:`dicetree.solver.match.play_game`) from ``state`` (a new game by
    default): ``policies[p]`` plays seat p, chance draws from ``rng``, the policies from
    ``choice_rng`` (default: ``rng`` too; a separate stream keeps the dice the same whoever sits
    where: common random numbers). After ``max_rounds`` rounds (default: the game's limit) the game
    stops and the players still in share the win."""
    start = state if state is not None else game.new_game(rng)
    streams = [choice_rng or rng] * len(policies)
    return play(game, tuple(policies), tuple(range(len(policies))), start, rng, streams, turn_limit=max_rounds)


__all__ = [
    "DUEL_POLICIES", "DiceFightsSolver", "MAX_ROUNDS", "POLICIES", "PURCHASE_POLICIES", "Policy", "STRATEGY_KINDS",
    "TURN_LIMIT", "play_game", "shared_among_players_in", "starts_round",
]
