"""cron (built in later issues)."""
