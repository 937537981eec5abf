"""Entities, relations and the timeline behind the facade's ``entity_*`` and
``timeline_*`` methods: each function checks its arguments, screens the text the
graph and the timeline show, writes through the tier-2 stores, and returns what the
envelope carries (``MemoryAPI`` wraps it with ``run``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hermes_memory.api.adjust import ASSISTANT_ROLES
from hermes_memory.api.changed import changed_statements
from hermes_memory.clock import parse_time
from hermes_memory.errors import ValidationError
from hermes_memory.text.temporal import shown_date
from hermes_memory.tier2.entities import ENTITY_TYPES, RELATION_NAME
from hermes_memory.tier2.records import TimelineEvent
from hermes_memory.tier2.timeline import EVENT_TYPES
from hermes_memory.validation import (
    optional_text,
    optional_time,
    require_choice,
    require_id_list,
    require_limit,
    require_text,
    require_unit,
)

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


def ensure(
    api: MemoryAPI,
    name: str,
    entity_type: str,
    aliases: Sequence[str] | None,
    description: str | None,
) -> tuple[Any, dict[str, Any]]:
    entity, created = api.entities.ensure(
        api.owner,
        name=api.screen_name(name, "name"),
        entity_type=require_choice(entity_type, "entity_type", ENTITY_TYPES),
        aliases=[api.screen_name(a, "aliases") for a in (aliases or [])],
        description=None
        if description is None
        else api.screen(description, "description", max_chars=2000)[0],
        now=api.clock(),
        actor=api.actor,
    )
    return entity.to_dict(), {"created": created, **api.index_now([entity.uuid])}


def link(
    api: MemoryAPI,
    from_name: str,
    to_name: str,
    relation: str,
    strength: float,
    evidence_fact: str | None,
) -> tuple[Any, dict[str, Any]]:
    rel = require_text(relation, "relation", max_chars=41).lower()
    if not RELATION_NAME.match(rel):
        raise ValidationError("must be snake_case, like depends_on", field="relation")
    relation_row, created = api.entities.link(
        api.owner,
        from_name=api.screen_name(from_name, "from_name"),
        to_name=api.screen_name(to_name, "to_name"),
        relation=rel,
        strength=require_unit(strength, "strength"),
        evidence_fact=optional_text(evidence_fact, "evidence_fact"),
        now=api.clock(),
        actor=api.actor,
    )
    ends = [relation_row.from_entity, relation_row.to_entity]
    return relation_row.to_dict(), {"created_entities": created, **api.index_now(ends)}


def query(
    api: MemoryAPI, name: str | None, entity_type: str | None, limit: int
) -> list[dict[str, Any]]:
    found = api.entities.search(
        api.owner,
        name=require_text(name, "name", max_chars=200) if name else None,
        entity_type=require_choice(entity_type, "entity_type", ENTITY_TYPES)
        if entity_type
        else None,
        limit=require_limit(limit),
    )
    relations = api.entities.relations_of(api.owner, [e.uuid for e in found])
    out = []
    for e in found:
        mine = [r.to_dict() for r in relations if e.uuid in (r.from_entity, r.to_entity)]
        out.append({**e.to_dict(), "relations": mine})
    return out


def add_event(
    api: MemoryAPI,
    event_type: str,
    title: str,
    description: str | None,
    importance: float,
    related_entities: Sequence[str] | None,
    *,
    timestamp: float | str | None,
    related_facts: Sequence[str] | None,
    session_id: str | None,
) -> tuple[Any, dict[str, Any]]:
    text, flags = api.screen(title, "title")
    desc = None
    if description is not None:
        desc, more = api.screen(description, "description")
        flags += [f for f in more if f not in flags]
    event = api.timeline.add(
        api.owner,
        event_type=require_choice(event_type, "event_type", EVENT_TYPES),
        title=text,
        description=desc,
        importance=require_unit(importance, "importance"),
        timestamp=api.clock() if timestamp is None else parse_time(timestamp, "timestamp"),
        related_entities=[api.screen_name(x, "related_entities") for x in related_entities or []],
        related_facts=require_id_list(related_facts or [], "related_facts"),
        session_id=optional_text(session_id, "session_id"),
        now=api.clock(),
        actor=api.actor,
        flags=flags,
    )
    return event.to_dict(), api.index_now([event.uuid])


def query_events(
    api: MemoryAPI,
    start: float | str | None,
    end: float | str | None,
    event_type: str | None,
    limit: int,
    text: str | None,
) -> list[dict[str, Any]]:
    limit = require_limit(limit)
    events = api.timeline.query(
        api.owner,
        start=optional_time(start, "start"),
        end=optional_time(end, "end"),
        event_type=require_choice(event_type, "event_type", EVENT_TYPES) if event_type else None,
        text=require_text(text, "query", max_chars=2000, allow_empty=True) if text else None,
        limit=2 * limit,  # room for the echoes left out below
    )
    events = _without_echoes(api, events)[:limit]
    out = [e.to_dict() for e in events]
    for event, item in zip(events, out, strict=True):
        item["when"] = shown_date(event.timestamp, event.precision)
    # A date named by a turn whose statement has since changed says so ("the beta
    # launch is planned for December 14th", then moved): as recall marks the turn.
    turns = sorted({e.source[1] for e in events if e.source and e.source[0] == "episode"})
    if turns:
        changed = changed_statements(api, turns, api.clock())
        for event, item in zip(events, out, strict=True):
            if event.source and changed.get(event.source[1]):
                item["since_changed"] = changed[event.source[1]]
    return out


def _without_echoes(api: MemoryAPI, events: list[TimelineEvent]) -> list[TimelineEvent]:
    """``events`` less the dates an assistant's turn named that a person's turn of the
    same chat named too ("Beta now December 4th" after "Marcus moved the beta deadline
    to December 4th"): the assistant repeating a date adds no event."""
    turns = [e.source[1] for e in events if e.source and e.source[0] == "episode"]
    if not turns:
        return events
    said = api.episodes.get_many(api.owner, sorted(set(turns)))

    def who(e: TimelineEvent) -> tuple[bool, tuple[float, str]] | None:
        turn = said.get(e.source[1]) if e.source and e.source[0] == "episode" else None
        if turn is None:
            return None
        return turn.speaker.casefold() in ASSISTANT_ROLES, (e.timestamp, turn.session_id)

    read = [who(e) for e in events]
    by_people = {r[1] for r in read if r is not None and not r[0]}
    echoes = {k for k, r in enumerate(read) if r is not None and r[0] and r[1] in by_people}
    return [e for k, e in enumerate(events) if k not in echoes]
