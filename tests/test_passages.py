"""A long text is matched by words as its best passage (tier2/passages.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.tier2.fts import query_terms, stem_prefix, word_starts
from hermes_memory.tier2.passages import (
    HEAD_CHARS,
    K1,
    TAIL_OCCURRENCES,
    TAIL_TERMS,
    B,
    TermStats,
    best_passage,
)
from hermes_memory.tier3.embedder import HashingEmbedder

ANSWER = "We set the retry budget for the payments webhook to five attempts."
LOG = "".join(f"INFO worker {i} finished batch {i * 7} in {i % 13} ms. " for i in range(60))
QUERY = "What retry budget did we set for the payments webhook?"


def _stems(query: str) -> list[str]:
    return [stem_prefix(t.casefold()) for t in query_terms(query)]


def test_a_long_text_scores_as_its_best_window_however_much_surrounds_it() -> None:
    stems = _stems(QUERY)
    weights = [1.0] * len(stems)
    short_log = f"{LOG} {ANSWER} {LOG}"
    long_log = f"{LOG * 4} {ANSWER} {LOG * 4}"
    assert len(long_log) > 3 * len(short_log) > 3 * 512
    score = best_passage(short_log, stems, weights, 512, avg_chars=300.0).score
    assert score == pytest.approx(best_passage(long_log, stems, weights, 512, 300.0).score)
    # Every query word once in one 512-character window, normalised as 512 characters.
    found = sum(1 for s in stems if any(word_starts(ANSWER.casefold(), s)))
    norm = K1 * (1 - B + B * 512 / 300.0)
    assert score == pytest.approx(found * (K1 + 1) / (1 + norm))


def test_words_together_outscore_the_same_words_spread_apart() -> None:
    stems, weights = _stems("retry budget"), [1.0, 1.0]
    together = f"{LOG} the retry budget was raised {LOG}"
    apart = f"retry {LOG} budget"
    assert (
        best_passage(together, stems, weights, 512, 300.0).score
        > best_passage(apart, stems, weights, 512, 300.0).score
    )


def test_only_word_starts_match_and_a_short_text_is_one_span() -> None:
    stems = _stems("use")
    assert list(word_starts("reuse the users' cache; use it", stems[0])) == [10, 24]
    assert best_passage("we reuse it", stems, [1.0], 512, 100.0) == (0.0, 0)
    terse = best_passage("use it", stems, [1.0], 512, 100.0).score
    wordy = best_passage("use it " + "and so on " * 20, stems, [1.0], 512, 100.0).score
    assert terse > wordy > 0  # BM25's length normalisation, by the text's own length


def test_a_line_deep_in_a_paste_is_found_by_the_querys_rarest_words() -> None:
    stems = _stems("checksum mismatch shard worker")
    line = "ERROR shard 12: checksum mismatch on segment 88ab."
    filler = "INFO worker finished the batch. " * 100
    paste = filler * 20 + line + " " + filler * 20  # the line ~64,000 characters in
    assert len(paste) > 3 * HEAD_CHARS
    found = best_passage(paste, stems, [3.0, 3.0, 2.0, 0.1], 512, 300.0)
    at = paste.index(line)
    assert found.score > 0 and found.start <= at < found.start + 512
    # Past the head only the rarest TAIL_TERMS count: the line's words ranked below
    # them are not looked for there, and a weightless term counts nowhere.
    rarer = [f"zzz{i}" for i in range(TAIL_TERMS)]
    deep = best_passage(paste, rarer + stems, [9.0] * TAIL_TERMS + [3.0] * 4, 512, 300.0)
    assert deep.start < HEAD_CHARS
    assert best_passage(line, stems, [0.0] * 4, 512, 300.0).score == 0.0


def test_past_the_head_rare_words_are_read_up_to_a_bound() -> None:
    stems = _stems("retry")
    sparse = ("retry " + "x " * 50) * TAIL_OCCURRENCES  # a few to a window
    dense = "retry " * 100  # the best window, were the text read to its end
    found = best_passage(sparse + dense, stems, [1.0], 512, 300.0)
    assert 0 < found.score < best_passage(dense, stems, [1.0], 512, 300.0).score
    assert found.start < len(sparse)
    # The head is read whole, whatever the bound.
    head = best_passage(dense + sparse, stems, [1.0], 512, 300.0)
    assert head.start == 0 and head.score == best_passage(dense, stems, [1.0], 512, 300.0).score


def test_weights_are_fts5_idf() -> None:
    stats = TermStats(n_docs=100, dfs=(1, 50, 0), avg_chars=80.0)
    rare, common, absent = stats.weights()
    assert rare == pytest.approx(math.log(1 + (100 - 1 + 0.5) / 1.5))
    assert rare > common > 0 and absent == 0.0


def _turns() -> list[dict[str, object]]:
    chatter = [
        "The payments dashboard looks fine today.",
        "Is the webhook flaky again?",
        "Budget meeting moved to Friday.",
        "Retry later, the build queue is full.",
    ] + [f"Lunch plan number {i} is sushi." for i in range(40)]
    turns = [
        {"speaker": "user", "text": t, "session_id": "s1", "message_id": str(i)}
        for i, t in enumerate(chatter)
    ]
    buried = f"Here is the worker log. {LOG * 3} {ANSWER} {LOG * 3}"
    turns.append({"speaker": "user", "text": buried, "session_id": "s1", "message_id": "log"})
    return turns


def test_term_stats_count_documents_and_measure_the_turns(home: Path, clock: FrozenClock) -> None:
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.ingest_turns(_turns()))
        stats = api.episodes.term_stats(["webhook", "payments", "nowhere"])
        assert stats.n_docs == 45 and stats.dfs == (2, 2, 0)
        texts = [str(t["text"]).strip() for t in _turns()]
        assert stats.avg_chars == pytest.approx(sum(map(len, texts)) / len(texts))


@pytest.mark.parametrize("window", [512, 0])
def test_a_long_turn_that_answers_in_one_paragraph_ranks_first_by_words(
    home: Path, clock: FrozenClock, window: int
) -> None:
    overrides = {"recall": {"passage_chars": window}}
    cfg = load_config(home, env={}, overrides=overrides)
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.ingest_turns(_turns()))
        top = unwrap(api.recall(QUERY, tiers=["tier2"], limit=5))
        first = top[0]["content"]
    # Scored whole, the 15,000-character log loses to short lines sharing one word.
    assert (ANSWER in first) is (window > 0)


def test_a_line_deep_in_a_pasted_log_is_recalled_and_shown(home: Path, clock: FrozenClock) -> None:
    line = "ERROR shard-12 checksum mismatch on segment 88ab, replica quarantined."
    paste = f"Here is last night's log. {LOG * 20} {line} {LOG * 10}"
    assert paste.index(line) > 2 * HEAD_CHARS
    turns = _turns()
    turns.append({"speaker": "user", "text": paste, "session_id": "s2", "message_id": "paste"})
    turns += [
        {"speaker": "user", "text": f"Shard {i} planning moved to next week.",
         "session_id": "s3", "message_id": f"shard-{i}"}
        for i in range(20)
    ]  # fmt: skip
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(api.ingest_turns(turns))
        top = unwrap(api.recall("Which shard had a checksum mismatch?", tiers=["tier2"], limit=3))
    assert top[0]["source_id"] == "paste"
    assert line in top[0]["excerpt"]
