"""Soft whitening of the exact copy's cosine: similarity measured against the
profile's own distribution of meanings, not the model's.

A memory store is one person's life: its sentence vectors share a common direction
(everything is "chat between friends") and a few directions of large variance, so a
question sits close to every pleasantry ("Thanks, your support means a lot") and
far apart from the one plain statement that answers it. Centring the rows on their
mean and scaling each principal direction by ``variance ** -STRENGTH`` (partial
whitening, as in BERT-whitening, Su et al. 2021, with a milder exponent) spreads
what the profile says alike and brings out what distinguishes one memory from the
rest. On LoCoMo's turns it raised the vector search's own Recall@10 from 0.52 to
0.62 (docs/retrieval.md).

The transform is derived from the vectors alone (no labels), fitted again as the
copy grows, and applied without a second matrix: with ``W`` the transform and ``m``
the mean, the whitened cosine of a query ``q`` and a row ``r`` is
``(a . r - a . m) / (|W'(r - m)| |W'(q - m)|)`` with ``a = W W'(q - m)``, so a search
is still one product of the stored rows with one vector, divided by each row's norm
(kept beside the rows).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

# Rows below which the copy is searched by plain cosine (tier3.whiten_min_rows): too
# few to estimate a spread. On LoCoMo a fit on 200 of a conversation's ~2,000 rows
# kept most of the gain (vector Recall@10 0.606 against 0.616, plain 0.516), with SHRINK.
MIN_ROWS = 200
# Exponent of each direction's variance: 0.5 would be full whitening (it loses what
# the top directions carry: 0.55 against 0.61 for 0.25 on LoCoMo's vector search;
# 0.15-0.35 measured 0.63-0.64 on conversations 0-2).
STRENGTH = 0.25
# Added to every direction's variance, so directions a small copy barely spans are
# not blown up: about half the mean variance of a direction (0.0018 on LoCoMo's
# turns, 0.0022 on the scale corpus).
SHRINK = 1e-3
# Fitted again once the copy has this many times the rows it was fitted on.
REFIT_GROWTH = 2.0
# Whitened cosines run lower than plain ones (a question's best match ~0.42, its
# tenth ~0.25, against 0.67 and 0.55). They are reported on the plain scale recall
# calibrates (api/scoring.py COS_FLOOR / COS_CEIL): these two points map onto those;
# chosen on LoCoMo 0-2, checked on 3-4.
WHITE_FLOOR, WHITE_CEIL = -0.05, 0.4
PLAIN_FLOOR, PLAIN_CEIL = 0.1, 0.8
# Rows read at a time (fit, norms, whitened rows).
_BLOCK = 16_384


@dataclass(frozen=True)
class Whitening:
    """The fitted transform and the norm of every row of the copy under it."""

    mean: np.ndarray  # (dim,) float64
    transform: np.ndarray  # (dim, dim) float64: eigenvectors scaled by variance ** -STRENGTH
    fitted_rows: int
    norms: np.ndarray  # (rows,) float32, aligned with the copy's rows

    def _whitened(self, rows: np.ndarray) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """W'(r - m) of ``rows`` a block at a time (float32), with each row's norm
        (never zero): the temporary copy stays one block, even at 100k rows."""
        mean = self.mean.astype(np.float32)
        transform = self.transform.astype(np.float32)
        for start in range(0, len(rows), _BLOCK):
            block = (np.asarray(rows[start : start + _BLOCK], dtype=np.float32) - mean) @ transform
            norms = np.maximum(np.linalg.norm(block, axis=1), 1e-12)
            yield slice(start, start + len(block)), block, norms

    def row_norms(self, rows: np.ndarray) -> np.ndarray:
        """|W'(r - m)| of each of ``rows`` (never zero)."""
        out = np.empty(len(rows), dtype=np.float32)
        for part, _, norms in self._whitened(rows):
            out[part] = norms
        return out

    def unit_rows(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` in the whitened space, scaled to unit length (what the copy's
        shortlist is fitted on: projection.py)."""
        out = np.empty((len(rows), self.transform.shape[1]), dtype=np.float32)
        for part, block, norms in self._whitened(rows):
            out[part] = block / norms[:, None]
        return out

    def extended(self, rows: np.ndarray) -> Whitening:
        """With the norms of appended ``rows``."""
        return Whitening(
            self.mean,
            self.transform,
            self.fitted_rows,
            np.concatenate([self.norms, self.row_norms(rows)]),
        )

    def kept(self, keep: np.ndarray) -> Whitening:
        return Whitening(self.mean, self.transform, self.fitted_rows, self.norms[keep])

    def query(self, q: np.ndarray) -> Query:
        """What a search needs of the unit query vector ``q``."""
        wq = (np.asarray(q, dtype=np.float64) - self.mean) @ self.transform
        a = self.transform @ wq
        norm = max(float(np.linalg.norm(wq)), 1e-12)
        unit = (wq / norm).astype(np.float32)
        return Query(a.astype(np.float32), float(a @ self.mean), norm, unit)


@dataclass(frozen=True)
class Query:
    direction: np.ndarray  # a = W W'(q - m): rows are scored by ``rows @ direction``
    offset: float  # a . m
    norm: float  # |W'(q - m)|
    unit: np.ndarray  # W'(q - m) / norm: the query in the whitened space (unit_rows)

    def raw(self, dots: np.ndarray, norms: np.ndarray) -> np.ndarray:
        """Whitened cosines from ``rows @ direction`` and the rows' norms."""
        return (dots - self.offset) / (norms * self.norm)

    def cosines(self, dots: np.ndarray, norms: np.ndarray) -> np.ndarray:
        """The same, on the plain scale (what search reports)."""
        return on_plain_scale(self.raw(dots, norms))


def on_plain_scale(white: np.ndarray) -> np.ndarray:
    """Whitened cosines mapped linearly so WHITE_FLOOR / WHITE_CEIL read as the plain
    cosines PLAIN_FLOOR / PLAIN_CEIL; above that, bent smoothly towards 1 (never
    reached), so the order of close matches is kept and nothing reads above 1."""
    slope = (PLAIN_CEIL - PLAIN_FLOOR) / (WHITE_CEIL - WHITE_FLOOR)
    out = PLAIN_FLOOR + (np.asarray(white, dtype=np.float64) - WHITE_FLOOR) * slope
    head = 1.0 - PLAIN_CEIL
    high = out > PLAIN_CEIL
    out[high] = PLAIN_CEIL + head * np.tanh((out[high] - PLAIN_CEIL) / head)
    return np.maximum(out, -1.0).astype(np.float32)


def fit(blocks: list[np.ndarray]) -> Whitening:
    """The transform of the unit rows of ``blocks`` (the copy's row matrices, in
    order), with the norm of each of their rows."""
    n = sum(len(b) for b in blocks)
    dim = blocks[0].shape[1]
    total = np.zeros(dim)
    gram = np.zeros((dim, dim))
    for b in blocks:
        for start in range(0, len(b), _BLOCK):
            x = np.asarray(b[start : start + _BLOCK], dtype=np.float64)
            total += x.sum(axis=0)
            gram += x.T @ x
    mean = total / n
    cov = (gram - n * np.outer(mean, mean)) / max(n - 1, 1) + SHRINK * np.eye(dim)
    variances, vectors = np.linalg.eigh(cov)
    transform = vectors * np.maximum(variances, SHRINK) ** -STRENGTH
    empty = Whitening(mean, transform, n, np.zeros(0, dtype=np.float32))
    norms = np.concatenate([empty.row_norms(b) for b in blocks])
    return Whitening(mean, transform, n, norms)
