"""LanceDB's vector index, for tables past the exact-search size: built and tuned here.

Up to ``tier3.exact_search_max_rows`` vectors, search scans an in-memory copy
(``snapshot.py``); past it, the sign copy (``sign_copy.py``), which :func:`ensure`
builds or refreshes, with a BTREE index on ``item_uuid`` for LanceDB's lookups and
deletes. Only with ``tier3.sign_search`` off does LanceDB search the table itself,
and without an index it scans every row (~1.5 s at 1M): :func:`ensure` then builds an IVF_SQ index
(cosine, ~sqrt(n) partitions, each dimension quantised to 8 bits): on the 1M scale
profile it found the exact top 10 of generated questions at recall 0.995 in 12 ms,
where IVF_PQ (8-dimension sub-vectors) reached 0.876 in ~55 ms even re-ranking 800
rows, its codes too coarse to order near neighbours. Then it *measures* the settings
instead of guessing: for 200 sample queries it compares the index's top 10 with the
exact top 10 (found in one pass over the table) and keeps the cheapest ``nprobes`` x
``refine_factor`` (re-ranking on the full vectors) that reaches :data:`TARGET_RECALL`
two standard errors clear. Settings and the measured recall are saved in
``index.json`` beside the table. Rows written after the build are searched exactly by
LanceDB until the next :func:`ensure` folds them into the index.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from hermes_memory.errors import DerivedTierError
from hermes_memory.fileio import write_atomic
from hermes_memory.tier3.lance_table import scan_pages
from hermes_memory.tier3.projection import moved_queries
from hermes_memory.tier3.sign_tune import RunningTop
from hermes_memory.tier3.snapshot import normalised, vectors_of

if TYPE_CHECKING:
    from hermes_memory.tier3.vector_store import VectorStore

INDEX_NAME = "vector_idx"
INDEX_KIND = "ivf_sq"
ITEM_INDEX_NAME = "item_idx"
TARGET_RECALL = 0.97  # measured on samples; the floor is 0.95
SAMPLES = 200
SEED = 7
MARGIN_SE = 2.0  # standard errors of the sample's mean kept above TARGET_RECALL
TIMED = 20  # single searches timed at the settings kept
# Cheapest first: (nprobes as a share of the partitions, refine factor).
_CANDIDATES = ((0.02, 5), (0.04, 5), (0.04, 10), (0.08, 10), (0.12, 20), (0.25, 20), (0.5, 40))
REBUILD_GROWTH = 2.0  # past this growth since the build, retrain the partitions
FOLD_IN_SHARE = 0.05  # fold new rows into the index once they pass this share


@dataclass(frozen=True)
class IndexSettings:
    rows: int  # table rows when the index was trained
    kind: str  # an index.json of another kind (an older IVF_PQ) makes ensure rebuild
    partitions: int
    nprobes: int
    refine_factor: int
    recall_at_10: float  # measured against exact search when tuned
    search_ms: float  # median time of one search with these settings
    built_at: float


def settings_path(store: VectorStore) -> Path:
    return store.path / "index.json"


def load_settings(store: VectorStore) -> IndexSettings | None:
    try:
        data = json.loads(settings_path(store).read_text(encoding="utf-8"))
        return IndexSettings(**data)
    except (OSError, ValueError, TypeError):
        return None


def _save(store: VectorStore, settings: IndexSettings) -> None:
    data = json.dumps(asdict(settings), indent=2).encode("utf-8")
    write_atomic(settings_path(store), lambda f: f.write(data), prefix=".index-")


def _has_index(table: Any, name: str = INDEX_NAME) -> bool:
    return any(getattr(i, "name", None) == name for i in table.list_indices())


def _ensure_item_index(store: VectorStore, table: Any) -> bool:
    """A BTREE index on ``item_uuid``: without it, looking up or deleting given items
    (``item_uuid IN (...)``) reads that column of every row (1M rows past the copy)."""
    if _has_index(table, ITEM_INDEX_NAME):
        return False
    from lancedb.index import BTree

    with store.rewriting():
        table.create_index("item_uuid", config=BTree(), name=ITEM_INDEX_NAME)
    return True


def ensure(store: VectorStore) -> dict[str, Any]:
    """Build, extend or leave the index as the table's size asks; what was done."""
    try:
        table = store.table()
        rows = int(table.count_rows())
        if rows <= store.exact_max_rows:
            return {"action": "none", "rows": rows, "search": "exact copy"}
        items_indexed = _ensure_item_index(store, table)
        if store.sign_search:
            # The sign copy answers every search past the size; LanceDB's own index
            # would serve only a moment the copy is missing, and building it was the
            # embed job's largest cost (docs/benchmarks.md, "Scale").
            action = "item index built" if items_indexed else "none"
            return {"action": action, "rows": rows} | store.refresh_signs(rows)
        settings = load_settings(store)
        if (
            _has_index(table)
            and settings is not None
            and settings.kind == INDEX_KIND  # an older kind is rebuilt
            and rows < settings.rows * REBUILD_GROWTH
        ):
            stats = table.index_stats(INDEX_NAME)
            unindexed = int(getattr(stats, "num_unindexed_rows", 0) or 0)
            if unindexed > rows * FOLD_IN_SHARE:
                with store.rewriting():
                    table.optimize()  # adds the new rows to the existing partitions
                done = {"action": "extended", "rows": rows, "folded_in": unindexed}
                return done | store.refresh_signs(rows)
            action = "item index built" if items_indexed else "none"
            return {"action": action, "rows": rows, "unindexed": unindexed} | store.refresh_signs(
                rows
            )
        settings = build(store, table, rows)
        return {"action": "built", **asdict(settings), "item_index": True} | store.refresh_signs(
            rows
        )
    except DerivedTierError:
        raise
    except Exception as exc:
        raise DerivedTierError(f"vector index build failed: {exc}") from None


def build(store: VectorStore, table: Any, rows: int) -> IndexSettings:
    # ~sqrt(n) partitions, but at least 256 vectors each to train on (LanceDB's floor).
    partitions = max(2, min(round(math.sqrt(rows)), rows // 256))
    from lancedb.index import IvfSq

    config = IvfSq(distance_type="cosine", num_partitions=partitions)
    with store.rewriting():
        table.create_index("vector", config=config, name=INDEX_NAME, replace=True)
    nprobes, refine, recall, search_ms = tune(table, partitions, rows, store.dim)
    settings = IndexSettings(
        rows, INDEX_KIND, partitions, nprobes, refine, recall, search_ms, time.time()
    )
    _save(store, settings)
    return settings


def measured_on(table: Any, rows: int, dim: int) -> tuple[np.ndarray, list[set[str]]]:
    """Sample queries near stored rows (``projection.moved_queries``: near memories, as
    real ones are, but not on one) and the ids of each one's exact top 10, found in one
    pass over the table's vectors rather than a flat search per query."""
    rng = np.random.default_rng(SEED)
    offsets = sorted({int(i) for i in rng.choice(rows, size=min(rows, SAMPLES), replace=False)})
    near = table.take_offsets(offsets).select(["vector"]).to_arrow()
    top = RunningTop(moved_queries(normalised(vectors_of(near, dim)), rng))
    for batch in scan_pages(table, ["vector"], rows):
        top.add(normalised(vectors_of(batch, dim)))
    queries, tops = top.measured()
    wanted = sorted(set().union(*tops))
    ids = table.take_offsets(wanted).select(["id"]).to_arrow().column("id").to_pylist()
    id_of = dict(zip(wanted, ids, strict=True))
    return queries, [{id_of[r] for r in t} for t in tops]


def tune(table: Any, partitions: int, rows: int, dim: int) -> tuple[int, int, float, float]:
    """The cheapest (nprobes, refine_factor) reaching TARGET_RECALL; with the recall
    and median search time measured for it."""
    queries, truth = measured_on(table, rows, dim)
    tried: set[tuple[int, int]] = set()
    best: tuple[int, int, float] | None = None
    for share, refine in _CANDIDATES:
        nprobes = max(1, min(partitions, round(partitions * share)))
        if (nprobes, refine) in tried:
            continue
        tried.add((nprobes, refine))
        found = _batch_ids(table.search(queries).nprobes(nprobes).refine_factor(refine), queries)
        shares = [len(w & g) / max(1, len(w)) for w, g in zip(truth, found, strict=True)]
        recall = statistics.fmean(shares)
        best = (nprobes, refine, round(recall, 4))
        # Reached with a margin for the sample: a query near a partition's edge loses
        # most of its top 10, so a few queries decide the mean.
        if recall - MARGIN_SE * statistics.pstdev(shares) / math.sqrt(len(shares)) >= TARGET_RECALL:
            break
    assert best is not None
    nprobes, refine, recall = best
    times = []
    for q in queries[:TIMED]:
        t = time.perf_counter()
        table.search(q).metric("cosine").nprobes(nprobes).refine_factor(refine).limit(10).select(
            ["id", "_distance"]
        ).to_list()
        times.append((time.perf_counter() - t) * 1000)
    return nprobes, refine, recall, round(statistics.median(times), 2)


def _batch_ids(query: Any, queries: np.ndarray) -> list[set[str]]:
    """The ids each of ``queries`` found, searched in one batch (LanceDB numbers each
    result row by its query, unless there is only one)."""
    found: list[set[str]] = [set() for _ in range(len(queries))]
    result = query.metric("cosine").limit(10).select(["id", "_distance"]).to_arrow()
    keys = result.column("id").to_pylist()
    if "query_index" not in result.column_names:
        return [set(keys)]
    for at, key in zip(result.column("query_index").to_pylist(), keys, strict=True):
        found[at].add(key)
    return found
