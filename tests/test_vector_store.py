"""The vector store's exact-search copy: kept current by this process's writes,
reloaded after another process's, saved for the next process, never used stale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import lance_table, whitening
from hermes_memory.tier3.snapshot import table_stamp
from hermes_memory.tier3.vector_store import VectorStore

DIM = 16
OWNER = Owner(platform="cli", agent="default", user_id="", session="")


@pytest.fixture(autouse=True)
def plain_cosine(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the copy with LanceDB's plain cosine; the whitening the
    copy applies past its size has its own tests (test_whitening.py)."""
    monkeypatch.setattr(whitening, "MIN_ROWS", 0)


def rows(items: list[str], kind: str = "fact") -> list[dict[str, Any]]:
    return [
        {
            "id": f"{item}#0",
            "kind": kind,
            "item_uuid": item,
            "chunk": 0,
            "platform": OWNER.platform,
            "agent": OWNER.agent,
            "user_id": OWNER.user_id,
            "session_key": "",
            "text": f"text of {item}",
            "source_id": "",
            "created_at": 0.0,
        }
        for item in items
    ]


def vectors(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)


def exact(store: VectorStore, query: np.ndarray, limit: int) -> list[str]:
    """The reference: LanceDB's own flat search over the table."""
    flat = VectorStore(store.path, DIM, exact_max_rows=0, sign_search=False)
    return [h.item_uuid for h in flat.search(query, OWNER, limit=limit)]


def filled(path: Path, n: int = 200) -> VectorStore:
    store = VectorStore(path, DIM)
    store.upsert(rows([f"i{k}" for k in range(n)]), vectors(n, 1))
    return store


def test_own_writes_update_the_copy_in_place(tmp_path: Path) -> None:
    store = filled(tmp_path)
    query = vectors(1, 2)[0]
    store.search(query, OWNER, limit=5)
    copy = store._snapshot
    assert copy is not None
    new = vectors(3, 3)
    store.upsert(rows(["n0", "n1", "n2"]), new)
    store.delete(["i0", "i1"])
    assert store._snapshot is copy  # followed, not reloaded
    assert copy.stamp == table_stamp(tmp_path / "memory.lance")
    for q in [new[1], *vectors(5, 4)]:
        got = [h.item_uuid for h in store.search(q, OWNER, limit=10)]
        assert got == exact(store, q, 10)
    assert store.search(new[1], OWNER, limit=1)[0].item_uuid == "n1"
    assert all(h.item_uuid not in ("i0", "i1") for h in store.search(query, OWNER, limit=200))


def test_another_writer_makes_the_copy_reload(tmp_path: Path) -> None:
    store = filled(tmp_path)
    store.search(vectors(1, 2)[0], OWNER, limit=5)
    other = VectorStore(tmp_path, DIM)  # another process's handle
    target = vectors(1, 9)
    other.upsert(rows(["theirs"]), target)
    assert store.search(target[0], OWNER, limit=1)[0].item_uuid == "theirs"


def test_a_write_between_two_pages_of_the_copys_read_leaves_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled(tmp_path, 300)
    reader = VectorStore(tmp_path, DIM)
    other = VectorStore(tmp_path, DIM)  # another process's handle
    real = lance_table.scan_pages

    def interrupted(table: Any, columns: list[str], total: int, page: int = 4096) -> Any:
        for n, batch in enumerate(real(table, columns, total, page=64)):
            if n == 1:  # rows before the next page go, rows are added at the end
                other.delete([f"i{k}" for k in range(100, 120)])
                other.upsert(rows(["late"]), vectors(1, 7))
            yield batch

    monkeypatch.setattr(lance_table, "scan_pages", interrupted)
    query = vectors(1, 2)[0]
    reader.search(query, OWNER, limit=5)
    snap = reader._snapshot
    assert snap is not None and len(snap) == 300  # the version the read began at
    assert sorted(snap.cols["item_uuid"]) == sorted(f"i{k}" for k in range(300))
    monkeypatch.setattr(lance_table, "scan_pages", real)
    # The stamp it was read at is older than the table: the next search reloads.
    got = [h.item_uuid for h in reader.search(query, OWNER, limit=10)]
    assert got == exact(reader, query, 10)
    assert len(reader._snapshot or []) == 281


def test_a_fresh_process_starts_from_the_saved_copy(tmp_path: Path) -> None:
    store = filled(tmp_path)
    query = vectors(1, 5)[0]
    store.search(query, OWNER, limit=10)
    store.upsert(rows(["late"]), vectors(1, 6))
    store.close()
    fresh = VectorStore(tmp_path, DIM)
    assert not fresh.is_open
    got = [h.item_uuid for h in fresh.search(query, OWNER, limit=10)]
    assert fresh._conn is None  # answered from the file: LanceDB never imported or opened
    assert got == exact(fresh, query, 10)


def test_row_keys_come_from_the_saved_copy_without_lancedb(tmp_path: Path) -> None:
    store = filled(tmp_path, 30)
    store.search(vectors(1, 5)[0], OWNER, limit=3)
    store.close()
    fresh = VectorStore(tmp_path, DIM)
    keys = fresh.row_keys(from_copy=True)
    assert fresh._conn is None  # `stats` in a fresh process: no LanceDB
    lance = VectorStore(tmp_path, DIM, exact_max_rows=0, sign_search=False)
    assert sorted(keys) == sorted(lance.row_keys())
    assert len(keys) == 30


def test_a_stale_or_damaged_copy_is_never_used(tmp_path: Path) -> None:
    store = filled(tmp_path)
    store.search(vectors(1, 2)[0], OWNER, limit=5)
    store.close()
    saved = sorted((tmp_path / "snapshot").glob("snapshot-*"))
    assert [p.suffix for p in saved] == [".arrow", ".npy"]
    # A write by a process that never searched leaves the saved copy behind it.
    VectorStore(tmp_path, DIM).upsert(rows(["after"]), vectors(1, 7))
    fresh = VectorStore(tmp_path, DIM)
    assert fresh.search(vectors(1, 7)[0], OWNER, limit=1)[0].item_uuid == "after"
    fresh.close()
    # Truncated files of the current stamp: read the table instead.
    for path in (tmp_path / "snapshot").glob("snapshot-*"):
        path.write_bytes(path.read_bytes()[:100])
    again = VectorStore(tmp_path, DIM)
    assert again.search(vectors(1, 7)[0], OWNER, limit=1)[0].item_uuid == "after"


def test_the_copy_is_capped_by_size(tmp_path: Path) -> None:
    store = filled(tmp_path, 50)
    small = VectorStore(tmp_path, DIM, exact_max_rows=10, sign_search=False)
    query = vectors(1, 8)[0]
    assert [h.item_uuid for h in small.search(query, OWNER, limit=5)] == exact(small, query, 5)
    assert small._snapshot is None
    store.close()


@pytest.mark.parametrize("n", [1, 5000])
@pytest.mark.parametrize("deleted", [["i3"], []])
def test_compaction_keeps_every_live_row(tmp_path: Path, n: int, deleted: list[str]) -> None:
    store = filled(tmp_path, 20)
    store.search(vectors(1, 2)[0], OWNER, limit=5)
    added = vectors(n, 11)
    store.upsert(rows([f"a{k}" for k in range(n)]), added)
    store.delete(deleted)
    copy = store._snapshot
    assert copy is not None and len(copy) == 20 + n - len(deleted)
    assert store.search(added[-1], OWNER, limit=1)[0].item_uuid == f"a{n - 1}"
    for q in vectors(3, 12):  # appended rows (compacted past 4,096) search exactly
        assert [h.item_uuid for h in store.search(q, OWNER, limit=5)] == exact(store, q, 5)


def clustered(n: int, seed: int, dim: int = 32) -> np.ndarray:
    """Vectors around 40 topics, as memories are (uniform noise has no neighbours)."""
    rng = np.random.default_rng(seed)
    centres = np.random.default_rng(0).normal(size=(40, dim))
    picked = centres[rng.integers(0, 40, size=n)]
    return (picked + rng.normal(scale=0.6, size=(n, dim))).astype(np.float32)


def test_past_the_exact_size_an_index_is_built_tuned_and_used(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from hermes_memory.tier3 import ann_index

    dim, n = 32, 4000
    store = VectorStore(tmp_path, dim, exact_max_rows=1000, sign_search=False)
    data = clustered(n, 1, dim)
    for start in range(0, n, 1000):
        part = range(start, start + 1000)
        store.upsert(rows([f"i{k}" for k in part]), data[start : start + 1000])
    done = ann_index.ensure(store)
    assert done["action"] == "built" and done["recall_at_10"] >= ann_index.TARGET_RECALL
    settings = ann_index.load_settings(store)
    assert settings is not None and settings.nprobes < settings.partitions
    # An independent check on fresh queries, through the store's filtered search.
    queries = clustered(40, 2, dim)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    found = 0
    for q in queries:
        want = {f"i{k}" for k in np.argsort(-(unit @ (q / np.linalg.norm(q))))[:10]}
        found += len(want & {h.item_uuid for h in store.search(q, OWNER, limit=10)})
    assert found / 400 >= 0.95
    assert store._snapshot is None  # past the cap: LanceDB answers
    # Items are looked up through the item index (recall's cosine for BM25-only hits).
    names = {i.name for i in store.table().list_indices()}
    assert names == {ann_index.INDEX_NAME, ann_index.ITEM_INDEX_NAME}
    q = unit[3]
    assert store.similarities(q, ["i3", "i17"]) == pytest.approx(
        {"i3": 1.0, "i17": float(unit[17] @ q)}, abs=1e-4
    )
    # New rows are found at once (searched flat) and folded in past a share.
    extra = clustered(400, 3, dim)
    store.upsert(rows([f"x{k}" for k in range(400)]), extra)
    assert store.search(extra[7], OWNER, limit=1)[0].item_uuid == "x7"
    assert ann_index.ensure(store)["action"] == "extended"
    assert store.search(extra[7], OWNER, limit=1)[0].item_uuid == "x7"
    # An index of an older kind (IVF_PQ before 2026-11-23) is rebuilt, not kept.
    path = ann_index.settings_path(store)
    path.write_text(path.read_text().replace('"ivf_sq"', '"ivf_pq"'))
    assert ann_index.load_settings(store).kind == "ivf_pq"  # type: ignore[union-attr]
    assert ann_index.ensure(store)["action"] == "built"
    assert ann_index.load_settings(store).kind == ann_index.INDEX_KIND  # type: ignore[union-attr]
    store.reset()
    assert ann_index.load_settings(store) is None
    # LanceDB's searches and the tuner's said nothing on stderr (a CLI user sees it).
    assert "WARN" not in capfd.readouterr().err


def test_the_tuner_measures_against_the_exact_top_10(tmp_path: Path) -> None:
    from hermes_memory.tier3 import ann_index

    dim, n = 32, 1500
    store = VectorStore(tmp_path, dim, exact_max_rows=100_000)
    data = clustered(n, 4, dim)
    store.upsert(rows([f"i{k}" for k in range(n)]), data)
    table = store.table()
    queries, truth = ann_index.measured_on(table, n, dim)
    assert len(queries) == ann_index.SAMPLES
    ids = table.search().select(["id"]).limit(None).to_arrow().column("id").to_pylist()
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    for q, want in zip(queries, truth, strict=True):
        assert want == {ids[k] for k in np.argsort(-(unit @ q))[:10]}
    # A batch search numbers its rows by query: each query gets its own top 10.
    found = ann_index._batch_ids(table.search(queries[:5]), queries[:5])
    assert found == truth[:5]
    assert ann_index._batch_ids(table.search(queries[:1]), queries[:1]) == truth[:1]


def test_below_the_exact_size_no_index_is_built(tmp_path: Path) -> None:
    from hermes_memory.tier3 import ann_index

    store = filled(tmp_path, 300)
    assert ann_index.ensure(store)["action"] == "none"
    assert ann_index.load_settings(store) is None


def test_writers_that_never_search_keep_the_saved_copy_current(tmp_path: Path) -> None:
    filled(tmp_path).close()  # a bulk import into a new table: no search, no table read
    writer = VectorStore(tmp_path, DIM)
    target = vectors(1, 12)
    writer.upsert(rows(["job"]), target)  # the embed job, say
    writer.delete(["i5"])
    writer.close()
    reader = VectorStore(tmp_path, DIM)
    assert reader.search(target[0], OWNER, limit=1)[0].item_uuid == "job"
    assert reader._conn is None  # answered from the saved copy
    query = vectors(1, 13)[0]
    assert [h.item_uuid for h in reader.search(query, OWNER, limit=10)] == exact(reader, query, 10)


def test_replacing_an_item_and_compacting_keep_the_copy_exact(tmp_path: Path) -> None:
    store = filled(tmp_path)
    store.search(vectors(1, 2)[0], OWNER, limit=5)
    moved = vectors(1, 14)
    store.upsert(rows(["i9"]), moved)  # known item: its old row must go
    store.optimize()
    assert store._snapshot is not None
    for q in [moved[0], *vectors(3, 15)]:
        got = [h.item_uuid for h in store.search(q, OWNER, limit=10)]
        assert got == exact(store, q, 10) and got.count("i9") <= 1
    store.close()
    VectorStore(tmp_path, DIM).optimize()  # a compaction by a process with no copy
    fresh = VectorStore(tmp_path, DIM)
    assert fresh.search(moved[0], OWNER, limit=1)[0].item_uuid == "i9"
    assert fresh._conn is None


def test_similarities_of_named_items_match_the_search(tmp_path: Path) -> None:
    store = filled(tmp_path)
    store.upsert(rows(["n0"]), vectors(1, 5))  # in the copy's appended part
    query = vectors(1, 6)[0]
    hits = {h.item_uuid: h.similarity for h in store.search(query, OWNER, limit=201)}
    wanted = ["i3", "i150", "n0", "gone"]
    lance = VectorStore(tmp_path, DIM, exact_max_rows=0, sign_search=False)
    for handle in (store, lance):  # copy, LanceDB
        got = handle.similarities(query, wanted)
        assert set(got) == {"i3", "i150", "n0"}  # no rows, no similarity
        for item, sim in got.items():
            assert sim == pytest.approx(hits[item], abs=1e-5)


def test_lancedb_search_returns_the_owners_nearest_when_others_are_nearer(
    tmp_path: Path,
) -> None:
    store = VectorStore(tmp_path, DIM, exact_max_rows=0, sign_search=False)  # LanceDB
    base = vectors(1, 5)[0]
    mine = [f"mine{k}" for k in range(8)]
    theirs = [f"theirs{k}" for k in range(30)]
    other = [{**r, "user_id": "someone-else"} for r in rows(theirs)]
    rng = np.random.default_rng(6)
    # The other user's rows lie nearest the query, this owner's further out.
    near = base + rng.normal(scale=0.01, size=(len(theirs), DIM)).astype(np.float32)
    far = base + rng.normal(scale=1.0, size=(len(mine), DIM)).astype(np.float32)
    store.upsert(other + rows(mine), np.vstack([near, far]))
    got = store.search(base, OWNER, limit=5)
    assert [h.item_uuid for h in got] == exact_owner(far, mine, base, 5)
    # With only this owner's rows nearest, the same answer comes from the first search.
    alone = VectorStore(tmp_path / "alone", DIM, exact_max_rows=0, sign_search=False)
    alone.upsert(rows(mine), far)
    assert [h.item_uuid for h in alone.search(base, OWNER, limit=5)] == exact_owner(
        far, mine, base, 5
    )


def exact_owner(vecs: np.ndarray, items: list[str], query: np.ndarray, k: int) -> list[str]:
    sims = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)) @ (query / np.linalg.norm(query))
    return [items[i] for i in np.argsort(-sims)[:k]]


def test_a_table_created_meanwhile_by_another_writer_is_opened(tmp_path: Path) -> None:
    first, second = VectorStore(tmp_path, DIM), VectorStore(tmp_path, DIM)
    real, calls = second._tables, []

    def stale_first() -> list[str]:  # ``second`` listed before ``first`` created it
        calls.append(1)
        return [] if len(calls) == 1 else real()

    second._tables = stale_first  # type: ignore[method-assign]
    first.upsert(rows(["a"]), vectors(1, 3))
    second.upsert(rows(["b"]), vectors(1, 4))  # was: "Table 'memory' already exists"
    assert first.count() == second.count() == 2


@pytest.mark.parametrize("staged", [False, True])
def test_a_table_whose_creation_was_cut_short_is_recreated(tmp_path: Path, staged: bool) -> None:
    VectorStore(tmp_path, DIM).table()
    for version in (tmp_path / "memory.lance" / "_versions").iterdir():
        # What a process killed while creating it leaves: no manifest, or only the
        # staging copy Lance writes before renaming it into place.
        if staged:
            version.rename(version.with_name(f"{version.name}-0b7e4c1e-staged"))
        else:
            version.unlink()
    store = VectorStore(tmp_path, DIM)
    store.upsert(rows(["a"]), vectors(1, 5))  # was: "Table 'memory' was not found"
    assert [h.item_uuid for h in store.search(vectors(1, 5)[0], OWNER, limit=1)] == ["a"]


def test_a_drop_cut_short_leaves_no_table_half_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = filled(tmp_path, 20)

    def killed(*_: Any, **__: Any) -> None:
        raise SystemExit("killed while deleting")

    monkeypatch.setattr("shutil.rmtree", killed)
    with pytest.raises(SystemExit):
        store.reset()
    monkeypatch.undo()
    # The table went in one rename: gone whole, never a table whose files are half gone.
    fresh = VectorStore(tmp_path, DIM)
    assert fresh.count() == 0
    fresh.upsert(rows(["a"]), vectors(1, 6))
    assert [h.item_uuid for h in fresh.search(vectors(1, 6)[0], OWNER, limit=1)] == ["a"]
    assert not list(tmp_path.glob(".dropped-*"))  # the leftover was deleted
