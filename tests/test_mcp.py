"""The MCP server, driven by the official SDK's client over stdio."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

import hermes_memory
from hermes_memory import MemoryAPI, load_config
from hermes_memory.tier3.embedder import HashingEmbedder

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None and not os.environ.get("REQUIRE_MCP_TESTS"),
    reason="the mcp SDK is not installed",
)


def test_mcp_client_lists_tools_and_recalls(home: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    with MemoryAPI(load_config(home), embedder=HashingEmbedder(256)) as api:
        assert api.fact_store("The orchard pump was replaced in May", category="ops")["success"]
        assert api.fact_store("Keep answers short.", category="instruction")["success"]

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hermes_memory.cli", "--home", str(home), "mcp"],
        env={k: v for k, v in os.environ.items() if k.startswith(("HERMES_MEMORY_", "PATH"))},
    )

    async def session() -> tuple[Any, ...]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            init = await client.initialize()
            version = init.server_info.version
            told = init.instructions or ""
            tools = sorted(t.name for t in (await client.list_tools()).tools)
            got = await client.call_tool("recall", {"query": "orchard pump", "limit": 3})
            first = _payload(got)["results"][0]["id"]
            whole = await client.call_tool("get", {"id": first})
            bad = await client.call_tool("remember", {"content": "x", "importance": 7})
            # Hostile calls: wrong types, a huge string, an unknown tool. Each is an
            # error result; the server keeps serving.
            hostile = [
                await client.call_tool("recall", {"query": 5}),
                await client.call_tool("remember", {"content": "x" * 1_000_000}),
                await client.call_tool("remember", {"content": "\x00"}),
                await client.call_tool("graph", {"query": "path", "entity": None}),
                await client.call_tool("no_such_tool", {}),
            ]
            still = await client.call_tool("stats", {})
            fetched = _payload(whole)
            got_all = _payload(got), _payload(bad), hostile, _payload(still), version, fetched
            return tools, *got_all, told

    tools, recalled, refused, hostile, still, version, fetched, told = anyio.run(session)
    assert version == hermes_memory.__version__
    assert "- Keep answers short." in told  # the user's standing instructions, every session
    for result in hostile:
        assert result.is_error or _payload(result).get("success") is False, result
    assert still["success"] is True
    assert tools == ["get", "graph", "recall", "remember", "search", "stats"]
    assert fetched["data"]["content"] == "The orchard pump was replaced in May"
    assert recalled["results"][0]["content"] == "The orchard pump was replaced in May"
    assert {"score", "match_reasons", "evidence_gaps"} <= set(recalled["results"][0])
    assert refused["success"] is False and "importance" in refused["error"]


def _payload(result: object) -> dict:
    structured = getattr(result, "structured_content", None)
    if structured:
        return dict(structured.get("result", structured))
    text = result.content[0].text  # type: ignore[attr-defined]
    return dict(json.loads(text))
