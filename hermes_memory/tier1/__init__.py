"""Tier 1: Hermes' curated MEMORY.md / USER.md, read live and edited in place."""

from hermes_memory.tier1.curated_store import ENTRY_DELIMITER, STORES, CuratedStore, EditResult

__all__ = ["ENTRY_DELIMITER", "STORES", "CuratedStore", "EditResult"]
