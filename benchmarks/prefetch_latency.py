"""Benchmark: the Hermes provider's ``prefetch`` over N memories, warm and cold.

    python benchmarks/prefetch_latency.py --memories 10000 --queries 200 --cold-runs 5

Builds a Hermes home holding N memories (70% facts, 30% turns, the real model),
installs the provider, then measures through Hermes' own plugin loader:

- warm: ``prefetch`` on distinct queries in one process after start-up (median, p95);
- cold: in each of ``--cold-runs`` fresh processes, ``initialize`` then the first
  ``prefetch`` at once, as Hermes does on a first turn (the model may still be
  loading: prefetch then answers from the lexical tiers, and says so in the log);
- during a paste: ``prefetch`` while ``sync_turn`` (on its own thread, as Hermes' sync
  worker runs it) embeds a pasted log of ``--paste-chars`` characters.

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
import threading
import time
from pathlib import Path
from typing import Any

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


def during_paste(provider: Any, queries: list[str], chars: int) -> tuple[list[float], list[float]]:
    """Prefetch while ``sync_turn`` embeds a pasted log of ``chars`` characters on
    Hermes' sync worker: (prefetch ms, sync_turn s) of each run whose prefetch began
    while the turn was still being stored or embedded."""
    waits, syncs = [], []
    for i, q in enumerate(queries):
        paste = " ".join(
            f"run {i} line {n}: compiled module_{n % 50} in {n % 97} ms, cache hit"
            for n in range(chars // 60)
        )[:chars]
        worker = threading.Thread(target=provider.sync_turn, args=(paste, "Read it."))
        started = time.perf_counter()
        worker.start()
        time.sleep(0.5)  # the turn is stored by then, and its embedding under way
        overlapped = worker.is_alive()
        t = time.perf_counter()
        provider.prefetch(q)
        waited = (time.perf_counter() - t) * 1000
        worker.join()
        if overlapped:
            waits.append(waited)
            syncs.append(time.perf_counter() - started)
    return waits, syncs


def warm(
    home: Path, queries: list[str], paste_chars: int, paste_runs: int
) -> tuple[list[float], list[int]]:
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
    if paste_runs:
        waits, syncs = during_paste(provider, queries[:paste_runs], paste_chars)
        if waits:
            print(
                f"while a {paste_chars:,}-char paste is embedded ({len(waits)} of {paste_runs} "
                f"runs overlapped): prefetch median {statistics.median(waits):.0f} ms "
                f"(max {max(waits):.0f}); sync_turn median {statistics.median(syncs):.1f} s"
            )
        else:
            print(f"no paste of {paste_chars:,} chars was still being embedded after 0.5 s")
    provider.shutdown()
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--paste-chars", type=int, default=100_000, help="a pasted log's size (prefetch meanwhile)"
    )
    parser.add_argument("--paste-runs", type=int, default=5, help="0: skip the paste runs")
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
        times, sizes = warm(home, queries, args.paste_chars, args.paste_runs)
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
