"""Recall's candidates: one memory from any tier with the evidence gathered for it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hermes_memory.text.excerpt import excerpt
from hermes_memory.tier2.episodes import attachment_text
from hermes_memory.tier2.fts import query_terms, stem_prefix
from hermes_memory.tier2.passages import best_passage

if TYPE_CHECKING:
    from hermes_memory.api.memory_api import MemoryAPI


@dataclass
class Candidate:
    key: str
    content: str
    tier: str
    kind: str
    created_at: float
    importance: float
    scope: str = "/"
    lexical_raw: float = 0.0  # FTS5 bm25 (negative is better)
    lexical_fixed: float | None = None  # already in [0, 1] (curated word overlap)
    semantic: float = 0.0
    extra: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    valid_at: float | None = None  # when it became true (facts)
    invalid_at: float | None = None  # when a later fact superseded it
    superseded_by: str | None = None
    speaker: str | None = None  # turns: who said it
    category: str | None = None  # facts: their category
    # (stage, similarity after it) for fusion and each adjustment that changed it
    trace: list[tuple[str, float]] = field(default_factory=list)
    # The text of its vector row nearest the query (a chunk or sentence segment)
    passage: str | None = None
    # Where in ``said`` its best window of the query's words is (long ones: passages.py)
    lexical_span: tuple[int, int] | None = None
    # A date it names inside the time a query asks about ahead ("what's due in January?")
    named_date: float | None = None

    @functools.cached_property
    def said(self) -> str:
        """Its words: a turn's without the speaker's name in front."""
        return self.content.removeprefix(f"{self.speaker}: ") if self.speaker else self.content

    @functools.cached_property
    def words(self) -> int:
        """How many words ``said`` has (a long turn stands on its own: adjust.py)."""
        return len(self.said.split())

    @functools.cached_property
    def terms(self) -> list[str]:
        """The content words of ``said`` (fts.query_terms), worked out once a recall."""
        return query_terms(self.said)


def known_at(cand: Candidate, when: float) -> bool:
    """Recorded by ``when`` and, for facts, already true then."""
    if cand.tier == "tier1":
        return True
    started = cand.valid_at if cand.valid_at is not None else cand.created_at
    return cand.created_at <= when and started <= when


def in_scope(scope: str, prefix: str) -> bool:
    return scope == prefix or scope.startswith(prefix.rstrip("/") + "/")


def visible(cand: Candidate, scope: str | None, as_of: float | None) -> bool:
    """Inside ``scope`` (when given) and known at ``as_of`` (when given)."""
    return (scope is None or in_scope(cand.scope, scope)) and (
        as_of is None or known_at(cand, as_of)
    )


def search_tier2(api: MemoryAPI, text: str, limit: int, scope: str | None) -> list[Candidate]:
    """The facts (superseded ones too) and turns BM25 finds for ``text``, at most
    ``limit`` of each, with their scores in ``lexical_raw``."""
    found: list[Candidate] = []
    facts = api.facts.search(api.owner, text, limit=limit, scope_prefix=scope, include_invalid=True)
    for hit in facts:
        cand = fact_candidate(hit.fact)
        cand.lexical_raw = hit.bm25
        found.append(cand)
    for ehit in api.episodes.search(api.owner, text, limit=limit):
        cand = episode_candidate(ehit.episode)
        cand.lexical_raw = ehit.bm25
        found.append(cand)
    return found


class PassageScorer:
    """Gives every fact and turn of more than ``long_words`` words, however it was
    found, the BM25 of its best ``window``-character passage as its lexical score
    (tier2/passages.py); shorter ones keep the index's BM25 of their whole text. A
    recall calls :meth:`score` as candidates arrive: the ones BM25 found are scored
    while the query is still being embedded, the vector search's after it."""

    def __init__(self, api: MemoryAPI, query: str, long_words: int, window: int) -> None:
        self.api, self.long_words, self.window = api, long_words, window
        self.terms = query_terms(query) if window > 0 and long_words > 0 else []
        self.stems = [stem_prefix(t.casefold()) for t in self.terms]
        self.done: set[str] = set()
        self._stats: tuple[list[float], float] | None = None

    def score(self, pool: dict[str, Candidate]) -> int:
        """Score the long candidates of ``pool`` not scored yet; how many were."""
        if not self.terms:
            return 0
        todo = [
            c
            for key, c in pool.items()
            if key not in self.done and c.kind in ("fact", "episode") and c.words > self.long_words
        ]
        if not todo:
            return 0
        if self._stats is None:
            stats = self.api.episodes.term_stats(self.terms)
            self._stats = (stats.weights(), stats.avg_chars)
        weights, avg = self._stats
        for cand in todo:
            best = best_passage(cand.said, self.stems, weights, self.window, avg)
            cand.lexical_raw = -best.score
            if best.score > 0:
                cand.lexical_span = (best.start, best.start + self.window)
            self.done.add(cand.key)
        return len(todo)


def load_candidates(api: MemoryAPI, keys: list[str]) -> dict[str, Candidate]:
    """The facts and turns named by ``keys`` ("fact:<uuid>", "episode:<uuid>") that
    this owner can see, as candidates; other keys are ignored."""
    wanted: dict[str, list[str]] = {"fact": [], "episode": []}
    for key in dict.fromkeys(keys):
        kind, _, uuid = key.partition(":")
        if kind in wanted:
            wanted[kind].append(uuid)
    found = {
        f"fact:{f.uuid}": fact_candidate(f)
        for f in api.facts.get_many(api.owner, wanted["fact"]).values()
    }
    for e in api.episodes.get_many(api.owner, wanted["episode"]).values():
        found[f"episode:{e.uuid}"] = episode_candidate(e)
    return found


def fact_candidate(f: Any) -> Candidate:
    return Candidate(
        valid_at=f.valid_at,
        invalid_at=f.invalid_at,
        superseded_by=f.superseded_by,
        key=f"fact:{f.uuid}",
        content=f.content,
        category=f.category,
        tier="tier2",
        kind="fact",
        created_at=f.created_at,
        importance=f.importance,
        scope=f.scope,
        provenance={
            "id": f.uuid,
            "rowid": f.rowid,
            "source_type": f.source_type,
            "source_id": f.source_id,
            "session_id": f.metadata.get("session_id"),
            "evidence_ids": f.evidence_ids,
            "valid": f.invalid_at is None,
            "superseded_by": f.superseded_by,
            "flags": f.flags,
        },
    )


def episode_candidate(e: Any) -> Candidate:
    return Candidate(
        key=f"episode:{e.uuid}",
        content=f"{e.speaker}: {e.text}",
        tier="tier2",
        kind="episode",
        created_at=e.timestamp,
        importance=float(e.metadata.get("importance", 0.5)),
        speaker=e.speaker,
        provenance={
            "id": e.uuid,
            "rowid": e.rowid,
            "source_type": "session",
            "source_id": e.message_id,
            "session_id": e.session_id,
            "evidence_ids": [e.message_id],
            "flags": e.flags,
            # What it shared besides its words (an image's caption, a file's name).
            **({"shared": shared} if (shared := attachment_text(e.metadata)) else {}),
        },
    )


def fold_restatements(order: list[str], pool: dict[str, Candidate]) -> list[str]:
    """``order`` without the memories that restate a better-ranked one: a fact formed
    from a turn, and that turn, are one memory in the results (the first to rank
    stays, and lists the other in ``provenance.folded``)."""
    kept: list[str] = []
    said_by: dict[str, str] = {}  # message id -> the kept result standing for it
    for key in order:
        cand = pool[key]
        ids = _restated(cand)
        holder = next((said_by[i] for i in ids if i in said_by), None) if ids else None
        if holder is not None:
            pool[holder].provenance.setdefault("folded", []).append(key)
            continue
        kept.append(key)
        for i in ids:
            said_by.setdefault(i, key)
    return kept


def _restated(cand: Candidate) -> list[str]:
    """The messages a turn is, or a formed fact was said in."""
    if cand.kind == "episode":
        return [str(cand.provenance["source_id"])]
    if cand.kind == "fact" and cand.provenance.get("source_type") == "formation":
        return [str(i) for i in cand.provenance.get("evidence_ids") or ()]
    return []


def excerpt_of(cand: Candidate, size: int, matches: Callable[[str], int]) -> str:
    """About ``size`` characters of a long memory around what the query matched
    (text/excerpt.py); a turn's keeps its speaker in front."""
    passage = cand.passage
    if passage and cand.speaker:  # a turn's first chunk was embedded after its speaker
        passage = passage.removeprefix(f"{cand.speaker}: ")
    cut = excerpt(cand.said, size, matches=matches, passage=passage, span=cand.lexical_span)
    return f"{cand.speaker}: {cut}" if cand.speaker else cut
