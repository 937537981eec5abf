"""The result envelope every MemoryAPI call returns (docs/design.md, "The facade")."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from hermes_memory.errors import HermesMemoryError

Envelope = dict[str, Any]


def run(
    tier: str,
    tiers_queried: Sequence[str],
    work: Callable[[], tuple[Any, dict[str, Any]] | Any],
) -> Envelope:
    """Call ``work`` and wrap its data (or its HermesMemoryError) in the envelope.

    ``work`` returns either ``data`` or ``(data, extra_meta)``. Only our own errors
    become ``success: False``; anything else is a bug and propagates.
    """
    started = time.perf_counter()
    try:
        out = work()
    except HermesMemoryError as exc:
        return {
            "success": False,
            "data": None,
            "tier": tier,
            "meta": {
                "query_time_ms": _elapsed(started),
                "results_count": 0,
                "tiers_queried": list(tiers_queried),
                "error_detail": exc.to_dict(),
            },
            "error": str(exc),
        }
    data, extra = (
        out if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict) else (out, {})
    )
    meta = {
        "query_time_ms": _elapsed(started),
        "results_count": len(data) if isinstance(data, list) else (0 if data is None else 1),
        "tiers_queried": list(tiers_queried),
    }
    meta.update(extra)
    return {"success": True, "data": data, "tier": tier, "meta": meta, "error": None}


def _elapsed(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def unwrap(envelope: Envelope) -> Any:
    """The envelope's data, or a HermesMemoryError carrying its message."""
    if not envelope["success"]:
        detail = envelope["meta"].get("error_detail", {})
        raise HermesMemoryError(
            envelope["error"], **{k: v for k, v in detail.items() if k != "message"}
        )
    return envelope["data"]
