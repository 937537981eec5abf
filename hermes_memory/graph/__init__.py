"""The knowledge graph: the linker that records what text says (read by ``text``) in
tier 2, and the NetworkX projection over tier-2 entities and relations (derived)."""
