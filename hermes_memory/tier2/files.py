"""Whole database files: the checks a backup's database passes before a restore
uses it, and the row counts a backup's manifest records (``api/backup.py``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hermes_memory.errors import StorageError
from hermes_memory.tier2.db import Database
from hermes_memory.tier2.migrations import LATEST_VERSION, expected_schema, schema_objects

COUNTED = ("facts", "episodes", "entities", "relations", "timeline", "audit_log")


def _counts(conn: sqlite3.Connection, tables: tuple[str, ...] = COUNTED) -> dict[str, int]:
    return {t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in tables}


def table_counts(db: Database, tables: tuple[str, ...] = COUNTED) -> dict[str, int]:
    """Rows of each table (deleted and archived included), read at one moment."""
    with db.snapshot() as conn:
        return _counts(conn, tables)


def file_counts(path: Path) -> dict[str, int]:
    """Rows of each counted table of a database file, opened read-only."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return _counts(conn)
    finally:
        conn.close()


def check_file(path: Path) -> int:
    """Integrity-check a database file and its schema (exactly the objects its version's
    migrations create: a trigger or view added to an archive, its checksum recomputed,
    would otherwise run inside this memory); return its schema version."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
            version = int(
                conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0
            )
            found = schema_objects(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StorageError(f"the backup's database is unreadable: {exc}") from None
    if verdict != "ok":
        raise StorageError(f"the backup's database fails its integrity check: {verdict}")
    if 0 < version <= LATEST_VERSION:
        expected = expected_schema(version)
        extra = sorted(f"{t} {n}" for t, n in set(found) - set(expected))
        changed = sorted(f"{t} {n}" for (t, n), sql in expected.items() if found.get((t, n)) != sql)
        if extra or changed:
            raise StorageError(
                "the backup's database has a schema this hermes-memory did not make "
                f"(unexpected: {', '.join(extra) or '-'}; changed or missing: "
                f"{', '.join(changed) or '-'}); refusing to restore it"
            )
    return version
