"""Chance nodes as the searches see them: every outcome where few, a seeded sample where too many.

A chance node with more outcomes than ``game.exact_chance_limit`` (a RolldownBeta Joker rerolling
four dice, Dice Fights' round-start roll) is estimated from ``samples`` outcomes drawn with a
generator seeded from the seed and the node's cache key, so the same node always gets the same
sample: in every search, in :func:`dicetree.solver.search.expectimax`, in a tree. Both searchers and
:mod:`dicetree.solver.tree` read chance nodes through this module::

    >>> from dicetree.solver.games import load_game
    >>> game = load_game("rolldown")
    >>> position = game.parse("d8:5/d6:3 a -/-")
    >>> rolling = game.apply(position, game.parse_action(position, "roll b.d6"))
    >>> outcomes, count = chance_distribution(game, rolling, samples=64, seed=0)
    >>> count, [game.action_name(rolling, outcome) for outcome, _ in outcomes][:3]
    (6, ['b.d6=1', 'b.d6=2', 'b.d6=3'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from dicetree.solver.game import Action, Game, GameError, State


def chance_distribution(
    game: Game, state: State, samples: int, seed: int
) -> tuple[list[tuple[Action, float]], int]:
    """The outcomes of a chance node with their weights, and the node's outcome count.

    Up to ``game.exact_chance_limit`` outcomes: every outcome with its probability. Beyond it:
    ``samples`` outcomes drawn with ``random.Random`` seeded from ``seed`` and the position's cache
    key (string seeds hash the same in every run; the key, not the position string, because
    states that share a key share one sample in the cache, so every search and the reference
    expectimax must draw the same one), each weighing 1/samples; repeated draws are merged.
    """
    count = game.chance_outcome_count(state)
    if count <= game.exact_chance_limit:
        return [(outcome, p) for outcome, p in game.chance_outcomes(state) if p > 0], count
    rng = random.Random(f"{seed}|{game.key(state)!r}")
    weight = 1.0 / samples
    weights: dict[Action, float] = {}
    for _ in range(samples):
        outcome = game.sample_chance(state, rng)
        weights[outcome] = weights.get(outcome, 0.0) + weight
    return list(weights.items()), count


class ChanceSampler:
    """A search's chance outcomes: listed exactly where few, else a seeded sample drawn once per
    search and kept under the node's cache key (so every visit sees the same one), with the note
    that says how many nodes were sampled."""

    def __init__(self, game: Game, samples: int, seed: int):
        if samples < 1:
            raise GameError(f"chance_samples must be at least 1, not {samples}")
        self.game, self.samples, self.seed = game, samples, seed
        self.reset()

    def reset(self) -> None:
        self.sampled: dict[Hashable, list[tuple[Action, float]]] = {}
        self.largest = 0

    def outcomes(self, state: State, key: Hashable) -> list[tuple[Action, float]]:
        sampled = self.sampled.get(key)
        if sampled is not None:
            return sampled
        outcomes, count = chance_distribution(self.game, state, self.samples, self.seed)
        if count > self.game.exact_chance_limit:
            self.sampled[key] = outcomes
            self.largest = max(self.largest, count)
        return outcomes

    def typical(self, state: State, key: Hashable, rank: Callable[[State], Any]) -> tuple[str, State] | None:
        """A principal line's step through a chance node: the outcome whose child ranks lowest by
        ``rank`` (the nearest to the node's value, say; None: the child's value is not known, skipped),
        named in brackets (``[b.d6=3]``), with that child; None if no child is known."""
        typical = None
        for outcome, _ in self.outcomes(state, key):
            child = self.game.apply(state, outcome)
            ranked = rank(child)
            if ranked is not None and (typical is None or ranked < typical[0]):
                typical = (ranked, outcome, child)
        return None if typical is None else (f"[{self.game.action_name(state, typical[1])}]", typical[2])

    def note(self) -> str:
        """How the sampled nodes were handled ('' when none was)."""
        count = len(self.sampled)
        if not count:
            return ""
        return (
            f"{count} chance node{'s' if count != 1 else ''} had more than {self.game.exact_chance_limit:,} "
            f"outcomes (up to {self.largest:,}): each estimated from {self.samples} samples (seed {self.seed})"
        )


__all__ = ["ChanceSampler", "chance_distribution"]
