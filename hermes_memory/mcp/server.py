"""``hermes-memory mcp``: recall, remember, search, graph and stats over MCP (stdio).

Each MCP tool is a thin, typed front of one action of the memory tool, so an MCP
client gets the same validation, scoping and JSON as a Hermes agent. The server
acts as the configured owner (``owner`` in the config): by default that of the
Hermes command line in this ``HERMES_HOME``, so both see the same memory.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal

from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.tools import memory_tool
from hermes_memory.tools.context import standing_block

Tier = Literal["tier1", "tier2", "tier3", "graph"]
GraphQuery = Literal["neighbours", "path", "central"]


def build_server(api: MemoryAPI) -> Any:
    """An ``MCPServer`` whose tools act on ``api`` (one call at a time)."""
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:
        from hermes_memory.errors import HermesMemoryError

        raise HermesMemoryError(
            f"the MCP SDK is not installed ({exc}); pip install 'hermes-memory[mcp]'"
        ) from None

    lock = threading.Lock()

    def call(args: dict[str, Any]) -> dict[str, Any]:
        with lock:
            out = memory_tool.handle(api, {k: v for k, v in args.items() if v is not None})
        result: dict[str, Any] = json.loads(out)
        return result

    from hermes_memory import __version__

    guide = (
        "Long-term memory shared with the user's Hermes agent. Call `recall` before "
        "answering anything that depends on earlier sessions; `remember` durable facts."
    )
    with lock:  # what the user asked to hold in every answer, as a client connects
        standing = standing_block(api)
    server = MCPServer(
        "hermes-memory",
        version=__version__,
        instructions=f"{guide}\n\n{standing}" if standing else guide,
    )

    @server.tool(description="Memories relevant to a question or topic, from every tier, "
                 "ranked by similarity, recency and importance, with match_reasons and "
                 "evidence_gaps.")  # fmt: skip
    def recall(
        query: str, limit: int = 5, tiers: list[Tier] | None = None, scope: str | None = None
    ) -> dict[str, Any]:
        return call(
            {"action": "recall", "content": query, "limit": limit, "tiers": tiers, "scope": scope}
        )

    @server.tool(description="The whole text of a memory by the id recall gave it (recall "
                 "shows a long one by the passage that matched), a page at a time: pass "
                 "meta.next_offset as offset for the next.")  # fmt: skip
    def get(id: str, offset: int = 0) -> dict[str, Any]:
        return call({"action": "memory_get", "id": id, "offset": offset})

    @server.tool(description="Store a durable fact (one self-contained sentence); exact "
                 "duplicates are merged and a contradicting older fact is superseded.")  # fmt: skip
    def remember(
        content: str,
        category: str = "general",
        importance: float = 0.5,
        scope: str | None = None,
    ) -> dict[str, Any]:
        return call({"action": "fact_store", "content": content, "category": category,
                     "importance": importance, "scope": scope})  # fmt: skip

    @server.tool(description="Search by meaning only (no recency or importance weighting).")
    def search(query: str, limit: int = 10) -> dict[str, Any]:
        return call({"action": "semantic_search", "query": query, "limit": limit})

    @server.tool(description="The knowledge graph: an entity's neighbours within depth hops "
                 "(neighbours), how two entities connect (path, with other), or the most "
                 "central entities (central).")  # fmt: skip
    def graph(
        query: GraphQuery = "central",
        entity: str | None = None,
        other: str | None = None,
        depth: int = 2,
        limit: int = 10,
    ) -> dict[str, Any]:
        if query == "neighbours":
            return call({"action": "graph_traverse", "entity": entity, "depth": depth})
        if query == "path":
            return call({"action": "graph_path", "from_entity": entity, "to_entity": other})
        return call({"action": "graph_central", "limit": limit})

    @server.tool(description="Counts and health of every memory tier.")
    def stats() -> dict[str, Any]:
        return call({"action": "stats"})

    return server


def serve(api: MemoryAPI) -> None:
    """Serve MCP on stdin/stdout until the client disconnects."""
    build_server(api).run("stdio")
