"""What text says and the knowledge graph built from it: extraction of entities,
relations, dates and durable statements (pure), the linker that records them in tier
2, and the NetworkX projection over tier-2 entities and relations (derived)."""
