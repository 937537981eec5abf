"""The operational sections of the typed config (hermes_memory/config.py): when the
maintenance jobs run, how long things are kept, what the guard does, whose memory the
CLI acts as, and the agent-facing budgets."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Section(BaseModel):
    """A config section: unknown keys are errors, values are frozen and checked."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class CronConfig(Section):
    """5-field cron schedules of the maintenance jobs."""

    # When each job is due (5-field cron, in cron.timezone): consolidate_schedule,
    # embed_schedule, graph_rebuild_schedule, prune_schedule, verify_schedule.
    consolidate_schedule: str = "0 3 * * *"
    embed_schedule: str = "*/5 * * * *"
    graph_rebuild_schedule: str = "0 4 * * 0"
    prune_schedule: str = "0 2 1 * *"
    verify_schedule: str = "30 3 * * *"
    # Schedules are read in this time zone ("local": the machine's).
    timezone: str = "local"
    # A running job renews its lease; one not renewed for this long may be taken over.
    lease_seconds: float = Field(900, gt=0)

    @field_validator(
        "consolidate_schedule",
        "embed_schedule",
        "graph_rebuild_schedule",
        "prune_schedule",
        "verify_schedule",
    )
    @classmethod
    def _valid_cron(cls, value: str) -> str:
        from croniter import croniter

        if len(value.split()) != 5 or not croniter.is_valid(value):
            raise ValueError(f"{value!r} is not a 5-field cron expression")
        return value

    @field_validator("timezone")
    @classmethod
    def _valid_zone(cls, value: str) -> str:
        if value != "local":
            from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"unknown time zone {value!r}") from None
        return value


class LimitsConfig(Section):
    """How long things are kept, and how much one job run takes on."""

    # Prune archives unimportant facts idle this long (see ttl_importance_below).
    fact_ttl_days: float = Field(365, gt=0)
    # Prune takes turns older than this out of the vector index (they stay in tier 2).
    session_index_max_age_days: float = Field(90, gt=0)
    # Items one embed_queue run takes from the outbox.
    max_embedding_queue: int = Field(1000, gt=0)
    # Facts below this importance that nobody used or changed for fact_ttl_days are
    # archived by prune; at or above it they are kept until they expire.
    ttl_importance_below: float = Field(0.5, ge=0.0, le=1.0)


class SecurityConfig(Section):
    """What the guard does with secrets and prompt-injection-looking content."""

    # A secret in a fact or entry: refuse the write, or store it redacted (turns are
    # always redacted and kept); injection-looking text: refuse, or store it flagged.
    secrets: Literal["refuse", "redact"] = "refuse"
    injection: Literal["refuse", "flag"] = "refuse"


class OwnerConfig(Section):
    """Whose memory the CLI, the MCP server and library callers act as.

    Hermes tells its provider who is talking (platform, profile, gateway user and
    chat); everything else uses these keys. The defaults are those of Hermes' own
    command line in this ``HERMES_HOME``, so ``hermes-memory recall`` sees what the
    Hermes CLI remembered. ``agent`` unset: the Hermes profile name that
    ``HERMES_HOME`` implies ("default", or ``<name>`` for ``.../profiles/<name>``).
    """

    # The owner's key: platform, agent (profile) and user_id, as Hermes names them.
    platform: str = Field("cli", max_length=100)
    agent: str | None = Field(None, max_length=100)
    user_id: str = Field("", max_length=200)
    # A chat's key: what this owner writes as scratch stays in it ("" for none).
    session: str = Field("", max_length=400)


class AgentConfig(Section):
    """The Hermes memory provider, its tool and the MCP server."""

    # Characters of recalled context prefetch may put in front of a turn.
    prefetch_chars: int = Field(1500, ge=200, le=20_000)
    # At most this many memories in that block.
    prefetch_limit: int = Field(8, ge=1, le=50)
    # A longer message is recalled by its opening and close, this many characters in
    # all: a pasted log or file asks its question before or after itself, the query's
    # vector reads ~1,000 characters, and recall refuses a query over
    # tier2.max_content_chars.
    prefetch_query_chars: int = Field(4000, ge=200, le=20_000)
    # Memories whose similarity to the query is below this share of the most similar
    # one's are left out of the block (recency and importance order the block; they do
    # not bring a memory into it).
    prefetch_min_relative: float = Field(0.5, ge=0.0, le=1.0)
    # A relative date in a memory shown to the agent is followed by the date it means,
    # worked out from when the memory was said: "yesterday (2023-05-07)" in a block,
    # {"yesterday": "2023-05-07"} as `dates` in the tool's recall and memory_get.
    block_dates: bool = True
    # How long prefetch waits for the embedding model (still loading at start-up)
    # before answering from the lexical tiers alone.
    prefetch_embed_wait: float = Field(1.0, ge=0.0, le=7.0)
    # At most this many of the user's standing instructions (live facts of category
    # "instruction": "keep answers short", "never suggest terraform apply without the
    # plan"), the most important then the newest, are listed in the system prompt, so
    # they hold in every turn, not only where a turn resembles them (0 lists none).
    standing_in_prompt: int = Field(8, ge=0, le=50)
    # Characters that list may take.
    standing_chars: int = Field(1200, ge=100, le=10_000)
    # Expose consolidate and rebuild to the model (operator actions).
    operator_actions: bool = False
    # Largest limit a tool call may ask for.
    max_tool_limit: int = Field(50, ge=1, le=500)
