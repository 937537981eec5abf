"""Soft whitening of the exact copy: what a search ranks by once the copy is big
enough, the same in search and in similarities, kept with the saved copy, and off
below its size or when turned off."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermes_memory.api import scoring
from hermes_memory.config import load_config
from hermes_memory.tier3 import whitening
from hermes_memory.tier3.vector_store import VectorStore
from tests.test_vector_store import OWNER, rows

DIM = 16


def unit(m: np.ndarray) -> np.ndarray:
    return (m / np.linalg.norm(m, axis=-1, keepdims=True)).astype(np.float32)


def chatter(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` rows alike (a shared direction plus noise), one answer that shares a
    rarer direction with the query, and a query that is mostly the shared one."""
    rng = np.random.default_rng(seed)
    common, rare = np.eye(DIM)[0], np.eye(DIM)[1]
    alike = unit(common + 0.1 * rng.normal(size=(n, DIM)))
    answer = unit(0.3 * common + 0.95 * rare)
    query = unit(0.9 * common + 0.44 * rare)
    return alike, answer, query


def explicit(white: whitening.Whitening, rows_: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The definition: cosine after centring and transforming both sides."""
    r = unit((rows_ - white.mean) @ white.transform)
    w = unit((q - white.mean) @ white.transform)
    return whitening.on_plain_scale(r @ w)


def store_of(path: Path, vecs: np.ndarray, **kw: int) -> VectorStore:
    store = VectorStore(path, DIM, **kw)
    store.upsert(rows([f"i{k}" for k in range(len(vecs))]), vecs)
    return store


def test_the_query_path_computes_the_whitened_cosine() -> None:
    rng = np.random.default_rng(4)
    vecs = unit(rng.normal(size=(300, DIM)) + 2.0 * np.eye(DIM)[3])
    white = whitening.fit([vecs[:120], vecs[120:]])
    q = unit(rng.normal(size=DIM))
    wq = white.query(q)
    got = wq.cosines(vecs @ wq.direction, white.norms)
    assert got == pytest.approx(explicit(white, vecs, q), abs=1e-5)
    assert white.norms.shape == (300,) and white.fitted_rows == 300


def test_the_plain_scale_matches_the_band_recall_calibrates() -> None:
    assert (whitening.PLAIN_FLOOR, whitening.PLAIN_CEIL) == (scoring.COS_FLOOR, scoring.COS_CEIL)
    ends = whitening.on_plain_scale(np.array([whitening.WHITE_FLOOR, whitening.WHITE_CEIL]))
    assert ends == pytest.approx([scoring.COS_FLOOR, scoring.COS_CEIL])
    # Close matches keep their order below 1; far ones stop at -1.
    high = whitening.on_plain_scale(np.array([0.6, 0.7, 0.9, 5.0]))
    assert np.all(np.diff(high) > 0) and high[-1] <= 1.0
    assert whitening.on_plain_scale(np.array([-5.0])).tolist() == [-1.0]


def test_an_answer_stands_out_from_chatter_once_the_copy_is_whitened(tmp_path: Path) -> None:
    alike, answer, query = chatter(400, 1)
    vecs = np.vstack([alike, answer])
    plain = store_of(tmp_path / "plain", vecs, whiten_min_rows=0)
    white = store_of(tmp_path / "white", vecs)
    answer_id = f"i{len(alike)}"
    # By plain cosine the answer is below most of the chatter; whitened, it is first.
    plain_hits = [h.item_uuid for h in plain.search(query, OWNER, limit=50)]
    assert answer_id not in plain_hits[:10]
    hits = white.search(query, OWNER, limit=5)
    assert hits[0].item_uuid == answer_id
    snap = white._snapshot
    assert snap is not None and snap.white is not None
    ref = explicit(snap.white, vecs, query)
    assert [h.similarity for h in hits] == pytest.approx(sorted(ref, reverse=True)[:5], abs=1e-5)
    # The lookup of named items agrees with the search.
    sims = white.similarities(query, [h.item_uuid for h in hits])
    assert [sims[h.item_uuid] for h in hits] == pytest.approx([h.similarity for h in hits])


def test_below_its_size_or_turned_off_the_copy_keeps_plain_cosine(tmp_path: Path) -> None:
    alike, answer, query = chatter(whitening.MIN_ROWS - 2, 2)
    vecs = np.vstack([alike, answer])
    for name, store in (
        ("small", store_of(tmp_path / "small", vecs)),
        ("off", store_of(tmp_path / "off", np.vstack([vecs, vecs]), whiten_min_rows=0)),
    ):
        hit = store.search(query, OWNER, limit=1)[0]
        best = float(np.max(np.vstack([vecs, vecs]) @ query))
        assert hit.similarity == pytest.approx(best, abs=1e-5), name
        assert store._snapshot is not None and store._snapshot.white is None


def test_rows_written_after_the_fit_are_measured_the_same_way(tmp_path: Path) -> None:
    alike, answer, query = chatter(300, 3)
    store = store_of(tmp_path, alike)
    store.search(query, OWNER, limit=1)
    snap = store._snapshot
    assert snap is not None and snap.white is not None
    fitted = snap.white
    store.upsert(rows(["late"]), answer[None, :])
    hit = store.search(query, OWNER, limit=1)[0]
    assert hit.item_uuid == "late"
    assert snap.white is not None and snap.white.fitted_rows == fitted.fitted_rows  # not refitted
    assert hit.similarity == pytest.approx(float(explicit(fitted, answer[None, :], query)[0]))


def test_the_copy_is_refitted_once_it_doubles(tmp_path: Path) -> None:
    alike, _, query = chatter(600, 5)
    store = store_of(tmp_path, alike[:250])
    store.search(query, OWNER, limit=1)
    assert store._snapshot is not None and store._snapshot.white is not None
    assert store._snapshot.white.fitted_rows == 250
    store.upsert(rows([f"j{k}" for k in range(250)]), alike[250:500])
    store.search(query, OWNER, limit=1)
    assert store._snapshot.white.fitted_rows == 500


def test_the_whitening_is_saved_with_the_copy_and_a_damaged_one_refitted(
    tmp_path: Path,
) -> None:
    alike, answer, query = chatter(300, 6)
    vecs = np.vstack([alike, answer])
    store = store_of(tmp_path, vecs)
    before = [(h.item_uuid, h.similarity) for h in store.search(query, OWNER, limit=5)]
    store.close()
    saved = list((tmp_path / "snapshot").glob("*.white.npz"))
    assert len(saved) == 1
    reopened = VectorStore(tmp_path, DIM)
    after = [(h.item_uuid, h.similarity) for h in reopened.search(query, OWNER, limit=5)]
    assert after == before
    reopened.close()
    saved[0].write_bytes(b"not a numpy archive")
    damaged = VectorStore(tmp_path, DIM)
    assert [(h.item_uuid, h.similarity) for h in damaged.search(query, OWNER, limit=5)] == before


def test_the_setting_reaches_the_store(tmp_path: Path) -> None:
    cfg = load_config(tmp_path, env={}, overrides={"tier3": {"whiten_min_rows": 0}})
    assert cfg.tier3.whiten_min_rows == 0
    with pytest.raises(Exception, match="whiten_min_rows"):
        load_config(tmp_path, env={}, overrides={"tier3": {"whiten_min_rows": -1}})


def test_the_shortlist_is_fitted_in_the_whitened_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_memory.tier3 import projection
    from tests.test_projection import DIM as PDIM
    from tests.test_projection import low_rank

    monkeypatch.setattr(projection, "MIN_ROWS", 1000)
    vecs = low_rank(3000, 2)
    store = VectorStore(tmp_path, PDIM)
    store.upsert(rows([f"i{k}" for k in range(len(vecs))]), vecs)
    store.search(vecs[0], OWNER, limit=1)
    store.close()  # fits the whitening, then the shortlist in its space, and saves both
    again = VectorStore(tmp_path, PDIM)
    queries = projection.moved_queries(vecs[:30], np.random.default_rng(5))
    for q in queries:
        got = [h.item_uuid for h in again.search(q, OWNER, limit=10)]
        snap = again._snapshot
        assert snap is not None and snap.white is not None and snap.proj is not None
        wq = snap.white.query(q)
        ref = wq.raw(vecs @ wq.direction, snap.white.row_norms(vecs))
        assert got == [f"i{k}" for k in np.argsort(-ref, kind="stable")[:10]]
    assert snap.proj_white == snap.white.fitted_rows == 3000
    # A whitening fitted again leaves the shortlist unused until it is fitted again.
    more = low_rank(3000, 3)
    again.upsert(rows([f"j{k}" for k in range(3000)]), more)
    again.search(queries[0], OWNER, limit=10)
    assert snap.white.fitted_rows == 6000 and not snap._proj_usable() and snap.needs_fit()
    snap.fit_projection()
    assert snap._proj_usable() and snap.proj_white == 6000


def test_turning_whitening_off_refits_the_shortlist_in_plain_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_memory.tier3 import projection
    from tests.test_projection import DIM as PDIM
    from tests.test_projection import full_scan, low_rank

    monkeypatch.setattr(projection, "MIN_ROWS", 1000)
    vecs = low_rank(3000, 4)
    items = [f"i{k}" for k in range(len(vecs))]
    store = VectorStore(tmp_path, PDIM)
    store.upsert(rows(items), vecs)
    store.close()  # saved whitened, with its shortlist in the whitened space
    plain = VectorStore(tmp_path, PDIM, whiten_min_rows=0)
    q = projection.moved_queries(vecs[:1], np.random.default_rng(6))[0]
    assert [h.item_uuid for h in plain.search(q, OWNER, limit=10)] == full_scan(vecs, items, q, 10)
    snap = plain._snapshot
    assert snap is not None and snap.proj_white == 3000 and not snap._proj_usable()
    snap.fit_projection()
    assert snap.proj is not None and snap.proj_white == 0 and snap._proj_usable()
    assert [h.item_uuid for h in plain.search(q, OWNER, limit=10)] == full_scan(vecs, items, q, 10)
