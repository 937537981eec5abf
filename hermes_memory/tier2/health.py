"""Integrity checks of the SQLite store and its FTS indexes, and their repair."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from hermes_memory.tier2.db import Database
from hermes_memory.tier2.migrations import LATEST_VERSION, current_version
from hermes_memory.tier2.records import Owner

FTS_TABLES = ("facts_fts", "episodes_fts", "entities_fts", "timeline_fts")


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    repairable: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class HealthReport:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def check(db: Database) -> list[Check]:
    checks: list[Check] = []
    version = current_version(db)
    checks.append(
        Check("schema", version == LATEST_VERSION, f"version {version} (latest {LATEST_VERSION})")
    )
    quick = db.scalar("PRAGMA quick_check")
    checks.append(Check("sqlite_integrity", quick == "ok", str(quick)))
    for table in FTS_TABLES:
        checks.append(_fts_check(db, table))
    mode = db.scalar("PRAGMA journal_mode")
    checks.append(Check("wal", str(mode).lower() == "wal", f"journal_mode={mode}"))
    return checks


def _fts_check(db: Database, table: str) -> Check:
    try:
        with db.transaction() as conn:
            # 'integrity-check' with rank 1 also compares the index with the content table.
            conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
        return Check(f"fts:{table}", True, "index matches content", repairable=True)
    except Exception as exc:  # corrupt index surfaces as SQLITE_CORRUPT_VTAB
        cause = exc.__cause__ if isinstance(exc.__cause__, sqlite3.Error) else exc
        return Check(f"fts:{table}", False, f"index out of date: {cause}", repairable=True)


def rebuild_fts(db: Database) -> list[str]:
    """Rebuild every FTS index from its content table."""
    with db.transaction() as conn:
        for table in FTS_TABLES:
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
    return list(FTS_TABLES)


OWNED_TABLES = ("facts", "episodes", "entities", "relations", "timeline")


def owner_counts(db: Database, owner: Owner) -> dict[str, int]:
    """Live rows of each owned table that ``owner`` can see."""
    clause, params = owner.visible_clause()
    return {
        table: int(
            db.scalar(f"SELECT COUNT(*) FROM {table} WHERE deleted_at IS NULL AND {clause}", params)
        )
        for table in OWNED_TABLES
    }


def queue_depth(db: Database) -> dict[str, int]:
    rows = db.query("SELECT status, COUNT(*) AS n FROM embed_queue GROUP BY status")
    depth = {"pending": 0, "poison": 0}
    depth.update({r["status"]: r["n"] for r in rows})
    return depth


def derived_status(db: Database) -> dict[str, dict[str, Any]]:
    rows = db.query("SELECT name, status, detail, updated_at FROM derived_state")
    return {r["name"]: {"status": r["status"], **json.loads(r["detail"] or "{}")} for r in rows}


def set_derived_status(db: Database, name: str, status: str, now: float, **detail: Any) -> None:
    with db.transaction() as conn:
        conn.execute(
            "INSERT INTO derived_state(name, status, detail, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(name) DO UPDATE SET status = excluded.status, detail = excluded.detail, "
            "updated_at = excluded.updated_at",
            (name, status, json.dumps(detail, default=str), now),
        )
