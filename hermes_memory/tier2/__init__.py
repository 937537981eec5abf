"""Tier 2: the SQLite source of truth (facts, episodes, entities, relations, timeline)."""

from hermes_memory.tier2.db import Database
from hermes_memory.tier2.entities import EntityStore
from hermes_memory.tier2.episodes import EpisodeStore, TurnInput
from hermes_memory.tier2.facts import FactStore
from hermes_memory.tier2.records import Entity, Episode, Fact, Owner, Relation, TimelineEvent
from hermes_memory.tier2.timeline import TimelineStore

__all__ = [
    "Database",
    "Entity",
    "EntityStore",
    "Episode",
    "EpisodeStore",
    "Fact",
    "FactStore",
    "Owner",
    "Relation",
    "TimelineEvent",
    "TimelineStore",
    "TurnInput",
]
