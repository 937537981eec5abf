"""How many cells a sign copy's search probes and how many rows it keeps (sign_copy.py):
measured, as the vector index's settings are, on sample queries near stored rows whose
exact top 10 is known.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hermes_memory.tier3.projection import moved_queries
from hermes_memory.tier3.sign_copy import ROTATION_SEED, SHORTLISTS, SignCopy
from hermes_memory.tier3.sign_search import cut, distances
from hermes_memory.tier3.snapshot import normalised

# The first of SHORTLISTS whose shortlist holds the exact top 10 of the sample queries
# at this share is kept. On the 100k agent-turn profile (1.03M rows) 4,000 found 0.989
# of them (1,000 and 2,000 under 0.97).
TARGET_RECALL = 0.97
# Cells probed per ten rows asked, as shares of a copy's cells (sign_cells.py). The
# sample queries, moved from stored rows at random, find their neighbours in fewer
# cells than real questions do: on one 100k agent-turn build 1/32 of 1,024 cells
# passed them and held 0.934 of the exact top 10 of generated questions; 1/16 held
# 0.97-0.99 on two builds. So 1/16 is the fewest tried.
PROBE_SHARES = (1 / 16, 1 / 8, 1 / 4)
# What scoring a shortlisted row costs (its 8-bit vector read from the mapping, its
# cosine) in rows whose bits are counted: 20-30 at 1.03M rows (the bits of 118k rows
# gathered and counted in 1.1 ms; 4,000 rows read and scored in 0.8-1.4 ms).
SCORE_COST = 30
# Queries it is measured on: with 40, 1,000 rows measured 0.970 on one 1M-row copy and
# under 0.97 on another of the same rows, so the two searched at different costs.
SAMPLES = 200
STEP = 8_192  # rows compared with the sample queries at a time


class RunningTop:
    """The exact top 10 rows (global row numbers) of sample ``queries``, kept as unit
    rows stream past in order: what the shortlist is measured against, found without a
    second pass over the copy's vectors."""

    def __init__(self, queries: np.ndarray) -> None:
        self.queries = queries
        self.best = np.full((len(queries), 10), -2.0, dtype=np.float32)
        self.rows = np.full((len(queries), 10), -1, dtype=np.int64)
        self.seen = 0

    def add(self, unit: np.ndarray) -> None:
        # A few thousand rows at a time: the similarities and row numbers of a whole
        # 65k-row block for 200 queries came to ~400 MB.
        for start in range(0, len(unit), STEP):
            sims = self.queries @ unit[start : start + STEP].T
            k = min(10, sims.shape[1])
            near = np.argpartition(-sims, k - 1, axis=1)[:, :k]
            both = np.concatenate([self.best, np.take_along_axis(sims, near, axis=1)], axis=1)
            rows = np.concatenate([self.rows, near + self.seen + start], axis=1)
            keep = np.argpartition(-both, 9, axis=1)[:, :10]
            self.best = np.take_along_axis(both, keep, axis=1)
            self.rows = np.take_along_axis(rows, keep, axis=1)
        self.seen += len(unit)

    def measured(self) -> tuple[np.ndarray, list[set[int]]]:
        return self.queries, [set(r.tolist()) for r in self.rows]


def measured_on(parts: Sequence[np.ndarray]) -> tuple[np.ndarray, list[set[int]]]:
    """Sample queries near the rows of ``parts`` (a copy's rows, in order, in one or
    more arrays) and the exact top 10 of each among them, for :func:`tune`."""
    rng = np.random.default_rng(ROTATION_SEED)
    total = sum(len(p) for p in parts)
    picks = np.sort(rng.choice(total, size=min(total, SAMPLES), replace=False))
    starts = np.cumsum([0] + [len(p) for p in parts])
    near = np.concatenate(
        [
            p[picks[(picks >= a) & (picks < a + len(p))] - a]
            for p, a in zip(parts, starts[:-1], strict=True)
        ]
    )
    top = RunningTop(moved_queries(normalised(near), rng))
    for part in parts:
        for start in range(0, len(part), STEP):
            top.add(normalised(part[start : start + STEP]))
    return top.measured()


def probe_counts(copy: SignCopy) -> list[int]:
    """Cells a search may probe per ten rows asked, fewest first; 0 (every row) last."""
    if copy.centroids is None:
        return [0]
    cells = len(copy.centroids)
    shares = sorted({max(1, round(cells * share)) for share in PROBE_SHARES})
    return [p for p in shares if p < cells] + [0]


def tune(copy: SignCopy, measured: tuple[np.ndarray, list[set[int]]]) -> None:
    """Keep the cheapest pair of probed cells and shortlist (:data:`SHORTLISTS`) whose
    shortlist holds the exact top 10 of the ``measured`` sample queries (their exact
    top 10 as global row numbers, found while the copy's rows were read) at
    :data:`TARGET_RECALL`, with the recall it reached."""
    with copy.lock:
        total = sum(len(s) for s in copy.segments)
        if total == 0:
            return
        starts = np.cumsum([0] + [len(s) for s in copy.segments])
        queries, tops = measured
        masks: list[np.ndarray | None] = [None if not d.any() else ~d for d in copy.dead]
        best: tuple[float, int, int, float] | None = None  # cost, probes, size, recall
        for probes in probe_counts(copy):
            found = dict.fromkeys(SHORTLISTS, 0.0)
            counted = 0
            for q, exact in zip(queries, tops, strict=True):
                rows = distances(copy, q, masks, probes)  # once for every size
                counted += sum(len(acc) for _, _, acc in rows)
                for size in SHORTLISTS:
                    picked = cut(rows, size)
                    ids = {int(starts[n] + r) for n, rr in picked.items() for r in rr}
                    found[size] += len(exact & ids) / 10
            for size in SHORTLISTS:
                recall = found[size] / len(queries)
                cost = counted / len(queries) + SCORE_COST * size
                if recall >= TARGET_RECALL and (best is None or cost < best[0]):
                    best = (cost, probes, size, recall)
        if best is None:  # none reaches it: the deepest search there is
            best = (0.0, 0, SHORTLISTS[-1], found[SHORTLISTS[-1]] / len(queries))
        _, copy.probes, copy.shortlist, recall = best
        copy.recall = round(recall, 4)
