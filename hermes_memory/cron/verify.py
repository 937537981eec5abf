"""The verify job: is every derived tier in step with SQLite truth?

Checks schema, SQLite integrity and the FTS indexes, then counts truth against
the vector table (missing items, orphan vectors, duplicated rows) and against
each graph. It repairs nothing: drift marks the tier ``needs_repair`` so that
``doctor`` shows it and ``doctor --repair`` (or the next embed / graph job)
restores it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.errors import DerivedTierError
from hermes_memory.graph.knowledge_graph import graph_owners
from hermes_memory.tier2 import health

if TYPE_CHECKING:
    from hermes_memory.api.maintenance import Maintenance


def run(m: Maintenance, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("verify")
    with progress.stage("verify", 3) as advance:
        for check in health.check(m.db):
            if not check.ok:
                report.add("tier2_problems")
                report.notes.append(f"{check.name}: {check.detail}")
        advance(1)
        _vectors(m, report)
        advance(1)
        _graphs(m, now, report)
        advance(1)
    report.add("drift", sum(report.counts.get(k, 0) for k in _DRIFT))
    return report.done()


_DRIFT = (
    "tier2_problems",
    "vectors_missing",
    "vector_orphans",
    "vector_duplicates",
    "graph_node_drift",
    "graph_edge_drift",
)


def _vectors(m: Maintenance, report: JobReport) -> None:
    if m.semantic is None:
        return
    counts = m.semantic.counts()
    # Items waiting in the outbox are expected to be missing until the embed job runs:
    # they are pending, not drift.
    pending = health.queue_depth(m.db)["pending"]
    missing = max(counts["missing"] - pending, 0)
    if counts["vector_rows"] is None:
        report.add("vectors_missing", counts["truth_items"])
        report.notes.append("the vector table cannot be read")
    else:
        report.add("vectors_missing", missing)
        report.add("vectors_pending", min(pending, counts["missing"]))
        report.add("vector_orphans", counts["orphans"])
        report.add("vector_duplicates", counts["duplicates"])
    report.add("vector_rows", counts["vector_rows"] or 0)
    unexplained = missing + counts["orphans"] + counts["duplicates"]
    if unexplained and counts["status"] == "ok":
        m.semantic.mark(
            "needs_repair",
            last_error=f"verify: {counts['missing']} missing, {counts['orphans']} orphans, "
            f"{counts['duplicates']} duplicates",
        )
        report.notes.append("tier 3 drifted from truth: marked needs_repair")


def _graphs(m: Maintenance, now: float, report: JobReport) -> None:
    if not m.config.graph.enabled:
        return
    drifted = False
    for owner in graph_owners(m.db):
        graph = m.graph(owner)
        try:
            graph.sync()
        except (DerivedTierError, OSError, ValueError) as exc:
            report.notes.append(f"graph unreadable: {exc}")
            drifted = True
            continue
        truth = graph.truth_counts()
        node_gap = abs(truth["nodes"] - graph.g.number_of_nodes())
        edge_gap = abs(truth["edges"] - graph.g.number_of_edges())
        report.add("graph_node_drift", node_gap)
        report.add("graph_edge_drift", edge_gap)
        drifted = drifted or bool(node_gap or edge_gap)
    if drifted:
        health.set_derived_status(m.db, "graph", "needs_repair", now, error="verify: drift")
        report.notes.append("the graph drifted from truth: marked needs_repair")
