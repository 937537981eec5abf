"""The ``hermes-memory`` command line."""
