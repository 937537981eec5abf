"""The plain retrievers every recall figure is compared with, in the same run.

Over one conversation's whole ``speaker: text`` messages: all-MiniLM-L6-v2 cosine (the
model reads the first 256 tokens), BM25 (bm25s, English stop words, Porter stemmer, as
BEAM's README) and their reciprocal rank fusion (k = 60). Needs the ``bench`` extra:
``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

RRF_K = 60
NAMES = ("minilm", "bm25", "rrf")


class Baselines:
    """Whole-message MiniLM cosine, BM25 and their RRF over one conversation."""

    def __init__(self, turns: list[dict[str, Any]], embedder: Any, cache: Path | None) -> None:
        try:
            import bm25s
            import Stemmer
        except ImportError as exc:
            raise SystemExit(
                f"the plain baselines need the bench extra ({exc.name} is missing): "
                'pip install -e ".[bench]", or pass --no-baselines'
            ) from None

        self.ids = [t["message_id"] for t in turns]
        docs = [f"{t['speaker']}: {t['text']}" for t in turns]
        self.embedder = embedder
        self.vectors = _cached_vectors(docs, embedder, cache)
        self.stemmer = Stemmer.Stemmer("english")
        self.bm25 = bm25s.BM25()
        self.bm25.index(
            bm25s.tokenize(docs, stopwords="en", stemmer=self.stemmer, show_progress=False),
            show_progress=False,
        )

    def rankings(self, question: str) -> dict[str, list[str]]:
        import bm25s

        q = self.embedder.embed_batch([question])[0]
        cos = [self.ids[i] for i in np.argsort(-(self.vectors @ q), kind="stable")]
        tokens = bm25s.tokenize(
            [question],
            stopwords="en",
            stemmer=self.stemmer,
            return_ids=False,
            show_progress=False,
        )[0]
        scores = self.bm25.get_scores(tokens)
        bm25 = [self.ids[i] for i in np.argsort(-scores, kind="stable")]
        fused: dict[str, float] = defaultdict(float)
        for ranking in (cos, bm25):
            for rank, mid in enumerate(ranking):
                fused[mid] += 1.0 / (RRF_K + rank + 1)
        rrf = sorted(fused, key=lambda m: -fused[m])
        return {"minilm": cos, "bm25": bm25, "rrf": rrf}


def _cached_vectors(docs: list[str], embedder: Any, cache: Path | None) -> np.ndarray:
    named = [str(getattr(embedder, "name", "")), *docs]  # another model: other vectors
    digest = hashlib.sha256("\x00".join(named).encode()).hexdigest()[:16]
    path = cache / f"baseline-{digest}.npy" if cache else None
    if path is not None and path.exists():
        return np.load(path)
    vectors = np.asarray(embedder.embed_batch(docs), dtype=np.float32)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, vectors)
    return vectors
