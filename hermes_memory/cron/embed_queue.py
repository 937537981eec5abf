"""The embed job: drain the tier-3 outbox in batches, with retries and poison marks.

Writes through the API embed inline; this job catches up on what bulk imports
left in the outbox and on what failed inline (LanceDB or the model was down).
A failing item is retried with exponential backoff and marked ``poison`` after
``MAX_ATTEMPTS`` tries, so one bad row never blocks the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.errors import DerivedTierError
from hermes_memory.tier2 import health
from hermes_memory.tier3 import ann_index
from hermes_memory.tier3.semantic import CALL_ROWS

if TYPE_CHECKING:
    from hermes_memory.api.maintenance import Maintenance

# Small fragments slow LanceDB reads; compact once this many have piled up.
COMPACT_AFTER_FRAGMENTS = 64


def run(m: Maintenance, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("embed_queue")
    if m.semantic is None:
        report.notes.append("tier 3 is disabled (tier3.enabled: false)")
        return report.done()
    semantic = m.semantic
    if semantic.embedder_changed():
        report.notes.append("the embedder changed: the vector table was rebuilt from SQLite")
        counts = semantic.rebuild()
        report.add("rebuilt_items", counts["items"])
        return report.done()
    budget = m.config.limits.max_embedding_queue
    pending = min(budget, health.queue_depth(m.db)["pending"])
    step = CALL_ROWS
    with progress.stage("embed queue", pending) as advance:
        while budget > 0:
            drained = semantic.drain(limit=min(step, budget))
            handled = drained.indexed + drained.deleted + drained.failed
            report.add("indexed", drained.indexed)
            report.add("deleted", drained.deleted)
            report.add("failed", drained.failed)
            if drained.errors:
                report.notes.append(drained.errors[-1])
            advance(handled)
            budget -= handled
            if handled == 0 or drained.failed:
                break  # nothing due, or the tier is failing: retry on the next run
    depth = health.queue_depth(m.db)
    report.add("still_pending", depth["pending"])
    report.add("poison", depth["poison"])
    if depth["poison"]:
        report.notes.append(
            f"{depth['poison']} item(s) failed {semantic.max_attempts} times and are parked "
            "(poison); `hermes-memory repair` retries them"
        )
    try:
        if semantic.store.small_fragments() >= COMPACT_AFTER_FRAGMENTS:
            semantic.store.optimize()
            report.add("compacted", 1)
    except DerivedTierError as exc:
        report.notes.append(f"compaction skipped: {exc}")
    try:
        # Past the exact-search size: build, tune or extend the vector index.
        done = ann_index.ensure(semantic.store)
        if done["action"] != "none":
            report.add(f"vector_index_{done['action']}", 1)
            report.notes.append(f"vector index {done['action']}: {done}")
    except DerivedTierError as exc:
        report.notes.append(f"vector index skipped: {exc}")
    return report.done()
