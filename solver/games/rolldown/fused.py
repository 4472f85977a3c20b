"""The fused table update of the RolldownBeta table builder, compiled by numba (loaded by the builder
only, never by probing or the command line's start-up).

One update of a table ``T`` of a batch ``(B, d_1, ..., d_m)`` is ``T = op(K, op_k I_k)`` (``op``
max or min, ``I_k`` the reroll mean along dice axis k, broadcast along it), followed by the means
of ``T`` along every dice axis. numpy's kernel (:class:`~dicetree.solver.games.rolldown.tables._Kernel`)
does it in ``2m + 1`` passes over each block; this one does it in one pass over the table, a row
(the last axis) at a time: the row's constants are read once, combined with every mean, added
into every sum and, on the last update, written out. The means live in one flat vector, axis
after axis (``offsets``), each axis's array laid out ``(B, d_1, .., 1, .., d_m)`` in C order.

Constants may be ``uint32`` fixed point over [0, 1] (``k / (2**32 - 1)``, what the lean path keeps:
half the bytes of float64) or float; ``scale`` turns them into values (1.0 for float). The
output may be float or ``uint32`` fixed point (rounded to nearest).

    >>> import numpy as np
    >>> from dicetree.solver.games.rolldown.fused import FusedKernel
    >>> kernel = FusedKernel((1, 2, 3), np.float64, "max")
    >>> const = np.array([[[0.1, 0.9, 0.2], [0.3, 0.4, 0.5]]])
    >>> means_in = np.zeros(kernel.length)        # every reroll worth 0: the table is its constants
    >>> means_out = np.empty(kernel.length)
    >>> kernel.run(const, means_in, means_out)
    >>> means_out.round(6).tolist()  # along axis 1 (3 values), then along axis 2 (2 values)
    [0.2, 0.65, 0.35, 0.4, 0.4]
"""

from __future__ import annotations

import math

import numba
import numpy as np

FIXED_SCALE = 4294967295.0  # 2**32 - 1: the fixed-point step is 1 / FIXED_SCALE


@numba.njit(cache=True, nogil=True)
def _sweep(const, scale, inputs, sums, offsets, strides, extents, order, out, encode, larger):
    """The update itself (see :meth:`FusedKernel.run`), a block of the last three dice axes (two
    for one die a side) at a time, so that the passes over the outer means are long and contiguous;
    ``larger`` picks max, else min (a loop invariant: the compiler takes it out of the loops). The
    blocks are visited in ``order`` of the axes outside them (the outermost first), not in memory
    order: see :class:`FusedKernel`."""
    m = offsets.shape[0] - 1
    inner = 3 if m >= 4 else 2  # dice axes inside a block
    outer = m - inner  # dice axes outside, whose means are summed across blocks
    width, rows = extents[m], extents[m - 1]
    layers = extents[m - 2] if inner == 3 else 1
    plane = layers * rows * width
    planes = const.shape[0] // plane
    along_width, along_rows = offsets[m - 1], offsets[m - 2]
    along_layers = offsets[m - 3] if inner == 3 else 0
    pos = np.zeros(outer + 1, np.int64)  # where the block's outer means start; last: the block's number
    idx = np.zeros(outer + 1, np.int64)
    buf = np.empty(plane, inputs.dtype)
    for _ in range(planes):
        p = pos[outer]
        base = p * plane
        c_plane = const[base : base + plane]
        # slices, indexed from 0 by the loop counter: the compiler then vectorizes the loops
        for t in range(plane):
            buf[t] = c_plane[t] * scale
        for k in range(outer):
            seg = inputs[offsets[k] + pos[k] : offsets[k] + pos[k] + plane]
            if larger:
                for t in range(plane):
                    buf[t] = np.maximum(buf[t], seg[t])
            else:
                for t in range(plane):
                    buf[t] = np.minimum(buf[t], seg[t])
        # inside the block: the means along the layers (one per (row, column)), the rows (one per
        # (layer, column)) and the last axis (one per (layer, row))
        by_width = inputs[along_width + p * layers * rows : along_width + (p + 1) * layers * rows]
        by_rows = inputs[along_rows + p * layers * width : along_rows + (p + 1) * layers * width]
        by_layers = inputs[along_layers + p * rows * width : along_layers + (p + 1) * rows * width]
        for a in range(layers):
            for b in range(rows):
                row = buf[(a * rows + b) * width : (a * rows + b + 1) * width]
                c_row = by_width[a * rows + b]
                column = by_rows[a * width : (a + 1) * width]
                if inner == 3:
                    layer = by_layers[b * width : (b + 1) * width]
                    if larger:
                        for w in range(width):
                            row[w] = np.maximum(row[w], np.maximum(c_row, np.maximum(column[w], layer[w])))
                    else:
                        for w in range(width):
                            row[w] = np.minimum(row[w], np.minimum(c_row, np.minimum(column[w], layer[w])))
                elif larger:
                    for w in range(width):
                        row[w] = np.maximum(row[w], np.maximum(c_row, column[w]))
                else:
                    for w in range(width):
                        row[w] = np.minimum(row[w], np.minimum(c_row, column[w]))
        # the means along an outer axis: set at its first face, added to, and at its last face
        # divided by its faces (no pass over the means before or after)
        for k in range(outer):
            seg = sums[offsets[k] + pos[k] : offsets[k] + pos[k] + plane]
            face = idx[k + 1]
            if face == 0:
                for t in range(plane):
                    seg[t] = buf[t]
            elif face < extents[k + 1] - 1:
                for t in range(plane):
                    seg[t] += buf[t]
            else:
                inverse = 1.0 / extents[k + 1]
                for t in range(plane):
                    seg[t] = (seg[t] + buf[t]) * inverse
        width_sums = sums[along_width + p * layers * rows : along_width + (p + 1) * layers * rows]
        row_sums = sums[along_rows + p * layers * width : along_rows + (p + 1) * layers * width]
        layer_sums = sums[along_layers + p * rows * width : along_layers + (p + 1) * rows * width]
        row_sums[:] = 0.0
        if inner == 3:
            layer_sums[:] = 0.0
        for a in range(layers):
            column = row_sums[a * width : (a + 1) * width]
            for b in range(rows):
                row = buf[(a * rows + b) * width : (a * rows + b + 1) * width]
                total = 0.0
                for w in range(width):
                    total += row[w]
                    column[w] += row[w]
                width_sums[a * rows + b] = total * (1.0 / width)
                if inner == 3:
                    layer = layer_sums[b * width : (b + 1) * width]
                    for w in range(width):
                        layer[w] += row[w]
        for t in range(layers * width):
            row_sums[t] *= 1.0 / rows
        if inner == 3:
            for t in range(rows * width):
                layer_sums[t] *= 1.0 / layers
        if encode == 1:
            o_plane = out[base : base + plane]
            for t in range(plane):
                o_plane[t] = np.uint32(np.rint(buf[t] * FIXED_SCALE))
        elif encode == 2:
            o_plane = out[base : base + plane]
            for t in range(plane):
                o_plane[t] = buf[t]
        i = outer
        while i >= 0:  # the next block: an odometer over (batch, d_1, ..., d_outer) in ``order``
            j = order[i]
            idx[j] += 1
            for k in range(outer + 1):
                pos[k] += strides[k, j]
            if idx[j] < extents[j]:
                break
            for k in range(outer + 1):
                pos[k] -= strides[k, j] * extents[j]
            idx[j] = 0
            i -= 1


class FusedKernel:
    """One table update over a batch of shape ``(B, d_1, ..., d_m)`` with ``op`` ("max" or "min"),
    in one pass: the means of the inputs (``length`` values, axis after axis) in, the means of the
    updated table out. Releases the GIL, so two threads run two batches at once."""

    def __init__(self, shape: tuple[int, ...], dtype, op: str):
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.op = op
        batch, dims = shape[0], shape[1:]
        m = len(dims)
        self.mean_shapes = [tuple(1 if j == k + 1 else shape[j] for j in range(m + 1)) for k in range(m)]
        sizes = [math.prod(s) for s in self.mean_shapes]
        self.offsets = np.cumsum([0] + sizes).astype(np.int64)
        self.length = int(self.offsets[-1])
        # strides[k, j]: how far a step of axis j (0 the batch, j the dice axis j) outside the
        # block of the last three (two) moves in the mean along axis k (k outside the block); 0
        # along axis k itself, whose mean is shared by the whole line; the last row: the step in
        # the blocks' numbering
        outer = m - (3 if m >= 4 else 2)
        outside = outer + 1
        strides = np.zeros((outer + 1, outside), np.int64)
        for k, mean_shape in enumerate(self.mean_shapes[:outer]):
            step = 1
            for j in range(m, -1, -1):
                if j < outside:
                    strides[k, j] = 0 if j == k + 1 else step
                step *= mean_shape[j]
        strides[outer] = [math.prod(shape[j + 1 : outside]) for j in range(outside)]
        self.strides = strides
        self.extents = np.array((batch,) + dims, np.int64)
        # the mean along the outermost axis is read and summed once per face of it, a whole table's
        # length apart: with the die of most faces outermost that mean is the smallest (fits in cache
        # more often); then the next largest, and so on. The batch stays outermost: its hand pairs
        # share nothing.
        self.order = np.array([0] + sorted(range(1, outside), key=lambda j: -shape[j]), np.int64)
        self.larger = op == "max"

    def views(self, flat: np.ndarray) -> list[np.ndarray]:
        """The per-axis means inside one flat vector (the layout numpy's kernel uses too)."""
        return [flat[self.offsets[k] : self.offsets[k + 1]].reshape(self.mean_shapes[k])
                for k in range(len(self.mean_shapes))]

    def run(self, const: np.ndarray, inputs: np.ndarray, sums: np.ndarray, out: np.ndarray | None = None) -> None:
        """``sums`` gets the means of the updated table (written to ``out`` if given: float, or
        ``uint32`` fixed point). ``const`` is float or ``uint32`` fixed point, in the batch's shape."""
        flat = const.reshape(-1)
        scale = 1.0 / FIXED_SCALE if flat.dtype == np.uint32 else 1.0
        if out is None:
            target, encode = np.empty(0, self.dtype), 0
        else:
            target = out.reshape(-1)
            encode = 1 if target.dtype == np.uint32 else 2
        _sweep(flat, scale, inputs, sums, self.offsets, self.strides, self.extents, self.order, target, encode,
               self.larger)
