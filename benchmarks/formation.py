"""Memory formation: precision and recall on the labelled turns in tests/data/.

    python benchmarks/formation.py                 # development set (the rules were tuned on it)
    python benchmarks/formation.py --held-out      # held-back set, never tuned on
    python benchmarks/formation.py --errors        # and every miss / false promotion
    python benchmarks/formation.py --speed         # microseconds per turn on both sets

Each line is a person's turn and the statements it should promote (kind + a phrase
the fact must contain; none for chit-chat, questions, hypotheticals, jokes, other
people's words, one-off requests, secrets and injections). A formed statement is
right when its text holds an expected phrase (precision); an expected statement is
found when a formed one holds its phrase (recall); ``kind_accuracy`` is the share of
found statements given the expected kind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from hermes_memory.api.formation import promotable
from hermes_memory.text.statements import find_statements

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
DEV = DATA / "formation_dev.jsonl"
HELD_OUT = DATA / "formation_heldout.jsonl"


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def formed(text: str) -> list[tuple[str, str]]:
    """What formation would promote from ``text``: the statements, less those the guard
    stops (secrets, injections)."""
    return [(s.kind, s.text) for s in find_statements(text) if promotable(s)]


def score(path: Path, *, errors: bool = False) -> dict[str, Any]:
    tp_formed = n_formed = found = expected = right_kind = 0
    mistakes: list[str] = []
    data = rows(path)
    for row in data:
        got = formed(row["text"])
        n_formed += len(got)
        for kind, text in got:
            if any(e["has"].lower() in text.lower() for e in row["expect"]):
                tp_formed += 1
            else:
                mistakes.append(f"promoted {kind}: {text!r}")
        for e in row["expect"]:
            expected += 1
            hit = next((k for k, t in got if e["has"].lower() in t.lower()), None)
            if hit is None:
                mistakes.append(f"missed {e['kind']} ({e['has']}): {row['text']!r}")
                continue
            found += 1
            right_kind += hit == e["kind"]
    report: dict[str, Any] = {
        "set": path.name,
        "turns": len(data),
        "expected": expected,
        "formed": n_formed,
        "precision": round(tp_formed / n_formed, 4) if n_formed else 1.0,
        "recall": round(found / expected, 4) if expected else 1.0,
        "kind_accuracy": round(right_kind / found, 4) if found else 1.0,
    }
    if errors:
        report["errors"] = mistakes
    return report


def speed() -> dict[str, Any]:
    texts = [r["text"] for p in (DEV, HELD_OUT) for r in rows(p)]
    runs = []
    for _ in range(7):
        t0 = time.perf_counter()
        for t in texts:
            formed(t)
        runs.append((time.perf_counter() - t0) / len(texts) * 1e6)
    long = " ".join(texts) * 20  # one ~100k-char message
    t0 = time.perf_counter()
    formed(long)
    return {
        "us_per_turn_median": round(statistics.median(runs), 1),
        "long_message_chars": len(long),
        "long_message_ms": round((time.perf_counter() - t0) * 1000, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--held-out", action="store_true")
    ap.add_argument("--errors", action="store_true")
    ap.add_argument("--speed", action="store_true")
    args = ap.parse_args()
    out = speed() if args.speed else score(HELD_OUT if args.held_out else DEV, errors=args.errors)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
