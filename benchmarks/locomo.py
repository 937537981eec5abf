"""LoCoMo retrieval benchmark (turn level, categories 1-4).

    python benchmarks/locomo.py                       # default weights
    python benchmarks/locomo.py --preset similarity   # relevance only
    python benchmarks/locomo.py --set recall.graph_depth=0   # ablate one mechanism
    python benchmarks/locomo.py --conversations 3             # tune on 0-2 ...
    python benchmarks/locomo.py --skip 3                      # ... check on 3-4
    python benchmarks/locomo.py --profiles /tmp/locomo        # keep the stores, rank again
    python benchmarks/locomo.py --pastes --profiles /tmp/lp-pastes   # four pastes per chat

Reads ../shared/data/locomo/locomo_dev.json (CC BY-NC; never copied into the
project). Each conversation gets a fresh profile; every turn goes in through
``ingest_turns`` with its session's date as the timestamp and its shared image as
an attachment (the caption in its metadata); each question goes through ``recall``
with the clock set just after the last session. Recall@k = share of a question's
evidence turns in the top k; hit@k = share of questions with any evidence turn in the
top k.

The plain baselines (benchmarks/_baselines.py: whole ``speaker: text`` turns, MiniLM
cosine, BM25 and their RRF) rank the same questions in the same run, so every figure
has its ratio to the best of them; ``--no-baselines`` skips them.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baselines import NAMES, Baselines  # noqa: E402  (benchmarks/ is not a package)
from _overrides import settings  # noqa: E402

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"
DONE = "built.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def session_time(text: str) -> float:
    # e.g. "1:56 pm on 8 May, 2023"
    m = re.match(r"\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", text, re.I)
    if not m:
        raise ValueError(f"unrecognised session date {text!r}")
    hour, minute, ampm, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if ampm.lower() == "pm" else 0)
    dt = datetime.strptime(f"{day} {month} {year}", "%d %B %Y").replace(
        hour=h, minute=int(minute), tzinfo=UTC
    )
    return dt.timestamp()


def turns_of(conv: dict[str, Any]) -> tuple[list[dict[str, Any]], float]:
    turns = []
    last = 0.0
    n = 1
    while f"session_{n}" in conv:
        start = session_time(conv[f"session_{n}_date_time"])
        last = max(last, start)
        for i, t in enumerate(conv[f"session_{n}"]):
            # A shared image is the turn's attachment, its caption what search reads.
            caption = t.get("blip_caption")
            shared = [{"type": "image", "caption": caption}] if caption else []
            turns.append(
                {
                    "speaker": t["speaker"],
                    "text": t["text"],
                    "session_id": f"session_{n}",
                    "message_id": t["dia_id"],
                    "timestamp": start + i,
                    "metadata": {"attachments": shared} if shared else None,
                }
            )
        n += 1
    return turns, last


def run(args: argparse.Namespace) -> dict[str, Any]:
    samples = json.loads(Path(args.data).read_text(encoding="utf-8"))
    samples = samples[args.skip : args.skip + args.conversations]
    # retriever -> category -> (R@5, R@10, hit@5) per question
    per_cat: dict[str, dict[int, list[tuple[float, float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    ingest_s = 0.0
    n_turns = 0
    latencies: list[float] = []
    stage_ms: dict[str, list[float]] = defaultdict(list)
    paste_places: Counter[str] = Counter()
    for sample in samples:
        turns, last = turns_of(sample["conversation"])
        valid = {t["message_id"] for t in turns}
        kept = Path(args.profiles) / str(sample["sample_id"]) if args.profiles else None
        reuse = kept is not None and (kept / DONE).exists()
        if kept is not None and not reuse and kept.exists():
            shutil.rmtree(kept)  # a build cut short
        with tempfile.TemporaryDirectory() as tmp:
            cfg = load_config(kept or Path(tmp), env={}, overrides=settings(args.set))
            if args.preset:
                cfg = cfg.with_recall_preset(args.preset)
            clock = FrozenClock(last)
            with MemoryAPI(cfg, clock=clock, actor="locomo") as api:
                if not reuse:
                    if api.semantic is not None:
                        api.semantic.embedder.embed_batch(["warm up"])  # load outside timing
                    t0 = time.perf_counter()
                    for start in range(0, len(turns), 256):
                        unwrap(api.ingest_turns(turns[start : start + 256]))
                    if args.pastes:
                        speaker = sample["conversation"]["speaker_a"]
                        unwrap(api.ingest_turns(pastes(speaker, last)))
                    ingest_s += time.perf_counter() - t0
                    n_turns += len(turns)
                    if kept is not None:
                        (kept / DONE).write_text(json.dumps({"turns": len(turns)}))
                clock.set(last + 86_400)
                base = None
                if not args.no_baselines and api.semantic is not None:
                    base = Baselines(turns, api.semantic.embedder, Path(args.cache))
                for qa in sample["qa"]:
                    cat = qa.get("category")
                    if cat not in CATEGORIES:
                        continue
                    evidence = {e for e in qa.get("evidence", []) if e in valid}
                    if not evidence:
                        continue
                    t1 = time.perf_counter()
                    env = api.recall(str(qa["question"]), limit=10, limit_per_tier=10)
                    latencies.append((time.perf_counter() - t1) * 1000)
                    results = unwrap(env)
                    for stage, ms in env["meta"].get("timings_ms", {}).items():
                        stage_ms[stage].append(ms)
                    for r in results:
                        if str(r.get("source_id")).startswith(PASTE):
                            paste_places[str(r["source_id"])] += 1
                    ranked = {"hermes": pointed_at(results)}
                    if base is not None:
                        plain = base.rankings(str(qa["question"]))
                        ranked.update({k: [{i} for i in v] for k, v in plain.items()})
                    for name, ids in ranked.items():
                        top5, top10 = set().union(*ids[:5]), set().union(*ids[:10])
                        r5 = len(evidence & top5) / len(evidence)
                        r10 = len(evidence & top10) / len(evidence)
                        h5 = 1.0 if evidence & top5 else 0.0
                        per_cat[name][cat].append((r5, r10, h5))
    report: dict[str, Any] = {
        "preset": args.preset or "default",
        "set": args.set,
        "conversations": [args.skip, args.skip + len(samples) - 1],
        "categories": {},
    }
    ours = per_cat["hermes"]
    everything = [row for rows in ours.values() for row in rows]
    for cat, rows in sorted(ours.items()):
        report["categories"][CATEGORIES[cat]] = _summary(rows)
    report["overall"] = _summary(everything)
    shown = [n for n in NAMES if n in per_cat]
    if shown:
        report["baselines"] = {
            name: {
                "overall": _summary([r for rows in per_cat[name].values() for r in rows]),
                "categories": {
                    CATEGORIES[c]: _summary(rows) for c, rows in sorted(per_cat[name].items())
                },
            }
            for name in shown
        }
        best = max(shown, key=lambda n: report["baselines"][n]["overall"]["recall@10"])
        report["best_baseline"] = best
        report["ratio_to_best"] = round(
            report["overall"]["recall@10"]
            / max(report["baselines"][best]["overall"]["recall@10"], 1e-9),
            3,
        )
    if args.pastes:
        report["paste_places_in_top10"] = dict(sorted(paste_places.items()))
    if ingest_s:
        report["ingest_turns_per_s"] = round(n_turns / ingest_s, 1)
    report["recall_ms_median"] = round(statistics.median(latencies), 2)
    report["recall_ms_p95"] = round(sorted(latencies)[int(len(latencies) * 0.95) - 1], 2)
    report["stage_ms_median"] = {k: round(statistics.median(v), 3) for k, v in stage_ms.items()}
    return report


PASTE = "paste-"


def pastes(speaker: str, at: float) -> list[dict[str, Any]]:
    """Four things a person may paste into a chat, as ``speaker``'s turns of a session
    of their own at ``at`` (``--pastes``): base64, a column of numbers, a hex dump and a
    request log, ~100k characters each."""
    rng = random.Random(7)
    texts = {
        "base64": base64.b64encode(rng.randbytes(75_000)).decode(),
        "numbers": ",".join(str(n) for n in range(20_000)),
        "hex": " ".join(f"{rng.getrandbits(32):08x}" for _ in range(11_000)),
        "log": "\n".join(
            f"2023-08-{n % 28 + 1:02d} 12:{n % 60:02d}:01 INFO GET /api/v1/items/{n} 200 ms"
            for n in range(1_800)
        ),
    }
    return [
        {"speaker": speaker, "text": text, "session_id": "pastes", "message_id": PASTE + name,
         "timestamp": at + i}
        for i, (name, text) in enumerate(texts.items())
    ]  # fmt: skip


def pointed_at(results: list[dict[str, Any]]) -> list[set[str]]:
    """The messages each recalled memory stands for: a turn its own id, a fact formed
    from turns (or stored with evidence) the ids of those turns."""
    return [{str(i) for i in r.get("evidence_ids") or [r.get("source_id")]} for r in results]


def _summary(rows: list[tuple[float, float, float]]) -> dict[str, float]:
    n = len(rows)
    return {
        "questions": n,
        "recall@5": round(sum(r[0] for r in rows) / n, 4),
        "recall@10": round(sum(r[1] for r in rows) / n, 4),
        "hit@5": round(sum(r[2] for r in rows) / n, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--preset", help="recall preset, e.g. similarity")
    parser.add_argument("--conversations", type=int, default=5)
    parser.add_argument("--skip", type=int, default=0, help="start at this conversation")
    parser.add_argument(
        "--profiles",
        help="keep the built stores here and reuse them (delete after a change to what is "
        "stored: chunking, extraction, the embedder)",
    )
    parser.add_argument(
        "--cache",
        default=str(Path(tempfile.gettempdir()) / "locomo-cache"),
        help="baseline vectors are cached here",
    )
    parser.add_argument("--no-baselines", action="store_true", help="skip the plain baselines")
    parser.add_argument(
        "--pastes",
        action="store_true",
        help="also store four ~100k-char pastes (base64, numbers, a hex dump, a log) per "
        "conversation, and count the top-10 places they take (use its own --profiles)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="override a setting, e.g. recall.graph_depth=0 (repeatable); for ablations",
    )
    args = parser.parse_args()
    if not Path(args.data).exists():
        sys.exit(f"LoCoMo data not found at {args.data}")
    print(json.dumps(run(args), indent=2))


if __name__ == "__main__":
    main()
