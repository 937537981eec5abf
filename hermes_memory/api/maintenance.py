"""What the maintenance jobs (``cron/``) use of one memory, and nothing more.

The jobs work on tier 2 through its functions (``tier2.upkeep``, ``merges``,
``health``, the ledger) with the store's handle, on tier 3 through the vector
index's outbox and upkeep, and on the graph projections; they do not store, recall or
link through the facade. ``cron/scheduler.run_job`` hands each job this room.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hermes_memory.api import fact_ops, rederive
from hermes_memory.graph.knowledge_graph import KnowledgeGraph

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI
    from hermes_memory.clock import Clock
    from hermes_memory.config import MemoryConfig
    from hermes_memory.tier2.db import Database
    from hermes_memory.tier2.records import Owner
    from hermes_memory.tier3.semantic import SemanticIndex


class Maintenance:
    """One memory as its jobs see it: the store, the settings, the clock, the owner
    whose process runs them, the vector index (None when tier 3 is off), the stored
    claims and the graphs."""

    def __init__(self, api: MemoryAPI) -> None:
        self._api = api
        self.db: Database = api.db
        self.config: MemoryConfig = api.config
        self.clock: Clock = api.clock
        self.owner: Owner = api.owner
        self.semantic: SemanticIndex | None = api.semantic

    def claims_waiting(self) -> int:
        """How many facts wait for their claims to be read (all, when the extractor's
        version changed)."""
        return fact_ops.claims_waiting(self._api)

    def read_claims(
        self,
        *,
        check: Callable[[], None] = lambda: None,
        advance: Callable[[int], None] = lambda n: None,
    ) -> int:
        """Read the claims of the facts waiting for it (``fact_ops.read_claims``)."""
        return fact_ops.read_claims(self._api, check=check, advance=advance)

    def texts_waiting(self) -> int:
        """How many facts and turns wait to have their entities and relations read
        again (all of them when the extractor's version changed; else none)."""
        return rederive.waiting(self._api)

    def rederive_graph(
        self,
        *,
        check: Callable[[], None] = lambda: None,
        advance: Callable[[int], None] = lambda n: None,
    ) -> dict[str, int]:
        """Read the graph from the text again if the extractor changed
        (``api/rederive.py``)."""
        return rederive.rederive(self._api, check=check, advance=advance)

    def settle_names(self, *, check: Callable[[], None] = lambda: None) -> int:
        """Drop the one-word people the memory now writes as common words
        (``api/rederive.py``)."""
        return rederive.settle_names(self._api, check=check)

    def graph(self, owner: Owner) -> KnowledgeGraph:
        """``owner``'s graph projection, as loaded from its cache or SQLite."""
        return KnowledgeGraph(self.db, owner, self.config.graph_path)

    def use_graph(self, graph: KnowledgeGraph) -> None:
        """This process's memory answers from ``graph`` (freshly refreshed) from now on."""
        self._api.knowledge_graph = graph
