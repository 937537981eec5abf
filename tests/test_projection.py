"""The exact copy's shortlist: a projection fitted past a size, searched in a fraction
of the matrix, exact on what it returns, saved with the copy and never trusted stale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermes_memory.tier3 import projection, whitening
from hermes_memory.tier3.vector_store import VectorStore
from tests.test_vector_store import OWNER, rows

DIM = 48


@pytest.fixture(autouse=True)
def small_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(projection, "MIN_ROWS", 1000)
    # compared with plain cosine; whitening has its own tests (test_whitening.py)
    monkeypatch.setattr(whitening, "MIN_ROWS", 0)


def low_rank(n: int, seed: int, rank: int = 6) -> np.ndarray:
    """Unit rows near a ``rank``-dimensional subspace, as embeddings of one corpus are."""
    rng = np.random.default_rng(seed)
    mixing = rng.normal(size=(rank, DIM))
    data = rng.normal(size=(n, rank)) @ mixing + 0.05 * rng.normal(size=(n, DIM))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def full_scan(vecs: np.ndarray, items: list[str], query: np.ndarray, k: int) -> list[str]:
    q = query / np.linalg.norm(query)
    return [items[i] for i in np.argsort(-(vecs @ q), kind="stable")[:k]]


def saved(path: Path, vecs: np.ndarray) -> VectorStore:
    """A store of ``vecs`` whose copy was fitted and saved, reopened."""
    items = [f"i{k}" for k in range(len(vecs))]
    store = VectorStore(path, DIM)
    store.upsert(rows(items), vecs)
    store.search(vecs[0], OWNER, limit=1)
    store.close()
    return VectorStore(path, DIM)


def test_the_shortlist_finds_the_exact_nearest(tmp_path: Path) -> None:
    vecs = low_rank(3000, 1)
    items = [f"i{k}" for k in range(len(vecs))]
    store = saved(tmp_path, vecs)
    queries = projection.moved_queries(vecs[:40], np.random.default_rng(3))
    for q in queries:
        got = [h.item_uuid for h in store.search(q, OWNER, limit=10)]
        assert got == full_scan(vecs, items, q, 10)
    snap = store._snapshot
    assert snap is not None and snap.proj is not None
    # It reads a fraction of the matrix, and says how well it did when fitted.
    assert snap.proj.dims <= DIM // 2 and snap.proj.recall >= projection.TARGET_RECALL
    hits = store.search(queries[0], OWNER, limit=3)
    exact = vecs @ (queries[0] / np.linalg.norm(queries[0]))
    assert [h.similarity for h in hits] == pytest.approx(sorted(exact, reverse=True)[:3], abs=1e-5)


def test_a_corpus_spread_over_every_direction_keeps_the_full_scan(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    vecs = rng.normal(size=(3000, DIM)).astype(np.float32)
    store = saved(tmp_path, vecs)
    store.search(vecs[1], OWNER, limit=10)
    snap = store._snapshot
    assert snap is not None and snap.proj is None and snap.fitted_rows == 3000
    assert not snap.dirty  # the failed fit was saved: not tried again on every close


def test_rows_written_after_the_fit_are_scored_exactly(tmp_path: Path) -> None:
    vecs = low_rank(3000, 4)
    store = saved(tmp_path, vecs)
    outlier = np.random.default_rng(5).normal(size=(1, DIM)).astype(np.float32)
    store.upsert(rows(["new"]), outlier)  # far from the fitted subspace
    assert store.search(outlier[0], OWNER, limit=1)[0].item_uuid == "new"
    store.delete(["i0", "i1"])
    store.close()  # compacts: the projection follows the rows
    again = VectorStore(tmp_path, DIM)
    hits = again.search(outlier[0], OWNER, limit=5)
    assert hits[0].item_uuid == "new" and {"i0", "i1"}.isdisjoint(h.item_uuid for h in hits)
    snap = again._snapshot
    assert snap is not None and snap.proj is not None
    assert np.allclose(snap.proj.rows, np.asarray(snap.base) @ snap.proj.basis, atol=1e-5)
    (new_row,) = np.flatnonzero(snap.cols["item_uuid"] == "new")
    assert new_row in snap.proj.outliers  # scored exactly in every search


def test_a_drifting_corpus_is_refitted(tmp_path: Path) -> None:
    store = saved(tmp_path, low_rank(3000, 10))
    off = np.random.default_rng(11).normal(size=(300, DIM)).astype(np.float32)
    store.upsert(rows([f"off{k}" for k in range(300)]), off)  # 9% of rows off the basis
    store.close()
    snap = VectorStore(tmp_path, DIM)._current_snapshot()
    assert snap is not None and snap.fitted_rows == 3300


def test_a_damaged_projection_is_not_used(tmp_path: Path) -> None:
    vecs = low_rank(3000, 6)
    items = [f"i{k}" for k in range(len(vecs))]
    saved(tmp_path, vecs).close()
    (damaged,) = (tmp_path / "snapshot").glob("*.proj.npy")
    damaged.write_bytes(damaged.read_bytes()[:1000])
    store = VectorStore(tmp_path, DIM)
    q = vecs[7]
    assert [h.item_uuid for h in store.search(q, OWNER, limit=10)] == full_scan(vecs, items, q, 10)
    snap = store._snapshot
    assert snap is not None and snap.proj is None and snap.dirty  # refitted on close
    store.close()
    assert VectorStore(tmp_path, DIM).search(q, OWNER, limit=1)[0].item_uuid == "i7"
    assert damaged.stat().st_size > 1000


def test_the_copy_is_refitted_once_it_doubles(tmp_path: Path) -> None:
    vecs = low_rank(3000, 8)
    store = saved(tmp_path, vecs)
    store.search(vecs[0], OWNER, limit=1)
    assert store._snapshot is not None and store._snapshot.fitted_rows == 3000
    more = low_rank(6000, 8)[3000:]  # same corpus, new rows
    store.upsert(rows([f"j{k}" for k in range(len(more))]), more)
    store.close()
    store = VectorStore(tmp_path, DIM)
    store.search(vecs[0], OWNER, limit=1)
    assert store._snapshot is not None and store._snapshot.fitted_rows == 6000


def test_a_compaction_by_another_process_keeps_the_projection(tmp_path: Path) -> None:
    vecs = low_rank(3000, 12)
    saved(tmp_path, vecs).close()
    VectorStore(tmp_path, DIM).optimize()  # re-stamps the saved copy's files
    fresh = VectorStore(tmp_path, DIM)
    assert fresh.search(vecs[5], OWNER, limit=1)[0].item_uuid == "i5"
    snap = fresh._snapshot
    assert fresh._conn is None  # served from the saved copy, LanceDB never opened
    assert snap is not None and snap.proj is not None and not snap.dirty
