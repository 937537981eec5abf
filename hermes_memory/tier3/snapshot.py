"""The exact-search copy of the vector table, in memory and in a file beside it.

Up to ``tier3.exact_search_max_rows`` vectors, search scans this copy instead of
LanceDB: one matrix product over 100k x 384 floats takes a few milliseconds, LanceDB's
flat search ~150 ms. The copy is stamped with the table's committed versions (the
names in its ``_versions`` directory change with any commit by any process), so a
stale copy is never used. This process's own writes are applied to the copy in
place; a process that loaded or updated the copy saves it, so the next process
starts from the file (memory-mapped) without importing LanceDB (~3 s) or reading
the table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa

from hermes_memory.fileio import write_atomic
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import projection, whitening
from hermes_memory.tier3.projection import Projection
from hermes_memory.tier3.whitening import Whitening

COLUMNS: tuple[str, ...] = ("id", "kind", "item_uuid", "chunk", "text", "platform", "agent")
COLUMNS += ("user_id", "session_key")
# Rows a search reads per hit it returns: an item's chunk and up to three sentence
# segments (tier3.segments_per_chunk) may all be near the query.
ROWS_PER_ITEM = 4
SPLIT_ROWS = 20_000
_FITTED, _BASIS, _PROJECTED = ".fit.json", ".basis.npy", ".proj.npy"
_WHITE = ".white.npz"
_POOL: ThreadPoolExecutor | None = None
_T = TypeVar("_T")
_R = TypeVar("_R")


def scan_pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hermes-scan")
    return _POOL


def on_both_cores(work: Callable[[_T], _R], parts: Sequence[_T]) -> list[_R]:
    """``work`` over ``parts``, in order: the first on the calling thread, the rest on
    the scan pool at the same time (numpy releases the GIL). The caller's core is
    awake already; handing every part to the pool woke two idle threads, and a 1M-row
    bit count took 8-12 ms where this takes 6-8 (docs/benchmarks.md)."""
    if len(parts) <= 1:
        return [work(p) for p in parts]
    rest = [scan_pool().submit(work, p) for p in parts[1:]]
    return [work(parts[0]), *(f.result() for f in rest)]


@dataclass(frozen=True)
class VectorHit:
    kind: str
    item_uuid: str
    chunk: int
    text: str
    similarity: float  # cosine similarity in [-1, 1]


def table_stamp(table_dir: Path) -> str | None:
    """A name for the table's committed state (None: no table on disk)."""
    try:
        names = sorted(os.listdir(table_dir / "_versions"))
    except FileNotFoundError:
        return None
    return hashlib.sha1("\n".join(names).encode()).hexdigest()[:20]


def normalised(raw: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as a new float32 array."""
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    # The quotient is new already; float32 input keeps it float32 with no second copy.
    return (raw / np.where(norms == 0, 1.0, norms)).astype(np.float32, copy=False)


def first_per_item(items: Iterable[str], limit: int) -> dict[str, int]:
    """Each item's first position in ``items`` (rows best first), for at most ``limit``
    items: an item has several rows (chunks, sentence segments), a hit is its best."""
    first: dict[str, int] = {}
    for at, item in enumerate(items):
        if item not in first:
            first[item] = at
            if len(first) == limit:
                break
    return first


def best_hits(hits: Iterable[VectorHit], limit: int) -> list[VectorHit]:
    """The first hit of each item among ``hits`` (best first), at most ``limit``."""
    seen: set[str] = set()
    out: list[VectorHit] = []
    for h in hits:
        if h.item_uuid not in seen:
            seen.add(h.item_uuid)
            out.append(h)
            if len(out) == limit:
                break
    return out


def best_per_item(items: Iterable[str], unit: np.ndarray, vector: np.ndarray) -> dict[str, float]:
    """Cosine of ``vector`` to each item's best row, given the items of ``unit``'s
    rows (unit-length vectors) in order."""
    q = np.asarray(vector, dtype=np.float32)
    return best_of(items, unit @ (q / (np.linalg.norm(q) or 1.0)))


def best_of(items: Iterable[str], sims: np.ndarray) -> dict[str, float]:
    """Each item's highest similarity, given the item of each of ``sims`` in order."""
    best: dict[str, float] = {}
    for item, s in zip(items, sims, strict=True):
        best[item] = max(best.get(item, -1.0), float(s))
    return best


def vectors_of(data: pa.Table | pa.RecordBatch, dim: int) -> np.ndarray:
    """The ``vector`` column of an Arrow table or batch as a float32 matrix."""
    column = data.column("vector")
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    flat = column.flatten().to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(-1, dim)


class Snapshot:
    """Rows ``base`` (loaded) then ``extra`` (appended here since); ``alive`` marks
    the rows not deleted since. Compacted once the appended part grows."""

    def __init__(
        self,
        stamp: str,
        vectors: np.ndarray,
        cols: dict[str, np.ndarray],
        whiten_min_rows: int = whitening.MIN_ROWS,
    ) -> None:
        self.stamp = stamp
        self.base = vectors
        self.extra = np.zeros((0, vectors.shape[1]), dtype=np.float32)
        self.cols = cols
        self.alive = np.ones(len(vectors), dtype=bool)
        self.dirty = False  # changed since it was loaded or saved
        self._rows: dict[tuple[Any, ...], np.ndarray] = {}
        self._by_item: dict[str, list[int]] | None = None
        # The shortlist's projection of ``base`` (projection.py), and the rows the last
        # fit saw (0: never tried; a fit may find no projection worth keeping).
        self.proj: Projection | None = None
        self.fitted_rows = 0
        # The space the projection was fitted in: 0 plain cosine, else the whitening's
        # fitted_rows (a refitted whitening leaves it unused until it is fitted again).
        self.proj_white = 0
        self._proj_exact: np.ndarray | None = None  # its outlier rows, in that space
        # How similarity is measured once the copy has ``whiten_min_rows`` rows
        # (whitening.py; 0: never).
        self.white: Whitening | None = None
        self.whiten_min_rows = whiten_min_rows

    @classmethod
    def from_pages(
        cls,
        stamp: str,
        pages: Iterable[pa.RecordBatch],
        rows: int,
        dim: int,
        whiten_min_rows: int = whitening.MIN_ROWS,
    ) -> Snapshot | None:
        """A copy of ``rows`` table rows read a page at a time (the :data:`COLUMNS`
        and ``vector``): the vectors go straight into one float32 matrix, normalised
        page by page, so no second whole copy of them is ever held. None when the
        pages do not hold exactly ``rows`` rows."""
        vectors = np.empty((rows, dim), dtype=np.float32)
        parts: dict[str, list[np.ndarray]] = {c: [] for c in COLUMNS}
        at = 0
        for page in pages:
            n = page.num_rows
            if at + n > rows:
                return None
            vectors[at : at + n] = normalised(vectors_of(page, dim))
            for c in COLUMNS:
                # A copy: a zero-copy view (the int column) would keep the whole page,
                # vectors and all, alive until the end (every page: +370 MB at 200k).
                parts[c].append(np.array(page.column(c).to_numpy(zero_copy_only=False)))
            at += n
        if at != rows:
            return None
        cols = {c: np.concatenate(v) if v else np.empty(0, dtype=object) for c, v in parts.items()}
        snap = cls(stamp, vectors, cols, whiten_min_rows)
        snap.dirty = True  # not on disk yet
        return snap

    @classmethod
    def empty(cls, stamp: str, dim: int, whiten_min_rows: int = whitening.MIN_ROWS) -> Snapshot:
        cols = {c: np.empty(0, dtype=object) for c in COLUMNS}
        return cls(stamp, np.zeros((0, dim), dtype=np.float32), cols, whiten_min_rows)

    def __len__(self) -> int:
        return int(self.alive.sum())

    # -- this process's writes --------------------------------------------------------
    def apply(
        self, stamp: str, removed: Iterable[str], rows: list[dict[str, Any]], vectors: np.ndarray
    ) -> None:
        """Delete every row of the ``removed`` items, append ``rows``; now at ``stamp``."""
        index = self._item_index()
        for item in removed:
            for i in index.pop(item, ()):
                self.alive[i] = False
        if rows:
            start = len(self.alive)
            added = normalised(np.asarray(vectors, dtype=np.float32).reshape(len(rows), -1))
            self.extra = np.vstack([self.extra, added])
            if self.white is not None:
                self.white = self.white.extended(added)
            for c in COLUMNS:
                new = np.empty(len(rows), dtype=object)
                new[:] = [r[c] for r in rows]
                self.cols[c] = np.concatenate([self.cols[c], new])
            self.alive = np.concatenate([self.alive, np.ones(len(rows), dtype=bool)])
            for offset, r in enumerate(rows):
                index.setdefault(r["item_uuid"], []).append(start + offset)
        self.stamp = stamp
        self.dirty = True
        self._rows.clear()
        if len(self.extra) > max(4096, len(self.base) // 8):
            self._compact()

    def present(self, items: list[str]) -> list[str]:
        """Those of ``items`` that have rows."""
        index = self._item_index()
        return [i for i in items if i in index]

    def live_parts(self) -> list[tuple[dict[str, np.ndarray], np.ndarray]]:
        """The columns and unit vectors of every live row, in order, as the rows loaded
        and the rows appended since: a part whose rows all live is handed over as it
        is held (read-only), so an import crossing the cap (every row alive) copies no
        vectors (one in-order copy of them was 300 MB at 200k rows)."""
        cut = len(self.base)
        parts = []
        for vectors, alive, first in (
            (self.base, self.alive[:cut], 0),
            (self.extra, self.alive[cut:], cut),
        ):
            if not alive.any():
                continue
            if alive.all():
                span = slice(first, first + len(alive))
                parts.append(({c: v[span] for c, v in self.cols.items()}, vectors))
            else:
                rows = np.flatnonzero(alive)
                cols = {c: v[rows + first] for c, v in self.cols.items()}
                parts.append((cols, vectors[rows]))
        return parts

    def _item_index(self) -> dict[str, list[int]]:
        if self._by_item is None:
            index: dict[str, list[int]] = {}
            for i in np.flatnonzero(self.alive):
                index.setdefault(self.cols["item_uuid"][i], []).append(int(i))
            self._by_item = index
        return self._by_item

    def _compact(self) -> None:
        # With every row alive (an import only appends) nothing is selected, so the
        # matrix is copied once, not twice: at 200k rows the second copy was 300 MB of
        # the importing process's peak.
        keep = None if self.alive.all() else np.flatnonzero(self.alive)
        if self.proj is not None:
            proj = self.proj
            if len(self.extra):
                proj = proj.extended(self._in_proj_space(self.extra, self._proj_whitening()))
            self.proj = proj if keep is None else proj.kept(keep)
            self._proj_exact = None
        if self.white is not None and keep is not None:
            self.white = self.white.kept(keep)
        merged = np.vstack([self.base, self.extra]) if len(self.extra) else self.base
        self.base = merged if keep is None else merged[keep]
        self.extra = np.zeros((0, self.base.shape[1]), dtype=np.float32)
        if keep is not None:
            self.cols = {c: v[keep] for c, v in self.cols.items()}
            self.alive = np.ones(len(keep), dtype=bool)
            self._by_item = None
        self._rows.clear()

    def needs_fit(self) -> bool:
        rows = len(self.alive)
        if rows < projection.MIN_ROWS:
            return False
        if self.proj is not None and (self.proj.drifted() or not self._proj_usable()):
            return True
        return self.fitted_rows == 0 or rows >= self.fitted_rows * projection.REFIT_GROWTH

    def fit_projection(self) -> None:
        """Fit the shortlist's projection now if the copy has none or outgrew it, in
        the space the copy is searched in (whitened or not): ~2 s at 100k rows, on
        the save path, never in a search."""
        self._compact()  # the rows written since join the projection (and its outliers)
        white = self.fit_whitening()
        if not self.needs_fit():
            return
        self.proj = projection.fit(self._in_proj_space(self.base, white))
        self.proj_white = white.fitted_rows if white is not None else 0
        self._proj_exact = None
        self.fitted_rows = len(self.base)
        self.dirty = True

    @staticmethod
    def _in_proj_space(rows: np.ndarray, white: Whitening | None) -> np.ndarray:
        """``rows`` as a projection fitted under ``white`` sees them: whitened unit
        rows, or the rows themselves (None: plain cosine)."""
        return white.unit_rows(rows) if white is not None else np.asarray(rows)

    def _proj_whitening(self) -> Whitening | None:
        """The whitening the projection was fitted under, if it is still the copy's."""
        white = self.white
        if self.proj_white and white is not None and white.fitted_rows == self.proj_white:
            return white
        return None

    def _proj_usable(self) -> bool:
        """The projection was fitted in the space searches use now."""
        white = self.white if self._whitened() else None
        return self.proj_white == (white.fitted_rows if white is not None else 0)

    def _whitened(self) -> bool:
        """Whether searches measure by whitened cosine (the copy is big enough)."""
        return 0 < self.whiten_min_rows <= len(self)

    def fit_whitening(self) -> Whitening | None:
        """The whitening to search with, fitted first if the copy has none or outgrew
        it (~10 ms at 2k rows, ~1 s at 100k: on the save path or the first search)."""
        if not self._whitened():
            return None
        if self._needs_whitening():
            parts = [self.base, self.extra] if len(self.extra) else [self.base]
            self.white = whitening.fit(parts)
            self.dirty = True
        return self.white

    def _needs_whitening(self) -> bool:
        if not self._whitened():
            return False
        return self.white is None or len(self) >= self.white.fitted_rows * whitening.REFIT_GROWTH

    # -- search -------------------------------------------------------------------------
    def search(
        self, vector: np.ndarray, owner: Owner, limit: int, kinds: tuple[str, ...]
    ) -> list[VectorHit]:
        key = (owner.platform, owner.agent, owner.user_id, owner.session, kinds)
        rows = self._rows.get(key)
        if rows is None:
            col = self.cols
            mask = (
                self.alive
                & (col["platform"] == owner.platform)
                & (col["agent"] == owner.agent)
                & (col["user_id"] == owner.user_id)
                & ((col["session_key"] == "") | (col["session_key"] == owner.session))
            )
            if kinds:
                mask &= np.isin(col["kind"], list(kinds))
            rows = self._rows[key] = np.flatnonzero(mask)
        if rows.size == 0:
            return []
        q = np.asarray(vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        white = self.fit_whitening()
        wq = white.query(q) if white is not None else None
        direction = wq.direction if wq is not None else q
        # An item has several rows (chunks, sentence segments): enough rows to fill
        # ``limit`` distinct items, then one hit per item, its best row.
        k = min(limit * ROWS_PER_ITEM, rows.size)
        short = max(projection.shortlist_size(limit), k)
        if self.proj is not None and rows.size > short and self._proj_usable():
            # Score every row in the projection, then the shortlist exactly.
            approx = self._approx(self.proj, q, wq)[rows]
            rows = rows[np.argpartition(-approx, short - 1)[:short]]
            sims = self._gather(rows) @ direction
        else:
            # one pass over every row beats copying the subset
            sims = self._scan(direction)[rows]
        if white is not None and wq is not None:
            sims = wq.raw(sims, white.norms[rows])  # ranked as they are, shown on the plain scale
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        c = self.cols
        # Each item's best row first, then hits of those only (building one for each
        # of the ~300 rows cost 0.6 ms a search).
        first = first_per_item(c["item_uuid"][rows[top]].tolist(), limit)
        best = top[list(first.values())]
        picked = rows[best]
        shown = whitening.on_plain_scale(sims[best]) if white is not None else sims[best]
        return [
            VectorHit(str(c["kind"][i]), item, int(c["chunk"][i]), str(c["text"][i]), float(s))
            for item, i, s in zip(first, picked, shown, strict=True)
        ]

    def similarities(self, vector: np.ndarray, items: Iterable[str]) -> dict[str, float]:
        """Cosine of ``vector`` to each of ``items`` that has rows (its best chunk)."""
        index = self._item_index()
        wanted = [(item, i) for item in dict.fromkeys(items) for i in index.get(item, ())]
        if not wanted:
            return {}
        rows = np.array([i for _, i in wanted])
        vectors = self._gather(rows)
        white = self.fit_whitening()
        if white is None:
            return best_per_item((item for item, _ in wanted), vectors, vector)
        q = np.asarray(vector, dtype=np.float32)
        wq = white.query(q / (np.linalg.norm(q) or 1.0))
        sims = wq.cosines(vectors @ wq.direction, white.norms[rows])
        return best_of((item for item, _ in wanted), sims)

    def _gather(self, rows: np.ndarray) -> np.ndarray:
        """The vectors of ``rows`` (indices over base then extra), in order."""
        cut = len(self.base)
        out = np.empty((len(rows), self.base.shape[1]), dtype=np.float32)
        inside = rows < cut
        out[inside] = self.base[rows[inside]]
        out[~inside] = self.extra[rows[~inside] - cut]
        return out

    def _approx(self, proj: Projection, q: np.ndarray, wq: whitening.Query | None) -> np.ndarray:
        """Every row's cosine to the unit query ``q`` in the projection's space
        (whitened when ``wq`` is given): approximate for the base rows, exact for the
        rows appended since the copy was loaded."""
        exact = self._proj_exact
        if exact is None:
            outliers = self.base[proj.outliers]
            exact = self._proj_exact = self._in_proj_space(outliers, self._proj_whitening())
        if wq is None:
            return np.concatenate([proj.scores(q, exact), self.extra @ q])
        base = proj.scores(wq.unit, exact)
        assert self.white is not None  # wq came from it
        tail = self.white.norms[len(self.base) :]
        return np.concatenate([base, wq.raw(self.extra @ wq.direction, tail)])

    def _scan(self, q: np.ndarray) -> np.ndarray:
        """``q``'s dot product with every row. It reads the whole matrix (150 MB at
        100k rows), so it is bound by memory bandwidth: past SPLIT_ROWS the halves run
        on two threads (numpy releases the GIL)."""
        parts = [self.base, self.extra] if len(self.extra) else [self.base]
        if len(self.base) < SPLIT_ROWS:
            return np.concatenate([m @ q for m in parts])
        mid = len(self.base) // 2
        halves = [self.base[:mid], self.base[mid:], *parts[1:]]
        return np.concatenate(on_both_cores(lambda m: m @ q, halves))

    # -- the file ------------------------------------------------------------------------
    def save(self, directory: Path) -> None:
        """Write the copy as ``snapshot-<stamp>.*``: the projection's files, the
        columns (.arrow), then the vectors (.npy), whose presence means all are
        complete; older copies are removed."""
        self._compact()
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        stem = directory / f"snapshot-{self.stamp}"
        self._save_projection(stem)
        self._save_whitening(stem)
        meta = pa.table({c: pa.array(list(self.cols[c])) for c in COLUMNS})
        write_atomic(stem.with_suffix(".arrow"), lambda f: write_arrow(f, meta), prefix=".snap-")
        write_atomic(stem.with_suffix(".npy"), npy_writer(self.base), prefix=".snap-")
        for old in directory.glob("snapshot-*"):
            if not old.name.startswith(stem.name + "."):
                with contextlib.suppress(OSError):
                    old.unlink()
        self.dirty = False

    def _save_projection(self, stem: Path) -> None:
        """The basis and projected rows (if a fit found one) and what the last fit saw
        (even when it found none, so it is not tried again before the copy grows)."""
        proj = self.proj
        stale = [_BASIS, _PROJECTED] if proj is None else []
        for suffix in stale + ([] if self.fitted_rows else [_FITTED]):
            with contextlib.suppress(OSError):
                stem.with_suffix(suffix).unlink()
        if proj is not None:
            for suffix, matrix in ((_BASIS, proj.basis), (_PROJECTED, proj.rows)):
                write_atomic(stem.with_suffix(suffix), npy_writer(matrix), prefix=".snap-")
        if self.fitted_rows:
            fitted: dict[str, Any] = {
                "fitted_rows": self.fitted_rows,
                "dims": 0,
                "white_rows": self.proj_white,
            }
            if proj is not None:
                fitted.update(dims=proj.dims, recall=proj.recall, cut=proj.cut)
            data = json.dumps(fitted).encode()
            write_atomic(stem.with_suffix(_FITTED), lambda f: f.write(data), prefix=".snap-")

    def _save_whitening(self, stem: Path) -> None:
        white, path = self.white, stem.with_suffix(_WHITE)
        if white is None:
            with contextlib.suppress(OSError):
                path.unlink()
            return
        write_atomic(
            path,
            lambda f: np.savez(
                f,
                mean=white.mean,
                transform=white.transform,
                fitted_rows=np.array(white.fitted_rows),
                norms=white.norms,
            ),
            prefix=".snap-",
        )

    def _load_whitening(self, stem: Path) -> None:
        try:
            with np.load(stem.with_suffix(_WHITE), allow_pickle=False) as data:
                white = Whitening(
                    data["mean"], data["transform"], int(data["fitted_rows"]), data["norms"]
                )
            dim = self.base.shape[1]
            if white.norms.shape != (len(self.base),) or white.transform.shape != (dim, dim):
                raise ValueError("whitening does not match the copy")
            self.white = white
        except (OSError, ValueError, KeyError, TypeError):
            self.white = None  # derived: fitted again on the first search

    @classmethod
    def load(
        cls, directory: Path, stamp: str, dim: int, whiten_min_rows: int = whitening.MIN_ROWS
    ) -> Snapshot | None:
        """The saved copy at ``stamp``, or None (none saved, stale, or unreadable)."""
        stem = directory / f"snapshot-{stamp}"
        try:
            vectors = np.load(stem.with_suffix(".npy"), mmap_mode="r", allow_pickle=False)
            with pa.memory_map(str(stem.with_suffix(".arrow"))) as source:
                meta = pa.ipc.open_file(source).read_all()
            if vectors.shape != (meta.num_rows, dim) or vectors.dtype != np.float32:
                return None
            cols = {c: meta.column(c).to_numpy(zero_copy_only=False) for c in COLUMNS}
        except (OSError, ValueError, KeyError, pa.ArrowException):
            return None  # derived: the caller reads the table instead
        snap = cls(stamp, vectors, cols, whiten_min_rows)
        snap._load_projection(stem)
        snap._load_whitening(stem)
        # fitted when this process saves it
        snap.dirty = snap.needs_fit() or snap._needs_whitening()
        return snap

    def _load_projection(self, stem: Path) -> None:
        try:
            fitted = json.loads(stem.with_suffix(_FITTED).read_text())
            self.fitted_rows = int(fitted["fitted_rows"])
            self.proj_white = int(fitted.get("white_rows", 0))
            if fitted["dims"]:
                basis = np.load(stem.with_suffix(_BASIS), allow_pickle=False)
                rows = np.load(stem.with_suffix(_PROJECTED), mmap_mode="r", allow_pickle=False)
                shape = (len(self.base), int(fitted["dims"]))
                if rows.shape != shape or basis.shape != (self.base.shape[1], shape[1]):
                    raise ValueError("projection does not match the copy")
                cut = float(fitted["cut"])
                self.proj = Projection(basis, rows, float(fitted["recall"]), cut)
        except (OSError, ValueError, KeyError, TypeError):
            self.proj, self.fitted_rows, self.proj_white = None, 0, 0  # fitted again on save

    @staticmethod
    def rename(directory: Path, before: str, after: str) -> None:
        """Re-stamp the saved copy (the table's rows did not change)."""
        # The .npy last: it marks completeness. The projection's files are optional.
        for suffix in (_FITTED, _BASIS, _PROJECTED, _WHITE, ".arrow", ".npy"):
            try:
                os.replace(
                    directory / f"snapshot-{before}{suffix}",
                    directory / f"snapshot-{after}{suffix}",
                )
            except FileNotFoundError:
                if suffix in (".arrow", ".npy"):
                    return
            except OSError:
                return

    @staticmethod
    def discard(directory: Path) -> None:
        for old in directory.glob("snapshot-*"):
            with contextlib.suppress(OSError):
                old.unlink()


def npy_writer(matrix: np.ndarray) -> Any:
    return lambda handle: np.save(handle, matrix, allow_pickle=False)


def write_arrow(handle: Any, meta: pa.Table) -> None:
    with pa.ipc.new_file(handle, meta.schema) as writer:
        writer.write_table(meta)
