"""Do natural corrections supersede what they correct? Pairs of an older fact and a
newer statement, labelled whether the newer one ends the older ("We moved the billing
database to CockroachDB" ends "The billing database runs PostgreSQL 14"; "We added
Redis in front of the billing database" does not), stored through ``fact_store`` one
after the other in a fresh store.

    python benchmarks/corrections.py              # tests/data/corrections_dev.jsonl (25)
    python benchmarks/corrections.py --held-out   # corrections_heldout.jsonl (25), not tuned on
    python benchmarks/corrections.py --errors     # and every wrong pair

Precision: of the pairs where the older fact was superseded, the share labelled so;
recall: of the pairs labelled so, the share superseded.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.clock import DAY
from hermes_memory.tier3.embedder import HashingEmbedder

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
DEV = DATA / "corrections_dev.jsonl"
HELD_OUT = DATA / "corrections_heldout.jsonl"


def superseded(old: str, new: str, home: Path) -> bool:
    """Whether storing ``new`` a month after ``old`` marks ``old`` superseded (a
    month, so that "last week" in ``new`` still comes after ``old``)."""
    clock = FrozenClock("2026-03-01T12:00:00Z")
    env = {"HERMES_MEMORY_TIER3__EMBEDDING_MODEL": "hashing-64"}
    with MemoryAPI(load_config(home, env=env), clock=clock, embedder=HashingEmbedder(64)) as api:
        first = unwrap(api.fact_store(old))["uuid"]
        clock.advance(30 * DAY)
        api.fact_store(new)
        return unwrap(api.fact_get(first)).get("invalid_at") is not None


def score(path: Path, *, errors: bool = False) -> dict[str, Any]:
    tp = fp = fn = 0
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    with tempfile.TemporaryDirectory() as tmp:
        for i, row in enumerate(rows):
            got = superseded(row["old"], row["new"], Path(tmp) / str(i))
            tp += got and row["supersedes"]
            fp += got and not row["supersedes"]
            fn += not got and row["supersedes"]
            if errors and got != row["supersedes"]:
                print(f"{'missed' if row['supersedes'] else 'wrong'}: {row['old']} -> {row['new']}")
    return {
        "pairs": len(rows),
        "precision": round(tp / (tp + fp), 3) if tp + fp else 1.0,
        "recall": round(tp / (tp + fn), 3) if tp + fn else 1.0,
        "supersede": tp + fn,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--held-out", action="store_true")
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()
    print(json.dumps(score(HELD_OUT if args.held_out else DEV, errors=args.errors), indent=2))


if __name__ == "__main__":
    main()
