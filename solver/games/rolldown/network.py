"""RolldownBeta's value network as a leaf evaluation (``--rule evaluation=network``): its data file and its
batched numpy inference.

The network (:mod:`dicetree.solver.games.rolldown.network_kernel` defines the position's raw vector, its
lossless encoding and the forward pass a compiled search runs) estimates the chance that the player whose
decision comes next wins the round. It is learned by fitted value iteration from the exact endgame
tables (``research/rolldown_network_train.py``; how and how well: ``results/rolldown-network/``).

Here the network is evaluated with numpy: :func:`encode_rows` encodes many raw vectors at once (the same
input as the kernel's ``encode``, which a test checks), :meth:`NetworkModel.estimate_rows` values them in
one matrix product a layer, and :meth:`NetworkModel.estimate` is the one-position path a search calls at a
leaf (its answers remembered). The weights live in a versioned data file with a SHA-256 of its content,
``value_network.json`` beside this module; a damaged file is one :class:`NetworkDataError` line.

>>> from dicetree.solver.games.rolldown.state import RolldownState
>>> model = load_network()
>>> ahead = RolldownState(dice=((0, 0, 8, 0, 12, 0), (3, 0, 0, 0, 0, 2)), mover=0)
>>> model.estimate(ahead, 0) > 0.5 > model.estimate(ahead, 1)
True
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.datafile import payload_checksum, read_payload
from dicetree.solver.games.rolldown.network_kernel import (
    DEFAULT_CLIP,
    FACE_SLOTS,
    INPUT_LENGTH,
    PAIR_RELATIONS,
    RAW_DICE,
    RAW_HANDS,
    RAW_LENGTH,
    SLOTS,
    raw_position,
)
from dicetree.solver.games.rolldown.state import RolldownState
from dicetree.solver.mlp import Perceptron

DATA_FILE = Path(__file__).with_name("value_network.json")
FORMAT = "dicetree rolldown value network"
VERSION = 1
MEMO_SIZE = 1 << 17  # estimates remembered (a few tens of MB at most)

#: Where each (side, slot)'s one-hot faces start in the encoding (face f at start + f - 1).
_FACE_STARTS = np.array([side * FACE_SLOTS + sum(DIE_SIDES[:slot]) for side in range(2) for slot in range(SLOTS)])
_PRESENCE_START = 2 * FACE_SLOTS  # then one entry per (side, slot)
_TAIL_START = 2 * (FACE_SLOTS + SLOTS)  # then the raw vector's hands, unknown counts, first turns, as they are,
# then the pairs' relations


class NetworkDataError(GameError):
    """The value network's data file is missing, of another version, or damaged."""


def encode_rows(raw: np.ndarray, dtype=np.float64) -> np.ndarray:
    """The network's input (rows of :data:`INPUT_LENGTH`) of raw vectors (rows of :data:`RAW_LENGTH`): the
    kernel's ``encode``, a whole batch at once."""
    raw = np.asarray(raw).reshape(-1, RAW_LENGTH)
    x = np.zeros((len(raw), INPUT_LENGTH), dtype=dtype)
    faces = raw[:, RAW_DICE : RAW_DICE + 2 * SLOTS].astype(np.int64)
    rows, cols = np.nonzero(faces > 0)
    x[rows, _FACE_STARTS[cols] + faces[rows, cols] - 1] = 1.0
    x[rows, _PRESENCE_START + cols] = 1.0
    x[:, _TAIL_START : _TAIL_START + RAW_LENGTH - RAW_HANDS] = raw[:, RAW_HANDS:]
    mine, theirs = faces[:, :SLOTS, None], faces[:, None, SLOTS:]  # [row, my slot, their slot] once broadcast
    both = (mine > 0) & (theirs > 0)
    at = INPUT_LENGTH - PAIR_RELATIONS
    x[:, at : at + SLOTS * SLOTS] = (both & (mine >= theirs)).reshape(len(raw), -1)
    x[:, at + SLOTS * SLOTS :] = (both & (theirs >= mine)).reshape(len(raw), -1)
    return x


@dataclass(frozen=True, eq=False)
class NetworkModel:
    """The network (``sizes``, ``params``: the kernel's layout), its output kept within [clip, 1 - clip],
    and what its data file says about its training (``training``)."""

    net: Perceptron
    clip: float = DEFAULT_CLIP
    training: dict = field(default_factory=dict)
    _memo: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def sizes(self) -> np.ndarray:
        return self.net.sizes

    @property
    def params(self) -> np.ndarray:
        return self.net.params

    def estimate_rows(self, raw: np.ndarray) -> np.ndarray:
        """The estimate of every raw vector in ``raw`` (one matrix product a layer)."""
        return self.net.probabilities(encode_rows(raw), self.clip)

    def estimate_many(self, states: list[RolldownState], to_move: list[int]) -> np.ndarray:
        """:meth:`estimate` of many positions at once (a node's children in one call)."""
        raw = np.zeros((len(states), RAW_LENGTH), dtype=np.int64)
        for row, state, player in zip(raw, states, to_move):
            raw_position(state, player, row)
        return self.estimate_rows(raw)

    def estimate(self, state: RolldownState, to_move: int) -> float:
        """The chance that ``to_move``, whose decision comes next, wins the round."""
        key = (state.dice, state.hands, state.first_turn, to_move)
        found = self._memo.get(key)
        if found is None:
            raw = np.zeros(RAW_LENGTH, dtype=np.int64)
            raw_position(state, to_move, raw)
            found = float(self.estimate_rows(raw)[0])
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = found
        return found


def network_payload(net: Perceptron, clip: float, training: dict) -> dict:
    """The data file's content for ``net`` (weights written to 9 significant digits), with its checksum."""
    payload = {"format": FORMAT, "version": VERSION, "input": "network_kernel.encode", "sizes": net.sizes.tolist(),
               "clip": clip, "params": [float(f"{p:.9g}") for p in net.params], "training": training}
    return {**payload, "sha256": payload_checksum(payload)}


@lru_cache(maxsize=4)
def load_network(path: Path | str = DATA_FILE) -> NetworkModel:
    """The network in the data file at ``path`` (checked: format, version, checksum, sizes).

    >>> int(load_network().sizes[0]) == INPUT_LENGTH
    True
    """
    payload = read_payload(path, FORMAT, VERSION, NetworkDataError, "value network data")
    try:
        net = Perceptron(np.array(payload["sizes"], dtype=np.int64), np.array(payload["params"], dtype=np.float64))
        clip = float(payload["clip"])
        training = dict(payload.get("training", {}))
    except (KeyError, TypeError, ValueError) as error:
        raise NetworkDataError(f"value network data {path}: malformed ({error})") from error
    if net.sizes[0] != INPUT_LENGTH or not 0.0 <= clip < 0.5:
        raise NetworkDataError(f"value network data {path}: its input is not this dicetree's encoding")
    return NetworkModel(net, clip, training)


__all__ = ["DATA_FILE", "NetworkDataError", "NetworkModel", "encode_rows", "load_network", "network_payload"]
