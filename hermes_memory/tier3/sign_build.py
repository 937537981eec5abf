"""Building a sign copy (sign_copy.py) from the LanceDB table: the index job's step.

The table is read once, a page at a time (lance_table.scan_pages: LanceDB's own stream
reads far ahead), into one segment in a work directory of its own, no writer waiting:
the 8-bit vectors go through the file, and the exact top 10 of the sample queries the
copy is measured on is kept as the rows pass. Under the writers' lock,
``adopt`` moves the files in and saves the copy.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from hermes_memory.tier3.lance_table import scan_pages
from hermes_memory.tier3.projection import moved_queries
from hermes_memory.tier3.sign_copy import (
    BUILDING,
    KEY_COLUMNS,
    META_COLUMNS,
    ROTATION_SEED,
    SignCopy,
)
from hermes_memory.tier3.sign_segments import BLOCK, read_segment, rows_file
from hermes_memory.tier3.sign_tune import SAMPLES, RunningTop, tune
from hermes_memory.tier3.snapshot import normalised, vectors_of


def build(
    table: Any, directory: Path, stamp: str, dim: int, rows: int
) -> tuple[SignCopy, Path] | None:
    """A copy of the LanceDB ``table`` (``rows`` rows at ``stamp``), streamed into one
    segment in a directory of its own: its float32 vectors are never all in memory,
    and no writer waits for it. Tuned, not saved: ``adopt`` moves it in from the
    directory returned with it. None when
    the table no longer holds ``rows`` rows (a write came first: the next run)."""
    work = directory / f"{BUILDING}{uuid.uuid4().hex[:8]}"
    work.mkdir(parents=True, mode=0o700)
    try:
        return _build_in(work, table, stamp, dim, rows)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _build_in(
    work: Path, table: Any, stamp: str, dim: int, rows: int
) -> tuple[SignCopy, Path] | None:
    rng = np.random.default_rng(ROTATION_SEED)
    offsets = sorted({int(i) for i in rng.choice(rows, size=min(rows, 20_000), replace=False)})
    sample = table.take_offsets(offsets).select(["vector"]).to_arrow()
    copy = SignCopy.start(stamp, vectors_of(sample, dim), rows)
    # Tuned on queries near sampled rows, their exact top 10 kept as the rows stream
    # past (a second pass over the copy's vectors cost ~0.5 GB of mapped pages).
    picked = rng.choice(len(offsets), size=min(len(offsets), SAMPLES), replace=False)
    top = RunningTop(moved_queries(normalised(vectors_of(sample, dim))[np.sort(picked)], rng))
    name = f"seg-{uuid.uuid4().hex[:16]}"
    codes: list[np.ndarray] = []
    cells: list[np.ndarray] = []
    keys: list[np.ndarray] = []
    items: list[bytes] = []
    schema = pa.schema(
        [pa.field(c, pa.int32() if c == "chunk" else pa.string()) for c in META_COLUMNS]
    )
    at = 0
    columns = [*dict.fromkeys((*META_COLUMNS, *KEY_COLUMNS)), "vector"]
    # Each row's id, hashed: a write between two pages of the scan would show as a row
    # read twice (or as a short count).
    seen = np.empty(rows, dtype=np.int64)
    with (
        rows_file(work / f"{name}.vectors.npy", rows, dim) as vectors,
        pa.OSFile(str(work / f"{name}.meta.arrow"), "wb") as sink,
        pa.ipc.new_file(sink, schema) as out,
    ):
        pending: list[pa.Table] = []
        for batch in scan_pages(table, columns, rows):
            n = batch.num_rows
            if at + n > rows:
                shutil.rmtree(work, ignore_errors=True)
                return None
            seen[at : at + n] = [hash(i) for i in batch.column("id").to_pylist()]
            unit = normalised(vectors_of(batch, dim))
            vectors.write(copy.quantised(unit).tobytes())
            top.add(unit)
            codes.append(copy.codes_of(unit))
            near = copy.cells_of(unit)
            if near is not None:
                cells.append(near)
            cols = {c: batch.column(c).to_pylist() for c in KEY_COLUMNS}
            keys.append(copy.key_codes(zip(*(cols[c] for c in KEY_COLUMNS), strict=True)))
            items.extend(s.encode() for s in batch.column("item_uuid").to_pylist())
            pending.append(pa.Table.from_batches([batch]).select(list(META_COLUMNS)).cast(schema))
            at += n
            if sum(t.num_rows for t in pending) >= BLOCK:
                # Few large chunks: a take per chunk is cheap, per thousand it is not.
                out.write_table(pa.concat_tables(pending).combine_chunks())
                pending = []
        if pending:
            out.write_table(pa.concat_tables(pending).combine_chunks())
    if at != rows or len(np.unique(seen)) != rows:
        shutil.rmtree(work, ignore_errors=True)
        return None
    del seen
    item_array = np.array(items)
    order = np.argsort(item_array, kind="stable").astype(np.int32)
    parts = {
        "codes": np.concatenate(codes, axis=1),
        "keys": np.concatenate(keys),
        "items": item_array[order],
        "order": order,
    }
    if copy.centroids is not None:
        parts["cells"] = np.concatenate(cells)
    for part, matrix in parts.items():
        np.save(work / f"{name}.{part}.npy", matrix, allow_pickle=False)
    for path in work.iterdir():
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())
    copy.segments = [read_segment(work, name, dim)]
    copy.dead = [np.zeros(rows, dtype=bool)]
    tune(copy, top.measured())
    return copy, work


def adopt(copy: SignCopy, work: Path, directory: Path) -> None:
    """Move a built copy's files in from ``work`` and save it (under the writers'
    lock: the memory-mapped files keep their contents across the rename)."""
    for path in work.iterdir():
        os.replace(path, directory / path.name)
    with contextlib.suppress(OSError):
        work.rmdir()
    copy.save(directory)


def discard_builds(directory: Path, *, older_than_s: float = 0.0) -> None:
    """Remove what builds cut short left behind (started over ``older_than_s`` ago:
    a build still running elsewhere is left alone)."""
    now = time.time()
    for path in directory.glob(f"{BUILDING}*"):
        with contextlib.suppress(OSError):
            if now - path.stat().st_mtime >= older_than_s:
                shutil.rmtree(path, ignore_errors=True)
