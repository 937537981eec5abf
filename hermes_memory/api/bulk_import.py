"""Bulk import of facts and conversation turns from a JSONL file.

One JSON object per line: a fact (``content`` plus optional ``category``,
``importance``, ``confidence``, ``scope``, ``valid_at``, ``expires_at``,
``source_id``, ``metadata``) or a turn (``speaker``, ``text``, ``session_id``,
``message_id``, optional ``timestamp``, ``metadata``); ``"type": "fact"|"turn"``
may say which, otherwise it is inferred. ``role`` is read as ``speaker``, and a fact
given as ``{"text": ...}`` as its ``content``. Lines are written a batch per
transaction together with the file's checkpoint, so an interrupted import resumes
after the last committed batch; embedding runs per batch, batched. A bad line
stops the import with its line number (its batch rolled back, nothing
half-written) unless ``skip_invalid``, which reports it and goes on.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_memory.api import semantic_ops
from hermes_memory.errors import HermesMemoryError, StorageError, ValidationError
from hermes_memory.tier2 import imports

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

FACT_KEYS = frozenset(
    {"type", "content", "category", "importance", "confidence", "scope", "valid_at"}
    | {"expires_at", "source_id", "metadata"}
    # as ``export`` writes them: its id in the exported store, where it came from, the
    # messages it was drawn from, when it stopped holding and the facts it replaced
    | {"id", "source", "evidence_ids", "invalid_at", "supersedes"}
)
TURN_KEYS = frozenset({"type", "speaker", "text", "session_id", "message_id"})
TURN_KEYS |= {"timestamp", "metadata"}
ENTITY_KEYS = frozenset({"type", "name", "entity_type", "aliases", "description"})
RELATION_KEYS = frozenset({"type", "from", "relation", "to", "strength"})
EVENT_KEYS = frozenset(
    {"type", "event_type", "title", "description", "importance", "timestamp"} | {"related_entities"}
)
KEYS = {
    "fact": FACT_KEYS,
    "turn": TURN_KEYS,
    "entity": ENTITY_KEYS,
    "relation": RELATION_KEYS,
    "event": EVENT_KEYS,
}
_HEAD = 64 * 1024


@dataclass
class ImportReport:
    lines: int = 0
    resumed_at: int = 0
    facts: int = 0
    turns: int = 0
    duplicates: int = 0
    skipped: list[str] = field(default_factory=list)
    embedded: int = 0
    others: int = 0  # entities, relations, events
    # An exported fact's id -> the id it got here (for the facts that supersede it).
    fact_ids: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "resumed_at_line": self.resumed_at,
            "facts": self.facts,
            "turns": self.turns,
            "entities_relations_events": self.others,
            "duplicates": self.duplicates,
            "skipped": len(self.skipped),
            "skipped_lines": self.skipped[:20],
            "embedded": self.embedded,
        }


def fingerprint(path: Path, length: int) -> str:
    """Identity of what was imported: a hash of the file's first ``length`` bytes (at
    most 64 KiB), so a file that only grew since resumes, and any other change starts
    over (duplicates are recognised, not stored twice)."""
    length = min(length, _HEAD)
    with path.open("rb") as fh:
        return f"{length}:{hashlib.sha256(fh.read(length)).hexdigest()}"


def _resumes(path: Path, mark: str) -> bool:
    length, _, _ = mark.partition(":")
    return length.isdigit() and fingerprint(path, int(length)) == mark


def count_lines(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def _records(path: Path, start: int) -> Iterator[tuple[int, str, int]]:
    """(line number, text, byte offset after it) of every line after ``start``."""
    offset = 0
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            offset += len(raw)
            if number > start:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise ValidationError(
                        f"not UTF-8 ({exc.reason})", field=f"line {number}"
                    ) from None
                yield number, text, offset


def parse_line(number: int, line: str) -> tuple[str, dict[str, Any]] | None:
    """(kind, fields) of one line; None for a blank line. Raises ValidationError."""
    if not line.strip():
        return None
    where = f"line {number}"
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"not JSON ({exc.msg})", field=where) from None
    if not isinstance(obj, dict):
        raise ValidationError("must be a JSON object", field=where)
    if "role" in obj and "speaker" not in obj:
        obj["speaker"] = obj.pop("role")  # chat exports name the speaker by role
    kind = obj.get("type") or ("turn" if "speaker" in obj and "text" in obj else "fact")
    if kind not in KEYS:
        raise ValidationError(f"type must be one of {', '.join(KEYS)}", field=where)
    if kind == "fact" and "content" not in obj and "text" in obj:
        obj["content"] = obj.pop("text")  # {"text": ...} alone is a fact's text
    allowed = KEYS[kind]
    unknown = sorted(set(obj) - allowed)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(allowed), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValidationError(
            f"unknown key {unknown[0]!r} for a {kind}{hint}; a {kind} takes "
            f"{', '.join(sorted(allowed - {'type'}))}",
            field=where,
        )
    obj.pop("type", None)
    return kind, obj


def import_jsonl(
    api: MemoryAPI,
    path: Path,
    *,
    batch_size: int = 1000,
    skip_invalid: bool = False,
    embed: bool = True,
    advance: Callable[[int], None] = lambda n: None,
) -> ImportReport:
    """Import ``path`` into ``api``'s profile, resuming from its checkpoint."""
    if not path.is_file():
        raise StorageError(f"no file at {path}", path=str(path))
    source = str(path.resolve())
    row = imports.checkpoint(api.db, source)
    resumable = row is not None and _resumes(path, row[0])
    start = row[1] if row is not None and resumable else 0
    report = ImportReport(lines=start, resumed_at=start)
    advance(start)
    view = _deferred(api)
    marks: dict[int, str] = {}  # past 64 KiB the fingerprint stops changing: read it once
    sem = api.semantic if embed else None
    # The model embeds on worker threads, batch by batch in order, while the main
    # thread parses and stores the next batch and writes the vectors of the one before
    # (native threads, no GIL, no database lock held: the texts are read first). Two
    # batches are with the model at once, so it starts the next one while finishing
    # the last pieces of the one before, and is never idle while there is work.
    in_flight: tuple[list[str], Future[dict[str, Any]]] | None = None
    worker = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hermes-import-embed")

    def to_model(written: list[str]) -> None:
        """Queue ``written`` for the model, then write the batch queued before it."""
        nonlocal in_flight
        done, in_flight = in_flight, None
        if sem is not None and written:
            in_flight = (written, worker.submit(semantic_ops.embedding_of(sem, written)))
        if done is not None:
            write(*done)

    def write(written: list[str], future: Future[dict[str, Any]]) -> None:
        # A failed model run came back empty: the drain embeds again, item by item if it
        # must. Only items this import created are queued (a duplicate line is not), so
        # none of them has vector rows yet.
        report.embedded += semantic_ops.embed_now(sem, written, future.result(), new_items=True)

    def commit(lines: list[tuple[int, str]], offset: int) -> None:
        length = min(offset, _HEAD)
        if length not in marks:
            marks[length] = fingerprint(path, length)
        to_model(_commit(view, source, marks[length], lines, report, skip_invalid))
        advance(len(lines))

    try:
        pending: list[tuple[int, str]] = []
        offset = 0
        # The first batches are small and double: the model, idle until a batch is
        # stored, starts after an eighth of one (storing takes about half as long as
        # embedding, so each batch is ready before the model finishes the one before).
        size = min(batch_size, max(64, batch_size // 8))
        for number, line, offset in _records(path, start):
            pending.append((number, line))
            if len(pending) >= size:
                commit(pending, offset)
                pending = []
                size = min(batch_size, size * 2)
        if pending:
            commit(pending, offset)
        to_model([])  # writes the last batch
    finally:
        worker.shutdown(wait=True)  # an error above still lets the batch in flight finish
    return report


def _deferred(api: MemoryAPI) -> MemoryAPI:
    """A view of ``api`` that leaves embedding to the batch (one model call per batch)."""
    view = copy.copy(api)
    tier3 = api.config.tier3.model_copy(update={"embed_inline": False})
    view.config = api.config.model_copy(update={"tier3": tier3})
    return view


def _commit(
    api: MemoryAPI,
    source: str,
    mark: str,
    lines: list[tuple[int, str]],
    report: ImportReport,
    skip_invalid: bool,
) -> list[str]:
    """Store one batch and its checkpoint in one transaction; the stored uuids."""
    written: list[str] = []
    counts = {"fact": 0, "turn": 0, "dup": 0, "entity": 0, "relation": 0, "event": 0}
    skipped: list[str] = []
    with api.db.transaction() as conn, api.db.without_savepoints():
        for number, line in lines:
            try:
                parsed = parse_line(number, line)
                if parsed is None:
                    continue
                kind, fields = parsed
                # A line that fails rolls back alone when it may be skipped; otherwise
                # the batch rolls back, so the line needs no savepoint of its own.
                with api.db.transaction(savepoint=skip_invalid):
                    uuids, created = _store(api, kind, fields, number, report.fact_ids)
            except HermesMemoryError as exc:
                if not skip_invalid:
                    raise  # the batch rolls back; the checkpoint stays before it
                where = f"line {number}"
                said = str(exc)
                skipped.append(said if said.startswith(f"{where}:") else f"{where}: {said}")
                continue
            written.extend(uuids)
            counts[kind if created else "dup"] += 1
        imports.save_checkpoint(
            conn,
            source,
            fingerprint=mark,
            lines_done=lines[-1][0],
            items=counts["fact"] + counts["turn"],
            now=api.clock(),
        )
    report.lines = lines[-1][0]
    report.facts += counts["fact"]
    report.turns += counts["turn"]
    report.duplicates += counts["dup"]
    report.others += counts["entity"] + counts["relation"] + counts["event"]
    report.skipped.extend(skipped)
    return written


def _store(
    api: MemoryAPI, kind: str, fields: dict[str, Any], number: int, fact_ids: dict[str, str]
) -> tuple[list[str], bool]:
    """Store one line: the uuids to embed (a turn's, and the facts formed from it; a
    fact's) and whether the line was new."""
    where = f"line {number}"
    if kind == "turn":
        env = api.ingest_turns([fields], embed=False)
        _check(env, where)
        return [str(env["data"][0]), *env["meta"]["formed"]], bool(env["meta"]["created"])
    if kind == "fact":
        return _store_fact(api, fields, where, fact_ids)
    need: dict[str, Any] = {k: _needed(fields, k, where) for k in _REQUIRED[kind]}
    if kind == "entity":
        env = api.entity_ensure(
            need["name"], fields.get("entity_type", "concept"), fields.get("aliases"),
            fields.get("description"),
        )  # fmt: skip
    elif kind == "relation":
        env = api.entity_link(
            need["from"], need["to"], need["relation"], fields.get("strength", 1.0)
        )
    else:
        env = api.timeline_add(
            need["event_type"], need["title"], fields.get("description"),
            fields.get("importance", 0.5), fields.get("related_entities"),
            timestamp=fields.get("timestamp"),
        )  # fmt: skip
    _check(env, where)
    return [], True


def _store_fact(
    api: MemoryAPI, fields: dict[str, Any], where: str, fact_ids: dict[str, str]
) -> tuple[list[str], bool]:
    content = fields.pop("content", None)
    old_id = fields.pop("id", None)
    replaced = fields.pop("supersedes", None) or []
    invalid_at = fields.pop("invalid_at", None)
    said_in = fields.pop("evidence_ids", None) or []
    source = fields.pop("source", "import")
    if not isinstance(said_in, list) or not isinstance(replaced, list):
        raise ValidationError("evidence_ids and supersedes must be lists", field=where)
    env = api.fact_store(content, source=source, evidence_ids=_episodes(api, said_in), **fields)
    _check(env, where)
    uuid = str(env["data"]["uuid"])
    if old_id is not None:
        fact_ids[str(old_id)] = uuid
    for old in replaced:
        if str(old) in fact_ids:
            api.facts.supersede(
                api.owner, fact_ids[str(old)], by=uuid, now=api.clock(), actor=api.actor
            )
    if invalid_at is not None:
        _check(api.fact_update(uuid, invalid_at=invalid_at), where)
    return [uuid], bool(env["meta"]["created"])


def _episodes(api: MemoryAPI, message_ids: list[Any]) -> list[str]:
    """The uuids of this owner's turns with these message ids (a fact's evidence)."""
    if not message_ids:
        return []
    return api.episodes.with_message_ids(api.owner, [str(m) for m in message_ids])


_REQUIRED = {
    "entity": ("name",),
    "relation": ("from", "relation", "to"),
    "event": ("event_type", "title"),
}


def _needed(fields: dict[str, Any], key: str, where: str) -> Any:
    if fields.get(key) is None:
        raise ValidationError(f"{key!r} is required", field=where)
    return fields[key]


def _check(env: dict[str, Any], where: str) -> None:
    if not env["success"]:
        raise ValidationError(env["error"], field=where)
