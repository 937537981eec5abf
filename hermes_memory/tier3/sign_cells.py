"""The coarse partition of a sign copy (sign_copy.py): its rows in cells, and a
search that counts bits only over the cells nearest the query.

At a million rows the bit count over every row's code was most of a search (~8 of
~15 ms on both cores). A copy's rows are grouped by spherical k-means on the sample it
is started from (about the square root of its rows: 1,024 cells at a million), each
row in the cell of its nearest centroid. A search probes the cells whose centroids are
nearest the query; how many is measured when the copy is built (sign_tune.py). On the
100k agent-turn profile (1.03M rows), 64 of 1,024 cells held ~6% of the rows and 0.99
of the exact top 10. Each segment keeps its rows' cells on disk and, in memory from
its first search, its codes in cell order (48 bytes a row), so a probe reads a few
contiguous runs instead of every row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MIN_CELLS = 16
MAX_CELLS = 4096
ROUNDS = 10  # k-means rounds over the sample (the centroids settle by then)
_BLOCK = 8192  # rows compared with the centroids at a time (32 MB at 1,024 cells)


def cell_count(rows: int) -> int:
    """About the square root of ``rows``, a power of two within the bounds."""
    root = math.sqrt(max(rows, 1))
    return int(min(MAX_CELLS, max(MIN_CELLS, 2 ** round(math.log2(root)))))


def centroids(sample: np.ndarray, rows: int, seed: int) -> np.ndarray:
    """Unit centroids of ``rows`` rows by spherical k-means on their unit ``sample``
    (at most one cell per sampled row)."""
    unit = np.asarray(sample, dtype=np.float32)
    k = min(cell_count(rows), len(unit))
    rng = np.random.default_rng(seed)
    centre = unit[np.sort(rng.choice(len(unit), size=k, replace=False))].copy()
    for _ in range(ROUNDS):
        near = nearest(unit, centre)
        counts = np.bincount(near, minlength=k)
        filled = np.flatnonzero(counts)
        starts = np.cumsum(counts) - counts
        sums = np.add.reduceat(unit[np.argsort(near, kind="stable")], starts[filled], axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        # An empty cell keeps its centroid (a later row may still fall in it).
        centre[filled] = sums / np.maximum(norms, 1e-12)
    return centre


def nearest(unit: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Each row's cell: the centroid with the largest dot product (its norm aside)."""
    out = np.empty(len(unit), dtype=np.uint16)
    for start in range(0, len(unit), _BLOCK):
        block = np.asarray(unit[start : start + _BLOCK], dtype=np.float32)
        out[start : start + len(block)] = np.argmax(block @ centre.T, axis=1)
    return out


def probed(centre: np.ndarray, q: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` cells nearest the unit query ``q``, in cell order."""
    count = min(count, len(centre))
    near = np.argpartition(-(centre @ q), count - 1)[:count]
    return np.sort(near)


@dataclass
class CellRuns:
    """A segment's rows cell by cell: cell ``c``'s are ``rows[starts[c]:starts[c+1]]``,
    and ``codes`` are the segment's codes (words x rows) in the same order."""

    rows: np.ndarray
    starts: np.ndarray
    codes: np.ndarray

    @classmethod
    def of(cls, cells: np.ndarray, codes: np.ndarray, count: int) -> CellRuns:
        cells = np.asarray(cells)
        order = np.argsort(cells, kind="stable").astype(np.int32)
        starts = np.concatenate([[0], np.cumsum(np.bincount(cells, minlength=count))])
        return cls(order, starts, np.ascontiguousarray(np.asarray(codes)[:, order]))

    def probe(self, cells: np.ndarray) -> Probe:
        """The runs of ``cells`` (sorted), one after another."""
        lo = self.starts[cells]
        hi = self.starts[cells + 1]
        filled = hi > lo
        return Probe(self, lo[filled], hi[filled])


@dataclass
class Probe:
    """The rows of some cells of a segment (``CellRuns``), run after run: position
    ``p`` of the probe is the ``p``-th of them."""

    runs: CellRuns
    lo: np.ndarray  # each run's first position in the segment's cell order
    hi: np.ndarray

    def __len__(self) -> int:
        return int((self.hi - self.lo).sum())

    def differences(self, words: np.ndarray) -> np.ndarray:
        """The bits in which each row's code differs from ``words``, counted: each run
        XORed where it lies (one gather of the runs first took 1.7 of 2.7 ms at 170k
        rows; the runs are contiguous, so slices read them at memory speed)."""
        column = words[:, None]
        diff = np.empty((len(words), len(self)), dtype=np.uint64)
        at = 0
        for a, b in zip(self.lo.tolist(), self.hi.tolist(), strict=True):
            np.bitwise_xor(self.runs.codes[:, a:b], column, out=diff[:, at : at + b - a])
            at += b - a
        return np.bitwise_count(diff).sum(axis=0, dtype=np.uint16)

    def gather(self, in_cell_order: np.ndarray) -> np.ndarray:
        """``in_cell_order`` (one value per row of the segment, in its cell order) at
        the probe's positions."""
        spans = zip(self.lo.tolist(), self.hi.tolist(), strict=True)
        pieces = [in_cell_order[a:b] for a, b in spans]
        return np.concatenate(pieces) if pieces else in_cell_order[:0]

    def rows_at(self, positions: np.ndarray) -> np.ndarray:
        """The segment rows at ``positions`` of the probe."""
        ends = np.cumsum(self.hi - self.lo)
        run = np.searchsorted(ends, positions, side="right")
        begins = ends - (self.hi - self.lo)  # where each run starts in the probe
        return self.runs.rows[self.lo[run] + positions - begins[run]]
