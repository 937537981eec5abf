"""The prune job: archive what expired, thin the session index, reclaim space.

- Facts whose ``expires_at`` has passed, and facts below
  ``limits.ttl_importance_below`` that nobody used or changed for
  ``limits.fact_ttl_days``, are archived: out of search, recall and the vector
  index, still readable by id, never deleted. Superseded facts are kept as they
  are: they are the history ``as_of`` recall answers from.
- Turns stored more than ``limits.session_index_max_age_days`` ago leave the
  vector index (the turn itself, its full text search and its evidence stay).
- SQLite is vacuumed when a fifth or more of its pages are free, the vector table
  is compacted, and the job ledger keeps the newest runs only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hermes_memory.cron import ledger
from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2 import journal

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

ACTOR = "cron:prune"
BATCH = 500
DAY = 86_400.0
VACUUM_FREE_SHARE = 0.2
VACUUM_MIN_BYTES = 1024 * 1024


def run(api: MemoryAPI, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("prune")
    dropped: list[str] = []  # items whose vectors go
    _archive_facts(api, now, progress, report, dropped)
    _unindex_old_turns(api, now, progress, report, dropped)
    if api.semantic is not None:
        # Only the deletes this run queued: embedding the backlog is the embed job's.
        drained = api.semantic.drain(items=dropped)
        report.add("vectors_dropped", drained.deleted)
        try:
            api.semantic.store.optimize()
            report.add("vector_table_compacted")
        except DerivedTierError as exc:
            report.notes.append(f"vector compaction skipped: {exc}")
    report.add("ledger_rows_trimmed", ledger.trim(api.db))
    _vacuum_if_worthwhile(api, report)
    return report.done()


def _archive_facts(
    api: MemoryAPI, now: float, progress: Progress, report: JobReport, dropped: list[str]
) -> None:
    limits = api.config.limits
    stale_before = now - limits.fact_ttl_days * DAY
    rows = api.db.query(
        """SELECT id, uuid, content, expires_at FROM facts
           WHERE deleted_at IS NULL AND is_archived = 0
             AND ((expires_at IS NOT NULL AND expires_at <= ?)
                  OR (importance < ? AND invalid_at IS NULL
                      AND MAX(created_at, updated_at, COALESCE(last_accessed, 0)) <= ?))""",
        (now, limits.ttl_importance_below, stale_before),
    )
    with progress.stage("archive facts", len(rows)) as advance:
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            with api.db.transaction() as conn:
                for r in part:
                    reason = (
                        "expired"
                        if r["expires_at"] is not None and r["expires_at"] <= now
                        else f"unused for {limits.fact_ttl_days:g} days"
                    )
                    # Re-checked in the write: a fact used or changed since the read stays.
                    cur = conn.execute(
                        """UPDATE facts SET is_archived = 1, archived_at = ?
                           WHERE id = ? AND deleted_at IS NULL AND is_archived = 0
                             AND ((expires_at IS NOT NULL AND expires_at <= ?)
                                  OR (importance < ? AND invalid_at IS NULL
                                      AND MAX(created_at, updated_at,
                                              COALESCE(last_accessed, 0)) <= ?))""",
                        (now, r["id"], now, limits.ttl_importance_below, stale_before),
                    )
                    if cur.rowcount != 1:
                        continue
                    journal.audit(
                        conn,
                        now=now,
                        action="fact_archive",
                        actor=ACTOR,
                        target_uuid=r["uuid"],
                        diff={"old": {"is_archived": False}, "new": {"is_archived": True},
                              "reason": reason},
                    )  # fmt: skip
                    journal.enqueue_embedding(
                        conn, now=now, kind="fact", item_uuid=r["uuid"], op="delete"
                    )
                    dropped.append(r["uuid"])
                    report.add("facts_archived")
            advance(len(part))


def _unindex_old_turns(
    api: MemoryAPI, now: float, progress: Progress, report: JobReport, dropped: list[str]
) -> None:
    cutoff = now - api.config.limits.session_index_max_age_days * DAY
    rows = api.db.query(
        "SELECT id, uuid FROM episodes WHERE created_at <= ? AND unindexed_at IS NULL "
        "AND deleted_at IS NULL",
        (cutoff,),
    )
    with progress.stage("thin session index", len(rows)) as advance:
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            with api.db.transaction() as conn:
                for r in part:
                    conn.execute(
                        "UPDATE episodes SET unindexed_at = ? "
                        "WHERE id = ? AND unindexed_at IS NULL",
                        (now, r["id"]),
                    )
                    journal.enqueue_embedding(
                        conn, now=now, kind="episode", item_uuid=r["uuid"], op="delete"
                    )
                    dropped.append(r["uuid"])
            report.add("turns_unindexed", len(part))
            advance(len(part))


def _vacuum_if_worthwhile(api: MemoryAPI, report: JobReport) -> None:
    pages = int(api.db.scalar("PRAGMA page_count") or 0)
    free = int(api.db.scalar("PRAGMA freelist_count") or 0)
    size = int(api.db.scalar("PRAGMA page_size") or 4096)
    if pages and free / pages >= VACUUM_FREE_SHARE and free * size >= VACUUM_MIN_BYTES:
        api.db.vacuum()
        report.add("vacuumed_bytes", free * size)
    else:
        report.notes.append(f"no vacuum: {free:,} of {pages:,} pages free")
