"""Fixed ways to play Dice Fights, and whole games between them (duels, studies, tests).

A :class:`Policy` answers each simultaneous node for one player: a re-roll, a target, a purchase.
The purchase policies (:data:`PURCHASE_POLICIES`) differ only in what they buy; they all keep their
dice (no re-roll) and point at the opponent they hurt most (the lowest Life on a tie), so a duel
between them measures the purchase order alone:

* ``dice`` — as many Core Dice as the Gold allows; once the Cache is empty, upgrades;
* ``attack`` / ``defense`` / ``gold`` — save for that upgrade and buy it until its multiplier is
  at 4 (the last purchase's change goes on Core Dice), then as ``dice``;
* ``box`` — save for the Game Box while it is in the Cache, then as ``dice``;
* ``random`` — any of the purchase options, uniformly;
* ``solver`` — the purchase node solved by :class:`solver.simultaneous.SimultaneousSearcher`
  (depth 1: the purchases, then the game's evaluation), its mixed strategy sampled.

Usage::

    >>> import random
    >>> from solver.games.dicefights import DiceFights
    >>> game = DiceFights()
    >>> outcome = play_game(game, [POLICIES["dice"], POLICIES["attack"]], random.Random(1))
    >>> outcome.returns in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5)), outcome.rounds > 0
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.game import CHANCE, TERMINAL, Action
from solver.games.dicefights.faces import SHIELD, SWORD
from solver.games.dicefights.game import DiceFights
from solver.games.dicefights.rules import hardest_hit
from solver.games.dicefights.state import (
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

MAX_ROUNDS = 300
"""A game still going after this many rounds is stopped and shared among the players still in."""

Chooser = Callable[[DiceFights, DiceFightsState, int, Sequence, random.Random], Action]
"""(game, state, player, the player's options, rng) -> one of the options."""


def keep_dice(game: DiceFights, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
    """Re-roll nothing."""
    return KEEP


def hardest_hit_target(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Target], rng: random.Random) -> Target:
    """The opponent this attack hurts most (against their Shields); the lowest Life on a tie."""
    defense = [game.symbol_value(state, p, SHIELD) for p in range(state.players)]
    victim = hardest_hit(game.symbol_value(state, player, SWORD), defense, state.life, [t.victim for t in options])
    return Target(victim)


def _first(field: str) -> Chooser:
    """Save for one upgrade kind until it is at 4; then Core Dice."""
    index = ("attack", "defense", "gold").index(field)

    def choose(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
        mult = state.mults[player][index]
        if mult >= MAX_MULTIPLIER:
            return most_dice(game, state, player, options, rng)
        only = [b for b in options if not b.box and sum(b[1:4]) == b[1 + index]]  # that upgrade alone (or none)
        # The most upgrades; the Gold left saved for the next one, or on Core Dice once at 4.
        return max(only, key=lambda b: (b[1 + index], b.dice if mult + b[1 + index] == MAX_MULTIPLIER else -b.dice))

    choose.__doc__ = f"Save for {field} upgrades until the multiplier is at 4; then Core Dice."
    return choose


def most_dice(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """As many Core Dice as affordable; once the Cache is empty, the most upgrades affordable
    (Attack before Defense before Gold), never the Box."""
    if state.cache() > 0:
        return max((b for b in options if b == Bundle(dice=b.dice)), key=lambda b: b.dice)
    return max((b for b in options if not b.box), key=lambda b: (b.attack + b.defense + b.gold, b.attack, b.defense))


def box_saver(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """The Game Box as soon as affordable (with Core Dice from what is left); save while it is in
    the Cache; once it is gone, Core Dice."""
    if state.box != NO_OWNER:
        return most_dice(game, state, player, options, rng)
    boxes = [b for b in options if b.box and not sum(b[1:4])]
    return max(boxes, key=lambda b: b.dice) if boxes else Bundle()


def any_purchase(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """Any option, uniformly."""
    return rng.choice(list(options))


def solved_purchase(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """The purchase node solved one decision deep; the player's mixed strategy sampled."""
    from solver.simultaneous import SimultaneousSearcher, sample_choice

    return sample_choice(SimultaneousSearcher(game).search(state, depth=1), player, rng)


def greedy_purchase(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """Spend as much Gold as possible now (the costliest bundle; more Core Dice, then Attack, on a tie)."""
    return max(options, key=lambda b: (b.cost, b.dice, b.attack, b.defense))


def attack_purchase(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Bundle], rng: random.Random) -> Bundle:
    """As many Attack upgrades as affordable (the menu stops at 4), the rest on Core Dice; never save."""
    plain = [b for b in options if not (b.defense or b.gold or b.box)]
    return max(plain, key=lambda b: (b.attack, b.dice))


def reroll_for_swords(game: DiceFights, state: DiceFightsState, player: int, options: Sequence[Reroll], rng: random.Random) -> Reroll:
    """Re-roll every die not showing a Sword (the Box too, unless it shows one)."""
    swords, shields, gold = state.rolled[player]
    box = 1 if state.box == player and state.box_face != SWORD else 0
    wanted = Reroll(0, shields, gold, box)
    return wanted if wanted in options else KEEP


def any_choice(game: DiceFights, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
    """Any option, uniformly (re-roll, target or purchase)."""
    return rng.choice(list(options))


@dataclass(frozen=True)
class Policy:
    """How one player plays: a chooser per kind of simultaneous node."""

    name: str
    purchase: Chooser
    reroll: Chooser = keep_dice
    target: Chooser = hardest_hit_target

    def choose(self, game: DiceFights, state: DiceFightsState, player: int, options: Sequence, rng: random.Random) -> Action:
        chooser = {REROLL: self.reroll, TARGET: self.target, BUY: self.purchase}[state.phase]
        return chooser(game, state, player, options, rng)


PURCHASE_POLICIES: dict[str, Chooser] = {
    "dice": most_dice,
    "attack": _first("attack"),
    "defense": _first("defense"),
    "gold": _first("gold"),
    "box": box_saver,
    "random": any_purchase,
    "solver": solved_purchase,
}
POLICIES: dict[str, Policy] = {name: Policy(name, chooser) for name, chooser in PURCHASE_POLICIES.items()}
DUEL_POLICIES: dict[str, Policy] = {
    "random": Policy("random", any_choice, reroll=any_choice, target=any_choice),
    "greedy": Policy("greedy", greedy_purchase),
    "attack": Policy("attack", attack_purchase, reroll=reroll_for_swords),
}
"""The fixed strategies of ``dicetree duel dicefights`` (besides ``buy-NAME`` = ``POLICIES[NAME]``):
``random`` chooses uniformly at every node; ``greedy`` (greedy buyer) keeps its dice, hits hardest
and spends the most Gold it can each round; ``attack`` (always-attack) re-rolls every die not showing
a Sword, hits hardest and buys Attack upgrades whenever affordable, the rest on Core Dice."""


@dataclass(frozen=True)
class GameOutcome:
    """A finished (or stopped) game: each player's return, the rounds played, whether it was stopped."""

    returns: tuple[float, ...]
    rounds: int
    stopped: bool
    final: DiceFightsState


def play_game(
    game: DiceFights,
    policies: Sequence[Policy],
    rng: random.Random,
    state: DiceFightsState | None = None,
    max_rounds: int = MAX_ROUNDS,
    choice_rng: random.Random | None = None,
) -> GameOutcome:
    """Play from ``state`` (a new game by default): ``policies[p]`` plays seat p, chance draws from
    ``rng``, the policies from ``choice_rng`` (default: ``rng`` too; a separate stream keeps the
    dice the same whoever sits where — common random numbers). After ``max_rounds`` rounds the
    game stops and the players still in share the win."""
    if len(policies) != game.num_players:
        raise ValueError(f"{game.num_players} players need {game.num_players} policies, not {len(policies)}")
    state = state if state is not None else game.new_game()
    choice_rng = choice_rng or rng
    rounds = 0
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            return GameOutcome(game.returns(state), rounds, False, state)
        if player == CHANCE:
            if state.phase == ROLL:
                rounds += 1
                if rounds > max_rounds:
                    alive = state.alive()
                    share = tuple(1.0 / len(alive) if p in alive else 0.0 for p in range(state.players))
                    return GameOutcome(share, rounds - 1, True, state)
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        options = game.joint_actions(state)
        joint = tuple(
            policies[p].choose(game, state, p, own, choice_rng) if own else None for p, own in enumerate(options)
        )
        state = game.apply(state, joint)


__all__ = ["DUEL_POLICIES", "GameOutcome", "MAX_ROUNDS", "POLICIES", "PURCHASE_POLICIES", "Policy", "play_game"]
