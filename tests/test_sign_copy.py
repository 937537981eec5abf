"""The sign-code copy searched past the exact copy's size: found by every write and
build, exact enough, never stale, and cheap to keep current."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import (
    ann_index,
    lance_table,
    sign_build,
    sign_cells,
    sign_copy,
    sign_search,
    sign_segments,
    sign_tune,
)
from hermes_memory.tier3.sign_copy import SignCopy
from hermes_memory.tier3.snapshot import Snapshot, on_both_cores, table_stamp
from hermes_memory.tier3.vector_store import VectorStore
from tests.test_vector_store import OWNER, clustered, rows

DIM = 32
CAP = 300


def store_at(path: Path, **kw: object) -> VectorStore:
    return VectorStore(path, DIM, exact_max_rows=CAP, whiten_min_rows=0, **kw)  # type: ignore[arg-type]


def exact_top(data: np.ndarray, names: list[str], q: np.ndarray, k: int) -> set[str]:
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    return {names[i] for i in np.argsort(-(unit @ (q / np.linalg.norm(q))))[:k]}


def grown(path: Path, n: int = 1200, step: int = 200) -> tuple[VectorStore, np.ndarray]:
    store = store_at(path)
    data = clustered(n, 1, DIM)
    for start in range(0, n, step):
        store.upsert(
            rows([f"i{k}" for k in range(start, start + step)]), data[start : start + step]
        )
    return store, data


def test_a_write_past_the_cap_turns_the_exact_copy_into_a_sign_copy(tmp_path: Path) -> None:
    store, data = grown(tmp_path)
    assert store._snapshot is None and store._signs is not None
    assert len(store._signs) == len(data)
    names = [f"i{k}" for k in range(len(data))]
    found = 0
    for q in clustered(40, 2, DIM):
        found += len(
            exact_top(data, names, q, 10) & {h.item_uuid for h in store.search(q, OWNER, limit=10)}
        )
    assert found / 400 >= 0.95
    # The shortlist was measured on the copy when it was made.
    assert (
        store._signs.recall >= sign_tune.TARGET_RECALL
        or store._signs.shortlist == sign_copy.SHORTLISTS[-1]
    )
    # Cosines on the 8-bit vectors stay close to the float ones.
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    sims = store.similarities(unit[3], ["i3", "i17"])
    assert sims == pytest.approx({"i3": 1.0, "i17": float(unit[17] @ unit[3])}, abs=0.01)


def test_a_fresh_process_searches_the_saved_copy_without_lancedb(tmp_path: Path) -> None:
    store, data = grown(tmp_path)
    want = [h.item_uuid for h in store.search(data[5], OWNER, limit=5)]
    fresh = store_at(tmp_path)
    assert [h.item_uuid for h in fresh.search(data[5], OWNER, limit=5)] == want
    assert fresh._conn is None  # no LanceDB import (~3 s) on the way
    assert sorted(fresh.row_keys(from_copy=True)) == sorted(
        VectorStore(tmp_path, DIM, exact_max_rows=0, sign_search=False).row_keys()
    )


def test_every_writer_carries_the_copy_on(tmp_path: Path) -> None:
    reader, data = grown(tmp_path)
    reader.search(data[0], OWNER, limit=3)
    writer = store_at(tmp_path)  # another process
    fresh = clustered(5, 9, DIM)
    writer.upsert(rows([f"new{k}" for k in range(5)]), fresh)
    writer.delete(["i7"])
    writer.upsert(rows(["i8"]), fresh[:1])  # replaced: its old row goes
    assert reader.search(fresh[2], OWNER, limit=1)[0].item_uuid == "new2"
    assert reader._signs is not None and reader._signs.stamp == table_stamp(writer._table_dir)
    found = {h.item_uuid for h in reader.search(data[7], OWNER, limit=20)}
    assert "i7" not in found
    assert len(reader._signs) == len(data) + 5 - 1
    assert reader.similarities(fresh[0], ["i8"]) == pytest.approx({"i8": 1.0}, abs=0.01)


def test_segments_stay_few_as_small_writes_add_up(tmp_path: Path) -> None:
    store, _ = grown(tmp_path, 600, 600)
    extra = clustered(40, 4, DIM)
    for k in range(40):
        store.upsert(rows([f"w{k}"]), extra[k : k + 1])
    signs = store._signs
    assert signs is not None and len(signs) == 640
    # A binary counter: no more segments than bits in the count of writes.
    assert len(signs.segments) <= 7
    files = {p.name.split(".")[0] for p in (tmp_path / "signs").iterdir()}
    assert signs._centroid_file is not None  # the cells' centroids, written once
    centroids = signs._centroid_file.split(".")[0]
    assert files == {s.name for s in signs.segments} | {f"copy-{signs.stamp}", centroids}
    for k in (0, 17, 39):
        assert store.search(extra[k], OWNER, limit=1)[0].item_uuid == f"w{k}"


def test_the_index_job_builds_a_missing_copy_and_keeps_it_through_rewrites(tmp_path: Path) -> None:
    store, data = grown(tmp_path)
    SignCopy.discard(tmp_path / "signs")
    plain = store_at(tmp_path)
    assert plain._current_signs() is None  # none saved: LanceDB answers meanwhile
    done = ann_index.ensure(plain)
    assert done["signs"] == "built" and done["rows"] == len(data)
    # No IVF index of LanceDB's beside the copy (only the item lookups' BTREE).
    names = {i.name for i in plain.table().list_indices()}
    assert names == {ann_index.ITEM_INDEX_NAME} and ann_index.load_settings(plain) is None
    again = store_at(tmp_path)
    assert again._current_signs() is not None  # survived the item index's new version
    assert again.search(data[11], OWNER, limit=1)[0].item_uuid == "i11"
    # Compaction rewrites the table's versions, not its rows: the copy follows.
    again.optimize()
    assert store_at(tmp_path)._current_signs() is not None
    assert ann_index.ensure(again)["signs"] == "current"


def test_a_stale_or_damaged_copy_is_never_used(tmp_path: Path) -> None:
    store, data = grown(tmp_path)
    signs = store._signs
    assert signs is not None
    seg = signs.segments[0].name
    (tmp_path / "signs" / f"{seg}.vectors.npy").write_bytes(b"garbage")
    fresh = store_at(tmp_path)
    assert fresh._current_signs() is None
    assert fresh.search(data[9], OWNER, limit=1)[0].item_uuid == "i9"  # LanceDB answers
    # Cells the copy has no centroid for, or no cells where it has centroids: unused.
    store, data = grown(tmp_path / "c")
    signs = store._signs
    assert signs is not None and signs.centroids is not None
    cells = tmp_path / "c" / "signs" / f"{signs.segments[0].name}.cells.npy"
    np.save(cells, np.full(len(signs.segments[0]), len(signs.centroids), dtype=np.uint16))
    assert store_at(tmp_path / "c")._current_signs() is None
    cells.unlink()
    assert store_at(tmp_path / "c")._current_signs() is None
    # A writer that does not follow the copy leaves it stale: never used again.
    store, data = grown(tmp_path / "b")
    store_at(tmp_path / "b", sign_search=False).upsert(rows(["late"]), data[:1])
    later = store_at(tmp_path / "b")
    assert later._current_signs() is None
    assert {h.item_uuid for h in later.search(data[0], OWNER, limit=2)} == {"i0", "late"}


def test_owners_and_kinds_are_kept_apart(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 600, 600)
    other = Owner(platform="cli", agent="default", user_id="bob", session="")
    theirs = rows(["b0", "b1"])
    for r in theirs:
        r["user_id"] = "bob"
    store.upsert(theirs, data[:2])
    store.upsert(rows(["e0"], kind="entity"), data[2:3])
    assert {h.item_uuid for h in store.search(data[0], other, limit=5)} == {"b0", "b1"}
    assert store.search(data[0], OWNER, limit=1)[0].item_uuid == "i0"
    assert store.search(data[2], OWNER, limit=1, kinds=("entity",))[0].item_uuid == "e0"
    assert "e0" not in {h.item_uuid for h in store.search(data[2], OWNER, limit=5, kinds=("fact",))}


def test_shrinking_below_the_cap_returns_to_the_exact_copy(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 600, 600)
    store.delete([f"i{k}" for k in range(400)])
    assert store._signs is None and not any((tmp_path / "signs").glob("copy-*"))
    assert store.search(data[450], OWNER, limit=1)[0].item_uuid == "i450"


def test_a_copy_that_cannot_be_saved_is_dropped_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, data = grown(tmp_path, 600, 600)
    assert store.search_path() == "the sign copy"

    def full_disk(self: SignCopy, directory: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SignCopy, "save", full_disk)
    store.upsert(rows(["late"]), data[:1])  # the table write itself succeeds
    monkeypatch.undo()
    assert store._current_signs() is None  # the saved copy is behind the table now
    assert {h.item_uuid for h in store.search(data[0], OWNER, limit=2)} == {"i0", "late"}
    assert store.search_path().startswith("LanceDB (a scan of every row) until the embed job")
    assert ann_index.ensure(store)["signs"] == "built"
    assert store.search_path() == "the sign copy"


def test_what_a_cut_short_save_or_build_left_is_swept(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 600, 600)
    signs_dir = tmp_path / "signs"
    (signs_dir / "seg-cutshort.codes.npy").write_bytes(b"half")  # a save killed midway
    (signs_dir / ".build-cutshort").mkdir()  # a build killed midway
    (signs_dir / ".build-cutshort" / "seg-x.vectors.npy").write_bytes(b"half")
    (signs_dir / ".build-running").mkdir()  # another build, started a minute ago
    hours_ago = time.time() - 7200
    os.utime(signs_dir / ".build-cutshort", (hours_ago, hours_ago))
    store.upsert(rows(["next"]), data[:1])
    assert not (signs_dir / "seg-cutshort.codes.npy").exists()
    SignCopy.discard(signs_dir)  # the copy goes; the job builds it again
    assert store_at(tmp_path).refresh_signs()["signs"] == "built"
    assert [p.name for p in signs_dir.glob(".build-*")] == [".build-running"]


def test_a_copy_that_has_doubled_is_built_again(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 600, 600)
    signs = store._signs
    assert signs is not None and signs.built_rows == 600
    assert store.refresh_signs()["signs"] == "current"
    # Rows of another part of the space: the mean taken on the first 600 fits them badly.
    more = clustered(700, 5, DIM) + 3.0
    store.upsert(rows([f"m{k}" for k in range(700)]), more)
    done = store.refresh_signs()
    assert done["signs"] == "built again (1300 rows, made for 600)"
    rebuilt = store._signs
    assert rebuilt is not None and rebuilt.built_rows == 1300 and len(rebuilt.segments) == 1
    both = np.concatenate([data, more])
    unit = both / np.linalg.norm(both, axis=1, keepdims=True)
    assert np.allclose(rebuilt.mean, unit.mean(axis=0), atol=1e-4)  # every row's mean now
    assert not np.allclose(signs.mean, rebuilt.mean, atol=0.05)
    again = store_at(tmp_path)._current_signs()
    assert again is not None and again.built_rows == 1300  # saved with the copy
    fresh = store_at(tmp_path)
    assert [h.item_uuid for h in fresh.search(more[9], OWNER, limit=1)] == ["m9"]
    assert store.refresh_signs()["signs"] == "current"


def test_a_copy_of_mostly_dead_rows_is_built_again(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 1200, 1200)
    store.delete([f"i{k}" for k in range(700)])
    signs = store._signs
    assert signs is not None and len(signs) == 500
    assert store.refresh_signs()["signs"] == "built again (700 of 1200 rows dead)"
    rebuilt = store._signs
    assert rebuilt is not None and len(rebuilt) == 500 and not rebuilt.dead[0].any()
    assert store.search(data[900], OWNER, limit=1)[0].item_uuid == "i900"


def test_a_search_and_a_write_in_two_threads_do_not_trip_over_each_other(
    tmp_path: Path,
) -> None:
    import threading

    store, data = grown(tmp_path, 600, 600)
    errors: list[BaseException] = []
    stop = threading.Event()

    def search() -> None:
        while not stop.is_set():
            try:
                assert store.search(data[3], OWNER, limit=5)[0].item_uuid == "i3"
                store.similarities(data[4], ["i4", "i5"])
            except BaseException as exc:  # reported below
                errors.append(exc)
                return

    worker = threading.Thread(target=search)
    worker.start()
    extra = clustered(30, 6, DIM)
    for k in range(30):  # each write adds a segment, and some merge
        store.upsert(rows([f"t{k}"]), extra[k : k + 1])
    stop.set()
    worker.join()
    assert not errors, errors[0]
    current = store._current_signs()
    assert current is not None and len(current) == 630


def test_a_merge_reads_mapped_segments_block_by_block_and_keeps_every_live_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks of 7 rows: the live rows of a mapped segment straddle every block edge.
    monkeypatch.setattr(sign_segments, "BLOCK", 7)
    store, data = grown(tmp_path, 600, 600)
    signs = store._signs
    assert signs is not None
    signs.save(tmp_path / "signs")
    mapped = sign_segments.read_segment(tmp_path / "signs", signs.segments[0].name, DIM)
    assert isinstance(mapped.vectors, np.memmap)
    fresh = store_at(tmp_path / "other")
    fresh.upsert(rows([f"n{k}" for k in range(5)]), data[:5])  # an in-memory segment
    tail = fresh._snapshot
    assert tail is not None
    extra = SignCopy.start("x", data, len(data))
    ((cols, vectors),) = tail.live_parts()  # its five rows, appended
    extra.append_columns(cols, vectors)
    dead = np.zeros(600, dtype=bool)
    dead[::3] = True
    joined = sign_segments.merged(
        tmp_path / "signs", [mapped, extra.segments[0]], [dead, np.zeros(5, dtype=bool)]
    )
    live = np.flatnonzero(~dead)
    want_ids = [*mapped.take("id", live), *extra.segments[0].take("id", np.arange(5))]
    assert joined.take("id", np.arange(len(joined))) == want_ids
    assert np.array_equal(
        np.asarray(joined.vectors),
        np.concatenate([np.asarray(mapped.vectors)[live], extra.segments[0].vectors]),
    )
    assert joined.rows_of("i3").size == 0  # dead
    assert np.array_equal(joined.rows_of("i4"), np.array([2]))  # after i1 and i2
    assert np.array_equal(joined.rows_of("n4"), np.array([len(live) + 4]))


def test_the_exact_top_kept_as_rows_stream_past_is_the_exact_top(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sign_tune, "STEP", 7)  # pieces smaller than the top kept
    data = clustered(500, 3, DIM)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    queries, tops = sign_tune.measured_on([data])
    assert len(queries) == min(500, sign_tune.SAMPLES)
    for q, top in zip(queries, tops, strict=True):
        assert top == set(np.argsort(-(unit @ q))[:10].tolist())
    running = sign_tune.RunningTop(queries[:3])
    for start, stop in ((0, 3), (3, 250), (250, 500)):  # uneven writes
        running.add(unit[start:stop])
    assert running.measured()[1] == tops[:3]


def test_a_copy_saved_before_copies_recorded_their_size_is_built_again(tmp_path: Path) -> None:
    import json

    store, data = grown(tmp_path, 600, 600)
    signs = store._signs
    assert signs is not None
    manifest = tmp_path / "signs" / f"copy-{signs.stamp}.json"
    old = json.loads(manifest.read_text())
    del old["built_rows"]
    manifest.write_text(json.dumps(old))
    older = store_at(tmp_path)
    assert older.search(data[4], OWNER, limit=1)[0].item_uuid == "i4"  # still answers
    done = older.refresh_signs()
    assert done["signs"] == "built again (made before copies recorded their size)"
    assert store_at(tmp_path)._current_signs().built_rows == 600  # type: ignore[union-attr]


def test_a_whole_table_scan_comes_in_pages_in_table_order(tmp_path: Path) -> None:
    store, data = grown(tmp_path, 1000, 250)  # several fragments
    store.delete([f"i{k}" for k in range(0, 1000, 7)])  # and rows gone from them
    table = store.table()
    total = int(table.count_rows())
    stream = table.search().select(["id"]).limit(None).to_batches()
    streamed = [i for batch in stream for i in batch["id"].to_pylist()]
    pages = list(lance_table.scan_pages(table, ["id", "vector"], total, page=96))
    assert max(p.num_rows for p in pages) <= 96
    assert [i for p in pages for i in p["id"].to_pylist()] == streamed  # none twice, none left
    assert len(streamed) == total
    # Fewer rows asked than the table has: the scan stops there.
    assert sum(p.num_rows for p in lance_table.scan_pages(table, ["id"], 100, page=64)) == 100


def test_a_build_whose_pages_overlap_gives_up_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = grown(tmp_path, 600, 600)
    SignCopy.discard(tmp_path / "signs")
    real = lance_table.scan_pages

    def shifted(table: object, columns: list[str], rows: int, page: int = 4096) -> object:
        # A row written at the front between two pages pushes the next page back one.
        for n, batch in enumerate(real(table, columns, rows, page=100)):
            yield batch if n != 3 else next(real(table, columns, rows, page=100))

    monkeypatch.setattr(sign_build, "scan_pages", shifted)
    assert store_at(tmp_path).refresh_signs()["signs"] == "table changed while building: next run"
    assert not list((tmp_path / "signs").glob(".build-*"))
    monkeypatch.setattr(sign_build, "scan_pages", real)
    assert store_at(tmp_path).refresh_signs()["signs"] == "built"


def test_the_exact_copys_rows_are_handed_over_in_parts_without_copying_the_whole() -> None:
    snap = Snapshot.empty("s", DIM, whiten_min_rows=0)
    data = clustered(300, 4, DIM)
    snap.apply("s1", [], rows([f"i{k}" for k in range(200)]), data[:200])
    snap._compact()  # the first 200 rows are the loaded ones, the next 100 appended
    snap.apply("s2", [], rows([f"i{k}" for k in range(200, 300)]), data[200:])
    parts = snap.live_parts()
    assert [len(v) for _, v in parts] == [200, 100]
    assert parts[0][1] is snap.base and parts[1][1] is snap.extra  # all alive: no copy
    snap.apply("s3", ["i5", "i250"], [], data[:0])
    parts = snap.live_parts()
    kept = [k for k in range(300) if k not in (5, 250)]
    assert [i for cols, _ in parts for i in cols["item_uuid"]] == [f"i{k}" for k in kept]
    assert [c for cols, _ in parts for c in cols["chunk"]] == [0] * len(kept)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    assert np.allclose(np.concatenate([v for _, v in parts]), unit[kept], atol=1e-6)


def test_the_shortlist_is_measured_alike_on_rows_in_one_array_or_in_parts() -> None:
    data = clustered(500, 6, DIM)
    whole = sign_tune.measured_on([data])
    split = sign_tune.measured_on([data[:123], data[123:124], data[124:]])
    assert np.array_equal(whole[0], split[0]) and whole[1] == split[1]


def test_work_split_over_both_cores_comes_back_in_order() -> None:
    parts = [np.arange(k, k + 5) for k in range(0, 40, 5)]
    assert [int(r) for r in on_both_cores(lambda a: a.sum(), parts)] == [
        int(p.sum()) for p in parts
    ]
    assert on_both_cores(lambda a: a.sum(), []) == []


def test_the_shortlist_is_every_row_within_the_cut_over_all_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = grown(tmp_path)
    copy = store._signs
    assert copy is not None and len(copy.segments) > 1
    monkeypatch.setattr(sign_search, "_SPLIT", 128)  # segments in several parts each
    masks: list[np.ndarray | None] = []
    for k, seg in enumerate(copy.segments):  # some rows not searchable, one segment open
        masks.append(None if k == 0 else np.arange(len(seg)) % 3 != 0)
    for q in clustered(10, 5, DIM):
        q = q / np.linalg.norm(q)
        words = copy.codes_of(q[None, :])[:, 0]
        dist, where = [], []
        for n, (seg, mask) in enumerate(zip(copy.segments, masks, strict=True)):
            bits = np.unpackbits((np.asarray(seg.codes).T ^ words).view(np.uint8), axis=1)
            d = bits.sum(axis=1)
            keep = np.ones(len(seg), dtype=bool) if mask is None else mask
            dist.append(d[keep])
            where.extend((n, int(r)) for r in np.flatnonzero(keep))
        every = np.concatenate(dist)
        for size in (1, 37, 250, 10_000):
            cut = np.sort(every)[min(size, every.size) - 1]
            expected = {w for w, d in zip(where, every, strict=True) if d <= cut}
            got = sign_search.shortlist(copy, q, masks, size)
            assert {(n, int(r)) for n, rows in got.items() for r in rows} == expected
            assert all(np.all(np.diff(rows) > 0) for rows in got.values())


def _cells_match(copy: SignCopy, data: np.ndarray) -> None:
    """Every live row's cell is the centroid nearest its vector."""
    assert copy.centroids is not None
    for seg in copy.segments:
        assert seg.cells is not None
        items = seg.take("item_uuid", np.arange(len(seg)))
        unit = data[[int(i[1:]) for i in items]]
        unit = unit / np.linalg.norm(unit, axis=1, keepdims=True)
        assert np.array_equal(np.asarray(seg.cells), sign_cells.nearest(unit, copy.centroids))


def test_rows_fall_in_the_cell_of_their_nearest_centroid_however_the_copy_was_made(
    tmp_path: Path,
) -> None:
    store, data = grown(tmp_path, 6000, 1000)  # carried on write by write, merged
    copy = store._signs
    assert copy is not None and copy.centroids is not None
    assert len(copy.centroids) == sign_cells.cell_count(copy.built_rows)
    _cells_match(copy, data)
    assert 0 < copy.probes < len(copy.centroids)  # tuned to probe a few of them
    SignCopy.discard(tmp_path / "signs")
    plain = store_at(tmp_path)
    built = ann_index.ensure(plain)  # made from the table in one pass
    assert built["cells"] == sign_cells.cell_count(len(data)) and built["probes"] > 0
    fresh = store_at(tmp_path)._current_signs()  # and read back from its files
    assert fresh is not None and fresh.probes == built["probes"]
    _cells_match(fresh, data)
    names = [f"i{k}" for k in range(len(data))]
    found = 0
    for q in clustered(40, 2, DIM):
        found += len(
            exact_top(data, names, q, 10) & {h.item_uuid for h in fresh.search(q, OWNER, 10, ())}
        )
    assert found / 400 >= 0.95


def test_a_probed_shortlist_is_every_row_of_the_nearest_cells_within_the_cut(
    tmp_path: Path,
) -> None:
    store, _ = grown(tmp_path, 6000, 1000)
    copy = store._signs
    assert copy is not None and copy.centroids is not None and len(copy.segments) > 1
    masks: list[np.ndarray | None] = [
        None if k == 0 else np.arange(len(seg)) % 3 != 0 for k, seg in enumerate(copy.segments)
    ]
    cells = len(copy.centroids)
    ordered = [
        None if m is None else m[s.runs(cells).rows]
        for s, m in zip(copy.segments, masks, strict=True)
    ]
    for q in clustered(10, 5, DIM):
        q = q / np.linalg.norm(q)
        words = copy.codes_of(q[None, :])[:, 0]
        near = np.argsort(-(copy.centroids @ q))[:4]
        dist, where = [], []
        for n, (seg, mask) in enumerate(zip(copy.segments, masks, strict=True)):
            bits = np.unpackbits((np.asarray(seg.codes).T ^ words).view(np.uint8), axis=1)
            keep = np.isin(np.asarray(seg.cells), near)
            if mask is not None:
                keep &= mask
            dist.append(bits.sum(axis=1)[keep])
            where.extend((n, int(r)) for r in np.flatnonzero(keep))
        every = np.concatenate(dist)
        for size in (1, 37, len(every)):
            cut = np.sort(every)[size - 1]
            expected = {w for w, d in zip(where, every, strict=True) if d <= cut}
            got = sign_search.shortlist(copy, q, masks, size, probes=4)
            assert {(n, int(r)) for n, rows in got.items() for r in rows} == expected
            assert all(np.all(np.diff(rows) > 0) for rows in got.values())
            # The masks at hand in cell order (as a search keeps them): the same rows.
            alike = sign_search.shortlist(copy, q, masks, size, 4, ordered)
            assert alike.keys() == got.keys()
            assert all(np.array_equal(alike[n], got[n]) for n in got)
        # Fewer searchable rows in those cells than asked: every row is counted.
        more = len(every) + 1
        whole = sign_search.shortlist(copy, q, masks, more)
        assert sign_search.shortlist(copy, q, masks, more, probes=4).keys() == whole.keys()
        assert all(
            np.array_equal(a, whole[n])
            for n, a in sign_search.shortlist(copy, q, masks, more, probes=4).items()
        )


def test_a_copy_made_before_cells_answers_whole_until_built_again(tmp_path: Path) -> None:
    import json

    store, data = grown(tmp_path, 600, 600)
    signs = store._signs
    assert signs is not None
    folder = tmp_path / "signs"
    manifest = folder / f"copy-{signs.stamp}.json"
    old = json.loads(manifest.read_text())
    (folder / old.pop("centroids")).unlink()
    del old["probes"]
    old["format"] = 1
    manifest.write_text(json.dumps(old))
    for seg in signs.segments:
        (folder / f"{seg.name}.cells.npy").unlink()
    older = store_at(tmp_path)
    assert older.search(data[4], OWNER, limit=1)[0].item_uuid == "i4"  # still answers
    assert older.refresh_signs()["signs"] == "built again (made before copies had cells)"
    _cells_match(store_at(tmp_path)._current_signs(), data)  # type: ignore[arg-type]


def test_cell_runs_list_the_rows_of_the_cells_asked_in_order() -> None:
    cells = np.array([2, 0, 2, 1, 0, 2], dtype=np.uint16)
    codes = np.arange(12, dtype=np.uint64).reshape(2, 6)
    runs = sign_cells.CellRuns.of(cells, codes, 4)
    assert runs.rows.tolist() == [1, 4, 3, 0, 2, 5] and runs.starts.tolist() == [0, 2, 3, 6, 6]
    probe = runs.probe(np.array([0, 2, 3]))
    assert len(probe) == 5
    assert probe.rows_at(np.arange(5)).tolist() == [1, 4, 0, 2, 5]
    assert probe.rows_at(np.array([4, 1, 2])).tolist() == [5, 4, 0]
    assert probe.gather(np.array([10, 11, 12, 13, 14, 15])).tolist() == [10, 11, 13, 14, 15]
    words = np.array([3, 0], dtype=np.uint64)
    want = [
        bin(int(codes[0, r]) ^ 3).count("1") + bin(int(codes[1, r])).count("1")
        for r in [1, 4, 0, 2, 5]
    ]
    assert probe.differences(words).tolist() == want
    empty = runs.probe(np.array([3]))
    assert len(empty) == 0 and empty.differences(words).size == 0


def test_k_means_cells_fit_the_rows_better_than_the_rows_they_start_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = clustered(3000, 8, DIM)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    fitted = sign_cells.centroids(unit, 3000, seed=1)
    assert fitted.shape == (sign_cells.cell_count(3000), DIM)
    assert np.allclose(np.linalg.norm(fitted, axis=1), 1.0, atol=1e-5)
    monkeypatch.setattr(sign_cells, "ROUNDS", 0)
    seeds = sign_cells.centroids(unit, 3000, seed=1)
    assert (unit @ fitted.T).max(axis=1).mean() > (unit @ seeds.T).max(axis=1).mean() + 0.02
    assert sign_cells.cell_count(1_030_000) == 1024 and sign_cells.cell_count(10) == 16
