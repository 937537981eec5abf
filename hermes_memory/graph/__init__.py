"""graph (built in later issues)."""
