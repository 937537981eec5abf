"""Benchmark: cross-tier recall latency over N memories with the real embedding model.

    python benchmarks/recall_latency.py --memories 10000 --queries 200
    python benchmarks/recall_latency.py --memories 10000 --hostile


Builds a fresh profile (70% facts, 30% conversation turns) through the public stores,
drains the embedding outbox with the configured model (all-MiniLM-L6-v2 by default),
then times ``MemoryAPI.recall`` end to end, warm. Every timed query is distinct, so
the query embedding is computed inside each timing, never served from the cache.
``--hostile`` instead times queries of 20,000 characters (the API's longest), each one
pattern repeated (articles without punctuation, chained clauses, names, dates, links),
three times each: what a pasted log or a runaway prompt asks.
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

from _corpus import PEOPLE, PROJECTS, TECH, fact_text, query_text, store_fact  # noqa: E402

from hermes_memory import MemoryAPI, load_config, unwrap  # noqa: E402


def distinct_queries(rng: random.Random, n: int) -> list[str]:
    seen: dict[str, None] = {}
    while len(seen) < n:
        q = query_text(rng)
        if rng.random() < 0.5:
            q += f" for {rng.choice(PROJECTS)} and {rng.choice(TECH)}"
        else:
            q += f" according to {rng.choice(PEOPLE)}"
        seen.setdefault(q, None)
    return list(seen)


def build(api: MemoryAPI, n: int, rng: random.Random) -> dict[str, float]:
    n_turns = n * 3 // 10
    started = time.perf_counter()
    with api.db.transaction():
        for i in range(n - n_turns):
            store_fact(api, rng, i, api.clock(), spread_days=180)
    turns = [
        {
            "speaker": rng.choice(PEOPLE),
            "text": fact_text(rng),
            "session_id": f"s{i // 40}",
            "message_id": f"m{i}",
            "timestamp": api.clock() - (n_turns - i) * 600,
        }
        for i in range(n_turns)
    ]
    for start in range(0, n_turns, 1000):
        unwrap(api.ingest_turns(turns[start : start + 1000], embed=False))
    stored = time.perf_counter()
    assert api.semantic is not None
    while api.semantic.drain(limit=2000).indexed:
        pass
    embedded = time.perf_counter()
    return {"store_s": stored - started, "embed_s": embedded - stored}


# Each is repeated to 20,000 characters: what recall reads clause by clause, name by
# name or date by date.
HOSTILE = [
    "the the the ",
    "the service that payments-api depends on ",
    "the service payments-api depends on ",
    "where does Priya's manager work ",
    "where do I live ",
    "I I I ",
    "a, b, c, ",
    "on Friday last Tues 3 weeks ago ",
    "Alice Bob Carol ",
    "- [ ] TODO: fix\n",
    "https://x.io/a?b=c&d=e ",
    "xqzv ",
]


def hostile(api: MemoryAPI) -> None:
    worst = 0.0
    for unit in HOSTILE:
        query = (unit * (20_000 // len(unit) + 1))[:20_000]
        times = []
        for _ in range(3):
            t = time.perf_counter()
            unwrap(api.recall(query, limit=10))
            times.append((time.perf_counter() - t) * 1000)
        worst = max(worst, statistics.median(times))
        print(f"{statistics.median(times):8.2f} ms  {unit!r} x {20_000 // len(unit)}")
    print(f"worst median: {worst:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--hostile", action="store_true", help="time 20,000-character repeated queries instead"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(Path(tmp), env={}, overrides={"tier3": {"embed_inline": False}})
        with MemoryAPI(cfg, actor="bench") as api:
            if api.semantic is None or api.semantic.embedder.name.startswith("hashing"):
                sys.exit("this benchmark needs the real embedding model")
            timings = build(api, args.memories, rng)
            vectors = api.semantic.store.count()
            for q in distinct_queries(random.Random(args.seed + 1), 20):  # warm up
                unwrap(api.recall(q, limit=10))
            if args.hostile:
                hostile(api)
                return
            times, embed_times = [], []
            for q in distinct_queries(rng, args.queries):
                t = time.perf_counter()
                api.semantic.embedder.embed_batch([q + " ?"])
                embed_times.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                results = unwrap(api.recall(q, limit=10))
                times.append((time.perf_counter() - t) * 1000)
                assert results, q
            times.sort()
            print(
                f"memories={args.memories} vectors={vectors} "
                f"store={timings['store_s']:.1f} s "
                f"embed={args.memories / timings['embed_s']:,.0f} items/s "
                f"({timings['embed_s']:.1f} s)"
            )
            print(
                f"recall limit=10 over {args.queries} distinct queries: "
                f"median={statistics.median(times):.2f} ms "
                f"p95={times[int(len(times) * 0.95) - 1]:.2f} ms max={times[-1]:.2f} ms "
                f"(one query embedding alone: median {statistics.median(embed_times):.2f} ms)"
            )


if __name__ == "__main__":
    main()
