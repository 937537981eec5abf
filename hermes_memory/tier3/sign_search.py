"""A sign copy's shortlist (sign_copy.py): the rows whose codes differ least from
the query's, counted over the rows of the probed cells (sign_cells.py) or, in a copy
without cells, over every row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hermes_memory.tier3 import sign_cells
from hermes_memory.tier3.snapshot import on_both_cores

if TYPE_CHECKING:
    from hermes_memory.tier3.sign_cells import Probe
    from hermes_memory.tier3.sign_copy import SignCopy

_FAR = np.uint16(0xFFFF)  # the distance of a row the search must not return
# Rows per piece of a whole count: a million-row segment is split across both cores.
_SPLIT = 1 << 19


Masks = list[np.ndarray | None]  # per segment, the rows a search may return (None: all)


def shortlist(
    copy: SignCopy,
    q: np.ndarray,
    masks: Masks,
    size: int,
    probes: int = 0,
    ordered: Masks | None = None,
) -> dict[int, np.ndarray]:
    """Per segment, the rows (sorted) whose codes differ least from ``q``'s among those
    of the ``probes`` cells nearest it (0: among every row): at least ``size`` of them
    over all segments when as many are searchable. ``ordered``: the same masks in each
    segment's cell order, if at hand."""
    found = distances(copy, q, masks, probes, ordered)
    if probes and sum(int(np.count_nonzero(acc != _FAR)) for _, _, acc in found) < size:
        # Too few searchable rows near the query (an owner with few rows in a shared
        # table): every row is counted, so none that may be returned is missed.
        found = distances(copy, q, masks, 0)
    return cut(found, size)


# (segment, the first of a run of its rows or the probe that counted them, distances)
Counted = list[tuple[int, "Probe | int", np.ndarray]]


def distances(
    copy: SignCopy, q: np.ndarray, masks: Masks, probes: int = 0, ordered: Masks | None = None
) -> Counted:
    """The bits in which each searchable row's code differs from ``q``'s, per segment:
    the rows of the ``probes`` cells nearest ``q`` (0, or a copy without cells: every
    row, the big segments in parts over both cores); a row not searchable is at
    ``_FAR``."""
    words = copy.codes_of(q[None, :])[:, 0]
    out: Counted = []
    whole: list[tuple[int, int, int]] = []
    cells = None
    cells_of = copy.centroids
    if probes and cells_of is not None:
        cells = sign_cells.probed(cells_of, q, probes)
    for n, seg in enumerate(copy.segments):
        if cells is None or cells_of is None or seg.cells is None:
            whole.extend(
                (n, start, min(start + _SPLIT, len(seg))) for start in range(0, len(seg), _SPLIT)
            )
            continue
        probe = seg.runs(len(cells_of)).probe(cells)
        acc = probe.differences(words)
        mask = masks[n]
        if mask is not None:
            in_order = None if ordered is None else ordered[n]
            ok = mask[probe.gather(probe.runs.rows)] if in_order is None else probe.gather(in_order)
            acc[~ok] = _FAR
        out.append((n, probe, acc))

    def count(part: tuple[int, int, int]) -> np.ndarray:
        n, start, stop = part
        acc = _bit_count(copy.segments[n].codes[:, start:stop], words)
        mask = masks[n]
        if mask is not None:
            acc[~mask[start:stop]] = _FAR
        return acc

    found = on_both_cores(count, whole)  # counted here and on the pool's one thread
    out.extend((n, start, acc) for (n, start, _), acc in zip(whole, found, strict=True))
    return out


def _bit_count(codes: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Bits in which each column of ``codes`` (words x rows) differs from ``words``."""
    rows = codes.shape[1]
    acc = np.zeros(rows, dtype=np.uint16)
    tmp = np.empty(rows, dtype=np.uint64)
    ones, group = np.empty(rows, dtype=np.uint8), np.empty(rows, dtype=np.uint8)
    # Counted in 8 bits three words at a time (at most 192), then widened: adding
    # 8-bit counts into 16 bits word by word took twice as long.
    for first in range(0, len(words), 3):
        group.fill(0)
        for j in range(first, min(first + 3, len(words))):
            np.bitwise_xor(codes[j], words[j], out=tmp)
            np.bitwise_count(tmp, out=ones)
            np.add(group, ones, out=group)
        acc += group.astype(np.uint16)
    return acc


def cut(found: Counted, size: int) -> dict[int, np.ndarray]:
    """Per segment, the rows (sorted) within the smallest distance that at least
    ``size`` searchable rows lie within (ties at it all come along)."""
    if not found:
        return {}
    every = np.concatenate([acc for _, _, acc in found])
    reachable = every.size - int(np.count_nonzero(every == _FAR))
    if reachable == 0:
        return {}
    # (A partition of the 16-bit distances: 0.35 ms at 1M rows, a histogram 1.5.)
    want = min(size, reachable)
    limit = int(np.partition(every, want - 1)[want - 1])
    picked: dict[int, list[np.ndarray]] = {}
    for n, rows, acc in found:
        near = np.flatnonzero(acc <= limit)
        near = near + rows if isinstance(rows, int) else rows.rows_at(near)
        if near.size:
            picked.setdefault(n, []).append(near)
    return {n: np.sort(np.concatenate(r)) for n, r in picked.items()}
