"""The graph methods of MemoryAPI: traversal, paths, centrality, communities, export.

The NetworkX graph is derived: every call first pulls what changed in SQLite since
the graph last looked (cheap when nothing did), so answers never lag the truth.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_memory.api.envelope import Envelope, run
from hermes_memory.errors import DerivedTierError, ValidationError
from hermes_memory.graph import export as graph_export
from hermes_memory.graph.knowledge_graph import CENTRALITY, KnowledgeGraph, export_filename
from hermes_memory.tier2 import health as tier2_health
from hermes_memory.tier2.entities import RELATION_NAME
from hermes_memory.validation import (
    require_choice,
    require_limit,
    require_output_outside,
    require_text,
)

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

EXPORT_FORMATS = ("graphml", "json", "html")
MAX_DEPTH = 5


def _require_enabled(api: MemoryAPI) -> None:
    if not api.config.graph.enabled:
        raise DerivedTierError("the graph is disabled (graph.enabled: false)")


def ready(api: MemoryAPI) -> KnowledgeGraph:
    """The profile's graph, loaded or rebuilt on first use and synced with SQLite."""
    _require_enabled(api)
    if api.knowledge_graph is None:
        api.knowledge_graph = KnowledgeGraph(api.db, api.owner, api.config.graph_path)
    graph = api.knowledge_graph
    try:
        graph.sync()
    except DerivedTierError:
        raise
    except Exception as exc:  # derived state: say so and let repair rebuild it
        tier2_health.set_derived_status(
            api.db, "graph", "needs_repair", api.clock(), error=str(exc)
        )
        raise DerivedTierError(f"the graph could not be brought up to date: {exc}") from exc
    if graph.g.number_of_nodes() > api.config.graph.max_nodes:
        raise DerivedTierError(
            f"the graph has {graph.g.number_of_nodes():,} entities, over graph.max_nodes "
            f"({api.config.graph.max_nodes:,})"
        )
    return graph


def traverse(
    api: MemoryAPI,
    start: str,
    depth: int,
    relation_filter: str | Sequence[str] | None,
    include_invalid: bool,
) -> Envelope:
    def work() -> list[dict[str, Any]]:
        name = require_text(start, "start_entity", max_chars=200)
        hops = require_limit(depth, "depth", maximum=MAX_DEPTH)
        filters = _relations(relation_filter)
        return ready(api).traverse(name, hops, filters, include_invalid=include_invalid)

    return run("graph", ["graph"], work)


def shortest_path(api: MemoryAPI, source: str, target: str) -> Envelope:
    def work() -> tuple[Any, dict[str, Any]]:
        a = require_text(source, "from_entity", max_chars=200)
        b = require_text(target, "to_entity", max_chars=200)
        path = ready(api).shortest_path(a, b)
        return path, {"connected": bool(path), "hops": max(0, len(path) - 1)}

    return run("graph", ["graph"], work)


def central(api: MemoryAPI, limit: int, algorithm: str | None) -> Envelope:
    def work() -> tuple[Any, dict[str, Any]]:
        algo = require_choice(
            algorithm or api.config.graph.centrality_algorithm, "algorithm", CENTRALITY
        )
        return ready(api).central(algo, require_limit(limit)), {"algorithm": algo}

    return run("graph", ["graph"], work)


def communities(api: MemoryAPI, min_size: int) -> Envelope:
    def work() -> tuple[Any, dict[str, Any]]:
        found = ready(api).communities(min_size=require_limit(min_size, "min_size"))
        return found, {"algorithm": "louvain"}

    return run("graph", ["graph"], work)


def rebuild(api: MemoryAPI) -> Envelope:
    def work() -> dict[str, Any]:
        _require_enabled(api)
        started = time.perf_counter()
        tier2_health.set_derived_status(api.db, "graph", "rebuilding", api.clock())
        api.knowledge_graph = KnowledgeGraph(api.db, api.owner, api.config.graph_path)
        try:
            counts = api.knowledge_graph.rebuild()
        except Exception as exc:
            tier2_health.set_derived_status(
                api.db, "graph", "needs_repair", api.clock(), error=str(exc)
            )
            raise DerivedTierError(f"graph rebuild failed: {exc}") from exc
        seconds = round(time.perf_counter() - started, 3)
        tier2_health.set_derived_status(
            api.db, "graph", "ok", api.clock(), rebuilt_at=api.clock(), **counts
        )
        return {**counts, "seconds": seconds, "path": str(api.knowledge_graph.path)}

    return run("graph", ["tier2", "graph"], work)


def export(api: MemoryAPI, fmt: str, path: str | Path | None) -> Envelope:
    def work() -> dict[str, Any]:
        kind = require_choice(fmt, "format", EXPORT_FORMATS)
        graph = ready(api)
        default = graph.path.parent / "export" / export_filename(api.owner, kind)
        target = Path(path) if path else default
        cfg = api.config
        require_output_outside(
            target, [cfg.memory_dir, cfg.curated_dir], [default.parent, cfg.memory_dir / "backups"],
            "path",
        )  # fmt: skip
        written = graph_export.write(graph, kind, target, title=api.config.profile)
        return {"format": kind, "path": str(written), **graph_export.summary(graph, kind)}

    return run("graph", ["graph"], work)


def status(api: MemoryAPI) -> dict[str, Any]:
    """For stats/doctor: the recorded status plus live node/edge counts."""
    if not api.config.graph.enabled:
        return {"status": "disabled"}
    recorded = tier2_health.derived_status(api.db).get("graph", {})
    try:
        graph = ready(api)
    except DerivedTierError as exc:
        return {"status": "needs_repair", "error": str(exc)}
    state = recorded.get("status", "ok")
    truth = graph.truth_counts()
    drift = truth != {"nodes": graph.g.number_of_nodes(), "edges": graph.g.number_of_edges()}
    if state == "rebuilding" or drift:
        state = "needs_repair"
    return {"status": state, **graph.stats(), "truth": truth}


def _relations(value: str | Sequence[str] | None) -> list[str] | None:
    if value is None or value == "":
        return None
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for item in items:
        rel = require_text(item, "relation_filter", max_chars=41).strip().lower()
        if not RELATION_NAME.match(rel):
            raise ValidationError("must be snake_case relation names", field="relation_filter")
        out.append(rel)
    return out
