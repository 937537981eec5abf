"""Benchmark: LanceDB's IVF index (the search path with ``tier3.sign_search`` off) as the
tuner leaves it, over many builds: LanceDB trains the partitions without a seed, so
each build differs, and the tuner must find settings that hold on queries it never saw.

    python benchmarks/ann_index.py                              # 20 builds, 4,000 rows, 32-d
    python benchmarks/ann_index.py --builds 100                 # the flake rate of the test
    python benchmarks/ann_index.py --rows 100000 --dim 384 --builds 3 --noise 1.2

Vectors sit around 40 (or ``--rows`` / 250) topics with Gaussian noise (``--noise`` per
dimension, against centres of unit variance), as memories do; uniform noise has no
neighbours to find. Each build writes the rows, runs ``ann_index.ensure`` (build and
tune), times ``ann_index.tune`` alone on the built index, and measures recall@10 of
the kept settings on fresh queries drawn like the rows, through the store's own search,
against numpy's exact top 10. Prints one JSON line per build and a summary: the lowest
and median fresh recall, the builds under the 0.95 floor, the settings kept, and the
medians of one search's time at them (as the tuner timed it) and of the tuning time.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from hermes_memory.tier2.records import Owner
from hermes_memory.tier3 import ann_index
from hermes_memory.tier3.vector_store import VectorStore

OWNER = Owner(platform="cli", agent="default", user_id="", session="")
FLOOR = 0.95


def clustered(centres: np.ndarray, n: int, noise: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    picked = centres[rng.integers(0, len(centres), size=n)]
    return (picked + rng.normal(scale=noise, size=picked.shape)).astype(np.float32)


def rows_for(keys: range) -> list[dict[str, Any]]:
    return [
        {
            "id": f"i{k}#0", "kind": "fact", "item_uuid": f"i{k}", "chunk": 0,
            "platform": OWNER.platform, "agent": OWNER.agent, "user_id": OWNER.user_id,
            "session_key": "", "text": f"text of i{k}", "source_id": "", "created_at": 0.0,
        }
        for k in keys
    ]  # fmt: skip


def one_build(data: np.ndarray, fresh: np.ndarray, truth: list[set[str]]) -> dict[str, Any]:
    n, dim = data.shape
    with tempfile.TemporaryDirectory() as home:
        store = VectorStore(
            Path(home), dim, exact_max_rows=1000, sign_search=False, whiten_min_rows=0
        )
        for start in range(0, n, 10_000):
            store.upsert(
                rows_for(range(start, min(n, start + 10_000))), data[start : start + 10_000]
            )
        started = time.perf_counter()
        ann_index.ensure(store)
        built = time.perf_counter() - started
        settings = ann_index.load_settings(store)
        assert settings is not None
        started = time.perf_counter()
        ann_index.tune(store.table(), settings.partitions, n, dim)
        tuned = time.perf_counter() - started
        found = [{h.item_uuid for h in store.search(q, OWNER, limit=10)} for q in fresh]
        store.close()
    recall = statistics.fmean(len(w & g) / 10 for w, g in zip(truth, found, strict=True))
    return {
        "nprobes": settings.nprobes, "partitions": settings.partitions,
        "refine_factor": settings.refine_factor, "sample_recall": settings.recall_at_10,
        "fresh_recall": round(recall, 4), "search_ms": settings.search_ms,
        "build_s": round(built, 2), "tune_s": round(tuned, 2),
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--builds", type=int, default=20)
    parser.add_argument("--rows", type=int, default=4000)
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--noise", type=float, default=0.6)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    centres = np.random.default_rng(0).normal(size=(max(40, args.rows // 250), args.dim))
    data = clustered(centres, args.rows, args.noise, 1)
    fresh = clustered(centres, args.queries, args.noise, 2)
    unit = data / np.linalg.norm(data, axis=1, keepdims=True)
    near = np.argsort(-(fresh / np.linalg.norm(fresh, axis=1, keepdims=True)) @ unit.T, axis=1)
    truth = [{f"i{k}" for k in row[:10]} for row in near]
    results = []
    for _ in range(args.builds):
        results.append(one_build(data, fresh, truth))
        print(json.dumps(results[-1]), flush=True)
    recalls = [r["fresh_recall"] for r in results]
    kept = collections.Counter(f"{r['nprobes']}x{r['refine_factor']}" for r in results)
    summary = {
        "builds": len(results), "rows": args.rows, "dim": args.dim, "noise": args.noise,
        "fresh_recall_min": min(recalls), "fresh_recall_median": statistics.median(recalls),
        "under_floor": sum(r < FLOOR for r in recalls), "kept": dict(kept),
        "search_ms_median": statistics.median(r["search_ms"] for r in results),
        "tune_s_median": statistics.median(r["tune_s"] for r in results),
    }  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
