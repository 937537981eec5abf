"""The one agent-facing tool, ``hermes_memory``: an ``action`` plus its arguments.

:func:`handle` always returns a JSON string. ``recall`` answers in the shape of
the recall action of docs/design.md (``{"results": [...]}``); every other action answers
``{"success": true, "data": ..., "meta": ...}``. Bad arguments give
``{"success": false, "error": "<argument>: <what is wrong>"}``, never an exception.
The same table serves Hermes (:func:`tool_schema`) and the MCP server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hermes_memory.api.envelope import Envelope
from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.errors import HermesMemoryError
from hermes_memory.tier2.entities import ENTITY_TYPES
from hermes_memory.tier2.timeline import EVENT_TYPES
from hermes_memory.tools.context import date_notes

TOOL_NAME = "hermes_memory"

# What a recall result shows a model: the spec's fields, the id to act on, provenance
# (a long memory's content is its excerpt: _shown).
RECALL_FIELDS = (
    "content",
    "scope",
    "importance",
    "score",
    "match_reasons",
    "evidence_gaps",
    "created_at",
    "id",
    "tier",
    "kind",
    "similarity",
    "recency",
    "source_type",
    "source_id",
    "session_id",
    "evidence_ids",
    "flags",
)
RECALL_TIERS = ("tier1", "tier2", "tier3", "graph")
# How much of a memory one memory_get answer holds: an agent's turns can be logs of
# 100k+ characters, which must not land in the model's context in one piece.
GET_PAGE_CHARS = 8_000


@dataclass(frozen=True)
class Param:
    type: str  # JSON-schema type: string, integer, number, boolean, array, object
    description: str
    enum: tuple[str, ...] = ()


@dataclass(frozen=True)
class Action:
    name: str
    summary: str
    call: Callable[[MemoryAPI, dict[str, Any]], Envelope]
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    writes: bool = False
    operator: bool = False
    renames: Mapping[str, str] = field(default_factory=dict)  # tool arg -> API kwarg


PARAMS: dict[str, Param] = {
    "content": Param(
        "string",
        "recall: what to remember about (a question or topic); "
        "fact_store/fact_update: the fact, one self-contained sentence.",
    ),
    "query": Param("string", "Search words (fact_query, semantic_search, timeline_query)."),
    "limit": Param("integer", "How many results (default 5 for recall, 10 otherwise)."),
    "tiers": Param(
        "array",
        "recall only: tiers to search, any of "
        "tier1 (curated notes), tier2 (facts, turns, events), tier3 (semantic), "
        "graph (entities and relations). Default: all.",
        RECALL_TIERS,
    ),
    "scope": Param(
        "string",
        "Topic path like /projects/billing. recall/fact_query: only "
        "memories under it; fact_store: where the fact belongs.",
    ),
    "id": Param(
        "string",
        "The id of a fact (fact_update, fact_delete) or of a fact or turn "
        "(memory_get), from recall or fact_query results.",
    ),
    "offset": Param(
        "integer", "memory_get: the character to start from (the last answer's next_offset)."
    ),
    "category": Param(
        "string",
        "Fact category: user, preference, instruction, project, decision, ops, "
        "domain, tool, general (shared across this user's chats) or scratch "
        "(kept to this chat only).",
    ),
    "formed": Param(
        "boolean",
        "fact_query only: just the facts formed automatically from what the user said "
        "(standing instructions, preferences, personal facts, decisions, plans).",
    ),
    "importance": Param("number", "0-1; how much this matters later (default 0.5)."),
    "confidence": Param("number", "0-1; how sure the fact is (default 1)."),
    "valid_at": Param("string", "ISO date/time since when the fact holds (default: now)."),
    "expires_at": Param("string", "ISO date/time after which the fact is stale."),
    "name": Param("string", "An entity name (person, project, tool, place, ...)."),
    "entity_type": Param("string", "Entity type.", tuple(ENTITY_TYPES)),
    "aliases": Param("array", "Other names of the entity."),
    "description": Param("string", "A short description (entity_ensure, timeline_add)."),
    "from_entity": Param("string", "entity_link/graph_path: the first entity's name."),
    "to_entity": Param("string", "entity_link/graph_path: the second entity's name."),
    "relation": Param("string", "snake_case relation, e.g. works_on, depends_on, uses."),
    "strength": Param("number", "0-1 strength of the relation (default 1)."),
    "entity": Param("string", "graph_traverse: the entity to start from."),
    "depth": Param("integer", "graph_traverse: hops to follow (1-3, default 2)."),
    "event_type": Param("string", "Timeline event type.", tuple(EVENT_TYPES)),
    "title": Param("string", "timeline_add: what happened, in one line."),
    "timestamp": Param("string", "timeline_add: when it happened (ISO; default now)."),
    "entities": Param("array", "timeline_add: names of entities involved."),
    "start": Param("string", "timeline_query: earliest time (ISO)."),
    "end": Param("string", "timeline_query: latest time (ISO)."),
}


def _recall(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
    limit = a.get("limit", 5)
    return api.recall(
        a["content"], tiers=a.get("tiers"), limit_per_tier=max(5, limit), limit=limit,
        scope=a.get("scope"),
    )  # fmt: skip


def _memory_get(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
    """The memory's text a page at a time (GET_PAGE_CHARS), with where to go on."""
    offset = a.get("offset", 0)
    if offset < 0:
        return _invalid("offset", "must be 0 or more")
    env = api.memory_get(a["id"])
    if not env["success"]:
        return env
    data = dict(env["data"])
    field_name = "text" if data["kind"] == "episode" else "content"
    whole = str(data[field_name])
    end = offset + GET_PAGE_CHARS
    data[field_name] = whole[offset:end]
    said = {**data, "created_at": data.get("timestamp") or data.get("created_at")}
    if api.config.agent.block_dates and (meant := date_notes(said, data[field_name])):
        data["dates"] = meant  # as recall's results
    page = {"offset": offset, "total_chars": len(whole)}
    page["next_offset"] = end if end < len(whole) else None
    return {**env, "data": data, "meta": {**env["meta"], **page}}


def _fact_store(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
    kw = {k: a[k] for k in ("importance", "scope", "valid_at", "expires_at") if k in a}
    return api.fact_store(
        a["content"], category=a.get("category", "general"),
        confidence=a.get("confidence", 1.0), source="tool", **kw,
    )  # fmt: skip


def _fact_update(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
    fields = {k: v for k, v in a.items() if k != "id"}
    if not fields:
        return _invalid("content", "give at least one field to change")
    return api.fact_update(a["id"], **fields)


def _timeline_add(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
    return api.timeline_add(
        a.get("event_type", "milestone"), a["title"], a.get("description"),
        a.get("importance", 0.5), a.get("entities"), timestamp=a.get("timestamp"),
    )  # fmt: skip


def _job(name: str) -> Callable[[MemoryAPI, dict[str, Any]], Envelope]:
    def call(api: MemoryAPI, a: dict[str, Any]) -> Envelope:
        from hermes_memory.cron.scheduler import run_job  # the tool layer sits above cron

        out = run_job(api, name, trigger="tool")
        ok = out.status == "ok"
        return {
            "success": ok,
            "data": out.report,
            "meta": {"status": out.status},
            "error": None if ok else f"{name}: {out.status}: {out.error}",
        }

    return call


ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action("recall", "Ranked memories about a topic from every tier (similarity, "
               "recency and importance), each with why it matched and what is missing.",
               _recall, ("content",), ("limit", "tiers", "scope")),
        Action("memory_get", "The whole text of a fact or turn by the id recall gave it "
               "(recall shows a long memory by the passage that matched), "
               f"{GET_PAGE_CHARS} characters at a time.",
               _memory_get, ("id",), ("offset",)),
        Action("fact_store", "Remember a fact (deduplicated; the newer of two contradicting "
               "facts supersedes the older).", _fact_store, ("content",),
               ("category", "importance", "confidence", "scope", "valid_at", "expires_at"),
               writes=True),
        Action("fact_query", "Keyword search over facts (empty query: most important).",
               lambda api, a: api.fact_query(
                   a.get("query", ""), a.get("category"), a.get("limit", 10),
                   scope=a.get("scope"), formed=bool(a.get("formed", False))),
               (), ("query", "category", "scope", "limit", "formed")),
        Action("fact_update", "Change a fact by id.", _fact_update, ("id",),
               ("content", "category", "importance", "confidence", "scope", "valid_at",
                "expires_at"), writes=True),
        Action("fact_delete", "Forget a fact by id.",
               lambda api, a: api.fact_delete(a["id"]), ("id",), writes=True),
        Action("entity_ensure", "Record an entity (idempotent by name or alias).",
               lambda api, a: api.entity_ensure(
                   a["name"], a.get("entity_type", "concept"), a.get("aliases"),
                   a.get("description")),
               ("name",), ("entity_type", "aliases", "description"), writes=True),
        Action("entity_link", "Relate two entities: from_entity -relation-> to_entity.",
               lambda api, a: api.entity_link(
                   a["from_entity"], a["to_entity"], a["relation"], a.get("strength", 1.0)),
               ("from_entity", "to_entity", "relation"), ("strength",), writes=True),
        Action("entity_query", "Entities by name or type, with their relations.",
               lambda api, a: api.entity_query(
                   a.get("name"), a.get("entity_type"), a.get("limit", 10)),
               (), ("name", "entity_type", "limit")),
        Action("timeline_add", "Record an event (decision, milestone, incident, ...).",
               _timeline_add, ("title",),
               ("event_type", "description", "importance", "entities", "timestamp"),
               writes=True),
        Action("timeline_query", "Events in a time range, by type or words.",
               lambda api, a: api.timeline_query(
                   a.get("start"), a.get("end"), a.get("event_type"), a.get("limit", 20),
                   query=a.get("query")),
               (), ("start", "end", "event_type", "query", "limit")),
        Action("semantic_search", "Nearest memories by meaning only (no recency/importance).",
               lambda api, a: api.semantic_search(a["query"], a.get("limit", 10)),
               ("query",), ("limit",)),
        Action("graph_traverse", "Entities within depth hops of an entity, with paths.",
               lambda api, a: api.graph_traverse(a["entity"], a.get("depth", 2)),
               ("entity",), ("depth",)),
        Action("graph_path", "How two entities are connected (shortest path).",
               lambda api, a: api.graph_shortest_path(a["from_entity"], a["to_entity"]),
               ("from_entity", "to_entity")),
        Action("graph_central", "The most connected entities (what this memory is about).",
               lambda api, a: api.graph_central_entities(a.get("limit", 10)), (), ("limit",)),
        Action(
            "stats",
            "Your memory's counts per tier and the tiers' health.",
            lambda api, a: api.stats(owner_only=True),
        ),
        Action("consolidate", "Operator: merge duplicates and resolve conflicts now.",
               _job("consolidate"), writes=True, operator=True),
        Action("rebuild", "Operator: re-derive vectors and graph from SQLite truth.",
               lambda api, a: api.rebuild(), writes=True, operator=True),
    )
}  # fmt: skip


def available_actions(*, operator: bool) -> list[str]:
    return [name for name, a in ACTIONS.items() if operator or not a.operator]


def tool_schema(*, operator: bool = False) -> dict[str, Any]:
    """The OpenAI function schema of the tool (operator actions only when enabled)."""
    names = available_actions(operator=operator)
    lines = []
    for name in names:
        a = ACTIONS[name]
        args = ", ".join([*a.required, *(f"{o}?" for o in a.optional)])
        lines.append(f"- {name}({args}): {a.summary}")
    props: dict[str, Any] = {
        "action": {"type": "string", "enum": names, "description": "What to do."}
    }
    used = {p for n in names for p in (*ACTIONS[n].required, *ACTIONS[n].optional)}
    for pname, p in PARAMS.items():
        if pname not in used:
            continue
        prop: dict[str, Any] = {"type": p.type, "description": p.description}
        if p.type == "array":
            prop["items"] = {"type": "string", **({"enum": list(p.enum)} if p.enum else {})}
        elif p.enum:
            prop["enum"] = list(p.enum)
        props[pname] = prop
    return {
        "name": TOOL_NAME,
        "description": (
            "Long-term memory beyond the curated MEMORY.md/USER.md notes: facts, past "
            "conversations, entities and their relations, a timeline. Use `recall` first "
            "when the user refers to anything from before this conversation; store durable "
            "facts with `fact_store`. Actions (argument? = optional):\n" + "\n".join(lines)
        ),
        "parameters": {"type": "object", "properties": props, "required": ["action"]},
    }


def handle(
    api: MemoryAPI, args: Any, *, operator: bool = False, read_only: str | None = None
) -> str:
    """Run one tool call. ``read_only`` (a reason) refuses every writing action."""
    try:
        if not isinstance(args, Mapping):
            return error("arguments: must be a JSON object")
        action = args.get("action")
        names = available_actions(operator=operator)
        if action not in names:
            return error(f"action: must be one of {', '.join(names)} (got {action!r})")
        spec = ACTIONS[action]
        if spec.writes and read_only:
            return error(f"action: {action} is not allowed here ({read_only})")
        clean = _check_args(spec, args, api.config.agent.max_tool_limit)
        if isinstance(clean, str):
            return error(clean)
        env = spec.call(api, clean)
        if not env["success"]:
            return error(env["error"], detail=env.get("meta", {}).get("error_detail"))
        if action == "recall":
            dates = api.config.agent.block_dates
            return _dumps({"results": [_shown(r, dates) for r in env["data"]]})
        meta = {k: v for k, v in env["meta"].items() if k not in ("tiers_queried",)}
        return _dumps({"success": True, "action": action, "data": env["data"], "meta": meta})
    except HermesMemoryError as exc:
        return error(str(exc), detail=exc.to_dict())


def _shown(result: Mapping[str, Any], dates: bool = True) -> dict[str, Any]:
    """A recall result as the model sees it: a long memory by its excerpt (the passage
    that matched), with its full length (memory_get has the rest); ``dates``: what its
    relative dates mean, {"yesterday": "2023-05-07"}."""
    out = {k: result.get(k) for k in RECALL_FIELDS}
    if result.get("graph_path"):  # how the graph reached it ("the user -lives_in-> Berlin")
        out["graph_path"] = result["graph_path"]
    if result.get("shared"):  # a turn's attachments: an image's caption, a file's name
        out["shared"] = result["shared"]
    if result.get("since_changed"):  # what it stated that a later memory changed
        out["since_changed"] = result["since_changed"]
    excerpt = result.get("excerpt")
    if excerpt:
        out["content"] = excerpt
        out["content_chars"] = len(str(result.get("content") or ""))
    # The shown content is at most an excerpt's length: cheap to read.
    if dates and (meant := date_notes(result, str(out["content"] or ""))):
        out["dates"] = meant
    return out


def _check_args(spec: Action, args: Mapping[str, Any], max_limit: int) -> dict[str, Any] | str:
    allowed = set(spec.required) | set(spec.optional)
    out: dict[str, Any] = {}
    for key, value in args.items():
        if key == "action" or value is None:
            continue  # models often send every field, unused ones as null
        if key not in allowed:
            takes = ", ".join(sorted(allowed)) or "no arguments"
            return f"{key}: not an argument of {spec.name} (it takes {takes})"
        value = _as_sent(PARAMS[key], value)
        problem = _type_problem(PARAMS[key], value)
        if problem:
            return f"{key}: {problem}"
        if key == "limit" and not 1 <= int(value) <= max_limit:
            return f"limit: must be between 1 and {max_limit}"
        out[key] = int(value) if PARAMS[key].type == "integer" else value
    for key in spec.required:
        if key not in out or (isinstance(out[key], str) and not out[key].strip()):
            return f"{key}: required for {spec.name}"
    return out


# A number as models write it in a string: at most 15 digits each side, no exponent.
_DECIMAL = re.compile(r"-?\d{1,15}(\.\d{1,15})?")


def _as_sent(p: Param, value: Any) -> Any:
    """What models often send for a typed argument, read as that type: a number
    written as a string ("3", "0.8"), or one string (or a comma list) for an array.
    Anything else is left for _type_problem to refuse."""
    if isinstance(value, str) and p.type in ("integer", "number"):
        text = value.strip()
        if _DECIMAL.fullmatch(text):
            return float(text) if "." in text else int(text)
    if isinstance(value, str) and p.type == "array":
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def _type_problem(p: Param, value: Any) -> str | None:
    if p.type == "string" and not isinstance(value, str):
        return "must be a string"
    if p.type == "integer" and (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or isinstance(value, float)
        and not value.is_integer()
    ):
        return "must be an integer"
    if p.type == "number" and (isinstance(value, bool) or not isinstance(value, int | float)):
        return "must be a number"
    if p.type == "array":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return "must be a list of strings"
        if p.enum and any(v not in p.enum for v in value):
            return f"each must be one of {', '.join(p.enum)}"
    if p.type == "string" and p.enum and value not in p.enum:
        return f"must be one of {', '.join(p.enum)}"
    return None


def _invalid(field_name: str, message: str) -> Envelope:
    return {"success": False, "data": None, "meta": {}, "error": f"{field_name}: {message}"}


def error(message: str, *, detail: Any = None) -> str:
    out: dict[str, Any] = {"success": False, "error": message}
    if detail:
        out["detail"] = detail
    return _dumps(out)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
