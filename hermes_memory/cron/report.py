"""What a maintenance job returns: counts, duration and notes for people."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class JobReport:
    job: str
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    _started: float = field(default_factory=time.perf_counter, repr=False)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def done(self) -> JobReport:
        self.seconds = round(time.perf_counter() - self._started, 3)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "job": self.job,
            "counts": dict(self.counts),
            "notes": list(self.notes),
            "seconds": self.seconds,
        }

    def summary(self) -> str:
        shown = ", ".join(f"{k} {v:,}" for k, v in self.counts.items() if v) or "nothing to do"
        return f"{self.job}: {shown} ({self.seconds:.2f}s)"
