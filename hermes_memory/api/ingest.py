"""Conversation turns in bulk: validate every turn, store them losslessly in one
transaction and link each new one into the graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_memory.api import formation
from hermes_memory.clock import parse_time
from hermes_memory.errors import ValidationError
from hermes_memory.graph.word_use import WordUse
from hermes_memory.tier2 import TurnInput
from hermes_memory.tier2.episodes import screened_attachments
from hermes_memory.validation import (
    clean_text,
    require_attachments,
    require_id,
    require_metadata,
)

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


def store_turns(api: MemoryAPI, turns: list[dict[str, Any]]) -> tuple[list[Any], list[str]]:
    """Store turns, link them and form the facts they state: ``(episode, created)`` for
    each turn, and the uuids of the facts formed."""
    if not turns:
        raise ValidationError("no turns given", field="turns")
    now = api.clock()
    inputs = []
    for i, t in enumerate(turns):
        where = f"turns[{i}]" if len(turns) > 1 else "turn"
        if not isinstance(t, dict):
            raise ValidationError("must be a mapping", field=where)
        # A turn is what was said: kept whole (invalid code points replaced),
        # injection-looking text flagged and secrets redacted, never refused: refusing
        # would lose the rest of the turn, and the conversation around a pasted config.
        text, flags = api.screen(
            clean_text(t.get("text")),
            "text",
            injection="flag",
            secrets="redact",
            max_chars=api.config.tier2.max_turn_chars,
        )
        # The speaker's name is shown beside the text wherever the turn goes (prefetch,
        # recall), so it passes the same guard.
        speaker, speaker_flags = api.screen(
            clean_text(t.get("speaker")), "speaker", injection="flag", secrets="redact",
            max_chars=200,
        )  # fmt: skip
        flags += [f"speaker:{f}" for f in speaker_flags]
        metadata, shared_flags = screened_attachments(
            require_attachments(require_metadata(t.get("metadata"))),
            lambda said, key: api.screen(
                said, f"metadata.attachments.{key}", injection="flag", secrets="redact"
            ),
        )
        flags += [f"attachment:{f}" for f in shared_flags]
        ts = t.get("timestamp")
        inputs.append(
            TurnInput(
                speaker=speaker,
                text=text,
                session_id=require_id(t.get("session_id"), "session_id"),
                message_id=require_id(t.get("message_id"), "message_id"),
                timestamp=now if ts is None else parse_time(ts, "timestamp"),
                metadata=metadata,
                flags=tuple(flags),
            )
        )
    # What each turn says is read before the write transaction: the lock is held for
    # the inserts alone, however long the messages are.
    # The batch's own words count with the store's in telling names from common words.
    use = WordUse(api.db, api.owner, (t.text for t in inputs))
    readings = [api.reading(t.text, t.timestamp, speaker=t.speaker, casing=use) for t in inputs]
    # The provider says which turns are the person's own ("role": "user") when their
    # speaker is a display name; otherwise the speaker is the role.
    owners = [t.get("role") == "user" for t in turns]
    planned = formation.plan(api, inputs, owners, casing=use)
    with api.db.transaction():
        stored = api.episodes.add_many(api.owner, inputs, now=now, actor=api.actor)
        for (episode, created), reading in zip(stored, readings, strict=True):
            if created:
                api.link("episode", episode.rowid, episode.uuid, episode.text, reading)
        formed = formation.form(api, planned, stored)
    return stored, formed
