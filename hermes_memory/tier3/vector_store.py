"""The LanceDB table of tier 3: one row per chunk of a tier-2 item, with its vector.

Derived state only: every row names the tier-2 item it came from
(``kind``/``item_uuid``), so the table can be dropped and rebuilt at any time.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import ann_index, lance_table, sign_build, sign_tune, whitening
from hermes_memory.tier3.sign_copy import SignCopy
from hermes_memory.tier3.snapshot import (
    COLUMNS,
    Snapshot,
    VectorHit,
    table_stamp,
)

TABLE = "memory"
# Where a dropped table goes before it is deleted: no ``.lance`` suffix, so LanceDB
# never lists it as a table.
_TRASH_PREFIX = ".dropped-"


class VectorStore:
    """One LanceDB table. Up to ``exact_max_rows`` rows, search is an exact scan of a
    copy (``snapshot.py``) kept current with this process's writes and reloaded when
    another process commits; above that, a sign-code copy (``sign_copy.py``) kept
    current by every writer, or, until one is built, LanceDB's own index."""

    def __init__(
        self,
        path: Path,
        dim: int,
        *,
        exact_max_rows: int = 200_000,
        whiten_min_rows: int | None = None,
        sign_search: bool = True,
    ) -> None:
        self.path = Path(path)
        self.dim = dim
        self.exact_max_rows = exact_max_rows
        # None: whitening.MIN_ROWS (0 keeps plain cosine)
        self.whiten_min_rows = whitening.MIN_ROWS if whiten_min_rows is None else whiten_min_rows
        self._table: Any = None
        self._snapshot: Snapshot | None = None
        self._table_dir = self.path / f"{TABLE}.lance"
        self._snapshot_dir = self.path / "snapshot"
        self.sign_search = sign_search
        self._signs: SignCopy | None = None
        self._signs_dir = self.path / "signs"
        self._conn: Any = None
        self._open_lock = threading.Lock()
        self._table_lock = threading.Lock()
        # Set when this process had to create a table that should have been there
        # (``expects_table`` said so at that moment): it vanished (deleted by hand,
        # lost with a disk). A store's first write creating it is no such thing.
        self.created = False
        self.expects_table: Callable[[], bool] = lambda: False
        self._rebuilding = False
        self._new_table = False

    @property
    def _db(self) -> Any:
        """The LanceDB connection, opened on first use: importing lancedb takes
        seconds, which an agent's start-up should not wait for."""
        if self._conn is None:
            with self._open_lock:
                if self._conn is None:
                    try:
                        import lancedb

                        self.path.mkdir(parents=True, exist_ok=True, mode=0o700)
                        # Check the latest version on every read, so writes by other
                        # processes (the embed job, the CLI) are seen at once.
                        self._conn = lancedb.connect(
                            str(self.path), read_consistency_interval=timedelta(0)
                        )
                    except Exception as exc:
                        raise DerivedTierError(
                            f"cannot open vector store {self.path}: {exc}"
                        ) from None
        return self._conn

    @property
    def is_open(self) -> bool:
        """Searchable without waiting: connected (the first connection imports LanceDB,
        ~3 s) or holding the exact-search copy."""
        return self._conn is not None or self._snapshot is not None or self._signs is not None

    def open(self) -> None:
        """Make search ready now (for example from a warm-up thread): load the saved
        exact-search copy, or else connect and open the table."""
        if self._current_signs() is None and self._current_snapshot() is None:
            self.table()

    def table(self) -> Any:
        if self._table is None:
            with self._table_lock:  # a warm-up thread and a write may both get here
                if self._table is None:
                    try:
                        self._table = self._open_or_create()
                    except DerivedTierError:
                        raise
                    except Exception as exc:
                        raise DerivedTierError(f"cannot open vector table: {exc}") from None
        return self._table

    def _open_or_create(self) -> Any:
        if TABLE not in self._tables():
            # Created under the writers' lock: two processes creating it at once
            # would otherwise leave one with "already exists".
            with self.writing():
                if TABLE not in self._tables():
                    self._sweep()
                    table = self._db.create_table(TABLE, schema=lance_table.schema(self.dim))
                    self.created = not self._rebuilding and self.expects_table()
                    self._rebuilding = False
                    self._new_table = True  # empty: its exact copy can start from nothing
                    return table
        try:
            table = self._db.open_table(TABLE)
        except Exception:
            with self.writing():
                if self._committed():
                    raise  # a real table that cannot be opened: the caller says so
                # A creation cut short (a killed process): no version, nothing to keep.
                self._drop()
            return self._open_or_create()
        field = table.schema.field("vector")
        if field.type.list_size != self.dim:
            raise DerivedTierError(
                f"vector table has dimension {field.type.list_size}, "
                f"the embedder {self.dim}: rebuild it"
            )
        return table

    def _committed(self) -> bool:
        """Whether the table directory holds a committed version: a ``N.manifest``.
        Lance writes each manifest as ``N.manifest-<uuid>`` and renames it into place,
        so a process killed in between leaves only that staging file."""
        versions = self._table_dir / "_versions"
        return versions.is_dir() and any(p.name.endswith(".manifest") for p in versions.iterdir())

    def _tables(self) -> list[str]:
        listing = self._db.list_tables()
        return list(getattr(listing, "tables", listing))

    def reset(self) -> None:
        """Drop the table (a rebuild starts from nothing)."""
        try:
            self._db  # noqa: B018 - connecting makes the directory the lock lives in
            with self.writing():
                self._drop()
        except Exception as exc:
            raise DerivedTierError(f"cannot drop vector table: {exc}") from None
        self._table = None
        self._snapshot = None
        self._signs = None
        Snapshot.discard(self._snapshot_dir)
        SignCopy.discard(self._signs_dir)
        ann_index.settings_path(self).unlink(missing_ok=True)
        self._rebuilding = True  # the next table is created on purpose

    def _drop(self) -> None:
        """Move the table aside in one rename, then delete it. LanceDB's own drop
        deletes file by file: a process killed midway left versions whose data files
        were gone, a table that opened and then failed on every read."""
        if self._table_dir.exists():
            os.rename(self._table_dir, self.path / f"{_TRASH_PREFIX}{uuid.uuid4().hex}")
        self._sweep()

    def _sweep(self) -> None:
        """Delete tables dropped by a process killed before it finished deleting."""
        for trash in self.path.glob(f"{_TRASH_PREFIX}*"):
            shutil.rmtree(trash, ignore_errors=True)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """One writer at a time across processes. LanceDB resolves concurrent commits
        by retrying with back-off, which starved some writers for seconds when an
        agent, the CLI and a job wrote at once; a queue on a file lock is fair."""
        # Every write follows table(), whose connection made the directory.
        with open(self.path / ".write.lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def rewriting(self) -> Iterator[None]:
        """Under the write lock, a rewrite of the table that keeps its rows (compaction,
        an index build): the copies at its state before stand for its state after."""
        with self.writing():
            before = table_stamp(self._table_dir)
            yield
            self._restamp(before, table_stamp(self._table_dir))

    def upsert(
        self, rows: list[dict[str, Any]], vectors: np.ndarray, *, new_items: bool = False
    ) -> None:
        """Replace every chunk of the items in ``rows`` with the given ones
        (``new_items``: the caller knows they have none yet)."""
        if not rows:
            return
        items = sorted({r["item_uuid"] for r in rows})
        data = lance_table.arrow(rows, vectors, self.dim)
        try:
            table = self.table()
            with self.writing():
                before = table_stamp(self._table_dir)
                copy = self._tracking(before)
                signs = self._tracking_signs(before)
                # The copy knows which items have rows: a new item needs no delete
                # (a delete scans the table: the cost of a write grew with its size).
                known = copy if copy is not None else signs
                if new_items:
                    stale: list[str] = []
                else:
                    stale = items if known is None else known.present(items)
                if stale:
                    lance_table.delete_items(table, stale)
                table.add(data)
                self._advance(copy, signs, items, rows, vectors)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector write failed: {exc}") from None

    def delete(self, item_uuids: list[str]) -> None:
        if item_uuids:
            try:
                table = self.table()
                with self.writing():
                    before = table_stamp(self._table_dir)
                    copy = self._tracking(before)
                    signs = self._tracking_signs(before)
                    lance_table.delete_items(table, item_uuids)
                    empty = np.zeros((0, self.dim), np.float32)
                    self._advance(copy, signs, item_uuids, [], empty)
            except DerivedTierError:
                raise
            except Exception as exc:
                raise DerivedTierError(f"vector delete failed: {exc}") from None

    def _tracking(self, before: str | None) -> Snapshot | None:
        """The exact copy at ``before`` (the table as this write finds it), to follow
        the write; None if this process cannot know it. Called under the write lock,
        so no other process commits until the write is done."""
        snap = self._snapshot
        if snap is None:
            # A writer that never searched still carries the copy forward (from the
            # saved one, or from nothing for a table it created), so the next process
            # does not start by reading the whole table.
            if before is None or self._new_table:
                snap = Snapshot.empty(before or "", self.dim, self.whiten_min_rows)
            else:
                snap = Snapshot.load(self._snapshot_dir, before, self.dim, self.whiten_min_rows)
            self._new_table = False
        if snap is not None and snap.stamp != before:
            snap = None  # someone else's commit came first: reload on search
        self._snapshot = snap
        return snap

    def _tracking_signs(self, before: str | None) -> SignCopy | None:
        """The sign copy at ``before``, to follow the write (under the write lock);
        None when there is none: the table is small, or no build has made one yet."""
        if not self.sign_search or before is None:
            return None
        signs = self._signs
        if signs is None or signs.stamp != before:
            signs = SignCopy.load(self._signs_dir, before, self.dim)
        self._signs = signs
        return signs

    def _advance(
        self,
        snap: Snapshot | None,
        signs: SignCopy | None,
        items: list[str],
        rows: list[dict[str, Any]],
        vectors: Any,
    ) -> None:
        stamp = table_stamp(self._table_dir) or ""
        if snap is not None:
            snap.apply(stamp, items, rows, vectors)
            if len(snap) > self.exact_max_rows:
                self._snapshot = None  # past the cap: the sign copy, or LanceDB's index
                if self.sign_search and signs is None:
                    signs = self._signs_from(snap, stamp)
                    items, rows = [], []  # the exact copy already held this write
        if signs is None:
            return
        try:
            signs.apply(stamp, items, rows, vectors)
            if len(signs) <= self.exact_max_rows:
                self._signs = None  # small again: the exact copy (read from the table)
                SignCopy.discard(self._signs_dir)
                return
            # Saved at once: the next writer, in any process, carries it on from here.
            signs.save(self._signs_dir)
        except Exception:  # derived: stale from here on, rebuilt by the embed job
            self._signs = None
            return
        # Held again: a search in another thread drops it on seeing the table ahead of it.
        self._signs = signs

    def _signs_from(self, snap: Snapshot, stamp: str) -> SignCopy:
        """The sign copy of the exact copy's live rows (an import crossing the cap)."""
        parts = snap.live_parts()
        rows = sum(len(vectors) for _, vectors in parts)
        every = max(1, rows // 20_000)
        sample = np.concatenate([vectors[::every] for _, vectors in parts])
        signs = SignCopy.start(stamp, sample, rows)
        for cols, vectors in parts:
            signs.append_columns(cols, vectors)
        # Measured against the float rows at hand (a scan of the 8-bit ones per sample
        # query would take seconds inside the import's write).
        sign_tune.tune(signs, sign_tune.measured_on([vectors for _, vectors in parts]))
        self._signs = signs
        return signs

    def search(
        self, vector: np.ndarray, owner: Owner, *, limit: int, kinds: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        try:
            signs = self._current_signs()
            if signs is not None:
                return signs.search(vector, owner, limit, kinds)
            snap = self._current_snapshot()
            if snap is not None:
                return snap.search(vector, owner, limit, kinds)
            return self._lance_search(vector, owner, limit, kinds)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector search failed: {exc}") from None

    def similarities(self, vector: np.ndarray, items: list[str]) -> dict[str, float]:
        """Cosine of ``vector`` to each of ``items`` (its best chunk): the semantic
        evidence for candidates another retriever found. Items without rows are left out."""
        if not items:
            return {}
        try:
            signs = self._current_signs()
            if signs is not None:
                return signs.similarities(vector, items)
            snap = self._current_snapshot()
            if snap is not None:
                return snap.similarities(vector, items)
            return lance_table.similarities(self.table(), vector, items, self.dim)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector lookup failed: {exc}") from None

    def _current_signs(self) -> SignCopy | None:
        """The sign copy at the table's committed state, if one was saved there."""
        if not self.sign_search:
            return None
        stamp = table_stamp(self._table_dir)
        signs = self._signs
        if signs is not None and signs.stamp == stamp:
            return signs
        self._signs = None
        if stamp is not None and SignCopy.saved_at(self._signs_dir, stamp):
            self._signs = SignCopy.load(self._signs_dir, stamp, self.dim)
        return self._signs

    def search_path(self) -> str:
        """Which copy a search reads now (for health)."""
        if self._current_signs() is not None:
            return "the sign copy"
        if self._current_snapshot() is not None:
            return "the exact copy"
        if self.sign_search:
            return "LanceDB (a scan of every row) until the embed job builds the sign copy"
        return "LanceDB's index"

    def refresh_signs(self, rows: int | None = None) -> dict[str, Any]:
        """Build the sign copy if the table is past the exact copy's size and has none
        at its current state, or build it again once it has outgrown the rows it was
        made for or scans mostly dead rows (the index job): what was done. ``rows``:
        the table's count, when the caller has just read it (a build that finds
        another count gives up: the next run)."""
        if not self.sign_search:
            return {"signs": "off"}
        table = self.table()
        rows = int(table.count_rows()) if rows is None else rows
        stamp = table_stamp(self._table_dir)
        if rows <= self.exact_max_rows or stamp is None:
            return {"signs": "none (exact copy)"}
        signs = self._current_signs()
        why = signs.outgrown() if signs is not None else None
        if signs is not None and why is None:
            return {"signs": "current", "probes": signs.probes, "shortlist": signs.shortlist}
        sign_build.discard_builds(self._signs_dir, older_than_s=3600)
        built = sign_build.build(table, self._signs_dir, stamp, self.dim, rows)
        if built is None:
            return {"signs": "table changed while building: next run"}
        signs, work = built
        with self.writing():
            if table_stamp(self._table_dir) != stamp:
                shutil.rmtree(work, ignore_errors=True)
                return {"signs": "table changed while building: next run"}
            sign_build.adopt(signs, work, self._signs_dir)
        self._signs = signs
        return {
            "signs": "built" if why is None else f"built again ({why})",
            "rows": len(signs),
            "cells": 0 if signs.centroids is None else len(signs.centroids),
            "probes": signs.probes,
            "shortlist": signs.shortlist,
            "recall": signs.recall,
        }

    def _current_snapshot(self) -> Snapshot | None:
        stamp = table_stamp(self._table_dir)
        snap = self._snapshot
        if snap is not None and snap.stamp == stamp:
            return snap if len(snap) <= self.exact_max_rows else None
        self._snapshot = None
        if stamp is None:  # no table yet (or it vanished): table() creates one
            self.table()
            stamp = table_stamp(self._table_dir)
            if stamp is None:
                return None
        snap = Snapshot.load(self._snapshot_dir, stamp, self.dim, self.whiten_min_rows)
        if snap is None:
            snap = self._read_snapshot(stamp)
            if snap is None:
                return None
        self._snapshot = snap
        return snap

    def _read_snapshot(self, stamp: str) -> Snapshot | None:
        """The exact copy read from the table, or None past ``exact_max_rows``.
        Read after taking the stamp: a commit in between makes the data newer than its
        stamp, which only costs one more reload. Saved when this process closes, not
        now: each save would hold the other writers' lock."""
        if self.table().count_rows() > self.exact_max_rows:
            return None
        try:
            # One version for every page: this handle sees other writers' commits
            # between two reads (read_consistency_interval 0), a checked-out one not.
            pinned = self._db.open_table(TABLE)
            pinned.checkout(pinned.version)
            rows = int(pinned.count_rows())
            pages = lance_table.scan_pages(pinned, [*COLUMNS, "vector"], rows)
            snap = Snapshot.from_pages(stamp, pages, rows, self.dim, self.whiten_min_rows)
        except Exception as exc:
            raise DerivedTierError(f"cannot read vectors: {exc}") from None
        return snap  # None only if a pinned version's pages miscount: LanceDB searches

    def save_snapshot(self) -> None:
        """Save the in-memory copy if it changed and is still current (derived state:
        a failed save only means the next process reads the table)."""
        snap = self._snapshot
        if snap is None or not snap.dirty or not self._table_dir.is_dir():
            return
        snap.fit_projection()  # and the whitening first; before the writers' lock
        with contextlib.suppress(OSError), self.writing():
            if table_stamp(self._table_dir) == snap.stamp:
                snap.save(self._snapshot_dir)

    def close(self) -> None:
        self.save_snapshot()

    def _lance_search(
        self, vector: np.ndarray, owner: Owner, limit: int, kinds: tuple[str, ...]
    ) -> list[VectorHit]:
        tuned = ann_index.load_settings(self)
        return lance_table.search(self.table(), vector, owner, limit, kinds, tuned)

    def small_fragments(self) -> int:
        """How many small data fragments the table has (each write adds one)."""
        try:
            stats = self.table().stats()
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"cannot read vector table stats: {exc}") from None
        frag = stats.get("fragment_stats", {}) if isinstance(stats, dict) else {}
        return int(frag.get("num_small_fragments", 0))

    def optimize(self, *, keep_versions_for: timedelta = timedelta(hours=1)) -> None:
        """Compact fragments and drop table versions older than ``keep_versions_for``
        (long enough that no reader in another process still uses them)."""
        try:
            table = self.table()
            with self.rewriting():
                table.optimize(cleanup_older_than=keep_versions_for)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector table compaction failed: {exc}") from None

    def _restamp(self, before: str | None, after: str | None) -> None:
        """Compaction changes the table's versions, not its rows: the copy stays."""
        if before is None or after is None or before == after:
            return
        if self._snapshot is not None and self._snapshot.stamp == before:
            self._snapshot.stamp = after
            self._snapshot.dirty = True
        else:
            Snapshot.rename(self._snapshot_dir, before, after)
        SignCopy.rename(self._signs_dir, before, after)
        if self._signs is not None and self._signs.stamp == before:
            self._signs.stamp = after

    def count(self) -> int:
        try:
            return int(self.table().count_rows())
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"cannot count vectors: {exc}") from None

    def row_keys(self, *, from_copy: bool = False) -> list[tuple[str, str]]:
        """(chunk id, item uuid) of every row. ``from_copy``: from the exact-search copy
        when it is current (no LanceDB at all: `stats` in a fresh process answers in
        well under a second); a health check reads the table itself."""
        if from_copy and table_stamp(self._table_dir) is not None:
            signs = self._current_signs()
            if signs is not None:
                return signs.row_keys()
            snap = self._current_snapshot()
            if snap is not None:
                ids, items = snap.cols["id"], snap.cols["item_uuid"]
                return [(str(a), str(b)) for a, b in zip(ids, items, strict=True)]
        try:
            return lance_table.row_keys(self.table())
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"cannot read vectors: {exc}") from None
