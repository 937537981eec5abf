"""Segment vectors: one per sentence of a chunk, pooled from the chunk's own pass.

A turn that says three things gets one vector that averages them, and a question
about one of them matches it only weakly. So a chunk of two or more sentences also
gets a vector per sentence (at most ``max_segments``, neighbours merged), and search
keeps an item's best row. The sentence vectors are mean-pooled from the token states
of the whole chunk's pass through the model ("late chunking"): each sentence is read
in its context, and the model runs once, so indexing costs what it did before.
Embedders without token states (the hashing one, test doubles) embed the sentences
on their own instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hermes_memory.text import sentences

Vectors = npt.NDArray[np.float32]
Span = sentences.Span


@dataclass
class Embedded:
    """A chunk's vector, and one per segment, with the segments' character spans."""

    vector: Vectors
    segments: Vectors
    spans: list[Span]


def sentence_spans(text: str, max_segments: int) -> list[Span]:
    """Character spans of ``text``'s sentences, merged in order into at most
    ``max_segments`` groups of about equal count; [] for a text of one sentence (its
    whole vector already says it) or when ``max_segments`` < 2."""
    if max_segments < 2:
        return []
    spans = sentences.sentence_spans(text)
    if len(spans) < 2:
        return []
    if len(spans) > max_segments:
        cuts = [round(i * len(spans) / max_segments) for i in range(max_segments + 1)]
        spans = [(spans[a][0], spans[b - 1][1]) for a, b in itertools.pairwise(cuts)]
    return spans


def pool_spans(
    hidden: npt.NDArray[Any], offsets: Sequence[tuple[int, int]], spans: list[Span]
) -> tuple[Vectors, list[Span]]:
    """Unit mean of the token states inside each span (special tokens, which cover no
    characters, are left out); a span with no token (cut by truncation) is dropped.
    Returns the vectors and the spans kept."""
    if not spans:
        return np.zeros((0, hidden.shape[-1]), dtype=np.float32), []
    starts = np.array([a for a, _ in offsets])
    ends = np.array([b for _, b in offsets])
    real = ends > starts
    rows: list[Vectors] = []
    kept: list[Span] = []
    for a, b in spans:
        inside = real & (starts >= a) & (ends <= b)
        if inside.any():
            v = hidden[inside].mean(axis=0)
            rows.append((v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32))
            kept.append((a, b))
    dim = hidden.shape[-1]
    return (np.stack(rows) if rows else np.zeros((0, dim), dtype=np.float32)), kept


def embed_with_segments(embedder: Any, texts: list[str], max_segments: int) -> list[Embedded]:
    """Each text's vector and its segments' vectors: from the model's token states when
    the embedder offers ``embed_segments``, otherwise by embedding the sentences too."""
    spans = [sentence_spans(t, max_segments) for t in texts]
    native = getattr(embedder, "embed_segments", None)
    if native is not None:
        vectors, segments, kept = native(texts, spans)
        return [Embedded(v, s, k) for v, s, k in zip(vectors, segments, kept, strict=True)]
    pieces = [t[a:b] for t, ss in zip(texts, spans, strict=True) for a, b in ss]
    out = np.asarray(embedder.embed_batch(list(texts) + pieces), dtype=np.float32)
    result: list[Embedded] = []
    at = len(texts)
    for i, ss in enumerate(spans):
        result.append(Embedded(out[i], out[at : at + len(ss)], ss))
        at += len(ss)
    return result
