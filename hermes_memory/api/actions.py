"""The tool-layer entry point: ``memory_action("recall", content=..., limit=5)``.

Returns a JSON string in the shape of recall-action-spec.md; bad arguments give
``{"success": false, "error": ...}`` naming the argument, never an exception.
"""

from __future__ import annotations

import json
from typing import Any

from hermes_memory.api.memory_api import MemoryAPI

RESULT_FIELDS = (
    "content",
    "scope",
    "importance",
    "score",
    "match_reasons",
    "evidence_gaps",
    "created_at",
    "tier",
    "kind",
    "similarity",
    "recency",
    "source_type",
    "source_id",
    "session_id",
    "evidence_ids",
)


def memory_action(api: MemoryAPI, action: str, **args: Any) -> str:
    if action != "recall":
        return _error(f"unknown action {action!r}")
    content = args.get("content")
    if not isinstance(content, str):
        return _error("content: a query string is required")
    limit = args.get("limit", 5)
    tiers = args.get("tiers")
    if tiers is not None and (
        not isinstance(tiers, list) or not all(isinstance(t, str) for t in tiers)
    ):
        return _error("tiers: must be a list of tier names")
    env = api.recall(
        content,
        tiers=tiers,
        limit_per_tier=max(5, limit)
        if isinstance(limit, int) and not isinstance(limit, bool)
        else limit,
        limit=limit,
        scope=args.get("scope"),
    )
    if not env["success"]:
        return _error(env["error"])
    results = [{k: r.get(k) for k in RESULT_FIELDS} for r in env["data"]]
    return json.dumps({"results": results}, ensure_ascii=False)


def _error(message: str) -> str:
    return json.dumps({"success": False, "error": message})
