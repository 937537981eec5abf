"""A shortlist for the exact copy's scan: its rows projected onto their top principal
directions, so a search reads a fraction of the matrix.

The full scan reads every float of every row (150 MB at 100k x 384) and is bound by
memory bandwidth. Past :data:`MIN_ROWS` the copy also keeps each row projected onto
the ``d`` directions that carry most of its energy (the top eigenvectors of its Gram
matrix); a search scores every row in that space, keeps the best :data:`SHORTLIST` per
ten results asked, and scores those exactly. ``d`` is the smallest that finds the exact
top 10 of sample queries in the shortlist at :data:`TARGET_RECALL`; a corpus whose
energy is spread so wide that no small ``d`` does keeps the full scan.
"""

from __future__ import annotations

import math

import numpy as np

# Below this the full scan takes a few milliseconds: nothing to win.
MIN_ROWS = 50_000
# Candidates scored exactly per ten results asked. On a diverse 83k-sentence corpus
# (docstrings and LoCoMo turns) 192 of 384 directions and 200 candidates found the
# exact top 10 of LoCoMo's questions 0.999 of the time; 128 directions, 0.988.
SHORTLIST = 200
TARGET_RECALL = 0.998
# Directions tried, as shares of the model's dimension: 64 ... 192 of 384. Half of
# them already reads half the matrix; past that the full scan is as good.
SHARES = (1 / 6, 1 / 4, 1 / 3, 5 / 12, 1 / 2)
QUERIES = 200
_CHUNK = 25
# A question's nearest memories sit about this close to it (cosine); on the 1M scale
# profile, stored vectors moved this far in a random direction gave the vector index
# the same recall@10 as the generated questions at three settings (within 0.011).
QUERY_COSINE = 0.75
# The basis is fitted again once the copy has grown this much past the rows it saw,
# or once this share of its rows are outliers.
REFIT_GROWTH = 2.0
REFIT_OUTLIERS = 0.05
OUTLIER_SHARE = 0.01


class Projection:
    """The basis, the copy's base rows projected on it, and the rows it represents
    worst (:data:`OUTLIER_SHARE` of those it was fitted on, and any later row as far
    off), which are always scored exactly: a memory on a topic the fit never saw is
    not lost to it."""

    def __init__(self, basis: np.ndarray, rows: np.ndarray, recall: float, cut: float) -> None:
        self.basis = basis  # (dim, d) orthonormal columns, float32
        self.rows = rows  # (n, d)
        self.recall = recall  # measured at fit time: exact top 10 found in the shortlist
        self.cut = cut  # energy outside the basis past which a row is an outlier
        self.outliers = np.flatnonzero(_outside(rows) > cut)

    @property
    def dims(self) -> int:
        return int(self.basis.shape[1])

    def scores(self, q: np.ndarray, outlier_rows: np.ndarray) -> np.ndarray:
        """Cosine of every row to the unit vector ``q`` (or, for a matrix of them, one
        row of scores each): approximate, but exact for the outliers
        (``outlier_rows``: those rows themselves, in the order of ``outliers``)."""
        out = (q @ self.basis) @ self.rows.T
        if self.outliers.size:
            out[..., self.outliers] = q @ outlier_rows.T
        return out

    def extended(self, added: np.ndarray) -> Projection:
        """With rows appended (projected on the same basis)."""
        new = np.ascontiguousarray(added @ self.basis, dtype=np.float32)
        return Projection(self.basis, np.vstack([self.rows, new]), self.recall, self.cut)

    def kept(self, keep: np.ndarray) -> Projection:
        """Only the rows ``keep`` (indices), in that order."""
        return Projection(self.basis, self.rows[keep], self.recall, self.cut)

    def drifted(self) -> bool:
        """Enough rows lie off the basis that it should be fitted again."""
        return self.outliers.size > REFIT_OUTLIERS * max(1, len(self.rows))


def _outside(projected: np.ndarray) -> np.ndarray:
    """Each unit row's energy outside the basis, from its projection."""
    return 1.0 - np.einsum("ij,ij->i", projected, projected)


def shortlist_size(limit: int) -> int:
    return SHORTLIST * max(1, math.ceil(limit / 10))


def moved_queries(vectors: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Unit ``vectors`` moved in a random direction to :data:`QUERY_COSINE` from where
    they were: queries near memories, as real ones are, but not on one."""
    noise = rng.normal(size=vectors.shape).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    # v + s*g with g ~orthogonal to v has cosine 1 / sqrt(1 + s^2) to v.
    moved = vectors + math.sqrt(1 / QUERY_COSINE**2 - 1) * noise
    return (moved / np.linalg.norm(moved, axis=1, keepdims=True)).astype(np.float32)


def fit(vectors: np.ndarray, *, seed: int = 7) -> Projection | None:
    """The smallest projection of the unit rows ``vectors`` that reaches
    :data:`TARGET_RECALL` on sample queries; None when none of :data:`SHARES` does or
    the copy is too small to gain."""
    n, dim = vectors.shape
    k, short = 10, shortlist_size(10)
    if n < max(MIN_ROWS, 2 * short):
        return None
    rng = np.random.default_rng(seed)
    rows = np.asarray(vectors, dtype=np.float32)
    # The directions of most energy (uncentred: what a dot product needs) are the top
    # eigenvectors of the Gram matrix, 0.1 s at 100k x 384 against ~1 s for an SVD.
    _, vecs = np.linalg.eigh(rows.T @ rows)
    dims = sorted({max(1, round(dim * share)) for share in SHARES})
    basis = np.ascontiguousarray(vecs[:, ::-1][:, : dims[-1]], dtype=np.float32)
    projected = rows @ basis
    queries = moved_queries(rows[rng.choice(n, size=min(n, QUERIES), replace=False)], rng)
    # Queries a few at a time: the score matrices and argpartition's indices would
    # otherwise take ~400 MB at 100k rows on the save path.
    chunks = [queries[i : i + _CHUNK] for i in range(0, len(queries), _CHUNK)]
    truth = [np.argpartition(c @ rows.T, n - k, axis=1)[:, n - k :] for c in chunks]
    for d in dims:
        kept = np.ascontiguousarray(projected[:, :d])
        cut = float(np.quantile(_outside(kept), 1 - OUTLIER_SHARE))
        proj = Projection(np.ascontiguousarray(basis[:, :d]), kept, 0.0, cut)
        hits = 0
        for c, want in zip(chunks, truth, strict=True):
            approx = proj.scores(c, rows[proj.outliers])
            found = np.argpartition(approx, n - short, axis=1)[:, n - short :]
            hits += sum(
                len(np.intersect1d(t, f, assume_unique=True))
                for t, f in zip(want, found, strict=True)
            )
        proj.recall = round(hits / (len(queries) * k), 4)
        if proj.recall >= TARGET_RECALL:
            return proj
    return None
