"""A sign copy's segments (sign_copy.py): rows written together, and their files.

A segment is written once: its codes, 8-bit vectors, keys, sorted item uuids and their
rows, and its rows' cells (sign_cells.py) as ``<name>.<part>.npy`` and the columns a
hit shows as ``<name>.meta.arrow``, all read back memory-mapped. Merging two writes
one new segment of their live rows, streamed to disk.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa

from hermes_memory.fileio import write_atomic
from hermes_memory.tier3.sign_cells import CellRuns
from hermes_memory.tier3.snapshot import npy_writer, write_arrow

BLOCK = 65_536  # rows read or written at a time
_ONE_BY_ONE = 256  # up to this many rows, columns are read a value at a time


@dataclass
class Segment:
    """Rows written together: codes (words x rows), 8-bit unit vectors, each row's
    key (an index into the copy's keys), its item uuids sorted (with their rows), the
    columns a hit shows (Arrow), and each row's cell (None: a copy made before cells)."""

    name: str
    codes: np.ndarray
    vectors: np.ndarray
    keys: np.ndarray
    items: np.ndarray
    order: np.ndarray
    meta: pa.Table
    saved: bool = False
    cells: np.ndarray | None = None
    _runs: CellRuns | None = field(default=None, repr=False)
    _batches: list[pa.RecordBatch] | None = field(default=None, repr=False)
    _batch_starts: np.ndarray | None = field(default=None, repr=False)
    _position: np.ndarray | None = field(default=None, repr=False)  # inverse of order

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def take(self, name: str, rows: np.ndarray) -> list[Any]:
        """Column ``name`` at ``rows``, in their order."""
        return self.take_many((name,), rows)[name]

    def take_many(self, names: tuple[str, ...], rows: np.ndarray) -> dict[str, list[Any]]:
        """Columns ``names`` at ``rows``, in their order: taken batch by batch, every
        column at once (Arrow's take over a column of a thousand chunks cost ~10 ms)."""
        if self._batches is None or self._batch_starts is None:
            self._batches = self.meta.to_batches()
            self._batch_starts = np.cumsum([0] + [len(b) for b in self._batches])
        starts = self._batch_starts
        which = np.searchsorted(starts, rows, side="right") - 1
        if len(rows) <= _ONE_BY_ONE:
            # A search's few hits: a value at a time (a take per batch cost twice as
            # long for 80 hits over 16 batches).
            where = self.meta.schema.get_field_index
            fields = [where(n) for n in names]
            taken = [
                [self._batches[c].column(f)[r - starts[c]].as_py() for f in fields]
                for r, c in zip(rows.tolist(), which.tolist(), strict=True)
            ]
            return {n: [t[i] for t in taken] for i, n in enumerate(names)}
        out: dict[str, list[Any]] = {n: [None] * len(rows) for n in names}
        for c in np.unique(which):
            at = np.flatnonzero(which == c)
            batch = self._batches[int(c)].select(list(names))
            taken = batch.take(pa.array(rows[at] - starts[c]))
            for name in names:
                column = out[name]
                for j, v in zip(at, taken.column(name).to_pylist(), strict=True):
                    column[j] = v
        return out

    def items_at(self, rows: np.ndarray) -> list[str]:
        """The item uuid of each of ``rows``, from the sorted items (no Arrow take)."""
        if self._position is None:
            position = np.empty(len(self), dtype=np.int32)
            position[np.asarray(self.order)] = np.arange(len(self), dtype=np.int32)
            self._position = position
        return [b.decode() for b in np.asarray(self.items)[self._position[rows]]]

    def runs(self, count: int) -> CellRuns:
        """The rows cell by cell (made at first use: the codes in that order)."""
        if self._runs is None:
            assert self.cells is not None
            self._runs = CellRuns.of(self.cells, self.codes, count)
        return self._runs

    def rows_of(self, item: str) -> np.ndarray:
        want = item.encode()
        if len(want) > self.items.dtype.itemsize:
            return np.zeros(0, dtype=np.int64)
        lo = int(np.searchsorted(self.items, want, side="left"))
        hi = int(np.searchsorted(self.items, want, side="right"))
        return np.asarray(self.order[lo:hi], dtype=np.int64)


PARTS = ("codes", "vectors", "keys", "items", "order")


def write_segment(directory: Path, seg: Segment) -> None:
    for part in (*PARTS, "cells"):
        matrix = getattr(seg, part)
        if matrix is not None:
            path = directory / f"{seg.name}.{part}.npy"
            write_atomic(path, npy_writer(matrix), prefix=".copy-")

    write_atomic(
        directory / f"{seg.name}.meta.arrow", lambda f: write_arrow(f, seg.meta), prefix=".copy-"
    )
    seg.saved = True


def read_segment(directory: Path, name: str, dim: int) -> Segment:
    parts = {
        p: np.load(directory / f"{name}.{p}.npy", mmap_mode="r", allow_pickle=False) for p in PARTS
    }
    # Left open: the table's columns are views of the mapping (closed with them).
    meta = pa.ipc.open_file(pa.memory_map(str(directory / f"{name}.meta.arrow"))).read_all()
    n = meta.num_rows
    if parts["vectors"].shape != (n, dim) or parts["vectors"].dtype != np.int8:
        raise ValueError(f"segment {name} does not match its columns")
    if parts["codes"].shape[1:] != (n,) or parts["keys"].shape != (n,):
        raise ValueError(f"segment {name} does not match its columns")
    cells = None
    if (directory / f"{name}.cells.npy").exists():
        cells = np.load(directory / f"{name}.cells.npy", mmap_mode="r", allow_pickle=False)
        if cells.shape != (n,):
            raise ValueError(f"segment {name} does not match its columns")
    return Segment(name, meta=meta, saved=True, cells=cells, **parts)


@contextlib.contextmanager
def rows_file(path: Path, rows: int, dim: int) -> Iterator[BinaryIO]:
    """An 8-bit ``rows`` x ``dim`` .npy written block by block through the file (a
    writable mapping's dirty pages counted as the process's memory), then synced."""
    header = {"descr": "|i1", "fortran_order": False, "shape": (rows, dim)}
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_2_0(handle, header)
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


def merged(directory: Path, segments: list[Segment], dead: list[np.ndarray]) -> Segment:
    """One segment of the live rows of ``segments``, its vectors and columns streamed
    to disk (a million rows' vectors and texts are never all in memory at once)."""
    name = f"seg-{uuid.uuid4().hex[:16]}"
    live = [np.flatnonzero(~d) for d in dead]
    n = sum(len(x) for x in live)
    dim = segments[0].vectors.shape[1]
    path = directory / f"{name}.vectors.npy"
    with rows_file(path, n, dim) as handle:
        for seg, rows in zip(segments, live, strict=True):
            for block in _vector_blocks(directory, seg, rows):
                handle.write(block.tobytes())
    meta_path = directory / f"{name}.meta.arrow"
    with (
        pa.OSFile(str(meta_path), "wb") as sink,
        pa.ipc.new_file(sink, segments[0].meta.schema) as out,
    ):
        for seg, rows in zip(segments, live, strict=True):
            for table in _meta_blocks(directory, seg, rows):
                out.write_table(table)
    with open(meta_path, "rb+") as handle:
        os.fsync(handle.fileno())
    pairs = list(zip(segments, live, strict=True))
    codes = np.concatenate([seg.codes[:, rows] for seg, rows in pairs], axis=1)
    keys = np.concatenate([seg.keys[rows] for seg, rows in pairs])
    # Each live row's item, from its segment's sorted items (no Python strings).
    width = max(seg.items.dtype.itemsize for seg in segments)
    parts = []
    for seg, rows in pairs:
        position = np.empty(len(seg), dtype=np.int64)
        position[np.asarray(seg.order)] = np.arange(len(seg))
        parts.append(np.asarray(seg.items)[position[rows]].astype(f"S{width}"))
    items = np.concatenate(parts)
    order = np.argsort(items, kind="stable").astype(np.int32)
    written = [("codes", codes), ("keys", keys), ("items", items[order]), ("order", order)]
    cells = [seg.cells[rows] for seg, rows in pairs if seg.cells is not None]
    if len(cells) == len(pairs):
        written.append(("cells", np.concatenate(cells)))
    for part, matrix in written:
        write_atomic(directory / f"{name}.{part}.npy", npy_writer(matrix), prefix=".copy-")
    return read_segment(directory, name, dim)


# A merge reads a mapped segment's vectors and columns through the file, not the
# mapping: each page read through a mapping stays resident and counts as the
# process's memory (at a million rows, ~1 GB held by an import's last merges).


def _vector_blocks(directory: Path, seg: Segment, rows: np.ndarray) -> Iterator[np.ndarray]:
    """The vectors of ``seg``'s (sorted) ``rows``, a block at a time."""
    vectors = seg.vectors
    if not isinstance(vectors, np.memmap):
        for start in range(0, len(rows), BLOCK):
            yield np.asarray(vectors[rows[start : start + BLOCK]])
        return
    dim = vectors.shape[1]
    with open(directory / f"{seg.name}.vectors.npy", "rb") as handle:
        for start in range(0, len(seg), BLOCK):
            stop = min(start + BLOCK, len(seg))
            lo, hi = np.searchsorted(rows, [start, stop])
            if hi == lo:
                continue
            handle.seek(vectors.offset + start * dim)
            block = np.frombuffer(handle.read((stop - start) * dim), dtype=np.int8)
            yield block.reshape(-1, dim)[rows[lo:hi] - start]


def _meta_blocks(directory: Path, seg: Segment, rows: np.ndarray) -> Iterator[pa.Table]:
    """The columns of ``seg``'s (sorted) ``rows``, a record batch at a time."""
    if not isinstance(seg.vectors, np.memmap):
        for start in range(0, len(rows), BLOCK):
            yield seg.meta.take(pa.array(rows[start : start + BLOCK]))
        return
    with pa.OSFile(str(directory / f"{seg.name}.meta.arrow")) as source:
        reader = pa.ipc.open_file(source)
        at = 0
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i)
            lo, hi = np.searchsorted(rows, [at, at + batch.num_rows])
            if hi > lo:
                yield pa.Table.from_batches([batch]).take(pa.array(rows[lo:hi] - at))
            at += batch.num_rows
