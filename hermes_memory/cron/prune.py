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

from typing import TYPE_CHECKING, Any

from hermes_memory.cron import ledger
from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2 import upkeep

if TYPE_CHECKING:
    from hermes_memory.api.maintenance import Maintenance

ACTOR = "cron:prune"
BATCH = 500
DAY = 86_400.0
VACUUM_FREE_SHARE = 0.2
VACUUM_MIN_BYTES = 1024 * 1024


def run(m: Maintenance, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("prune")
    dropped: list[str] = []  # items whose vectors go
    _archive_facts(m, now, progress, report, dropped)
    _unindex_old_turns(m, now, progress, report, dropped)
    if m.semantic is not None:
        # Only the deletes this run queued: embedding the backlog is the embed job's.
        drained = m.semantic.drain(items=dropped)
        report.add("vectors_dropped", drained.deleted)
        try:
            m.semantic.store.optimize()
            report.add("vector_table_compacted")
        except DerivedTierError as exc:
            report.notes.append(f"vector compaction skipped: {exc}")
    report.add("ledger_rows_trimmed", ledger.trim(m.db))
    _vacuum_if_worthwhile(m, report)
    return report.done()


def _archive_facts(
    m: Maintenance, now: float, progress: Progress, report: JobReport, dropped: list[str]
) -> None:
    limits = m.config.limits
    due = {
        "now": now,
        "importance_below": limits.ttl_importance_below,
        "stale_before": now - limits.fact_ttl_days * DAY,
    }
    rows = upkeep.facts_due_for_archive(m.db, **due)

    def reason(r: Any) -> str:
        if r["expires_at"] is not None and r["expires_at"] <= now:
            return "expired"
        return f"unused for {limits.fact_ttl_days:g} days"

    with progress.stage("archive facts", len(rows)) as advance:
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            done = upkeep.archive_facts(m.db, part, actor=ACTOR, reason=reason, **due)
            dropped.extend(done)
            if done:
                report.add("facts_archived", len(done))
            advance(len(part))


def _unindex_old_turns(
    m: Maintenance, now: float, progress: Progress, report: JobReport, dropped: list[str]
) -> None:
    cutoff = now - m.config.limits.session_index_max_age_days * DAY
    rows = upkeep.turns_to_unindex(m.db, stored_before=cutoff)
    with progress.stage("thin session index", len(rows)) as advance:
        for start in range(0, len(rows), BATCH):
            part = rows[start : start + BATCH]
            done = upkeep.unindex_turns(m.db, part, now=now)
            dropped.extend(done)
            report.add("turns_unindexed", len(done))
            advance(len(part))


def _vacuum_if_worthwhile(m: Maintenance, report: JobReport) -> None:
    pages, free, size = upkeep.free_space(m.db)
    if pages and free / pages >= VACUUM_FREE_SHARE and free * size >= VACUUM_MIN_BYTES:
        m.db.vacuum()
        report.add("vacuumed_bytes", free * size)
    else:
        report.notes.append(f"no vacuum: {free:,} of {pages:,} pages free")
