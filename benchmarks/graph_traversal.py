"""Benchmark: knowledge-graph operations over N entities.

    python benchmarks/graph_traversal.py --nodes 10000 --queries 200

Builds a fresh profile of N entities and about 2N relations through the public API
(``entity_ensure`` / ``entity_link``) with a scale-free degree distribution (a few hubs,
many leaves: what people, services and technologies look like), then times the graph
from SQLite truth: a full rebuild, loading the saved cache in a fresh process-like
instance, ``graph_traverse`` at depth 3 from random entities (target: median < 30 ms),
``graph_shortest_path``, centrality and communities.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import networkx as nx

from hermes_memory import MemoryAPI, load_config, unwrap
from hermes_memory.graph.knowledge_graph import KnowledgeGraph

TYPES = ["person", "project", "tech", "org", "concept", "place"]
T = TypeVar("T")
RELATIONS = ["works_on", "depends_on", "uses", "knows", "part_of", "related_to", "owns"]


def build(api: MemoryAPI, n: int, rng: random.Random) -> list[str]:
    shape = nx.barabasi_albert_graph(n, 2, seed=rng.randrange(1 << 30))
    names = [f"{rng.choice(TYPES)}-{i:05d}" for i in range(n)]
    with api.db.transaction():
        for name in names:
            unwrap(api.entity_ensure(name, name.split("-")[0]))
        for u, v in shape.edges():
            strength = round(rng.uniform(0.3, 1.0), 2)
            unwrap(api.entity_link(names[u], names[v], rng.choice(RELATIONS), strength))
    return names


def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[float, T]:
    started = time.perf_counter()
    out = fn(*args, **kwargs)
    return (time.perf_counter() - started) * 1000, out


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[max(0, int(len(ordered) * 0.95) - 1)], 2),
        "max_ms": round(ordered[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    report: dict[str, Any] = {"nodes": args.nodes, "depth": args.depth}
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(Path(tmp), env={}, overrides={"tier3": {"enabled": False}})
        with MemoryAPI(cfg, actor="bench") as api:
            t0 = time.perf_counter()
            names = build(api, args.nodes, rng)
            report["ingest_s"] = round(time.perf_counter() - t0, 1)
            ms, built = timed(api.graph_rebuild)
            report["rebuild_ms"] = round(ms, 1)
            report["edges"] = unwrap(built)["edges"]
            graph = api.knowledge_graph
            assert graph is not None
            fresh = KnowledgeGraph(api.db, api.owner, graph.path.parent)
            ms, _ = timed(fresh.sync)
            report["load_cache_ms"] = round(ms, 1)
            starts = [rng.choice(names) for _ in range(args.queries)]
            api.graph_traverse(starts[0], depth=args.depth)  # warm (sync once)
            times, reached = [], []
            for name in starts:
                ms, env = timed(api.graph_traverse, name, depth=args.depth)
                times.append(ms)
                reached.append(len(unwrap(env)))
            report["traverse"] = {
                **summary(times),
                "reached_median": statistics.median(reached),
                "target": "median < 30 ms",
            }
            times = []
            for _ in range(args.queries):
                a, b = rng.sample(names, 2)
                ms, env = timed(api.graph_shortest_path, a, b)
                unwrap(env)
                times.append(ms)
            report["shortest_path"] = summary(times)
            for algorithm in ("degree", "pagerank", "betweenness"):
                ms, env = timed(api.graph_central_entities, 10, algorithm)
                unwrap(env)
                report[f"central_{algorithm}_ms"] = round(ms, 1)
            ms, env = timed(api.graph_communities)
            report["communities_ms"] = round(ms, 1)
            report["communities"] = len(unwrap(env))
    json.dump(report, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
