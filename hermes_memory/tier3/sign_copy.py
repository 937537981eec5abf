"""The search copy of a table past the exact copy's size: sign codes in memory, the
rest memory-mapped, written in segments.

Past ``tier3.exact_search_max_rows`` the exact copy (``snapshot.py``) would hold
gigabytes, and LanceDB's own index search costs 40-80 ms at a million rows. This copy
keeps, for every row, the signs of its vector centred on the table's mean and turned by
a fixed random rotation (so every bit carries about as much as any other): 48 bytes a
row at 384 dimensions. A search counts the bits in which a row's code differs from
the query's (numpy's ``bitwise_count``) over the rows of the cells nearest the query
(``sign_cells.py``: a coarse partition of the rows made when the copy is started;
``sign_search.py``), keeps the rows with the fewest, and scores those on their vectors,
kept memory-mapped at 8 bits a dimension (scaled by the dimension's range: cosines
within ~0.002 of the float ones; float16 cost 2.3x as much to read and convert). How
many cells it probes and how many rows it keeps are measured when the copy is built
(``sign_tune.py``), as the vector index's settings are: ~4.4 ms a search at 1.03M rows
(~15 counting every row) against ~60 for LanceDB's index.

On disk the copy is a list of segments, each written once: a write adds one (its
rows), a deletion marks rows dead in a bitmap, and the newest segments are merged
whenever one is no more than twice the next (as in a binary counter), so a write costs
about what it wrote. ``copy-<stamp>.json`` names the segments and the dead rows of the
table at that stamp; it is written last, so a copy is complete or absent. Derived
state: a copy that is missing, stale or unreadable is never used, and LanceDB answers
(a scan of the table) until the next build (``ann_index.ensure``) makes one.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa

from hermes_memory.fileio import write_atomic
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import sign_cells
from hermes_memory.tier3.sign_search import shortlist
from hermes_memory.tier3.sign_segments import (
    Segment,
    merged,
    read_segment,
    write_segment,
)
from hermes_memory.tier3.snapshot import (
    ROWS_PER_ITEM,
    VectorHit,
    best_of,
    first_per_item,
    normalised,
    npy_writer,
)

FORMAT = 2  # 2: cells; a copy of format 1 is searched whole until it is built again
READABLE = (1, 2)
KEY_COLUMNS = ("platform", "agent", "user_id", "session_key", "kind")
META_COLUMNS = ("id", "kind", "item_uuid", "chunk", "text")
ROTATION_SEED = 7
# Rows kept for scoring per ten rows asked, tried cheapest first (sign_tune.py).
SHORTLISTS = (1_000, 2_000, 4_000, 8_000)
# Built again by the index job once its live rows are this many times those it was made
# for: one segment again (an import carries the copy on from the exact copy's cap and
# ends with several; three against one searched 30% slower at 100k rows), its shortlist
# measured on today's rows. Its mean, taken again, mattered less: codes centred on the
# first fifth of the rows shortlisted as well as codes centred on all of them.
REBUILD_GROWTH = 2.0
# ... or once dead rows are this share of all it scans (updates and deletes).
DEAD_SHARE = 0.5
BUILDING = ".build-"  # a build's work directory (sign_build.py)
# Rows normalised, coded and quantised at a time when rows are added: each step's float
# temporaries are this many rows, 12 MB at 384 dimensions.
MATH_BLOCK = 8192
_COSINE_BLOCK = 512  # shortlisted rows widened to float at a time (768 KB at 384 dims)


_T = TypeVar("_T")


def _locked(method: Callable[..., _T]) -> Callable[..., _T]:
    """Run ``method`` holding the copy's lock."""

    @functools.wraps(method)
    def run(self: SignCopy, *args: Any, **kwargs: Any) -> _T:
        with self.lock:
            return method(self, *args, **kwargs)

    return run


@dataclass
class SignCopy:
    """The copy at ``stamp``: its segments in order and which of their rows are dead."""

    stamp: str
    mean: np.ndarray
    scale: np.ndarray  # each dimension's range, for the 8-bit vectors
    keys: list[tuple[str, ...]]
    segments: list[Segment]
    dead: list[np.ndarray]
    shortlist: int  # rows scored exactly per ten asked
    recall: float  # measured for it when the copy was built
    built_rows: int = 0  # live rows when made: its mean, scale and shortlist (0: unknown)
    centroids: np.ndarray | None = None  # its cells' (sign_cells.py); None: made before
    probes: int = 0  # cells probed per ten rows asked (0: every row counted)
    _centroid_file: str | None = field(default=None, repr=False)
    _rotation: np.ndarray | None = field(default=None, repr=False)
    _masks: dict[tuple[Any, ...], list[np.ndarray | None]] = field(default_factory=dict)
    # A recall's worker searches while another thread of the process may write.
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    # -- making one --------------------------------------------------------------------
    @classmethod
    def start(cls, stamp: str, sample: np.ndarray, rows: int) -> SignCopy:
        """An empty copy whose codes centre on the mean of the unit rows ``sample``
        (drawn from ``rows`` rows) and whose 8-bit vectors span their range (with
        room: a later row beyond it is clipped, off by little)."""
        unit = normalised(np.asarray(sample, dtype=np.float32))
        mean = unit.mean(axis=0).astype(np.float32)
        scale = np.maximum(np.abs(unit).max(axis=0) * 1.25, 1e-3).astype(np.float32)
        centre = sign_cells.centroids(unit, rows, ROTATION_SEED) if len(unit) else None
        return cls(
            stamp, mean, scale, [], [], [], SHORTLISTS[1], 0.0, built_rows=rows, centroids=centre
        )

    @property
    def dim(self) -> int:
        return int(self.mean.shape[0])

    @property
    def rotation(self) -> np.ndarray:
        if self._rotation is None:
            rng = np.random.default_rng(ROTATION_SEED)
            q, _ = np.linalg.qr(rng.normal(size=(self.dim, self.dim)))
            self._rotation = q.astype(np.float32)
        return self._rotation

    def codes_of(self, unit: np.ndarray) -> np.ndarray:
        """The sign codes of unit rows, as 64-bit words (words x rows)."""
        turned = (np.asarray(unit, dtype=np.float32) - self.mean) @ self.rotation
        bits = np.packbits(turned > 0, axis=1)
        pad = (-bits.shape[1]) % 8
        if pad:
            bits = np.pad(bits, ((0, 0), (0, pad)))
        return np.ascontiguousarray(bits.view(np.uint64).T)

    def cells_of(self, unit: np.ndarray) -> np.ndarray | None:
        """The cells of unit rows (None: a copy without cells)."""
        if self.centroids is None:
            return None
        return sign_cells.nearest(unit, self.centroids)

    def quantised(self, unit: np.ndarray) -> np.ndarray:
        """Unit rows as 8 bits a dimension."""
        steps = np.asarray(unit, dtype=np.float32) / self.scale
        steps *= 127  # in place: one float temporary a call, not four
        np.rint(steps, out=steps)
        np.clip(steps, -127, 127, out=steps)
        return steps.astype(np.int8)

    def cosines(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The unit query ``q``'s cosine to 8-bit ``rows``."""
        rows = np.asarray(rows)
        scaled = q * self.scale / 127
        out = np.empty(len(rows), dtype=np.float32)
        # Widened a block at a time: a shortlist of 4,000 rows widened at once (6 MB)
        # took 1.3 ms against 0.9 in blocks that stay in the cache.
        for start in range(0, len(rows), _COSINE_BLOCK):
            block = rows[start : start + _COSINE_BLOCK]
            out[start : start + len(block)] = block.astype(np.float32) @ scaled
        return out

    def key_codes(self, keys: Iterable[tuple[Any, ...]]) -> np.ndarray:
        index = {k: i for i, k in enumerate(self.keys)}
        out: list[int] = []
        for raw in keys:
            key = tuple(str(v) for v in raw)
            if key not in index:
                index[key] = len(self.keys)
                self.keys.append(key)
            out.append(index[key])
        return np.array(out, dtype=np.int32)

    def append(self, rows: list[dict[str, Any]], vectors: np.ndarray) -> None:
        """Add ``rows`` (dicts with the table's columns) and their vectors as a segment."""
        if rows:
            names = (*META_COLUMNS, *KEY_COLUMNS)
            self.append_columns({c: [r[c] for r in rows] for c in names}, vectors)

    @_locked
    def append_columns(
        self, columns: Mapping[str, Sequence[Any] | np.ndarray], vectors: np.ndarray
    ) -> None:
        """Add rows given column by column (the table's names) as a segment."""
        n = len(columns["item_uuid"])
        if n == 0:
            return
        flat = np.asarray(vectors, dtype=np.float32).reshape(n, -1)
        # A block at a time: at an import's crossing (200k rows) the whole matrix's
        # float temporaries, five of 300 MB, were most of the import's peak memory;
        # blocks of 65,536 rows still held ~400 MB of them at once (docs/benchmarks.md).
        words: list[np.ndarray] = []
        centre = self.centroids
        cells = None if centre is None else np.empty(n, dtype=np.uint16)
        eight = np.empty(flat.shape, dtype=np.int8)
        for start in range(0, n, MATH_BLOCK):
            unit = normalised(flat[start : start + MATH_BLOCK])
            words.append(self.codes_of(unit))
            eight[start : start + len(unit)] = self.quantised(unit)
            if cells is not None and centre is not None:
                cells[start : start + len(unit)] = sign_cells.nearest(unit, centre)
        items = np.array([str(i).encode() for i in columns["item_uuid"]])
        order = np.argsort(items, kind="stable").astype(np.int32)
        meta = pa.table({c: _arrow_column(columns[c], c == "chunk") for c in META_COLUMNS})
        keys = zip(*(columns[c] for c in KEY_COLUMNS), strict=True)
        seg = Segment(
            f"seg-{uuid.uuid4().hex[:16]}",
            np.concatenate(words, axis=1),
            eight,
            self.key_codes(keys),
            items[order],
            order,
            meta,
            cells=cells,
        )
        self.segments.append(seg)
        self.dead.append(np.zeros(n, dtype=bool))
        self._masks.clear()

    @_locked
    def remove(self, items: Iterable[str]) -> None:
        """Mark every row of ``items`` dead."""
        for item in dict.fromkeys(items):
            for seg, dead in zip(self.segments, self.dead, strict=True):
                dead[seg.rows_of(item)] = True
        self._masks.clear()

    @_locked
    def apply(
        self, stamp: str, removed: Iterable[str], rows: list[dict[str, Any]], vectors: np.ndarray
    ) -> None:
        """Delete every row of the ``removed`` items, append ``rows``; now at ``stamp``."""
        self.remove(removed)
        self.append(rows, vectors)
        self.stamp = stamp

    def __len__(self) -> int:
        with self.lock:
            return sum(len(d) - int(d.sum()) for d in self.dead)

    def outgrown(self) -> str | None:
        """Why the copy should be built again from the table, or None: it has grown
        well past the rows it was made for, or scans mostly dead rows."""
        with self.lock:
            live, total = len(self), sum(len(d) for d in self.dead)
        if not self.built_rows:
            return "made before copies recorded their size"
        if self.centroids is None:
            return "made before copies had cells"
        if live >= REBUILD_GROWTH * self.built_rows:
            return f"{live} rows, made for {self.built_rows}"
        if total and (total - live) >= DEAD_SHARE * total:
            return f"{total - live} of {total} rows dead"
        return None

    @_locked
    def present(self, items: list[str]) -> list[str]:
        """Those of ``items`` that have live rows."""
        return [i for i in items if next(self._live_rows(i), None) is not None]

    def _live_rows(self, item: str) -> Iterator[tuple[int, np.ndarray]]:
        for n, (seg, dead) in enumerate(zip(self.segments, self.dead, strict=True)):
            rows = seg.rows_of(item)
            rows = rows[~dead[rows]]
            if rows.size:
                yield n, rows

    @_locked
    def row_keys(self) -> list[tuple[str, str]]:
        """(chunk id, item uuid) of every live row."""
        out: list[tuple[str, str]] = []
        for seg, dead in zip(self.segments, self.dead, strict=True):
            live = np.flatnonzero(~dead)
            cols = seg.take_many(("id", "item_uuid"), live)
            out.extend(zip(cols["id"], cols["item_uuid"], strict=True))
        return out

    # -- search ------------------------------------------------------------------------
    def _allowed(self, owner: Owner, kinds: tuple[str, ...]) -> np.ndarray:
        sessions = ("", owner.session)
        return np.array(
            [
                i
                for i, (platform, agent, user, session, kind) in enumerate(self.keys)
                if (platform, agent, user) == (owner.platform, owner.agent, owner.user_id)
                and session in sessions
                and (not kinds or kind in kinds)
            ],
            dtype=np.int32,
        )

    def _searchable(self, owner: Owner, kinds: tuple[str, ...]) -> list[np.ndarray | None]:
        """Per segment, the rows a search may return (None: every row)."""
        key = (owner.platform, owner.agent, owner.user_id, owner.session, kinds)
        masks = self._masks.get(key)
        if masks is None:
            allowed = self._allowed(owner, kinds)
            masks = []
            for seg, dead in zip(self.segments, self.dead, strict=True):
                ok = np.isin(seg.keys, allowed) & ~dead
                masks.append(None if ok.all() else ok)
            self._masks[key] = masks
        return masks

    def _searchable_by_cell(self, owner: Owner, kinds: tuple[str, ...]) -> list[np.ndarray | None]:
        """:meth:`_searchable`, each segment's mask in its cell order (a probe reads
        runs of it)."""
        key = (owner.platform, owner.agent, owner.user_id, owner.session, kinds, "by cell")
        ordered = self._masks.get(key)
        if ordered is None:
            masks = self._searchable(owner, kinds)
            ordered = []
            for seg, mask in zip(self.segments, masks, strict=True):
                if mask is None or seg.cells is None or self.centroids is None:
                    ordered.append(None)
                else:
                    ordered.append(mask[seg.runs(len(self.centroids)).rows])
            self._masks[key] = ordered
        return ordered

    @_locked
    def search(
        self, vector: np.ndarray, owner: Owner, limit: int, kinds: tuple[str, ...]
    ) -> list[VectorHit]:
        """The best row of each of the ``limit`` items nearest ``vector``."""
        q = np.asarray(vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        masks = self._searchable(owner, kinds)
        ordered = self._searchable_by_cell(owner, kinds) if self.probes else None
        k = limit * ROWS_PER_ITEM
        # The measured shortlist and cells hold the top 10 rows; a deeper search asks
        # for more, less than in proportion (its deeper rows weigh less in recall's
        # fusion): as the square root. At 1.03M rows, 80 asked with twice the cells and
        # rows found 0.987 of the exact top 80 items (four times: 0.994, in twice the
        # time); recall asks 40 for its ten.
        deeper = max(1, math.ceil(math.sqrt(limit / 20)))
        picked = shortlist(self, q, masks, self.shortlist * deeper, self.probes * deeper, ordered)
        if not picked:
            return []
        scored = [
            (n, rows, self.cosines(self.segments[n].vectors[rows], q)) for n, rows in picked.items()
        ]
        sims = np.concatenate([s for _, _, s in scored])
        where = np.concatenate([np.full(len(r), n) for n, r, _ in scored])
        rows_all = np.concatenate([r for _, r, _ in scored])
        k = min(k, sims.size)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        # Each item's best row, best first (items from the sorted item uuids), then the
        # columns of those rows only.
        items = self._per_segment(where[top], rows_all[top], Segment.items_at)
        best = first_per_item(items, limit)
        chosen = top[list(best.values())]
        shown = self._per_segment(where[chosen], rows_all[chosen], _hit_columns)
        return [
            VectorHit(str(kind), item, int(chunk), str(text), float(sims[i]))
            for item, i, (kind, chunk, text) in zip(best, chosen, shown, strict=True)
        ]

    def _per_segment(
        self,
        segments: np.ndarray,
        rows: np.ndarray,
        fetch: Callable[[Segment, np.ndarray], Sequence[_T]],
    ) -> list[_T]:
        """``fetch`` of the given (segment, row) pairs, one call per segment, in the
        pairs' order."""
        out: list[Any] = [None] * len(rows)
        for n in np.unique(segments):
            at = np.flatnonzero(segments == n)
            for j, v in zip(at, fetch(self.segments[int(n)], rows[at]), strict=True):
                out[j] = v
        return out

    @_locked
    def similarities(self, vector: np.ndarray, items: Iterable[str]) -> dict[str, float]:
        """Cosine of ``vector`` to each of ``items`` that has rows (its best chunk)."""
        q = np.asarray(vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        names: list[str] = []
        sims: list[np.ndarray] = []
        for item in dict.fromkeys(items):
            for n, rows in self._live_rows(item):
                s = self.cosines(self.segments[n].vectors[np.sort(rows)], q)
                names.extend([item] * len(s))
                sims.append(s)
        if not sims:
            return {}
        return best_of(names, np.concatenate(sims))

    # -- the files ---------------------------------------------------------------------
    @_locked
    def save(self, directory: Path) -> None:
        """Merge the newest segments as they ask, write the new ones, then the dead
        rows and the manifest (last: it makes the copy whole); older files go."""
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._merge_tail(directory)
        if self.centroids is not None:
            name = self._centroid_file or f"cells-{uuid.uuid4().hex[:16]}.npy"
            if not (directory / name).exists():  # written once, kept by every save
                write_atomic(directory / name, npy_writer(self.centroids), prefix=".copy-")
            self._centroid_file = name
        for seg in self.segments:
            if not seg.saved:
                write_segment(directory, seg)
        dead_name = None
        if any(d.any() for d in self.dead):
            dead_name = f"dead-{self.stamp}.npy"
            packed = np.packbits(np.concatenate(self.dead))
            write_atomic(directory / dead_name, npy_writer(packed), prefix=".copy-")
        manifest = {
            "format": FORMAT,
            "stamp": self.stamp,
            "mean": [float(x) for x in self.mean],
            "scale": [float(x) for x in self.scale],
            "keys": [list(k) for k in self.keys],
            "segments": [[s.name, len(s)] for s in self.segments],
            "dead": dead_name,
            "shortlist": self.shortlist,
            "recall": self.recall,
            "built_rows": self.built_rows,
            "centroids": self._centroid_file,
            "probes": self.probes,
        }
        data = json.dumps(manifest).encode()
        write_atomic(
            directory / f"copy-{self.stamp}.json", lambda f: f.write(data), prefix=".copy-"
        )
        keep = {f"copy-{self.stamp}.json", dead_name, self._centroid_file}
        keep |= {s.name for s in self.segments}
        for path in directory.iterdir():
            if path.name.startswith(BUILDING):
                continue  # a build in progress (``build``), moved in under the lock
            if path.name.split(".")[0] not in keep and path.name not in keep:
                with contextlib.suppress(OSError):
                    path.unlink()

    def _merge_tail(self, directory: Path) -> None:
        """Merge the last two segments while the older is at most twice the newer
        (their live rows only): O(log n) segments, each row rewritten O(log n) times."""
        live = [n for n, d in enumerate(self.dead) if not d.all()]
        if len(live) < len(self.segments):  # a segment with no live row goes
            self.segments = [self.segments[n] for n in live]
            self.dead = [self.dead[n] for n in live]
            self._masks.clear()
        while len(self.segments) >= 2:
            older = len(self.dead[-2]) - int(self.dead[-2].sum())
            newer = len(self.dead[-1]) - int(self.dead[-1].sum())
            if older > 2 * newer:
                break
            joined = merged(directory, self.segments[-2:], self.dead[-2:])
            self.segments[-2:] = [joined]
            self.dead[-2:] = [np.zeros(len(joined), dtype=bool)]
            self._masks.clear()

    @classmethod
    def load(cls, directory: Path, stamp: str, dim: int) -> SignCopy | None:
        """The saved copy at ``stamp``, or None (none saved, stale, or unreadable)."""
        try:
            manifest = json.loads((directory / f"copy-{stamp}.json").read_text())
            if manifest["format"] not in READABLE or len(manifest["mean"]) != dim:
                return None
            centroids = None
            if manifest.get("centroids"):
                centroids = np.load(directory / manifest["centroids"], allow_pickle=False)
                if centroids.ndim != 2 or centroids.shape[1] != dim:
                    return None
            segments = [read_segment(directory, name, dim) for name, _ in manifest["segments"]]
            sizes = [len(s) for s in segments]
            if sizes != [int(rows) for _, rows in manifest["segments"]]:
                return None
            if centroids is not None and not all(
                s.cells is not None and (not len(s) or int(s.cells.max()) < len(centroids))
                for s in segments
            ):
                return None  # a cell file missing or naming cells the copy lacks
            dead_all = np.zeros(sum(sizes), dtype=bool)
            if manifest["dead"]:
                packed = np.load(directory / manifest["dead"], allow_pickle=False)
                dead_all = np.unpackbits(packed, count=sum(sizes)).astype(bool)
            cuts = np.cumsum(sizes)[:-1]
            dead = [d.copy() for d in np.split(dead_all, cuts)] if sizes else []
            for seg in segments:
                seg.saved = True
            return cls(
                stamp,
                np.asarray(manifest["mean"], dtype=np.float32),
                np.asarray(manifest["scale"], dtype=np.float32),
                [tuple(k) for k in manifest["keys"]],
                segments,
                dead,
                int(manifest["shortlist"]),
                float(manifest["recall"]),
                int(manifest.get("built_rows", 0)),
                centroids=centroids,
                probes=int(manifest.get("probes", 0)),
                _centroid_file=manifest.get("centroids"),
            )
        except (OSError, ValueError, KeyError, TypeError, pa.ArrowException):
            return None

    @staticmethod
    def rename(directory: Path, before: str, after: str) -> None:
        """Re-stamp the saved copy (the table's rows did not change)."""
        old = directory / f"copy-{before}.json"
        try:
            manifest = json.loads(old.read_text())
            manifest["stamp"] = after
            if manifest["dead"]:
                name = f"dead-{after}.npy"
                os.replace(directory / manifest["dead"], directory / name)
                manifest["dead"] = name
            data = json.dumps(manifest).encode()
            write_atomic(directory / f"copy-{after}.json", lambda f: f.write(data), prefix=".copy-")
            old.unlink()
        except (OSError, ValueError, KeyError):
            return

    @staticmethod
    def discard(directory: Path) -> None:
        if directory.is_dir():
            for path in directory.iterdir():
                with contextlib.suppress(OSError):
                    path.unlink()

    @staticmethod
    def saved_at(directory: Path, stamp: str) -> bool:
        return (directory / f"copy-{stamp}.json").is_file()


def _hit_columns(seg: Segment, rows: np.ndarray) -> list[tuple[Any, ...]]:
    """The columns a hit shows (kind, chunk, text) of ``rows``, a tuple a row."""
    cols = seg.take_many(("kind", "chunk", "text"), rows)
    return list(zip(cols["kind"], cols["chunk"], cols["text"], strict=True))


def _arrow_column(values: Sequence[Any] | np.ndarray, whole: bool) -> pa.ChunkedArray:
    """``values`` as an Arrow column of strings (``whole``: of int32), built
    :data:`MATH_BLOCK` rows at a time: Arrow's builder held ~2.5 times a column's size
    (206 MB for 200k chunk texts), blocks of it about 1.5 times."""
    kind = pa.int32() if whole else pa.string()
    return pa.chunked_array(
        [
            pa.array([int(v) if whole else str(v) for v in values[a : a + MATH_BLOCK]], type=kind)
            for a in range(0, len(values), MATH_BLOCK)
        ],
        type=kind,
    )
