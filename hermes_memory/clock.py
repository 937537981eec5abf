"""Time as a collaborator: the API asks a clock, so tests can freeze it."""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime
from typing import Protocol

from hermes_memory.errors import ValidationError

DAY = 86_400.0
# The Unix times of the first and last second datetime can hold (years 1 to 9999).
FIRST_TIME, LAST_TIME = -62_135_596_800, 253_402_300_799


class Clock(Protocol):
    def __call__(self) -> float:
        """Seconds since the Unix epoch."""
        ...


def system_clock() -> float:
    return time.time()


class FrozenClock:
    """A clock that only moves when told to (tests, benchmarks, replays)."""

    def __init__(self, now: float | str | datetime) -> None:
        self.now = parse_time(now, "now")

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def set(self, when: float | str | datetime) -> None:
        self.now = parse_time(when, "now")


def to_iso(ts: float | None) -> str | None:
    """ISO 8601 in UTC, seconds precision (``2026-03-01T12:00:00Z``)."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: float | int | str | datetime, field: str) -> float:
    """A Unix timestamp from a number, an ISO 8601 string or a datetime (naive = UTC)."""
    if isinstance(value, bool):
        raise ValidationError(f"must be a time, not {value!r}", field=field)
    if isinstance(value, int | float):
        if not math.isfinite(value) or not FIRST_TIME <= value <= LAST_TIME:
            raise ValidationError(
                f"must be a Unix time in seconds within years 1-9999; got {value!r}", field=field
            )
        return float(value)
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        text = value.strip().replace("Z", "+00:00")
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            raise ValidationError(
                f"{value!r} is not an ISO 8601 time (2026-03-01 or 2026-03-01T12:00:00Z)",
                field=field,
            ) from None
    else:
        raise ValidationError(f"must be a time, not {type(value).__name__}", field=field)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()
