"""``hermes-memory graph ...``: the knowledge graph from the command line."""

from __future__ import annotations

from typing import Any

import click

from hermes_memory.api.graph_ops import EXPORT_FORMATS
from hermes_memory.cli.context import Context, emit, pass_ctx
from hermes_memory.graph.knowledge_graph import CENTRALITY


@click.group()
def graph() -> None:
    """The knowledge graph (derived from entities and relations)."""


def _step(s: dict[str, Any]) -> str:
    ended = "" if s["valid"] else " (ended)"
    return f"{s['from']} -{s['relation']}-> {s['to']}{ended}"


@graph.command("traverse")
@click.argument("entity")
@click.option("--depth", type=int, default=2, show_default=True)
@click.option("--relation", "relations", help="Only these relations, comma-separated.")
@click.option("--include-ended", is_flag=True, help="Also follow relations no longer valid.")
@pass_ctx
def traverse(
    ctx: Context, entity: str, depth: int, relations: str | None, include_ended: bool
) -> None:
    """Entities within DEPTH hops of ENTITY, with the path to each."""

    def render(data: list[dict[str, Any]]) -> str:
        if not data:
            return f"nothing is linked to {entity}"
        return "\n".join(
            f"{r['depth']}  {r['name']} ({r['entity_type']})  via "
            + " / ".join(_step(s) for s in r["path"])
            for r in data
        )

    env = ctx.api().graph_traverse(entity, depth, relations, include_invalid=include_ended)
    emit(ctx, env, render)


@graph.command("path")
@click.argument("source")
@click.argument("target")
@pass_ctx
def path(ctx: Context, source: str, target: str) -> None:
    """The shortest chain of relations from SOURCE to TARGET."""

    def render(data: list[dict[str, Any]]) -> str:
        if not data:
            return f"{source} and {target} are not connected"
        return "\n".join(_step(p["via"]) for p in data[1:]) or data[0]["name"]

    emit(ctx, ctx.api().graph_shortest_path(source, target), render)


@graph.command("central")
@click.option("--limit", type=int, default=10, show_default=True)
@click.option("--algorithm", type=click.Choice(CENTRALITY))
@pass_ctx
def central(ctx: Context, limit: int, algorithm: str | None) -> None:
    """The most central entities."""
    emit(
        ctx,
        ctx.api().graph_central_entities(limit, algorithm),
        lambda d: (
            "\n".join(f"{r['score']:.4f}  {r['name']} ({r['entity_type']})" for r in d)
            or "the graph is empty"
        ),
    )


@graph.command("communities")
@click.option("--min-size", type=int, default=2, show_default=True)
@pass_ctx
def communities(ctx: Context, min_size: int) -> None:
    """Groups of closely linked entities (Louvain)."""
    emit(
        ctx,
        ctx.api().graph_communities(min_size),
        lambda d: (
            "\n".join(
                f"{c['id']}. {c['size']} entities, around {', '.join(c['hubs'])}: "
                + ", ".join(c["members"][:20])
                + (" ..." if c["size"] > 20 else "")
                for c in d
            )
            or "no communities (too few relations)"
        ),
    )


@graph.command("rebuild")
@pass_ctx
def rebuild(ctx: Context) -> None:
    """Re-derive the graph from SQLite and save it."""
    emit(
        ctx,
        ctx.api().graph_rebuild(),
        lambda d: f"graph rebuilt: {d['nodes']} entities, {d['edges']} relations -> {d['path']}",
    )


@graph.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default="html",
    show_default=True,
)
@click.option("-o", "--output", help="File to write (default: beside the graph).")
@pass_ctx
def export(ctx: Context, fmt: str, output: str | None) -> None:
    """Write the graph as GraphML, node-link JSON or a self-contained HTML page."""
    emit(
        ctx,
        ctx.api().graph_export(fmt, output),
        lambda d: f"wrote {d['path']} ({d['nodes']} entities, {d['edges']} relations)",
    )
