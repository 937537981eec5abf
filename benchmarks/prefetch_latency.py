"""Benchmark: the Hermes provider's ``prefetch`` over N memories, warm and cold.

    python benchmarks/prefetch_latency.py --memories 10000 --queries 200 --cold-runs 5

Builds a Hermes home holding N memories (70% facts, 30% turns, the real model),
installs the provider, then measures through Hermes' own plugin loader:

- warm: ``prefetch`` on distinct queries in one process after start-up (median, p95);
- cold: in each of ``--cold-runs`` fresh processes, ``initialize`` then the first
  ``prefetch`` at once, as Hermes does on a first turn (the model may still be
  loading: prefetch then answers from the lexical tiers, and says so in the log).

Needs hermes-agent installed (the ``hermes`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recall_latency import build, distinct_queries  # noqa: E402

from hermes_memory import MemoryAPI, load_config  # noqa: E402
from hermes_memory.hermes import install  # noqa: E402

_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from plugins.memory import load_memory_provider
provider = load_memory_provider("hermes_memory")
t1 = time.perf_counter()
provider.initialize("bench", platform="cli", agent_context="primary", hermes_home=sys.argv[1])
t2 = time.perf_counter()
block = provider.prefetch(sys.argv[2])
t3 = time.perf_counter()
provider.shutdown()
print(json.dumps({"load_ms": (t1 - t0) * 1000, "init_ms": (t2 - t1) * 1000,
                  "first_prefetch_ms": (t3 - t2) * 1000, "chars": len(block)}))
"""


def warm(home: Path, queries: list[str]) -> tuple[list[float], list[int]]:
    os.environ["HERMES_HOME"] = str(home)
    from plugins.memory import load_memory_provider

    provider = load_memory_provider("hermes_memory")
    provider.initialize("bench", platform="cli", agent_context="primary", hermes_home=str(home))
    provider._ready.wait(60)
    for q in queries[:20]:
        provider.prefetch(q + " (warm-up)")
    times, sizes = [], []
    for q in queries[20:]:
        t = time.perf_counter()
        block = provider.prefetch(q)
        times.append((time.perf_counter() - t) * 1000)
        sizes.append(len(block))
    provider.shutdown()
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        cfg = load_config(home, env={}, overrides={"tier3": {"embed_inline": False}})
        with MemoryAPI(cfg, actor="bench") as api:
            if api.semantic is None or api.semantic.embedder.name.startswith("hashing"):
                sys.exit("this benchmark needs the real embedding model")
            build(api, args.memories, rng)
        install.install(home)
        queries = distinct_queries(random.Random(args.seed + 1), args.queries + 20)
        cold = []
        for i in range(args.cold_runs):
            run = subprocess.run(
                [sys.executable, "-c", _CHILD, str(home), queries[i]],
                capture_output=True, text=True, check=True,
                env={**os.environ, "HERMES_HOME": str(home)},
            )  # fmt: skip
            cold.append(json.loads(run.stdout.strip().splitlines()[-1]))
        times, sizes = warm(home, queries)
        times.sort()
        print(
            f"memories={args.memories} warm prefetch over {len(times)} distinct queries: "
            f"median={statistics.median(times):.2f} ms p95={times[int(len(times) * 0.95) - 1]:.2f} "
            f"ms max={times[-1]:.2f} ms; block median {statistics.median(sizes):.0f} chars"
        )
        first = sorted(c["first_prefetch_ms"] for c in cold)
        init = sorted(c["init_ms"] for c in cold)
        load = sorted(c["load_ms"] for c in cold)
        print(
            f"cold ({args.cold_runs} fresh processes): first prefetch median "
            f"{statistics.median(first):.0f} ms (max {first[-1]:.0f}); initialize median "
            f"{statistics.median(init):.0f} ms; plugin load median {statistics.median(load):.0f} ms"
        )


if __name__ == "__main__":
    main()
