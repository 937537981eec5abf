"""The LanceDB table itself: its schema, rows as Arrow, and the reads and deletes that
go to LanceDB when no copy answers (``vector_store.py`` decides when)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pyarrow as pa

from hermes_memory.tier2.records import Owner
from hermes_memory.tier3.snapshot import (
    VectorHit,
    best_hits,
    best_per_item,
    normalised,
    vectors_of,
)

# ``_distance`` named explicitly: LanceDB warns on stderr, on every search, when the
# selected columns leave it out.
HIT_COLUMNS = ("kind", "item_uuid", "chunk", "text", "_distance")
DELETE_BATCH = 500
# Rows per page of a whole-table scan (scan_pages). LanceDB's own stream reads ahead
# of its reader: over a million 384-d rows it held ~670 MB whatever the batch size
# asked, where pages of 4,096 held ~150 MB, in the same 2 s (docs/benchmarks.md).
SCAN_PAGE = 4096


def schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("id", pa.string()),
            pa.field("kind", pa.string()),
            pa.field("item_uuid", pa.string()),
            pa.field("chunk", pa.int32()),
            pa.field("platform", pa.string()),
            pa.field("agent", pa.string()),
            pa.field("user_id", pa.string()),
            pa.field("session_key", pa.string()),
            pa.field("text", pa.string()),
            pa.field("source_id", pa.string()),
            pa.field("created_at", pa.float64()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def arrow(rows: list[dict[str, Any]], vectors: np.ndarray, dim: int) -> pa.Table:
    """The rows as an Arrow table, built column by column: a list of 384 Python
    floats per row cost ~30 ms per 1,000 rows of an import."""
    table_schema = schema(dim)
    flat = pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1), type=pa.float32())
    columns = {
        field.name: pa.array([r[field.name] for r in rows], type=field.type)
        for field in table_schema
        if field.name != "vector"
    }
    columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dim)
    return pa.Table.from_pydict(columns, schema=table_schema)


def delete_items(table: Any, items: list[str]) -> None:
    """Delete every row of ``items``, in batches that keep the filter short."""
    for start in range(0, len(items), DELETE_BATCH):
        part = ", ".join(quote(i) for i in items[start : start + DELETE_BATCH])
        table.delete(f"item_uuid IN ({part})")


def search(
    table: Any,
    vector: np.ndarray,
    owner: Owner,
    limit: int,
    kinds: tuple[str, ...],
    tuned: Any = None,
) -> list[VectorHit]:
    """The ``limit`` items nearest ``vector`` among ``owner``'s rows (of ``kinds``),
    by LanceDB's search (``tuned``: ``ann_index``'s measured settings, if any)."""
    where = (
        f"platform = {quote(owner.platform)} AND agent = {quote(owner.agent)} "
        f"AND user_id = {quote(owner.user_id)} "
        f"AND session_key IN ('', {quote(owner.session)})"
    )
    if kinds:
        where += f" AND kind IN ({', '.join(quote(k) for k in kinds)})"
    # Filtering after the search first: a prefilter evaluates the filter on every
    # row (~400 ms at 1M rows, ~150 ms with bitmap indexes) though a profile
    # usually holds one owner's rows. If ``limit`` of the ``2 * limit`` nearest
    # rows pass, they are the nearest that pass; only when fewer do (another
    # owner's rows, or entity rows, in the way) is the search redone with the
    # filter applied first.
    for prefilter, fetch in ((False, 2 * limit), (True, limit)):
        query = table.search(vector.tolist()).metric("cosine")
        query = query.where(where, prefilter=prefilter).select(list(HIT_COLUMNS))
        if tuned is not None:  # measured by ann_index.tune for recall@10 >= its target
            query = query.nprobes(tuned.nprobes).refine_factor(tuned.refine_factor)
        result = query.limit(fetch).to_list()
        if len(result) >= limit:
            break
    hits = (
        VectorHit(r["kind"], r["item_uuid"], r["chunk"], r["text"], 1.0 - float(r["_distance"]))
        for r in result
    )
    return best_hits(hits, limit)  # one per item: its chunks and segments are rows


def similarities(table: Any, vector: np.ndarray, items: list[str], dim: int) -> dict[str, float]:
    """Cosine of ``vector`` to each of ``items`` (its best row), read from the table;
    items without rows are left out."""
    where = f"item_uuid IN ({', '.join(quote(i) for i in dict.fromkeys(items))})"
    rows = table.search().where(where).select(["item_uuid", "vector"]).limit(None).to_arrow()
    if rows.num_rows == 0:
        return {}
    unit = normalised(vectors_of(rows, dim))
    return best_per_item(rows.column("item_uuid").to_pylist(), unit, vector)


def scan_pages(
    table: Any, columns: list[str], rows: int, page: int = SCAN_PAGE
) -> Iterator[pa.RecordBatch]:
    """``columns`` of the table's first ``rows`` rows in table order, ``page`` rows at a
    time: a plain scan keeps the table's order, so the pages neither overlap nor leave
    a row out (the caller checks, since a write may land between two of them)."""
    query = table.search().select(columns)
    for start in range(0, rows, page):
        yield from query.offset(start).limit(min(page, rows - start)).to_arrow().to_batches()


def row_keys(table: Any) -> list[tuple[str, str]]:
    """(chunk id, item uuid) of every row of the table."""
    # Only the two key columns are read: the vectors of a million rows would take
    # gigabytes to load just to be dropped.
    tbl = table.search().select(["id", "item_uuid"]).limit(None).to_arrow()
    ids = tbl.column("id").to_pylist()
    items = tbl.column("item_uuid").to_pylist()
    return [(str(a), str(b)) for a, b in zip(ids, items, strict=True)]
