"""Dice Fights' leaf evaluation: an estimate of a player's probability of winning.

**Two players in** (the exact core): the probability of winning a *frozen fight* — from here on
every round is rolled and fought with today's Stockpiles and multipliers, nobody re-rolls or buys —
computed exactly by dynamic programming over both Life values (:func:`win_table`; a round's damage
pair has an exact distribution from both rolls, the least-dead rule decides a double fall, a round
in which nobody can be hurt repeats, and a fight where nobody can ever be hurt is a draw). Gold
counts as Core Dice: at a purchase node, where it can be spent at once, the Bank buys Bank // 3 of
them; elsewhere saved Gold counts half (Bank // 6) — as far as the Cache holds. The Gold
*multiplier* and future income are worth nothing to it: a searched purchase of a Gold upgrade pays
off only within the search depth (see docs/games/dicefights.md).

A frozen fight is overconfident — in play both sides keep buying, so today's edge is not
forever — so the probability ``v`` is *tempered*: ``v**k / (v**k + (1 - v)**k)`` (the log-odds
times ``k``), :data:`TEMPER` ``k = 0.4``, the best ``k`` by the Brier score at the round starts
of 600 games between the fixed purchase policies (:mod:`dicetree.solver.games.dicefights.policies`;
``research/dicefights_evaluation.py`` reproduces it): 0.155 (0.1548), against 0.192 for the
untempered frozen fight with Bank // 3 everywhere and 0.249 for a constant 1/2. (Savings counted as
nothing score 0.147 there — the big Banks in those games belong to the weak saving policies — but would
make a searching player never save: they count half.)

By phase: ``roll`` and ``buy`` read the table at the current Life; ``reroll`` settles the dice as
they show (everybody keeps) and evaluates the result; ``rerolling`` and ``race`` average their
outcomes (exactly; a re-roll with more than the game's ``exact_chance_limit`` outcomes is averaged
over 64 seeded samples); a finished game gives its returns.

**Three or more players in** (a heuristic, said so): each player's expected survival in rounds —
Life over the mean damage the others would do them a round (each attacker splitting its attention
evenly) — and a win share proportional to survival cubed. Mid-round (re-roll, target) the rest of
the round is first played out on average: dice waiting show their expected symbols, everyone
attacks whom they hurt most, Gold is banked (:func:`_expected_round`); no outcome is enumerated,
which keeps the paranoid search's wide matrices affordable.

>>> from dicetree.solver.games.dicefights import DiceFights
>>> game = DiceFights()
>>> round(evaluate(game.new_game(), 0, game), 6)   # the symmetric start
0.5
>>> round(evaluate(game.parse("20:0:6:111 20:0:5:111 roll"), 0, game), 3)   # six Core Dice against five
0.803
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from dicetree.solver.game import TooManyOutcomes
from dicetree.solver.games.dicefights.faces import FACES_PER_DIE, GOLD, SHIELD, SWORD, roll_distribution, symbol_distribution
from dicetree.solver.games.dicefights.notation import format_position
from dicetree.solver.games.dicefights.rules import DiceFightsRules, damage_taken, hardest_hit
from dicetree.solver.games.dicefights.state import (
    BOX_VALUE,
    BUY,
    NOT_ROLLED,
    OVER,
    RACE,
    REROLL,
    REROLLING,
    ROLLED_PHASES,
    START_LIFE,
    DiceFightsState,
)
from dicetree.solver.pov import PointOfView

if TYPE_CHECKING:
    import numpy as np

TEMPER = 0.4
"""The frozen-fight probability's log-odds are multiplied by this (see the module notes)."""
SPEND_GOLD_PER_DIE, SAVED_GOLD_PER_DIE = 3, 6
"""Gold per Core Die counted: at a purchase node (spendable now), and elsewhere (saved)."""
SAMPLES = 64
"""Outcomes averaged where a re-roll has too many to list."""
SURVIVAL_POWER = 3
"""The N-player heuristic's win shares are proportional to expected survival to this power."""
MIN_INCOMING = 0.05
"""Damage a round below this counts as this much in the N-player heuristic (no division by 0)."""

Config = tuple[int, bool, int, int]
"""What a frozen fight needs of a player: (Core Dice counting the Bank, owns the Box, Attack, Defense)."""


def evaluate(state: DiceFightsState, player: int, game: DiceFightsRules) -> float:
    """``player``'s estimated probability of winning at ``state`` (any phase), within [0, 1]."""
    phase = state.phase
    if phase == OVER:
        return game.returns(state)[player]
    if state.life[player] <= 0:
        return 0.0
    alive = state.alive()
    if phase == RACE or (phase == REROLLING and len(alive) == 2):
        return _average(state, player, game)
    if len(alive) > 2:
        if phase in ROLLED_PHASES:
            expected, life = _expected_round(state, game)
            return _survival_share(expected, life, player, game)
        return _survival_share(state, state.life, player, game)
    if phase == REROLL:
        return evaluate(game.settle(state), player, game)
    first, second = alive
    table = win_table(game.layout.core_weights, game.layout.box_weights, config(state, first), config(state, second))
    value = temper(float(table[state.life[first], state.life[second]]))
    return PointOfView.of(game).view(value, seen_by=first, player=player)


def temper(value: float) -> float:
    """``value``'s log-odds times :data:`TEMPER`, back as a probability (0 and 1 stay)."""
    value = min(1.0, max(0.0, value))  # sums of probabilities may stray by a rounding error
    up, down = value**TEMPER, (1.0 - value) ** TEMPER
    return up / (up + down)


def config(state: DiceFightsState, player: int, gold_per_die: int | None = None) -> Config:
    """``player``'s frozen-fight configuration; the Bank counts as Core Dice, at ``gold_per_die``
    Gold each (default: 3 at a purchase node, 6 elsewhere; see the module notes)."""
    price = gold_per_die or (SPEND_GOLD_PER_DIE if state.phase == BUY else SAVED_GOLD_PER_DIE)
    bought = min(state.cache(), state.bank[player] // price)
    attack, defense, _ = state.mults[player]
    return (state.dice[player] + bought, state.box == player, attack, defense)


def _average(state: DiceFightsState, player: int, game: DiceFightsRules) -> float:
    try:
        outcomes = game.chance_outcomes(state)
    except TooManyOutcomes:
        rng = random.Random(format_position(state, game))  # the same samples whenever the position recurs
        outcomes = [(game.sample_chance(state, rng), 1.0 / SAMPLES) for _ in range(SAMPLES)]
    return sum(p * evaluate(game.apply(state, outcome), player, game) for outcome, p in outcomes)


def _expected_round(state: DiceFightsState, game: DiceFightsRules) -> tuple[DiceFightsState, list[float]]:
    """The rest of the round on average (three or more players): dice waiting to be re-rolled show
    their expected symbols, everyone attacks whom they hurt most, Gold goes to the Bank. The
    position before the purchases (Bank and all) and each player's expected Life."""
    core = [w / FACES_PER_DIE for w in game.layout.core_weights]
    box = [w / FACES_PER_DIE for w in game.layout.box_weights]
    values = []
    for p in range(state.players):
        counts: list[float] = list(state.rolled[p])
        waiting = state.pending[p] if state.pending else 0
        for symbol in range(3):
            counts[symbol] += waiting * core[symbol]
            if state.box == p:
                shown = box[symbol] if state.box_pending else float(state.box_face == symbol)
                counts[symbol] += BOX_VALUE * shown
        values.append([count * mult for count, mult in zip(counts, state.mults[p])])
    attack = [v[SWORD] for v in values]
    defense = [v[SHIELD] for v in values]
    alive = state.alive()
    targets = [
        hardest_hit(attack[p], defense, state.life, [v for v in alive if v != p]) if p in alive and attack[p] > 0 else -1
        for p in range(state.players)
    ]
    damage = damage_taken(attack, defense, targets, game.shields)
    bank = tuple(bank + int(values[p][GOLD]) if p in alive else bank for p, bank in enumerate(state.bank))
    life = [life - hurt if life > 0 else 0.0 for life, hurt in zip(state.life, damage)]
    return state._replace(bank=bank, phase=BUY), life


def _survival_share(state: DiceFightsState, life: Sequence[float], player: int, game: DiceFightsRules) -> float:
    """The three-or-more-player heuristic: win shares proportional to expected survival cubed."""
    core, box = game.layout.core_weights, game.layout.box_weights
    alive = [p for p in state.alive() if life[p] > 0]
    if player not in alive:
        return 0.0
    if len(alive) == 1:
        return 1.0
    configs = {p: config(state, p) for p in alive}
    weights = {}
    for p in alive:
        incoming = sum(mean_damage(core, box, configs[k], configs[p]) for k in alive if k != p) / (len(alive) - 1)
        weights[p] = (life[p] / max(incoming, MIN_INCOMING)) ** SURVIVAL_POWER
    return weights[player] / sum(weights.values())


@lru_cache(maxsize=4096)
def _values(core: tuple[int, int, int], box: tuple[int, int, int], cfg: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A configuration's roll as arrays: attack value, defense value, probability (merged)."""
    import numpy as np  # loaded by the first evaluation (cached), not with the game

    dice, has_box, attack, defense = cfg
    faces = symbol_distribution(box) if has_box else ((NOT_ROLLED, 1.0),)
    merged: dict[tuple[int, int], float] = {}
    for (swords, shields, _), p_core in roll_distribution(dice, core):
        for face, p_box in faces:
            key = ((swords + BOX_VALUE * (face == SWORD)) * attack, (shields + BOX_VALUE * (face == SHIELD)) * defense)
            merged[key] = merged.get(key, 0.0) + p_core * p_box
    keys = np.array(list(merged), dtype=np.int64).reshape(-1, 2)
    return keys[:, 0], keys[:, 1], np.array(list(merged.values()))


@lru_cache(maxsize=4096)
def mean_damage(core: tuple[int, int, int], box: tuple[int, int, int], attacker: Config, defender: Config) -> float:
    """The expected damage a round ``attacker`` does to ``defender`` (both rolling)."""
    import numpy as np  # loaded by the first evaluation (cached), not with the game

    att, _, p_att = _values(core, box, attacker)
    _, dfn, p_dfn = _values(core, box, defender)
    return float(p_att @ np.maximum(0, att[:, None] - dfn[None, :]) @ p_dfn)


@lru_cache(maxsize=4096)
def win_table(core: tuple[int, int, int], box: tuple[int, int, int], first: Config, second: Config) -> np.ndarray:
    """``table[a, b]``: the probability that ``first`` wins a frozen fight at Life a against b (1..20).

    >>> t = win_table((2, 2, 2), (2, 2, 2), (5, False, 1, 1), (5, False, 1, 1))
    >>> round(float(t[20, 20]), 6), round(float(t[1, 20]), 3) < 0.01
    (0.5, True)
    """
    import numpy as np  # loaded by the first evaluation (cached), not with the game

    att_a, def_a, p_a = _values(core, box, first)
    att_b, def_b, p_b = _values(core, box, second)
    to_b = np.maximum(0, att_a[:, None] - def_b[None, :]).ravel()
    to_a = np.maximum(0, att_b[None, :] - def_a[:, None]).ravel()
    prob = (p_a[:, None] * p_b[None, :]).ravel()
    scale = int(to_b.max()) + 1
    keys, inverse = np.unique(to_a * scale + to_b, return_inverse=True)
    p = np.bincount(inverse.ravel(), weights=prob)
    hit_a, hit_b = keys // scale, keys % scale
    quiet = (hit_a == 0) & (hit_b == 0)
    p_quiet = float(p[quiet].sum())
    p = np.where(quiet, 0.0, p)  # a quiet round repeats the same position: divided out below

    table = np.zeros((START_LIFE + 1, START_LIFE + 1))
    for total in range(2, 2 * START_LIFE + 1):  # a round never raises Life: smaller sums come first
        life_a = np.arange(max(1, total - START_LIFE), min(START_LIFE, total - 1) + 1)
        life_b = total - life_a
        left_a = life_a[:, None] - hit_a[None, :]
        left_b = life_b[:, None] - hit_b[None, :]
        a_in, b_in = left_a > 0, left_b > 0
        both_fall = ~a_in & ~b_in
        value = np.where(a_in & ~b_in, 1.0, 0.0)
        value += np.where(both_fall & (left_a > left_b), 1.0, 0.0) + np.where(both_fall & (left_a == left_b), 0.5, 0.0)
        both_in = a_in & b_in
        value += np.where(both_in, table[np.where(both_in, left_a, 0), np.where(both_in, left_b, 0)], 0.0)
        table[life_a, life_b] = value @ p / (1.0 - p_quiet) if p_quiet < 1.0 - 1e-12 else 0.5
    np.clip(table, 0.0, 1.0, out=table)  # rounding errors only
    table.setflags(write=False)
    return table


__all__ = ["config", "evaluate", "mean_damage", "temper", "win_table"]
