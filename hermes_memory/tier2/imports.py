"""Import checkpoints: how far each source file has been imported, so an import cut
short resumes where it stopped (``api/bulk_import.py``)."""

from __future__ import annotations

import sqlite3

from hermes_memory.tier2.db import Database


def checkpoint(db: Database, source: str) -> tuple[str, int] | None:
    """(fingerprint, lines done) recorded for ``source``, or None."""
    row = db.query_one("SELECT fingerprint, lines_done FROM imports WHERE source = ?", (source,))
    return None if row is None else (str(row["fingerprint"]), int(row["lines_done"]))


def save_checkpoint(
    conn: sqlite3.Connection,
    source: str,
    *,
    fingerprint: str,
    lines_done: int,
    items: int,
    now: float,
) -> None:
    """Record, in the transaction that stored the lines, that ``source`` is imported
    up to ``lines_done`` (``items`` more facts and turns)."""
    conn.execute(
        """INSERT INTO imports(source, fingerprint, lines_done, items, updated_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(source) DO UPDATE SET fingerprint = excluded.fingerprint,
               lines_done = excluded.lines_done, items = items + excluded.items,
               updated_at = excluded.updated_at""",
        (source, fingerprint, lines_done, items, now),
    )
