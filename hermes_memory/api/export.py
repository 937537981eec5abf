"""Export: an owner's memory as JSONL in the format ``import`` reads.

Lines come in the order an import needs them: turns (by time), then facts (by the
time they were recorded, each naming the facts it superseded and the messages it
was drawn from), then the entities and relations stated directly (``entity_add``,
``entity_link``), and the timeline events added directly. What the graph derived from
text (mentions, the names and relations a fact or turn states, the dates a turn names)
is not written: an import
links the turns and facts again and derives it anew. Only what this owner can see is
exported: their durable memories and, for a chat's owner, that chat's own.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_memory.clock import to_iso
from hermes_memory.fileio import write_atomic
from hermes_memory.tier2 import dump
from hermes_memory.validation import require_output_outside

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI

# Timeline rows the linker writes for the dates a text names (graph/linker.py).
DERIVED_EVENT = "mentioned_date"


def export_to(api: MemoryAPI, path: Path | None) -> dict[str, int]:
    """Write the export to ``path`` (atomically; None: standard output); the number
    of lines of each type."""
    counts: dict[str, int] = {}

    def lines() -> Iterator[bytes]:
        for line in export_lines(api):
            counts[line["type"]] = counts.get(line["type"], 0) + 1
            yield (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")

    if path is None:
        for chunk in lines():
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
        return counts
    cfg = api.config
    target = require_output_outside(path, [cfg.memory_dir, cfg.curated_dir], [], "file")
    write_atomic(target, lambda fh: fh.writelines(lines()), prefix=".export-")
    return counts


def export_lines(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    """Every exported record, as import lines (dicts), in import order."""
    yield from _turns(api)
    yield from _facts(api)
    yield from _entities(api)
    yield from _relations(api)
    yield from _events(api)


def _turns(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    for r in dump.turns(api.db, api.owner):
        line = {
            "type": "turn",
            "speaker": r["speaker"],
            "text": r["text"],
            "session_id": r["session_id"],
            "message_id": r["message_id"],
            "timestamp": to_iso(r["timestamp"]),
        }
        metadata = json.loads(r["metadata"] or "{}")
        attachments = json.loads(r["attachments"] or "null")
        if attachments:
            metadata["attachments"] = attachments
        if metadata:
            line["metadata"] = metadata
        yield line


def _facts(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    rows = dump.facts(api.db, api.owner)
    supersedes: dict[str, list[str]] = {}
    for r in rows:
        if r["superseded_by"]:
            supersedes.setdefault(r["superseded_by"], []).append(r["uuid"])
    evidence = dump.evidence_messages(api.db, api.owner)
    for r in rows:
        line: dict[str, Any] = {
            "type": "fact",
            "id": r["uuid"],
            "content": r["content"],
            "category": r["category"],
            "importance": r["importance"],
            "confidence": r["confidence"],
            "scope": r["scope"],
            "source": r["source_type"],
        }
        optional = {
            "valid_at": to_iso(r["valid_at"]),
            "invalid_at": to_iso(r["invalid_at"]) if not r["superseded_by"] else None,
            "expires_at": to_iso(r["expires_at"]),
            "source_id": r["source_id"],
            "metadata": json.loads(r["metadata"] or "{}") or None,
            "evidence_ids": evidence.get(r["id"]),
            "supersedes": supersedes.get(r["uuid"]),
        }
        line.update({k: v for k, v in optional.items() if v is not None})
        yield line


def _entities(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    for r in dump.entities(api.db, api.owner):
        line: dict[str, Any] = {
            "type": "entity",
            "name": r["name"],
            "entity_type": r["entity_type"],
        }
        aliases = json.loads(r["aliases"] or "[]")
        if aliases:
            line["aliases"] = aliases
        if r["description"]:
            line["description"] = r["description"]
        yield line


def _relations(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    for r in dump.stated_relations(api.db, api.owner):
        yield {
            "type": "relation",
            "from": r["head"],
            "relation": r["relation_type"],
            "to": r["tail"],
            "strength": r["strength"],
        }


def _events(api: MemoryAPI) -> Iterator[dict[str, Any]]:
    for r in dump.events(api.db, api.owner, except_type=DERIVED_EVENT):
        line: dict[str, Any] = {
            "type": "event",
            "event_type": r["event_type"],
            "title": r["title"],
            "timestamp": to_iso(r["timestamp"]),
            "importance": r["importance"],
        }
        if r["description"]:
            line["description"] = r["description"]
        entities = json.loads(r["related_entities"] or "[]")
        if entities:
            line["related_entities"] = entities
        yield line
