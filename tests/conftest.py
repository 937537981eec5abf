from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config
from hermes_memory.cli.main import main
from hermes_memory.tier3.embedder import HashingEmbedder

T0 = "2026-03-01T12:00:00Z"


@pytest.fixture(autouse=True)
def hashing_embedder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and CLI subprocess) embeds deterministically unless marked slow."""
    if request.node.get_closest_marker("slow") is None:
        monkeypatch.setenv("HERMES_MEMORY_TIER3__EMBEDDING_MODEL", "hashing-256")
        monkeypatch.setenv("HERMES_MEMORY_TIER3__EMBEDDING_DIM", "256")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "hermes"


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(T0)


@pytest.fixture
def api(home: Path, clock: FrozenClock) -> Iterator[MemoryAPI]:
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as memory:
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


@pytest.fixture
def queued_api(home: Path, clock: FrozenClock) -> Iterator[MemoryAPI]:
    """Writes stay in the embed outbox (no inline embedding), as for bulk imports."""
    cfg = load_config(home, env={}, overrides={"tier3": {"embed_inline": False}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as memory:
        yield memory


def call(home: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process on ``home``: (exit code, stdout, stderr)."""
    code = 0
    try:
        main(["--home", str(home), *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
