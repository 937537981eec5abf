"""Integration with Hermes Agent: the memory provider, its install, session import and
the maintenance jobs in Hermes' scheduler."""
