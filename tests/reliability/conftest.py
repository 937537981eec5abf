"""Shared by the reliability tests: the figures they report for docs/reliability.md."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPORT = Path(__file__).resolve().parents[2] / "build" / "reliability-report.json"


@pytest.fixture(scope="session")
def figures() -> Iterator[dict[str, Any]]:
    """Each test adds what it measured; written to build/reliability-report.json."""
    data: dict[str, Any] = {}
    yield data
    REPORT.parent.mkdir(exist_ok=True)
    old = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    REPORT.write_text(json.dumps({**old, **data}, indent=2, sort_keys=True) + "\n")
