"""tier3 (built in later issues)."""
