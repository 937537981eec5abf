"""Scale benchmark: 10k and 100k memories (1M with --million), through the bulk path.

    python benchmarks/scale.py                      # 10k and 100k
    python benchmarks/scale.py --sizes 10000        # one size
    python benchmarks/scale.py --million            # adds 1M (about 80 minutes to build)
    python benchmarks/scale.py --keep build/scale   # keep the profiles; --reuse measures again
    python benchmarks/scale.py --shape agent        # long user/assistant project turns
    python benchmarks/scale.py --sizes 10000 --set tier3.exact_search_max_rows=20000
                                                    # the sign copy's path at a tenth of the size

For each size a fresh profile is built from a generated JSONL file (``_scale_corpus.py``:
``mixed``, facts and short turns about people, projects and tools over two years; or
``agent``, long turns between a user and an assistant on a project, with logs and code,
~1,000 characters each) with
``hermes-memory import``'s code path, and measured in separate processes so each
figure has its own peak RSS and the first recall is really a fresh process's:

- build: raw embedder throughput on a sample of the same texts, cut into the chunks the
  import embeds (same batches, same process), in memories/s, then the import:
  memories/s and its share of the raw throughput;
- jobs: consolidate, embed queue, graph refresh and prune, each timed;
- recall: first recall in a fresh process (from interpreter start and from opening the
  API), then warm p50/p95/p99 over distinct queries, each stage's share (from
  ``meta.timings_ms``), and the vector search's recall@10 against an exact scan;
- disk: bytes per memory beyond the vector itself.

Prints one JSON report (and writes it to ``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()  # before the package import: a fresh process's full cost
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _overrides import settings  # noqa: E402
from _scale_corpus import write_jsonl  # noqa: E402

START = 1_700_000_000.0  # the generated memories span two years from here
EMBED_SAMPLE = 8192


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


# The stores' safety caps (100k facts, 10k entities by default) sit below what the
# 1M profile holds; a user keeping that much raises them the same way.
CAPS = {"tier2": {"max_facts": 2_000_000, "max_entities": 200_000}}


# ``--set section.key=value`` pairs on top of CAPS, handed to every phase's process.
SET_PAIRS: list[str] = []


def _api(home: Path) -> Any:
    from hermes_memory import MemoryAPI, load_config

    given = settings(SET_PAIRS)
    overrides = {s: {**CAPS.get(s, {}), **given.get(s, {})} for s in {*CAPS, *given}}
    return MemoryAPI(load_config(home, env={}, overrides=overrides), actor="scale")


def phase_build(home: Path, size: int, seed: int, shape: str) -> dict[str, Any]:
    from hermes_memory.api.bulk_import import import_jsonl

    source = home / "memories.jsonl"
    home.mkdir(parents=True, exist_ok=True)
    write_jsonl(source, size, seed=seed, start=START, shape=shape)
    with _api(home) as api:
        sem = api.semantic
        if sem is None or sem.embedder.name.startswith("hashing"):
            sys.exit("this benchmark needs the real embedding model")
        from hermes_memory.tier3.chunks import chunk_text
        from hermes_memory.tier3.semantic import CALL_ROWS

        # The raw embedder on the same texts cut the same way as the import cuts them
        # (a long turn is several chunks), up to EMBED_SAMPLE pieces.
        texts: list[str] = []
        pieces: list[str] = []
        with source.open(encoding="utf-8") as fh:
            for line in fh:
                if len(pieces) >= EMBED_SAMPLE:
                    break
                rec = json.loads(line)
                texts.append(rec.get("content") or rec["text"])
                pieces.extend(chunk_text(texts[-1], sem.chunk_size, sem.chunk_overlap))

        # Load the model and warm its memory arena with one full call outside the timing.
        sem.embedder.embed_batch(pieces[:CALL_ROWS])
        batch = CALL_ROWS  # one model call of the bulk path

        # Two calls in flight, as the import keeps them: the model's best throughput,
        # with no core idle while the other finishes the last pieces of a call.
        calls = [pieces[start : start + batch] for start in range(0, len(pieces), batch)]
        t = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(sem.embedder.embed_batch, calls))
        raw = len(texts) / (time.perf_counter() - t)
        t = time.perf_counter()
        report = import_jsonl(api, source)
        took = time.perf_counter() - t
        imported_rss = peak_rss_mb()  # the import's own peak, before the counts below
        counts = api.stats()["data"]
    source.unlink()
    return {
        "raw_embed_per_s": round(raw, 1),
        "import_s": round(took, 1),
        "memories_per_s": round(size / took, 1),
        "share_of_raw": round(size / took / raw, 3),
        "import": report.to_dict(),
        "counts": counts,
        "peak_rss_mb": imported_rss,
        "peak_rss_mb_with_stats": peak_rss_mb(),
    }


def phase_jobs(home: Path) -> dict[str, Any]:
    from hermes_memory.cron.scheduler import run_job

    out: dict[str, Any] = {}
    with _api(home) as api:
        for name in ("consolidate", "embed_queue", "graph_refresh", "prune"):
            t = time.perf_counter()
            outcome = run_job(api, name)
            out[name] = {"s": round(time.perf_counter() - t, 2), "status": outcome.status}
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def phase_recall(home: Path, queries: int, seed: int, shape: str) -> dict[str, Any]:
    from _scale_corpus import SHAPES

    from hermes_memory import unwrap

    gen = SHAPES[shape](seed, start=START)
    asked = gen.queries(queries + 21)
    t = time.perf_counter()
    with _api(home) as api:
        first = unwrap(api.recall(asked[0], limit=10))
        first_s = time.perf_counter() - t
        from_start_s = time.perf_counter() - STARTED
        assert first, asked[0]
        for q in asked[1:21]:
            unwrap(api.recall(q, limit=10))
        times: list[float] = []
        stages: dict[str, list[float]] = {}
        for q in asked[21:]:
            t = time.perf_counter()
            env = api.recall(q, limit=10)
            times.append((time.perf_counter() - t) * 1000)
            for name, ms in env["meta"]["timings_ms"].items():
                stages.setdefault(name, []).append(ms)
        rss = peak_rss_mb()
        index_recall = vector_recall_at_10(api, asked[21:121])
        # The latency target's unit: one query through the model, same process.
        embed_ms = []
        for q in asked[21:121]:
            t = time.perf_counter()
            api.semantic.embedder.embed_batch([q])
            embed_ms.append((time.perf_counter() - t) * 1000)
        one_query = statistics.median(embed_ms)
    times.sort()
    total = statistics.median(times)
    return {
        "first_recall_s": round(first_s, 2),
        "first_recall_from_process_start_s": round(from_start_s, 2),
        "p50_ms": round(total, 2),
        "p95_ms": round(times[int(len(times) * 0.95) - 1], 2),
        "p99_ms": round(times[int(len(times) * 0.99) - 1], 2),
        "query_embedding_ms": round(one_query, 2),
        "p95_in_query_embeddings": round(times[int(len(times) * 0.95) - 1] / one_query, 2),
        "stage_median_ms": {k: round(statistics.median(v), 2) for k, v in stages.items()},
        "vector_recall_at_10": index_recall,
        "peak_rss_mb": rss,
    }


def vector_recall_at_10(api: Any, queries: list[str]) -> float:
    """Share of the exact top 10 items (a full scan of the owner's vectors, by the
    measure the store searches with, each item at its best row: a long text has many
    rows, and search returns an item once) that the vector store's own search returns.
    The table is scanned a page at a time for all the queries at once (loading it
    whole took 8.7 GB at 1M rows)."""
    import numpy as np

    from hermes_memory.tier3.lance_table import scan_pages
    from hermes_memory.tier3.snapshot import vectors_of

    store = api.semantic.store
    owner = api.owner
    asked = np.asarray(api.semantic.embedder.embed_batch(queries), dtype=np.float32)
    asked /= np.linalg.norm(asked, axis=1, keepdims=True)
    # The copy ranks by whitened cosine once it has fitted one (tier3/whitening.py):
    # the exact reference measures the same way.
    snap = store._snapshot
    white = snap.fit_whitening() if snap is not None else None
    wqs = [white.query(q) for q in asked] if white is not None else []
    # Per query, the best rows seen (score, item): enough that ten distinct items remain
    # (an item has a row per chunk and per sentence segment).
    keep = 200
    best: list[list[tuple[float, str]]] = [[] for _ in queries]
    table = store.table()
    columns = ["platform", "agent", "item_uuid", "vector"]
    for page in scan_pages(table, columns, int(table.count_rows())):
        mine = np.flatnonzero(
            (np.asarray(page.column("platform").to_pylist(), dtype=object) == owner.platform)
            & (np.asarray(page.column("agent").to_pylist(), dtype=object) == owner.agent)
        )
        if not mine.size:
            continue
        rows = vectors_of(page.take(mine), store.dim).copy()
        rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
        if white is not None:
            norms = white.row_norms(rows)
            scores = np.stack([w.raw(rows @ w.direction, norms) for w in wqs], axis=1)
        else:
            scores = rows @ asked.T
        items = page.column("item_uuid").take(mine)
        for n in range(len(queries)):
            col = scores[:, n]
            top = np.argpartition(-col, keep - 1)[:keep] if len(col) > keep else range(len(col))
            best[n].extend((float(scores[r, n]), str(items[int(r)])) for r in top)
            best[n] = sorted(best[n], reverse=True)[:keep]
    found = 0
    for n, qv in enumerate(asked):
        exact: set[str] = set()
        for _, item in best[n]:
            exact.add(item)
            if len(exact) == 10:
                break
        got = {h.item_uuid for h in store.search(qv, owner, limit=10)}
        found += len(exact & got)
    return round(found / (10 * len(queries)), 4)


def phase_settle(home: Path) -> dict[str, Any]:
    """Drop the vector table's old versions now, as the jobs do once they are an hour
    old (no other process reads them here)."""
    from datetime import timedelta

    with _api(home) as api:
        api.semantic.store.optimize(keep_versions_for=timedelta(0))
    return {}


def disk(home: Path, memories: int, vectors: int, dim: int) -> dict[str, Any]:
    total = sum(f.stat().st_size for f in home.rglob("*") if f.is_file())
    beyond = (total - vectors * dim * 4) / memories
    return {
        "bytes_total": total,
        "bytes_per_memory": round(total / memories),
        "bytes_per_memory_beyond_vector": round(beyond),
    }


def child(phase: str, home: Path, *extra: str) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--phase", phase, "--home", str(home), *extra]
    for pair in SET_PAIRS:
        cmd += ["--set", pair]
    done = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ})
    if done.returncode != 0:
        sys.exit(f"{phase} failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(home: Path, size: int, args: argparse.Namespace, reuse: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"memories": size}
    if not reuse:
        row["build"] = child(
            "build", home, "--size", str(size), "--seed", str(args.seed), "--shape", args.shape
        )
        row["jobs"] = child("jobs", home)
    row["recall"] = child(
        "recall", home, "--queries", str(args.queries), "--seed", str(args.seed),
        "--shape", args.shape,
    )  # fmt: skip
    vectors = row.get("build", {}).get("counts", {}).get("tier3", {}).get("vector_rows", size)
    row["disk"] = disk(home, size, int(vectors), 384)
    child("settle", home)
    row["disk_settled"] = disk(home, size, int(vectors), 384)
    if "build" in row:
        # The import leaves the entities it discovered to the embed job: count both.
        both = row["build"]["import_s"] + row["jobs"]["embed_queue"]["s"]
        row["build"]["memories_per_s_with_entity_vectors"] = round(size / both, 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also 1,000,000 memories")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build the profiles here and keep them")
    parser.add_argument("--reuse", action="store_true", help="measure the --keep profiles again")
    parser.add_argument("--shape", choices=["mixed", "agent"], default="mixed")
    parser.add_argument("--out", type=Path, help="default: build/scale[-agent].json")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="a config override for every phase, e.g. tier3.exact_search_max_rows=20000",
    )
    parser.add_argument("--phase", help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings(args.set)  # a malformed pair stops here, not in a phase's process
    SET_PAIRS.extend(args.set)
    if args.phase:
        if args.phase == "build":
            result = phase_build(args.home, args.size, args.seed, args.shape)
        elif args.phase == "jobs":
            result = phase_jobs(args.home)
        elif args.phase == "settle":
            result = phase_settle(args.home)
        else:
            result = phase_recall(args.home, args.queries, args.seed, args.shape)
        print(json.dumps(result))
        return
    sizes = args.sizes + ([1_000_000] if args.million else [])
    if args.reuse and not args.keep:
        parser.error("--reuse needs --keep DIR")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        for size in sizes:
            home = root / f"profile-{args.shape}-{size}"
            if home.exists() and not args.reuse:
                sys.exit(f"{home} exists: pass --reuse to measure it again, or remove it")
            rows.append(measure(home, size, args, args.reuse))
            print(json.dumps(rows[-1], indent=2), flush=True)
    out = args.out or Path("build") / (
        "scale.json" if args.shape == "mixed" else "scale-agent.json"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
