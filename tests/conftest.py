from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config

T0 = "2026-03-01T12:00:00Z"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "hermes"


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T0)


@pytest.fixture
def api(home: Path, clock: FrozenClock) -> Iterator[MemoryAPI]:
    with MemoryAPI(load_config(home, env={}), clock=clock) as memory:
        yield memory


def table_counts(api: MemoryAPI) -> dict[str, int]:
    tables = [
        "facts",
        "episodes",
        "entities",
        "relations",
        "timeline",
        "audit_log",
        "embed_queue",
        "fact_evidence",
        "entity_aliases",
    ]
    return {t: int(api.db.scalar(f"SELECT COUNT(*) FROM {t}")) for t in tables}
