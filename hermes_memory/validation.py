"""Argument checks shared by every tier: each raises ValidationError naming the field."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from hermes_memory.clock import FIRST_TIME, LAST_TIME, parse_time
from hermes_memory.errors import ValidationError


def require_text(value: Any, field: str, *, max_chars: int, allow_empty: bool = False) -> str:
    """A stripped, non-empty string of valid Unicode without NUL, at most ``max_chars``."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValidationError("is not valid UTF-8", field=field) from None
    if not isinstance(value, str):
        raise ValidationError(f"must be a string, not {type(value).__name__}", field=field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("is not valid Unicode (lone surrogate)", field=field) from None
    if "\x00" in value:
        raise ValidationError("must not contain NUL bytes", field=field)
    value = value.strip()
    if not value and not allow_empty:
        raise ValidationError("must not be empty", field=field)
    if len(value) > max_chars:
        raise ValidationError(f"is {len(value)} characters; the limit is {max_chars}", field=field)
    return value


def clean_text(value: Any) -> Any:
    """A string with what cannot be stored made harmless: lone surrogates become
    U+FFFD and NUL bytes are dropped (a turn is kept rather than refused for them);
    anything else is returned as it is, for ``require_text`` to judge."""
    if not isinstance(value, str):
        return value
    if "\x00" in value:
        value = value.replace("\x00", "")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        # Through UTF-16: a surrogate pair becomes its character, a lone one U+FFFD.
        value = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def require_unit(value: Any, field: str) -> float:
    """A finite number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValidationError(f"must be a number in [0, 1], not {value!r}", field=field)
    number = float(value)
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise ValidationError(f"must be in [0, 1], got {value!r}", field=field)
    return number


def require_choice(value: Any, field: str, choices: Iterable[str]) -> str:
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        raise ValidationError(f"must be one of {', '.join(options)}; got {value!r}", field=field)
    return value


def require_limit(value: Any, field: str = "limit", *, maximum: int = 1000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ValidationError(f"must be an integer from 1 to {maximum}; got {value!r}", field=field)
    return value


def require_timestamp(value: Any, field: str) -> float:
    """A finite Unix timestamp (seconds)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValidationError(f"must be a Unix timestamp in seconds; got {value!r}", field=field)
    if not FIRST_TIME <= value <= LAST_TIME:
        raise ValidationError(f"is out of range: {value!r}", field=field)
    return float(value)


def require_scope_path(value: Any, field: str = "scope") -> str:
    """A hierarchical scope such as ``/infrastructure/database`` (normalised)."""
    text = require_text(value, field, max_chars=256)
    parts = [p for p in text.strip().split("/") if p]
    for part in parts:
        if part in (".", "..") or any(not (c.isalnum() or c in "-_.") for c in part):
            raise ValidationError(
                f"segment {part!r} may hold only letters, digits, '-', '_' or '.'", field=field
            )
    return "/" + "/".join(p.lower() for p in parts)


def require_id(value: Any, field: str) -> str:
    return require_text(value, field, max_chars=256)


def optional_text(value: Any, field: str, max_chars: int = 256) -> str | None:
    return None if value is None else require_text(value, field, max_chars=max_chars)


def optional_time(value: Any, field: str) -> float | None:
    return None if value is None else parse_time(value, field)


def require_id_list(values: Any, field: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise ValidationError("must be a list of ids", field=field)
    return [require_id(v, field) for v in values]


def require_metadata(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValidationError("must be a mapping", field="metadata")
    try:
        encoded = json.dumps(value)
    except (TypeError, ValueError):
        raise ValidationError("must be JSON-serialisable", field="metadata") from None
    if len(encoded) > 16_384:
        raise ValidationError("is larger than 16 KiB", field="metadata")
    return value


def require_attachments(metadata: dict[str, Any]) -> dict[str, Any]:
    """A turn's ``metadata["attachments"]``, when given, is a list of mappings whose
    ``caption`` and ``name`` are strings (what search reads of them)."""
    items = metadata.get("attachments")
    if items is None:
        return metadata
    field = "metadata.attachments"
    if not isinstance(items, list):
        raise ValidationError("must be a list of mappings", field=field)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ValidationError("must be a mapping", field=f"{field}[{i}]")
        for key in ("caption", "name"):
            if key in item and not isinstance(item[key], str):
                raise ValidationError("must be a string", field=f"{field}[{i}].{key}")
    return metadata


def require_output_outside(
    path: Path, protected: list[Path], allowed: list[Path], field: str
) -> Path:
    """``path`` as a place to write a file the user asked for, refused when it lies in
    one of the ``protected`` directories (the live database, vectors, curated files)
    unless inside one of the ``allowed`` ones (exports, backups)."""
    target = path.expanduser().resolve()

    def within(root: Path) -> bool:
        return target.is_relative_to(root.expanduser().resolve())

    if any(within(p) for p in protected) and not any(within(a) for a in allowed):
        raise ValidationError(
            f"refusing to write {path} inside the memory's own files; choose a path outside them",
            field=field,
        )
    return path
