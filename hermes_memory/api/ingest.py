"""Conversation turns in bulk: validate every turn, store them losslessly in one
transaction and link each new one into the graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_memory.clock import parse_time
from hermes_memory.errors import ValidationError
from hermes_memory.tier2 import TurnInput
from hermes_memory.validation import require_id, require_metadata, require_text

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


def store_turns(api: MemoryAPI, turns: list[dict[str, Any]]) -> tuple[list[Any], list[str]]:
    """Store turns and link them; also return the entities they introduced."""
    if not turns:
        raise ValidationError("no turns given", field="turns")
    now = api.clock()
    inputs = []
    for i, t in enumerate(turns):
        where = f"turns[{i}]" if len(turns) > 1 else "turn"
        if not isinstance(t, dict):
            raise ValidationError("must be a mapping", field=where)
        # A turn is what was said: stored losslessly, injection-looking text flagged
        # (never refused); secrets still follow the configured policy.
        text, flags = api._screen(t.get("text"), "text", injection="flag")
        ts = t.get("timestamp")
        inputs.append(
            TurnInput(
                speaker=require_text(t.get("speaker"), "speaker", max_chars=200),
                text=text,
                session_id=require_id(t.get("session_id"), "session_id"),
                message_id=require_id(t.get("message_id"), "message_id"),
                timestamp=now if ts is None else parse_time(ts, "timestamp"),
                metadata=require_metadata(t.get("metadata")),
                flags=tuple(flags),
            )
        )
    entities: list[str] = []
    with api.db.transaction():
        stored = api.episodes.add_many(api.owner, inputs, now=now, actor=api.actor)
        for episode, created in stored:
            if created:
                links = api._link(
                    "episode",
                    episode.rowid,
                    episode.uuid,
                    episode.text,
                    episode.timestamp,
                    speaker=episode.speaker,
                )
                entities.extend(links.new_entity_uuids if links else [])
    return stored, entities
