"""A small multilayer perceptron in numpy: ReLU hidden layers and one logit out, its batched inference
and its training by Adam on the soft-label cross-entropy, with no library beyond numpy.

The weights travel as two arrays, the layout a compiled search reads too: ``sizes`` (int64,
``[n_in, h_1, ..., 1]``) and ``params`` (float64, flat: layer after layer the weights ``W``,
``sizes[l]`` rows of ``sizes[l + 1]``, row-major, so a layer is ``x @ W + b``, then the biases ``b``).

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> net = Perceptron.initial([3, 8, 1], rng)
>>> x = rng.random((256, 3))
>>> targets = 1 / (1 + np.exp(-(x[:, 0] - x[:, 1])))
>>> trainer = AdamTrainer(net)
>>> before = float(np.abs(net.probabilities(x) - targets).mean())
>>> for _ in range(200):
...     _ = trainer.epoch(x, targets, rng, batch=64, rate=1e-2)
>>> float(np.abs(trainer.net.probabilities(x) - targets).mean()) < before / 4
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

INFERENCE_CHUNK = 1 << 15  # rows a forward pass takes at once (bounded working memory)


@dataclass(frozen=True, eq=False)
class Perceptron:
    """The network: ``sizes`` and flat ``params`` (see the module), with its layers as views."""

    sizes: np.ndarray
    params: np.ndarray
    layers: list[tuple[np.ndarray, np.ndarray]] = field(init=False, repr=False)

    def __post_init__(self):
        sizes = np.asarray(self.sizes, dtype=np.int64)
        params = np.ascontiguousarray(self.params, dtype=np.float64)
        if sizes.ndim != 1 or len(sizes) < 2 or sizes[-1] != 1 or (sizes < 1).any():
            raise ValueError(f"sizes are [n_in, hidden..., 1] of positive counts, not {sizes.tolist()}")
        needed = int((sizes[:-1] * sizes[1:] + sizes[1:]).sum())
        if params.shape != (needed,):
            raise ValueError(f"sizes {sizes.tolist()} need {needed} parameters, not {params.size}")
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "params", params)
        layers, at = [], 0
        for n_in, n_out in zip(sizes[:-1], sizes[1:]):
            weights = params[at : at + n_in * n_out].reshape(n_in, n_out)
            at += n_in * n_out
            layers.append((weights, params[at : at + n_out]))
            at += n_out
        object.__setattr__(self, "layers", layers)

    @classmethod
    def initial(cls, sizes: Sequence[int], rng: np.random.Generator) -> Perceptron:
        """Random weights scaled for ReLU layers (He), zero biases."""
        parts = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:]):
            parts += [rng.normal(0.0, np.sqrt(2.0 / n_in), n_in * n_out), np.zeros(n_out)]
        return cls(np.asarray(sizes), np.concatenate(parts))

    def widened(self, sizes: Sequence[int], rng: np.random.Generator) -> Perceptron:
        """This network with wider hidden layers (``sizes``: as many layers, none narrower) and the same output
        for every input: each new unit gets random input weights (He) and zero output weights, so training
        goes on from this network's function with room to improve on it.

        >>> rng = np.random.default_rng(2)
        >>> small = Perceptron.initial([3, 4, 2, 1], rng)
        >>> wide = small.widened([3, 8, 5, 1], rng)
        >>> x = rng.random((5, 3))
        >>> wide.sizes.tolist(), bool(np.allclose(wide.logits(x), small.logits(x)))
        ([3, 8, 5, 1], True)
        """
        wide_sizes = np.asarray(sizes, dtype=np.int64)
        if (len(wide_sizes) != len(self.sizes) or wide_sizes[0] != self.sizes[0] or wide_sizes[-1] != 1
                or (wide_sizes < self.sizes).any()):
            raise ValueError(f"cannot widen {self.sizes.tolist()} to {wide_sizes.tolist()}: same depth and input, "
                             "no layer narrower")
        wide = Perceptron.initial(wide_sizes.tolist(), rng)
        for (weights, bias), (new_weights, new_bias) in zip(self.layers, wide.layers):
            n_in, n_out = weights.shape
            new_weights[n_in:, :] = 0.0  # the new units of the layer below feed nothing yet
            new_weights[:n_in, :n_out] = weights
            new_bias[:n_out] = bias
        return wide

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The output logit of each row of ``x`` (rows of ``sizes[0]`` inputs): in float64 for float64 input,
        else in float32 (which halves the time of a large batch; compact inputs such as small integers
        stored as uint8 are widened a chunk at a time). The output is float64 either way."""
        x = np.asarray(x)
        dtype = np.float64 if x.dtype == np.float64 else np.float32
        layers = [(w.astype(dtype, copy=False), b.astype(dtype, copy=False)) for w, b in self.layers]
        out = np.empty(len(x))
        for start in range(0, len(x), INFERENCE_CHUNK):
            h = x[start : start + INFERENCE_CHUNK].astype(dtype, copy=False)
            for weights, bias in layers[:-1]:
                h = np.maximum(h @ weights + bias, 0)
            weights, bias = layers[-1]
            out[start : start + len(h)] = (h @ weights)[:, 0] + bias[0]
        return out

    def probabilities(self, x: np.ndarray, clip: float = 0.0) -> np.ndarray:
        """The sigmoid of :meth:`logits`, kept within [``clip``, 1 - ``clip``]."""
        return np.clip(sigmoid(self.logits(x)), clip, 1.0 - clip)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # no overflow for large |z|


class AdamTrainer:
    """Adam on the soft-label cross-entropy between the network's sigmoid and targets in [0, 1]; its
    moments are kept between calls, so training can go on with new targets (value iteration)."""

    def __init__(self, net: Perceptron, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        self.params = net.params.copy()
        self.sizes = net.sizes
        self.net = Perceptron(self.sizes, self.params)
        self.first = np.zeros_like(self.params)
        self.second = np.zeros_like(self.params)
        self.steps = 0
        self.beta1, self.beta2, self.eps = beta1, beta2, eps

    def epoch(self, x: np.ndarray, targets: np.ndarray, rng: np.random.Generator, batch: int = 256,
              rate: float = 1e-3, weights: np.ndarray | None = None) -> float:
        """One pass over ``x`` in shuffled minibatches; returns the mean cross-entropy less the targets'
        own entropy (0 for a perfect fit). ``weights`` weigh the rows (default all 1)."""
        order = rng.permutation(len(x))
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            w = None if weights is None else weights[rows]
            total += self._step(x[rows], targets[rows], rate, w) * len(rows)
        return total / max(1, len(x))

    def _step(self, x: np.ndarray, t: np.ndarray, rate: float, w: np.ndarray | None) -> float:
        activations = [np.asarray(x, dtype=np.float64)]
        layers = self.net.layers
        for weights, bias in layers[:-1]:
            activations.append(np.maximum(activations[-1] @ weights + bias, 0.0))
        z = (activations[-1] @ layers[-1][0])[:, 0] + layers[-1][1][0]
        p = sigmoid(z)
        scale = np.full(len(t), 1.0 / len(t)) if w is None else w / max(w.sum(), 1e-12)
        loss = float(np.sum(scale * (_xent(t, p) - _xent(t, t))))
        delta = ((p - t) * scale)[:, None]  # d loss / d logit
        grads = []
        for layer in range(len(layers) - 1, -1, -1):
            weights, _ = layers[layer]
            grads.append((activations[layer].T @ delta, delta.sum(axis=0)))
            if layer:
                delta = (delta @ weights.T) * (activations[layer] > 0.0)
        flat = np.concatenate([part for gw, gb in reversed(grads) for part in (gw.ravel(), gb)])
        self.steps += 1
        self.first = self.beta1 * self.first + (1 - self.beta1) * flat
        self.second = self.beta2 * self.second + (1 - self.beta2) * flat * flat
        corrected = rate * np.sqrt(1 - self.beta2**self.steps) / (1 - self.beta1**self.steps)
        self.params -= corrected * self.first / (np.sqrt(self.second) + self.eps)  # in place: layers are views
        return loss


def _xent(t: np.ndarray, p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


__all__ = ["AdamTrainer", "Perceptron", "sigmoid"]
