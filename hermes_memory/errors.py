"""The single error root of hermes-memory and its context-carrying subclasses.

Every error a caller can see is a ``HermesMemoryError``. Each subclass carries the
context a caller needs to act (the offending field, the candidates of an ambiguous
match, the path of a broken file), and ``str(error)`` is one clear line.
"""

from __future__ import annotations

from typing import Any


class HermesMemoryError(Exception):
    """Root of every error raised by hermes-memory."""

    code = "error"

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context = context

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe description for result envelopes and tool calls."""
        return {"code": self.code, "message": self.message, **_json_safe(self.context)}


class ConfigError(HermesMemoryError):
    """A configuration value is invalid; ``key`` names it (dotted path)."""

    code = "config_error"

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(f"config {key}: {message}", key=key)
        self.key = key


class ValidationError(HermesMemoryError):
    """An argument is invalid; ``field`` names it. Nothing was written."""

    code = "invalid_argument"

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(f"{field}: {message}", field=field)
        self.field = field


class ContentRefused(ValidationError):
    """Content was refused by the guard (secret or prompt injection)."""

    code = "content_refused"

    def __init__(self, message: str, *, field: str, reason: str) -> None:
        super().__init__(message, field=field)
        self.context["reason"] = reason
        self.reason = reason


class NotFoundError(HermesMemoryError):
    """A record does not exist, or is not visible to the caller's scope."""

    code = "not_found"

    def __init__(self, kind: str, ident: str, *, by: str = "with id") -> None:
        # ``by`` says how ``ident`` was looked for: "with id", "named", "containing".
        super().__init__(f"no {kind} {by} {ident!r}", kind=kind, ident=ident)


class AmbiguousMatchError(HermesMemoryError):
    """A substring matched more than one entry; ``candidates`` lists them."""

    code = "ambiguous"

    def __init__(self, needle: str, candidates: list[str]) -> None:
        previews = "; ".join(c[:60] for c in candidates[:5])
        super().__init__(
            f"{len(candidates)} entries match {needle!r}; be more specific ({previews})",
            candidates=candidates,
        )
        self.candidates = candidates


class CapacityError(HermesMemoryError):
    """A write would exceed a configured limit."""

    code = "capacity"


class StorageError(HermesMemoryError):
    """The SQLite store failed; the transaction was rolled back."""

    code = "storage_error"


class CuratedFileError(HermesMemoryError):
    """A curated markdown file cannot be safely edited (for example, drift)."""

    code = "curated_file_error"


class DerivedTierError(HermesMemoryError):
    """A derived tier (vectors, graph) failed; truth in SQLite is intact."""

    code = "derived_tier_error"


class JobError(HermesMemoryError):
    """A maintenance job cannot run (unknown name, lease held, bad schedule)."""

    code = "job_error"

    def __init__(self, message: str, *, job: str) -> None:
        super().__init__(message, job=job)
        self.job = job


def _json_safe(context: dict[str, Any]) -> dict[str, Any]:
    safe: dict[str, Any] = {}
    for key, value in context.items():
        if isinstance(value, str | int | float | bool) or value is None:
            safe[key] = value
        elif isinstance(value, list | tuple):
            safe[key] = [v if isinstance(v, str | int | float | bool) else str(v) for v in value]
        else:
            safe[key] = str(value)
    return safe
