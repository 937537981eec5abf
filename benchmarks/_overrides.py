"""``--set section.key=value`` for the benchmarks: config overrides from the command line."""

from __future__ import annotations

from typing import Any


def settings(pairs: list[str]) -> dict[str, Any]:
    """``["recall.graph_depth=0", ...]`` as a nested config override (values as YAML)."""
    import yaml

    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        section, _, name = key.partition(".")
        if not name:
            raise SystemExit(f"--set wants section.key=value, got {pair!r}")
        out.setdefault(section, {})[name] = yaml.safe_load(value)
    return out
