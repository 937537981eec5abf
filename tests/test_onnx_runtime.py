"""The ONNX Runtime path of the embedder: same vectors as PyTorch, or no ONNX at all."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from hermes_memory.tier3 import onnx_runtime
from hermes_memory.tier3.embedder import SentenceTransformerEmbedder, _model_path


def _model_dir() -> Path:
    return Path(_model_path("all-MiniLM-L6-v2"))


def test_only_transformer_mean_pooling_normalize_models_are_run(tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(_model_dir(), model, ignore=shutil.ignore_patterns("*.safetensors"))
    assert onnx_runtime._supported(model) == 256
    pooling = json.loads((model / "1_Pooling" / "config.json").read_text())
    pooling["pooling_mode_cls_token"] = True
    (model / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert onnx_runtime._supported(model) is None
    modules = json.loads((model / "modules.json").read_text())[:2]  # no Normalize
    (model / "modules.json").write_text(json.dumps(modules))
    assert onnx_runtime._supported(model) is None
    assert onnx_runtime.load(model) is None  # the caller keeps PyTorch


@pytest.mark.slow
def test_onnx_vectors_equal_pytorch_and_a_broken_cache_is_re_exported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    texts = ["What database are we using?", "We migrated from PostgreSQL to MySQL " * 20]
    encoder = onnx_runtime.load(_model_dir())
    assert encoder is not None
    fast = encoder.encode(texts, batch_size=8, threads=1)
    torch_emb = SentenceTransformerEmbedder(runtime="torch")
    slow = torch_emb.embed_batch(texts)
    assert np.abs(fast - slow).max() < 1e-5
    graph = next((tmp_path / "hermes-memory" / "onnx").glob("*.onnx"))
    graph.write_bytes(b"torn")  # a damaged cache: re-exported, not trusted
    assert onnx_runtime.load(_model_dir()) is None
    assert not graph.exists()
    again = onnx_runtime.load(_model_dir())
    assert again is not None
    assert np.abs(again.encode(texts, batch_size=8, threads=2) - slow).max() < 1e-5


def test_the_next_export_removes_graphs_unused_for_a_month(tmp_path: Path) -> None:
    import os

    from hermes_memory.tier3.onnx_runtime import STALE_AFTER_S, prune_cache

    now = 2_000_000_000.0
    stale, recent, kept = (tmp_path / f"{n}.onnx" for n in ("stale", "recent", "kept"))
    for f, age in ((stale, STALE_AFTER_S + 60), (recent, 86_400), (kept, STALE_AFTER_S * 2)):
        f.write_bytes(b"graph")
        os.utime(f, (now - age, now - age))
    (tmp_path / ".export.lock").write_bytes(b"")
    assert prune_cache(tmp_path, keep=kept, now=now) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".export.lock",
        "kept.onnx",
        "recent.onnx",
    ]


def test_model_runs_are_bounded_in_padded_tokens() -> None:
    """Short texts go batch_size at a time; long ones fewer, so the runtime's memory
    stays bounded by TOKENS_PER_RUN padded tokens a run."""
    from hermes_memory.tier3.onnx_runtime import TOKENS_PER_RUN, _runs

    lengths = [12] * 40 + [256] * 20 + [4096]
    runs = _runs(list(range(len(lengths))), lengths, 32)
    assert [len(r) for r in runs[:2]] == [32, 8]  # the last 8 short ones fill a run
    assert all(len(r) * max(lengths[i] for i in r) <= TOKENS_PER_RUN for r in runs[:-1])
    assert runs[-1] == [60]  # a text longer than the budget still runs, alone
    assert sorted(i for r in runs for i in r) == list(range(len(lengths)))
