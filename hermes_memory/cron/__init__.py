"""Maintenance jobs (consolidate, embed_queue, graph_refresh, prune, verify), their
schedules, leases and progress."""
