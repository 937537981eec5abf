"""What agents use: the one memory tool and bounded blocks of recalled context."""

from hermes_memory.tools.context import (
    SkillManifest,
    find_skill,
    prefetch_block,
    render_block,
    skill_recall_context,
)
from hermes_memory.tools.memory_tool import TOOL_NAME, handle, tool_schema

__all__ = [
    "TOOL_NAME",
    "SkillManifest",
    "find_skill",
    "handle",
    "prefetch_block",
    "render_block",
    "skill_recall_context",
    "tool_schema",
]
