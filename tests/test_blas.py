"""Opening tier 3 sets numpy's BLAS threads from ``tier3.blas_threads``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from hermes_memory import FrozenClock, MemoryAPI, load_config
from hermes_memory.tier3.embedder import HashingEmbedder


def _threads() -> set[int]:
    return {int(lib["num_threads"]) for lib in threadpool_info() if lib["user_api"] == "blas"}


def _open(home: Path, clock: FrozenClock, threads: int) -> None:
    cfg = load_config(home, env={}, overrides={"tier3": {"blas_threads": threads}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()):
        pass


def test_opening_tier3_runs_blas_on_the_configured_threads(home: Path, clock: FrozenClock) -> None:
    np.ones((4, 4)) @ np.ones(4)  # BLAS is loaded
    with threadpool_limits(limits=2, user_api="blas"):  # restored when the test ends
        if _threads() != {2}:
            pytest.skip("this machine's BLAS runs one thread at most")
        _open(home, clock, 0)
        assert _threads() == {2}  # 0 leaves the process's setting alone
        _open(home, clock, 1)
        assert _threads() == {1}
