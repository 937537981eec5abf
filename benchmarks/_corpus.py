"""A deterministic generator of realistic agent-memory text for benchmarks."""

from __future__ import annotations

import random

from hermes_memory import MemoryAPI

PEOPLE = [
    "Alice",
    "Bob",
    "Carol",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hiro",
    "Ines",
    "Jonas",
    "Kavya",
    "Liam",
    "Mei",
    "Nadia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tomas",
]
TECH = [
    "PostgreSQL",
    "MySQL",
    "Redis",
    "Kafka",
    "Kubernetes",
    "Terraform",
    "Grafana",
    "Prometheus",
    "Nginx",
    "Django",
    "FastAPI",
    "React",
    "Rust",
    "Go",
    "Python",
    "SQLite",
    "LanceDB",
    "Elasticsearch",
    "RabbitMQ",
    "Celery",
    "Airflow",
    "Spark",
    "Docker",
    "Vault",
]
PROJECTS = [
    "billing",
    "orders",
    "search",
    "auth",
    "payments",
    "analytics",
    "ingest",
    "gateway",
    "notifications",
    "reporting",
    "inventory",
    "checkout",
    "onboarding",
    "scheduler",
]
VERBS = [
    "uses",
    "depends on",
    "was migrated to",
    "is deployed with",
    "stores data in",
    "is monitored by",
    "reads from",
    "publishes to",
    "is being rewritten in",
    "caches in",
]
PREFS = [
    "prefers short answers",
    "likes code before prose",
    "wants tests for every change",
    "dislikes long meetings",
    "reviews PRs in the morning",
    "uses vim keybindings",
    "prefers dark mode",
    "works in the CET timezone",
    "wants weekly summaries",
]
DECISIONS = ["we decided to", "the team agreed to", "we will", "we chose to", "it was decided to"]
ACTIONS = [
    "freeze deploys on Fridays",
    "rotate credentials every 90 days",
    "keep p95 latency under 200 ms",
    "archive logs after 30 days",
    "run the migration during the weekend",
    "pin all dependency versions",
    "split the monolith by domain",
    "add a read replica",
    "drop support for Python 3.9",
    "move CI to self-hosted runners",
]


def fact_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.45:
        return (
            f"The {rng.choice(PROJECTS)} service {rng.choice(VERBS)} "
            f"{rng.choice(TECH)} since {rng.choice(['January', 'March', 'June', 'autumn'])} "
            f"{rng.choice([2024, 2025, 2026])}"
        )
    if kind < 0.65:
        return f"{rng.choice(PEOPLE)} {rng.choice(PREFS)}"
    if kind < 0.85:
        return (
            f"For {rng.choice(PROJECTS)}, {rng.choice(DECISIONS)} {rng.choice(ACTIONS)} "
            f"(ticket {rng.randint(100, 9999)})"
        )
    return (
        f"{rng.choice(PEOPLE)} owns the {rng.choice(PROJECTS)} service and works with "
        f"{rng.choice(PEOPLE)} on {rng.choice(TECH)}"
    )


def query_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:
        return f"what does the {rng.choice(PROJECTS)} service use"
    if kind < 0.6:
        return f"what does {rng.choice(PEOPLE)} prefer"
    if kind < 0.8:
        return f"{rng.choice(TECH)} migration decision"
    return f"who owns {rng.choice(PROJECTS)}"


def store_fact(
    api: MemoryAPI, rng: random.Random, number: int, now: float, *, spread_days: float = 0.0
) -> None:
    """One generated fact straight into the tier-2 store (no API envelope, no linking),
    written up to ``spread_days`` before ``now``."""
    content = f"{fact_text(rng)} #{number}"
    importance = rng.random()
    written = now - rng.random() * spread_days * 86_400 if spread_days else now
    api.facts.store(
        api.owner,
        content=content,
        category="project",
        scope="/",
        importance=importance,
        confidence=1.0,
        source_type="user",
        source_id=None,
        now=written,
        actor="bench",
    )
