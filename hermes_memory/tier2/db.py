"""The SQLite connection: WAL, busy handling, nestable transactions, one lock.

One ``Database`` per process-side user. The connection is shared between the
threads of that user (Hermes calls prefetch and sync_turn from different threads)
under one re-entrant lock; other processes coordinate through SQLite itself
(WAL readers never block, writers take ``BEGIN IMMEDIATE`` with a busy timeout
and a bounded retry), so no "database is locked" reaches a caller under normal
contention.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from hermes_memory.errors import StorageError

_LOCK_RETRIES = 8


def _is_busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class Database:
    """A SQLite database file with the schema migrated to the current version."""

    def __init__(
        self, path: Path | str, *, busy_timeout_ms: int = 10_000, wal: bool = True
    ) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._depth = 0
        self._plain = False  # see without_savepoints
        self._uncounted = 0  # changes left out of generation()
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            self._conn = sqlite3.connect(
                str(self.path),
                timeout=busy_timeout_ms / 1000,
                isolation_level=None,  # we issue BEGIN/COMMIT ourselves
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open {self.path}: {exc}", path=str(self.path)) from None
        self._conn.row_factory = sqlite3.Row
        try:
            self._setup(busy_timeout_ms, wal)
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StorageError(
                f"{self.path} is not a readable memory database ({exc}); `hermes-memory "
                "restore ARCHIVE --force` replaces it from a backup (the damaged file is "
                "kept beside it)",
                path=str(self.path),
                corrupt=True,
            ) from None

    def _setup(self, busy_timeout_ms: int, wal: bool) -> None:
        self._retry(lambda: self._conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}"))
        if wal:
            mode = self._retry(lambda: self._conn.execute("PRAGMA journal_mode = WAL").fetchone())
            if mode is None or str(mode[0]).lower() != "wal":
                raise StorageError(f"cannot enable WAL on {self.path}", path=str(self.path))
        # NORMAL under WAL: a committed transaction survives a process crash; only an
        # OS crash or power loss can roll back the last commits (never corrupt).
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute("PRAGMA temp_store = MEMORY")
        self._conn.execute("PRAGMA cache_size = -32000")
        if self.path.exists():
            with contextlib.suppress(OSError):
                os.chmod(self.path, 0o600)

        from hermes_memory.tier2.migrations import migrate

        migrate(self)

    # -- lifecycle ----------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA optimize")
            self._conn.close()

    def vacuum(self) -> None:
        """Rewrite the file without its free pages (waits for other writers)."""
        with self._lock:
            if self._depth:
                raise StorageError("cannot vacuum inside a transaction")
            try:
                self._retry(lambda: self._conn.execute("VACUUM"))
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                raise StorageError(f"vacuum failed: {exc}", path=str(self.path)) from None

    # -- whole-database copies ------------------------------------------------------
    def backup_to(self, path: Path) -> None:
        """Copy the database as of one moment to ``path`` with SQLite's online backup
        (other processes keep writing; the copy holds only committed transactions)."""
        with self._lock:
            if self._depth:
                raise StorageError("cannot back up inside a transaction")
            target = sqlite3.connect(str(path))
            try:
                self._retry(lambda: self._conn.backup(target))
            except sqlite3.Error as exc:
                raise StorageError(f"backup failed: {exc}", path=str(path)) from None
            finally:
                target.close()

    def restore_from(self, path: Path) -> None:
        """Replace the whole content with that of the database file ``path`` (read
        only), through the backup API: other connections see the restored state,
        and a failure leaves the current content in place."""
        from hermes_memory.tier2.migrations import migrate

        with self._lock:
            if self._depth:
                raise StorageError("cannot restore inside a transaction")
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                self._retry(lambda: source.backup(self._conn))
            except sqlite3.Error as exc:
                raise StorageError(f"restore failed: {exc}", path=str(path)) from None
            finally:
                source.close()
        migrate(self)  # an older backup is brought up to the current schema

    # -- transactions -------------------------------------------------------------
    @contextlib.contextmanager
    def without_savepoints(self) -> Iterator[None]:
        """Within an open transaction, nested ``transaction()`` blocks take no
        SAVEPOINT (unless asked): a bulk writer whose every failure rolls back an
        enclosing block anyway. Each savepoint makes FTS5 flush its pending terms to a
        new segment (and merge), which cost ~30% of a bulk import."""
        with self._lock:
            if self._depth == 0:
                raise StorageError("without_savepoints needs an open transaction")
            before, self._plain = self._plain, True
            try:
                yield
            finally:
                self._plain = before

    @contextlib.contextmanager
    def transaction(self, *, savepoint: bool = False) -> Iterator[sqlite3.Connection]:
        """All-or-nothing: BEGIN IMMEDIATE outermost, SAVEPOINT when nested (inside
        ``without_savepoints`` only with ``savepoint=True``)."""
        with self._lock:
            if self._depth and self._plain and not savepoint:
                self._depth += 1
                try:
                    yield self._conn
                finally:
                    self._depth -= 1
                return
            if self._depth == 0:
                try:
                    self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))
                except sqlite3.Error as exc:
                    raise StorageError(
                        f"database busy: another writer held it past the retry budget ({exc})",
                        path=str(self.path),
                        busy=True,
                    ) from None
                self._depth = 1
                try:
                    yield self._conn
                    self._retry(lambda: self._conn.execute("COMMIT"))
                except BaseException as exc:
                    with contextlib.suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                    if isinstance(exc, sqlite3.Error):
                        raise StorageError(f"write failed and was rolled back: {exc}") from exc
                    raise
                finally:
                    self._depth = 0
            else:
                name = f"sp{self._depth}"
                self._conn.execute(f"SAVEPOINT {name}")
                self._depth += 1
                try:
                    yield self._conn
                    self._conn.execute(f"RELEASE {name}")
                except BaseException:
                    self._conn.execute(f"ROLLBACK TO {name}")
                    self._conn.execute(f"RELEASE {name}")
                    raise
                finally:
                    self._depth -= 1

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A consistent read view over several statements (a deferred read txn)."""
        with self._lock:
            if self._depth:
                yield self._conn
                return
            self._conn.execute("BEGIN")
            self._depth = 1
            try:
                yield self._conn
            finally:
                self._depth = 0
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("COMMIT")

    # -- statements ---------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._retry(lambda: self._conn.execute(sql, params).fetchall())
            except sqlite3.Error as exc:
                raise StorageError(f"query failed: {exc}", sql=sql.split()[0]) from None

    def generation(self) -> tuple[int, int]:
        """A value that changes whenever anything in the database does: SQLite's
        ``data_version`` (commits by other connections) and this connection's own
        ``total_changes`` (less those declared :meth:`uncounted`). For caching reads
        across recalls."""
        with self._lock:
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            return version, int(self._conn.total_changes) - self._uncounted

    def uncounted(self, changes: int) -> None:
        """Leave ``changes`` this connection just made out of :meth:`generation`:
        bookkeeping no cached read depends on (a recall counting its accesses)."""
        with self._lock:
            self._uncounted += changes

    def query_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.query_one(sql, params)
        return None if row is None else row[0]

    def _retry(self, op: Any) -> Any:
        """Run ``op``; on a busy/locked error wait with jittered backoff and retry."""
        delay = 0.01
        for attempt in range(_LOCK_RETRIES):
            try:
                return op()
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or attempt == _LOCK_RETRIES - 1:
                    raise
                time.sleep(delay * (1 + random.random()))
                delay = min(delay * 2, 1.0)
        raise AssertionError("unreachable")
