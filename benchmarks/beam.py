"""BEAM retrieval benchmark: long user/assistant project conversations (turn level).

    python benchmarks/beam.py                                # 12 conversations, defaults
    python benchmarks/beam.py --profiles /tmp/beam           # keep the built stores ...
    python benchmarks/beam.py --profiles /tmp/beam --set recall.speaker_boost=0
                                                             # ... and rank again on them
    python benchmarks/beam.py --conversations 6              # tune on the first six ...
    python benchmarks/beam.py --skip 6                       # ... check on the other six
    python benchmarks/beam.py --speed 200                    # per-turn ingest vs the model
    python benchmarks/beam.py --merge 2                      # two conversations a profile

Reads ../shared/data/beam/ (evaluation only; never copied into the project). Each
conversation gets a fresh profile: every message goes in as a turn whose speaker is
its role, one session per batch, the message id as provenance and the time from the
batch's time anchors (``ingest_turns``, a batch per session: the same rows, vectors
and links as ``ingest_turn`` one message at a time, which ``--speed`` times). Each
retrieval question (one whose ``source_chat_ids`` is a list) is recalled at one day
after the last message. Recall@k = share of its evidence messages in the top k;
hit@5 = share of questions with any evidence message in the top 5.

The plain baselines run in the same process over whole ``role: content`` messages:
all-MiniLM-L6-v2 cosine (the model reads the first 256 tokens), BM25 (bm25s, English
stop words, Porter stemmer) and their reciprocal rank fusion (k = 60). Every figure
is reported with its ratio to the best baseline.

The BM25 baseline needs the ``bench`` extra: ``pip install -e ".[bench]"``.

``--merge K`` puts K consecutive conversations in one profile, each starting a day after
the one before ends, and asks every one's questions there: a user's year of projects
rather than one project, so each question's evidence sits among twice (K times) the
messages, many on the same kind of work. The baselines rank the same merged messages.

``--share F`` cuts each conversation to its first F of messages (a shorter project, as
BEAM's 100K conversations are) and asks only the questions whose evidence is all there.

``--profiles DIR`` keeps each built store under DIR and reuses one that is complete,
so a ranking change is measured in minutes; delete DIR after a change to what is
stored (chunking, extraction, the embedder).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _baselines import Baselines  # noqa: E402  (benchmarks/ is not a package)
from _overrides import settings  # noqa: E402
from locomo import pointed_at  # noqa: E402

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "beam"
ABILITIES = (
    "information_extraction",
    "instruction_following",
    "preference_following",
    "multi_session_reasoning",
    "event_ordering",
    "summarization",
)
DONE = "built.json"


def conversations(root: Path) -> list[Path]:
    """The conversation folders in numeric order (``500K-1`` ... ``500K-12``)."""
    found = [p for p in root.iterdir() if (p / "chat.json").exists()]
    return sorted(found, key=lambda p: [int(n) for n in re.findall(r"\d+", p.name)])


def parse_anchor(text: str) -> float:
    return datetime.strptime(text, "%B-%d-%Y").replace(hour=9, tzinfo=UTC).timestamp()


def messages_of(chat: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every message as a turn: one session per batch, times from the anchors (a
    minute apart after each anchor)."""
    turns: list[dict[str, Any]] = []
    clock = None
    for batch in chat:
        if batch.get("time_anchor"):
            clock = parse_anchor(batch["time_anchor"])
        for group in batch["turns"]:
            for m in group:
                if m.get("time_anchor"):
                    clock = max(clock or 0.0, parse_anchor(m["time_anchor"]))
                clock = (clock or 0.0) + 60
                turns.append(
                    {
                        "speaker": m["role"],
                        "text": m["content"],
                        "session_id": f"batch-{batch['batch_number']}",
                        "message_id": str(m["id"]),
                        "timestamp": clock,
                    }
                )
    return turns


def units(
    folders: list[Path], merge: int, share: float = 1.0
) -> Iterator[tuple[str, list[dict[str, Any]], list[tuple[str, str, set[str]]]]]:
    """(profile name, turns, questions) for each group of ``merge`` conversations. A
    merged group's message and session ids carry their conversation's place in it, and
    each conversation is moved in time to begin a day after the one before ends. With
    ``share`` under 1 each conversation is its first ``share`` of messages, asked only
    the questions whose evidence is all among them."""
    for start in range(0, len(folders), max(1, merge)):
        group = folders[start : start + max(1, merge)]
        turns: list[dict[str, Any]] = []
        questions: list[tuple[str, str, set[str]]] = []
        for i, folder in enumerate(group):
            chat = json.loads((folder / "chat.json").read_text(encoding="utf-8"))
            probing = json.loads((folder / "probing_questions.json").read_text(encoding="utf-8"))
            own = messages_of(chat)
            asked = list(questions_of(probing))
            if share < 1:
                own = own[: max(1, round(len(own) * share))]
                kept = {t["message_id"] for t in own}
                asked = [(a, q, ev) for a, q, ev in asked if ev <= kept]
            if len(group) > 1:
                shift = (
                    max(0.0, turns[-1]["timestamp"] + 86_400 - own[0]["timestamp"])
                    if turns
                    else 0.0
                )
                for t in own:
                    t["message_id"] = f"{i}:{t['message_id']}"
                    t["session_id"] = f"{i}:{t['session_id']}"
                    t["timestamp"] += shift
                asked = [(a, q, {f"{i}:{e}" for e in ev}) for a, q, ev in asked]
            turns += own
            questions += asked
        name = "+".join(f.name for f in group)
        yield (f"{name}@{share:g}" if share < 1 else name), turns, questions


def questions_of(probing: dict[str, list[dict[str, Any]]]) -> Iterator[tuple[str, str, set[str]]]:
    """(ability, question, evidence ids) of the retrieval questions."""
    for ability, items in probing.items():
        for q in items:
            ids = q.get("source_chat_ids")
            if not isinstance(ids, list):
                continue
            flat = {str(i) for i in _flatten(ids)}
            if flat:
                yield ability, str(q["question"]), flat


def _flatten(ids: list[Any]) -> Iterator[Any]:
    for i in ids:
        if isinstance(i, list):
            yield from _flatten(i)
        else:
            yield i


# -- the memory ----------------------------------------------------------------------------


@contextmanager
def profile(
    home: Path | None, overrides: dict[str, Any], last: float, preset: str | None = None
) -> Iterator[MemoryAPI]:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(home or Path(tmp), env={}, overrides=overrides)
        if preset:
            cfg = cfg.with_recall_preset(preset)
        with MemoryAPI(cfg, clock=FrozenClock(last), actor="beam") as api:
            yield api


def build(api: MemoryAPI, turns: list[dict[str, Any]]) -> float:
    """Ingest every turn, a session at a time; the seconds it took."""
    if api.semantic is not None:
        api.semantic.embedder.embed_batch(["warm up"])  # load outside the timing
    started = time.perf_counter()
    by_session: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for t in turns:
        by_session[t["session_id"]].append(t)
    for session in by_session.values():
        for start in range(0, len(session), 64):
            unwrap(api.ingest_turns(session[start : start + 64]))
    return time.perf_counter() - started


def run(args: argparse.Namespace) -> dict[str, Any]:
    folders = conversations(Path(args.data))[args.skip : args.skip + args.conversations]
    overrides = settings(args.set)
    rows: dict[str, dict[str, list[tuple[float, float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    latencies: list[float] = []
    stage_ms: dict[str, list[float]] = defaultdict(list)
    first_ms: list[float] = []
    built_chars = 0
    built_s = 0.0
    dump: list[dict[str, Any]] = []
    embedder = None
    for unit, turns, questions in units(folders, args.merge, args.share):
        if not questions:
            continue
        last = max(t["timestamp"] for t in turns)
        valid = {t["message_id"] for t in turns}
        home = Path(args.profiles) / unit if args.profiles else None
        reuse = home is not None and (home / DONE).exists()
        if home is not None and not reuse and home.exists():
            shutil.rmtree(home)  # a build cut short
        with profile(home, overrides, last, args.preset) as api:
            if not reuse:
                built_s += build(api, turns)
                built_chars += sum(len(t["text"]) for t in turns)
                if home is not None:
                    (home / DONE).write_text(json.dumps({"turns": len(turns)}))
            if embedder is None and api.semantic is not None:
                embedder = api.semantic.embedder
            base = Baselines(turns, embedder, Path(args.cache)) if not args.no_baselines else None
            api.clock.set(last + 86_400)  # type: ignore[attr-defined]
            # The first recall of a process opens the saved vector copy and reads the
            # speakers: timed on its own, so the latencies below are the warm ones.
            t0 = time.perf_counter()
            unwrap(api.recall("warm up", limit=10, limit_per_tier=10))
            first_ms.append((time.perf_counter() - t0) * 1000)
            for ability, question, evidence in questions:
                evidence &= valid
                if not evidence:
                    continue
                t0 = time.perf_counter()
                env = api.recall(question, limit=10, limit_per_tier=10)
                latencies.append((time.perf_counter() - t0) * 1000)
                results = unwrap(env)
                for stage, ms in env["meta"].get("timings_ms", {}).items():
                    stage_ms[stage].append(ms)
                ranked = {"hermes": pointed_at(results)}
                if base is not None:
                    ranked.update({k: [{i} for i in v] for k, v in base.rankings(question).items()})
                for name, ids in ranked.items():
                    rows[name][ability].append(_score(ids, evidence))
                dump.append(
                    {
                        "conversation": unit,
                        "ability": ability,
                        "question": question,
                        "evidence": sorted(evidence, key=_numbers),
                        "hermes": [sorted(ids) for ids in ranked["hermes"]],
                        "r10": _score(ranked["hermes"], evidence)[1],
                        **{
                            f"{k}_r10": _score(v, evidence)[1]
                            for k, v in ranked.items()
                            if k != "hermes"
                        },
                    }
                )
    if args.dump:
        Path(args.dump).write_text(json.dumps(dump, indent=1))
    report = _report(args, folders, rows, latencies, built_chars, built_s)
    report["stage_ms_median"] = {k: round(statistics.median(v), 3) for k, v in stage_ms.items()}
    report["first_recall_ms_median"] = round(statistics.median(first_ms), 1)
    if embedder is not None:
        # The unit of the latency target: one query through the model, same run.
        asked = [q for _, q, _ in questions]
        embed_ms = []
        for q in asked * 3:
            t0 = time.perf_counter()
            embedder.embed_batch([q])
            embed_ms.append((time.perf_counter() - t0) * 1000)
        one = statistics.median(embed_ms)
        report["query_embedding_ms_median"] = round(one, 2)
        report["recall_p95_in_query_embeddings"] = round(report["recall_ms_p95"] / one, 2)
    return report


def speed(args: argparse.Namespace) -> dict[str, Any]:
    """Per-turn ingest (``ingest_turn``, one message at a time, as the provider's
    ``sync_turn``) against the raw embedder on the same text cut the same way, one
    call per message, in the same process: chars/s of each and their ratio."""
    from hermes_memory.tier3.chunks import chunk_text

    folder = conversations(Path(args.data))[args.skip]
    chat = json.loads((folder / "chat.json").read_text(encoding="utf-8"))
    turns = messages_of(chat)[: args.speed]
    chars = sum(len(t["text"]) for t in turns)
    with profile(None, settings(args.set), turns[-1]["timestamp"]) as api:
        assert api.semantic is not None
        embedder = api.semantic.embedder
        size, overlap = api.semantic.chunk_size, api.semantic.chunk_overlap
        embedder.embed_batch(["warm up"])

        def raw() -> float:
            t0 = time.perf_counter()
            for t in turns:
                embedder.embed_batch(chunk_text(f"{t['speaker']}: {t['text']}", size, overlap))
            return time.perf_counter() - t0

        raw_s = [raw()]
        t0 = time.perf_counter()
        for t in turns:
            turn = {k: t[k] for k in ("session_id", "message_id", "timestamp")}
            unwrap(api.ingest_turn(t["speaker"], t["text"], **turn))
        ingest_s = time.perf_counter() - t0
        raw_s.append(raw())
    raw_rate = chars / statistics.median(raw_s)
    return {
        "conversation": folder.name,
        "messages": len(turns),
        "chars": chars,
        "ingest_turn_chars_per_s": round(chars / ingest_s),
        "raw_embedder_chars_per_s": round(raw_rate),
        "share_of_raw_embedder": round(chars / ingest_s / raw_rate, 3),
        "turns_per_s": round(len(turns) / ingest_s, 2),
    }


def _score(ids: list[set[str]], evidence: set[str]) -> tuple[float, float, float]:
    """Recall@5, Recall@10 and hit@5 of a ranking (each entry: the messages one
    result stands for)."""
    top5, top10 = set().union(*ids[:5]), set().union(*ids[:10])
    return (
        len(evidence & top5) / len(evidence),
        len(evidence & top10) / len(evidence),
        1.0 if evidence & top5 else 0.0,
    )


def _report(
    args: argparse.Namespace,
    folders: list[Path],
    rows: dict[str, dict[str, list[tuple[float, float, float]]]],
    latencies: list[float],
    built_chars: int,
    built_s: float,
) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for name, by_ability in rows.items():
        everything = [r for rs in by_ability.values() for r in rs]
        table[name] = {
            "questions": len(everything),
            "recall@5": _mean(r[0] for r in everything),
            "recall@10": _mean(r[1] for r in everything),
            "hit@5": _mean(r[2] for r in everything),
            "abilities": {
                a: _mean(r[1] for r in by_ability[a]) for a in ABILITIES if a in by_ability
            },
        }
    report: dict[str, Any] = {
        "preset": args.preset or "default",
        "set": args.set,
        "conversations": [f.name for f in folders],
        "retrievers": table,
    }
    plain = [n for n in ("minilm", "bm25", "rrf") if n in table]
    if plain:
        best = max(plain, key=lambda n: table[n]["recall@10"])
        report["best_baseline"] = best
        report["ratio_to_best"] = round(
            table["hermes"]["recall@10"] / max(table[best]["recall@10"], 1e-9), 3
        )
        plain_cos = table["minilm"]["abilities"]
        report["ratio_per_ability_to_minilm"] = {
            a: round(v / plain_cos[a], 3) if plain_cos.get(a) else None
            for a, v in table["hermes"]["abilities"].items()
        }
    report["recall_ms_median"] = round(statistics.median(latencies), 2)
    report["recall_ms_p95"] = round(sorted(latencies)[int(len(latencies) * 0.95) - 1], 2)
    if built_s:
        report["ingest_chars_per_s"] = round(built_chars / built_s)
    return report


def _numbers(message_id: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", message_id)]


def _mean(values: Any) -> float:
    vs = list(values)
    return round(sum(vs) / len(vs), 4) if vs else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--preset", help="recall preset, e.g. similarity")
    parser.add_argument("--conversations", type=int, default=12)
    parser.add_argument("--skip", type=int, default=0, help="start at this conversation")
    parser.add_argument("--profiles", help="keep the built stores here and reuse them")
    parser.add_argument(
        "--cache",
        default=str(Path(tempfile.gettempdir()) / "beam-cache"),
        help="baseline vectors are cached here",
    )
    parser.add_argument(
        "--merge", type=int, default=1, metavar="K", help="K conversations to a profile"
    )
    parser.add_argument(
        "--share",
        type=float,
        default=1.0,
        help="each conversation cut to its first SHARE of messages (0-1], asked the "
        "questions answered there",
    )
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--dump", help="write every question's ranking to this JSON file")
    parser.add_argument(
        "--speed",
        type=int,
        metavar="N",
        help="instead: time per-turn ingest of the first N messages against the raw embedder",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="override a setting, e.g. recall.speaker_boost=0 (repeatable); for ablations",
    )
    args = parser.parse_args()
    if not Path(args.data).exists():
        sys.exit(f"BEAM data not found at {args.data}")
    print(json.dumps(speed(args) if args.speed else run(args), indent=2))


if __name__ == "__main__":
    main()
