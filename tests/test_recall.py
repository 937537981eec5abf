from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api import scoring
from hermes_memory.clock import DAY
from hermes_memory.config import RecallConfig
from hermes_memory.tier3.embedder import HashingEmbedder
from hermes_memory.tools.memory_tool import handle

FIELDS = {
    "content",
    "tier",
    "kind",
    "scope",
    "importance",
    "score",
    "similarity",
    "recency",
    "match_reasons",
    "evidence_gaps",
    "created_at",
    "source_type",
    "source_id",
    "session_id",
    "evidence_ids",
}


def test_score_is_exactly_the_spec_formula() -> None:
    cfg = RecallConfig()
    c = scoring.score(0.8, created_at=0.0, importance=0.6, now=30 * DAY, cfg=cfg)
    assert c.recency == pytest.approx(0.5)
    assert c.score == pytest.approx(0.5 * 0.8 + 0.3 * 0.5 + 0.2 * 0.6, abs=1e-4)


def test_recall_returns_every_field_and_explains(api: MemoryAPI) -> None:
    api.fact_store(
        "The orders database runs MySQL 8",
        category="project",
        importance=0.8,
        scope="/infrastructure/database",
    )
    env = api.recall("which database do the orders use")
    assert env["success"] and env["tier"] == "multi"
    assert set(env["meta"]["tiers_queried"]) == {"tier1", "tier2", "tier3", "graph"}
    top = env["data"][0]
    assert set(top) >= FIELDS
    assert top["content"] == "The orders database runs MySQL 8"
    assert "lexical" in top["match_reasons"] and "importance" in top["match_reasons"]


def test_unrelated_fresh_memory_does_not_surface(api: MemoryAPI, clock: FrozenClock) -> None:
    api.fact_store("Quarterly budget review is on Thursday", category="general", importance=0.1)
    assert unwrap(api.recall("kubernetes ingress certificate")) == []
    gaps = json.loads(handle(api, {"action": "recall", "content": "kubernetes ingress"}))
    assert gaps == {"results": []}


def test_old_important_decision_beats_fresh_trivial_note(
    api: MemoryAPI, clock: FrozenClock, home: Path
) -> None:
    api.fact_store(
        "Decision: the payments ledger database is PostgreSQL", category="decision", importance=0.9
    )
    clock.advance(180 * DAY)
    api.fact_store(
        "Note: the PostgreSQL dashboard looked slow today", category="general", importance=0.1
    )
    clock.advance(DAY)
    query = "which PostgreSQL database holds the payments ledger"
    results = unwrap(api.recall(query))
    assert results[0]["content"].startswith("Decision:")
    # With the relative relevance gate off the note is scored too, and still loses.
    cfg = load_config(home, env={}, overrides={"recall": {"relative_gate": 0.0}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as ungated:
        results = unwrap(ungated.recall(query))
    assert [r["content"][:5] for r in results] == ["Decis", "Note:"]


def test_weights_from_config_change_the_ranking(home: Path, clock: FrozenClock) -> None:
    home.mkdir(parents=True)

    def top(yaml_text: str) -> str:
        (home / "config.yaml").write_text(yaml_text, encoding="utf-8")
        with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
            results = unwrap(api.recall("which PostgreSQL database holds the payments ledger"))
            return str(results[0]["content"])

    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        api.fact_store(
            "Decision: the payments ledger database is PostgreSQL",
            category="decision",
            importance=0.9,
        )
        clock.advance(180 * DAY)
        api.fact_store(
            "Note: the PostgreSQL dashboard looked slow today", category="general", importance=0.1
        )
    assert top("memory:\n  recall: {preset: balanced}\n").startswith("Decision")
    assert top(
        "memory:\n  recall:\n    semantic_weight: 0.1\n    recency_weight: 0.9\n"
        "    importance_weight: 0.0\n    relative_gate: 0.0\n"
    ).startswith("Note")


def test_recall_spans_tiers_and_reports_provenance(api: MemoryAPI) -> None:
    api.curated_add("User's deploy target is Fly.io", "user")
    api.ingest_turn(
        "alice",
        "the deploy broke on staging yesterday",
        session_id="s9",
        message_id="D1:3",
        timestamp="2026-02-28T10:00:00Z",
    )
    fact = unwrap(api.fact_store("Deploys run from GitHub Actions", category="ops"))
    results = unwrap(api.recall("deploy", limit=5))
    tiers = {r["tier"] for r in results}
    assert tiers == {"tier1", "tier2"}
    episode = next(r for r in results if r["kind"] == "episode")
    assert episode["session_id"] == "s9" and episode["evidence_ids"] == ["D1:3"]
    assert any("curated" in r["match_reasons"] for r in results)
    assert any(r.get("id") == fact["uuid"] for r in results)
    only3 = unwrap(api.recall("deploy", tiers=["tier3"]))
    assert all(r["tier"] == "tier2" for r in only3)  # vectors point back to truth rows


def test_evidence_gaps_name_what_is_missing(api: MemoryAPI) -> None:
    api.fact_store("Redis caches sessions for the gateway", category="project")
    results = unwrap(api.recall("redis cluster failover plan"))
    assert results and any("failover" in g for g in results[0]["evidence_gaps"])
    # A word the index matched in another form is not reported missing.
    api.fact_store("Priya prefers MySQL for the ledger")
    gaps = unwrap(api.recall("ledger database preference"))[0]["evidence_gaps"]
    assert gaps[0].startswith("no memory mentions: database") and "preference" not in gaps[0]
    # How the question hedges is not what it asks about; "may" can be the month.
    hedged = unwrap(api.recall("What might Priya likely prefer for the ledger in May?"))
    assert hedged[0]["evidence_gaps"][0] == "no memory mentions: may"


def test_recall_reports_the_time_of_each_stage(api: MemoryAPI) -> None:
    api.fact_store("Bob owns the billing service", category="project")
    api.entity_link("Bob", "billing", "owns")
    env = api.recall("who owns billing", limit=3)
    timings = env["meta"]["timings_ms"]
    assert {"tier2", "embed", "tier3", "tier1", "graph", "rank"} <= set(timings)
    assert all(isinstance(v, float) and v >= 0 for v in timings.values())
    only = api.recall("who owns billing", tiers=["tier2"], limit=3)["meta"]["timings_ms"]
    assert "tier3" not in only and "tier2" in only  # a stage that did not run is absent


def test_long_queries_are_split_into_subqueries_when_asked(
    home: Path, clock: FrozenClock, api: MemoryAPI
) -> None:
    question = (
        "I need a full picture before the planning meeting. Which engine does the "
        "search service run on? Also, when does Alice like to ship releases? "
        "Please include anything else relevant to both topics and their owners."
    )
    assert api.recall(question, limit=5)["meta"]["subqueries"] == [question]  # off by default
    api.close()
    cfg = load_config(home, env={}, overrides={"recall": {"deep_query_chars": 200}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as deep:
        deep.fact_store("The search service uses Elasticsearch", category="project")
        deep.fact_store("Alice prefers Friday releases", category="preference")
        env = deep.recall(question, limit=5)
    assert len(env["meta"]["subqueries"]) > 1
    contents = {r["content"] for r in env["data"]}
    assert {"The search service uses Elasticsearch", "Alice prefers Friday releases"} <= contents


def test_memory_action_recall_json(api: MemoryAPI) -> None:
    api.fact_store(
        "We migrated from PostgreSQL to MySQL last week",
        category="decision",
        importance=0.8,
        scope="/infrastructure/database",
    )
    out = json.loads(handle(api, {"action": "recall", "content": "PostgreSQL MySQL", "limit": 5}))
    assert set(out) == {"results"}
    first = out["results"][0]
    assert first["content"] == "We migrated from PostgreSQL to MySQL last week"
    assert first["scope"] == "/infrastructure/database" and first["importance"] == 0.8
    bad = json.loads(handle(api, {"action": "recall", "content": "x", "limit": 0}))
    assert bad["success"] is False and "limit" in bad["error"]
    assert json.loads(handle(api, {"action": "recall"}))["success"] is False


def test_rebuilt_vector_table_equals_the_original(api: MemoryAPI) -> None:
    for i in range(30):
        api.fact_store(f"fact number {i} about service {i % 7}", category="general")
    api.ingest_turn("bob", "a long turn " + "word " * 300, session_id="s", message_id="1")
    assert api.semantic is not None
    before = _vector_rows(api)
    unwrap(api.rebuild())
    after = _vector_rows(api)
    assert after == before
    assert any(i.endswith("#1") for i, _, _ in after)  # the long turn was chunked


def _vector_rows(api: MemoryAPI) -> list[tuple[str, str, tuple[float, ...]]]:
    assert api.semantic is not None
    table = api.semantic.store.table().to_arrow()
    vectors = [tuple(round(x, 5) for x in v) for v in table.column("vector").to_pylist()]
    return sorted(
        zip(table.column("id").to_pylist(), table.column("text").to_pylist(), vectors, strict=True)
    )


class FailingEmbedder(HashingEmbedder):
    def embed_batch(self, texts: list[str]):  # type: ignore[no-untyped-def]
        raise RuntimeError("model crashed")


def test_vector_failure_keeps_the_fact_and_marks_needs_repair(
    home: Path, clock: FrozenClock
) -> None:
    cfg = load_config(home, env={})
    with MemoryAPI(cfg, clock=clock, embedder=FailingEmbedder()) as broken:
        env = broken.fact_store("survives a broken vector tier", category="general")
        assert env["success"] and env["meta"]["tier3"] == "needs_repair"
        assert unwrap(broken.stats())["tier3"]["status"] == "needs_repair"
        # recall degrades to the tiers that work
        res = broken.recall("broken vector tier")
        assert res["success"] and res["data"][0]["content"] == "survives a broken vector tier"
        assert any("tier3" in d for d in res["meta"]["degraded"])
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as fixed:
        repaired = unwrap(fixed.repair())
        assert repaired["status"] == "ok" and repaired["missing"] == 0
        assert unwrap(fixed.semantic_search("broken vector tier"))[0]["content"] == (
            "survives a broken vector tier"
        )


def test_a_model_change_is_said_and_rebuilt_on_request(home: Path, clock: FrozenClock) -> None:
    cfg = load_config(home, env={})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder(256)) as api:
        api.fact_store("vectors from the first model", category="general")
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder(128)) as api:
        assert api.semantic is not None
        state = api.semantic.status()  # nothing re-embedded inside the constructor
        assert state["status"] == "needs_repair" and state["embedder"] == "hashing-256"
        assert "hermes-memory rebuild" in state["last_error"]
        searched = api.semantic_search("first model")
        assert not searched["success"] and "hashing-256" in searched["error"]
        env = api.recall("vectors from the first model")  # the other tiers still answer
        assert unwrap(env)[0]["content"] == "vectors from the first model"
        assert any("hashing-256" in d for d in env["meta"]["degraded"])
        api.fact_store("written before the rebuild", category="general")  # waits, unmixed
        assert api.db.scalar("SELECT COUNT(*) FROM embed_queue WHERE status = 'pending'") == 1
        unwrap(api.rebuild())
        state = api.semantic.status()
        assert state["embedder"] == "hashing-128" and state["dim"] == 128
        assert api.semantic.store.count() == 2
        hits = unwrap(api.semantic_search("first model"))
        assert hits[0]["content"] == "vectors from the first model"


def test_deleting_a_fact_removes_its_vectors(api: MemoryAPI) -> None:
    uid = unwrap(api.fact_store("short-lived vector", category="general"))["uuid"]
    api.fact_delete(uid)
    assert unwrap(api.semantic_search("short-lived vector")) == []


def test_a_time_past_the_calendar_is_no_window(api: MemoryAPI) -> None:
    api.fact_store("We shipped the release in December", category="general")
    api.fact_store("The pyramids were built 5000 years ago", category="general")
    hits = unwrap(api.recall("What happened in December 9999?"))
    assert hits and hits[0]["content"] == "We shipped the release in December"


@pytest.mark.parametrize("when", [1e20, -1e15, float("nan"), float("inf"), "next tuesday"])
def test_a_time_outside_the_calendar_is_refused(api: MemoryAPI, when: object) -> None:
    api.fact_store("We shipped the release", category="general")
    out = api.recall("what shipped last week", as_of=when)  # type: ignore[arg-type]
    assert not out["success"] and out["error"].startswith("as_of:")


def test_semantic_search_floor_comes_from_config(home: Path, clock: FrozenClock) -> None:
    cfg = load_config(home, env={}, overrides={"tier3": {"min_score": 0.99}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder(256)) as api:
        api.fact_store("the orchard gate squeaks at night", category="general")
        api.fact_store("the orchard gate was painted green", category="general")
        query = "the orchard gate squeaks at night"
        floored = unwrap(api.semantic_search(query))
        assert [h["content"] for h in floored] == ["the orchard gate squeaks at night"]
        everything = unwrap(api.semantic_search(query, min_score=-1.0))
        assert len(everything) == 2 and 0 < everything[1]["similarity"] < 0.99


@pytest.mark.slow
def test_spec_example_with_the_real_model(home: Path, clock: FrozenClock) -> None:
    with MemoryAPI(load_config(home, env={}), clock=clock) as api:
        api.fact_store(
            "We migrated from PostgreSQL to MySQL last week",
            category="decision",
            importance=0.8,
            scope="/infrastructure/database",
        )
        api.fact_store("The design review is on Thursday", category="general", importance=0.3)
        api.fact_store("Alice prefers dark mode in every editor", category="preference")
        out = json.loads(
            handle(api, {"action": "recall", "content": "What database are we using?", "limit": 5})
        )
        first = out["results"][0]
        assert first["content"] == "We migrated from PostgreSQL to MySQL last week"
        assert set(first) >= {
            "content",
            "scope",
            "importance",
            "score",
            "match_reasons",
            "evidence_gaps",
            "created_at",
        }
        assert "semantic" in first["match_reasons"] and "importance" in first["match_reasons"]
        assert unwrap(api.stats())["tier3"]["degraded"] is False


def test_curated_edits_are_seen_by_the_next_recall(api: MemoryAPI) -> None:
    api.curated_add("Staging deploys go to Fly.io", "user")
    assert unwrap(api.recall("staging deploys"))[0]["content"] == "Staging deploys go to Fly.io"
    api.curated_replace("Fly.io", "Staging deploys go to Render", "user")
    contents = [r["content"] for r in unwrap(api.recall("staging deploys"))]
    assert contents == ["Staging deploys go to Render"]  # live-read, no stale cached entry


def test_an_absent_signal_is_not_negative_evidence() -> None:
    both = scoring.fuse_similarity(0.0, 0.35)
    assert both < scoring.calibrate_cosine(0.35)  # a lexical miss next to lexical hits
    alone = scoring.fuse_similarity(0.0, 0.35, has_lexical=False)
    assert alone == pytest.approx(scoring.calibrate_cosine(0.35))
    assert scoring.fuse_similarity(0.7, 0.0, has_semantic=False) == pytest.approx(0.7)


class _ChosenCosines(HashingEmbedder):
    """Hashing vectors, but a text holding one of ``AXES`` lies on that axis, and one
    holding a key of ``NEAR`` at that cosine to the query's axis."""

    AXES = ("what city",)
    NEAR = {"Berlin": 0.3, "Porto": 0.3}

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        out = super().embed_batch(texts)
        for row, text in enumerate(texts):
            vec = np.zeros(self.dim, dtype=np.float32)
            if any(axis in text for axis in self.AXES):
                vec[0] = 1.0
            for i, (word, cosine) in enumerate(self.NEAR.items(), start=1):
                if word in text:
                    vec[0], vec[i] = cosine, (1 - cosine**2) ** 0.5
            if vec.any():
                out[row] = vec
        return out


@pytest.mark.parametrize("with_shared_word", [False, True])
def test_a_memory_found_by_meaning_alone_stays_found_beside_a_word_match(
    home: Path, clock: FrozenClock, with_shared_word: bool
) -> None:
    # Cosine 0.3 alone clears the floor (calibrated 0.29 >= 0.2). Fused next to another
    # memory sharing a word with the query it keeps only 0.6 of that: the floor is
    # lowered by the same share, so adding the other memory cannot drop this one.
    facts = ["I moved to Berlin last March and now work at Spotify."]
    if with_shared_word:
        facts.append("My sister Ana lives in Porto.")
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=_ChosenCosines()) as api:
        for fact in facts:
            unwrap(api.fact_store(fact))
        found = [r["content"] for r in unwrap(api.recall("what city do I live in"))]
    assert facts[0] in found
    assert set(found) == set(facts)


def test_the_floor_share_is_what_fusion_keeps_of_the_stronger_signal() -> None:
    assert scoring.floor_share(0.0, 0.35) == pytest.approx(scoring.STRONGER_SHARE)
    assert scoring.floor_share(0.0, 0.35, has_lexical=False) == pytest.approx(1.0)
    assert scoring.floor_share(0.5, scoring.COS_CEIL) == pytest.approx(0.8)
    assert scoring.floor_share(0.0, 0.0) == 1.0  # no signal: the full floor
    # so that the floor falls on the stronger signal, whatever the weaker one adds
    for lex, cos in [(0.0, 0.35), (0.4, 0.2), (0.9, 0.75), (0.3, 0.0)]:
        fused = scoring.fuse_similarity(lex, cos)
        stronger = max(lex, scoring.calibrate_cosine(cos))
        assert fused / scoring.floor_share(lex, cos) == pytest.approx(stronger)


def _conversation(api: MemoryAPI) -> None:
    turns = [
        ("ana", "did you ever try the pottery workshop downtown", "s1", "D1:1"),
        ("ben", "yes, the workshop teacher showed me how to glaze a bowl", "s1", "D1:2"),
        ("ben", "the workshop at work was about budgets", "s2", "D2:1"),
    ]
    unwrap(
        api.ingest_turns(
            [
                {"speaker": s, "text": t, "session_id": sid, "message_id": mid}
                for s, t, sid, mid in turns
            ]
        )
    )


def test_a_reply_shares_the_context_of_the_matching_turn(home: Path, clock: FrozenClock) -> None:
    def ranked(context_weight: float) -> list[dict[str, object]]:
        # About context alone: these turns are short (no short-turn discount), and the
        # hashing vectors are weak (a lower floor keeps the distractor D2:1 ranked).
        recall = {
            "context_weight": context_weight,
            "relative_gate": 0.5,
            "short_turn_words": 0,
            "min_similarity": 0.1,
        }
        cfg = load_config(home, env={}, overrides={"recall": recall})
        with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as memory:
            if not memory.episodes.count():
                _conversation(memory)
            return unwrap(memory.recall("pottery workshop", limit=5))

    without = {r["source_id"]: r for r in ranked(0.0)}
    context = ranked(0.5)
    assert [r["source_id"] for r in context][:2] == ["D1:1", "D1:2"]
    shared = {r["source_id"]: r for r in context}
    # Alone, the reply is too weak a match to be ranked at all (or ranks lower).
    assert shared["D1:2"]["similarity"] > without.get("D1:2", {"similarity": 0.0})["similarity"]
    assert shared["D1:2"]["similarity"] > shared["D2:1"]["similarity"]
    assert "context" in shared["D1:2"]["match_reasons"]
    assert "context" not in shared["D2:1"]["match_reasons"]  # another session


def test_scope_is_applied_before_ranking(api: MemoryAPI) -> None:
    for i in range(30):
        api.fact_store(
            f"deploy checklist item {i} for the mobile app", scope="/mobile", importance=0.9
        )
    for i in range(3):
        api.fact_store(f"deploy step {i} for the web backend", scope="/web/backend", importance=0.2)
    results = unwrap(api.recall("deploy checklist", scope="/web", limit=3))
    assert [r["scope"] for r in results] == ["/web/backend"] * 3


def test_exact_scan_matches_lancedb_and_sees_other_writers(api: MemoryAPI) -> None:
    from hermes_memory.tier3.vector_store import VectorStore

    for text in ["kafka consumer lag alert", "postgres vacuum schedule", "kafka topic retention"]:
        api.fact_store(text, category="ops")
    assert api.semantic is not None
    store = api.semantic.store
    query = api.semantic.embed_cached(["kafka lag"])[0]
    exact = store.search(query, api.owner, limit=3)
    lance_store = VectorStore(store.path, store.dim, exact_max_rows=0, sign_search=False)
    lance = lance_store.search(query, api.owner, limit=3)
    assert [h.item_uuid for h in exact] == [h.item_uuid for h in lance]
    assert [h.similarity for h in exact] == pytest.approx([h.similarity for h in lance], abs=1e-5)
    other = VectorStore(store.path, store.dim)  # another process's handle
    rows = [dict(r) for r in store.table().to_arrow().drop_columns(["vector"]).to_pylist()[:1]]
    rows[0].update(id="x:0", item_uuid="x")
    other.upsert(rows, np.asarray([query]))
    assert store.search(query, api.owner, limit=1)[0].item_uuid == "x"


def test_recency_only_reorders_comparably_relevant_memories() -> None:
    # (key, similarity, composite score): "fresh" is nearly as relevant as "old" and
    # newer, so it wins; "weak" is much newer but clearly less relevant, so it comes
    # after the band of the best, not above it; "noise" is under the floor.
    scored = [("old", 0.90, 0.60), ("fresh", 0.86, 0.75), ("weak", 0.5, 0.9), ("noise", 0.1, 1.0)]
    assert scoring.rank_in_bands(scored, 0.2, 0.9, 10) == ["fresh", "old", "weak"]
    assert scoring.rank_in_bands(scored, 0.2, 0.9, 2) == ["fresh", "old"]
    # A band of 0 lets the composite score alone decide (the spec's formula).
    assert scoring.rank_in_bands(scored, 0.2, 0.0, 10) == ["weak", "fresh", "old"]


def test_an_exact_tie_is_ordered_by_meaning_not_by_arrival() -> None:
    scored = [("a", 0.6, 0.45), ("b", 0.6, 0.45), ("c", 0.6, 0.45)]
    ties = {"a": (0.31, 5.0), "b": (0.40, 1.0), "c": (0.31, 9.0)}
    for order in (scored, scored[::-1]):
        assert scoring.rank_in_bands(order, 0.2, 0.95, 10, ties) == ["b", "c", "a"]


def test_a_lexical_match_gets_its_real_cosine(home: Path, clock: FrozenClock) -> None:
    cfg = load_config(home, env={})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        for i in range(12):
            api.fact_store(f"rollback plan {i}")
        target = "zebra crossing near the old office, with a long note about parking"
        api.fact_store(target)
        query = "zebra rollback plan"
        assert api.semantic is not None
        nearest = [h.text for h in api.semantic.search(query, api.owner, limit=4)]
        assert target not in nearest  # the vector search alone would miss it
        # Four vector hits (one per tier x 4): the target is found by BM25 only, yet
        # carries its cosine, as it does when the vector search reaches it.
        narrow = unwrap(api.recall(query, ["tier2", "tier3"], 1, limit=13))
        wide = unwrap(api.recall(query, ["tier2", "tier3"], 25, limit=13))
    by_content = {r["content"]: r for r in wide}
    got = next(r for r in narrow if r["content"] == target)
    assert got["similarity"] == by_content[target]["similarity"]


def test_turns_of_the_person_asked_about_rank_first(home: Path, clock: FrozenClock) -> None:
    turns = [
        ("Maria", "I went to a kickboxing class with my sister", "D1:1"),
        ("John", "I went to a kickboxing class after work", "D1:2"),
    ]
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(
            api.ingest_turns(
                [
                    {"speaker": s, "text": t, "session_id": "s1", "message_id": m}
                    for s, t, m in turns
                ]
            )
        )
        asked = {
            name: unwrap(api.recall(f"what class did {name} go to", limit=2))
            for name in ("John", "Maria")
        }
        both = unwrap(api.recall("what class did John and Maria go to", limit=2))
    assert [r["source_id"] for r in asked["John"]] == ["D1:2", "D1:1"]
    assert [r["source_id"] for r in asked["Maria"]] == ["D1:1", "D1:2"]
    assert "speaker" in asked["John"][0]["match_reasons"]
    assert all("speaker" not in r["match_reasons"] for r in both)  # nobody singled out


def test_a_question_about_a_period_draws_on_what_was_said_then(
    home: Path, clock: FrozenClock
) -> None:
    july = datetime(2023, 7, 20, tzinfo=UTC).timestamp()
    later = datetime(2023, 11, 2, tzinfo=UTC).timestamp()
    turns = [("we drove up the north coast", july, "D1:1")]
    # More later turns than the candidate depth match the query better.
    turns += [(f"visit the coast, plan {i}", later + i, f"D2:{i}") for i in range(60)]
    clock.set(later + DAY)
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        unwrap(
            api.ingest_turns(
                [
                    {
                        "speaker": "Ana",
                        "text": t,
                        "session_id": m.split(":")[0],
                        "message_id": m,
                        "timestamp": ts,
                    }
                    for t, ts, m in turns
                ]
            )
        )
        asked = unwrap(api.recall("Which coast did Ana visit in July 2023?", limit=60))
        undated = unwrap(api.recall("Which coast did Ana visit?", limit=60))
    found = {r["source_id"]: r for r in asked}
    assert "time" in found["D1:1"]["match_reasons"]
    assert all("time" not in r["match_reasons"] for r in asked if r["source_id"] != "D1:1")
    assert "D1:1" not in [r["source_id"] for r in undated]


def test_a_turn_that_only_asks_ranks_below_the_answer(home: Path, clock: FrozenClock) -> None:
    turns = [
        ("Ana", "What pottery workshop did you go to downtown?", "s1", "D1:1"),
        (
            "Ben",
            "The pottery workshop downtown on Main Street. [shares an image: a bowl]",
            "s2",
            "D2:1",
        ),
    ]

    def ranked(factor: float) -> list[dict[str, object]]:
        cfg = load_config(home, env={}, overrides={"recall": {"question_factor": factor}})
        with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
            if not api.episodes.count():
                unwrap(
                    api.ingest_turns(
                        [
                            {"speaker": s, "text": t, "session_id": sid, "message_id": m}
                            for s, t, sid, m in turns
                        ]
                    )
                )
            return unwrap(api.recall("which pottery workshop downtown", limit=2))

    plain = {r["source_id"]: r["similarity"] for r in ranked(1.0)}
    asked = ranked(0.5)
    assert asked[0]["source_id"] == "D2:1"
    got = {r["source_id"]: r["similarity"] for r in asked}
    assert got["D1:1"] == pytest.approx(plain["D1:1"] * 0.5, abs=1e-3)
    assert got["D2:1"] == plain["D2:1"]  # a trailing attachment note does not make a question


def test_a_turn_two_away_shares_half_the_context(home: Path, clock: FrozenClock) -> None:
    turns = [
        ("ana", "did you ever try the pottery workshop downtown", "D1:1"),
        ("ben", "hmm, let me think", "D1:2"),
        ("ben", "yes, my sister took me there last spring", "D1:3"),
    ]

    def sims(weight: float) -> dict[str, float]:
        recall = {"context_weight": weight, "min_similarity": 0.0, "question_factor": 1.0}
        cfg = load_config(home, env={}, overrides={"recall": recall})
        with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as memory:
            if not memory.episodes.count():
                unwrap(
                    memory.ingest_turns(
                        [
                            {"speaker": s, "text": t, "session_id": "s1", "message_id": m}
                            for s, t, m in turns
                        ]
                    )
                )
            results = unwrap(memory.recall("pottery workshop", limit=5))
            return {str(r["source_id"]): float(r["similarity"]) for r in results}

    own, shared = sims(0.0), sims(0.6)
    assert own["D1:1"] > max(own["D1:2"], own["D1:3"])
    expected = max(
        0.4 * own["D1:3"] + 0.6 * own["D1:2"],  # the next turn, full weight
        0.7 * own["D1:3"] + 0.3 * own["D1:1"],  # two away, half the weight
    )
    assert 0.7 * own["D1:3"] + 0.3 * own["D1:1"] > max(
        own["D1:3"], 0.4 * own["D1:3"] + 0.6 * own["D1:2"]
    )
    assert shared["D1:3"] == pytest.approx(expected, abs=2e-4)


def test_boosted_matches_keep_their_order_instead_of_tying_at_one(
    home: Path, clock: FrozenClock
) -> None:
    # Both of ana's turns match well and the query names her: boosted past 1, they
    # used to tie there and recency put the newer, weaker match first.
    cfg = load_config(home, env={}, overrides={"recall": {"speaker_boost": 1.0}})
    turns = [
        ("ana", "pottery workshop downtown", "D1:1", -40),
        ("ana", "pottery workshop downtown was fun, with glaze and clay today", "D2:1", -20),
        ("ben", "I prefer the budget meeting over lunch", "D2:2", -20),
    ]
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as memory:
        unwrap(
            memory.ingest_turns(
                [
                    {"speaker": s, "text": t, "session_id": m[:2], "message_id": m}
                    | {"timestamp": clock() + days * 86_400}
                    for s, t, m, days in turns
                ]
            )
        )
        results = unwrap(memory.recall("ana pottery workshop downtown", limit=3))
    assert [r["source_id"] for r in results][:2] == ["D1:1", "D2:1"]
    assert all(0 <= r["similarity"] <= 1 for r in results)
    assert results[0]["similarity"] == results[1]["similarity"] == 1.0  # shown capped


def test_a_turn_of_few_content_words_keeps_less_of_its_similarity() -> None:
    from hermes_memory.api.adjust import discount_short_turns
    from hermes_memory.api.candidates import Candidate

    def turn(key: str, text: str) -> Candidate:
        return Candidate(key, f"ann: {text}", "tier2", "episode", 0.0, 0.5, speaker="ann")

    pool = {
        "short": turn("short", "Wow, love it!"),
        "full": turn(
            "full",
            "I signed up for a pottery class downtown with my sister, "
            "and we glazed bowls and a vase on Saturday morning",
        ),
        "fact": Candidate("fact", "Ann likes pottery", "tier2", "fact", 0.0, 0.5),
    }
    fused = dict.fromkeys(pool, 0.8)
    discount_short_turns(pool, fused, 10, 0.2)
    assert fused["full"] == fused["fact"] == 0.8  # enough words; facts are not turns
    assert fused["short"] == pytest.approx(0.8 * (2 / 10) ** 0.3)  # "wow", "love"
    unchanged = dict.fromkeys(pool, 0.8)
    discount_short_turns(pool, unchanged, 0, 0.2)
    assert unchanged == dict.fromkeys(pool, 0.8)
    # Under the floor a turn is left alone, unless only one signal found it: then its
    # floor is lowered (scoring.floor_share) and it is still a short turn to discount.
    weak = dict.fromkeys(pool, 0.15)
    discount_short_turns(pool, weak, 10, 0.2)
    assert weak["short"] == 0.15
    discount_short_turns(pool, weak, 10, 0.2, gate={"short": 0.6})
    assert weak["short"] == pytest.approx(0.15 * (2 / 10) ** 0.3)


def test_feedback_words_find_a_turn_the_query_shares_no_word_with(
    home: Path, clock: FrozenClock
) -> None:
    from hermes_memory.api.candidates import episode_candidate
    from hermes_memory.api.feedback import add_candidates, expansion_terms

    best = [["pottery", "class", "kids"], ["pottery", "kids", "clay"]]
    everything = [*best, ["budget", "meeting"], ["pottery", "class"], ["budget", "kids"]]
    assert expansion_terms("pottery class", best, everything, 2) == ["clay", "kids"]
    assert expansion_terms("pottery class", best, everything, 0) == []

    turns = [
        "we took a pottery class with the kids",
        "the pottery class was fun for the kids",
        "the kids glazed bowls at home",  # no word of the query
    ] + [f"the quarterly budget meeting number {i} ran long" for i in range(30)]
    cfg = load_config(home, env={}, overrides={"recall": {"feedback_terms": 5}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as memory:
        unwrap(
            memory.ingest_turns(
                [
                    {"speaker": "ana", "text": t, "session_id": f"s{i}", "message_id": f"m{i}"}
                    for i, t in enumerate(turns)
                ]
            )
        )
        assert memory.semantic is not None
        first = memory.episodes.search(memory.owner, "pottery class", limit=4)
        pool = {c.key: c for c in (episode_candidate(h.episode) for h in first)}
        assert {c.provenance["source_id"] for c in pool.values()} == {"m0", "m1"}
        vector = memory.semantic.embed_cached(["pottery class"])[0]
        added = add_candidates(
            memory, "pottery class", pool, list(pool), vector,
            per_tier=1, terms=5, scope=None, as_of=None,
        )  # fmt: skip
        new = {c.provenance["source_id"]: c for c in pool.values() if "feedback" in c.extra}
        assert added == len(new) and "m2" in new
        found = new["m2"]  # through "kids"; with its own cosine and no lexical score
        cosine = memory.semantic.store.similarities(vector, [found.provenance["id"]])
        assert found.semantic == cosine[found.provenance["id"]] and found.lexical_raw == 0.0
        envelope = memory.recall("pottery class", limit=5)
        assert "feedback" in envelope["meta"]["timings_ms"]
        assert [r["source_id"] for r in envelope["data"]][:2] == ["m0", "m1"]


def test_a_question_only_about_a_time_is_answered_by_what_was_said_then(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    # Asked on Friday 13 March 2026, "last week" is Monday 2 to Sunday 8 March: a turn of
    # the week before shares the question's words, last week's share none.
    day = 86_400.0
    monday = datetime(2026, 3, 2, 10, tzinfo=UTC).timestamp()
    api.ingest_turn("user", "I won't work on the app on Thursday afternoon.",
                    session_id="a", message_id="1", timestamp=monday - 6 * day)  # fmt: skip
    api.ingest_turn("user", "The sync double-inserts expenses after going offline.",
                    session_id="b", message_id="2", timestamp=monday + day)  # fmt: skip
    api.ingest_turn("user", "Decided: upsert on the client id plus a flush lock.",
                    session_id="b", message_id="3", timestamp=monday + day + 60)  # fmt: skip
    clock.set(monday + 11 * day)
    ranked = [r["source_id"] for r in unwrap(api.recall("what did we work on last week?"))]
    assert set(ranked[:2]) == {"2", "3"}
    # A question naming something besides the time is matched on it as before.
    named = unwrap(api.recall("what about the app on Thursday afternoon two weeks ago?"))
    assert named[0]["source_id"] == "1"


@pytest.mark.parametrize(
    ("query", "only_time"),
    [
        ("what did we do last week?", True),
        ("What did we work on yesterday?", True),
        ("anything new since Monday?", True),
        ("recap of last month", True),
        ("What did Priya say last week?", False),
        ("which bugs did we fix in March?", False),
        ("What did Caroline do on 8 May, 2023?", False),
    ],
)
def test_a_question_asks_only_about_a_time_when_it_names_nothing_else(
    query: str, only_time: bool
) -> None:
    from hermes_memory.api.adjust import asks_only_time

    assert asks_only_time(query) is only_time


def test_a_question_about_a_time_ahead_finds_what_names_its_days(
    api: MemoryAPI, clock: FrozenClock
) -> None:
    # Friday 27 November 2026: nothing was recorded in January yet, but turns name it.
    said = datetime(2026, 11, 20, 10, tzinfo=UTC).timestamp()
    api.ingest_turn("user", "The warehouse cut-over has to be finished by January 15th.",
                    session_id="a", message_id="1", timestamp=said)  # fmt: skip
    api.ingest_turn("user", "Our offsite is on December 3rd in Porto.",
                    session_id="a", message_id="2", timestamp=said + 60)  # fmt: skip
    api.ingest_turn("user", "The January newsletter went out late again.",
                    session_id="a", message_id="3", timestamp=said + 120)  # fmt: skip
    clock.set(datetime(2026, 11, 27, 10, tzinfo=UTC).timestamp())
    results = unwrap(api.recall("what's due in January?", limit=3))
    assert results[0]["source_id"] == "1" and "time" in results[0]["match_reasons"]
    # Asked of the past, the same month is the last one: nothing names it ahead.
    past = unwrap(api.recall("what did we ship in January?", limit=3))
    assert all("time" not in r["match_reasons"] for r in past)
