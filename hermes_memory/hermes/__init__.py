"""Integration with Hermes Agent: its scheduler (and, later, its plugin system)."""
