"""Dice Fights, every rule: rolls, the simultaneous re-roll, targets, damage, Gold, the purchase race.

Rules text: ``shared/rules/dice-fights.txt``. Players are seats 0..N-1 (``A``..the letters in output),
2 to 6 of them (30 Core Dice, five a player).

**A player** has a Life Tracker (20 = full health; at 0 or below the player is out), a Bank (no
upper limit: the text says more than 30 can be earned), a Stockpile of Core Dice (five to start)
and perhaps the one Game Box, and Attack, Defense and Gold multipliers (d4s: 1 to start, at most 4;
each upgrade bought adds 1). The Dice Cache holds the Core Dice nobody has bought: 30 less every
Stockpile (so 30 - 5 per player at the start).

**A round**, as states (``PHASE_NAMES`` in :mod:`~dicetree.solver.games.dicefights.state`; ``S`` =
simultaneous node, ``C`` = chance node):

1. ``roll`` (C) — every player still in rolls their Stockpile. A roll is a *count* of each symbol
   (dice are identical), ``Roll(swords, shields, gold, box)`` per player, ``box`` the Game Box's
   symbol (-1 if the player has no Box).
2. ``reroll`` (S) — each player chooses which dice to re-roll, *grouped by symbol*: ``Reroll(swords,
   shields, gold, box)`` counts how many showing each symbol (and whether the Box) go again — all
   dice showing a symbol are alike, so this is every distinct choice. ``keep`` re-rolls none.
3. ``rerolling`` (C) — the dice set aside are rolled; results are kept. (Skipped if nobody re-rolls.)
4. ``target`` (S) — with three or more players still in, each player points at an opponent
   (``Target(victim)``). Only targets the player can hurt are choices; a player with one such target
   (or none) has no choice, and the node is skipped when nobody has one. Two players never choose.
5. Resolve (no node): damage, then Gold, then who is out (see below).
6. ``buy`` (S) — purchases, all players at once: ``Bundle(dice, attack, defense, gold, box)`` (Core
   Die 3 Gold, Attack upgrade 9, Defense upgrade 7, Gold upgrade 12, the Game Box 30). Held every
   round, even when nobody can afford anything (then everybody passes): so every round costs a
   search the same depth, and ``--depth 2`` from a re-roll covers that round's purchases.
7. ``race`` (C, only with ``race="chance"``) — when players ask for more Core Dice than the Cache
   holds, or two ask for the Game Box, a uniformly random priority order of those contenders decides.

**Readings of the text** (also in docs/games/dicefights.md and ``dicetree notation dicefights``):

* Damage = max(0, Swords x Attack multiplier - Shields x Defense multiplier) for *each attacker*:
  the defender's Shields count in full against every attacker (``shields="every"``, the default).
  ``shields="once"`` reads them as one wall: max(0, total of all attacks - Shields x Defense).
  With two players both readings agree.
* The Game Box is a die (by default with the Core Die's faces: an assumption) whose symbol counts
  10 of that symbol, multiplied as usual ("Upgrades DO count towards this die").
* Upgrades multiply, as the wording says: "multiply their effect by the number shown". The printed
  example (2 Gold with a Gold upgrade of 2 earns 8) contradicts it; we follow the wording (4 Gold).
* Damage is simultaneous; then a player at 0 Life or below is out at once: collects no Gold, buys
  nothing. One player left wins; if all that were left fall in the same round, the least dead
  (highest Life) wins, and exactly equal Life is a draw between them (a win shared: 1/k each).
* Gold is collected after damage (the text's order), so Gold rolled this round can be spent now.
* The purchase race (``race=``): ``"chance"`` (default) — a random priority order of the
  contenders; each in turn gets what they asked for as far as it lasts. ``"split"`` — contested
  Core Dice are handed out one to each contender still wanting one, round by round, while there
  are enough for all of them (the remainder stays in the Cache), and a contested Game Box goes to
  nobody this round. Either way a player pays only for what they get.
* Purchases are *sensible bundles* (``bundles="sensible"``, the default): any affordable set of
  upgrades (and the Box), with the Gold left either saved or spent on as many Core Dice as the
  Cache allows — buying only some of the dice you can afford is left out, which keeps a purchase
  node small: 5 choices with 10 Gold, 14 with 20, 34 with 30, 95 with 50 (``bundles="all"``, every
  number of dice: 7, 26, 78, 311). Banks stay small in play, as Gold is spent as it comes.

The state (:class:`~dicetree.solver.games.dicefights.state.DiceFightsState`) is a named tuple of ints and
tuples of ints: immutable, hashable, its own cache key; a player who is out has Life 0 and no roll,
so equal positions are equal values.

This module is the rules alone (:class:`DiceFightsRules`, every transition, kept together so the
search's hot path is plain method calls); :class:`dicetree.solver.games.dicefights.DiceFights` adds the
notation, the evaluation and the game's declared facts.

Usage::

    >>> from dicetree.solver.games.dicefights import DiceFights
    >>> game = DiceFights()
    >>> state = game.new_game()
    >>> game.format(state)
    '20:0:5:111 20:0:5:111 roll'
    >>> state = game.apply(state, (Roll(2, 2, 1), Roll(1, 3, 1)))
    >>> options = game.joint_actions(state)
    >>> len(options[0]), game.action_name(state, options[0][1])
    (18, 'roll 1g')
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from dicetree.solver.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameError, TooManyOutcomes, ValueBounds
from dicetree.solver.games.dicefights.faces import GOLD, SHIELD, SWORD, FaceLayout, load_faces, roll_distribution, symbol_distribution
from dicetree.solver.games.dicefights.state import (
    BOX_VALUE,
    BUNDLE_RULES,
    BUY,
    KEEP,
    MAX_MULTIPLIER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_OWNER,
    NOT_ROLLED,
    NOTHING,
    OVER,
    PHASE_NAMES,
    PRICE_DIE,
    RACE,
    RACE_RULES,
    REROLL,
    REROLLING,
    ROLL,
    SHIELD_RULES,
    START_DICE,
    START_LIFE,
    START_MULTIPLIER,
    TARGET,
    Bundle,
    DiceFightsState,
    Reroll,
    Roll,
    Target,
)
from dicetree.solver.rule_options import RuleOption

SETTLE_CACHE = 1 << 16
"""Settled positions remembered per game object."""

RULE_OPTIONS = (
    RuleOption("players", "int", 2, "how many players", low=MIN_PLAYERS, high=MAX_PLAYERS),
    RuleOption("faces", "file", None, "a JSON file of the Core Die's and the Game Box's faces "
               "(default: two Shields, two Swords, two Gold, an assumption)"),
    RuleOption("race", "choice", "chance", "contested purchases: a random priority order (chance) or shared "
               "one each (split)", choices=RACE_RULES),
    RuleOption("shields", "choice", "every", "a defender's Shields count against every attacker (every) or "
               "once against all (once)", choices=SHIELD_RULES),
    RuleOption("bundles", "choice", "sensible", "purchases searched: sensible bundles or every count of "
               "Core Dice (all)", choices=BUNDLE_RULES),
    RuleOption("exact_chance_limit", "int", 4096, "chance nodes with more outcomes are sampled, not listed",
               low=1, high=10**9),
)
"""Dice Fights' rule options (``--rule NAME=VALUE``), declared once: the constructor reads its
arguments through them, so Python callers and the command line meet the same checks."""
_OPTIONS = {option.name: option for option in RULE_OPTIONS}


def _option(name: str, value: Any) -> Any:
    """``value`` (text or typed) read through the declared rule option ``name``."""
    return _OPTIONS[name].parse(value)


class DiceFightsRules(Game):
    """Dice Fights' rules with fixed options (see the module notes for each one); the notation,
    evaluation and declared facts are added by :class:`dicetree.solver.games.dicefights.DiceFights`.

    >>> from dicetree.solver.games.dicefights import DiceFights
    >>> game = DiceFights(race="split")
    >>> game
    DiceFights(players=2, race='split', shields='every', bundles='sensible')
    >>> s = game.parse("20:12:5:111 20:3:5:111 buy")
    >>> [game.action_name(s, b) for b in game.joint_actions(s)[0]]
    ['nothing', '4c', 'a', '1c+a', 'd', '1c+d', 'g']
    """

    rule_options = RULE_OPTIONS

    def __init__(
        self,
        players: int | str = 2,
        faces: str | Path | FaceLayout | None = None,
        race: str = "chance",
        shields: str = "every",
        bundles: str = "sensible",
        exact_chance_limit: int | str = 4096,
    ):
        self.num_players: int = _option("players", players)
        self.layout = faces if isinstance(faces, FaceLayout) else load_faces(_option("faces", faces))
        self.race: str = _option("race", race)
        self.shields: str = _option("shields", shields)
        self.bundles: str = _option("bundles", bundles)
        self.exact_chance_limit: int = _option("exact_chance_limit", exact_chance_limit)
        self._core = self.layout.core_weights
        self._box = symbol_distribution(self.layout.box_weights)
        # The same final dice recur along many re-roll lines: settle each once.
        self.settle = lru_cache(maxsize=SETTLE_CACHE)(self._settle)

    def __getstate__(self) -> dict:
        """Pickled without the settle cache (a bound cache does not pickle; duels send rules to workers)."""
        state = dict(self.__dict__)
        del state["settle"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.settle = lru_cache(maxsize=SETTLE_CACHE)(self._settle)

    def options(self) -> dict:
        """Every declared rule option's value (players and faces are kept as ``num_players`` and ``layout``)."""
        chosen = {"players": self.num_players, "faces": None if self.layout.assumed else self.layout.source}
        return {option.name: chosen.get(option.name, getattr(self, option.name, option.default))
                for option in self.rule_options}

    def __repr__(self) -> str:
        return (f"DiceFights(players={self.num_players}, race={self.race!r}, shields={self.shields!r}, "
                f"bundles={self.bundles!r})")

    # ----- starting position -----------------------------------------------------------------------
    def new_game(self, rng: random.Random | None = None) -> DiceFightsState:
        """Every player at full health, an empty Bank, five Core Dice, multipliers at 1; roll next
        (nothing is drawn before the first roll: ``rng`` is not needed)."""
        n = self.num_players
        return DiceFightsState(life=(START_LIFE,) * n, bank=(0,) * n, dice=(START_DICE,) * n,
                               mults=((START_MULTIPLIER,) * 3,) * n)

    # ----- whose turn ------------------------------------------------------------------------------
    def current_player(self, state: DiceFightsState) -> int:
        phase = state.phase
        if phase == OVER:
            return TERMINAL
        if phase in (ROLL, REROLLING, RACE):
            return CHANCE
        return SIMULTANEOUS

    def legal_actions(self, state: DiceFightsState) -> list:
        return []  # every decision of Dice Fights is simultaneous: see joint_actions

    def joint_actions(self, state: DiceFightsState) -> tuple[Sequence, ...]:
        """Each player's options at a simultaneous node; ``()`` for a player with no choice (out,
        or only one possible action, which :meth:`apply` then takes for them)."""
        phase = state.phase
        if phase == REROLL:
            return tuple(_choice(self.reroll_options(state, p)) for p in range(state.players))
        if phase == TARGET:
            return tuple(_choice(self.target_options(state, p)) for p in range(state.players))
        if phase == BUY:
            return tuple(_choice(self.bundle_options(state, p)) for p in range(state.players))
        raise GameError(f"nobody chooses at a '{PHASE_NAMES[phase]}' node")

    def reroll_options(self, state: DiceFightsState, player: int) -> list[Reroll]:
        """Every distinct re-roll of ``player``: how many dice of each symbol (and the Box) go again
        (none for a player who is out)."""
        if state.life[player] <= 0:
            return []
        swords, shields, gold = state.rolled[player]
        box = (1,) if state.box == player else ()
        return [Reroll(a, d, g, b) for a in range(swords + 1) for d in range(shields + 1)
                for g in range(gold + 1) for b in (0, *box)]

    def target_options(self, state: DiceFightsState, player: int) -> list[Target]:
        """The opponents ``player`` can point at usefully: still in and hurt by the attack (under
        ``shields="once"`` any opponent, the attack adding to a pool). None without Swords."""
        if state.life[player] <= 0:
            return []
        attack = self.symbol_value(state, player, SWORD)
        if attack == 0:
            return []
        return [Target(victim) for victim in state.alive() if victim != player and
                (self.shields == "once" or attack > self.symbol_value(state, victim, SHIELD))]

    def bundle_options(self, state: DiceFightsState, player: int) -> tuple[Bundle, ...]:
        """``player``'s purchases (see "sensible bundles" in the module notes), ``nothing`` first."""
        if state.life[player] <= 0:
            return ()
        return _bundle_menu(state.bank[player], state.cache(), state.mults[player], state.box == NO_OWNER,
                            self.bundles == "all")

    def symbol_value(self, state: DiceFightsState, player: int, symbol: int) -> int:
        """What ``player``'s roll is worth in ``symbol``: the count (10 for the Box) x the multiplier."""
        count = state.rolled[player][symbol] + (BOX_VALUE if state.box == player and state.box_face == symbol else 0)
        return count * state.mults[player][symbol]


    # ----- transitions -----------------------------------------------------------------------------
    def apply(self, state: DiceFightsState, action) -> DiceFightsState:
        phase = state.phase
        if phase == ROLL:
            return self._rolled(state, action, REROLL)
        if phase == REROLL:
            return self._set_aside(state, action)
        if phase == REROLLING:
            return self._rolled(state, action, None)
        if phase == TARGET:
            return self._resolve(state, self._targets(state, action))
        if phase == BUY:
            return self._purchase(state, action)
        if phase == RACE:
            return self._grant(state, state.orders, action)
        raise GameError("the game is over: no action applies")

    def _rolled(self, state: DiceFightsState, outcome: Sequence[Roll | None], phase: int | None) -> DiceFightsState:
        """Add a (re-)roll's results to the dice showing; then re-roll choices, or what follows."""
        kept = state.rolled or ((0, 0, 0),) * state.players
        rolled = tuple(
            kept[p] if r is None else (kept[p][0] + r.swords, kept[p][1] + r.shields, kept[p][2] + r.gold)
            for p, r in enumerate(outcome)
        )
        box_face = state.box_face
        box_roll = outcome[state.box] if state.box != NO_OWNER else None
        if box_roll is not None and box_roll.box != NOT_ROLLED:
            box_face = box_roll.box
        after = state._replace(rolled=rolled, box_face=box_face, pending=(), box_pending=0, phase=REROLL)
        return after if phase == REROLL else self.settle(after)

    def _set_aside(self, state: DiceFightsState, joint: Sequence[Reroll | None]) -> DiceFightsState:
        choices = [c or KEEP for c in joint]
        if all(c == KEEP for c in choices):
            return self.settle(state)
        rolled = tuple((r[0] - c.swords, r[1] - c.shields, r[2] - c.gold) for r, c in zip(state.rolled, choices))
        box_pending = int(state.box != NO_OWNER and choices[state.box].box == 1)
        return state._replace(
            phase=REROLLING, rolled=rolled, pending=tuple(c.swords + c.shields + c.gold for c in choices),
            box_pending=box_pending, box_face=NOT_ROLLED if box_pending else state.box_face,
        )

    def _settle(self, state: DiceFightsState) -> DiceFightsState:
        """The dice showing are final: a target node if anyone has a choice, else resolve at once.
        (Called as ``settle``, which caches it.)"""
        options = [self.target_options(state, p) for p in range(state.players)]
        if any(len(o) > 1 for o in options):
            return state._replace(phase=TARGET)
        return self._resolve(state, [o[0].victim if o else -1 for o in options])

    def _targets(self, state: DiceFightsState, joint: Sequence[Target | None]) -> list[int]:
        targets = []
        for p, choice in enumerate(joint):
            if choice is None:
                options = self.target_options(state, p)
                targets.append(options[0].victim if options else -1)
            else:
                targets.append(choice.victim)
        return targets

    def damage(self, state: DiceFightsState, targets: Sequence[int]) -> list[int]:
        """The damage each player takes when each attacks ``targets[p]`` (-1: nobody)."""
        players = range(state.players)
        return damage_taken(
            [self.symbol_value(state, p, SWORD) for p in players],
            [self.symbol_value(state, p, SHIELD) for p in players], targets, self.shields,
        )

    def _resolve(self, state: DiceFightsState, targets: Sequence[int]) -> DiceFightsState:
        """Damage, then who is out (or the game's end), then Gold; next the purchases."""
        damage = self.damage(state, targets)
        before = state.alive()
        life = tuple(life - hurt for life, hurt in zip(state.life, damage))
        standing = [p for p in before if life[p] > 0]
        if len(standing) <= 1:
            if standing:
                winners = tuple(standing)
            else:  # everyone left fell together: the least dead wins, equal Life draws
                best = max(life[p] for p in before)
                winners = tuple(p for p in before if life[p] == best)
            return state._replace(life=life, phase=OVER, winners=winners, rolled=(), box_face=NOT_ROLLED)
        bank = tuple(
            bank + self.symbol_value(state, p, GOLD) if life[p] > 0 else bank for p, bank in enumerate(state.bank)
        )
        after = state._replace(life=tuple(max(0, x) for x in life), bank=bank, rolled=(), box_face=NOT_ROLLED)
        return after._replace(phase=BUY)

    def _purchase(self, state: DiceFightsState, joint: Sequence[Bundle | None]) -> DiceFightsState:
        orders = tuple(choice or NOTHING for choice in joint)
        contenders = self.contenders(state, orders)
        if not contenders:
            return self._grant(state, orders, ())
        if self.race == "chance":
            return state._replace(phase=RACE, orders=orders)
        return self._split(state, orders)

    def contenders(self, state: DiceFightsState, orders: Sequence[Bundle]) -> tuple[int, ...]:
        """The players whose purchases clash: over-asked Core Dice, or the Box asked for twice."""
        clash: set[int] = set()
        if sum(o.dice for o in orders) > state.cache():
            clash.update(p for p, o in enumerate(orders) if o.dice)
        if sum(o.box for o in orders) > 1:
            clash.update(p for p, o in enumerate(orders) if o.box)
        return tuple(sorted(clash))

    def _grant(self, state: DiceFightsState, orders: Sequence[Bundle], priority: Sequence[int]) -> DiceFightsState:
        """Serve the contenders in ``priority`` order, everyone else in full; pay; next round."""
        dice_left, box_free = state.cache() - sum(o.dice for p, o in enumerate(orders) if p not in priority), True
        granted = list(orders)
        for p in priority:
            order = orders[p]
            dice = min(order.dice, dice_left)
            box = order.box if box_free else 0
            dice_left -= dice
            box_free = box_free and not box
            granted[p] = order._replace(dice=dice, box=box)
        return self._pay(state, granted)

    def _split(self, state: DiceFightsState, orders: Sequence[Bundle]) -> DiceFightsState:
        """The ``split`` race: contested dice one each while all contenders can get one; a contested
        Box to nobody."""
        wanted = [o.dice for o in orders]
        given = [0] * len(orders)
        left = state.cache()
        while True:
            wanting = [p for p in range(len(orders)) if given[p] < wanted[p]]
            if not wanting or left < len(wanting):
                break
            for p in wanting:
                given[p] += 1
            left -= len(wanting)
        box_clash = sum(o.box for o in orders) > 1
        granted = [o._replace(dice=given[p], box=0 if box_clash else o.box) for p, o in enumerate(orders)]
        return self._pay(state, granted)

    def _pay(self, state: DiceFightsState, granted: Sequence[Bundle]) -> DiceFightsState:
        box = state.box
        for p, bundle in enumerate(granted):
            if bundle.box:
                box = p
        return state._replace(
            bank=tuple(bank - b.cost for bank, b in zip(state.bank, granted)),
            dice=tuple(d + b.dice for d, b in zip(state.dice, granted)),
            mults=tuple((m[0] + b.attack, m[1] + b.defense, m[2] + b.gold) for m, b in zip(state.mults, granted)),
            box=box, phase=ROLL, orders=(),
        )

    # ----- chance ----------------------------------------------------------------------------------
    @staticmethod
    def _rolling(state: DiceFightsState, p: int) -> tuple[int, bool]:
        """How many Core Dice player ``p`` (re-)rolls now, and whether the Game Box goes with them."""
        if state.phase == ROLL:
            return (state.dice[p], state.box == p) if state.life[p] > 0 else (0, False)
        return state.pending[p], bool(state.box_pending) and state.box == p

    def _roll_parts(self, state: DiceFightsState) -> list[list[tuple[Roll | None, float]]]:
        """Per player, the outcomes of what they (re-)roll now with probabilities ([(None, 1)] if nothing)."""
        parts: list[list[tuple[Roll | None, float]]] = []
        for p in range(state.players):
            dice, box = self._rolling(state, p)
            if not dice and not box:
                parts.append([(None, 1.0)])
                continue
            core = roll_distribution(dice, self._core)
            boxes = self._box if box else ((NOT_ROLLED, 1.0),)
            parts.append([(Roll(*counts, face), p_core * p_box) for counts, p_core in core for face, p_box in boxes])
        return parts

    def chance_outcome_count(self, state: DiceFightsState) -> int:
        if state.phase == RACE:
            return math.factorial(len(self.contenders(state, state.orders)))
        if state.phase in (ROLL, REROLLING):
            return math.prod(len(part) for part in self._roll_parts(state))
        return 0

    def chance_outcomes(self, state: DiceFightsState) -> list[tuple[object, float]]:
        if state.phase == RACE:
            orders = list(itertools.permutations(self.contenders(state, state.orders)))
            return [(order, 1.0 / len(orders)) for order in orders]
        if state.phase not in (ROLL, REROLLING):
            return []
        parts = self._roll_parts(state)
        count = math.prod(len(part) for part in parts)
        if count > self.exact_chance_limit:
            raise TooManyOutcomes(f"this roll has {count:,} outcomes: sample it")
        return [
            (tuple(r for r, _ in combo), math.prod(p for _, p in combo)) for combo in itertools.product(*parts)
        ]

    def sample_chance(self, state: DiceFightsState, rng: random.Random):
        if state.phase == RACE:
            order = list(self.contenders(state, state.orders))
            rng.shuffle(order)
            return tuple(order)
        if state.phase not in (ROLL, REROLLING):
            raise GameError("not a chance node")
        outcome: list[Roll | None] = []
        for p in range(state.players):
            dice, box = self._rolling(state, p)
            if not dice and not box:
                outcome.append(None)
                continue
            counts = [0, 0, 0]
            for _ in range(dice):
                counts[self.layout.core[rng.randrange(6)]] += 1
            face = self.layout.box[rng.randrange(6)] if box else NOT_ROLLED
            outcome.append(Roll(counts[0], counts[1], counts[2], face))
        return tuple(outcome)

    # ----- results ---------------------------------------------------------------------------------
    def returns(self, state: DiceFightsState) -> tuple[float, ...]:
        share = 1.0 / len(state.winners)
        return tuple(share if p in state.winners else 0.0 for p in range(state.players))

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(0.0, 1.0)


@lru_cache(maxsize=65536)
def _bundle_menu(
    bank: int, cache: int, mults: tuple[int, int, int], box_free: bool, every_count: bool
) -> tuple[Bundle, ...]:
    """Every affordable set of upgrades (and the Box), each with no Core Dice or as many as the Gold
    left and the Cache allow (``every_count``: any number); nothing first, then Core Dice alone, then
    by upgrades (fewest first; Attack, Defense, Gold), the Box last."""
    attack, defense, gold = mults
    options: list[Bundle] = []
    for box in (0, 1) if box_free else (0,):
        for up_attack in range(MAX_MULTIPLIER - attack + 1):
            for up_defense in range(MAX_MULTIPLIER - defense + 1):
                for up_gold in range(MAX_MULTIPLIER - gold + 1):
                    base = Bundle(0, up_attack, up_defense, up_gold, box)
                    left = bank - base.cost
                    if left < 0:
                        continue
                    most = min(cache, left // PRICE_DIE)
                    counts = range(most + 1) if every_count else sorted({0, most})
                    options.extend(base._replace(dice=k) for k in counts)
    return tuple(sorted(options, key=lambda b: (b.box, b.attack + b.defense + b.gold, -b.attack, -b.defense, b.dice)))


def damage_taken(attack: Sequence[float], defense: Sequence[float], targets: Sequence[int], shields: str) -> list:
    """Each player's damage, from each player's Attack and Defense values (Swords and Shields times
    their multipliers) and whom each attacks (-1: nobody), under the ``shields`` reading.

    >>> damage_taken([3, 0], [0, 1], [1, -1], "every")    # the rule text's example: 3 Swords, 1 Shield
    [0, 2]
    """
    damage: list[float] = [0] * len(attack)
    if shields == "every":
        for attacker, victim in enumerate(targets):
            if victim >= 0:
                damage[victim] += max(0, attack[attacker] - defense[victim])
        return damage
    incoming: list[float] = [0] * len(attack)
    for attacker, victim in enumerate(targets):
        if victim >= 0:
            incoming[victim] += attack[attacker]
    return [max(0, incoming[p] - defense[p]) if incoming[p] else 0 for p in range(len(attack))]


def hardest_hit(attack: float, defense: Sequence[float], life: Sequence[float], victims: Sequence[int]) -> int:
    """Of ``victims``, the one an attack of ``attack`` hurts most (against ``defense``); the lowest
    Life on a tie, then the lowest seat."""
    return max(victims, key=lambda v: (attack - defense[v], -life[v], -v))


def _choice(options: Sequence) -> tuple:
    """A player's options at a simultaneous node, or ``()`` when there is nothing to choose."""
    return tuple(options) if len(options) > 1 else ()


__all__ = ["RULE_OPTIONS", "DiceFightsRules", "damage_taken", "hardest_hit"]
