"""Who is talking, from what Hermes passes ``MemoryProvider.initialize``.

Durable rows belong to (platform, agent identity, user id); a chat's own rows
(its turns, scratch facts, what its turns state) also carry a local key: the
gateway session key, else the chat and thread ids. Hermes' command line has no
chat, so its conversations share the owner's one local scope, as they share one
terminal user.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hermes_memory.config import MemoryConfig
from hermes_memory.tier2.records import Owner

# Hermes agent contexts whose turns are not the user's conversation.
NON_PRIMARY = frozenset({"cron", "subagent", "flush"})


def _text(kwargs: Mapping[str, Any], key: str) -> str:
    value = kwargs.get(key)
    return str(value).strip() if value is not None else ""


def owner_from_hermes(kwargs: Mapping[str, Any], config: MemoryConfig) -> Owner:
    """The isolation keys of one Hermes agent: durable owner plus local scope."""
    platform = _text(kwargs, "platform") or "cli"
    agent = _text(kwargs, "agent_identity") or config.owner_agent
    workspace = _text(kwargs, "agent_workspace")
    if workspace and workspace != "hermes":  # Hermes' own default workspace adds nothing
        agent = f"{workspace}/{agent}"
    user = _text(kwargs, "user_id")
    local = _text(kwargs, "gateway_session_key")
    if not local:
        chat, thread = _text(kwargs, "chat_id"), _text(kwargs, "thread_id")
        local = f"chat:{chat}" + (f"/thread:{thread}" if thread else "") if chat else ""
    return Owner(platform=platform, agent=agent, user_id=user, session=local)


def read_only_reason(kwargs: Mapping[str, Any]) -> str | None:
    """Why this agent must not write memory, or None for the primary agent."""
    context = _text(kwargs, "agent_context") or "primary"
    if context in NON_PRIMARY:
        return f"a {context} agent does not write memory"
    return None
