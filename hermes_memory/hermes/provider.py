"""The Hermes memory provider ``hermes_memory``.

Hermes calls ``prefetch`` in a thread with an 8 s timeout, ``sync_turn`` on one
background worker, and tool calls on the agent's thread; one lock serialises
every use of the MemoryAPI, and nothing slow runs under it: the embedding model
loads in a background thread from ``initialize`` (prefetch answers from the
lexical tiers until it is ready) and ``sync_turn`` stores the turn first, then
waits for the model outside the lock before indexing it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from agent.memory_provider import MemoryProvider  # type: ignore[import-untyped,import-not-found,unused-ignore]

from hermes_memory.api.memory_api import MemoryAPI
from hermes_memory.config import MemoryConfig, load_config
from hermes_memory.errors import HermesMemoryError
from hermes_memory.hermes import shared
from hermes_memory.hermes.scope import owner_from_hermes, read_only_reason
from hermes_memory.tools import memory_tool
from hermes_memory.tools.context import prefetch_block, standing_block

log = logging.getLogger("hermes_memory.hermes")

NAME = "hermes_memory"
_DRAIN_ON_SHUTDOWN_S = 20.0
_REFUSALS = frozenset({"invalid_argument", "content_refused"})
# Turns kept in memory while the database is busy, to be stored with the next turn.
_MAX_PENDING_TURNS = 256
# Items the session-end flush embeds a round (the lock is free between rounds).
_FLUSH_BATCH = 32


class HermesMemoryProvider(MemoryProvider):
    """Tiered long-term memory for Hermes: prefetch, turn capture and one tool."""

    def __init__(self, *, api_factory: Callable[..., MemoryAPI] | None = None) -> None:
        # None: the process's shared memory for the config (hermes/shared.py); a
        # factory (tests) makes a memory of this provider's own.
        self._api_factory = api_factory
        self._api: MemoryAPI | None = None
        self._lock = threading.RLock()
        self._ready = threading.Event()  # the embedding model is loaded (or failed)
        self._read_only: str | None = None
        self._session_id = ""
        self._speaker = "user"
        self._snapshot: frozenset[str] = frozenset()
        self._turn = 0
        self._pending: list[dict[str, Any]] = []  # turns not yet stored (busy database)

    # -- identity and availability --------------------------------------------------------
    @property
    def name(self) -> str:
        return NAME

    def is_available(self) -> bool:
        """Everything runs locally: available when the storage libraries import."""
        return all(importlib.util.find_spec(m) is not None for m in ("lancedb", "networkx"))

    # -- lifecycle --------------------------------------------------------------------------
    def initialize(self, session_id: str, **kwargs: Any) -> None:
        config = load_config(kwargs.get("hermes_home"))
        self._read_only = read_only_reason(kwargs)
        self._session_id = session_id or ""
        self._speaker = str(kwargs.get("user_name") or "user")[:200]
        make = self._api_factory or shared.acquire
        api = make(
            config,
            owner=owner_from_hermes(kwargs, config),
            actor=f"hermes:{NAME}",
            record_access=not self._read_only,
        )
        # Hermes put MEMORY.md/USER.md in the system prompt as it was now; prefetch only
        # adds curated entries written later (read live, never copied to SQLite).
        self._snapshot = frozenset(e for store in ("memory", "user") for e in _entries(api, store))
        with self._lock:
            self._api = api
        threading.Thread(target=self._warm, name="hermes-memory-warm", daemon=True).start()

    def _warm(self) -> None:
        try:
            api = self._api
            if api is not None:
                # The model first (~1 s from the ONNX cache): the first prefetch can then
                # use it for the curated files while LanceDB still opens (~2 s).
                api.warm()
        except Exception as exc:  # recall degrades to the lexical tiers and says so
            log.warning("hermes_memory: embedding model unavailable: %s", exc)
        finally:
            self._ready.set()

    def system_prompt_block(self) -> str:
        api = self._api
        if api is None:
            return ""
        block = (
            "# Long-term memory (hermes_memory)\n"
            "Relevant memories are recalled before each turn in a <memory-context> block. "
            "For anything from before this conversation that the block does not answer, "
            "call the `hermes_memory` tool with action `recall` (facts, past conversations, "
            "entities and relations, timeline). Store durable facts, preferences and "
            "decisions with `fact_store`; category `scratch` keeps a note to this chat."
        )
        try:
            with self._lock:
                standing = standing_block(api)
        except Exception as exc:  # memory must never break a session's start
            log.warning("hermes_memory: standing instructions unavailable: %s", exc)
            standing = ""
        return f"{block}\n\n{standing}" if standing else block

    def shutdown(self) -> None:
        api = self._api
        if api is None:
            return
        if self._pending:
            self._store([])  # a last try for turns a busy database turned away
        self._flush(_DRAIN_ON_SHUTDOWN_S)
        with self._lock:
            if self._api_factory is None:
                shared.release(api)
            else:
                api.close()
            self._api = None

    # -- per turn ---------------------------------------------------------------------------
    def prefetch(self, query: str, *, session_id: str = "") -> str:
        api = self._api
        if api is None or not query or not query.strip():
            return ""
        try:
            with self._lock:
                return prefetch_block(
                    api,
                    query,
                    skip_content=self._snapshot,
                    embed_wait=api.config.agent.prefetch_embed_wait,
                )
        except Exception as exc:  # memory must never break a turn
            log.warning("hermes_memory: prefetch failed: %s", exc)
            return ""

    def queue_prefetch(self, query: str, *, session_id: str = "") -> None:
        """Recall runs against the current query in ``prefetch``; nothing to queue."""

    def sync_turn(
        self,
        user_content: str,
        assistant_content: str,
        *,
        session_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        api = self._api
        if api is None or self._read_only:
            return
        session = session_id or self._session_id or "hermes"
        stamp = f"{time.time_ns()}"
        turns = [
            {"speaker": speaker, "text": text, "session_id": session,
             "message_id": f"{stamp}-{role}", "role": role}
            for role, speaker, text in (
                ("user", self._speaker, user_content),
                ("assistant", "assistant", assistant_content),
            )
            if text and text.strip()
        ]  # fmt: skip
        if not turns:
            return
        self._store(turns)

    def _store(self, turns: list[dict[str, Any]]) -> None:
        """Store ``turns`` with the ones kept from earlier failures first. A busy
        database keeps them for the next turn (their message ids make the retry
        idempotent); a turn the API refuses is logged and the others still go in."""
        api = self._api
        if api is None:
            return
        stored: list[str] = []
        with self._lock:
            batch, self._pending = self._pending + turns, []
            try:
                env = api.ingest_turns(batch, embed=False)
                if env["success"]:
                    stored = env["data"]
                elif env["meta"].get("error_detail", {}).get("code") in _REFUSALS:
                    # One side refused must not drop the other: store them one by one.
                    for turn in batch:
                        one = api.ingest_turns([turn], embed=False)
                        if one["success"]:
                            stored.extend(one["data"])
                        elif one["meta"].get("error_detail", {}).get("code") in _REFUSALS:
                            log.warning("hermes_memory: turn not stored: %s", one["error"])
                        else:
                            self._pending.append(turn)
                else:
                    self._pending = batch
            except Exception as exc:  # memory must never break a turn
                log.warning("hermes_memory: sync_turn failed: %s", exc)
                self._pending = batch
            if self._pending:
                self._pending = self._pending[-_MAX_PENDING_TURNS:]
                log.warning("hermes_memory: %d turn(s) kept for the next try", len(self._pending))
        if stored:
            self._index(stored)

    def _index(self, uuids: list[str]) -> None:
        """Embed stored turns once the model is ready, the model run outside the lock
        (a pasted file takes it seconds, and prefetch would wait on the lock); left
        queued for the embed job if the model is not ready (or fails)."""
        api = self._api
        if api is None or not self._ready.wait(30.0):
            return
        with contextlib.suppress(HermesMemoryError):
            # Shut down meanwhile: its flush embedded them, and the write is a StorageError.
            self._embed_outside_lock(api, uuids)

    def _embed_outside_lock(self, api: MemoryAPI, uuids: list[str]) -> None:
        """Embed these stored items: their texts read and their vectors written under
        the lock, the model run outside it."""
        with self._lock:
            work = api.embedding_of(uuids)
        vectors = work()
        with self._lock:
            api.embed_now(uuids, vectors=vectors)

    def on_memory_write(
        self, action: str, target: str, content: str, metadata: dict[str, Any] | None = None
    ) -> None:
        """Curated files are read live: the write is already visible to recall (and to
        prefetch, as it is not in the session's frozen snapshot). Nothing to mirror."""
        log.debug("hermes_memory: curated %s on %s seen", action, target)

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        """Flush: index whatever this session left queued."""
        self._flush(30.0)

    def _flush(self, wait: float) -> None:
        """Embed what the outbox holds, once the model is ready (at most ``wait`` s),
        a batch at a time with the model outside the lock (a session's queue can hold
        pasted files: minutes of model time, and prefetch waits on the lock)."""
        api = self._api
        if api is None or self._read_only or not api.config.tier3.enabled:
            return
        self._ready.wait(wait)
        limit = api.config.limits.max_embedding_queue
        with contextlib.suppress(HermesMemoryError):
            # Each round takes its items off the due list (indexed, or failed and
            # retried later), so the rounds end; the bound is for a queue still filling.
            for _ in range(-(-limit // _FLUSH_BATCH)):
                with self._lock:
                    uuids = api.embed_queue_items(_FLUSH_BATCH)
                if not uuids:
                    break
                self._embed_outside_lock(api, uuids)
            with self._lock:
                api.embed_pending(limit=limit)  # deletions, and what came in meanwhile

    def on_session_switch(self, new_session_id: str, **kwargs: Any) -> None:
        self._session_id = new_session_id or self._session_id

    def on_delegation(self, task: str, result: str, **kwargs: Any) -> None:
        """What a subagent was asked and answered, kept as one turn of this session."""
        if self._api is None or self._read_only or not (task and result):
            return
        text = f"Delegated task: {task.strip()}\nResult: {result.strip()}"
        child = str(kwargs.get("child_session_id") or "")
        with self._lock:
            self._api.ingest_turns(
                [{"speaker": "subagent", "text": text[:8000],
                  "session_id": self._session_id or "hermes",
                  "message_id": f"{time.time_ns()}-delegation",
                  "metadata": {"child_session_id": child} if child else None}],
                embed=False,
            )  # fmt: skip

    # -- the tool ---------------------------------------------------------------------------
    def get_tool_schemas(self) -> list[dict[str, Any]]:
        operator = self._api.config.agent.operator_actions if self._api else False
        return [memory_tool.tool_schema(operator=operator)]

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        if tool_name != memory_tool.TOOL_NAME:
            return memory_tool.error(f"tool_name: unknown tool {tool_name!r}")
        api = self._api
        if api is None:
            return memory_tool.error("hermes_memory is not initialised")
        try:
            with self._lock:
                return memory_tool.handle(
                    api,
                    args,
                    operator=api.config.agent.operator_actions,
                    read_only=self._read_only,
                )
        except Exception as exc:  # a bug must still come back as the tool's JSON
            log.exception("hermes_memory: tool call failed")
            return memory_tool.error(f"internal error: {exc!r}")

    # -- configuration ----------------------------------------------------------------------
    def get_config_schema(self) -> list[dict[str, Any]]:
        defaults = MemoryConfig().agent
        return [
            {
                "key": "prefetch_chars",
                "description": "Characters of recalled memory shown before each turn",
                "default": defaults.prefetch_chars,
            },
            {
                "key": "operator_actions",
                "description": "Let the model run consolidate and rebuild",
                "default": defaults.operator_actions,
                "choices": [True, False],
            },
        ]

    def save_config(self, values: dict[str, Any], hermes_home: str) -> None:
        from hermes_memory.hermes.install import set_agent_settings

        set_agent_settings(hermes_home, values)

    def backup_paths(self) -> list[str]:
        """Our files live under HERMES_HOME unless the config moved them."""
        try:
            config = load_config()
        except HermesMemoryError:
            return []
        home = config.hermes_home.resolve()
        paths = [config.db_path.parent, config.vector_path, config.graph_path]
        return sorted({str(p) for p in paths if home not in p.resolve().parents})


def _entries(api: MemoryAPI, store: str) -> list[str]:
    env = api.curated_get(store)
    return list(env["data"]) if env["success"] else []


def register(ctx: Any) -> None:
    """Hermes' plugin hook: hand Hermes a fresh provider."""
    ctx.register_memory_provider(HermesMemoryProvider())
