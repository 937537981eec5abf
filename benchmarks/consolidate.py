"""Benchmark: the consolidate job over N facts with planted duplicates and conflicts.

    python benchmarks/consolidate.py --facts 100000

Builds a profile through MemoryAPI.fact_store (write-time linking on, so facts
mention entities; tier 3 off: vectors are the embed job's work), with about 10%
near-duplicate rewrites of earlier facts and person moves written out of order,
then times one consolidate run and checks what it merged and resolved.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import PEOPLE, fact_text  # noqa: E402

from hermes_memory import FrozenClock, MemoryAPI, load_config  # noqa: E402
from hermes_memory.api.maintenance import Maintenance
from hermes_memory.cron import consolidate  # noqa: E402

CITIES = ["Lisbon", "Berlin", "Oslo", "Madrid", "Vienna", "Prague", "Dublin", "Warsaw"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    clock = FrozenClock("2026-06-01T00:00:00Z")
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(
            Path(tmp),
            env={},
            overrides={
                "tier2": {"max_facts": args.facts + 10, "max_entities": 1_000_000},
                "tier3": {"enabled": False},
            },
        )
        with MemoryAPI(cfg, clock=clock, actor="bench") as api:
            started = time.perf_counter()
            texts: list[str] = []
            planted_dups = planted_moves = 0
            for n in range(args.facts):
                roll = rng.random()
                if roll < 0.10 and texts:
                    text = rng.choice(texts).removeprefix("The ") + "."
                    planted_dups += 1
                elif roll < 0.12:
                    who = f"{rng.choice(PEOPLE)} {rng.choice(['Berg', 'Sato', 'Diaz', 'Novak'])}"
                    later, earlier = rng.sample(CITIES, 2)
                    # the newer statement first, the older one after it
                    api.fact_store(f"{who} moved to {later}", valid_at="2026-01-01")
                    api.fact_store(f"{who} lives in {earlier} #{n}", valid_at="2025-01-01")
                    planted_moves += 1
                    continue
                else:
                    text = f"{fact_text(rng)} #{n}"
                    texts.append(text)
                api.fact_store(text, category="project", importance=rng.random())
                if n % 10_000 == 9_999:
                    print(f"  stored {n + 1:,} facts", file=sys.stderr)
            build_s = time.perf_counter() - started
            live = api.facts.count()
            started = time.perf_counter()
            report = consolidate.run(Maintenance(api), clock())
            seconds = time.perf_counter() - started
            again = consolidate.run(Maintenance(api), clock())
    print(f"facts live before: {live:,} (built in {build_s:.0f}s)")
    print(f"planted: {planted_dups:,} near-duplicate rewrites, {planted_moves:,} late moves")
    print(f"consolidate: {seconds:.2f}s  {report.counts}")
    print(f"second run: {again.seconds:.2f}s  {again.counts}")


if __name__ == "__main__":
    main()
