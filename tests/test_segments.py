"""Sentence segment vectors: where a chunk splits, how spans are pooled, the rows they
become, one search hit per item, and a table built with another layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.tier3.embedder import HashingEmbedder, SentenceTransformerEmbedder
from hermes_memory.tier3.segments import embed_with_segments, pool_spans, sentence_spans

TURN = (
    "Wow, that's great! I just signed up for a pottery class yesterday. "
    "It's like therapy for me. [shares an image: a photo of a bowl]"
)


def _pieces(text: str, max_segments: int) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text, max_segments)]


def test_sentences_end_at_stops_and_line_breaks_and_merge_into_the_allowed_number() -> None:
    assert _pieces(TURN, 9) == [
        "Wow, that's great!",
        "I just signed up for a pottery class yesterday.",
        "It's like therapy for me.",
        "[shares an image: a photo of a bowl]",
    ]
    assert _pieces(TURN, 3) == [
        "Wow, that's great!",
        "I just signed up for a pottery class yesterday. It's like therapy for me.",
        "[shares an image: a photo of a bowl]",
    ]
    assert _pieces("First line\nsecond line", 3) == ["First line", "second line"]
    assert _pieces('He said "stop!" Then left.', 3) == ['He said "stop!"', "Then left."]
    # a title's point or "e.g." ends nothing
    said = "My GP, Dr. Okafor, put me on metformin, e.g. 500 mg. It helps."
    assert _pieces(said, 3) == [
        "My GP, Dr. Okafor, put me on metformin, e.g. 500 mg.",
        "It helps.",
    ]


@pytest.mark.parametrize(
    ("text", "max_segments"),
    [("One sentence only.", 3), ("No stop at all", 3), (TURN, 1), (TURN, 0), ("Hi. ... !", 3)],
)
def test_a_single_sentence_or_no_segments_allowed_gives_no_spans(
    text: str, max_segments: int
) -> None:
    assert sentence_spans(text, max_segments) == []


def test_pooling_averages_the_tokens_inside_a_span_and_skips_special_tokens() -> None:
    hidden = np.array([[9, 9], [1, 0], [3, 0], [0, 2], [9, 9]], dtype=np.float32)
    offsets = [(0, 0), (0, 2), (3, 5), (6, 8), (0, 0)]  # [CLS] two words, a word, [SEP]
    vectors, kept = pool_spans(hidden, offsets, [(0, 5), (6, 8), (20, 30)])
    assert kept == [(0, 5), (6, 8)]  # the span past the last token (truncated) is dropped
    assert np.allclose(vectors, [[1, 0], [0, 1]])


def test_without_token_states_the_sentences_are_embedded_on_their_own() -> None:
    embedder = HashingEmbedder()
    texts = [TURN, "One sentence only."]
    done = embed_with_segments(embedder, texts, 3)
    assert np.allclose([d.vector for d in done], embedder.embed_batch(texts))
    assert done[1].spans == [] and done[1].segments.shape == (0, embedder.dim)
    assert np.allclose(done[0].segments, embedder.embed_batch(_pieces(TURN, 3)))


def test_a_turn_of_several_sentences_gets_a_row_per_segment_and_one_hit(
    home: Path, clock: FrozenClock
) -> None:
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        turn = {"speaker": "mel", "text": TURN, "session_id": "s1", "message_id": "m1"}
        unwrap(api.ingest_turns([turn, {**turn, "text": "Nice bowl.", "message_id": "m2"}]))
        assert api.semantic is not None
        api.semantic.drain()  # the entities the turns introduced: the embed job's part
        keys = api.semantic.store.row_keys()
        rows_per_item: dict[str, int] = {}
        for _, item in keys:
            rows_per_item[item] = rows_per_item.get(item, 0) + 1
        # "Nice bowl.": one row; the turn: its chunk and three segments. ("It's like
        # therapy" is a likeness, no preference: no entity of its own.)
        assert sorted(rows_per_item.values()) == [1, 4]
        hits = unwrap(api.semantic_search("pottery class yesterday", limit=5))
        ids = [h["id"] for h in hits]
        assert ids and len(ids) == len(set(ids))  # one hit per item, its segments or not
        best = hits[0]
        assert best["content"] == (
            "I just signed up for a pottery class yesterday. It's like therapy for me."
        )
        whole = api.semantic.embedder.embed_batch([f"mel: {TURN}"])[0]
        query = api.semantic.embedder.embed_batch(["pottery class yesterday"])[0]
        assert best["similarity"] > float(whole @ query) + 0.1


def test_a_table_built_with_another_layout_is_marked_for_repair(
    home: Path, clock: FrozenClock
) -> None:
    turn = {"speaker": "mel", "text": TURN, "session_id": "s1", "message_id": "m1"}
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.ingest_turns([turn]))
        assert api.semantic is not None and api.semantic.status()["status"] == "ok"
    fewer = load_config(home, env={}, overrides={"tier3": {"segments_per_chunk": 0}})
    with MemoryAPI(fewer, clock=clock, embedder=HashingEmbedder()) as api:
        assert api.semantic is not None
        state = api.semantic.status()
        assert state["status"] == "needs_repair" and "segments_per_chunk" in state["last_error"]
        found = api.recall("pottery", limit=3)
        assert any("doctor --repair" in d for d in found["meta"]["degraded"])
        unwrap(api.repair())
        assert api.semantic.status()["status"] == "ok"
        keys = api.semantic.store.row_keys()
        assert len(keys) == len({item for _, item in keys})  # rebuilt without segments
    with MemoryAPI(fewer, clock=clock, embedder=HashingEmbedder()) as api:
        assert api.semantic is not None and api.semantic.status()["status"] == "ok"
    # Other chunks are another layout too.
    smaller = load_config(
        home, env={}, overrides={"tier3": {"segments_per_chunk": 0, "chunk_size": 256}}
    )
    with MemoryAPI(smaller, clock=clock, embedder=HashingEmbedder()) as api:
        assert api.semantic is not None
        state = api.semantic.status()
        assert state["status"] == "needs_repair" and "chunk_size" in state["last_error"]


@pytest.mark.slow
def test_segments_pooled_by_onnx_and_pytorch_agree() -> None:
    texts = [TURN, "One sentence only.", "Short. Two sentences."]
    spans = [sentence_spans(t, 3) for t in texts]
    fast = SentenceTransformerEmbedder(runtime="onnx").embed_segments(texts, spans)
    slow = SentenceTransformerEmbedder(runtime="torch").embed_segments(texts, spans)
    assert np.abs(fast[0] - slow[0]).max() < 1e-5
    assert fast[2] == slow[2] == spans
    for a, b in zip(fast[1], slow[1], strict=True):
        assert a.shape == b.shape and (a.size == 0 or np.abs(a - b).max() < 1e-5)
    plain = SentenceTransformerEmbedder(runtime="onnx").embed_batch(texts)
    assert np.abs(fast[0] - plain).max() < 1e-6  # the whole vectors are the usual ones
    # A segment read in context is nearer its own sentence than the whole turn is.
    alone = SentenceTransformerEmbedder(runtime="onnx").embed_batch(_pieces(TURN, 3))
    assert all(float(alone[i] @ fast[1][0][i]) > float(alone[i] @ fast[0][0]) for i in range(3))
