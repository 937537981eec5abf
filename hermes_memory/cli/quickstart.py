"""``hermes-memory quickstart``: store a few memories and get them back.

Runs on the embedded defaults in a throw-away home (or ``--home``), so a fresh
install can show every tier working without touching ``~/.hermes``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from hermes_memory.api import MemoryAPI, unwrap
from hermes_memory.config import load_config

DEMO_FACTS = (
    ("We use PostgreSQL 16 for the orders service", "project", 0.6, "/infrastructure/database"),
    (
        "We migrated the orders service from PostgreSQL to MySQL",
        "decision",
        0.8,
        "/infrastructure/database",
    ),
    ("Deploys go out through GitHub Actions on every merge to main", "ops", 0.5, "/ops/deploy"),
    ("The user prefers short answers with code first", "preference", 0.7, "/user"),
)
DEMO_QUERIES = ("What database are we using?", "how do deploys work")


@click.command()
@click.option(
    "--home",
    "demo_home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Use this Hermes home instead of a temporary one.",
)
def quickstart(demo_home: Path | None) -> None:
    """Store a few demo memories and recall them (embedded model, offline)."""
    with tempfile.TemporaryDirectory(prefix="hermes-memory-quickstart-") as tmp:
        home = demo_home or Path(tmp)
        with MemoryAPI(load_config(home, "quickstart"), actor="quickstart") as api:
            click.echo(f"hermes-memory quickstart (home: {home})")
            click.echo("\nstoring:")
            for content, category, importance, scope in DEMO_FACTS:
                unwrap(
                    api.fact_store(content, category=category, importance=importance, scope=scope)
                )
                click.echo(f"  [{category}] {content}")
            unwrap(api.entity_link("orders service", "MySQL", "depends_on"))
            unwrap(api.curated_add("Project codename: Hermes Memory"))
            for query in DEMO_QUERIES:
                click.echo(f"\n? {query}")
                for r in unwrap(api.recall(query, limit=3)):
                    click.echo(
                        f"  - {r['score']:.2f}  {r['content']}  ({', '.join(r['match_reasons'])})"
                    )
            click.echo("\ngraph (MySQL):")
            for e in unwrap(api.entity_query("MySQL")):
                for r in e["relations"]:
                    click.echo(f"  {r['from']} -{r['relation']}-> {r['to']}")
            stats = unwrap(api.stats())
            t2 = stats["tier2"]
            click.echo(
                f"\nstats: {t2['facts']} facts, {t2['entities']} entities, "
                f"{t2['relations']} relations, curated MEMORY.md "
                f"{stats['tier1']['memory']['usage']} chars"
            )
