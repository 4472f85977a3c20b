"""Dice Fights: the state value, its phases, the actions and the game's constants (the bottom of the package).

A position is a :class:`DiceFightsState`, a NamedTuple of ints and tuples of ints: immutable,
hashable, its own cache key. Actions are small NamedTuples too (:class:`Roll`, :class:`Reroll`,
:class:`Target`, :class:`Bundle`). Nothing here imports another module of the package.

>>> state = DiceFightsState(life=(20, 20), bank=(0, 3), dice=(5, 5), mults=((1, 1, 1), (2, 1, 1)))
>>> PHASE_NAMES[state.phase], state.alive(), state.cache()
('roll', [0, 1], 20)
>>> Bundle(dice=1, attack=1).cost
12
"""

from __future__ import annotations

from typing import NamedTuple

START_LIFE = 20
START_DICE = 5
TOTAL_CORE_DICE = 30
MIN_PLAYERS, MAX_PLAYERS = 2, TOTAL_CORE_DICE // START_DICE
START_MULTIPLIER, MAX_MULTIPLIER = 1, 4
BOX_VALUE = 10
"""The Game Box's symbol counts this many of that symbol."""
PRICE_DIE, PRICE_ATTACK, PRICE_DEFENSE, PRICE_GOLD, PRICE_BOX = 3, 9, 7, 12, 30
NO_OWNER = -1
"""The Game Box still in the Dice Cache."""
NOT_ROLLED = -1
"""The Box shows nothing (not owned, not rolled yet, or waiting to be re-rolled)."""

# Phases (``DiceFightsState.phase``); PHASE_NAMES gives each its notation word.
ROLL = 0
"""Chance: every player still in rolls their Stockpile."""
REROLL = 1
"""Simultaneous: each player chooses which dice to re-roll."""
REROLLING = 2
"""Chance: the dice set aside are re-rolled."""
TARGET = 3
"""Simultaneous: each player points at an opponent (three or more players still in)."""
BUY = 4
"""Simultaneous: every player's purchase."""
RACE = 5
"""Chance: a random priority order settles clashing purchases (race rule ``chance``)."""
OVER = 6
"""The game is over: ``winners`` won (several: a shared win)."""
PHASE_NAMES = ("roll", "reroll", "rerolling", "target", "buy", "race", "over")
ROLLED_PHASES = (REROLL, REROLLING, TARGET)
"""The phases whose state holds the dice showing."""

RACE_RULES = ("chance", "split")
SHIELD_RULES = ("every", "once")
BUNDLE_RULES = ("sensible", "all")


class Roll(NamedTuple):
    """A player's roll (or re-roll) result: how many Core Dice show each symbol, and the Box's symbol."""

    swords: int
    shields: int
    gold: int
    box: int = NOT_ROLLED


class Reroll(NamedTuple):
    """A re-roll choice: how many Core Dice showing each symbol go again, and the Box (0/1)."""

    swords: int = 0
    shields: int = 0
    gold: int = 0
    box: int = 0


class Target(NamedTuple):
    """The opponent a player points at."""

    victim: int


class Bundle(NamedTuple):
    """A purchase: Core Dice, Attack, Defense and Gold upgrades, and the Game Box (0/1)."""

    dice: int = 0
    attack: int = 0
    defense: int = 0
    gold: int = 0
    box: int = 0

    @property
    def cost(self) -> int:
        return (self.dice * PRICE_DIE + self.attack * PRICE_ATTACK + self.defense * PRICE_DEFENSE
                + self.gold * PRICE_GOLD + self.box * PRICE_BOX)


NOTHING = Bundle()
KEEP = Reroll()


class DiceFightsState(NamedTuple):
    """One Dice Fights position. Every field is an int or a tuple of ints (per player).

    ``mults[p]`` is (attack, defense, gold). ``box`` is the Game Box's owner or -1 (in the Cache).
    ``rolled[p]`` is (swords, shields, gold) of the Core Dice showing — in ``rerolling`` only the
    kept ones — during ``reroll``/``rerolling``/``target`` (else ``()``); (0, 0, 0) for a player
    who is out. ``box_face`` is the Box's symbol then (-1 if unknown or waiting). ``pending[p]`` is
    how many Core Dice p re-rolls (``rerolling``), ``box_pending`` whether the Box goes too.
    ``orders[p]`` is what p asked to buy (``race``). ``winners`` is set once the game is ``over``;
    a finished game keeps every Life as it fell (the least dead wins), otherwise Life is 1..20 for
    a player in and 0 for one out.
    """

    life: tuple[int, ...]
    bank: tuple[int, ...]
    dice: tuple[int, ...]
    mults: tuple[tuple[int, int, int], ...]
    box: int = NO_OWNER
    phase: int = ROLL
    rolled: tuple[tuple[int, int, int], ...] = ()
    box_face: int = NOT_ROLLED
    pending: tuple[int, ...] = ()
    box_pending: int = 0
    orders: tuple[Bundle, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.life)

    def alive(self) -> list[int]:
        """The players still in (Life above 0), in seat order."""
        return [p for p, life in enumerate(self.life) if life > 0]

    def cache(self) -> int:
        """Core Dice left in the Dice Cache."""
        return TOTAL_CORE_DICE - sum(self.dice)


__all__ = [
    "BOX_VALUE", "BUNDLE_RULES", "BUY", "Bundle", "DiceFightsState", "KEEP", "MAX_MULTIPLIER", "MAX_PLAYERS",
    "MIN_PLAYERS", "NOTHING", "NOT_ROLLED", "NO_OWNER", "OVER", "PHASE_NAMES", "PRICE_ATTACK", "PRICE_BOX",
    "PRICE_DEFENSE", "PRICE_DIE", "PRICE_GOLD", "RACE", "RACE_RULES", "REROLL", "REROLLING", "ROLL",
    "ROLLED_PHASES", "Reroll", "Roll", "SHIELD_RULES", "START_DICE", "START_LIFE", "START_MULTIPLIER", "TARGET",
    "TOTAL_CORE_DICE", "Target",
]
