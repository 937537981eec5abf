"""Benchmark: fact_query (FTS5/BM25) latency over N facts.

    python benchmarks/fact_query.py --facts 100000 --queries 500

Builds a fresh profile in a temporary directory through the public FactStore
(batched in transactions), then times MemoryAPI.fact_query end to end.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import query_text, store_fact  # noqa: E402

from hermes_memory import MemoryAPI, load_config  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(Path(tmp), env={}, overrides={"tier2": {"max_facts": args.facts + 10}})
        with MemoryAPI(cfg, actor="bench") as api:
            started = time.perf_counter()
            stored = 0
            while stored < args.facts:
                with api.db.transaction():
                    for _ in range(min(5000, args.facts - stored)):
                        store_fact(api, rng, stored, time.time())
                        stored += 1
            ingest_s = time.perf_counter() - started
            queries = [query_text(rng) for _ in range(args.queries)]
            for q in queries[:20]:  # warm the page cache
                api.fact_query(q)
            times = []
            for q in queries:
                t = time.perf_counter()
                env = api.fact_query(q, limit=10)
                times.append((time.perf_counter() - t) * 1000)
                assert env["success"], env["error"]
            times.sort()
            print(
                f"facts={args.facts} ingest={args.facts / ingest_s:,.0f} facts/s ({ingest_s:.1f} s)"
            )
            print(
                f"fact_query limit=10 over {args.queries} queries: "
                f"median={statistics.median(times):.2f} ms "
                f"p95={times[int(len(times) * 0.95) - 1]:.2f} ms "
                f"max={times[-1]:.2f} ms"
            )


if __name__ == "__main__":
    main()
