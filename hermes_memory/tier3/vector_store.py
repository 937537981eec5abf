"""The LanceDB table of tier 3: one row per chunk of a tier-2 item, with its vector.

Derived state only: every row names the tier-2 item it came from
(``kind``/``item_uuid``), so the table can be dropped and rebuilt at any time.
"""

from __future__ import annotations

import contextlib
import fcntl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
from threadpoolctl import ThreadpoolController

from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2.records import Owner

TABLE = "memory"


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


@dataclass(frozen=True)
class VectorHit:
    kind: str
    item_uuid: str
    chunk: int
    text: str
    similarity: float  # cosine similarity in [-1, 1]


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


_FILTER_COLUMNS = ("platform", "agent", "user_id", "session_key", "kind")
# OpenBLAS worker threads keep spinning after a matrix product and starve the torch
# threads embedding the next query (measured: 14 ms -> 26 ms per query on 2 cores);
# one scan of 10k x 384 takes under 1 ms on a single thread anyway.
_BLAS = ThreadpoolController()


@dataclass
class _Snapshot:
    """The whole table in memory at one table version, for exact search."""

    version: int
    meta: pa.Table
    vectors: np.ndarray
    columns: dict[str, np.ndarray]  # the filter columns, as object arrays
    rows: dict[tuple[Any, ...], np.ndarray]  # (owner..., kinds) -> row numbers


class VectorStore:
    """One LanceDB table. Up to ``exact_max_rows`` rows, search is an exact scan of an
    in-memory copy that is reloaded whenever the table version moves (any process's
    write); above that, LanceDB searches the table itself."""

    def __init__(self, path: Path, dim: int, *, exact_max_rows: int = 200_000) -> None:
        self.path = Path(path)
        self.dim = dim
        self.exact_max_rows = exact_max_rows
        self._table: Any = None
        self._snapshot: _Snapshot | None = None
        self._conn: Any = None
        self._open_lock = threading.Lock()
        # Set when this process had to create the table: if an index had been built
        # before, the table vanished (deleted by hand, lost with a disk).
        self.created = False
        self._rebuilding = False

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
        """Connected already (the first connection imports LanceDB: ~2 s)."""
        return self._conn is not None

    def open(self) -> None:
        """Connect and open the table now (for example from a warm-up thread)."""
        self.table()

    def table(self) -> Any:
        if self._table is None:
            try:
                if TABLE in self._tables():
                    table = self._db.open_table(TABLE)
                    field = table.schema.field("vector")
                    if field.type.list_size != self.dim:
                        raise DerivedTierError(
                            f"vector table has dimension {field.type.list_size}, "
                            f"the embedder {self.dim}: rebuild it"
                        )
                    self._table = table
                else:
                    self._table = self._db.create_table(TABLE, schema=schema(self.dim))
                    self.created = not self._rebuilding
                    self._rebuilding = False
            except DerivedTierError:
                raise
            except Exception as exc:
                raise DerivedTierError(f"cannot open vector table: {exc}") from None
        return self._table

    def _tables(self) -> list[str]:
        listing = self._db.list_tables()
        return list(getattr(listing, "tables", listing))

    def reset(self) -> None:
        """Drop the table (a rebuild starts from nothing)."""
        try:
            if TABLE in self._tables():
                self._db.drop_table(TABLE)
        except Exception as exc:
            raise DerivedTierError(f"cannot drop vector table: {exc}") from None
        self._table = None
        self._snapshot = None
        self._rebuilding = True  # the next table is created on purpose

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
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

    def upsert(self, rows: list[dict[str, Any]], vectors: np.ndarray) -> None:
        """Replace every chunk of the items in ``rows`` with the given ones."""
        if not rows:
            return
        items = sorted({r["item_uuid"] for r in rows})
        data = [{**r, "vector": vectors[i].tolist()} for i, r in enumerate(rows)]
        try:
            table = self.table()
            with self._writing():
                self._delete_items(table, items)
                table.add(data)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector write failed: {exc}") from None

    def delete(self, item_uuids: list[str]) -> None:
        if item_uuids:
            try:
                table = self.table()
                with self._writing():
                    self._delete_items(table, item_uuids)
            except DerivedTierError:
                raise
            except Exception as exc:
                raise DerivedTierError(f"vector delete failed: {exc}") from None

    @staticmethod
    def _delete_items(table: Any, items: list[str]) -> None:
        for start in range(0, len(items), 500):
            part = ", ".join(_quote(i) for i in items[start : start + 500])
            table.delete(f"item_uuid IN ({part})")

    def search(
        self, vector: np.ndarray, owner: Owner, *, limit: int, kinds: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        try:
            snap = self._current_snapshot()
            if snap is not None:
                return self._exact(snap, vector, owner, limit, kinds)
            return self._lance_search(vector, owner, limit, kinds)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector search failed: {exc}") from None

    def _current_snapshot(self) -> _Snapshot | None:
        table = self.table()
        version = int(table.version)
        if self._snapshot is not None and self._snapshot.version == version:
            return self._snapshot
        self._snapshot = None
        if table.count_rows() > self.exact_max_rows:
            return None
        data = table.to_arrow()
        flat = data.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        raw = np.asarray(flat, dtype=np.float32).reshape(-1, self.dim)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        vectors = (raw / np.where(norms == 0, 1.0, norms)).astype(np.float32)
        columns = {c: np.asarray(data.column(c).to_pylist(), dtype=object) for c in _FILTER_COLUMNS}
        self._snapshot = _Snapshot(version, data.drop_columns(["vector"]), vectors, columns, {})
        return self._snapshot

    def _exact(
        self, snap: _Snapshot, vector: np.ndarray, owner: Owner, limit: int, kinds: tuple[str, ...]
    ) -> list[VectorHit]:
        key = (owner.platform, owner.agent, owner.user_id, owner.session, kinds)
        rows = snap.rows.get(key)
        if rows is None:
            col = snap.columns
            mask = (
                (col["platform"] == owner.platform)
                & (col["agent"] == owner.agent)
                & (col["user_id"] == owner.user_id)
                & ((col["session_key"] == "") | (col["session_key"] == owner.session))
            )
            if kinds:
                mask &= np.isin(col["kind"], list(kinds))
            rows = snap.rows[key] = np.flatnonzero(mask)
        if rows.size == 0:
            return []
        q = np.asarray(vector, dtype=np.float32)
        q = q / (np.linalg.norm(q) or 1.0)
        with _BLAS.limit(limits=1, user_api="blas"):
            sims = (snap.vectors @ q)[rows]  # one pass over all rows beats copying the subset
        k = min(limit, rows.size)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        picked = snap.meta.take(pa.array(rows[top]))
        cols = {c: picked.column(c).to_pylist() for c in ("kind", "item_uuid", "chunk", "text")}
        return [
            VectorHit(
                cols["kind"][i],
                cols["item_uuid"][i],
                cols["chunk"][i],
                cols["text"][i],
                float(sims[top[i]]),
            )
            for i in range(k)
        ]

    def _lance_search(
        self, vector: np.ndarray, owner: Owner, limit: int, kinds: tuple[str, ...]
    ) -> list[VectorHit]:
        where = (
            f"platform = {_quote(owner.platform)} AND agent = {_quote(owner.agent)} "
            f"AND user_id = {_quote(owner.user_id)} "
            f"AND session_key IN ('', {_quote(owner.session)})"
        )
        if kinds:
            where += f" AND kind IN ({', '.join(_quote(k) for k in kinds)})"
        result = (
            self.table()
            .search(vector.tolist())
            .metric("cosine")
            .where(where, prefilter=True)
            .limit(limit)
            .to_list()
        )
        return [
            VectorHit(r["kind"], r["item_uuid"], r["chunk"], r["text"], 1.0 - float(r["_distance"]))
            for r in result
        ]

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
            with self._writing():
                table.optimize(cleanup_older_than=keep_versions_for)
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"vector table compaction failed: {exc}") from None

    def count(self) -> int:
        try:
            return int(self.table().count_rows())
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"cannot count vectors: {exc}") from None

    def row_keys(self) -> list[tuple[str, str]]:
        """(chunk id, item uuid) of every row."""
        try:
            tbl = self.table().to_arrow().select(["id", "item_uuid"])
        except DerivedTierError:
            raise
        except Exception as exc:
            raise DerivedTierError(f"cannot read vectors: {exc}") from None
        ids = tbl.column("id").to_pylist()
        items = tbl.column("item_uuid").to_pylist()
        return [(str(a), str(b)) for a, b in zip(ids, items, strict=True)]
