"""A standing instruction is found by the occasion it names (api/standing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_memory import FrozenClock, MemoryAPI, load_config, unwrap
from hermes_memory.api import standing
from hermes_memory.text.statements import applies_to
from hermes_memory.tier2.records import Owner
from hermes_memory.tier3.embedder import HashingEmbedder


@pytest.mark.parametrize(
    ("text", "occasion"),
    [
        ("Always state every base case when I ask about strong induction proofs.",
         "strong induction proofs"),
        ("Use tabs, not spaces, whenever we work on the Go services.", "the Go services"),
        ("Keep answers short for questions about billing.", "billing"),
        ("When I'm writing tests, remind me to use fixtures.", "writing tests"),
        ("If I mention a deadline, add it to my calendar.", "mention a deadline"),
        ("I prefer dark mode.", None),
        ("Never deploy on Fridays.", None),
    ],
)  # fmt: skip
def test_the_occasion_of_a_standing_statement_is_read(text: str, occasion: str | None) -> None:
    assert applies_to(text) == occasion


INSTRUCTION = "Always state every base case explicitly when I ask about strong induction proofs."
QUERY = "Prove that every integer above one is a product of primes with strong induction"


def _store(api: MemoryAPI) -> None:
    unwrap(api.fact_store(INSTRUCTION, category="instruction"))
    billing = "Keep answers short for questions about billing."
    unwrap(api.fact_store(billing, category="instruction"))
    turns = [
        {"speaker": "user", "text": f"Strong induction step {i}: assume every k below n, "
         f"then n is prime or a product of two smaller factors ({i}).",
         "session_id": "s1", "message_id": str(i)}
        for i in range(30)
    ]  # fmt: skip
    unwrap(api.ingest_turns(turns))


@pytest.mark.parametrize("share", [1.0, 0.0])
def test_an_instruction_for_the_occasion_asked_about_ranks_with_the_best(
    home: Path, clock: FrozenClock, share: float
) -> None:
    # The hashing embedder's cosines are lower than the model's: the floor is set to it.
    # Thirty turns on the very topic all match about equally: the instruction is raised
    # to the best one's similarity (1.0) or left to its own (0: off).
    overrides = {"recall": {"applies_share": share, "applies_min_cosine": 0.3}}
    cfg = load_config(home, env={}, overrides=overrides)
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        top = unwrap(api.recall(QUERY, limit=10))  # of 30 turns on the very topic
        shown = [r["content"] for r in top]
        assert (INSTRUCTION in shown) is (share > 0)
        if share:
            hit = top[shown.index(INSTRUCTION)]
            assert "applies" in hit["match_reasons"] and "standing" in hit["match_reasons"]
        assert all("billing" not in c for c in shown)  # the other occasion stays out


def test_another_persons_instruction_never_applies(home: Path, clock: FrozenClock) -> None:
    overrides = {"recall": {"applies_min_cosine": 0.3}}
    cfg = load_config(home, env={}, overrides=overrides)
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        other = api.as_owner(Owner("telegram", "default", "someone-else", "chat:9"))
        assert all(r["content"] != INSTRUCTION for r in unwrap(other.recall(QUERY, limit=5)))


def test_a_question_about_what_was_said_gets_no_instruction(home: Path, clock: FrozenClock) -> None:
    overrides = {"recall": {"applies_share": 1.0, "applies_min_cosine": 0.3}}
    cfg = load_config(home, env={}, overrides=overrides)
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        asked = "Which strong induction proofs did I mention with every integer above one?"
        top = unwrap(api.recall(asked, limit=10))
        assert all("applies" not in r["match_reasons"] for r in top)


def test_a_recall_embeds_only_so_many_new_occasions(home: Path, clock: FrozenClock) -> None:
    with MemoryAPI(load_config(home, env={}), clock=clock, embedder=HashingEmbedder()) as api:
        for i in range(standing.NEW_PER_RECALL + 8):
            unwrap(api.fact_store(f"Use style {i} when I ask about topic number {i}.",
                                  category="instruction"))  # fmt: skip
        sem = api.semantic
        assert sem is not None
        unwrap(api.recall("what about topic number 3?", limit=3))
        occasions = [f"topic number {i}" for i in range(standing.NEW_PER_RECALL + 8)]
        assert sum(map(sem.is_cached, occasions)) == standing.NEW_PER_RECALL
        unwrap(api.recall("what about topic number 5?", limit=3))
        assert all(map(sem.is_cached, occasions))


def test_a_failing_model_leaves_recall_standing(
    home: Path, clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = load_config(home, env={}, overrides={"recall": {"applies_min_cosine": 0.3}})
    with MemoryAPI(cfg, clock=clock, embedder=HashingEmbedder()) as api:
        _store(api)
        sem = api.semantic
        assert sem is not None

        def broken(texts: list[str]) -> object:
            if "strong induction proofs" in texts:  # an occasion, not the query
                raise RuntimeError("model gone")
            return type(sem).embed_cached(sem, texts)

        monkeypatch.setattr(sem, "embed_cached", broken)
        env = api.recall(QUERY, limit=5)
        assert env["success"] and env["data"]
        assert any(d.startswith("applies: model gone") for d in env["meta"]["degraded"])


def test_the_standing_facts_read_are_never_older_than_the_database(
    home: Path, clock: FrozenClock
) -> None:
    """newest_in answers from its last read until anything changes, in this process
    or another."""
    with MemoryAPI(load_config(home, env={}), clock=clock) as api:
        kinds = ["instruction"]
        first = unwrap(
            api.fact_store("Always use tabs when I ask about Makefiles", category="instruction")
        )
        assert [u for u, _ in api.facts.newest_in(api.owner, kinds, limit=5)] == [first["uuid"]]
        with MemoryAPI(load_config(home, env={}), clock=clock) as other:  # another process
            second = unwrap(
                other.fact_store(
                    "Always cite the RFC when I ask about HTTP", category="instruction"
                )
            )
        newest = [u for u, _ in api.facts.newest_in(api.owner, kinds, limit=5)]
        assert newest == [second["uuid"], first["uuid"]]
        unwrap(api.fact_delete(second["uuid"]))  # this process's own change
        assert [u for u, _ in api.facts.newest_in(api.owner, kinds, limit=5)] == [first["uuid"]]
        # Counting a recall's accesses changes nothing a cached read depends on.
        api.recall("Makefiles", limit=3)  # (the first also drains the embed outbox)
        before = api.db.generation()
        api.recall("Makefiles", limit=3)
        assert api.db.generation() == before
        unwrap(api.fact_update(first["uuid"], importance=0.9))
        assert api.db.generation() != before
