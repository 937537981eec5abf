"""Tier 3: vectors of tier-2 facts and turns in LanceDB (derived, rebuildable), the
embedding model and its exact-search copy."""
