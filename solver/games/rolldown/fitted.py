"""RolldownBeta's fitted leaf evaluation: a logistic model of the mover's chance to win the round.

The estimate is ``sigmoid(logit)`` from the view of the player whose decision comes next, where
``logit = bias + weights . features + card weights + out . tanh(W (features - mean) / scale + b)``:
a logistic model over features (:func:`features`) that mean the same for any number of dice,
to which the data file may add a hidden layer of tanh units over the same features (a small
neural network). The shipped model has no hidden unit: networks fitted the small endgames better
but carried over to 3 dice worse (``results/rolldown-evaluation/README.md``). Cards enter the
logit linearly, a weight per card rank in each hand, so hands of two or three cards (the fit sees
at most one) add up.
A model fitted to the exact values of small endgames (at most 2 dice a side, with and without
cards) carries over to the middle game:

* **Captures now.** The shares of the n x n pairs (my die, their die) that the mover, and the
  opponent, could capture; whether either can capture at all; *safe* captures (after which the
  opponent has no capture among the dice left) for either side; the shares of each side's dice
  that can capture something and that can be captured.
* **Pair values.** The exact value of every one-die-a-side endgame the pair (my die, their die)
  would be, with the mover to move and with the opponent to move (the 3,600 one-die values are in
  the data file): their mean, best and worst over the pairs. They carry the dynamics of rerolls
  that plain counts miss (a d20 showing 3 against a d4 is worth more than it shows).
* **Faces and sides.** The mean face as a share of the sides, the chance that a reroll of one die
  lets it capture (or be captured by) each opposing die, mean sides, highest and lowest face, each
  as the mover's less the opponent's.
* **Cards.** A weight per card rank in the mover's hand and in the opponent's (added to the logit).

The hidden layer is evaluated with numpy, imported when the first estimate is asked for (a
command that only reads rules or notation does not load it); :meth:`FittedModel.logits` takes a
whole matrix of design rows at once, which is how the fitting script and the checks use it.

A mover who can take the last pair wins at once: that is :data:`LAST_PAIR_WIN`, not the model; the
last pair without cards is its exact (stored) value, clipped like the model's. A
side on its first turn of the round cannot capture, so its capture features are those of a side
with no capture. The estimate is kept within [``CLIP``, 1 - ``CLIP``]: a leaf is never a result.

The weights, the pair values and the fit's figures live in a versioned data file,
``fitted_evaluation.json`` beside this module, written by ``research/rolldown_evaluation_fit.py``
with a SHA-256 of its content that :func:`load_model` checks (a damaged file is one
:class:`EvaluationDataError` line).

>>> from dicetree.solver.games.rolldown import RolldownState
>>> model = load_model()
>>> ahead = RolldownState(dice=((0, 0, 5, 0, 12, 0), (3, 0, 0, 0, 0, 2)), mover=0)
>>> model.estimate(ahead, 0) > 0.5 > model.estimate(ahead, 1)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import CARD_LETTERS, DIE_SIDES, UNKNOWN
from dicetree.solver.games.rolldown.datafile import payload_checksum, read_payload
from dicetree.solver.games.rolldown.state import RolldownState

DATA_FILE = Path(__file__).with_name("fitted_evaluation.json")
FORMAT = "dicetree rolldown fitted evaluation"
VERSION = 2
LAST_PAIR_WIN = 0.999
CLIP = 1e-3
MEMO_SIZE = 1 << 17  # estimates remembered (then forgotten at once: a few tens of MB at most)

FEATURE_NAMES = (
    "share of pairs the mover can capture",
    "share of pairs the opponent can capture",
    "the mover can capture",
    "the opponent can capture",
    "the mover has a safe capture",
    "share of pairs that are safe captures for the mover",
    "the opponent has a safe capture",
    "share of pairs that are safe captures for the opponent",
    "mean face / sides (mover less opponent)",
    "chance a reroll of one's die captures the opposing die (mover less opponent, pair mean)",
    "chance a reroll of the opposing die lets one's die capture it (mover less opponent, pair mean)",
    "mean sides (mover less opponent) / 20",
    "highest face (mover less opponent) / 20",
    "lowest face (mover less opponent) / 20",
    "share of the mover's dice that can capture",
    "share of the opponent's dice the mover can capture",
    "share of the opponent's dice that can capture",
    "share of the mover's dice the opponent can capture",
    "pair value with the mover to move: mean",
    "pair value with the opponent to move: mean",
    "pair value with the mover to move: best",
    "pair value with the opponent to move: best",
    "pair value with the mover to move: worst",
    "pair value with the opponent to move: worst",
)
CARD_RANKS = tuple(sorted(code for code in CARD_LETTERS if code != UNKNOWN))
"""The ranks with a weight each in the mover's and the opponent's hand (Ace .. King, Joker)."""


class EvaluationDataError(GameError):
    """The fitted evaluation's data file is missing, of another version, or damaged."""


PairValues = dict[tuple[int, int], list[float]]


def features(mine: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]], pair_values: PairValues,
             mine_may_capture: bool = True, theirs_may_capture: bool = True) -> list[float]:
    """The :data:`FEATURE_NAMES` of a position: ``mine`` and ``theirs`` are (sides, face) of the dice in
    play of the mover and of the opponent (as many on each side); ``pair_values[(s, t)]`` are the exact
    one-die values, mover's die of ``s`` sides against the opponent's of ``t``, at ``(f - 1) * t + g - 1``.

    >>> pairs = {(6, 4): [0.5] * 24, (4, 6): [0.5] * 24}
    >>> [round(x, 3) for x in features([(6, 5)], [(4, 2)], pairs)[:8]]
    [1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    """
    n = len(mine)
    inv_pairs = 1.0 / (n * n)
    my_caps = [(i, j) for i, (_, f) in enumerate(mine) for j, (_, g) in enumerate(theirs) if f >= g] \
        if mine_may_capture else []
    their_caps = [(i, j) for i, (_, f) in enumerate(mine) for j, (_, g) in enumerate(theirs) if g >= f] \
        if theirs_may_capture else []
    # A capture (i, j) is safe when every capture of the other side uses die i or die j.
    my_safe = sum(1 for i, j in my_caps if all(k == i or m == j for k, m in their_caps))
    their_safe = sum(1 for i, j in their_caps if all(k == i or m == j for k, m in my_caps))
    up = down = 0.0
    vm_all = []  # each pair's value with the mover to move; vo_all with the opponent to move
    vo_all = []
    for s, f in mine:
        for t, g in theirs:
            up += (s - g + 1 if s >= g else 0) / s - (t - f + 1 if t >= f else 0) / t
            down += (f if f < t else t) / t - (g if g < s else s) / s
            vm_all.append(pair_values[(s, t)][(f - 1) * t + g - 1])
            vo_all.append(pair_values[(t, s)][(g - 1) * s + f - 1])
    inv_n = 1.0 / n
    my_faces = [f for _, f in mine]
    their_faces = [g for _, g in theirs]
    return [
        len(my_caps) * inv_pairs, len(their_caps) * inv_pairs, float(bool(my_caps)), float(bool(their_caps)),
        float(my_safe > 0), my_safe * inv_pairs, float(their_safe > 0), their_safe * inv_pairs,
        (sum(f / s for s, f in mine) - sum(g / t for t, g in theirs)) * inv_n,
        up * inv_pairs, down * inv_pairs,
        (sum(s for s, _ in mine) - sum(t for t, _ in theirs)) * inv_n / 20,
        (max(my_faces) - max(their_faces)) / 20, (min(my_faces) - min(their_faces)) / 20,
        len({i for i, _ in my_caps}) * inv_n, len({j for _, j in my_caps}) * inv_n,
        len({j for _, j in their_caps}) * inv_n, len({i for i, _ in their_caps}) * inv_n,
        sum(vm_all) * inv_pairs, sum(vo_all) * inv_pairs, max(vm_all), max(vo_all), min(vm_all), min(vo_all),
    ]


def sides_and_faces(state: RolldownState, side: int) -> list[tuple[int, int]]:
    """(sides, face) of ``side``'s dice in play."""
    return [(DIE_SIDES[slot], face) for slot, face in enumerate(state.dice[side]) if face]


def card_counts(hand: Sequence[int]) -> list[float]:
    """How many of each of :data:`CARD_RANKS` ``hand`` holds (unknown cards count for none)."""
    return [float(hand.count(rank)) for rank in CARD_RANKS]


def design_row(state: RolldownState, to_move: int, pair_values: PairValues) -> list[float]:
    """What the model weighs at ``state`` for ``to_move``: the :data:`FEATURE_NAMES`, then the card
    counts of ``to_move``'s hand and of the opponent's (the fit's design matrix has these rows)."""
    other = 1 - to_move
    first = state.first_turn
    return (features(sides_and_faces(state, to_move), sides_and_faces(state, other), pair_values,
                     not first[to_move], not first[other])
            + card_counts(state.hands[to_move]) + card_counts(state.hands[other]))


@dataclass(frozen=True)
class HiddenLayer:
    """The network's hidden layer: ``out . tanh(weights @ ((features - mean) / scale) + bias)``,
    ``weights`` a row per unit (no rows: no hidden layer, the plain logistic model)."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]
    bias: tuple[float, ...]
    out: tuple[float, ...]

    @property
    def units(self) -> int:
        return len(self.weights)


NO_HIDDEN_LAYER = HiddenLayer((), (), (), (), ())


@dataclass(frozen=True)
class FittedModel:
    """The fitted weights with the pair values they read; :meth:`estimate` is the evaluation's."""

    weights: tuple[float, ...]
    bias: float
    my_card_weights: tuple[float, ...]
    their_card_weights: tuple[float, ...]
    pair_values: PairValues
    hidden: HiddenLayer = NO_HIDDEN_LAYER
    version: int = VERSION
    # caches, not part of the value: the estimates made, and the coefficients as numpy arrays
    _memo: dict[tuple, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    _arrays: tuple | None = field(default=None, init=False, repr=False, compare=False)

    def _matrices(self):
        """The coefficients as numpy arrays, the hidden layer's standardization folded into its weights
        (built on first use, so loading the model does not load numpy)."""
        if self._arrays is None:
            import numpy as np

            linear = np.array(self.weights + self.my_card_weights + self.their_card_weights)
            k = len(FEATURE_NAMES)
            if self.hidden.units:
                scaled = np.array(self.hidden.weights) / np.array(self.hidden.scale)  # units x features
                first = np.ascontiguousarray(scaled.T)
                first_bias = np.array(self.hidden.bias) - scaled @ np.array(self.hidden.mean)
                out = np.array(self.hidden.out)
            else:
                first, first_bias, out = np.zeros((k, 0)), np.zeros(0), np.zeros(0)
            object.__setattr__(self, "_arrays", (linear, first, first_bias, out, k))
        return self._arrays

    def logits(self, rows):
        """The model's logit of each design row (:func:`design_row`; a matrix, one row per position,
        or a single row).

        >>> model = load_model()
        >>> rows = [design_row(RolldownState(dice=((0, 0, f, 0, 12, 0), (3, 0, 0, 0, 0, 2)), mover=0), 0,
        ...                    model.pair_values) for f in (1, 8)]
        >>> low, high = model.logits(rows)
        >>> bool(low < high)
        True
        """
        import numpy as np

        linear, first, first_bias, out, k = self._matrices()
        x = np.asarray(rows, dtype=float)
        hidden = np.tanh(x[..., :k] @ first + first_bias) @ out if out.size else 0.0
        return x @ linear + self.bias + hidden

    def estimate(self, state: RolldownState, to_move: int) -> float:
        """The estimated chance that ``to_move``, whose decision comes next, wins the round (remembered:
        a search meets the same leaves again in each iteration, a played game in each search)."""
        key = (state.dice, state.hands, state.first_turn, to_move)
        memo = self._memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= MEMO_SIZE:
                memo.clear()
            found = memo[key] = self._estimate(state, to_move)
        return found

    def forget(self) -> None:
        """Empty the memo of estimates (they stay the same: only for timings that must start cold)."""
        self._memo.clear()

    def _estimate(self, state: RolldownState, to_move: int) -> float:
        mine, theirs = sides_and_faces(state, to_move), sides_and_faces(state, 1 - to_move)
        if len(mine) == 1:
            (s, f), (t, g) = mine[0], theirs[0]
            if f >= g and not state.first_turn[to_move]:
                return LAST_PAIR_WIN
            if not state.hands[0] and not state.hands[1] and not any(state.first_turn):
                return min(1.0 - CLIP, max(CLIP, self.pair_values[(s, t)][(f - 1) * t + g - 1]))
        z = max(-30.0, min(30.0, float(self.logits(design_row(state, to_move, self.pair_values)))))
        return min(1.0 - CLIP, max(CLIP, 1.0 / (1.0 + math.exp(-z))))


def pair_key(sides: tuple[int, int]) -> str:
    return f"d{sides[0]}-d{sides[1]}"


def model_payload(model: FittedModel, extra: dict) -> dict:
    """The data file's content for ``model`` (with ``extra``: how it was fitted and checked), checksummed."""
    payload = {
        "format": FORMAT, "version": model.version, "features": list(FEATURE_NAMES),
        "weights": list(model.weights), "bias": model.bias, "card_ranks": [CARD_LETTERS[c] for c in CARD_RANKS],
        "my_card_weights": list(model.my_card_weights), "their_card_weights": list(model.their_card_weights),
        "hidden_layer": {"units": model.hidden.units, "activation": "tanh", "mean": list(model.hidden.mean),
                         "scale": list(model.hidden.scale), "weights": [list(row) for row in model.hidden.weights],
                         "bias": list(model.hidden.bias), "out": list(model.hidden.out)},
        "pair_values": {pair_key(key): values for key, values in sorted(model.pair_values.items())},
        **extra,
    }
    payload["sha256"] = payload_checksum(payload)
    return payload


def floats(values) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def hidden_sizes_match(hidden: HiddenLayer) -> bool:
    """Every hidden unit reads every feature, and the layer's vectors are one a unit or one a feature."""
    units, k = hidden.units, len(FEATURE_NAMES)
    if not units:
        return not (hidden.mean or hidden.scale or hidden.bias or hidden.out)
    return (len(hidden.mean) == len(hidden.scale) == k and all(len(row) == k for row in hidden.weights)
            and len(hidden.bias) == len(hidden.out) == units and all(s > 0 for s in hidden.scale))


@lru_cache(maxsize=4)
def load_model(path: Path | str = DATA_FILE) -> FittedModel:
    """The model in the data file at ``path`` (checked: format, version, checksum, sizes).

    >>> load_model().version
    2
    """
    path = Path(path)
    payload = read_payload(path, FORMAT, VERSION, EvaluationDataError, "fitted evaluation data")
    try:
        pairs = {}
        for key, values in payload["pair_values"].items():
            s, t = (int(part[1:]) for part in key.split("-"))
            if len(values) != s * t:
                raise ValueError(key)
            pairs[(s, t)] = [float(v) for v in values]
        layer = payload["hidden_layer"]
        hidden = HiddenLayer(floats(layer["mean"]), floats(layer["scale"]),
                             tuple(floats(row) for row in layer["weights"]), floats(layer["bias"]), floats(layer["out"]))
        model = FittedModel(floats(payload["weights"]), float(payload["bias"]), floats(payload["my_card_weights"]),
                            floats(payload["their_card_weights"]), pairs, hidden)
    except (KeyError, TypeError, ValueError) as error:
        raise EvaluationDataError(f"fitted evaluation data {path}: malformed ({error})") from error
    if (len(model.weights) != len(FEATURE_NAMES) or len(model.my_card_weights) != len(CARD_RANKS)
            or len(model.their_card_weights) != len(CARD_RANKS)
            or set(pairs) != {(s, t) for s in DIE_SIDES for t in DIE_SIDES}
            or not hidden_sizes_match(hidden)):
        raise EvaluationDataError(f"fitted evaluation data {path}: sizes do not match this dicetree's features")
    return model


__all__ = [
    "CARD_RANKS", "DATA_FILE", "FEATURE_NAMES", "NO_HIDDEN_LAYER", "EvaluationDataError", "FittedModel", "HiddenLayer",
    "card_counts", "features",
    "design_row", "load_model", "model_payload", "payload_checksum", "sides_and_faces",
]
