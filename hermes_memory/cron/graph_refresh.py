"""The graph job: bring every owner's graph in step with SQLite, check it, analyse it.

Incremental by default (pull rows changed since the graph's sequence number); a
full rebuild when the graph is marked ``needs_repair``, when its last rebuild is
older than ``graph.auto_rebuild_interval_hours``, or when, after the sync, its
node and edge counts differ from SQLite truth. Centrality and communities are
recomputed and their summary recorded in the graph's health row.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from hermes_memory.cron.progress import QUIET, Progress
from hermes_memory.cron.report import JobReport
from hermes_memory.graph.knowledge_graph import KnowledgeGraph, graph_owners
from hermes_memory.tier2 import health
from hermes_memory.tier2.records import Owner

if TYPE_CHECKING:
    from hermes_memory.api.maintenance import Maintenance

TOP_CENTRAL = 10


def run(m: Maintenance, now: float, progress: Progress = QUIET) -> JobReport:
    report = JobReport("graph_refresh")
    if not m.config.graph.enabled:
        report.notes.append("the graph is disabled (graph.enabled: false)")
        return report.done()
    recorded = health.derived_status(m.db).get("graph", {})
    last_rebuild = float(recorded.get("rebuilt_at") or 0.0)
    overdue = now - last_rebuild >= m.config.graph.auto_rebuild_interval_hours * 3600
    broken = recorded.get("status") in ("needs_repair", "rebuilding")
    owners = graph_owners(m.db)
    mine = Owner(m.owner.platform, m.owner.agent, m.owner.user_id)
    if mine not in owners:
        owners.append(mine)
    summary: dict[str, Any] = {}
    with progress.stage("graphs", len(owners)) as advance:
        for owner in owners:
            graph = m.graph(owner)
            if overdue or broken:
                graph.rebuild()
                report.add("rebuilt")
            else:
                changes = graph.sync()
                report.add("synced_changes", sum(changes.values()))
            truth = graph.truth_counts()
            held = {"nodes": graph.g.number_of_nodes(), "edges": graph.g.number_of_edges()}
            if truth != held:
                report.notes.append(
                    f"graph drifted from SQLite ({held} vs {truth}); rebuilt it from truth"
                )
                report.add("drift_repaired")
                graph.rebuild()
            if graph.dirty:
                graph.save()
            report.add("nodes", graph.g.number_of_nodes())
            report.add("edges", graph.g.number_of_edges())
            if owner == mine:
                summary = _analyse(m, graph, report)
                m.use_graph(graph)
            advance(1)
    report.add("graphs", len(owners))
    health.set_derived_status(
        m.db,
        "graph",
        "ok",
        now,
        rebuilt_at=now if (overdue or broken) else last_rebuild or now,
        refreshed_at=now,
        **summary,
    )
    return report.done()


def _analyse(m: Maintenance, graph: KnowledgeGraph, report: JobReport) -> dict[str, Any]:
    algorithm = m.config.graph.centrality_algorithm
    started = time.perf_counter()
    central = graph.central(algorithm, TOP_CENTRAL)
    communities = graph.communities(min_size=2)
    report.notes.append(
        f"{algorithm} centrality and {len(communities)} communities in "
        f"{time.perf_counter() - started:.2f}s"
    )
    if central:
        report.notes.append("most central: " + ", ".join(c["name"] for c in central[:5]))
    return {
        "central": [c["name"] for c in central],
        "centrality": algorithm,
        "communities": len(communities),
        "largest_communities": [c["size"] for c in communities[:5]],
    }
